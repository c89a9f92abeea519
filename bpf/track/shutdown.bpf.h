/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Umount's brackets: deactivate_locked_super() (removals inside are exempt) and
 * generic_shutdown_super(), whose return closes the superblock's books. Entered with
 * no spinlock: called from dispatch.bpf.c, at entry and return. The d_walk()
 * callbacks are in umount.bpf.c.
 */
#ifndef PDT_SHUTDOWN_BPF_H
#define PDT_SHUTDOWN_BPF_H

#include "common.bpf.h"
#include "elide.bpf.h"

static __always_inline int umount_enter(void)
{
	struct pdt_task_state *t = task_state(true);

	if (t)
		t->umount_depth++;
	return 0;
}

static __always_inline int umount_exit(void)
{
	struct pdt_task_state *t = task_state(false);

	if (t && t->umount_depth)
		t->umount_depth--;
	return 0;
}

/* The superblock whose shutdown the task is in: its books close when it returns. */
static __always_inline int shutdown_enter(void *sb)
{
	struct pdt_task_state *t = task_state(true);

	if (t)
		t->shutdown_sb = (u64)sb;
	return 0;
}

static __always_inline int shutdown_exit(void)
{
	struct pdt_task_state *t = task_state(false);
	struct super_block *sb;
	struct pdt_event_full *e;
	u32 *slot, s = PDT_NO_SLOT;

	if (!t || !t->shutdown_sb)
		return 0;
	sb = (void *)t->shutdown_sb;
	t->shutdown_sb = 0;
	slot = bpf_map_lookup_elem(&sbs, &sb);
	if (slot) {
		s = *slot;
		elided_flush(sb, s);
	}
	/* The address may come back as another superblock: its first event names it again. */
	bpf_map_delete_elem(&sbs, &sb);
	__sync_fetch_and_add(&pdt_sb_gen, 1); /* and every CPU's last one (first_of_sb()) */
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		bump(PDT_TC_LOST_EVENTS);
		return 0;
	}
	/* s_root is NULL by now: describe the superblock alone. */
	__builtin_memset(e, 0, sizeof(*e));
	e->h.type = PDT_EV_SB_DOWN;
	e->h.size = sizeof(*e);
	e->h.ts_ns = bpf_ktime_get_ns();
	e->h.sb = (u64)sb;
	e->h.dev = BPF_CORE_READ(sb, s_dev);
	/* Its slot: user space gives it back once it has read this (pdt_free_slots). */
	if (s < PDT_SB_SLOTS)
		e->slot = s + 1;
	task_ids(&e->h.pid, e->h.comm);
	bpf_probe_read_kernel_str(e->fs_type, sizeof(e->fs_type), BPF_CORE_READ(sb, s_type, name));
	bpf_probe_read_kernel_str(e->s_id, sizeof(e->s_id), &sb->s_id);
	submit(e);
	return 0;
}

#endif
