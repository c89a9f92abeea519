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

PDT_HOOK("fentry/simple_recursive_removal", removal_simple_enter, removal_enter(ctx, dentry),
	 struct dentry *dentry)

PDT_HOOK("fexit/simple_recursive_removal", removal_simple_exit, removal_exit(),
	 struct dentry *dentry)

PDT_HOOK("fentry/locked_recursive_removal", removal_locked_enter, removal_enter(ctx, dentry),
	 struct dentry *dentry)

PDT_HOOK("fexit/locked_recursive_removal", removal_locked_exit, removal_exit(),
	 struct dentry *dentry)

/* configfs removes a group's default groups itself (detach_groups()), then the group. */
PDT_HOOK("fentry/configfs_rmdir", removal_configfs_enter, removal_enter(ctx, dentry),
	 struct inode *dir, struct dentry *dentry)

PDT_HOOK("fexit/configfs_rmdir", removal_configfs_exit, removal_exit(), struct inode *dir,
	 struct dentry *dentry)
