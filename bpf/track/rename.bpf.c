// SPDX-License-Identifier: GPL-2.0
#include "common.bpf.h"
#include "event.bpf.h"
#include "elide.bpf.h"

/*
 * Renames, seen where every path of them meets: __d_move() (d_move(), d_exchange(),
 * d_splice_alias()'s and the filesystems' own renames such as debugfs_change_name()
 * all end there). It runs under rename_lock, with preemption off: a fentry program
 * (the kernel skips a run only in an interrupt over another program, and counts it).
 *
 * The moved dentry takes target's parent and name; with exchange, target takes the
 * moved one's. A MOVE event describes the place a dentry goes to (its parent and
 * path) and names the dentry that goes there.
 */
static __always_inline void emit_move(struct dentry *moved, struct dentry *place)
{
	struct pdt_event_full *e;
	u32 key = 0;

	/*
	 * An elided entry's place is read when it is sent; but the books keep the paths of
	 * the entries below a directory relative to it: one with any goes to the books.
	 */
	if (elided_find(addr_of(moved), &key)) {
		if (!moved->d_children.first)
			return;
		pdt_materialize(key);
	}
	e = emit_full_nostack(PDT_EV_MOVE, place);
	if (!e)
		return;
	e->h.dentry = (u64)moved;
	e->h.refcount = moved->d_lockref.count;
	e->h.flags |= PDT_F_WAS_PERSISTENT;
	submit(e);
}

SEC("fentry/__d_move")
int BPF_PROG(__d_move, struct dentry *dentry, struct dentry *target, bool exchange)
{
	u32 bit = persistent_bit();

	if (exchange) {
		/* Both first, from the places before the swap. */
		if (target->d_flags & bit)
			emit_move(target, dentry);
		if (dentry->d_flags & bit)
			emit_move(dentry, target);
		return 0;
	}
	/*
	 * A rename over an existing entry discards it first (simple_rename()): a target
	 * still persistent here stays so, unhashed and unreachable, pinned until umount.
	 */
	if (target->d_flags & bit) {
		struct pdt_event_full *e;

		materialize_if(addr_of(target));
		e = emit_full(ctx, PDT_EV_VICTIM, target);

		if (e)
			submit(e);
	}
	if (dentry->d_flags & bit)
		emit_move(dentry, target);
	return 0;
}
