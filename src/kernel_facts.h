/* SPDX-License-Identifier: GPL-2.0 */
/* Gathers what `pdtrace doctor` needs to know about the running kernel. */
#ifndef PDT_KERNEL_FACTS_H
#define PDT_KERNEL_FACTS_H

#include "hooks.h"
#include "requirements.h"

struct btf;

/* Everything but the attach test. */
void pdt_gather_facts(struct pdt_facts *f);
/* Is the hook's function in BTF (its module's, for a module function)? */
enum pdt_func_state pdt_find_func(struct btf *vmlinux, const struct pdt_hook *h);
/* Load and attach the probe programs on the required hooks present in BTF. */
void pdt_try_attach(struct pdt_facts *f);

#endif
