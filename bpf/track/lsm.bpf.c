// SPDX-License-Identifier: GPL-2.0
/*
 * The origin marks through the BPF LSM, where it is active: security_inode_*() call
 * these after their own checks, through a trampoline, which costs less than a
 * kprobe.multi run, and an LSM program has no recursion check (the kernel never
 * skips one). Each allows, always: it returns 0. Where the BPF LSM is off, the
 * dispatcher marks from the same functions by kprobe.multi instead (dispatch.bpf.c).
 * The rarer symlink and link stay there (each program here costs a trampoline to
 * attach), and renames: the LSM's inode_rename has no flags, and a whiteout needs them.
 * An LSM hook sees what the kprobe saw, but on the inodes the kernel keeps private
 * (S_PRIVATE), which security_inode_*() spare every LSM: nobody creates there.
 */
#include "common.bpf.h"
#include "origin.bpf.h"

/* The floors of make bench: the creation marks belong to the creation-stacks floor. */
#if defined(PDT_FLOOR) || defined(PDT_STREAM_FLOOR)
#define PDT_MARK_FLOOR_RETURN return 0
#else
#define PDT_MARK_FLOOR_RETURN
#endif

SEC("lsm/inode_create")
int BPF_PROG(lsm_inode_create, struct inode *dir, struct dentry *dentry)
{
	PDT_MARK_FLOOR_RETURN;
	mark(dentry);
	return 0;
}

SEC("lsm/inode_mkdir")
int BPF_PROG(lsm_inode_mkdir, struct inode *dir, struct dentry *dentry)
{
	PDT_MARK_FLOOR_RETURN;
	mark(dentry);
	return 0;
}

SEC("lsm/inode_mknod")
int BPF_PROG(lsm_inode_mknod, struct inode *dir, struct dentry *dentry)
{
	PDT_MARK_FLOOR_RETURN;
	mark(dentry);
	return 0;
}

SEC("lsm/inode_unlink")
int BPF_PROG(lsm_inode_unlink, struct inode *dir, struct dentry *dentry)
{
	PDT_FLOOR_RETURN;
	mark_remove(dentry);
	return 0;
}

SEC("lsm/inode_rmdir")
int BPF_PROG(lsm_inode_rmdir, struct inode *dir, struct dentry *dentry)
{
	PDT_FLOOR_RETURN;
	mark_remove(dentry);
	return 0;
}
