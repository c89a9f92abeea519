/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a task is about to do, for the persist and discard that follow in the same
 * task: the LSM's security_inode_*() hooks see the dentry a user-space create,
 * mkdir, mknod, symlink or link was given on every path, including open(O_CREAT),
 * which calls ->create() without vfs_create(). (Called from dispatch.bpf.c.)
 */
#ifndef PDT_ORIGIN_BPF_H
#define PDT_ORIGIN_BPF_H

#include "common.bpf.h"

/*
 * User origin: d_make_persistent() on this dentry, with this name, consumes the mark. A
 * create refused after the hook (a configfs make_group() that says no) leaves the mark
 * behind and frees the dentry, whose memory the next dentry the task has the kernel make
 * may get: the name tells that one apart.
 */
static __always_inline int mark(void *dentry)
{
	struct pdt_task_state *t = task_state(true);

	if (t) {
		t->create_target = (u64)dentry;
		t->create_name = as_dentry(dentry)->d_name.hash_len;
	}
	return 0;
}

/*
 * The dentry a user's unlink or rmdir removes: the VFS holds a reference to it until
 * the end, so its discard must find a count of 2 at least (persistence and the VFS).
 * One less means the persistence reference was eaten earlier, on a filesystem that
 * kept the dentry unused; the discard then kills it under the VFS's feet.
 */
static __always_inline int mark_remove(void *dentry)
{
	struct pdt_task_state *t = task_state(true);

	if (t)
		t->remove_target = (u64)dentry;
	return 0;
}

/*
 * A rename with RENAME_WHITEOUT (tmpfs: shmem_whiteout()) leaves a whiteout at the
 * old name, made persistent by the filesystem on a dentry it allocates itself, which
 * no create hook sees. It is made on the user's behalf, in the user's rename, and the
 * user can remove it: a user entry. Remember where it will appear.
 */
static __always_inline int mark_rename(void *old_dentry, unsigned int flags)
{
	bool whiteout = flags & PDT_RENAME_WHITEOUT;
	struct pdt_task_state *t = task_state(whiteout);
	struct dentry *old = as_dentry(old_dentry);

	/* Any rename replaces the mark: one left by a failed rename goes stale no further. */
	if (t) {
		t->whiteout_parent = whiteout ? (u64)old->d_parent : 0;
		t->whiteout_hash = whiteout ? old->d_name.hash_len : 0;
	}
	return 0;
}

#endif
