/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recursive removals: remember the outermost root per task, so that each
 * d_make_discardable() inside knows which removal it belongs to. configfs removes a
 * group's default groups itself (detach_groups()), then the group: configfs_rmdir()
 * counts as one. (Called from dispatch.bpf.c's dispatch_session, at entry and return.)
 */
#ifndef PDT_REMOVAL_BPF_H
#define PDT_REMOVAL_BPF_H

#include "common.bpf.h"
#include "elide.bpf.h"

/*
 * The outermost removal says where it starts: a user's entry it destroys names its root
 * by path and shows this stack. Most removals destroy nothing that is streamed (a
 * configfs group's default groups, a tracefs instance: the kernel's, elided, and a
 * root that is the user's, elided too): PDT_EV_REMOVAL is sent only before the first
 * discard in it that is streamed (removal_flush()). Its stack is taken at entry, into
 * the table of stacks. Without room there it goes without its stack: counted when it
 * is sent (PDT_TC_STACKS_FULL), as a start never sent has lost nothing.
 * Never sent at entry: the brackets' program then carries no event of its own for the
 * verifier to check.
 */
#define PDT_KSTACK_NONE 0xfffffffeu /* t->removal_kstack: no stack */
#define PDT_KSTACK_FULL 0xfffffffdu /* t->removal_kstack: no room for it in the table */

static __always_inline int removal_enter(void *ctx, void *root)
{
	struct pdt_task_state *t = task_state(true);
	struct pdt_event_full *s;

	if (!t || t->removal_depth++)
		return 0;
	t->removal_root = (u64)root;
	t->removal_kstack = 0;
	s = stack_scratch(ctx);
	if (s && s->nstack && !(t->removal_kstack = pdt_kstack_keep(s)))
		t->removal_kstack = PDT_KSTACK_FULL;
	if (!t->removal_kstack)
		t->removal_kstack = PDT_KSTACK_NONE;
	return 0;
}

/*
 * Send a removal's start, before a discard inside it that is streamed: as it would have
 * gone at its entry (its root is still there, with the same path), with table entry
 * ks's stack. Global: checked once, not on each of the discard's paths.
 */
int pdt_removal_send(struct pdt_task_state *t, u32 ks);

/* Before the discard of a: a removal's root ends it, and needs no start. */
static __always_inline void removal_flush(struct pdt_task_state *t, u64 a)
{
	u32 ks;

	if (!t || !(ks = t->removal_kstack) || t->removal_root == a)
		return;
	t->removal_kstack = 0;
	pdt_removal_send(t, ks);
}

static __always_inline int removal_exit(void)
{
	struct pdt_task_state *t = task_state(false);

	if (!t || !t->removal_depth)
		return 0;
	if (!--t->removal_depth) {
		t->removal_root = 0;
		t->removal_kstack = 0;
		/* A user's configfs rmdir that was refused leaves its mark: it ends here. */
		t->remove_target = 0;
	}
	return 0;
}

#endif
