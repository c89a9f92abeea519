/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The API itself: d_make_persistent() and d_make_discardable(), entered with no lock
 * held (called from the kprobe.multi dispatcher, dispatch.bpf.c).
 */
#ifndef PDT_PERSIST_BPF_H
#define PDT_PERSIST_BPF_H

#include "common.bpf.h"
#include "elide.bpf.h"
#include "removal.bpf.h"

/* User origin: d_make_persistent() on the very dentry the task's create hook saw. */
static __always_inline u8 origin_of(struct pdt_task_state *t, struct dentry *d)
{
	if (!t)
		return PDT_ORIGIN_KERNEL;
	if (t->create_target == (u64)d) {
		t->create_target = 0;
		if (t->create_name == d->d_name.hash_len)
			return PDT_ORIGIN_USER;
	}
	/* The whiteout of the task's rename (see mark_rename() in origin.bpf.h). */
	if (t->whiteout_parent && t->whiteout_parent == (u64)BPF_CORE_READ(d, d_parent) &&
	    t->whiteout_hash == BPF_CORE_READ(d, d_name.hash_len)) {
		t->whiteout_parent = 0;
		return PDT_ORIGIN_USER;
	}
	return PDT_ORIGIN_KERNEL;
}

/*
 * A create made persistent as it should be, outside removals and umounts: nothing for
 * the stream (see elide.bpf.h) unless this is its superblock's first event, which
 * names it. A task without state was never in either. *ks: a kernel-made entry's stack
 * id, taken into the table here (0 for a user's); false when it finds no room.
 */
static __always_inline bool may_elide(const struct pdt_task_state *t, u8 origin, bool was,
				      bool dead, const struct pdt_event_full *s, u32 *ks)
{
	*ks = 0;
	if (!pdt_elide || was || dead || (t && (t->removal_depth || t->umount_depth)))
		return false;
	if (origin == PDT_ORIGIN_USER)
		return t;
	return s && (*ks = pdt_kstack_keep(s));
}

static __always_inline int on_persist(struct pt_regs *ctx, void *dentry_arg, void *inode_arg)
{
	struct dentry *dentry = as_dentry(dentry_arg);
	struct pdt_task_state *t = task_state(false);
	struct inode *inode = inode_arg, *dir = dentry->d_parent->d_inode;
	u8 origin = origin_of(t, dentry);
	bool was = dentry->d_flags & persistent_bit(), dead = dir && (dir->i_flags & PDT_S_DEAD);
	struct pdt_event_full *s = NULL;
	struct pdt_elided *m = NULL;
	struct pdt_event_full *e;
	u32 slot, key = 0, ks;
	bool first;

	/* A finding now (persist twice, a dead parent) shows this stack whatever the origin. */
	if (origin != PDT_ORIGIN_USER || pdt_user_stacks || was || dead)
		s = stack_scratch(ctx);
	first = first_of_sb((u64)dentry->d_sb, &slot);
	if (!first && slot != PDT_NO_SLOT && may_elide(t, origin, was, dead, s, &ks)) {
		if (elided_add((u64)dentry_arg, slot, ks, &m, &key))
			return 0;
	} else {
		m = elided_find((u64)dentry_arg, &key);
	}
	if (m) /* a second persist, or a life that ended unseen: the rules judge it */
		pdt_materialize(key);
	e = reserve_full_sb(PDT_EV_PERSIST, dentry, t, first, slot);
	if (!e)
		return 0;
	fill_path_unrolled(dentry, e->path);
	e->h.origin = origin;
	if (dead)
		e->h.flags |= PDT_F_PARENT_DEAD;
	if (inode && PDT_S_ISDIR(BPF_CORE_READ(inode, i_mode)))
		e->h.flags |= PDT_F_IS_DIR;
	stack_copy(e, s);
	submit(e);
	return 0;
}

/*
 * A discard becomes a finding (and needs its path and stack) only when the dentry is
 * not persistent (discard-unpersisted), when a user's unlink finds the persistence
 * reference gone (eaten-persistence-ref), or when persistent entries are still below it
 * (orphaned). Everything else is a plain unlink, rmdir or an entry of a recursive
 * removal: a brief event, the header alone (user space has the path in its books).
 * A user entry destroyed by a removal (user-entry-removed) is one user space knows,
 * and its finding shows the stack of the removal's start (PDT_EV_REMOVAL, sent by
 * removal_flush() before the first discard in it that is streamed): one unwind
 * per removal, not one per entry. The header read again says the same or more: the
 * rules judge by it.
 */
static __always_inline bool discard_may_find(struct dentry *d, bool user_remove,
					     bool persistent_kids)
{
	if (!(d->d_flags & persistent_bit()))
		return true;
	if (user_remove && d->d_lockref.count <= 1)
		return true;
	return persistent_kids;
}

/*
 * An elided entry's discard with nothing in it for a rule: a user's unlink or rmdir
 * that finds the persistence reference there, no entries below it, outside umounts and
 * outside removals, but as a removal's own root (a user's rmdir of a configfs group: no
 * rule judges the root) or as a kernel-made entry in one (user-entry-removed is about a
 * user's). (Persistent it is: the set holds persistent entries only.) a: d's address.
 */
static __always_inline bool quiet_discard(struct dentry *d, u64 a, const struct pdt_elided *m,
					  const struct pdt_task_state *t, bool user_remove)
{
	if (d->d_children.first ||
	    (t && (t->umount_depth || (t->removal_depth && t->removal_root != a && !m->kstack))))
		return false;
	return !(user_remove && d->d_lockref.count <= 1);
}

/*
 * An elided root's quiet discard ends its removal: what user space keeps of the
 * removal (PDT_EV_REMOVAL) goes with it, as it goes with a tracked root's discard.
 */
static __always_inline void removal_end(struct dentry *d, u64 a, const struct pdt_task_state *t)
{
	struct pdt_event *b;

	/* Not for a removal whose start was never sent (removal.bpf.h). */
	if (!t || !t->removal_depth || t->removal_root != a || t->removal_kstack)
		return;
	b = emit_small(PDT_EV_REMOVAL_END, d, t);
	if (b)
		submit(b);
}

/*
 * Is this the discard of a user's unlink or rmdir? The task's mark names the dentry its
 * last one held, and takes the mark. An unlink or rmdir can fail after the LSM hook (a
 * non-empty directory, a refused configfs rmdir) and leave its mark behind: a later
 * discard of that dentry by the kernel, in the same task, is not the user's. The VFS
 * holds the victim's inode lock from before the hook until ->unlink() or ->rmdir()
 * returns (vfs_unlink(), vfs_rmdir()), so the discard of a user's is made with it held
 * by this task. Read only where the count would make the discard a finding.
 */
static __always_inline bool user_removes(struct pdt_task_state *t, struct dentry *d, u64 a)
{
	struct inode *inode;
	u64 owner;

	if (!t || t->remove_target != a)
		return false;
	t->remove_target = 0;
	if (d->d_lockref.count > 1)
		return true;
	inode = d->d_inode;
	if (!inode || !bpf_core_field_exists(inode->i_rwsem.owner))
		return true; /* PREEMPT_RT's rwsem keeps no owner: trust the mark */
	/* The owner word is the writer's task_struct, flags in its low bits (rwsem.c). */
	owner = inode->i_rwsem.owner.counter;
	return (owner & ~7ull) == bpf_get_current_task();
}

static __always_inline int on_discard(struct pt_regs *ctx, void *dentry_arg)
{
	struct dentry *dentry = as_dentry(dentry_arg);
	struct pdt_task_state *t = task_state(false);
	bool user_remove = user_removes(t, dentry, (u64)dentry_arg);
	struct pdt_event_full *e = NULL;
	struct pdt_elided *m = NULL;
	struct pdt_event *h;
	bool find, first;
	u32 key = 0, slot;

	/* A removal whose bracket the kernel skipped. */
	graph_check();
	if (dentry->d_flags & persistent_bit()) /* the probe inlined: every unlink runs it */
		m = elided_probe((u64)dentry_arg, &key);
	if (m) {
		if (quiet_discard(dentry, (u64)dentry_arg, m, t, user_remove)) {
			elided_end(m, (u64)dentry_arg, false);
			removal_end(dentry, (u64)dentry_arg, t);
			return 0;
		}
		pdt_materialize(key);
	}
	/* The rules look below it for what is still persistent (orphaned). */
	find = discard_may_find(dentry, user_remove, materialize_kids(dentry));
	/* A superblock's first event carries its names: a full one. */
	first = first_of_sb((u64)dentry->d_sb, &slot);
	/* A user's entry in a removal may be destroyed: the rules need its start. */
	removal_flush(t, (u64)dentry_arg);
	if (!find && !first) {
		h = emit_small(PDT_EV_DISCARD, dentry, t);
	} else {
		e = reserve_full_sb(PDT_EV_DISCARD, dentry, t, first, slot);
		h = e ? &e->h : NULL;
	}
	if (!h)
		return 0;
	if (user_remove)
		h->flags |= PDT_F_USER_REMOVE;
	if (e && find) {
		fill_path_unrolled(dentry, e->path);
		add_entry_stack(ctx, e);
	}
	submit(h);
	return 0;
}

#endif
