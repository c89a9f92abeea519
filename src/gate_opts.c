// SPDX-License-Identifier: GPL-2.0
#include "exit_codes.h"
#include "gate_opts.h"
#include "log.h"

enum { OPT_SUPPRESSIONS = 0x400, OPT_GEN_SUPPRESSIONS, OPT_BASELINE };

static const struct argp_option gate_options[] = {
	{ "suppressions", OPT_SUPPRESSIONS, "FILE", 0,
	  "Findings an entry of FILE matches do not fail the gate (repeatable; format: "
	  "docs/findings.md)",
	  0 },
	{ "gen-suppressions", OPT_GEN_SUPPRESSIONS, NULL, 0,
	  "Print a ready suppression entry under each finding that is not suppressed", 0 },
	{ "baseline", OPT_BASELINE, "REPORT", 0,
	  "Only findings whose signature is not in REPORT (an earlier -f json report) fail the "
	  "gate",
	  0 },
	{},
};

static void add_suppressions(struct pdt_gate_opts *o, const char *cmd, const char *file)
{
	char err[512];

	if (!o->supp && !(o->supp = pdt_supp_new()))
		pdt_die(PDT_EXIT_ERROR, "%s: out of memory", cmd);
	if (pdt_supp_load(o->supp, file, err, sizeof(err)))
		pdt_die(PDT_EXIT_ERROR, "%s: %s", cmd, err);
}

static void load_baseline(struct pdt_gate_opts *o, const char *cmd, const char *file)
{
	char err[512];

	if (o->base)
		pdt_die(PDT_EXIT_ERROR, "%s: --baseline given twice", cmd);
	if (!(o->base = pdt_baseline_load(file, err, sizeof(err))))
		pdt_die(PDT_EXIT_ERROR, "%s: %s", cmd, err);
}

static error_t parse_gate_opts(int key, char *arg, struct argp_state *state)
{
	struct pdt_gate_opts *o = state->input;

	switch (key) {
	case OPT_SUPPRESSIONS:
		add_suppressions(o, state->name, arg);
		return 0;
	case OPT_GEN_SUPPRESSIONS:
		o->gen_suppressions = true;
		return 0;
	case OPT_BASELINE:
		load_baseline(o, state->name, arg);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp pdt_gate_argp = {
	gate_options, parse_gate_opts, NULL, NULL, NULL, NULL, NULL,
};

const struct argp_child pdt_gate_children[] = {
	{ &pdt_gate_argp, 0, "Gate options:", 0 },
	{},
};

struct pdt_gate *pdt_gate_opts_apply(struct pdt_gate_opts *o, const char *cmd,
				     struct pdt_report *rep)
{
	struct pdt_gate *g = pdt_gate_new(o->supp, o->base);

	if (!g || pdt_gate_judge(g, rep->rules, rep->ksyms))
		pdt_die(PDT_EXIT_ERROR, "%s: out of memory", cmd);
	o->supp = NULL; /* the gate's now */
	o->base = NULL;
	rep->gate = g;
	rep->gen_suppressions = o->gen_suppressions;
	return g;
}
