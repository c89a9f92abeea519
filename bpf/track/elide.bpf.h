/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Elision (see pdtrace.h): the entries kept off the stream, in a set of our own. Churn
 * makes and removes a user's entries by the ten thousand a second, and no rule can fire
 * on one whose life is a user's create and a user's unlink (or an umount's unpin): its
 * events would only have been counted. The kernel's own entries are made and removed
 * by the hundred at each configfs mkdir or tracefs instance, and no rule fires on one
 * whose life ends in a removal either (user-entry-removed is about a user's): such an
 * entry keeps its creation stack in kstack.bpf.h's table. Everything else that happens
 * to one (a second persist, a discard with a finding in it, a user's entry in a
 * removal, a kill with its reference eaten, a rename over it, a discard of its parent
 * while it is still there, the free of a module its stack went through) first sends
 * the PERSIST it was spared, and the rules see the rest as usual.
 *
 * The set is an open-addressed table of dentry addresses, a bounded probe each: an
 * array map, so every lookup is a few inlined instructions with no lock and no
 * allocation, and a slot is claimed or released with one compare-and-swap. An entry
 * that finds no free slot in its probe is not elided: it is streamed, as all were.
 */
#ifndef PDT_ELIDE_BPF_H
#define PDT_ELIDE_BPF_H

#include "common.bpf.h"
#include "event.bpf.h"
#include "kstack.bpf.h"

/*
 * 2^19 slots: a 100,000-entry tree fills a fifth of them, and a probe of 4 finds a free
 * slot for all but about a thousandth of its entries (in half as many, about one in a
 * hundred, each then streamed at its persist and again at its unpin).
 */
#define PDT_ELIDE_BITS 19 /* 2^N slots, unless user space sets another N before load */
#define PDT_ELIDE_SIZE (1u << pdt_elide_bits)
#define PDT_ELIDE_PROBE 4      /* slots tried; a set a fifth full finds one in the first */
#define PDT_MAX_DEPTH 4096     /* PATH_MAX / 2: "/x" a level at least */
#define PDT_NO_KEY 0xffffffffu /* not an index of the set */

/* An elided entry: what its PERSIST would have said that the dentry cannot tell later. */
struct pdt_elided {
	unsigned long long dentry; /* 0: free */
	unsigned short slot;	   /* its superblock's pdt_slots index */
	unsigned short kstack;	   /* 0: a user's; else the kernel's, its stack's id */
	unsigned int pid;
	char comm[PDT_COMM_LEN];
};

extern struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1u << PDT_ELIDE_BITS);
	__type(key, u32);
	__type(value, struct pdt_elided);
} elided SEC(".maps");

/* Off for trace -v, which prints every event, and with --user-stacks. */
extern const volatile bool pdt_elide;
extern const volatile __u32 pdt_elide_bits;

static __always_inline u32 elide_hash(u64 d)
{
	/* Dentries are cache-line aligned: the low bits say nothing. */
	return (u32)(((d >> 6) * 0x9E3779B97F4A7C15ULL) >> ((64 - pdt_elide_bits) & 63));
}

/* The i-th slot of the probe from hash h (*k: its index): the one probe sequence. */
static __always_inline struct pdt_elided *elide_at(u32 h, u32 i, u32 *k)
{
	*k = (h + i) & (PDT_ELIDE_SIZE - 1);
	return bpf_map_lookup_elem(&elided, k);
}

/*
 * d's entry in the set (*key: its index), NULL when it is not elided: the probe
 * itself, inlined where a hot path needs it (a discard, the umount walk's unpin),
 * behind pdt_elided_key() everywhere else.
 */
static __always_inline struct pdt_elided *elided_probe(u64 d, u32 *key)
{
	u32 h = elide_hash(d), i, k;
	struct pdt_elided *m;

	if (!d)
		return NULL;
#pragma unroll
	for (i = 0; i < PDT_ELIDE_PROBE; i++) {
		m = elide_at(h, i, &k);
		if (m && m->dentry == d) {
			*key = k;
			return m;
		}
	}
	return NULL;
}

/*
 * Where d is in the set: its index, or -1 when it is not elided. A global function
 * (see pdt_materialize()): most of its callers sit on paths the verifier walks
 * many times.
 */
long pdt_elided_key(u64 d);

/* d's entry in the set (*key: its index), NULL when it is not elided. */
static __always_inline struct pdt_elided *elided_find(u64 d, u32 *key)
{
	long k = pdt_elided_key(d);

	if (k < 0)
		return NULL;
	*key = k;
	return bpf_map_lookup_elem(&elided, key);
}

/*
 * Take d into the set: false when its probe has no free slot (it is streamed instead:
 * also when another CPU took the slot meanwhile), or when d is found before one (*old,
 * *key: a life whose end went unseen, which the rules must hear of first). The probe
 * stops at the first free slot, inlined: every create runs it, and in churn the first
 * slot is free. d further on (its end unseen, and a slot before it freed since) is
 * not looked for: an end goes unseen only when a run was skipped or the ring buffer
 * was full, which the gate counts as lost.
 */
static __always_inline bool elided_add(u64 d, u32 slot, u32 kstack, struct pdt_elided **old,
				       u32 *key)
{
	u32 h = elide_hash(d), i, k, fk = 0;
	struct pdt_elided *m, *free = NULL;

	*old = NULL;
	if (!d)
		return false;
#pragma unroll
	for (i = 0; i < PDT_ELIDE_PROBE; i++) {
		m = elide_at(h, i, &k);
		if (!m)
			continue;
		if (m->dentry == d) {
			*key = k;
			*old = m;
			return false;
		}
		if (!m->dentry) {
			free = m;
			fk = k;
			break;
		}
	}
	if (!free || __sync_val_compare_and_swap(&free->dentry, 0, d))
		return false;
	*key = fk;
	free->slot = slot;
	free->kstack = kstack;
	task_ids(&free->pid, free->comm); /* the creator */
	__sync_fetch_and_add(&pdt_slots[slot & (PDT_SB_SLOTS - 1)].made, 1);
	__sync_fetch_and_add(&pdt_slots[slot & (PDT_SB_SLOTS - 1)].live, 1);
	return true;
}

/* Take m (d's entry) out of the set; false when another CPU took it first. */
static __always_inline bool elided_take(struct pdt_elided *m, u64 d)
{
	return d && __sync_val_compare_and_swap(&m->dentry, d, 0) == d;
}

/*
 * Its life ended quietly: discarded (unpin false) or unpinned at umount. d is what the
 * probe found in m, not 0 (unless another CPU took it out since: then the swap fails).
 */
static __always_inline void elided_end(struct pdt_elided *m, u64 d, bool unpin)
{
	u32 slot = m->slot & (PDT_SB_SLOTS - 1);
	u64 was = __sync_val_compare_and_swap(&m->dentry, d, 0);

	barrier_var(was); /* a branch on it, not a flag made of it and then tested */
	if (was != d)
		return;
	__sync_fetch_and_add(&pdt_slots[slot].live, -1);
	if (unpin)
		__sync_fetch_and_add(&pdt_slots[slot].unpinned, 1);
	else
		__sync_fetch_and_add(&pdt_slots[slot].discarded, 1);
}

/*
 * Send the PERSIST that the entry in set slot key was spared, as it would have been
 * but for its path (where it is now) and its time: user space tracks it from here on,
 * and its made count moves from the superblock's slot to the stream. Global
 * functions: the verifier checks each once per program, not at each of its callers.
 */
int pdt_send_elided(u32 key);
int pdt_materialize(u32 key);

/* If the dentry at a is elided, send its PERSIST now: an event about it follows. */
static __always_inline void materialize_if(u64 a)
{
	u32 key;

	if (elided_find(a, &key))
		pdt_materialize(key);
}

/* The children of a directory, one step of bpf_loop() each. */
struct pdt_kids {
	u64 node; /* struct hlist_node * of the next child, 0: done */
	u32 sib_off;
	u32 persistent; /* children found persistent */
};

static int kid_step(u32 i, struct pdt_kids *k)
{
	u64 a = k->node - k->sib_off;
	struct dentry *c = as_dentry((void *)a);

	if (!k->node)
		return 1;
	if (c->d_flags & persistent_bit()) {
		materialize_if(a);
		k->persistent++;
	}
	k->node = (u64)BPF_CORE_READ(c, d_sib.next);
	return 0;
}

#define PDT_KIDS_MAX (1u << 16)

/*
 * A directory is discarded with entries below it: the rules look for the persistent
 * ones (orphaned), so none of them may be elided. Its children are stable here (the
 * caller holds the directory's lock); past PDT_KIDS_MAX of them the rest is unchecked,
 * and counted. True when any is persistent (or unchecked): the discard may then be a
 * finding. Entries on their way out (negative, or killed after it) are no orphans.
 */
static __always_inline bool materialize_kids(struct dentry *dir)
{
	struct pdt_kids k = {
		.node = (u64)BPF_CORE_READ(dir, d_children.first),
		.sib_off = bpf_core_field_offset(struct dentry, d_sib),
	};

	if (!k.node)
		return false;
	bpf_loop(PDT_KIDS_MAX, kid_step, &k, 0);
	if (k.node) {
		bump(PDT_TC_KIDS_UNCHECKED);
		return true;
	}
	return k.persistent;
}

/* A superblock's shutdown found elided entries of it still live: send them all. */
struct pdt_sweep {
	u32 slot;
};

static int sweep_step(u32 i, struct pdt_sweep *s)
{
	struct pdt_elided *m = bpf_map_lookup_elem(&elided, &i);
	u64 d;

	if (!m || !(d = m->dentry) || m->slot != s->slot)
		return 0;
	pdt_send_elided(i); /* their directories, elided or not, are there too */
	return 0;
}

/*
 * Before a module is loaded or freed: send the kernel-made entries of marked stacks. The
 * tracepoint's program can be preempted, and a path is built in the per-CPU scratch
 * buffer: preemption is off while one is sent.
 */
static int modular_step(u32 i, void *unused)
{
	struct pdt_elided *m = bpf_map_lookup_elem(&elided, &i);

	if (m && m->dentry && m->kstack && kstack_modular(m->kstack)) {
		bpf_preempt_disable();
		pdt_materialize(i);
		bpf_preempt_enable();
	}
	return 0;
}

static __always_inline void elided_sweep_modular(void)
{
	/* Cleared first: one elided meanwhile sets it again, for the next free. */
	if (__sync_lock_test_and_set(&pdt_kelided_modular, 0))
		bpf_loop(PDT_ELIDE_SIZE, modular_step, NULL, 0);
}

/*
 * Hand a superblock's elided counts to the stream, before its PDT_EV_SB_DOWN: its
 * books close with them. Entries still elided now were never discarded or unpinned
 * (the umount walk did not reach them): each is sent, for pinned-after-umount.
 */
static __always_inline void elided_flush(void *sbp, u32 slot)
{
	struct pdt_elided_event *e;
	struct pdt_sb_slot *s;
	struct pdt_sweep sw = { .slot = slot };

	if (slot >= PDT_SB_SLOTS)
		return;
	s = &pdt_slots[slot];
	/* Not from the deltas, which user space zeroes as it takes them: a sweep is 2^18 steps. */
	if (s->live > 0)
		bpf_loop(PDT_ELIDE_SIZE, sweep_step, &sw, 0);
	if (!s->made && !s->discarded && !s->unpinned)
		return;
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		bump(PDT_TC_LOST_EVENTS);
		return;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->h.type = PDT_EV_ELIDED;
	e->h.size = sizeof(*e);
	e->h.ts_ns = bpf_ktime_get_ns();
	e->h.sb = (u64)sbp;
	e->h.dev = BPF_CORE_READ((struct super_block *)sbp, s_dev);
	e->made = __sync_lock_test_and_set(&s->made, 0);
	e->discarded = __sync_lock_test_and_set(&s->discarded, 0);
	e->unpinned = __sync_lock_test_and_set(&s->unpinned, 0);
	submit(e);
}

#endif
