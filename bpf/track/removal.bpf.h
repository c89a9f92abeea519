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
#include "elide.bpf.h"

/*
 * The outermost removal says where it starts: a user's entry it destroys names its root
 * by path and shows this stack. Most removals destroy nothing that is streamed (a
 * configfs group's default groups, a tracefs instance: the kernel's, elided, and a
 * root that is the user's, elided too): the stack is taken now, into the table of
 * stacks, and PDT_EV_REMOVAL is sent only before the first discard in it that is
 * streamed (removal_flush()). Without elision (trace -v), or without room in the table,
 * it is sent at once.
 */
static __always_inline int removal_enter(void *ctx, void *root)
{
	struct pdt_task_state *t = task_state(true);
	struct pdt_event_full *e, *s;

	if (!t || t->removal_depth++)
		return 0;
	t->removal_root = (u64)root;
	t->removal_kstack = 0;
	s = stack_scratch(ctx);
	if (pdt_elide && s && (t->removal_kstack = pdt_kstack_keep(s)))
		return 0;
	e = emit_full_nostack(PDT_EV_REMOVAL, as_dentry(root));
	if (!e)
		return 0;
	stack_copy(e, s);
	submit(e);
	return 0;
}

/*
 * A discard inside the removal is about to be streamed: the removal's start goes first,
 * as it would have at its entry (its root is still there, with the same path). Global:
 * checked once, not on each of the discard's paths.
 */
#ifdef PDT_MAPS_OWNER
__noinline int pdt_removal_flush(struct pdt_task_state *t)
{
	struct pdt_event_full *e;
	struct dentry *root;
	u32 ks;

	if (!t || !t->removal_depth || !(ks = t->removal_kstack))
		return 0;
	t->removal_kstack = 0;
	root = as_dentry((void *)t->removal_root);
	e = reserve_full_t(PDT_EV_REMOVAL, root, t);
	if (!e)
		return 0;
	fill_path(root, e->path);
	kstack_fill(ks, e);
	submit(e);
	return 0;
}
#else
int pdt_removal_flush(struct pdt_task_state *t);
#endif

/* Before the discard of a: a removal's root ends it, and needs no start. */
static __always_inline void removal_flush(struct pdt_task_state *t, u64 a)
{
	if (t && t->removal_kstack && t->removal_root != a)
		pdt_removal_flush(t);
}

static __always_inline int removal_exit(void)
{
	struct pdt_task_state *t = task_state(false);

	if (!t || !t->removal_depth)
		return 0;
	if (!--t->removal_depth) {
		t->removal_root = 0;
		t->removal_kstack = 0;
	}
	return 0;
}

#endif
