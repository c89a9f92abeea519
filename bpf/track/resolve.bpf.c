// SPDX-License-Identifier: GPL-2.0
/*
 * The dispatchers' functions by address. A kprobe.multi link given names finds them in
 * a pass over every kallsyms entry, one pass per link (about an eighth of a second
 * each under emulation); kallsyms_lookup_name() is a binary search. User space writes
 * the names, runs this once before attaching (bpf_prog_test_run) and attaches by
 * address; a name not found stays 0, and that link is attached by name.
 */
#include "common.bpf.h"

/* A map of their own: written once, kept out of the hot programs' .bss. */
char pdt_resolve_names[PDT_RESOLVE_MAX][PDT_RESOLVE_NAME_LEN] SEC(".data.resolve");
__u64 pdt_resolve_addrs[PDT_RESOLVE_MAX] SEC(".data.resolve"); /* out */
__u32 pdt_resolve_n SEC(".data.resolve");

SEC("syscall")
int pdt_resolve(void *ctx)
{
	u32 i;

	for (i = 0; i < PDT_RESOLVE_MAX && i < pdt_resolve_n; i++) {
		u64 a = 0;

		if (!bpf_kallsyms_lookup_name(pdt_resolve_names[i], PDT_RESOLVE_NAME_LEN, 0, &a))
			pdt_resolve_addrs[i] = a;
	}
	return 0;
}
