/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fails the gate: each finding the rules kept is new, suppressed (an entry of a
 * --suppressions file matched it) or known (its signature is in the --baseline
 * report). Only new findings fail; the report still shows and counts the others.
 */
#ifndef PDT_GATE_H
#define PDT_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include "baseline.h"
#include "ksyms.h"
#include "rules.h"
#include "suppress.h"

/* Is f's signature in baseline b (NULL: no)? It is then marked seen. */
bool pdt_baseline_knows(struct pdt_baseline *b, const struct pdt_finding *f, const struct ksyms *k);

enum pdt_fate { PDT_FATE_NEW, PDT_FATE_SUPPRESSED, PDT_FATE_KNOWN };

struct pdt_gate;

/* A gate with these suppressions and this baseline (either may be NULL): it owns them. */
struct pdt_gate *pdt_gate_new(struct pdt_supp *supp, struct pdt_baseline *base);
void pdt_gate_free(struct pdt_gate *g);
/* Judge every finding r keeps, once, after the run. Returns 0, or -1 out of memory. */
int pdt_gate_judge(struct pdt_gate *g, const struct pdt_rules *r, const struct ksyms *k);
/* Finding i's fate; with no gate (NULL), every finding is new. */
enum pdt_fate pdt_gate_fate(const struct pdt_gate *g, size_t i);
/* The suppression entry that matched finding i (an index into pdt_gate_supp()), or -1. */
long pdt_gate_entry(const struct pdt_gate *g, size_t i);
const struct pdt_supp *pdt_gate_supp(const struct pdt_gate *g);
const struct pdt_baseline *pdt_gate_baseline(const struct pdt_gate *g);
unsigned long long pdt_gate_count(const struct pdt_gate *g, enum pdt_fate v);
/*
 * pdt_rules_fail() for the new findings: of a fail_on kind, and, with incomplete data,
 * observed directly. Findings past the list's end were not judged: they fail.
 */
bool pdt_gate_fail(const struct pdt_gate *g, const struct pdt_rules *r,
		   const bool fail_on[PDT_KIND_MAX], bool complete);

#endif
