/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel symbols from /proc/kallsyms, to print stacks as function+offset. */
#ifndef PDT_KSYMS_H
#define PDT_KSYMS_H

#include <stdio.h>

struct ksym {
	unsigned long long addr;
	unsigned long long size; /* bytes the symbol covers; 0: unknown (up to the next one) */
	char *name;		 /* "func" or "func [module]" */
};

struct ksyms {
	struct ksym *syms;
	size_t n, cap;
};

/* Parse kallsyms text. Returns NULL on allocation failure; malformed lines are skipped. */
struct ksyms *ksyms_parse(FILE *fp);
struct ksyms *ksyms_load(void); /* /proc/kallsyms */
void ksyms_free(struct ksyms *k);
/* One more symbol (size 0: up to the next one); ksyms_sort() before the next find. */
int ksyms_add(struct ksyms *k, unsigned long long addr, unsigned long long size, const char *name,
	      const char *mod);
void ksyms_sort(struct ksyms *k);
/* The symbol at or below addr, and the offset into it; NULL if none or addr is past its size. */
const struct ksym *ksyms_find(const struct ksyms *k, unsigned long long addr,
			      unsigned long long *off);
/* Is addr inside a BPF program or trampoline (pdtrace's own instrumentation)? */
int ksyms_is_bpf(const struct ksyms *k, unsigned long long addr);
/* "func+0x1a" (or "func+0x1a [mod]", or "?" when unknown); with addresses, "0x... func+0x1a". */
void ksyms_format(const struct ksyms *k, unsigned long long addr, int show_addr, char *buf,
		  size_t n);

#endif
