// SPDX-License-Identifier: GPL-2.0
/*
 * Recursive removals: remember the outermost root per task, so that each
 * d_make_discardable() inside knows which removal it belongs to.
 */
#include "common.bpf.h"

/* The outermost removal says where it starts: findings inside name their root by path. */
static __always_inline int removal_enter(void *ctx, struct dentry *root)
{
	struct pdt_task_state *t = task_state(true);
	struct pdt_event_full *e;

	if (!t || t->removal_depth++)
		return 0;
	t->removal_root = (u64)root;
	e = emit_full(ctx, PDT_EV_REMOVAL, root);
	if (e)
		bpf_ringbuf_submit(e, 0);
	return 0;
}

static __always_inline int removal_exit(void)
{
	struct pdt_task_state *t = task_state(false);

	if (!t || !t->removal_depth)
		return 0;
	if (!--t->removal_depth)
		t->removal_root = 0;
	return 0;
}

static __always_inline int removal_simple_enter_body(void *ctx, struct dentry *dentry)
{
	return removal_enter(ctx, dentry);
}

SEC("fentry/simple_recursive_removal")
int BPF_PROG(removal_simple_enter, struct dentry *dentry)
{
	return run_atomic(removal_simple_enter_body(ctx, dentry));
}

static __always_inline int removal_simple_exit_body(void *ctx, struct dentry *dentry)
{
	return removal_exit();
}

SEC("fexit/simple_recursive_removal")
int BPF_PROG(removal_simple_exit, struct dentry *dentry)
{
	return run_atomic(removal_simple_exit_body(ctx, dentry));
}

static __always_inline int removal_locked_enter_body(void *ctx, struct dentry *dentry)
{
	return removal_enter(ctx, dentry);
}

SEC("fentry/locked_recursive_removal")
int BPF_PROG(removal_locked_enter, struct dentry *dentry)
{
	return run_atomic(removal_locked_enter_body(ctx, dentry));
}

static __always_inline int removal_locked_exit_body(void *ctx, struct dentry *dentry)
{
	return removal_exit();
}

SEC("fexit/locked_recursive_removal")
int BPF_PROG(removal_locked_exit, struct dentry *dentry)
{
	return run_atomic(removal_locked_exit_body(ctx, dentry));
}

/* configfs removes a group's default groups itself (detach_groups()), then the group. */
static __always_inline int removal_configfs_enter_body(void *ctx, struct inode *dir, struct dentry *dentry)
{
	return removal_enter(ctx, dentry);
}

SEC("fentry/configfs_rmdir")
int BPF_PROG(removal_configfs_enter, struct inode *dir, struct dentry *dentry)
{
	return run_atomic(removal_configfs_enter_body(ctx, dir, dentry));
}

static __always_inline int removal_configfs_exit_body(void *ctx, struct inode *dir, struct dentry *dentry)
{
	return removal_exit();
}

SEC("fexit/configfs_rmdir")
int BPF_PROG(removal_configfs_exit, struct inode *dir, struct dentry *dentry)
{
	return run_atomic(removal_configfs_exit_body(ctx, dir, dentry));
}

