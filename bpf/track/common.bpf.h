/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the tracker's BPF sources: the maps (defined once in maps.bpf.c,
 * extern everywhere else, merged by llvm-link) and small helpers.
 */
#ifndef PDT_COMMON_BPF_H
#define PDT_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "pdtrace.h"

#ifdef PDT_MAPS_OWNER
#define PDT_MAP_DECL
#else
#define PDT_MAP_DECL extern
#endif

/* Every event, in order: a single ring buffer keeps reservation order across CPUs. */
PDT_MAP_DECL struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20); /* resized by user space before load */
} events SEC(".maps");

/*
 * Superblocks the reader has heard of, by address: the first event of a superblock
 * carries its names and wakes the reader at once (see submit()).
 */
PDT_MAP_DECL struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PDT_MAX_SB);
	__type(key, u64);
	__type(value, u32); /* its pdt_slots index, PDT_NO_SLOT when they ran out */
} sbs SEC(".maps");

#define PDT_NO_SLOT 0xffffffffu

/* Per-task state: what a task is in the middle of (BPF-private). */
struct pdt_task_state {
	unsigned long long create_target;   /* dentry a user-space create was given ... */
	unsigned long long create_name;	    /* ... with this name (d_name.hash_len) */
	unsigned long long whiteout_parent; /* a RENAME_WHITEOUT's whiteout goes here ... */
	unsigned long long whiteout_hash;   /* ... with this name (d_name.hash_len) */
	unsigned long long remove_target;   /* dentry a user-space unlink/rmdir holds */
	unsigned long long shutdown_sb;	    /* in generic_shutdown_super() of this one */
	unsigned long long removal_root;    /* outermost recursive removal */
	unsigned int removal_depth;
	unsigned int umount_depth;
	unsigned int removal_kstack; /* its PDT_EV_REMOVAL not sent yet: its stack's id, or lazy */
	unsigned int graph_overruns; /* the task's trace_overrun when last read (graph_check()) */
	/* Or, with PDT_KSTACK_LAZY there: its entry registers (ip, sp, bp), unwound then. */
	unsigned long long removal_regs[3];
};

/*
 * What each task is in the middle of: task-local storage, reached through the task
 * itself (no hashing, no LRU lock) and freed with it. A create mark on a filesystem
 * without persistence is simply overwritten by the task's next one.
 */
PDT_MAP_DECL struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct pdt_task_state);
} tasks SEC(".maps");

/*
 * The tracker's counters (enum pdt_track_counter), in .bss: user space reads them
 * through the skeleton's mapping, with no map syscall, which would make the kprobe
 * programs miss on that CPU while it runs (bpf_disable_instrumentation()).
 */
#ifdef PDT_MAPS_OWNER
__u64 pdt_counters[PDT_TC_MAX];
struct pdt_sb_slot pdt_slots[PDT_SB_SLOTS]; /* elided counts (see pdtrace.h), read the same way */
__u32 pdt_nslots;			    /* slots handed out for the first time */
/*
 * Slots of superblocks gone, given back by user space once it read their PDT_EV_SB_DOWN
 * (and stopped reading their counts): a ring it alone writes, pdt_free_head last.
 */
__u32 pdt_free_slots[PDT_SB_SLOTS];
__u32 pdt_free_head;		    /* slots given back, ever */
__u32 pdt_free_tail;		    /* of those, taken again */
__u32 pdt_spare_slot = 0xffffffffu; /* taken by a CPU that lost the race to name its sb */
struct pdt_hook_ip pdt_hook_ips[PDT_HOOK_IPS]; /* see pdtrace.h */
__u32 pdt_nhook_ips;			       /* set last, once the table is whole */
__u32 pdt_brackets_live; /* user space sets it once the brackets' link is final */
#else
extern struct pdt_hook_ip pdt_hook_ips[PDT_HOOK_IPS];
extern __u32 pdt_nhook_ips;
extern __u64 pdt_counters[PDT_TC_MAX];
extern struct pdt_sb_slot pdt_slots[PDT_SB_SLOTS];
extern __u32 pdt_nslots;
extern __u32 pdt_free_slots[PDT_SB_SLOTS];
extern __u32 pdt_free_head;
extern __u32 pdt_free_tail;
extern __u32 pdt_spare_slot;
extern __u32 pdt_brackets_live;
#endif

/* How many of the table's entries (pdtrace.h) user space has written: 0, then all. */
static __always_inline u32 hook_count(void)
{
	return *(volatile __u32 *)&pdt_nhook_ips;
}

/*
 * The place among the table's first n entries of the function that starts less than
 * span bytes before ip: PDT_HOOK_IPS when none does. n is hook_count() read once by
 * the caller, which may ask again whether the table was written.
 */
static __always_inline u32 hook_find(u64 ip, u64 span, u32 n)
{
	u32 i;

#pragma unroll
	for (i = 0; i < PDT_HOOK_IPS; i++)
		if (i < n && ip - pdt_hook_ips[i].ip < span)
			return i;
	return PDT_HOOK_IPS;
}

/*
 * x86-64: a kprobe's registers' ip is the return address of the hooked function's call
 * to __fentry__, its first instruction (its second, past an endbr64, on a kernel built
 * with IBT): a few bytes past the function's address. Functions are 16-byte aligned
 * (FUNCTION_ALIGNMENT): no other starts in between.
 */
#define PDT_FENTRY_SPAN 16

/* Scratch space to build a path right to left; see fill_path(). */
#define PDT_SCRATCH_MASK 511
struct pdt_scratch {
	char buf[PDT_SCRATCH_MASK + 1 + 256];
};

PDT_MAP_DECL struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct pdt_scratch);
} scratch SEC(".maps");

/*
 * Every program runs with preemption off: kprobe.multi programs by construction (an
 * ftrace callback), fentry ones because their function is entered with a spinlock
 * held. No other run can then take the per-CPU scratch buffer, and the kernel can
 * skip a run only when it nests in an interrupt over another program (counted as a
 * recursion miss). The self-check's iterator is preemptible: it disables preemption
 * around its use of the buffer. (bpf_preempt_disable(): 6.10+.)
 */
extern void bpf_preempt_disable(void) __ksym;
extern void bpf_preempt_enable(void) __ksym;

/*
 * A kprobe's arguments are plain numbers to the verifier: cast a dentry to a
 * read-only BTF pointer, and fields are then direct loads (faults read as zero)
 * rather than a helper call each. (bpf_rdonly_cast(): 6.2+.) Only struct dentry:
 * with clang 14 a second type's id relocation came out as the first one's.
 */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
#define as_dentry(p) ((struct dentry *)bpf_rdonly_cast((p), bpf_core_type_id_kernel(struct dentry)))

/*
 * Kernel stacks of user-space creations too (--user-stacks). They are the syscall's
 * path, and the unwind costs more than the rest of the persist program together:
 * by default a user-made entry keeps its creator's pid and comm instead.
 */
#ifdef PDT_MAPS_OWNER
const volatile bool pdt_user_stacks = false;
const volatile __u64 pdt_ring_size = 8 << 20; /* the ring buffer's size, set before load */
#else
extern const volatile bool pdt_user_stacks;
extern const volatile __u64 pdt_ring_size;
#endif

/*
 * The floor of `make bench`: the same programs on the same hooks, returning at once
 * (built with -DPDT_FLOOR into build/floor/pdtrace, never installed).
 */
#if defined(PDT_FLOOR) || defined(PDT_STREAM_FLOOR) || defined(PDT_STACK_FLOOR)
#define PDT_FLOOR_RETURN return 0
#else
#define PDT_FLOOR_RETURN
#endif

static __always_inline void bump(u32 idx)
{
	if (idx < PDT_TC_MAX)
		__sync_fetch_and_add(&pdt_counters[idx], 1);
}

/* S_DEAD is a #define in include/linux/fs.h (not in BTF), stable since 2.4. */
#define PDT_S_DEAD (1 << 4)

static __always_inline u32 persistent_bit(void)
{
	/* Never a hard-coded bit: the enum moves between kernels. */
	return bpf_core_enum_value(enum dentry_flags, DCACHE_PERSISTENT);
}

static __always_inline struct pdt_task_state *task_state(bool create)
{
	struct pdt_task_state *t;

	t = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), 0,
				 create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (!t && create)
		bump(PDT_TC_TASK_FULL);
	return t;
}

/*
 * A bracket the kernel skipped without counting it anywhere a tracer can read for all
 * tasks. A session's entry and return ride on the function graph tracer: when the task's
 * shadow stack has no room even for the call's frame, ftrace_push_return_trace() skips
 * the call for every graph user and counts it only in the task's trace_overrun. So it is
 * read where the task next does what a bracket covers: a discard (a removal's entries)
 * and the umount walk's check (inside an umount and its shutdown). What went up since
 * the task was last read there is counted lost: the graph tracer skipped that many calls,
 * a bracket may be among them. pdtrace's brackets nest a few calls deep; the stack fills
 * only under another graph tracer on a deep call chain, so the test is a load and a
 * branch, and the rest out of line.
 */
static __always_inline u32 graph_overruns(void)
{
	struct task_struct *task = bpf_get_current_task_btf();

	if (!bpf_core_field_exists(task->trace_overrun))
		return 0; /* a kernel without the graph tracer */
	return task->trace_overrun.counter;
}

#ifdef PDT_MAPS_OWNER
__noinline int pdt_graph_overrun(u32 now)
{
	struct pdt_task_state *t = task_state(true);
	u32 seen;

	if (!t)
		return 0; /* counted as PDT_TC_TASK_FULL: incomplete all the same */
	seen = t->graph_overruns;
	if (now == seen)
		return 0;
	t->graph_overruns = now;
	/* Lower than last read: a graph tracer's start set it back to 0 since. */
	__sync_fetch_and_add(&pdt_counters[PDT_TC_GRAPH_SKIPPED], now > seen ? now - seen : now);
	return 0;
}
#else
int pdt_graph_overrun(u32 now);
#endif

static __always_inline void graph_check(void)
{
	u32 now = graph_overruns();

	if (now)
		pdt_graph_overrun(now);
}

/*
 * Each CPU's last superblock, with the generation it was seen in: a superblock's
 * events come in runs, and this check is one inlined array load where the hash
 * lookup below costs a hashing and a bucket walk. A shutdown bumps pdt_sb_gen,
 * which empties every CPU's entry at once.
 */
struct pdt_sb_seen {
	unsigned long long sb;
	unsigned long long gen;
	unsigned int slot;
	unsigned int pad;
};

PDT_MAP_DECL struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct pdt_sb_seen);
} sb_seen SEC(".maps");

#ifdef PDT_MAPS_OWNER
__u64 pdt_sb_gen;
#else
extern __u64 pdt_sb_gen;
#endif

/*
 * A new superblock's slot of elided counts: a spare one, one never handed out, or one
 * user space gave back; PDT_NO_SLOT when none is free (its entries are then streamed).
 */
#ifdef PDT_MAPS_OWNER
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
#else
int pdt_take_slot(void);
#endif

static __always_inline u32 new_slot(u64 sb)
{
	u32 slot = (u32)pdt_take_slot();

	/* Here, not in pdt_take_slot(): a global function takes no kernel pointer. */
	if (slot != PDT_NO_SLOT)
		pdt_slots[slot & (PDT_SB_SLOTS - 1)].sb = sb;
	return slot;
}

/*
 * Is this the first full event of superblock sb? Its names then go with it, and the
 * reader is woken at once to find the mountpoint while the filesystem is mounted.
 * The shutdown of a superblock forgets it (the address can come back as another).
 * *slot: its slot of elided counts.
 */
static __always_inline bool first_of_sb(u64 sb, u32 *slot)
{
	u64 gen = *(volatile __u64 *)&pdt_sb_gen;
	struct pdt_sb_seen *seen;
	u32 zero = 0, s, *known;
	long rc;

	seen = bpf_map_lookup_elem(&sb_seen, &zero);
	if (seen && seen->sb == sb && seen->gen == gen) {
		*slot = seen->slot;
		return false;
	}
	known = bpf_map_lookup_elem(&sbs, &sb);
	if (known) {
		s = *known;
	} else {
		s = new_slot(sb);
		rc = bpf_map_update_elem(&sbs, &sb, &s, BPF_NOEXIST);
		if (rc == -7 /* -E2BIG: full */) {
			bump(PDT_TC_SB_FULL);
			s = PDT_NO_SLOT;
		} else if (rc && (known = bpf_map_lookup_elem(&sbs, &sb))) {
			/*
			 * Another CPU's first event of it won: the slot is kept for the next
			 * superblock (lost only when a spare waits already: fewer elided).
			 */
			if (s != PDT_NO_SLOT)
				__sync_val_compare_and_swap(&pdt_spare_slot, PDT_NO_SLOT, s);
			s = *known;
		}
	}
	if (seen) {
		seen->sb = sb;
		seen->gen = gen;
		seen->slot = s;
	}
	*slot = s;
	return !known;
}

/*
 * The current task's process id and name, as bpf_get_current_pid_tgid() >> 32 and
 * bpf_get_current_comm() give them, by direct loads from the task: the name helper
 * costs more than the rest of a small event's header. comm is TASK_COMM_LEN bytes,
 * NUL-padded by every writer (__set_task_comm()).
 */
static __always_inline void task_ids(unsigned int *pid, char *comm)
{
	struct task_struct *task = bpf_get_current_task_btf();

	*pid = task->tgid;
	*(u64 *)&comm[0] = *(u64 *)&task->comm[0];
	*(u64 *)&comm[8] = *(u64 *)&task->comm[8];
}

/*
 * d is a BTF pointer (a fentry argument, or a kprobe's through as_dentry()): its
 * fields are direct loads, not a helper call each. t: the task's state, looked up once
 * per program run by the caller (may be NULL).
 */
static __always_inline void fill_header(struct pdt_event *h, u16 type, u16 size, struct dentry *d,
					const struct pdt_task_state *t)
{
	struct super_block *sb = d->d_sb;

	h->type = type;
	h->size = size;
	h->flags = 0;
	h->ts_ns = bpf_ktime_get_ns();
	h->dentry = (u64)d;
	h->parent = (u64)d->d_parent;
	h->sb = (u64)sb;
	h->dev = sb->s_dev;
	h->refcount = d->d_lockref.count;
	h->removal_root = 0;
	h->origin = PDT_ORIGIN_UNKNOWN;
	task_ids(&h->pid, h->comm);
	if (d->d_flags & persistent_bit())
		h->flags |= PDT_F_WAS_PERSISTENT;
	if (d->d_inode)
		h->flags |= PDT_F_WAS_POSITIVE;
	if (t && t->umount_depth)
		h->flags |= PDT_F_IN_UMOUNT;
	if (t && t->removal_depth) {
		h->flags |= PDT_F_IN_REMOVAL;
		h->removal_root = t->removal_root;
	}
}

/*
 * A dentry's address as a number: the verifier allows no arithmetic on a BTF pointer,
 * but a pointer stored in a map value reads back as a plain number (root may leak
 * them). The dispatcher's arguments are numbers already.
 */
PDT_MAP_DECL struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} addr_tmp SEC(".maps");

static __always_inline u64 addr_of(const void *p)
{
	u32 zero = 0;
	volatile u64 *v = bpf_map_lookup_elem(&addr_tmp, &zero);

	if (!v)
		return 0;
	*v = (u64)p;
	return *v;
}

#ifdef PDT_MAPS_OWNER
__u64 pdt_anchor; /* its own address as a number, once a program has taken it */
#else
extern __u64 pdt_anchor;
#endif

/*
 * The same, in a few instructions where one entry of a tree costs every one (the
 * umount walk): root may subtract one pointer from another, and the difference from
 * pdt_anchor plus pdt_anchor's address as a number is p's.
 */
static __always_inline u64 addr_by_anchor(const void *p)
{
	u64 d = (u64)p, base = *(volatile u64 *)&pdt_anchor;

	if (!base)
		base = pdt_anchor = addr_of(&pdt_anchor);
	d -= (u64)&pdt_anchor;
	barrier_var(d); /* pointer minus pointer first: a number, then the sum */
	return d + base;
}

/*
 * Path of the dentry at a from its superblock's root, built right to left in the
 * per-CPU scratch buffer (offsets masked so the verifier can bound every access):
 * where it starts there. Too deep or too long a path keeps its leaf end and starts
 * with "...". Global functions: each is verified once per program, not at each of the
 * many places an event takes a path. Two drivers of one step: the dispatcher, which
 * takes the paths of every kernel-made entry, unrolls its loop (the verifier checks 24
 * components, about 1,400 instructions); the programs that take paths rarely (umount,
 * renames, the self-check, an entry's materialization) run it as a bpf_loop()
 * callback, checked once, for the cost of a call per component.
 */
#ifdef PDT_MAPS_OWNER
struct path_build {
	struct pdt_scratch *s;
	struct dentry *d; /* the next component's */
	u32 pos;	  /* where the path starts in s */
	bool truncated, at_root;
};

/* One component, d's name, before the rest; 1 ends the loop. */
static __always_inline int path_component(u32 i, struct path_build *b)
{
	struct dentry *d = b->d, *parent = d->d_parent;
	u32 len = d->d_name.len, pos = b->pos;

	if (parent == d || !parent) {
		b->at_root = true;
		return 1;
	}
	if (len > 255 || PDT_SCRATCH_MASK - pos + len + 1 > PDT_PATH_LEN - 5) {
		b->truncated = true;
		return 1;
	}
	pos -= len;
	bpf_probe_read_kernel(&b->s->buf[pos & PDT_SCRATCH_MASK], len & 255, d->d_name.name);
	pos -= 1;
	b->s->buf[pos & PDT_SCRATCH_MASK] = '/';
	b->pos = pos;
	b->d = parent;
	return 0;
}

static __always_inline bool path_start(struct path_build *b, u64 a)
{
	u32 zero = 0;

	b->s = bpf_map_lookup_elem(&scratch, &zero);
	b->d = as_dentry((void *)a);
	b->pos = PDT_SCRATCH_MASK;
	b->truncated = b->at_root = false;
	if (!b->s)
		return false;
	b->s->buf[PDT_SCRATCH_MASK] = '\0';
	return true;
}

/* The root's "/", or the "..." of a path cut short; where the path starts. */
static __always_inline u32 path_end(struct path_build *b)
{
	u32 pos = b->pos;

	if (!b->at_root && !b->truncated && b->d->d_parent != b->d)
		b->truncated = true; /* PDT_PATH_DEPTH components, and more above */
	if (pos == PDT_SCRATCH_MASK) {
		pos -= 1;
		b->s->buf[pos & PDT_SCRATCH_MASK] = '/';
	}
	if (b->truncated) {
		pos -= 3;
		b->s->buf[pos & PDT_SCRATCH_MASK] = '.';
		b->s->buf[(pos + 1) & PDT_SCRATCH_MASK] = '.';
		b->s->buf[(pos + 2) & PDT_SCRATCH_MASK] = '.';
	}
	return pos & PDT_SCRATCH_MASK;
}

__noinline u32 pdt_build_path(u64 a)
{
	struct path_build b;
	u32 i;

	if (!path_start(&b, a))
		return PDT_SCRATCH_MASK;
	for (i = 0; i < PDT_PATH_DEPTH; i++)
		if (path_component(i, &b))
			break;
	return path_end(&b);
}

__noinline u32 pdt_build_path_loop(u64 a)
{
	struct path_build b;

	if (!path_start(&b, a))
		return PDT_SCRATCH_MASK;
	bpf_loop(PDT_PATH_DEPTH, path_component, &b, 0);
	return path_end(&b);
}
#else
u32 pdt_build_path(u64 a);
u32 pdt_build_path_loop(u64 a);
#endif

/* d's path into out (PDT_PATH_LEN bytes): see pdt_build_path(); the dispatcher's unrolled. */
static __always_inline void fill_path(struct dentry *d, char *out)
{
#ifdef PDT_KPROBE_CTX
	u32 zero = 0, pos = pdt_build_path(addr_of(d)), len;
#else
	u32 zero = 0, pos = pdt_build_path_loop(addr_of(d)), len;
#endif
	struct pdt_scratch *s = bpf_map_lookup_elem(&scratch, &zero);

	if (!s) {
		out[0] = '\0';
		return;
	}
	/* Its length is known: one copy, not the string helper's byte at a time. */
	len = PDT_SCRATCH_MASK + 1 - (pos & PDT_SCRATCH_MASK);
	if (len > PDT_PATH_LEN)
		len = PDT_PATH_LEN;
	bpf_probe_read_kernel(out, len, &s->buf[pos & PDT_SCRATCH_MASK]);
	out[PDT_PATH_LEN - 1] = '\0';
}

/*
 * Commit an event without waking the reader: a wakeup per event (an irq_work, a
 * context switch, an epoll round trip in pdtrace) cost more than the event itself.
 * The reader polls with a timeout and drains what is there. It is woken at once
 * each time another eighth of the ring buffer is waiting, so that a burst cannot
 * fill it; by every event once half of it is waiting, because a crossing can go
 * unseen (another CPU's reservation, or the reader's consumption, between this
 * event's reservation and its query moves avail past it for both); and for the first
 * event of a superblock, so that it finds the mountpoint while the filesystem is
 * still mounted.
 */
static __always_inline void submit(void *e)
{
	u64 avail = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA), step = pdt_ring_size >> 3;
	/* What it took: its size (a pdt_walk_entry's is there too) and the record header. */
	u64 size = (((struct pdt_event *)e)->size + 8 + 7) & ~7ULL;

	/*
	 * avail counts this event: wake once where it crosses each eighth, not on every
	 * event past the first (an irq_work each, while the reader already drains).
	 */
	if ((avail >= step && avail / step != (avail - size) / step) || avail >= 4 * step ||
	    (((struct pdt_event *)e)->flags & PDT_F_FIRST_OF_SB))
		bpf_ringbuf_submit(e, BPF_RB_FORCE_WAKEUP);
	else
		bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

#ifdef PDT_STREAM_FLOOR
/*
 * The floor of any design that streams the books to user space (make bench's
 * "stream" variant, -DPDT_STREAM_FLOOR, never installed): a persist, a discard and an
 * umount's unpin each send the smallest event, with nothing in it the reader can use
 * (type 0: it counts it and drops it), and every other program returns at once.
 */
static __always_inline int stream_floor(void *dentry)
{
	struct pdt_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e)
		return 0;
	e->type = 0;
	e->size = sizeof(*e);
	e->dentry = (u64)dentry;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}
#endif

/*
 * One step down the function graph tracer's shadow stack (current->ret_stack, the
 * layout of kernel/trace/fgraph.c): the word below *off holds in its low bits the
 * offset back to its frame's struct ftrace_ret_stack. That frame, with *off moved
 * below it; NULL at the bottom or on a word that makes no sense. Both unwinds that
 * take a return address back from it use this: x86's stack cache, arm64's caller.
 */
#define PDT_FGRAPH_OFFSET_MASK 0x3ff /* FGRAPH_FRAME_OFFSET_MASK */
static __always_inline struct ftrace_ret_stack *fgraph_frame(unsigned long *rs, int *off)
{
	unsigned long w;
	int o = *off;

	if (!rs || o <= 0 || bpf_probe_read_kernel(&w, sizeof(w), rs + o - 1))
		return NULL;
	w &= PDT_FGRAPH_OFFSET_MASK;
	if (!w || w > (unsigned long)o - 1)
		return NULL;
	*off = o - 1 - w;
	return (void *)(rs + *off);
}

#include "stack_cache.bpf.h"

/*
 * The kernel stack where the event happened: the dearest part of an event (an
 * unwind of up to PDT_STACK_DEPTH frames). Only events that can become findings
 * need it; the others leave nstack at 0.
 */
#if defined(__TARGET_ARCH_arm64) && defined(PDT_KPROBE_CTX)
/*
 * arm64, the kprobe.multi programs (PDT_KPROBE_CTX: ctx is the hooked function's entry
 * registers): at a function's entry the return address into its caller is still in the
 * link register, in no frame record yet, and the kernel's unwind from those registers
 * goes from the hooked function (pc) to the frame record of the caller, whose saved link
 * register is the caller's caller: the direct caller is missing (x86's unwind reads it
 * from the top of the stack). Put the link register back in as the second frame, unless
 * the unwind has it already; the outermost frame gives way when the stack is full.
 */
extern const void return_to_handler __ksym __weak;

/*
 * A function hooked at its return by the function graph tracer (another fprobe with a
 * return handler) may have had its link register replaced by return_to_handler before
 * this program runs; the real return address is on the task's shadow stack: the ret of
 * its last frame (fgraph_frame()). That frame must be this call's (arm64 gives the entry
 * frame pointer as its fp and retp); anything else gives 0.
 */
static __always_inline u64 graph_ret(struct pt_regs *ctx)
{
	struct task_struct *t = bpf_get_current_task_btf();
	int off = t->curr_ret_stack;
	struct ftrace_ret_stack *f = fgraph_frame(t->ret_stack, &off);
	u64 fp = PT_REGS_FP(ctx);

	if (!f || !bpf_core_field_exists(f->fp) || BPF_CORE_READ(f, fp) != fp ||
	    (u64)BPF_CORE_READ(f, retp) != fp)
		return 0;
	return BPF_CORE_READ(f, ret);
}

static __always_inline void add_caller(struct pt_regs *ctx, struct pdt_event_full *e)
{
	u64 lr = PT_REGS_RET(ctx);
	u32 n = e->nstack;
	int i;

	if (lr && lr == (u64)&return_to_handler)
		lr = graph_ret(ctx);
	if (!n || n > PDT_STACK_DEPTH || !lr || (n > 1 && e->stack[1] == lr))
		return;
	if (n == PDT_STACK_DEPTH)
		n--;
	for (i = PDT_STACK_DEPTH - 1; i > 1; i--)
		if (i <= (int)n)
			e->stack[i] = e->stack[i - 1];
	e->stack[1] = lr;
	e->nstack = n + 1;
}
#endif

/* e's stack from the kernel's unwind (n: what bpf_get_stack() returned, or the walk gave). */
static __always_inline void set_stack(void *ctx, struct pdt_event_full *e, long n)
{
	e->nstack = n > 0 ? n / sizeof(e->stack[0]) : 0;
#if defined(__TARGET_ARCH_arm64) && defined(PDT_KPROBE_CTX)
	add_caller(ctx, e);
#endif
}

/*
 * The kernel stack of the hooked function's caller into e. memo: where the stack cache
 * may leave a memo's frames uncopied (stack_scratch(), kstack.bpf.h), or NULL.
 */
static __always_inline void add_stack_memo(void *ctx, struct pdt_event_full *e, u32 *memo)
{
	set_stack(ctx, e,
		  sc_on() ? sc_stack(ctx, e, memo)
			  : bpf_get_stack(ctx, e->stack, sizeof(e->stack), 0));
}

/*
 * The kernel's unwind alone: for a program that takes a stack seldom (the brackets'),
 * which then carries none of the stack cache's code for the verifier to check.
 */
static __always_inline void add_kernel_stack(void *ctx, struct pdt_event_full *e)
{
	set_stack(ctx, e, bpf_get_stack(ctx, e->stack, sizeof(e->stack), 0));
}

static __always_inline void add_stack(void *ctx, struct pdt_event_full *e)
{
	add_stack_memo(ctx, e, NULL);
}

/*
 * Reserve and fill a full event but for its path and stack; NULL when the ring buffer
 * is full. t as for fill_header().
 */
static __always_inline struct pdt_event_full *
reserve_full_sb(u16 type, struct dentry *d, const struct pdt_task_state *t, bool first, u32 slot)
{
	struct pdt_event_full *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	struct super_block *sb;

	if (!e) {
		bump(PDT_TC_LOST_EVENTS);
		return NULL;
	}
	fill_header(&e->h, type, sizeof(*e), d, t);
	sb = d->d_sb;
	e->slot = 0;
	/* The superblock's names, once: the reader keeps them from its first event on. */
	if (first) {
		e->h.flags |= PDT_F_FIRST_OF_SB;
		bpf_probe_read_kernel_str(e->fs_type, sizeof(e->fs_type), sb->s_type->name);
		bpf_probe_read_kernel_str(e->s_id, sizeof(e->s_id), sb->s_id);
		if (slot != PDT_NO_SLOT)
			e->slot = slot + 1;
	} else {
		e->fs_type[0] = '\0';
		e->s_id[0] = '\0';
	}
	e->nstack = 0;
	e->path[0] = '\0';
	return e;
}

static __always_inline struct pdt_event_full *reserve_full_t(u16 type, struct dentry *d,
							     const struct pdt_task_state *t)
{
	u32 slot;
	bool first = first_of_sb((u64)d->d_sb, &slot);

	return reserve_full_sb(type, d, t, first, slot);
}

static __always_inline struct pdt_event_full *reserve_full(u16 type, struct dentry *d)
{
	return reserve_full_t(type, d, task_state(false));
}

/* A full event with its path, without its stack. */
static __always_inline struct pdt_event_full *emit_full_nostack(u16 type, struct dentry *d)
{
	struct pdt_event_full *e = reserve_full(type, d);

	if (e)
		fill_path(d, e->path);
	return e;
}

/* A full event with its stack. */
static __always_inline struct pdt_event_full *emit_full(void *ctx, u16 type, struct dentry *d)
{
	struct pdt_event_full *e = emit_full_nostack(type, d);

	if (e)
		add_stack(ctx, e);
	return e;
}

/* A small event (no names, path or stack); t as for fill_header(). */
static __always_inline struct pdt_event *emit_small(u16 type, struct dentry *d,
						    const struct pdt_task_state *t)
{
	struct pdt_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e) {
		bump(PDT_TC_LOST_EVENTS);
		return NULL;
	}
	fill_header(e, type, sizeof(*e), d, t);
	return e;
}

#endif /* PDT_COMMON_BPF_H */
