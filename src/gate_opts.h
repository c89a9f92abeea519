/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fails the gate, one argp child shared by check and report: --suppressions FILE
 * (repeatable), --gen-suppressions, --baseline REPORT.json. Files are read as the
 * options are parsed: a bad one stops the command before it traces anything.
 */
#ifndef PDT_GATE_OPTS_H
#define PDT_GATE_OPTS_H

#include <argp.h>
#include <stdbool.h>
#include "gate.h"
#include "report.h"

struct pdt_gate_opts {
	struct pdt_supp *supp; /* NULL: no --suppressions */
	bool gen_suppressions;
	struct pdt_baseline *base; /* NULL: no --baseline */
};

/* Its input is the command's struct pdt_gate_opts (state->child_inputs[N] = &a->gate). */
extern const struct argp pdt_gate_argp;
/* pdt_gate_argp under the heading "Gate options:", for commands with no other child. */
extern const struct argp_child pdt_gate_children[];

/*
 * Judge the report's findings (rep->rules and rep->ksyms set) and attach the gate to it;
 * the caller frees it with pdt_gate_free() after the report is written. Exits 2 out of
 * memory.
 */
struct pdt_gate *pdt_gate_opts_apply(struct pdt_gate_opts *o, const char *cmd,
				     struct pdt_report *rep);

#endif
