// SPDX-License-Identifier: GPL-2.0
/*
 * The stack cache's learning (see stack_cache.bpf.h): the ORC entries the kernel's own
 * unwinds look up while a program has it unwind, and the gen that retires them.
 */
#include "common.bpf.h"

#ifdef __TARGET_ARCH_x86
/* arch/x86/include/asm/orc_types.h: struct orc_entry is 6 packed bytes. */
#define ORC_REG_UNDEFINED 0
#define ORC_REG_SP 3
#define ORC_REG_BP 4
#define ORC_REG_PREV_SP 8
#define ORC_TYPE_UNDEFINED 0
#define ORC_TYPE_END_OF_STACK 1
#define ORC_TYPE_CALL 2
#define ORC_TYPE_REGS 3

/*
 * The step for an ORC entry (b: its bytes) that is a return address's: false where the
 * unwinder would leave the frame by more than the stack pointer, bp and stack words (a
 * register the stack does not keep, an indirect offset, a signal frame).
 */
static __always_inline bool orc_step(const u8 *b, struct pdt_sc_step *st)
{
	u8 sp_reg = b[4] & 0xf, bp_reg = b[4] >> 4, type = b[5] & 0x7, signal = (b[5] >> 3) & 1;

	st->sp_off = (s16)(b[0] | b[1] << 8);
	st->bp_off = (s16)(b[2] | b[3] << 8);
	if (type == ORC_TYPE_END_OF_STACK || type == ORC_TYPE_UNDEFINED) {
		st->how = PDT_SC_END;
		return true;
	}
	if (type == ORC_TYPE_CALL && !signal)
		st->how = PDT_SC_CALL;
	else if (type == ORC_TYPE_REGS)
		st->how = PDT_SC_REGS;
	else
		return false;
	if (sp_reg == ORC_REG_BP)
		st->how |= PDT_SC_CFA_BP;
	else if (sp_reg != ORC_REG_SP)
		return false;
	if (st->how & PDT_SC_REGS || bp_reg == ORC_REG_UNDEFINED)
		return true;
	if (bp_reg == ORC_REG_PREV_SP)
		st->how |= PDT_SC_BP_CFA;
	else if (bp_reg == ORC_REG_BP)
		st->how |= PDT_SC_BP_BP;
	else
		return false;
	return true;
}

/* Keep st in a free slot of its ip's, or one of an older gen, unless it is there. */
static __always_inline void sc_keep(const struct pdt_sc_step *st)
{
	u32 h = sc_hash(st->ip), seq, i;
	struct pdt_sc_step *c;

	for (i = 0; i < PDT_SC_PROBES; i++) {
		c = sc_slot(h + i);
		if (!c)
			return;
		seq = *(volatile u32 *)&c->seq;
		if (seq & 1)
			continue;
		if (c->ip == st->ip && c->gen == st->gen)
			return;
		if (c->ip && c->gen == *(volatile u32 *)&pdt_sc_gen)
			continue;
		/* Claimed by the odd count; readers skip it until it is even again. */
		if (__sync_val_compare_and_swap(&c->seq, seq, seq + 1) != seq)
			return;
		c->gen = st->gen;
		c->how = st->how;
		c->sp_off = st->sp_off;
		c->bp_off = st->bp_off;
		c->ip = st->ip;
		__sync_fetch_and_add(&c->seq, 1);
		sc_bump(PDT_SC_LEARNED);
		return;
	}
	sc_bump(PDT_SC_FULL);
}

/*
 * The binary search under orc_find(): its result is the entry the unwinder uses for ip.
 * Kept only while one of our programs has the kernel unwind, under the gen of then.
 */
SEC("fexit/__orc_find")
int BPF_PROG(pdt_sc_learn, int *ip_table, void *u_table, unsigned int num, unsigned long ip,
	     void *ret)
{
	u32 zero = 0, *learning = bpf_map_lookup_elem(&sc_learning, &zero);
	struct pdt_sc_step st = {};
	u8 b[6];

	if (!learning || !*learning || !ret || bpf_probe_read_kernel(b, sizeof(b), ret) ||
	    !orc_step(b, &st))
		return 0;
	st.ip = ip + 1; /* a return address's entry is its call instruction's */
	st.gen = *learning - 1;
	sc_keep(&st);
	return 0;
}

/* Code may come where code was: what was kept about it is no longer true. */
SEC("fentry/execmem_free")
int BPF_PROG(pdt_sc_retire, void *ptr)
{
	__sync_fetch_and_add(&pdt_sc_gen, 1);
	return 0;
}
#endif
