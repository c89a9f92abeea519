// SPDX-License-Identifier: GPL-2.0
/*
 * The self-check's walk: every dentry of one superblock's tree, streamed into the
 * event ring buffer between two PDT_EV_WALK events, so that user space can compare
 * its books with what the kernel holds (src/selfcheck.c runs it before detaching).
 *
 * A task_file iterator, restricted to pdtrace's own process, finds the file that
 * user space opened on the filesystem (pdt_walk_fd) and walks its superblock's tree
 * from s_root in d_walk()'s order without a stack: down the first child, else on to
 * the next sibling, else up. It takes no locks: the program runs under RCU (no dentry
 * it reaches is freed under it), and user space repeats a walk that other events of
 * that superblock overlapped. The walk never fills more than half the ring buffer:
 * it stops there (no PDT_F_WALK_END event, pdt_walk_done unset, pdt_walk_next says
 * where) and user space, once it has read what came, runs it again from that entry on.
 */
#include "common.bpf.h"
#include "event.bpf.h"
#include "elide.bpf.h"

__u32 pdt_walk_fd = ~0u;  /* the file to walk from (set by user space) */
__u64 pdt_walk_sb;	  /* its superblock, as the books know it */
__u32 pdt_walk_skip;	  /* entries already delivered by earlier runs */
__u32 pdt_walk_next;	  /* out: where the next run starts; */
int pdt_walk_done;	  /* out: the walk reached its end */
__u32 pdt_walk_max_steps; /* a bound on the walk, against a tree changing under it */

enum { STEP_VISIT, STEP_NEXT };

struct walk {
	struct dentry *root, *cur;
	u32 seq, step, sib_off;
	int done;
};

/*
 * The entry of the dentry at a (seq: its index in the walk; root: PDT_W_ROOT or 0) into
 * the ring buffer: false when the walk must stop there. A global function: verified
 * once, not once for each way the verifier enters the walk's loop.
 */
__noinline bool pdt_walk_emit(u64 a, u32 seq, u32 root)
{
	struct dentry *d = as_dentry((void *)a);
	u32 zero = 0, len, size;
	struct pdt_scratch *s = bpf_map_lookup_elem(&scratch, &zero);
	struct pdt_walk_entry *e;
	u64 ring = bpf_ringbuf_query(&events, BPF_RB_RING_SIZE);

	if (!s)
		return false;
	if (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) > ring / 2)
		return false;
	e = (void *)s->buf;
	len = BPF_CORE_READ(d, d_name.len) & 255;
	size = (sizeof(*e) + len + 7) & ~7u;
	e->type = PDT_EV_WALK_ENTRY;
	e->size = size;
	e->name_len = len;
	e->wflags = 0;
	e->pad = 0;
	if (BPF_CORE_READ(d, d_flags) & persistent_bit())
		e->wflags |= PDT_W_PERSISTENT;
	if (BPF_CORE_READ(d, d_inode))
		e->wflags |= PDT_W_POSITIVE;
	e->wflags |= root & PDT_W_ROOT;
	if (elided_find(a, &(u32){ 0 }))
		e->wflags |= PDT_W_ELIDED;
	e->dentry = a;
	e->parent = (u64)BPF_CORE_READ(d, d_parent);
	e->refcount = BPF_CORE_READ(d, d_lockref.count);
	e->seq = seq;
	bpf_probe_read_kernel(e->name, len, BPF_CORE_READ(d, d_name.name));
	if (size > sizeof(*e) + 255 + 7)
		return false;
	if (bpf_ringbuf_output(&events, e, size, BPF_RB_NO_WAKEUP)) {
		bump(PDT_TC_LOST_EVENTS);
		return false;
	}
	return true;
}

/* One step of the walk; 1 ends the loop. */
static int walk_step(u32 i, struct walk *w)
{
	struct dentry *d = w->cur;
	struct hlist_node *n;

	if (w->step == STEP_VISIT) {
		/* readdir's cursors are not entries */
		if (!(BPF_CORE_READ(d, d_flags) &
		      bpf_core_enum_value(enum dentry_flags, DCACHE_DENTRY_CURSOR))) {
			bool ok = true;

			/* The scratch buffer is per CPU, and an iterator can be preempted. */
			if (w->seq >= pdt_walk_skip) {
				bpf_preempt_disable();
				ok = pdt_walk_emit(addr_of(d), w->seq,
						   d == w->root ? PDT_W_ROOT : 0);
				bpf_preempt_enable();
			}
			if (!ok)
				return 1; /* half the buffer: pdt_walk_next says where to go on */
			w->seq++;
		}
		n = BPF_CORE_READ(d, d_children.first);
		if (n) {
			w->cur = (void *)n - w->sib_off;
			return 0;
		}
		w->step = STEP_NEXT;
	}
	if (d == w->root) {
		w->done = 1;
		return 1;
	}
	n = BPF_CORE_READ(d, d_sib.next);
	if (n) {
		w->cur = (void *)n - w->sib_off;
		w->step = STEP_VISIT;
	} else {
		w->cur = BPF_CORE_READ(d, d_parent);
	}
	return 0;
}

/*
 * User space took the superblock's elided counts just before the walk: any now mean
 * elided entries came or went while it ran, which no event of the walk shows.
 */
static __always_inline u32 walk_moved(void)
{
	u64 sb = pdt_walk_sb;
	u32 *slot = bpf_map_lookup_elem(&sbs, &sb);
	struct pdt_sb_slot *s;

	if (!slot || *slot >= PDT_SB_SLOTS)
		return 0;
	s = &pdt_slots[*slot];
	return s->made || s->discarded || s->unpinned ? PDT_F_WALK_MOVED : 0;
}

static __always_inline void emit_walk_event(struct dentry *root, u32 flags)
{
	struct pdt_event_full *e = emit_full_nostack(PDT_EV_WALK, as_dentry(root));

	if (e) {
		e->h.flags |= flags;
		submit(e);
	}
}

SEC("iter/task_file")
int walk_task_file(struct bpf_iter__task_file *ctx)
{
	struct file *file = ctx->file;
	struct walk w = {};

	if (!file || ctx->fd != pdt_walk_fd)
		return 0;
	/* Another superblock at the same device number (a new mount) is not ours. */
	if ((u64)BPF_CORE_READ(file, f_path.dentry, d_sb) != pdt_walk_sb)
		return 0;
	w.root = BPF_CORE_READ(file, f_path.dentry, d_sb, s_root);
	if (!w.root)
		return 0;
	w.cur = w.root;
	w.sib_off = bpf_core_field_offset(struct dentry, d_sib);
	if (!pdt_walk_skip)
		emit_walk_event(w.root, 0);
	bpf_loop(pdt_walk_max_steps, walk_step, &w, 0);
	pdt_walk_next = w.seq;
	if (w.done) {
		pdt_walk_done = 1;
		emit_walk_event(w.root, PDT_F_WALK_END | walk_moved());
	}
	return 0;
}
