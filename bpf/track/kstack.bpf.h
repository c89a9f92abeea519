/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The creation stacks of elided kernel-made entries (elide.bpf.h). The kernel makes its
 * entries again and again by the same calls (a configfs group's default groups, a
 * tracefs instance's files), so an entry keeps the index of its stack in a table of
 * distinct stacks, not the stack: the PERSIST it is spared is sent, stack and all, only
 * if something happens to it. The table only grows (a stack is a list of addresses,
 * which stays true of that creation whatever is loaded later); when its probe finds no
 * room, the entry is streamed as before. A stack with a frame outside the core
 * kernel's text (a module's, a trampoline's) is marked: before a module is loaded or
 * freed, the entries made by such stacks are sent (module.bpf.c), so that
 * outlives-module names the module from the stack with the modules of the moment the
 * stack was taken.
 */
#ifndef PDT_KSTACK_BPF_H
#define PDT_KSTACK_BPF_H

#include "common.bpf.h"
#include "event.bpf.h"

#define PDT_KSTACKS 4096 /* the table's size, unless user space sets another before load */
#define PDT_KSTACK_PROBE 4

enum { PDT_KS_FREE, PDT_KS_WRITING, PDT_KS_READY };

struct pdt_kstack {
	unsigned int state; /* PDT_KS_*: a slot is claimed, written, then published */
	unsigned int n;	    /* frames */
	unsigned long long hash;
	unsigned int modular; /* a frame outside [_stext, _etext) */
	unsigned int pad;
	unsigned long long ip[PDT_STACK_DEPTH];
};

extern struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PDT_KSTACKS);
	__type(key, u32);
	__type(value, struct pdt_kstack);
} kstacks SEC(".maps");

/*
 * Where a kernel-made entry's stack is taken before it is elided or streamed (the
 * dispatcher's and the brackets' programs, which do not nest on a CPU).
 */
extern struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct pdt_event_full);
} kscratch SEC(".maps");

extern __u64 pdt_core_text[2];
extern __u32 pdt_kelided_modular;
extern const volatile __u32 pdt_kstacks_mask;

/* A kept stack's entry was elided: a marked one's must be sent before a module goes. */
static __always_inline u32 kstack_used(struct pdt_kstack *s, u32 k)
{
	if (s->modular && !*(volatile __u32 *)&pdt_kelided_modular)
		pdt_kelided_modular = 1; /* read first: every CPU shares its line */
	return k + 1;
}

/*
 * The index + 1 of e's stack in the table, taken in if new; 0 when the table has no
 * room in its probe (the entry is then streamed). Stacks are told apart by a 64-bit
 * hash of their addresses and their depth. Global: checked once, not in each caller.
 */
u32 pdt_kstack_keep(const struct pdt_event_full *e);

/* The stack of the hooked function's caller, in this CPU's scratch space (or NULL). */
static __always_inline struct pdt_event_full *stack_scratch(void *ctx)
{
	u32 zero = 0;
	struct pdt_event_full *s = bpf_map_lookup_elem(&kscratch, &zero);

	if (s)
		add_entry_stack(ctx, s);
	return s;
}

/* A stack taken (s, may be NULL) into e, the event it belongs to. */
static __always_inline void stack_copy(struct pdt_event_full *e, const struct pdt_event_full *s)
{
	if (!s)
		return;
	__builtin_memcpy(e->stack, s->stack, sizeof(e->stack));
	e->nstack = s->nstack;
}

/* Stack id's frames into e (a materialized PERSIST, a removal's late start). */
static __always_inline void kstack_fill(u32 id, struct pdt_event_full *e)
{
	u32 k = id - 1;
	struct pdt_kstack *s = bpf_map_lookup_elem(&kstacks, &k);

	if (!s || s->state != PDT_KS_READY || s->n > PDT_STACK_DEPTH)
		return;
	__builtin_memcpy(e->stack, s->ip, sizeof(e->stack));
	e->nstack = s->n;
}

/* Is stack id marked (see above)? */
static __always_inline bool kstack_modular(u32 id)
{
	u32 k = id - 1;
	struct pdt_kstack *s = bpf_map_lookup_elem(&kstacks, &k);

	return !s || s->modular;
}

#endif
