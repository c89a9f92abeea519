// SPDX-License-Identifier: GPL-2.0
/*
 * `pdtrace check -- COMMAND`: the CI gate. Attach, run COMMAND, drain every
 * event, detach, report. Exit 0 clean, 1 findings of a --fail-on kind, 2 cannot
 * trace, 3 data incomplete (and no such findings).
 */
#include <stdio.h>
#include "cli.h"
#include "commands.h"
#include "exit_codes.h"
#include "gate_opts.h"
#include "log.h"
#include "output.h"
#include "report.h"
#include "session.h"
#include "trace_opts.h"

static const char check_name[] = "check";

enum { OPT_SHOW_ADDRESSES = 0x200, OPT_FAIL_ON };

static const struct argp_option check_options[] = {
	{ "format", 'f', "FORMAT", 0, "text (default), json, junit, ktap or kcidb", 0 },
	{ "json", 'j', NULL, 0, "Same as -f json", 0 },
	{ "pretty", 'p', NULL, 0, "JSON, indented for people to read", 0 },
	{ "output", 'o', "FILE", 0, "Write the report to FILE instead of stdout", 0 },
	{ "fail-on", OPT_FAIL_ON, "KINDS", 0,
	  "Exit 1 on findings of these kinds: leak,imbalance,illegal-removal (default: all)", 0 },
	{ "show-addresses", OPT_SHOW_ADDRESSES, NULL, 0, "Print kernel addresses in stacks", 0 },
	{},
};

struct check_args {
	enum pdt_format format;
	const char *output;
	bool fail_on[PDT_KIND_MAX];
	bool show_addresses;
	struct pdt_gate_opts gate;
	struct pdt_tracker_opts tracker;
	char **command;
};

static error_t parse_check(int key, char *arg, struct argp_state *state)
{
	struct check_args *a = state->input;

	switch (key) {
	case 'f':
		if (pdt_parse_format(arg, &a->format))
			pdt_die(PDT_EXIT_ERROR,
				"%s: unknown format '%s' (text, json, junit, ktap, kcidb)",
				check_name, arg);
		return 0;
	case 'j':
	case 'p':
		pdt_format_json(&a->format, key == 'p');
		return 0;
	case 'o':
		a->output = arg;
		return 0;
	case OPT_FAIL_ON:
		pdt_parse_kinds(check_name, arg, a->fail_on);
		return 0;
	case OPT_SHOW_ADDRESSES:
		a->show_addresses = true;
		return 0;
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->tracker;
		state->child_inputs[1] = &a->gate;
		return 0;
	case ARGP_KEY_ARG:
		a->command = &state->argv[state->next - 1];
		state->next = state->argc;
		return 0;
	case ARGP_KEY_END:
		if (!a->command)
			pdt_die(PDT_EXIT_ERROR, "%s: no COMMAND given (see 'pdtrace check --help')",
				check_name);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp_child check_children[] = {
	{ &pdt_trace_argp, 0, "Tracing options:", 0 },
	{ &pdt_gate_argp, 0, "Gate options:", 0 },
	{},
};

static const struct argp check_argp = {
	check_options,
	parse_check,
	"-- COMMAND [ARGS...]",
	"Trace persistent dentries while COMMAND runs, then report leaks, imbalance and "
	"illegal recursive removals.\v"
	"Exit status: 0 no findings, 1 findings of a --fail-on kind, 2 pdtrace could not "
	"trace, 3 data incomplete (lost events, full maps) and no such findings. Suppressed "
	"findings do not count.",
	check_children,
	NULL,
	NULL,
};

/* After each poll: superblocks gone clean, all but the last few, fold into one line. */
static bool check_tick(void *ctx)
{
	pdt_rules_retire(pdt_tracker_rules(ctx), PDT_RULES_KEEP_GONE);
	return false;
}

int cmd_check(int argc, char **argv)
{
	struct check_args args = { .fail_on = { true, true, true } };
	struct pdt_session_opts so = {};
	struct pdt_report rep = {};
	struct pdt_tracker *t = pdt_tracker_new();
	struct pdt_gate *gate;
	char err[300];
	FILE *out;
	int status;

	pdt_parse_args(&check_argp, check_name, argc, argv, &args);
	out = pdt_open_output(check_name, args.output);
	so.tracker = args.tracker;
	so.command = args.command;
	so.tick = check_tick;
	so.ctx = t;
	if (pdt_session_start(t, &so, err, sizeof(err)) ||
	    pdt_session_run(t, &so, &status, err, sizeof(err))) {
		pdt_tracker_close(t);
		pdt_die(PDT_EXIT_ERROR, "%s: %s", check_name, err);
	}

	rep.exit_status = status;
	rep.argv = args.command;
	pdt_fill_report(&rep, t, args.show_addresses);
	gate = pdt_gate_opts_apply(&args.gate, check_name, &rep);
	pdt_report_write(out, args.format, &rep);
	pdt_close_output(check_name, out, args.output);

	status = pdt_report_status(&rep, args.fail_on);
	pdt_gate_free(gate);
	pdt_tracker_close(t);
	return status;
}
