// SPDX-License-Identifier: GPL-2.0
/*
 * The table of kernel stacks' global function (kstack.bpf.h).
 */
#include "kstack.bpf.h"

__noinline u32 pdt_kstack_keep(const struct pdt_event_full *e)
{
	u64 h = 0x9e3779b97f4a7c15ull, lo = pdt_core_text[0], hi = pdt_core_text[1], ip;
	u32 n, i, k, modular = !lo || hi <= lo;
	struct pdt_kstack *s;

	if (!e)
		return 0;
	n = e->nstack;
	if (n < 1 || n > PDT_STACK_DEPTH)
		return 0;
	for (i = 0; i < PDT_STACK_DEPTH && i < n; i++) {
		ip = e->stack[i];
		h = (h ^ ip) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
		if (ip - lo >= hi - lo)
			modular = 1;
	}
	h = (h ^ n) | 1;
	for (i = 0; i < PDT_KSTACK_PROBE; i++) {
		k = ((u32)h + i) & pdt_kstacks_mask;
		s = bpf_map_lookup_elem(&kstacks, &k);
		if (!s)
			return 0;
		if (s->state == PDT_KS_READY) {
			if (s->hash != h || s->n != n)
				continue;
		} else if (s->state != PDT_KS_FREE ||
			   __sync_val_compare_and_swap(&s->state, PDT_KS_FREE, PDT_KS_WRITING)) {
			continue; /* another CPU's, being written */
		} else {
			__builtin_memcpy(s->ip, e->stack, sizeof(s->ip));
			s->hash = h;
			s->n = n;
			s->modular = modular;
			__sync_fetch_and_add(&s->state, 1); /* READY, after the rest */
		}
		return kstack_used(s, k);
	}
	return 0;
}
