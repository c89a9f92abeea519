// SPDX-License-Identifier: GPL-2.0
/*
 * Origin of a persistent dentry: "user" when d_make_persistent() is called on the
 * dentry that a user-space create, mkdir, mknod, symlink or link was given. The LSM
 * hooks see that dentry on every path, including open(O_CREAT), which calls
 * ->create() without vfs_create(); d_make_persistent() consumes the mark.
 */
#include "common.bpf.h"

static __always_inline int mark(struct dentry *dentry)
{
	struct pdt_task_state *t = task_state(true);

	if (t)
		t->create_target = (u64)dentry;
	return 0;
}

PDT_HOOK("fentry/security_inode_create", origin_create, mark(dentry), struct inode *dir,
	 struct dentry *dentry)

PDT_HOOK("fentry/security_inode_mkdir", origin_mkdir, mark(dentry), struct inode *dir,
	 struct dentry *dentry)

PDT_HOOK("fentry/security_inode_mknod", origin_mknod, mark(dentry), struct inode *dir,
	 struct dentry *dentry)

PDT_HOOK("fentry/security_inode_symlink", origin_symlink, mark(dentry), struct inode *dir,
	 struct dentry *dentry)

PDT_HOOK("fentry/security_inode_link", origin_link, mark(new_dentry), struct dentry *old_dentry,
	 struct inode *dir, struct dentry *new_dentry)

/*
 * The dentry a user's unlink or rmdir removes: the VFS holds a reference to it until
 * the end, so its discard must find a count of 2 at least (persistence and the VFS).
 * One less means the persistence reference was eaten earlier, on a filesystem that
 * kept the dentry unused; the discard then kills it under the VFS's feet.
 */
static __always_inline int mark_remove(struct dentry *dentry)
{
	struct pdt_task_state *t = task_state(true);

	if (t)
		t->remove_target = (u64)dentry;
	return 0;
}

PDT_HOOK("fentry/security_inode_unlink", origin_unlink, mark_remove(dentry), struct inode *dir,
	 struct dentry *dentry)

PDT_HOOK("fentry/security_inode_rmdir", origin_rmdir, mark_remove(dentry), struct inode *dir,
	 struct dentry *dentry)

/*
 * A rename with RENAME_WHITEOUT (tmpfs: shmem_whiteout()) leaves a whiteout at the
 * old name, made persistent by the filesystem on a dentry it allocates itself, which
 * no create hook sees. It is made on the user's behalf, in the user's rename, and the
 * user can remove it: a user entry. Remember where it will appear.
 */
#define PDT_RENAME_WHITEOUT (1 << 2) /* include/uapi/linux/fs.h, stable since 3.18 */

static __always_inline int mark_whiteout(struct dentry *old, unsigned int flags)
{
	bool whiteout = flags & PDT_RENAME_WHITEOUT;
	struct pdt_task_state *t = task_state(whiteout);

	/* Any rename replaces the mark: one left by a failed rename goes stale no further. */
	if (t) {
		t->whiteout_parent = whiteout ? (u64)BPF_CORE_READ(old, d_parent) : 0;
		t->whiteout_hash = whiteout ? BPF_CORE_READ(old, d_name.hash_len) : 0;
	}
	return 0;
}

PDT_HOOK("fentry/security_inode_rename", origin_rename, mark_whiteout(old_dentry, flags),
	 struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
	 struct dentry *new_dentry, unsigned int flags)
