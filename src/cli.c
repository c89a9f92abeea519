// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "exit_codes.h"
#include "json.h"
#include "log.h"
#include "rules.h"

struct cli_ctx {
	const char *name;
	const char *bad_arg; /* the argument getopt choked on */
	void *child_input;   /* the command's own input */
};

/*
 * Every command's own: --help, and -v (libbpf's messages, as perf's -v and bpftool's
 * --debug) before the command or after it alike.
 */
static const struct argp_option help_options[] = {
	{ "verbose", 'v', NULL, 0, "Print libbpf's messages (twice: also its debug output)", -1 },
	{ "debug", 0, NULL, OPTION_ALIAS, NULL, -1 },
	{ "help", 'h', NULL, 0, "Give this help list", -1 },
	{},
};

static error_t parse_help(int key, char *arg, struct argp_state *state)
{
	struct cli_ctx *ctx = state->input;

	(void)arg;
	switch (key) {
	case ARGP_KEY_INIT:
		state->child_inputs[0] = ctx->child_input;
		return 0;
	case 'h':
		argp_help(state->root_argp, stdout, ARGP_HELP_STD_HELP, (char *)ctx->name);
		exit(PDT_EXIT_OK);
	case 'v':
		pdt_verbose++;
		return 0;
	case ARGP_KEY_ERROR:
		if (state->next > 0 && state->next <= state->argc)
			ctx->bad_arg = state->argv[state->next - 1];
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/*
 * Does ARG name an option of ARGP (or of its children, e.g. the tracing options)
 * that takes a value? Then the value was missing.
 */
static const struct argp_option *find_option(const struct argp *argp, const char *arg)
{
	const struct argp_option *o;
	const struct argp_child *c;

	for (o = argp->options; o && (o->name || o->key || o->doc); o++) {
		if (arg[0] == '-' && arg[1] == '-' && o->name && !strcmp(arg + 2, o->name))
			return o;
		if (arg[0] == '-' && arg[1] != '-' && arg[1] == o->key && !arg[2])
			return o;
	}
	for (c = argp->children; c && c->argp; c++) {
		o = find_option(c->argp, arg);
		if (o)
			return o;
	}
	return NULL;
}

void pdt_parse_args(const struct argp *argp, const char *cmd, int argc, char **argv, void *input)
{
	char name[64], pfx[48];
	struct cli_ctx ctx = { name, NULL, input };
	struct argp child = *argp;
	const struct argp_child children[] = { { &child, 0, NULL, 0 }, {} };
	const struct argp root = { help_options, parse_help, argp->args_doc,
				   argp->doc,	 children,   argp->help_filter,
				   NULL };
	const struct argp_option *o;
	int err;

	/* The root argp prints the command's usage and doc; the child would repeat them. */
	child.args_doc = NULL;
	child.doc = NULL;
	child.help_filter = NULL;
	snprintf(name, sizeof(name), "pdtrace%s%s", cmd ? " " : "", cmd ? cmd : "");
	snprintf(pfx, sizeof(pfx), "%s%s", cmd ? cmd : "", cmd ? ": " : "");

	err =
	    argp_parse(&root, argc, argv, ARGP_IN_ORDER | ARGP_NO_ERRS | ARGP_NO_HELP, NULL, &ctx);
	if (!err)
		return;
	if (!ctx.bad_arg)
		pdt_die(PDT_EXIT_ERROR, "%sinvalid arguments (see '%s --help')", pfx, name);
	o = find_option(argp, ctx.bad_arg);
	if (o && o->arg)
		pdt_die(PDT_EXIT_ERROR, "%soption '%s' needs a value %s (see '%s --help')", pfx,
			ctx.bad_arg, o->arg, name);
	pdt_die(PDT_EXIT_ERROR, "%sunknown option '%s' (see '%s --help')", pfx, ctx.bad_arg, name);
}

void pdt_parse_text_json(const char *cmd, const char *arg, enum pdt_format *fmt)
{
	if (pdt_parse_format(arg, fmt) || (*fmt != PDT_FMT_TEXT && *fmt != PDT_FMT_JSON))
		pdt_die(PDT_EXIT_ERROR, "%s: unknown format '%s' (text, json)", cmd, arg);
}

void pdt_format_json(enum pdt_format *fmt, bool pretty)
{
	*fmt = PDT_FMT_JSON;
	if (pretty)
		pdt_json_set_pretty(true);
}

/*
 * Seconds as people write them: digits with an optional decimal fraction, blanks around
 * allowed (a value from a script); no sign, exponent, hex, inf or nan, which strtod()
 * would take. At least a millisecond, at most 10^7 s.
 */
double pdt_parse_seconds(const char *cmd, const char *opt, const char *arg)
{
	const char *p = arg + strspn(arg, " \t"), *q = p + strspn(p, "0123456789");
	bool digits = q > p;
	double v = -1;

	if (*q == '.') {
		digits |= q[1] >= '0' && q[1] <= '9';
		q += 1 + strspn(q + 1, "0123456789");
	}
	if (digits && !q[strspn(q, " \t")])
		v = strtod(p, NULL);
	if (!(v >= 0.001 && v <= 1e7))
		pdt_die(PDT_EXIT_ERROR, "%s: %s expects a positive number of seconds, got '%s'",
			cmd, opt, arg);
	return v;
}

void pdt_unexpected_arg(const char *cmd, const char *arg)
{
	pdt_die(PDT_EXIT_ERROR, "%s: unexpected argument '%s' (see 'pdtrace %s --help')", cmd, arg,
		cmd);
}

void pdt_parse_kinds(const char *cmd, const char *arg, bool kinds[PDT_KIND_MAX])
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int k;

	if (!copy)
		pdt_die(PDT_EXIT_ERROR, "%s: out of memory", cmd);
	memset(kinds, 0, sizeof(bool) * PDT_KIND_MAX);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (k = 0; k < PDT_KIND_MAX; k++)
			if (!strcmp(tok, pdt_kind_name(k)))
				break;
		if (k == PDT_KIND_MAX)
			pdt_die(
			    PDT_EXIT_ERROR,
			    "%s: --fail-on: unknown kind '%s' (leak, imbalance, illegal-removal)",
			    cmd, tok);
		kinds[k] = true;
	}
	free(copy);
	for (k = 0; k < PDT_KIND_MAX; k++)
		if (kinds[k])
			return;
	pdt_die(PDT_EXIT_ERROR, "%s: --fail-on needs at least one kind", cmd);
}
