// SPDX-License-Identifier: GPL-2.0
/*
 * The umount walk: select_collect_umount() unpins what is still persistent without
 * calling d_make_discardable(), umount_check() finds what is still in use. Both are
 * d_walk() callbacks, entered with d_lock held: fentry programs (preemption is off).
 * The brackets of an umount are in shutdown.bpf.h.
 */
#include "common.bpf.h"
#include "elide.bpf.h"

/*
 * A persistent dentry the walk reaches with nothing but its children holding it:
 * every child pins its parent, persistence pins the dentry once more. A leaf at count
 * 0; a directory whose count is no more than its children (counted up to a few: a
 * bigger count is legitimate or beyond this check, and the walk at stop sees the rest).
 */
#define PDT_EATEN_MAX_CHILDREN 8
static __always_inline bool eaten_at_umount(struct dentry *d)
{
	struct hlist_node *n = d->d_children.first;
	int count = d->d_lockref.count, i;

	if (!n)
		return count == 0;
	if (count > PDT_EATEN_MAX_CHILDREN)
		return false;
	for (i = 0; i < PDT_EATEN_MAX_CHILDREN && n; i++)
		n = BPF_CORE_READ(n, next);
	return i >= count;
}

SEC("fentry/select_collect_umount")
int BPF_PROG(umount_unpin, void *data, struct dentry *dentry)
{
	struct pdt_elided *m;
	struct pdt_event *e;
	u32 key = 0;
	u64 a = 0;

#ifdef PDT_STREAM_FLOOR
	if (dentry->d_flags & persistent_bit())
		return stream_floor(dentry);
#endif
	PDT_FLOOR_RETURN;
	if (!(dentry->d_flags & persistent_bit()))
		return 0;
	/*
	 * An elided entry's unpin is counted, unless its reference was eaten. This runs
	 * once per entry of the tree: the address as a number straight from the
	 * arguments (not addr_of()'s map round trip), the probe inlined.
	 */
	bpf_get_func_arg(ctx, 1, &a);
	m = elided_probe(a, &key);
	if (m) {
		if (!eaten_at_umount(dentry)) {
			elided_end(m, m->dentry, true);
			return 0;
		}
		pdt_materialize(key);
	}
	if (eaten_at_umount(dentry)) {
		struct pdt_event_full *f = emit_full(ctx, PDT_EV_EATEN, dentry);

		if (f) {
			f->h.flags |= PDT_F_AT_UMOUNT;
			submit(f);
		}
	}
	/*
	 * The umount walk's own event, once per entry of the tree: no task-state lookup,
	 * it is inside an umount by construction.
	 */
	e = emit_small(PDT_EV_UNPIN, dentry, NULL);
	if (e) {
		e->flags |= PDT_F_IN_UMOUNT;
		submit(e);
	}
	return 0;
}

/* The same test as umount_check(): a leaf that is not the root with count 1. */
SEC("fentry/umount_check")
int BPF_PROG(umount_busy, void *data, struct dentry *dentry)
{
	struct pdt_event_full *e;

	PDT_FLOOR_RETURN;
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
