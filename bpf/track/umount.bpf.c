// SPDX-License-Identifier: GPL-2.0
/*
 * Umount: deactivate_locked_super() brackets it (removals inside are exempt),
 * select_collect_umount() unpins what is still persistent without calling
 * d_make_discardable(), umount_check() finds what is still in use, and the end
 * of generic_shutdown_super() closes the superblock's books.
 */
#include "common.bpf.h"

static __always_inline int umount_enter_body(void *ctx, struct super_block *sb)
{
	struct pdt_task_state *t = task_state(true);

	if (t)
		t->umount_depth++;
	return 0;
}

PDT_HOOK("fentry/deactivate_locked_super", umount_enter, umount_enter_body(ctx, sb),
	 struct super_block *sb)

static __always_inline int umount_exit_body(void *ctx, struct super_block *sb)
{
	struct pdt_task_state *t = task_state(false);

	if (t && t->umount_depth)
		t->umount_depth--;
	return 0;
}

PDT_HOOK("fexit/deactivate_locked_super", umount_exit, umount_exit_body(ctx, sb),
	 struct super_block *sb)

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

static __always_inline int umount_unpin_body(void *ctx, void *data, struct dentry *dentry)
{
	struct pdt_sb_counts *c;
	struct pdt_event *e;
	u64 key = (u64)dentry;

	if (!(dentry->d_flags & persistent_bit()))
		return 0;
	if (eaten_at_umount(dentry)) {
		struct pdt_event_full *f = emit_full(ctx, PDT_EV_EATEN, dentry);

		if (f) {
			f->h.flags |= PDT_F_AT_UMOUNT;
			submit(f);
		}
	}
	e = emit_small(PDT_EV_UNPIN, dentry);
	if (e)
		submit(e);
	if (bpf_map_delete_elem(&dentries, &key))
		return 0;
	c = sb_counts((u64)BPF_CORE_READ(dentry, d_sb));
	if (c) {
		__sync_fetch_and_add(&c->unpinned, 1);
		__sync_fetch_and_sub(&c->live, 1);
	}
	return 0;
}

PDT_HOOK("fentry/select_collect_umount", umount_unpin, umount_unpin_body(ctx, data, dentry),
	 void *data, struct dentry *dentry)

/* The same test as umount_check(): a leaf that is not the root with count 1. */
static __always_inline int umount_busy_body(void *ctx, void *data, struct dentry *dentry)
{
	struct pdt_event_full *e;

	if (BPF_CORE_READ(dentry, d_children.first))
		return 0;
	if ((void *)dentry == data && BPF_CORE_READ(dentry, d_lockref.count) == 1)
		return 0;
	e = emit_full(ctx, PDT_EV_BUSY, dentry);
	if (e)
		submit(e);
	return 0;
}

PDT_HOOK("fentry/umount_check", umount_busy, umount_busy_body(ctx, data, dentry), void *data,
	 struct dentry *dentry)

static __always_inline int umount_done_body(void *ctx, struct super_block *sb)
{
	struct pdt_event_full *e;

	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		bump(PDT_TC_LOST_EVENTS);
		return 0;
	}
	/* s_root is NULL by now: describe the superblock alone. */
	__builtin_memset(e, 0, sizeof(*e));
	e->h.type = PDT_EV_SB_DOWN;
	e->h.size = sizeof(*e);
	e->h.ts_ns = bpf_ktime_get_ns();
	e->h.sb = (u64)sb;
	e->h.dev = BPF_CORE_READ(sb, s_dev);
	e->h.pid = bpf_get_current_pid_tgid() >> 32;
	bpf_get_current_comm(e->h.comm, sizeof(e->h.comm));
	bpf_probe_read_kernel_str(e->fs_type, sizeof(e->fs_type), BPF_CORE_READ(sb, s_type, name));
	bpf_probe_read_kernel_str(e->s_id, sizeof(e->s_id), sb->s_id);
	submit(e);
	return 0;
}

PDT_HOOK("fexit/generic_shutdown_super", umount_done, umount_done_body(ctx, sb),
	 struct super_block *sb)
