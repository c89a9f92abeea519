// SPDX-License-Identifier: GPL-2.0
/* The API itself: d_make_persistent(), d_make_discardable(), and renames of persistent dentries. */
#include "common.bpf.h"

/* User origin: d_make_persistent() on the very dentry the task's create hook saw. */
static __always_inline u8 origin_of(struct dentry *d)
{
	struct pdt_task_state *t = task_state(false);

	if (!t)
		return PDT_ORIGIN_KERNEL;
	if (t->create_target == (u64)d) {
		t->create_target = 0;
		return PDT_ORIGIN_USER;
	}
	/* The whiteout of the task's rename (see mark_whiteout() in origin.bpf.c). */
	if (t->whiteout_parent && t->whiteout_parent == (u64)BPF_CORE_READ(d, d_parent) &&
	    t->whiteout_hash == BPF_CORE_READ(d, d_name.hash_len)) {
		t->whiteout_parent = 0;
		return PDT_ORIGIN_USER;
	}
	return PDT_ORIGIN_KERNEL;
}

static __always_inline int track_persist_body(void *ctx, struct dentry *dentry, struct inode *inode)
{
	u8 origin = origin_of(dentry);
	struct pdt_dentry_state st = {};
	struct pdt_event_full *e;
	struct pdt_sb_counts *c;
	u64 key = (u64)dentry;
	bool was;

	e = emit_full_nostack(PDT_EV_PERSIST, dentry);
	was = BPF_CORE_READ(dentry, d_flags) & persistent_bit();
	if (e) {
		struct inode *dir = BPF_CORE_READ(dentry, d_parent, d_inode);

		e->h.origin = origin; /* what this call makes it, not what the map had */
		if (dir && (BPF_CORE_READ(dir, i_flags) & PDT_S_DEAD))
			e->h.flags |= PDT_F_PARENT_DEAD;
		if (inode && ((BPF_CORE_READ(inode, i_mode) & 00170000) == 0040000))
			e->h.flags |= PDT_F_IS_DIR;
		/* A finding now (persist twice, a dead parent) shows this stack whatever the origin. */
		if (origin != PDT_ORIGIN_USER || pdt_user_stacks || was ||
		    (e->h.flags & PDT_F_PARENT_DEAD))
			add_stack(ctx, e);
		submit(e);
	}
	if (was)
		return 0; /* persist twice: the first call's state stands */
	st.sb = (u64)BPF_CORE_READ(dentry, d_sb);
	st.parent = (u64)BPF_CORE_READ(dentry, d_parent);
	st.made_ns = bpf_ktime_get_ns();
	st.pid = bpf_get_current_pid_tgid() >> 32;
	st.origin = origin;
	if (bpf_map_update_elem(&dentries, &key, &st, BPF_ANY))
		bump(PDT_TC_DENTRY_FULL);
	c = sb_counts(st.sb);
	if (c) {
		__sync_fetch_and_add(&c->made, 1);
		__sync_fetch_and_add(&c->live, 1);
	}
	return 0;
}

PDT_HOOK("fentry/d_make_persistent", track_persist, track_persist_body(ctx, dentry, inode),
	 struct dentry *dentry, struct inode *inode)

/*
 * A discard becomes a finding (and needs its stack) only when the dentry is not
 * persistent (discard-unpersisted), when a recursive removal outside an umount
 * takes a user-created entry other than its root (user-entry-removed), or when
 * entries are still below it (orphaned). Everything else is a plain unlink or
 * rmdir: no stack.
 */
static __always_inline bool discard_may_find(struct dentry *d, const struct pdt_event *h)
{
	if (!(h->flags & PDT_F_WAS_PERSISTENT))
		return true;
	if ((h->flags & PDT_F_USER_REMOVE) && h->refcount <= 1)
		return true;
	if ((h->flags & (PDT_F_IN_REMOVAL | PDT_F_IN_UMOUNT)) == PDT_F_IN_REMOVAL &&
	    h->origin == PDT_ORIGIN_USER && h->removal_root != h->dentry)
		return true;
	return BPF_CORE_READ(d, d_children.first) != NULL;
}

static __always_inline int track_discard_body(void *ctx, struct dentry *dentry)
{
	struct pdt_event_full *e = emit_full_nostack(PDT_EV_DISCARD, dentry);
	struct pdt_task_state *t = task_state(false);
	u64 key = (u64)dentry;
	struct pdt_sb_counts *c;

	if (t && t->remove_target == key) {
		t->remove_target = 0;
		if (e)
			e->h.flags |= PDT_F_USER_REMOVE;
	}
	if (e) {
		if (discard_may_find(dentry, &e->h))
			add_stack(ctx, e);
		submit(e);
	}
	/* Only tracked dentries count: those made persistent before we started are adopted. */
	if (bpf_map_delete_elem(&dentries, &key))
		return 0;
	c = sb_counts((u64)BPF_CORE_READ(dentry, d_sb));
	if (c) {
		__sync_fetch_and_add(&c->discarded, 1);
		__sync_fetch_and_sub(&c->live, 1);
	}
	return 0;
}

PDT_HOOK("fentry/d_make_discardable", track_discard, track_discard_body(ctx, dentry),
	 struct dentry *dentry)

/*
 * Renames, seen where every path of them meets: __d_move() (d_move(), d_exchange(),
 * d_splice_alias()'s and the filesystems' own renames such as debugfs_change_name()
 * all end there). It runs under rename_lock, with preemption off: one program, no
 * copies (a run can only be skipped in an interrupt, and then it is counted).
 *
 * The moved dentry takes target's parent and name; with exchange, target takes the
 * moved one's. A MOVE event describes the place a dentry goes to (its parent and
 * path) and names the dentry that goes there.
 */
static __always_inline void emit_move(struct dentry *moved, struct dentry *place)
{
	struct pdt_event_full *e = emit_full_nostack(PDT_EV_MOVE, place);
	struct pdt_dentry_state *st;
	u64 key = (u64)moved;

	if (!e)
		return;
	e->h.dentry = key;
	e->h.refcount = BPF_CORE_READ(moved, d_lockref.count);
	e->h.flags |= PDT_F_WAS_PERSISTENT;
	st = bpf_map_lookup_elem(&dentries, &key);
	if (st) {
		st->parent = e->h.parent;
		e->h.flags |= PDT_F_TRACKED;
		e->h.origin = st->origin;
	} else {
		e->h.flags &= ~PDT_F_TRACKED;
		e->h.origin = PDT_ORIGIN_UNKNOWN;
	}
	submit(e);
}

SEC("fentry/__d_move")
int BPF_PROG(track_move, struct dentry *dentry, struct dentry *target, bool exchange)
{
	u32 bit = persistent_bit();

	if (exchange) {
		/* Both first, from the places before the swap. */
		if (target->d_flags & bit)
			emit_move(target, dentry);
		if (dentry->d_flags & bit)
			emit_move(dentry, target);
		return 0;
	}
	/*
	 * A rename over an existing entry discards it first (simple_rename()): a target
	 * still persistent here stays so, unhashed and unreachable, pinned until umount.
	 */
	if (target->d_flags & bit) {
		struct pdt_event_full *e = emit_full(ctx, PDT_EV_VICTIM, target);

		if (e)
			submit(e);
	}
	if (dentry->d_flags & bit)
		emit_move(dentry, target);
	return 0;
}
