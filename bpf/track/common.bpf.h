/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every tracker source uses: the headers, the maps, and small helpers (counters,
 * a dentry's flag and address, the task's state). Events are in event.bpf.h.
 */
#ifndef PDT_COMMON_BPF_H
#define PDT_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "pdtrace.h"
#include "kernel_facts.bpf.h"
#include "maps.bpf.h"

/*
 * Every program runs with preemption off: kprobe.multi programs by construction (an
 * ftrace callback), fentry ones because their function is entered with a spinlock
 * held. No other run can then take the per-CPU scratch buffer, and the kernel can
 * skip a run only when it nests in an interrupt over another program (counted as a
 * recursion miss). The self-check's iterator is preemptible: it disables preemption
 * around its use of the buffer (bpf_preempt_disable()).
 */

/*
 * A kprobe's arguments are plain numbers to the verifier: cast a dentry to a
 * read-only BTF pointer, and fields are then direct loads (faults read as zero)
 * rather than a helper call each. Only struct dentry: with clang 14 a second type's id
 * relocation came out as the first one's.
 */
#define as_dentry(p) ((struct dentry *)bpf_rdonly_cast((p), bpf_core_type_id_kernel(struct dentry)))

static __always_inline void bump(u32 idx)
{
	if (idx < PDT_TC_MAX)
		__sync_fetch_and_add(&pdt_counters[idx], 1);
}

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

int pdt_graph_overrun(u32 now);

static __always_inline void graph_check(void)
{
	u32 now = graph_overruns();

	if (now)
		pdt_graph_overrun(now);
}

static __always_inline u64 addr_of(const void *p)
{
	u32 zero = 0;
	volatile u64 *v = bpf_map_lookup_elem(&addr_tmp, &zero);

	if (!v)
		return 0;
	*v = (u64)p;
	return *v;
}

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

#endif /* PDT_COMMON_BPF_H */
