// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel addresses by name, looked up once at start: the dispatchers' functions (a
 * kprobe.multi link given names finds them in a pass over every kallsyms entry, one
 * pass per link, about an eighth of a second each under emulation).
 * kallsyms_lookup_name() is a binary search. User space writes the names, runs this
 * (bpf_prog_test_run) and reads the addresses; a name not found stays 0 (a link is
 * then attached by name).
 */
#include "common.bpf.h"

/* A map of their own: written once, kept out of the hot programs' .bss. */
char pdt_resolve_names[PDT_RESOLVE_MAX][PDT_RESOLVE_NAME_LEN] SEC(".data.resolve");
__u64 pdt_resolve_addrs[PDT_RESOLVE_MAX] SEC(".data.resolve"); /* out */
__u32 pdt_resolve_n SEC(".data.resolve");

SEC("syscall")
int resolve_kallsyms(void *ctx)
{
	u32 i;

	for (i = 0; i < PDT_RESOLVE_MAX && i < pdt_resolve_n; i++) {
		u64 a = 0;

		if (!bpf_kallsyms_lookup_name(pdt_resolve_names[i], PDT_RESOLVE_NAME_LEN, 0, &a))
			pdt_resolve_addrs[i] = a;
	}
	return 0;
}

/*
 * The index of fprobe's fgraph_ops (the kernel's fprobe_graph_ops, at address
 * pdt_fgraph_ops_addr) in the function graph tracer's fgraph_array, -1 where unknown:
 * read after the brackets' session is attached (tracker.c, avoid_graph_index0()).
 */
__u64 pdt_fgraph_ops_addr SEC(".data.resolve");
int pdt_fgraph_idx SEC(".data.resolve") = -1; /* out */

SEC("syscall")
int fgraph_index(void *ctx)
{
	struct fgraph_ops *g = (void *)pdt_fgraph_ops_addr;

	pdt_fgraph_idx = g && bpf_core_field_exists(g->idx) ? BPF_CORE_READ(g, idx) : -1;
	return 0;
}
