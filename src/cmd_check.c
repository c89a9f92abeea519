// SPDX-License-Identifier: GPL-2.0
/*
 * `pdtrace check -- COMMAND`: the CI gate. Attach, run COMMAND, drain every
 * event, detach, report. Exit 0 clean, 1 findings of a --fail-on kind, 2 cannot
 * trace, 3 data incomplete (and no such findings).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "child.h"
#include "cli.h"
#include "commands.h"
#include "exit_codes.h"
#include "log.h"
#include "output.h"
#include "report.h"
#include "tracker.h"

static const char check_name[] = "check";

enum { OPT_SHOW_ADDRESSES = 0x200, OPT_NO_DPUT, OPT_FAIL_ON };

static const struct argp_option check_options[] = {
	{ "format", 'f', "FORMAT", 0, "Report format: text (default), json or junit", 0 },
	{ "output", 'o', "FILE", 0, "Write the report to FILE instead of stdout", 0 },
	{ "fail-on", OPT_FAIL_ON, "KINDS", 0,
	  "Exit 1 on findings of these kinds: leak,imbalance,illegal-removal (default: all)", 0 },
	{ "show-addresses", OPT_SHOW_ADDRESSES, NULL, 0, "Print kernel addresses in stacks", 0 },
	{ "no-dput", OPT_NO_DPUT, NULL, 0, "Do not trace dput() (its rule is then off)", 0 },
	{},
};

struct check_args {
	enum pdt_format format;
	const char *output;
	bool fail_on[PDT_KIND_MAX];
	bool show_addresses;
	bool no_dput;
	char **command;
};

/* "leak,imbalance" -> flags; exits 2 on an unknown kind. */
static void pdt_parse_kinds(const char *cmd, const char *arg, bool kinds[PDT_KIND_MAX])
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

static error_t parse_check(int key, char *arg, struct argp_state *state)
{
	struct check_args *a = state->input;

	switch (key) {
	case 'f':
		if (pdt_parse_format(arg, &a->format))
			pdt_die(PDT_EXIT_ERROR, "%s: unknown format '%s' (text, json, junit)",
				check_name, arg);
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
	case OPT_NO_DPUT:
		a->no_dput = true;
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

static const struct argp check_argp = {
	check_options,
	parse_check,
	"[OPTION...] -- COMMAND [ARGS...]",
	"Trace persistent dentries while COMMAND runs, then report leaks, imbalance and "
	"illegal recursive removals.\v"
	"Exit status: 0 no findings, 1 findings of a --fail-on kind, 2 pdtrace could not "
	"trace, 3 data incomplete (lost events, full maps) and no such findings.",
	NULL,
	NULL,
	NULL,
};

/* Run COMMAND, delivering events while it runs; returns its shell-style status. */
static int run_traced(struct pdt_tracker *t, char **command)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	int status = 0, err;
	pid_t pid, r;

	err = pdt_spawn(command, &pid);
	if (err) {
		pdt_tracker_close(t);
		pdt_die(PDT_EXIT_ERROR, "%s: cannot run '%s': %s", check_name, command[0],
			strerror(-err));
	}
	/* Ctrl-C reaches COMMAND through the terminal; we stay to report. */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	do {
		pdt_tracker_poll(t, 100);
		r = waitpid(pid, &status, WNOHANG);
	} while (r == 0 || (r < 0 && errno == EINTR));
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (r < 0)
		return 255;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

int cmd_check(int argc, char **argv)
{
	struct check_args args = { .fail_on = { true, true, true } };
	struct pdt_tracker_opts topts = {};
	struct pdt_report rep = {};
	struct pdt_tracker t;
	char err[300];
	FILE *out;
	int k, status;

	pdt_parse_args(&check_argp, check_name, argc, argv, &args);
	out = pdt_open_output(check_name, args.output);
	topts.no_dput = args.no_dput;
	if (pdt_tracker_open(&t, &topts, err, sizeof(err))) {
		pdt_tracker_close(&t);
		pdt_die(PDT_EXIT_ERROR, "%s: %s", check_name, err);
	}
	status = run_traced(&t, args.command);
	pdt_tracker_stop(&t);

	rep.exit_status = status;
	rep.argv = args.command;
	pdt_fill_report(&rep, &t, args.show_addresses);
	pdt_report_write(out, args.format, &rep);
	pdt_close_output(check_name, out, args.output);

	status = rep.complete ? PDT_EXIT_OK : PDT_EXIT_INCOMPLETE;
	for (k = 0; k < PDT_KIND_MAX; k++)
		if (args.fail_on[k] && pdt_rules_count(t.rules, k))
			status = PDT_EXIT_FINDINGS;
	pdt_tracker_close(&t);
	return status;
}
