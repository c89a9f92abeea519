// SPDX-License-Identifier: GPL-2.0
/* Superblocks' slots of elided counts (event.bpf.h's new_slot()): a global function. */
#include "common.bpf.h"

__noinline int pdt_take_slot(void)
{
	u32 slot = __sync_lock_test_and_set(&pdt_spare_slot, PDT_NO_SLOT), tail, i;

	/* Given back ones first: a machine's few live superblocks keep to a few slots. */
	for (i = 0; slot == PDT_NO_SLOT && i < 4; i++) {
		tail = *(volatile __u32 *)&pdt_free_tail;
		/* A fetch-and-add orders the loads: the entry is read after the head. */
		if (tail == __sync_fetch_and_add(&pdt_free_head, 0))
			break;
		if (__sync_val_compare_and_swap(&pdt_free_tail, tail, tail + 1) == tail)
			slot = pdt_free_slots[tail & (PDT_SB_SLOTS - 1)] & (PDT_SB_SLOTS - 1);
	}
	if (slot == PDT_NO_SLOT && *(volatile __u32 *)&pdt_nslots < PDT_SB_SLOTS) {
		slot = __sync_fetch_and_add(&pdt_nslots, 1);
		if (slot >= PDT_SB_SLOTS)
			slot = PDT_NO_SLOT;
	}
	return slot;
}
