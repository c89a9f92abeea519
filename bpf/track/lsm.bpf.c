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

/* One program per hook, each the same: the mark, and allow. */
#define PDT_LSM_MARK(hook, fn)                                                                     \
	SEC("lsm/" #hook)                                                                          \
	int BPF_PROG(lsm_##hook, struct inode *dir, struct dentry *dentry)                         \
	{                                                                                          \
		fn(dentry);                                                                        \
		return 0;                                                                          \
	}

PDT_LSM_MARK(inode_create, mark)
PDT_LSM_MARK(inode_mkdir, mark)
PDT_LSM_MARK(inode_mknod, mark)
PDT_LSM_MARK(inode_unlink, mark_remove)
PDT_LSM_MARK(inode_rmdir, mark_remove)
