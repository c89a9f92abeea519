/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel symbols from /proc/kallsyms, to print stacks as function+offset. */
#ifndef PDT_KSYMS_H
#define PDT_KSYMS_H

#include <stdio.h>

#define PDT_KSYM_TMP_LEN 80 /* "(init_text) [" + a module name + "]" */

struct ksym {
	unsigned long long addr;
	unsigned long long size; /* bytes the symbol covers; 0: unknown (up to the next one) */
	char *name;		 /* "func" or "func [module]" */
};

struct modtab;

struct ksyms {
	struct ksym *syms;
	size_t n, cap;
	const struct modtab *mods; /* the run's module history (ksyms_set_modules()), or NULL */
};

/* Room for a symbol made up for a frame (ksyms_find_at()). */
struct ksym_tmp {
	struct ksym sym;
	char name[PDT_KSYM_TMP_LEN];
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
/*
 * The stacks k names were taken by a run whose modules came and went as mt says (not
 * owned): ksyms_find_at() names a module's frame after the module that had the address
 * when the stack was taken.
 */
void ksyms_set_modules(struct ksyms *k, const struct modtab *mt);
/*
 * ksyms_find() for a frame of a stack taken at module epoch epoch (modtab_epoch()). A
 * frame in a module's text is named by the load that had it then: by its symbol while
 * that load is still there, else "(text) [mod]" or "(init_text) [mod]" in tmp, its
 * offset from the text's start (the module's symbols went with it, and its memory may
 * hold another module now).
 */
const struct ksym *ksyms_find_at(const struct ksyms *k, unsigned long long addr, unsigned int epoch,
				 unsigned long long *off, struct ksym_tmp *tmp);
/*
 * Frame addr of a stack taken at module epoch epoch, as ksyms_find_at() names it:
 * "func+0x1a" (or "func+0x1a [mod]", or "?" when unknown); with addresses, "0x...
 * func+0x1a". Without a module history (ksyms_set_modules()), any epoch names it alike.
 */
void ksyms_format_at(const struct ksyms *k, unsigned long long addr, unsigned int epoch,
		     int show_addr, char *buf, size_t n);

#endif
