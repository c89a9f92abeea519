/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel functions pdtrace hooks, and what is lost when one is missing. */
#ifndef PDT_HOOKS_H
#define PDT_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

struct pdt_hook {
	const char *func;     /* kernel function */
	const char *module;   /* NULL: vmlinux; else the module whose BTF holds it */
	bool required;	      /* tracing is impossible without it */
	const char *lost;     /* what the report lacks without it */
	const char *rules[3]; /* rules switched off without it (they would misfire) */
};

extern const struct pdt_hook pdt_hooks[];
extern const size_t pdt_nhooks;

const struct pdt_hook *pdt_hook_find(const char *func);

#endif
