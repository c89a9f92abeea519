/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recursive removals: remember the outermost root per task, so that each
 * d_make_discardable() inside knows which removal it belongs to. configfs removes a
 * group's default groups itself (detach_groups()), then the group: configfs_rmdir()
 * counts as one. (Called from dispatch.bpf.c, at entry and return.)
 */
#ifndef PDT_REMOVAL_BPF_H
#define PDT_REMOVAL_BPF_H

#include "common.bpf.h"

/* The outermost removal says where it starts: findings inside name their root by path. */
static __always_inline int removal_enter(void *ctx, void *root)
{
	struct pdt_task_state *t = task_state(true);
	struct pdt_event_full *e;

	if (!t || t->removal_depth++)
		return 0;
	t->removal_root = (u64)root;
	e = emit_full(ctx, PDT_EV_REMOVAL, as_dentry(root));
	if (e)
		submit(e);
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

#endif
