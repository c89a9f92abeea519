// SPDX-License-Identifier: GPL-2.0
/*
 * `pdtrace report FILE`: replay a recording through the rules engine and write
 * the report `check` would have written, with its exit status. Needs no
 * privileges and no BPF: it runs anywhere. A damaged file is one line, exit 2.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "commands.h"
#include "exit_codes.h"
#include "gate_opts.h"
#include "log.h"
#include "merge.h"
#include "output.h"
#include "replay.h"

static const char report_name[] = "report";

enum { OPT_SHOW_ADDRESSES = 0x200, OPT_FAIL_ON };

static const struct argp_option report_options[] = {
	{ "format", 'f', "FORMAT", 0, "text (default), json, junit, ktap or kcidb", 0 },
	{ "json", 'j', NULL, 0, "Same as -f json", 0 },
	{ "pretty", 'p', NULL, 0, "JSON, indented for people to read", 0 },
	{ "output", 'o', "FILE", 0, "Write the report to FILE instead of stdout", 0 },
	{ "fail-on", OPT_FAIL_ON, "KINDS", 0,
	  "Exit 1 on findings of these kinds: leak,imbalance,illegal-removal (default: all)", 0 },
	{ "show-addresses", OPT_SHOW_ADDRESSES, NULL, 0, "Print kernel addresses in stacks", 0 },
	{},
};

struct report_args {
	enum pdt_format format;
	const char *output;
	bool fail_on[PDT_KIND_MAX];
	bool show_addresses;
	struct pdt_gate_opts gate;
	const char *file; /* the first */
	char **files;	  /* every FILE or DIR given, in order (malloc'd) */
	int nfiles;
};

static error_t parse_report(int key, char *arg, struct argp_state *state)
{
	struct report_args *a = state->input;

	switch (key) {
	case 'f':
		if (pdt_parse_format(arg, &a->format))
			pdt_die(PDT_EXIT_ERROR,
				"%s: unknown format '%s' (text, json, junit, ktap, kcidb)",
				report_name, arg);
		return 0;
	case 'j':
	case 'p':
		pdt_format_json(&a->format, key == 'p');
		return 0;
	case 'o':
		a->output = arg;
		return 0;
	case OPT_FAIL_ON:
		pdt_parse_kinds(report_name, arg, a->fail_on);
		return 0;
	case OPT_SHOW_ADDRESSES:
		a->show_addresses = true;
		return 0;
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->gate;
		return 0;
	case ARGP_KEY_ARG:
		/* Options may come between them (ARGP_IN_ORDER): collected one by one. */
		a->files = realloc(a->files, (size_t)(a->nfiles + 1) * sizeof(*a->files));
		if (!a->files)
			pdt_die(PDT_EXIT_ERROR, "%s: out of memory", report_name);
		a->files[a->nfiles++] = arg;
		a->file = a->files[0];
		return 0;
	case ARGP_KEY_END:
		if (!a->file)
			pdt_die(PDT_EXIT_ERROR,
				"%s: no recording given (see 'pdtrace report --help')",
				report_name);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp report_argp = {
	report_options,
	parse_report,
	"FILE [FILE|DIR...]",
	"Report on a recording made by 'pdtrace record' (FILE, or - for stdin): the report "
	"and exit status 'pdtrace check' would have given. Needs no privileges. Several "
	"recordings, or a directory of *.pdtrec files: one report, findings "
	"deduplicated by signature, with their counts and recordings.\v"
	"Exit status: 0 no findings, 1 findings of a --fail-on kind, 2 FILE unreadable or "
	"damaged (one line naming the byte offset), 3 data incomplete (lost events, full maps, "
	"a truncated recording) and no such findings. Suppressed findings do not count.",
	pdt_gate_children,
	NULL,
	NULL,
};

/* The recording, opened; its size when it is a regular file (else unknown). */
static FILE *open_recording(const char *path, uint64_t *size)
{
	struct stat st;
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;

	if (!fp)
		pdt_die(PDT_EXIT_ERROR, "%s: cannot read '%s': %s", report_name, path,
			strerror(errno));
	if (fstat(fileno(fp), &st))
		pdt_die(PDT_EXIT_ERROR, "%s: cannot read '%s': %s", report_name, path,
			strerror(errno));
	if (S_ISDIR(st.st_mode))
		pdt_die(PDT_EXIT_ERROR, "%s: cannot read '%s': %s", report_name, path,
			strerror(EISDIR));
	*size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : UINT64_MAX;
	return fp;
}

static const char *file_type(mode_t mode)
{
	return S_ISFIFO(mode)	? "a FIFO"
	       : S_ISSOCK(mode) ? "a socket"
	       : S_ISCHR(mode)	? "a character device"
	       : S_ISBLK(mode)	? "a block device"
	       : S_ISDIR(mode)	? "a directory"
				: "not a regular file";
}

/*
 * A *.pdtrec a directory holds, opened only if it is a regular file: NULL for anything
 * else (what it is in *skip), which the caller skips with a warning. A FIFO there (no
 * writer) blocked open() and the report for ever: it is opened without blocking, and
 * looked at before anything is read.
 */
static FILE *open_dir_recording(const char *path, uint64_t *size, const char **skip)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), flags;
	struct stat st;
	FILE *fp;

	if (fd < 0)
		pdt_die(PDT_EXIT_ERROR, "%s: cannot read '%s': %s", report_name, path,
			strerror(errno));
	if (fstat(fd, &st))
		pdt_die(PDT_EXIT_ERROR, "%s: cannot read '%s': %s", report_name, path,
			strerror(errno));
	if (!S_ISREG(st.st_mode)) {
		*skip = file_type(st.st_mode);
		close(fd);
		return NULL;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) || !(fp = fdopen(fd, "rb")))
		pdt_die(PDT_EXIT_ERROR, "%s: cannot read '%s': %s", report_name, path,
			strerror(errno));
	*size = (uint64_t)st.st_size;
	return fp;
}

/*
 * Replay one recording into rp: a damaged or unreadable file is one line, exit 2. One
 * found in a directory (skip not NULL) that is not a regular file is not read: false,
 * what it is in *skip.
 */
static bool replay_file(struct pdt_replay *rp, const char *file, const char **skip)
{
	char err[300];
	uint64_t size;
	FILE *in = skip ? open_dir_recording(file, &size, skip) : open_recording(file, &size);
	int rc;

	if (!in)
		return false;
	rc = pdt_replay_read(rp, in, size, err, sizeof(err));

	if (ferror(in))
		pdt_die(PDT_EXIT_ERROR, "%s: error reading '%s' at byte %llu: %s", report_name,
			file, (unsigned long long)rp->rec.size, strerror(errno));
	if (rc)
		pdt_die(PDT_EXIT_ERROR, "%s: %s: %s", report_name, file, err);
	if (in != stdin)
		fclose(in);
	return true;
}

/*
 * One recording into the merge, its replay freed at once: memory follows the distinct.
 * false: one in a directory that is not a regular file, skipped.
 */
static bool merge_file(struct pdt_merge *m, const char *file, bool addrs, const char **skip)
{
	struct pdt_replay rp;
	struct pdt_report rep;

	if (!replay_file(&rp, file, skip))
		return false;
	pdt_replay_fill_report(&rp, &rep, file, addrs);
	if (pdt_merge_add(m, file, &rep))
		pdt_die(PDT_EXIT_ERROR, "%s: out of memory", report_name);
	if (rp.rec.truncated)
		pdt_err("%s: %s: %s: data incomplete", report_name, file, rp.rec.why_truncated);
	pdt_replay_free(&rp);
	return true;
}

static int is_recording(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 7 && !strcmp(e->d_name + n - 7, ".pdtrec");
}

/*
 * A directory's *.pdtrec files, in name order; anything else given is a file. One there
 * that is not a regular file (a FIFO, a socket, a device) is skipped with a warning, as
 * rsync and tar skip them: it is not a recording anyone finished, and a FIFO without a
 * writer would block the report for ever. None left is the error of none at all.
 */
static void merge_arg(struct pdt_merge *m, const char *arg, bool addrs)
{
	struct dirent **names;
	struct stat st;
	const char *skip;
	char *path, **skipped;
	int i, n, read = 0, nskipped = 0;

	if (strcmp(arg, "-") && !stat(arg, &st) && S_ISDIR(st.st_mode)) {
		n = scandir(arg, &names, is_recording, alphasort);
		if (n < 0)
			pdt_die(PDT_EXIT_ERROR, "%s: cannot read '%s': %s", report_name, arg,
				strerror(errno));
		if (!n) /* a mistyped path in CI must not pass the gate */
			pdt_die(PDT_EXIT_ERROR, "%s: no recording (*.pdtrec) in '%s'", report_name,
				arg);
		if (!(skipped = calloc((size_t)n, sizeof(*skipped))))
			pdt_die(PDT_EXIT_ERROR, "%s: out of memory", report_name);
		for (i = 0; i < n; i++) {
			if (asprintf(&path, "%s/%s", arg, names[i]->d_name) < 0)
				pdt_die(PDT_EXIT_ERROR, "%s: out of memory", report_name);
			if (merge_file(m, path, addrs, &skip))
				read++;
			else if (asprintf(&skipped[nskipped++], "'%s': %s", path, skip) < 0)
				pdt_die(PDT_EXIT_ERROR, "%s: out of memory", report_name);
			free(path);
			free(names[i]);
		}
		free(names);
		if (!read) /* one line: the error, what was skipped in it */
			pdt_die(PDT_EXIT_ERROR, "%s: no recording (*.pdtrec) in '%s'%s%s%s",
				report_name, arg, nskipped ? " (skipped " : "",
				nskipped ? skipped[0] : "",
				nskipped > 1 ? ", ...)"
				: nskipped   ? ")"
					     : "");
		for (i = 0; i < nskipped; i++) {
			pdt_err("%s: skipping %s, not a recording", report_name, skipped[i]);
			free(skipped[i]);
		}
		free(skipped);
		return;
	}
	merge_file(m, arg, addrs, NULL);
}

static int merged_report(struct report_args *a)
{
	struct pdt_merge *m;
	FILE *out;
	int i, rc;

	if (a->gate.gen_suppressions)
		pdt_die(PDT_EXIT_ERROR, "%s: --gen-suppressions takes one recording", report_name);
	/* KCIDB tests belong to one build: one kernel, one run. */
	if (a->format == PDT_FMT_KCIDB)
		pdt_die(PDT_EXIT_ERROR, "%s: -f kcidb takes one recording", report_name);
	m = pdt_merge_new(a->gate.supp, a->gate.base);
	if (!m)
		pdt_die(PDT_EXIT_ERROR, "%s: out of memory", report_name);
	for (i = 0; i < a->nfiles; i++)
		merge_arg(m, a->files[i], a->show_addresses);
	out = pdt_open_output(report_name, a->output);
	pdt_merge_write(out, a->format, m);
	pdt_close_output(report_name, out, a->output);
	rc = pdt_merge_status(m, a->fail_on);
	pdt_merge_free(m);
	free(a->files);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_args args = { .fail_on = { true, true, true } };
	struct pdt_replay rp;
	struct pdt_report rep;
	struct pdt_gate *gate;
	struct stat st;
	FILE *out;
	int rc;

	pdt_parse_args(&report_argp, report_name, argc, argv, &args);
	if (args.nfiles > 1 ||
	    (strcmp(args.file, "-") && !stat(args.file, &st) && S_ISDIR(st.st_mode)))
		return merged_report(&args);
	replay_file(&rp, args.file, NULL);

	out = pdt_open_output(report_name, args.output);
	pdt_replay_fill_report(&rp, &rep, args.file, args.show_addresses);
	gate = pdt_gate_opts_apply(&args.gate, report_name, &rep);
	pdt_report_write(out, args.format, &rep);
	pdt_close_output(report_name, out, args.output);
	/* The report says it too, but a CI log shows stderr first. */
	if (rp.rec.truncated)
		pdt_err("%s: %s: %s: data incomplete", report_name, args.file,
			rp.rec.why_truncated);
	rc = pdt_report_status(&rep, args.fail_on);
	pdt_gate_free(gate);
	pdt_replay_free(&rp);
	free(args.files);
	return rc;
}
