// SPDX-License-Identifier: GPL-2.0
/*
 * The removals' global function (removal.bpf.h).
 */
#include "removal.bpf.h"

__noinline int pdt_removal_send(struct pdt_task_state *t, u32 ks)
{
	struct dentry *root;
	struct pdt_event_full *e;

	if (!t)
		return 0;
	root = as_dentry((void *)t->removal_root);
	e = reserve_full_t(PDT_EV_REMOVAL, root, t);
	if (!e)
		return 0;
	fill_path(root, e->path);
	/* NONE, FULL: none (the reserve left nstack at 0) */
	if (ks == PDT_KSTACK_FULL)
		bump(PDT_TC_STACKS_FULL);
	else if (ks != PDT_KSTACK_NONE)
		kstack_fill(ks, e);
	submit(e);
	return 0;
}
