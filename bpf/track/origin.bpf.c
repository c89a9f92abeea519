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
