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

static __always_inline int origin_create_body(void *ctx, struct inode *dir, struct dentry *dentry)
{
	return mark(dentry);
}

SEC("fentry/security_inode_create")
int BPF_PROG(origin_create, struct inode *dir, struct dentry *dentry)
{
	return run_atomic(origin_create_body(ctx, dir, dentry));
}

static __always_inline int origin_mkdir_body(void *ctx, struct inode *dir, struct dentry *dentry)
{
	return mark(dentry);
}

SEC("fentry/security_inode_mkdir")
int BPF_PROG(origin_mkdir, struct inode *dir, struct dentry *dentry)
{
	return run_atomic(origin_mkdir_body(ctx, dir, dentry));
}

static __always_inline int origin_mknod_body(void *ctx, struct inode *dir, struct dentry *dentry)
{
	return mark(dentry);
}

SEC("fentry/security_inode_mknod")
int BPF_PROG(origin_mknod, struct inode *dir, struct dentry *dentry)
{
	return run_atomic(origin_mknod_body(ctx, dir, dentry));
}

static __always_inline int origin_symlink_body(void *ctx, struct inode *dir, struct dentry *dentry)
{
	return mark(dentry);
}

SEC("fentry/security_inode_symlink")
int BPF_PROG(origin_symlink, struct inode *dir, struct dentry *dentry)
{
	return run_atomic(origin_symlink_body(ctx, dir, dentry));
}

static __always_inline int origin_link_body(void *ctx, struct dentry *old_dentry, struct inode *dir, struct dentry *new_dentry)
{
	return mark(new_dentry);
}

SEC("fentry/security_inode_link")
int BPF_PROG(origin_link, struct dentry *old_dentry, struct inode *dir, struct dentry *new_dentry)
{
	return run_atomic(origin_link_body(ctx, old_dentry, dir, new_dentry));
}

