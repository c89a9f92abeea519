/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events into the ring buffer: a superblock's first, the header every event has, the
 * stack, reserving and committing.
 */
#ifndef PDT_EVENT_BPF_H
#define PDT_EVENT_BPF_H

#include "common.bpf.h"
#include "path.bpf.h"

/*
 * A new superblock's slot of elided counts: a spare one, one never handed out, or one
 * user space gave back; PDT_NO_SLOT when none is free (its entries are then streamed).
 * (slot.bpf.c)
 */
int pdt_take_slot(void);

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
		if (rc == -PDT_E2BIG) {
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

#ifdef __TARGET_ARCH_arm64
/*
 * arm64, the dispatchers (ctx is the hooked function's entry registers, a kprobe's):
 * at a function's entry the return address into its caller is still in the
 * link register, in no frame record yet, and the kernel's unwind from those registers
 * goes from the hooked function (pc) to the frame record of the caller, whose saved link
 * register is the caller's caller: the direct caller is missing (x86's unwind reads it
 * from the top of the stack). Put the link register back in as the second frame, unless
 * the unwind has it already; the outermost frame gives way when the stack is full.
 */

/*
 * One step down the function graph tracer's shadow stack (current->ret_stack, the
 * layout of kernel/trace/fgraph.c): the word below *off holds in its low bits the
 * offset back to its frame's struct ftrace_ret_stack. That frame, with *off moved
 * below it; NULL at the bottom or on a word that makes no sense.
 */
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

/*
 * The kernel stack where the event happened, as the kernel's own unwinder gives it:
 * the dearest part of an event (an unwind of up to PDT_STACK_DEPTH frames). Only
 * events that can become findings need it; the others leave nstack at 0.
 */
static __always_inline void add_stack(void *ctx, struct pdt_event_full *e)
{
	long n = bpf_get_stack(ctx, e->stack, sizeof(e->stack), 0);

	e->nstack = n > 0 ? n / sizeof(e->stack[0]) : 0;
}

/* The same at a hooked function's entry, from a dispatcher's registers (see add_caller()). */
static __always_inline void add_entry_stack(struct pt_regs *ctx, struct pdt_event_full *e)
{
	add_stack(ctx, e);
#ifdef __TARGET_ARCH_arm64
	add_caller(ctx, e);
#endif
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

#endif
