// SPDX-License-Identifier: GPL-2.0
/* pdtrace: trace persistent dentries (d_make_persistent/d_make_discardable). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "cli.h"
#include "commands.h"
#include "exit_codes.h"
#include "log.h"

/* The command table: it dispatches, and it makes the command list of --help. */
struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{ "check", cmd_check, "Run COMMAND, report its findings (the CI gate: exit 1 on any)" },
	{ "trace", cmd_trace, "Trace system-wide, print findings as they happen, until Ctrl-C" },
	{ "watch", cmd_watch, "Live per-superblock counts and findings; JSON lines, metrics" },
	{ "record", cmd_record, "Record the tracker's events to a file, for report" },
	{ "report", cmd_report, "Report on a recording, as check would have (any machine)" },
	{ "stat", cmd_stat, "Count persist/discard calls per superblock while a command runs" },
	{ "doctor", cmd_doctor, "Check that this kernel and these privileges let pdtrace trace" },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

struct main_args {
	int cmd_index; /* argv index of COMMAND, 0 if none */
};

static const struct argp_option main_options[] = {
	{ "version", 'V', NULL, 0, "Print the version and exit", 0 },
	{},
};

/* As bpftool -V: the version, the libbpf it was built with, and what its BPF side uses. */
static void print_version(void)
{
#if defined(__x86_64__)
	const char *arch = "x86_64";
#elif defined(__aarch64__)
	const char *arch = "arm64";
#else
	const char *arch = "unknown";
#endif

	printf("pdtrace %s\n", PDT_VERSION);
	printf("using libbpf %s (linked statically)\n", libbpf_version_string());
	printf("BPF programs for %s: kprobe.multi, kprobe.session, fentry, lsm, tp_btf, "
	       "iter/task_file\n",
	       arch);
}

static error_t parse_main(int key, char *arg, struct argp_state *state)
{
	struct main_args *a = state->input;

	(void)arg;
	switch (key) {
	case 'V':
		print_version();
		exit(PDT_EXIT_OK);
	case ARGP_KEY_ARG:
		a->cmd_index = state->next - 1;
		state->next = state->argc; /* the command parses the rest */
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static char main_doc[] = "Trace persistent dentries: leaks, imbalance and illegal recursive "
			 "removals.\v(commands)";

/* After the options: the commands, one line each from the table, and the exit statuses. */
static char *help_filter(int key, const char *text, void *input)
{
	size_t i, len;
	char *out;
	FILE *fp;

	(void)input;
	if (key != ARGP_KEY_HELP_POST_DOC)
		return (char *)text;
	fp = open_memstream(&out, &len);
	if (!fp)
		return (char *)text;
	fputs("Commands:\n", fp);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fputs("\nRun 'pdtrace COMMAND --help' for a command's options.\n"
	      "Exit status: 0 ok, 1 findings, 2 cannot trace or bad usage, 3 incomplete data.",
	      fp);
	fclose(fp);
	return out;
}

static const struct argp main_argp = {
	main_options, parse_main, "COMMAND [ARGS...]", main_doc, NULL, help_filter, NULL,
};

int main(int argc, char **argv)
{
	struct main_args args = {};
	size_t i;

	pdt_parse_args(&main_argp, NULL, argc, argv, &args);
	if (!args.cmd_index)
		pdt_die(PDT_EXIT_ERROR, "no command given (see 'pdtrace --help')");
	pdt_setup_libbpf_log();
	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[args.cmd_index], commands[i].name))
			return commands[i].fn(argc - args.cmd_index, argv + args.cmd_index);
	pdt_die(PDT_EXIT_ERROR, "unknown command '%s' (see 'pdtrace --help')",
		argv[args.cmd_index]);
}
