/* SPDX-License-Identifier: GPL-2.0 */
/* Gathers what `pdtrace doctor` needs to know about the running kernel. */
#ifndef PDT_KERNEL_FACTS_H
#define PDT_KERNEL_FACTS_H

#include "hooks.h"
#include "requirements.h"

struct btf;

/* Everything but the attach test. */
void pdt_gather_facts(struct pdt_facts *f);
/* Load and attach the probe programs on the required hooks present in BTF. */
void pdt_try_attach(struct pdt_facts *f);

#endif
