// SPDX-License-Identifier: GPL-2.0
/*
 * The umount walk: select_collect_umount() unpins what is still persistent without
 * calling d_make_discardable(), umount_check() finds what is still in use. Both are
 * d_walk() callbacks, entered with d_lock held: fentry programs (preemption is off).
 * The brackets of an umount are in shutdown.bpf.h.
 */
#include "common.bpf.h"
#include "event.bpf.h"
#include "elide.bpf.h"

/*
 * A persistent dentry the walk reaches with nothing but its children holding it:
 * every child pins its parent, persistence pins the dentry once more. A leaf at count
 * 0; a directory whose count is no more than its children (counted up to a few: a
 * bigger count is legitimate or beyond this check, and the walk at stop sees the rest).
 * Only a directory has children (nothing is looked up below anything else): the
 * others, most of a tree, need their count alone. flags: d's d_flags.
 */
#define PDT_EATEN_MAX_CHILDREN 8
static __always_inline bool eaten_at_umount(struct dentry *d, u32 flags)
{
	u32 type = flags & bpf_core_enum_value(enum dentry_flags, DCACHE_ENTRY_TYPE);
	int count = d->d_lockref.count, i;
	struct hlist_node *n;

	if (type != bpf_core_enum_value(enum dentry_flags, DCACHE_DIRECTORY_TYPE) &&
	    type != bpf_core_enum_value(enum dentry_flags, DCACHE_AUTODIR_TYPE))
		return count == 0;
	n = d->d_children.first;
	if (!n)
		return count == 0;
	if (count > PDT_EATEN_MAX_CHILDREN)
		return false;
	for (i = 0; i < PDT_EATEN_MAX_CHILDREN && n; i++)
		n = BPF_CORE_READ(n, next);
	return i >= count;
}

/*
 * What the walk's unpin of a dentry sends: its elided PERSIST first (key, when it is
 * elided), its eaten reference, and the UNPIN itself, once per streamed entry of the
 * tree (no task-state lookup: it is inside an umount by construction). Out of line: the
 * program's own frame stays that of an elided entry's quiet unpin.
 */
static __noinline int unpin_streamed(void *ctx, struct dentry *dentry, u32 key)
{
	struct pdt_event *e;

	if (key != PDT_NO_KEY)
		pdt_materialize(key);
	if (eaten_at_umount(dentry, dentry->d_flags)) {
		struct pdt_event_full *f = emit_full(ctx, PDT_EV_EATEN, dentry);

		if (f) {
			f->h.flags |= PDT_F_AT_UMOUNT;
			submit(f);
		}
	}
	e = emit_small(PDT_EV_UNPIN, dentry, NULL);
	if (e) {
		e->flags |= PDT_F_IN_UMOUNT;
		submit(e);
	}
	return 0;
}

SEC("fentry/select_collect_umount")
int BPF_PROG(select_collect_umount, void *data, struct dentry *dentry)
{
	struct pdt_elided *m;
	u32 key = 0, flags;
	u64 a;

	flags = dentry->d_flags;
	if (!(flags & persistent_bit()))
		return 0;
	/*
	 * An elided entry's unpin is counted, unless its reference was eaten. This runs
	 * once per entry of the tree: the address by addr_by_anchor(), the probe inlined.
	 */
	a = addr_by_anchor(dentry);
	m = elided_probe(a, &key);
	if (!m)
		return unpin_streamed(ctx, dentry, PDT_NO_KEY);
	if (eaten_at_umount(dentry, flags))
		return unpin_streamed(ctx, dentry, key);
	elided_end(m, a, true);
	return 0;
}

/* The same test as umount_check(): a leaf that is not the root with count 1. */
SEC("fentry/umount_check")
int BPF_PROG(umount_check, void *data, struct dentry *dentry)
{
	struct pdt_event_full *e;

	graph_check(); /* an umount or shutdown whose bracket the kernel skipped */
	if (dentry->d_children.first)
		return 0;
	if (dentry->d_lockref.count == 1 && (u64)dentry == (u64)data)
		return 0;
	if (dentry->d_flags & persistent_bit())
		materialize_if(addr_of(dentry));
	e = emit_full(ctx, PDT_EV_BUSY, dentry);
	if (e)
		submit(e);
	return 0;
}
