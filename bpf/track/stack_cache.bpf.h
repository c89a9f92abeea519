/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stack cache (x86-64, the ORC unwinder): the kprobe.multi programs unwind by
 * themselves.
 *
 * The kernel's unwinder spends most of its time finding each frame's ORC entry (binary
 * searches, a module lookup, text checks); leaving a frame by its entry is a little
 * arithmetic and a load or two. So the entries are kept: whenever a program has the
 * kernel unwind (bpf_get_stack()), a fexit program on __orc_find() (stack_cache.bpf.c)
 * keeps each entry that unwind looks up, under return address ip + 1 (a return
 * address's entry is its call instruction's). A program then takes the unwinder's
 * steps itself from the hooked function's entry registers: the word at the stack
 * pointer, then for each return address the caller's stack pointer (sp or bp plus the
 * entry's offset), the return address below it, bp kept or loaded. It reads the words
 * the unwinder would, in the same order, and stops where it would: at an entry that
 * ends the stack, at user registers, or at a full buffer. A return address without a
 * kept entry, or a step the unwinder would refuse (a stack pointer that does not grow,
 * a word off the task's stack, kernel-mode registers), is a miss: the kernel unwinds.
 *
 * An entry holds while the code at its address does: every free of executable memory
 * (execmem_free()) and every module load and free bump pdt_sc_gen, and entries of an
 * older gen are not used. vmlinux's text never changes; a module's only goes with an
 * execmem_free(). One stack in pdt_sc_check_every is unwound by the kernel as well and
 * compared (PDT_SC_WRONG: a bug here, and the kernel's unwind is kept).
 */
#ifndef PDT_STACK_CACHE_BPF_H
#define PDT_STACK_CACHE_BPF_H

#define PDT_SC_SLOTS 4096 /* power of two */
#define PDT_SC_PROBES 8	  /* slots looked at from a return address's hash */
#define PDT_SC_CHECK_EVERY 256
#define PDT_SC_CS_OFF 136	/* offsetof(struct pt_regs, cs): x86-64's fixed frame layout */
#define PDT_SC_STACK_SIZE 16384 /* x86-64's THREAD_SIZE (without KASAN) */

/* How the unwinder leaves the frame of a return address (struct pdt_sc_step.how). */
#define PDT_SC_CALL 0x1	   /* to its caller: the return address is below the CFA */
#define PDT_SC_END 0x2	   /* nowhere: the ORC data ends the stack there */
#define PDT_SC_REGS 0x4	   /* to the registers at the CFA: the end, when they are a user's */
#define PDT_SC_CFA_BP 0x10 /* the CFA is bp + sp_off (else the stack pointer + sp_off) */
#define PDT_SC_BP_CFA 0x20 /* bp is then loaded from the CFA + bp_off */
#define PDT_SC_BP_BP 0x40  /* bp is then loaded from bp + bp_off (neither: bp is kept) */

struct pdt_sc_step {
	u32 seq; /* odd while a writer has it */
	u32 gen; /* pdt_sc_gen when its entry was looked up */
	u64 ip;	 /* a return address; 0 for a slot never written */
	u8 how;
	u8 pad;
	s16 sp_off, bp_off;
	u16 pad2;
};

static __always_inline u32 sc_hash(u64 ip)
{
	return (u32)((ip * 0x9e3779b97f4a7c15ull) >> 52) & (PDT_SC_SLOTS - 1);
}

/* The kept steps, by sc_hash() of their ip (open addressing, PDT_SC_PROBES slots). */
PDT_MAP_DECL struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, PDT_SC_SLOTS);
	__type(key, u32);
	__type(value, struct pdt_sc_step);
} sc_steps SEC(".maps");

/* Slot i of the steps' table (i is masked). */
static __always_inline struct pdt_sc_step *sc_slot(u32 i)
{
	u32 key = i & (PDT_SC_SLOTS - 1);

	return bpf_map_lookup_elem(&sc_steps, &key);
}

#ifdef PDT_MAPS_OWNER
/* One stack in so many from the cache is unwound by the kernel too (user space: 1 to verify all). */
const volatile __u32 pdt_sc_check_every = PDT_SC_CHECK_EVERY;
__u32 pdt_sc_gen; /* bumped at every free of executable memory, module load and free */
__u32 pdt_sc_on;  /* set by user space once the learning programs are attached */
__u64 pdt_sc_stats[PDT_SC_STAT_MAX];
#else
extern const volatile __u32 pdt_sc_check_every;
extern __u32 pdt_sc_gen;
extern __u32 pdt_sc_on;
extern __u64 pdt_sc_stats[PDT_SC_STAT_MAX];
#endif

/*
 * Return addresses the kernel's unwinder puts back (unwind_recover_ret_addr()): the
 * function graph tracer's, whose original it finds on the task's shadow stack, and a
 * kretprobe's. User space looks them up at start (resolve.bpf.c).
 */
#ifdef PDT_MAPS_OWNER
__u64 pdt_sc_graph_tramp;   /* return_to_handler */
__u64 pdt_sc_rethook_tramp; /* arch_rethook_trampoline */
#else
extern __u64 pdt_sc_graph_tramp;
extern __u64 pdt_sc_rethook_tramp;
#endif

/* Per CPU: nonzero (its gen + 1) while a program has the kernel unwind, to learn from. */
PDT_MAP_DECL struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u32);
} sc_learning SEC(".maps");

static __always_inline void sc_bump(u32 idx)
{
	if (idx < PDT_SC_STAT_MAX)
		__sync_fetch_and_add(&pdt_sc_stats[idx], 1);
}

#ifdef __TARGET_ARCH_x86
/*
 * The task stack's word at addr, when all of it is on [base, top). A direct load, not
 * bpf_probe_read_kernel(): a stack takes one or two words a frame, and the helper's
 * call and fault handling cost more than the rest of the step. The word is read as
 * the u64 field d_name.hash_len of a read-only dentry cast to sit where it lands
 * (as_dentry(): the only type this build casts to), a load the verifier lets through
 * with the kernel's fault fixup. [base, top) is the task's stack, mapped whole, so the
 * load does not fault. sc_load(): the load alone, where the place is known to be there.
 */
#define SC_LOAD_OFF bpf_core_field_offset(struct dentry, d_name)

/* The word at o + SC_LOAD_OFF (o: a place less the offset, as the memo keeps it). */
static __always_inline u64 sc_load_at(u64 o)
{
	return as_dentry((void *)o)->d_name.hash_len;
}

static __always_inline u64 sc_load(u64 addr)
{
	return sc_load_at(addr - SC_LOAD_OFF);
}

static __always_inline bool sc_word(u64 addr, u64 base, u64 top, u64 *w)
{
	if (addr < base || addr + 8 > top)
		return false;
	*w = sc_load(addr);
	return true;
}

#define SC_GRAPH_FRAMES 16 /* shadow stack frames looked at */

/*
 * ftrace_graph_ret_addr(): the return address the function graph tracer replaced at
 * stack slot p, from the newest shadow stack frame whose slot it is; 0 when none of
 * the last SC_GRAPH_FRAMES is (a miss). Frames newer than an earlier slot's are of
 * deeper slots, so a search from the top finds what the unwinder's resumed one does.
 * Global, as the walk's.
 */
#ifdef PDT_MAPS_OWNER
/* A search of the shadow stack under way. */
struct sc_graph {
	unsigned long *rs;
	u64 p, ret; /* the slot; what the tracer put there, 0 while not found */
	int off;
};

/* One shadow stack frame, from the newest; 1 ends the search. */
static int sc_graph_frame(u32 i, struct sc_graph *g)
{
	struct ftrace_ret_stack *f = fgraph_frame(g->rs, &g->off);
	u64 ret;

	if (!f)
		return 1;
	if ((u64)BPF_CORE_READ(f, retp) != g->p)
		return 0;
	ret = BPF_CORE_READ(f, ret);
	if (ret == pdt_sc_graph_tramp)
		return 0;
	g->ret = ret;
	return 1;
}

/* Its frames a bpf_loop() callback: the verifier checks one, not SC_GRAPH_FRAMES. */
__noinline u64 pdt_sc_graph_ret(u64 p)
{
	struct task_struct *t = bpf_get_current_task_btf();
	struct sc_graph g = { .rs = t->ret_stack, .p = p, .off = t->curr_ret_stack };

	bpf_loop(SC_GRAPH_FRAMES, sc_graph_frame, &g, 0);
	return g.ret;
}
#else
u64 pdt_sc_graph_ret(u64 p);
#endif

/* The return address at stack slot p as the unwinder takes it: false on a miss. */
static __always_inline bool sc_ret(u64 p, u64 base, u64 top, u64 *ret)
{
	if (!sc_word(p, base, top, ret))
		return false;
	if (*ret == pdt_sc_graph_tramp)
		*ret = pdt_sc_graph_ret(p);
	/* A kretprobe's: the unwinder would look it up; not done here. */
	return *ret && *ret != pdt_sc_rethook_tramp;
}

/* A step in a scalar, as the global functions pass it: valid, how, sp_off, bp_off. */
#define SC_VALID (1ull << 63)
#define SC_HOW(p) ((u8)(p))
#define SC_SP_OFF(p) ((s16)((p) >> 8))
#define SC_BP_OFF(p) ((s16)((p) >> 24))

/*
 * The kept step of return address ip (its sequence count even and unmoved), 0 when
 * there is none. The walk's loop and this one's are in global functions: each is
 * verified once, not at every place an event takes a stack.
 */
#ifdef PDT_MAPS_OWNER
__noinline u64 pdt_sc_step(u64 ip)
{
	u32 h = sc_hash(ip), gen = *(volatile u32 *)&pdt_sc_gen, seq, i;
	struct pdt_sc_step *c;
	u64 p;

	for (i = 0; i < PDT_SC_PROBES; i++) {
		c = sc_slot(h + i);
		if (!c)
			return 0;
		seq = *(volatile u32 *)&c->seq;
		asm volatile("" ::: "memory");
		if (!c->ip)
			return 0;
		if (c->ip != ip || c->gen != gen || (seq & 1))
			continue;
		p = SC_VALID | c->how | (u64)(u16)c->sp_off << 8 | (u64)(u16)c->bp_off << 24;
		asm volatile("" ::: "memory");
		return *(volatile u32 *)&c->seq == seq ? p : 0;
	}
	return 0;
}
#else
u64 pdt_sc_step(u64 ip);
#endif

/*
 * The path: each CPU keeps the return addresses of its last unwind from each of a few
 * hooked functions, with their steps. A kernel-made entry is made again and again by
 * the same calls (a configfs group's default groups, a tracefs instance's files, the
 * next operation's): the unwind from the same function then meets the same return
 * addresses, and a frame whose address is the path's at that depth takes the path's
 * step instead of looking it up. A step belongs to its address alone (in one gen), so
 * the stack is the one the lookups give; the words are read and the frames left as
 * ever, wherever the stack lies (the kernel moves it by a random offset at each system
 * call). The path follows each unwind: from the first frame that differs it is
 * rewritten.
 *
 * The path also keeps the words its last unwind read (the memo): where they were and
 * what they held. An unwind is a function of its registers, the words it reads and
 * the steps (the path's, in its gen): from the same registers on the same task stack,
 * where every one of those words holds what it held, it reads the same words and
 * gives the same stack. Checking the words costs a load and a compare each, where
 * leaving a frame costs a few of both and its bounds: a loop that makes several
 * entries from one frame (a configfs group's default groups) unwinds the first only.
 * An unwind that met a trampoline's return address (the shadow stack is not a word
 * it keeps) leaves no memo.
 *
 * The memo holds across system calls too, where the kernel moves the frames below
 * do_syscall_64's by a random offset d and leaves the rest (its frame, the user's
 * registers) where they were. The unwind does the same arithmetic wherever it starts,
 * so the memo keeps, for each word, whether its place moves with the start's stack
 * pointer (kept as an offset from it) or not: the stack pointer moves, a CFA moves as
 * the register it came from. bp, from the registers or loaded, is taken as moving when
 * it points below the stack's top PDT_SC_FIXED bytes: a choice, not a claim, since the
 * check asks such a value to have moved by d exactly, and any other to be unchanged.
 * A memo from stack pointer sp then serves an unwind from sp + d when every kept word,
 * at its place for d, holds its value (plus d where taken as moving); when the
 * comparison of the first fixed CFA with the moved stack pointer below it holds for d
 * (a moved CFA over a fixed stack pointer leaves no memo); and when the words loaded
 * into bp and never used, which the walk reads too, are on the stack. That is all the
 * walk from sp + d would check, so it gives the same stack; one in pdt_sc_check_every
 * is compared with the kernel's as ever. A frame the offset left in the top bytes is
 * taken as fixed, and its memo serves no other call: that call unwinds.
 */
#define PDT_SC_FIXED 256 /* x86-64: the user's registers, do_syscall_64's return and bp */
#define SC_D_MAX 0x7fffffffffffffffll
#define PDT_SC_PATHS PDT_HOOK_IPS /* per CPU, one per hooked function */
#define PDT_SC_READS 32		  /* words a memo keeps (a frame reads one or two) */
#define PDT_SC_VREADS 4		  /* of them, with a value that moves (bp's) */

struct pdt_sc_path {
	u64 ip;	 /* the hooked function's */
	u32 gen; /* pdt_sc_gen of its steps */
	u32 n;	 /* frames kept after the first */
	u64 ret[PDT_STACK_DEPTH];
	u64 step[PDT_STACK_DEPTH]; /* ret[i]'s, as pdt_sc_step() gives it */
	/* The memo: the last unwind's registers, task stack, frames and words read. */
	u64 m_sp, m_bp, m_base;
	u64 m_last;   /* its frame PDT_STACK_DEPTH - 1, which ret[] does not keep */
	u32 m_frames; /* 0: no memo */
	u32 m_reads;
	u32 m_kstack; /* its stack's id in kstack.bpf.h's table, 0: not known */
	u32 m_fresh;  /* the last stack taken here is the memo's (for m_kstack) */
	/*
	 * The unwind under way, here and not in its loop's state, which the verifier
	 * would follow value by value: words kept, no memo to leave (a trampoline met,
	 * or see pdt_sc_leave()), where bp is from (SC_BP_*: the word it was loaded from
	 * is kept only when bp is used), and whether the registers' bp was used (it is
	 * then one of the inputs).
	 */
	u32 w_reads, w_no_memo, w_bp_from, w_bp_used;
	u32 w_bp_arel; /* the place of the word bp was loaded from moves */
	u64 w_bp_addr, w_bp_val;
	u32 m_bp_used;
	/*
	 * Moving with the start (see above): the stack pointer, bp, the registers' bp.
	 * The moves the comparison of a fixed CFA with a moved sp allows (d < m_dhi).
	 */
	u32 w_rel, w_bp_rel, m_bp_rel, pad;
	s64 w_dhi, m_dhi;
	/*
	 * The lowest and highest moved place the unwind read (offsets from m_sp), those
	 * of words loaded into bp and not used among them: within the stack, for a move,
	 * they keep every moved place there. Each kept word, as the check wants it,
	 * without a branch: the word at m_addr plus the stack pointer's part m_amask (all
	 * ones when its place moves: an offset from m_sp) equals m_val. m_addr is kept less
	 * SC_LOAD_OFF: the check's load takes it as it is.
	 */
	s64 w_lo, w_hi, m_lo, m_hi;
	u64 m_addr[PDT_SC_READS];
	u64 m_val[PDT_SC_READS];
	u64 m_amask[PDT_SC_READS];
	/*
	 * The few words whose value is taken as moving (bp loaded and used, pointing into
	 * the moved stack), kept apart: the same check, the value plus the move. The
	 * others, a return address each frame, then cost the check no mask and add.
	 */
	u32 w_vreads, m_vreads;
	u64 m_vaddr[PDT_SC_VREADS];
	u64 m_vval[PDT_SC_VREADS];
	u64 m_vamask[PDT_SC_VREADS];
};

PDT_MAP_DECL struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PDT_SC_PATHS);
	__type(key, u32);
	__type(value, struct pdt_sc_path);
} sc_paths SEC(".maps");

/*
 * The path of hooked function ip: its place in the table of hooked functions, so that
 * no two share one; by a hash of ip before that table is written. ip is the kprobe's
 * registers' (a stack's first frame): inside the function's first bytes (see
 * PDT_FENTRY_SPAN), where the table has the function's address; matched exactly, no
 * stack would find its function there. Global: the table's search, unrolled, is
 * checked once, not at each of the paths' users.
 */
#ifdef PDT_MAPS_OWNER
__noinline u32 pdt_sc_path_slot(u64 ip)
{
	u32 n = hook_count(), i = hook_find(ip, PDT_FENTRY_SPAN, n);

	if (i < PDT_SC_PATHS)
		return i;
	/*
	 * n as searched: read again, it could say the table was written since, and count
	 * as unlisted a function that was searched for in an empty table.
	 */
	if (n) /* written: every hooked function is there */
		sc_bump(PDT_SC_UNLISTED);
	return (u32)((ip * 0x9e3779b97f4a7c15ull) >> 60) & (PDT_SC_PATHS - 1);
}
#else
u32 pdt_sc_path_slot(u64 ip);
#endif

/* This CPU's path of hooked function ip (*key: its index). */
static __always_inline struct pdt_sc_path *sc_path_at(u64 ip, u32 *key)
{
	*key = pdt_sc_path_slot(ip) & (PDT_SC_PATHS - 1);
	return bpf_map_lookup_elem(&sc_paths, key);
}

static __always_inline struct pdt_sc_path *sc_path(u64 ip)
{
	u32 k;

	return sc_path_at(ip, &k);
}

/*
 * The path that gave e, when e is its memo's stack (the last taken from that function
 * on this CPU): kstack.bpf.h keeps the stack's id there (sc_memo_kstack_keep()), and
 * finds it again, from a memo left in its path, without hashing the stack or copying
 * it (sc_memo_kstack()).
 */
static __always_inline struct pdt_sc_path *sc_memo_of(const struct pdt_event_full *e)
{
	struct pdt_sc_path *pa = sc_path(e->stack[0]);

	if (pa && pa->m_fresh && pa->ip == e->stack[0] && pa->m_frames == e->nstack)
		return pa;
	return NULL;
}

/*
 * A memo left where it is (see pdt_sc_walk()): memo is 1 + its path's index, 0 for
 * none. The stack's id in kstack.bpf.h's table, 0 when not known yet.
 */
static __always_inline u32 sc_memo_kstack(u32 memo)
{
	u32 k = memo - 1;
	struct pdt_sc_path *pa = memo ? bpf_map_lookup_elem(&sc_paths, &k) : NULL;

	return pa ? pa->m_kstack : 0;
}

/*
 * Its frames into e, whose first frame the walk wrote, when they are still to be copied
 * (*memo not 0). Global: its callers are on paths the verifier walks many times.
 */
#ifdef PDT_MAPS_OWNER
__noinline int pdt_sc_memo_copy(struct pdt_event_full *e, u32 *memo)
{
	struct pdt_sc_path *pa;
	u32 k;

	if (!e || !memo || !*memo)
		return 0;
	k = *memo - 1;
	*memo = 0;
	pa = bpf_map_lookup_elem(&sc_paths, &k);
	if (!pa) { /* never: the walk found it */
		e->nstack = 0;
		return 0;
	}
	__builtin_memcpy(&e->stack[1], pa->ret, sizeof(e->stack) - sizeof(e->stack[0]));
	e->stack[PDT_STACK_DEPTH - 1] = pa->m_last;
	return 0;
}
#else
int pdt_sc_memo_copy(struct pdt_event_full *e, u32 *memo);
#endif

static __always_inline void sc_memo_copy(struct pdt_event_full *e, u32 *memo)
{
	if (*memo)
		pdt_sc_memo_copy(e, memo);
}

static __always_inline void sc_memo_kstack_keep(const struct pdt_event_full *e, u32 id)
{
	struct pdt_sc_path *pa = sc_memo_of(e);

	if (pa)
		pa->m_kstack = id;
}

#ifdef PDT_MAPS_OWNER

/* ip's step at depth i: the path's when it has ip there, else looked up and kept. */
static __always_inline u64 sc_path_step(struct pdt_sc_path *pa, u32 i, u64 ip, bool *kept)
{
	u64 p;

	if (i >= PDT_STACK_DEPTH) /* never: the walk stops short of it (for the verifier) */
		return pdt_sc_step(ip);
	if (i < pa->n && pa->ret[i] == ip)
		return pa->step[i];
	*kept = false;
	p = pdt_sc_step(ip);
	pa->ret[i] = ip;
	pa->step[i] = p;
	pa->n = p ? i + 1 : i;
	return p;
}

/* Where an unwind is (scalars only: a global function may write them). */
struct sc_regs {
	u64 w[4]; /* the stack pointer and bp after the frame, the task's stack */
	u64 ip;	  /* the return address of the frame being left */
};

/* An unwind under way (pdt_sc_walk()'s loop). */
struct sc_walk {
	struct sc_regs r;
	struct pdt_sc_path *pa;
	struct pdt_event_full *e;
	u32 *memo; /* where the memo may be left, uncopied (NULL: copy it) */
	u32 key;   /* pa's index */
	int n;	   /* frames in e: set where the unwind ends, 0 on a miss */
	bool kept;
};

/*
 * Is stack value v (bp) taken as moving with the start (see above): 1 or 0? The borrow
 * of (v - base) - (top - PDT_SC_FIXED - base), without a branch for the verifier.
 */
static __always_inline u64 sc_moves(const struct sc_regs *c, u64 v)
{
	u64 t = v - c->w[2], lim = c->w[3] - PDT_SC_FIXED - c->w[2];

	return ((~t & lim) | (~(t ^ lim) & (t - lim))) >> 63;
}

/*
 * Widen the span of moved places read by addr's when rel (0 or 1). Without branches:
 * the offsets are small (both ends on the task's stack), so a difference's sign says
 * which is lower. Global: inlined at each read, the verifier followed it at each.
 */
__noinline int pdt_sc_span(struct pdt_sc_path *pa, u64 addr, u64 rel)
{
	s64 o, x;

	if (!pa)
		return 0;
	o = addr - pa->m_sp;
	x = (o - pa->w_lo) & -(s64)rel;
	pa->w_lo += x & (x >> 63);
	x = (o - pa->w_hi) & -(s64)rel;
	pa->w_hi += x & ~(x >> 63);
	return 0;
}

/*
 * Keep word v at addr as the k-th of a memo's words (places, values, masks: n of each):
 * its place as an offset from the start's stack pointer sp when rel (0 or 1). Without
 * branches, which the verifier would follow at each caller.
 */
static __always_inline void sc_keep(u64 *places, u64 *values, u64 *masks, u32 k, u32 n, u64 sp,
				    u64 addr, u64 v, u64 rel)
{
	if (k < n) {
		places[k] = addr - SC_LOAD_OFF - (-rel & sp);
		values[k] = v;
		masks[k] = -rel;
	}
}

/* Keep word v at addr in the memo of the unwind under way (see sc_keep()). */
static __always_inline void sc_rec(struct pdt_sc_path *pa, u64 addr, u64 v, u64 rel)
{
	sc_keep(pa->m_addr, pa->m_val, pa->m_amask, pa->w_reads, PDT_SC_READS, pa->m_sp, addr, v,
		rel);
	pa->w_reads++;
}

/* The same for a word whose value is taken as moving (past PDT_SC_VREADS: no memo). */
static __always_inline void sc_rec_moved(struct pdt_sc_path *pa, u64 addr, u64 v, u64 rel)
{
	sc_keep(pa->m_vaddr, pa->m_vval, pa->m_vamask, pa->w_vreads, PDT_SC_VREADS, pa->m_sp, addr,
		v, rel);
	pa->w_vreads++;
}

/* The word at addr (sc_word()), kept in the memo of pa, the unwind's path. */
static __always_inline bool sc_read(struct sc_regs *c, struct pdt_sc_path *pa, u64 addr, u64 *v,
				    bool rel)
{
	if (!sc_word(addr, c->w[2], c->w[3], v))
		return false;
	pdt_sc_span(pa, addr, rel);
	sc_rec(pa, addr, *v, rel);
	return true;
}

/*
 * bp is an input where a step uses it, not where it is loaded: a frame that saves bp
 * saves whatever its caller had there (on a kernel without frame pointers, any value),
 * and the next load replaces it unused.
 */
#define SC_BP_REGS 0	/* the registers' */
#define SC_BP_PENDING 1 /* loaded from w_bp_addr, not used yet */
#define SC_BP_KEPT 2	/* loaded, used, its word kept */

static __always_inline void sc_bp_use(const struct sc_regs *c, struct pdt_sc_path *pa)
{
	if (pa->w_bp_from == SC_BP_PENDING) {
		if (pa->w_bp_rel) /* spanned */
			sc_rec_moved(pa, pa->w_bp_addr, pa->w_bp_val, pa->w_bp_arel);
		else
			sc_rec(pa, pa->w_bp_addr, pa->w_bp_val, pa->w_bp_arel);
		pa->w_bp_from = SC_BP_KEPT;
	} else if (pa->w_bp_from == SC_BP_REGS) {
		pa->w_bp_used = 1;
		pa->w_bp_rel = sc_moves(c, c->w[1]);
		pa->m_bp_rel = pa->w_bp_rel; /* m_frames is 0 till the walk's end */
	}
}

/*
 * Load bp from the word at addr. Until bp is used the word's place alone counts (the
 * walk reads it, so it must be on the stack, whatever it holds): it widens the span.
 */
static __always_inline bool sc_bp_load(struct sc_regs *c, struct pdt_sc_path *pa, u64 addr, u64 rel)
{
	if (!sc_word(addr, c->w[2], c->w[3], &c->w[1]))
		return false;
	pdt_sc_span(pa, addr, rel);
	pa->w_bp_addr = addr;
	pa->w_bp_val = c->w[1];
	pa->w_bp_arel = rel;
	pa->w_bp_from = SC_BP_PENDING;
	pa->w_bp_rel = sc_moves(c, c->w[1]);
	return true;
}

/* The return address at stack slot p as the unwinder takes it (sc_ret()), kept. */
static __always_inline bool sc_read_ret(struct sc_regs *c, struct pdt_sc_path *pa, u64 p, u64 *ret,
					bool rel)
{
	if (!sc_read(c, pa, p, ret, rel))
		return false;
	if (*ret == pdt_sc_graph_tramp) {
		pa->w_no_memo = 1;
		*ret = pdt_sc_graph_ret(p);
	}
	return *ret && *ret != pdt_sc_rethook_tramp;
}

/*
 * Leave the frame of return address c->ip by step p: 1 with the caller's return
 * address in c->ip, 0 where the unwind ends, -1 on a miss. pa: the unwind's path
 * (c->pa, which a global function cannot follow). Global: the verifier checks it
 * once, where inlined in the loop's callback it checked it at each of its passes.
 */
__noinline int pdt_sc_leave(struct sc_regs *c, struct pdt_sc_path *pa, u64 p)
{
	u8 how = SC_HOW(p);
	u64 cfa, v, sp, bp, rel, bprel;

	if (!c || !pa)
		return -1;
	sp = c->w[0];
	bp = c->w[1];
	if (how & PDT_SC_END)
		return 0;
	if (how & (PDT_SC_CFA_BP | PDT_SC_BP_BP))
		sc_bp_use(c, pa);
	bprel = pa->w_bp_rel;				 /* known where bp is used */
	rel = (how & PDT_SC_CFA_BP) ? bprel : pa->w_rel; /* the CFA moves as its register */
	cfa = ((how & PDT_SC_CFA_BP) ? bp : sp) + SC_SP_OFF(p);
	if (how & PDT_SC_REGS) /* the end, if these are a user's registers */
		return sc_read(c, pa, cfa + PDT_SC_CS_OFF, &v, rel) && (v & 3) == 3 ? 0 : -1;
	if (cfa <= sp || !sc_read_ret(c, pa, cfa - 8, &c->ip, rel))
		return -1;
	/*
	 * A fixed CFA over a moved sp (at most once: the reverse leaves no memo) holds
	 * after a move d < cfa - sp.
	 */
	if (rel != pa->w_rel) {
		if (rel)
			pa->w_no_memo = 1;
		else
			pa->w_dhi = cfa - sp;
	}
	if ((how & PDT_SC_BP_CFA) && !sc_bp_load(c, pa, cfa + SC_BP_OFF(p), rel))
		return -1;
	if ((how & PDT_SC_BP_BP) && !sc_bp_load(c, pa, bp + SC_BP_OFF(p), bprel))
		return -1;
	c->w[0] = cfa;
	pa->w_rel = rel;
	return 1;
}

/* Frame i = j + 1 of the unwind; 1 ends the loop. */
static int sc_walk_frame(u32 j, struct sc_walk *c)
{
	u32 i = j + 1;
	u64 p;
	int r;

	if (i >= PDT_STACK_DEPTH)
		return 1;
	c->e->stack[i] = c->r.ip;
	c->n = i + 1;
	if (i == PDT_STACK_DEPTH - 1) /* the buffer is full: the unwind stops too */
		return 1;
	p = sc_path_step(c->pa, i - 1, c->r.ip, &c->kept);
	r = p ? pdt_sc_leave(&c->r, c->pa, p) : -1;
	if (r < 0)
		c->n = 0;
	return r <= 0;
}

/*
 * Does every word pa's memo kept still hold what it held, for an unwind from stack
 * pointer r->w[0] (a moved word's place is an offset from it) on the memo's task stack?
 * The moved places are on that stack when their span is; the others are where they
 * were. Unrolled, in a global function (the verifier checks it once): each word costs
 * its three loads from the memo, the load from the stack, a mask and a compare; a
 * loop's counter, bound and spills cost half as much again. The words whose value
 * moves first: there are few, and the rest ends at the count.
 */
#define SC_SAME(i)                                                                                 \
	do {                                                                                       \
		if ((i) >= m)                                                                      \
			return true;                                                               \
		if (sc_load_at(pa->m_addr[i] + (sp & pa->m_amask[i])) != pa->m_val[i])             \
			return false;                                                              \
	} while (0)
#define SC_SAME8(i)                                                                                \
	SC_SAME(i);                                                                                \
	SC_SAME(i + 1);                                                                            \
	SC_SAME(i + 2);                                                                            \
	SC_SAME(i + 3);                                                                            \
	SC_SAME(i + 4);                                                                            \
	SC_SAME(i + 5);                                                                            \
	SC_SAME(i + 6);                                                                            \
	SC_SAME(i + 7)

__noinline bool pdt_sc_memo_same(const struct pdt_sc_path *pa, const struct sc_regs *r)
{
	u32 m, mv, i;
	u64 sp, d;

	if (!pa || !r)
		return false;
	m = pa->m_reads;
	mv = pa->m_vreads;
	sp = r->w[0];
	d = sp - pa->m_sp;
	if (m > PDT_SC_READS || mv > PDT_SC_VREADS || sp + pa->m_lo < r->w[2] ||
	    sp + pa->m_hi + 8 > r->w[3])
		return false;
#pragma unroll
	for (i = 0; i < PDT_SC_VREADS; i++)
		if (i < mv &&
		    sc_load_at(pa->m_vaddr[i] + (sp & pa->m_vamask[i])) != pa->m_vval[i] + d)
			return false;
	SC_SAME8(0);
	SC_SAME8(8);
	SC_SAME8(16);
	SC_SAME8(24);
	return true;
}

/*
 * The memo's stack into e when the unwind from (ip, sp, bp) is its own: its frames, or
 * 0. Or, where c->memo is given, its path's index there: the frames stay in the path
 * until they are wanted (sc_memo_copy()), and a kernel-made entry that is then elided
 * with the id the memo keeps never copies them.
 */
static __always_inline int sc_memo(struct sc_walk *c, u64 ip, u64 sp, u64 bp)
{
	struct pdt_sc_path *pa = c->pa;
	struct pdt_event_full *e = c->e;
	int n = pa->m_frames;
	s64 d = sp - pa->m_sp;

	if (n < 2 || n > PDT_STACK_DEPTH || d >= pa->m_dhi || pa->m_base != c->r.w[2])
		return 0;
	if (pa->m_bp_used && pa->m_bp + (d & -(u64)pa->m_bp_rel) != bp)
		return 0;
	if (!pdt_sc_memo_same(pa, &c->r))
		return 0;
	e->stack[0] = ip;
	pa->m_fresh = 1;
	sc_bump(PDT_SC_SAME);
	if (c->memo) {
		*c->memo = c->key + 1;
		return n;
	}
	__builtin_memcpy(&e->stack[1], pa->ret, sizeof(e->stack) - sizeof(e->stack[0]));
	e->stack[PDT_STACK_DEPTH - 1] = pa->m_last;
	return n;
}

/*
 * The unwind bpf_get_stack() would give from a kprobe.multi program's entry registers
 * (ip, sp, bp), into e's stack (not its count): its frames, or 0 when a return address
 * had no step. The kernel reports the hooked function (the ip) and then the return
 * address at the stack pointer. Straight into the event: a copy from scratch space
 * was 24 loads and stores more at each of the dispatcher's stacks, and the verifier
 * checked it at each. A frame a bpf_loop() callback, which the verifier inlines and
 * checks once: unrolled, the 23 frames were a fifth of what it checks at start.
 */
__noinline int pdt_sc_walk(u64 ip, u64 sp, u64 bp, struct pdt_event_full *e, u32 *memo)
{
	u64 base = (u64)bpf_get_current_task_btf()->stack; /* one load */
	struct sc_walk c = {
		.r.w = { sp, bp, base, base + PDT_SC_STACK_SIZE },
		.kept = true,
		.e = e,
		.memo = memo,
	};
	u32 gen = *(volatile u32 *)&pdt_sc_gen;
	int n;

	c.pa = sc_path_at(ip, &c.key);
	if (!e || !c.pa)
		return 0;
	if (c.pa->ip != ip || c.pa->gen != gen) {
		c.pa->n = 0;
		c.pa->m_frames = 0;
		c.pa->ip = ip;
		c.pa->gen = gen;
	}
	n = sc_memo(&c, ip, sp, bp);
	if (n) {
		sc_bump(PDT_SC_PATH);
		return n;
	}
	c.pa->m_frames = 0; /* rewritten below */
	c.pa->m_fresh = 0;
	c.pa->m_kstack = 0;
	c.pa->w_reads = 0;
	c.pa->w_vreads = 0;
	c.pa->w_no_memo = 0;
	c.pa->w_bp_from = SC_BP_REGS;
	c.pa->w_bp_used = 0;
	c.pa->m_sp = sp; /* the moved words' places are offsets from it */
	c.pa->w_rel = 1;
	c.pa->w_bp_rel = 0; /* the registers': sc_bp_use() */
	c.pa->m_bp_rel = 0;
	c.pa->w_dhi = SC_D_MAX;
	c.pa->w_lo = 0; /* the first word read is at sp */
	c.pa->w_hi = 0;
	e->stack[0] = ip;
	if (!sc_read_ret(&c.r, c.pa, c.r.w[0], &c.r.ip, true))
		return 0;
	c.r.w[0] += 8;
	bpf_loop(PDT_STACK_DEPTH - 1, sc_walk_frame, &c, 0);
	if (c.n && c.kept)
		sc_bump(PDT_SC_PATH);
	if (c.n >= 2 && c.n <= PDT_STACK_DEPTH && !c.pa->w_no_memo &&
	    c.pa->w_reads <= PDT_SC_READS && c.pa->w_vreads <= PDT_SC_VREADS) {
		c.pa->m_dhi = c.pa->w_dhi;
		c.pa->m_lo = c.pa->w_lo;
		c.pa->m_hi = c.pa->w_hi;
		c.pa->m_bp = bp;
		c.pa->m_bp_used = c.pa->w_bp_used;
		c.pa->m_base = c.r.w[2];
		c.pa->m_last = e->stack[PDT_STACK_DEPTH - 1];
		c.pa->m_reads = c.pa->w_reads;
		c.pa->m_vreads = c.pa->w_vreads;
		c.pa->m_frames = c.n;
		c.pa->m_fresh = 1;
	}
	return c.n;
}

/* A stack from the path of ip was wrong: its memo goes (a bug here, PDT_SC_WRONG). */
__noinline int pdt_sc_forget(u64 ip)
{
	struct pdt_sc_path *pa = sc_path(ip);

	if (pa) {
		pa->m_frames = 0;
		pa->m_fresh = 0;
		pa->m_kstack = 0;
	}
	return 0;
}
#else
int pdt_sc_walk(u64 ip, u64 sp, u64 bp, struct pdt_event_full *e, u32 *memo);
int pdt_sc_forget(u64 ip);
#endif

/*
 * Does the kernel's unwind in s (n bytes, as bpf_get_stack() returned) equal e's? A
 * global function whose frames are a bpf_loop() callback: the verifier checks one
 * frame once, not 24 at each of the dispatcher's stacks. It runs for one stack in
 * pdt_sc_check_every.
 */
#ifdef PDT_MAPS_OWNER
struct sc_cmp {
	const u64 *u;
	const struct pdt_event_full *e;
	bool differ;
};

static int sc_cmp_frame(u32 i, struct sc_cmp *c)
{
	if (i >= PDT_STACK_DEPTH || i >= c->e->nstack)
		return 1;
	c->differ = c->u[i] != c->e->stack[i];
	return c->differ;
}

__noinline bool pdt_sc_same(const struct pdt_scratch *s, long n, const struct pdt_event_full *e)
{
	struct sc_cmp c = { .e = e };

	if (!s || !e || n != (long)(e->nstack * sizeof(u64)))
		return false;
	c.u = (const u64 *)s->buf;
	bpf_loop(PDT_STACK_DEPTH, sc_cmp_frame, &c, 0);
	return !c.differ;
}

/*
 * Is e, the stack of a function still below the one the kernel unwound into s (n
 * bytes), the end of that unwind? e's frames after its first (the function itself) are
 * the kernel's from the first frame that is e's second on, to the end of either
 * (the kernel's is deeper by the frames above the function, and may be cut short).
 */
struct sc_tail {
	const u64 *u;
	const struct pdt_event_full *e;
	u32 m; /* frames in u */
	u32 j; /* u's index of e's second frame */
	bool differ;
};

static int sc_tail_find(u32 j, struct sc_tail *c)
{
	if (j >= PDT_STACK_DEPTH || j >= c->m)
		return 1;
	c->j = j;
	return c->u[j] == c->e->stack[1];
}

/* e's frame i + 1 against u's c->j + i. */
static int sc_tail_frame(u32 i, struct sc_tail *c)
{
	u32 j = c->j + i;

	if (i + 1 >= PDT_STACK_DEPTH || i + 1 >= c->e->nstack || j >= PDT_STACK_DEPTH || j >= c->m)
		return 1;
	c->differ = c->u[j] != c->e->stack[i + 1];
	return c->differ;
}

__noinline bool pdt_sc_tail(const struct pdt_scratch *s, long n, const struct pdt_event_full *e)
{
	struct sc_tail c = { .e = e, .j = PDT_STACK_DEPTH };
	u32 k;

	if (!s || !e || n <= 0 || n > (long)(PDT_STACK_DEPTH * sizeof(u64)) || e->nstack < 2 ||
	    e->nstack > PDT_STACK_DEPTH)
		return false;
	c.u = (const u64 *)s->buf;
	c.m = n / sizeof(u64);
	bpf_loop(PDT_STACK_DEPTH, sc_tail_find, &c, 0);
	if (c.j >= c.m || c.u[c.j & (PDT_STACK_DEPTH - 1)] != e->stack[1])
		return false;
	bpf_loop(PDT_STACK_DEPTH, sc_tail_frame, &c, 0);
	k = e->nstack;
	/* Both end together, unless one was cut short at the buffer's end. */
	return !c.differ && (c.j + k - 1 == c.m || c.m == PDT_STACK_DEPTH || k == PDT_STACK_DEPTH);
}
#else
bool pdt_sc_same(const struct pdt_scratch *s, long n, const struct pdt_event_full *e);
bool pdt_sc_tail(const struct pdt_scratch *s, long n, const struct pdt_event_full *e);
#endif

#ifdef PDT_KPROBE_CTX
#define PDT_SC_ON 1

/*
 * The stack the walk from entry registers r (ip, sp, bp) gives, into e: true on a hit.
 * memo: see sc_memo() (NULL: copied).
 */
static __always_inline bool sc_walk_regs(const u64 *r, struct pdt_event_full *e, u32 *memo)
{
	int n = pdt_sc_walk(r[0], r[1], r[2], e, memo);

	e->nstack = n >= 2 && n <= PDT_STACK_DEPTH ? n : 0;
	return e->nstack;
}

/* The kernel's unwind into buf (size bytes), its ORC lookups kept (see above). */
static __always_inline long sc_kernel_unwind(void *ctx, void *buf, u32 size)
{
	u32 zero = 0, *learning = bpf_map_lookup_elem(&sc_learning, &zero);
	long n;

	if (learning)
		*learning = *(volatile u32 *)&pdt_sc_gen + 1;
	n = bpf_get_stack(ctx, buf, size, 0);
	if (learning)
		*learning = 0;
	return n;
}

/*
 * A stack e from the cache is counted, and one in pdt_sc_check_every (the first among
 * them) is unwound by the kernel too and compared: whole when e was walked from ctx's
 * own registers, as the end of the kernel's unwind when from a caller's (tail). False
 * when they differ (a bug here): the memo of ip's path goes.
 */
static __always_inline bool sc_checked(struct pt_regs *ctx, struct pdt_event_full *e, u64 ip,
				       bool tail, u32 *memo)
{
	struct pdt_scratch *s;
	u32 zero = 0;
	long n;

	/* pdt_sc_check_every is 1 or PDT_SC_CHECK_EVERY, a power of two: a mask, not a division. */
	if (__sync_fetch_and_add(&pdt_sc_stats[PDT_SC_HIT], 1) & ((pdt_sc_check_every ?: 1) - 1))
		return true;
	if (memo)
		sc_memo_copy(e, memo);
	/* The per-CPU scratch: preemption is off in a kprobe.multi program. */
	s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s)
		return true;
	n = bpf_get_stack(ctx, s->buf, PDT_STACK_DEPTH * sizeof(u64), 0);
	if (tail ? pdt_sc_tail(s, n, e) : pdt_sc_same(s, n, e)) {
		sc_bump(PDT_SC_CONFIRMED);
		return true;
	}
	sc_bump(PDT_SC_WRONG);
	pdt_sc_forget(ip);
	return false;
}

/*
 * Fill e's stack from the kept steps: true when it did (and its check agreed). memo:
 * see sc_memo() (NULL: copied).
 */
static __always_inline bool sc_fill(struct pt_regs *ctx, struct pdt_event_full *e, u32 *memo)
{
	u64 r[3] = { PT_REGS_IP(ctx), PT_REGS_SP(ctx), PT_REGS_FP(ctx) };

	if (!sc_walk_regs(r, e, memo)) {
		sc_bump(PDT_SC_MISS);
		return false;
	}
	return sc_checked(ctx, e, r[0], false, memo);
}

/*
 * The stack of a function this one was called under (a removal's, whose start is sent
 * from a discard inside it), from that function's entry registers r, into e: false
 * when there is none to give. Until it returns, the frames of its callers stay as they
 * are, and a walk from r reads what one at its entry would. A miss has the kernel
 * unwind this stack, which goes through those frames, and walks again with the steps
 * it kept; the check compares the walk with the end of the kernel's unwind.
 */
static __always_inline bool sc_fill_above(struct pt_regs *ctx, const u64 *r,
					  struct pdt_event_full *e)
{
	u32 zero = 0;
	struct pdt_scratch *s;

	if (!sc_walk_regs(r, e, NULL)) {
		sc_bump(PDT_SC_MISS);
		s = bpf_map_lookup_elem(&scratch, &zero);
		if (!s)
			return false;
		sc_kernel_unwind(ctx, s->buf, PDT_STACK_DEPTH * sizeof(u64));
		if (!sc_walk_regs(r, e, NULL))
			return false;
	}
	if (sc_checked(ctx, e, r[0], true, NULL))
		return true;
	e->nstack = 0;
	return false;
}

/*
 * The event's kernel stack when the cache is on: from the kept steps, else unwound by
 * the kernel (and learned). Bytes, as bpf_get_stack() returns them. memo: see sc_memo()
 * (NULL: copied).
 */
static __always_inline long sc_stack(struct pt_regs *ctx, struct pdt_event_full *e, u32 *memo)
{
	if (sc_fill(ctx, e, memo))
		return e->nstack * sizeof(e->stack[0]);
	return sc_kernel_unwind(ctx, e->stack, sizeof(e->stack));
}

static __always_inline bool sc_on(void)
{
	return *(volatile u32 *)&pdt_sc_on;
}
#endif /* PDT_KPROBE_CTX */
#endif /* __TARGET_ARCH_x86 */

#ifndef __TARGET_ARCH_x86
static __always_inline u32 sc_memo_kstack(u32 memo)
{
	return 0;
}

static __always_inline void sc_memo_copy(struct pdt_event_full *e, u32 *memo)
{
}

static __always_inline void sc_memo_kstack_keep(const struct pdt_event_full *e, u32 id)
{
}
#endif

#ifndef PDT_SC_ON
/* No cache here (another arch, or not a kprobe's registers): the kernel unwinds. */
static __always_inline bool sc_on(void)
{
	return false;
}

static __always_inline long sc_stack(void *ctx, struct pdt_event_full *e, u32 *memo)
{
	return 0;
}
#endif

#endif
