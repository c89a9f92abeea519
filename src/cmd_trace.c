// SPDX-License-Identifier: GPL-2.0
/*
 * `pdtrace trace`: the tracking of `check`, streaming findings as they happen
 * (and every lifecycle event with --events) until Ctrl-C or --duration; summary at exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "commands.h"
#include "event_names.h"
#include "exit_codes.h"
#include "gate_opts.h"
#include "json.h"
#include "log.h"
#include "modtab.h"
#include "output.h"
#include "report.h"
#include "trace_opts.h"
#include "session.h"
#include "stop.h"
#include "text.h"
#include "tracker.h"

static const char trace_name[] = "trace";

enum { OPT_SHOW_ADDRESSES = 0x200 };

static const struct argp_option trace_options[] = {
	{ "format", 'f', "FORMAT", 0, "text (default) or json (one object per line)", 0 },
	{ "json", 'j', NULL, 0, "Same as -f json", 0 },
	{ "pretty", 'p', NULL, 0, "JSON, each object indented over several lines", 0 },
	{ "duration", 'd', "SECONDS", 0, "Stop after this long (default: until Ctrl-C)", 0 },
	{ "events", 'e', NULL, 0,
	  "Also print every event the tracker sees (persist, discard, unpin, rename, removal, "
	  "umount, module load and free), one line each",
	  0 },
	{ "show-addresses", OPT_SHOW_ADDRESSES, NULL, 0, "Print kernel addresses in stacks", 0 },
	{ "output", 'o', "FILE", 0, "Write to FILE instead of stdout (reopened on SIGHUP)", 0 },
	{},
};

struct trace_args {
	enum pdt_format format;
	double duration;
	bool events;
	bool show_addresses;
	const char *output;
	struct pdt_tracker_opts tracker;
	struct pdt_gate_opts gate;
};

struct trace_ctx {
	struct trace_args *args; /* its baseline marks what the stream has seen */
	struct ksyms *ksyms;
	unsigned long long nevents;
	const struct pdt_rules *rules; /* the books, before they see the event */
	struct pdt_rules *books;       /* the same, to fold what went (trace_tick()) */
	size_t nmodsyms;	       /* module ranges named in ksyms so far */
	unsigned int ksyms_epoch;      /* the module epoch kallsyms was read in */
};

static error_t parse_trace(int key, char *arg, struct argp_state *state)
{
	struct trace_args *a = state->input;

	switch (key) {
	case 'f':
		pdt_parse_text_json(trace_name, arg, &a->format);
		return 0;
	case 'd':
		a->duration = pdt_parse_seconds(trace_name, "--duration", arg);
		return 0;
	case 'j':
	case 'p':
		pdt_format_json(&a->format, key == 'p');
		return 0;
	case 'e':
		a->events = true;
		return 0;
	case OPT_SHOW_ADDRESSES:
		a->show_addresses = true;
		return 0;
	case 'o':
		a->output = arg;
		return 0;
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->tracker;
		state->child_inputs[1] = &a->gate;
		return 0;
	case ARGP_KEY_ARG:
		pdt_unexpected_arg(trace_name, arg);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp_child trace_children[] = {
	{ &pdt_trace_argp, 0, "Tracing options:", 0 },
	{ &pdt_gate_argp, 0, "Gate options:", 0 },
	{},
};

static const struct argp trace_argp = {
	trace_options,
	parse_trace,
	NULL,
	"Trace persistent dentries system-wide and print findings as they happen, until "
	"Ctrl-C or --duration; a summary at exit.\v"
	"Exit status: 0 no findings, 1 findings (suppressed and known ones do not count), 2 "
	"pdtrace could not trace, 3 data incomplete.",
	trace_children,
	NULL,
	NULL,
};

/*
 * --events prints the lifecycle of entries: not the self-check's walk, nor the counts of
 * elided entries (user space's own events, the books' input).
 */
static bool lifecycle_event(unsigned int type)
{
	return pdt_event_name(type) && type != PDT_EV_WALK && type != PDT_EV_WALK_ENTRY &&
	       type != PDT_EV_ELIDED;
}

/* --events: a module's load or free, by name. */
static void print_module(const struct pdt_module_event *e, enum pdt_format format)
{
	char name[PDT_MODNAME_LEN + 1], comm[PDT_COMM_LEN + 1];

	snprintf(name, sizeof(name), "%.*s", PDT_MODNAME_LEN, e->name);
	snprintf(comm, sizeof(comm), "%.*s", PDT_COMM_LEN, e->h.comm);
	if (format == PDT_FMT_JSON) {
		struct pdt_json j;

		pdt_json_init(&j, stdout);
		pdt_json_obj_open(&j);
		pdt_json_kv_str(&j, "event", pdt_event_name(e->h.type));
		pdt_json_kv_str(&j, "module", name);
		pdt_json_kv_uint(&j, "pid", e->h.pid);
		pdt_json_kv_str(&j, "comm", comm);
		pdt_json_obj_close(&j);
		putchar('\n');
	} else {
		char ne[4 * sizeof(name)], ce[4 * sizeof(comm)];

		printf("%-11s %s pid=%u comm=%s\n", pdt_event_name(e->h.type),
		       pdt_text_esc(ne, sizeof(ne), name), e->h.pid,
		       pdt_text_esc(ce, sizeof(ce), comm));
	}
}

/* --events: one line per lifecycle event, never an address. */
static void print_event(const void *data, size_t size, void *ctx)
{
	const struct pdt_event_full *e = data;
	struct trace_ctx *tc = ctx;
	bool full = size >= sizeof(*e) && e->h.size == sizeof(*e);
	bool named;
	enum pdt_origin origin;
	const char *fs_type;
	char dev[24], path[PDT_FINDING_PATH_LEN], comm[PDT_COMM_LEN + 1];

	tc->nevents++;
	if (size < sizeof(e->h) || !lifecycle_event(e->h.type))
		return;
	if (e->h.type == PDT_EV_MODULE_LOAD || e->h.type == PDT_EV_MODULE_FREE) {
		if (size == sizeof(struct pdt_module_event))
			print_module(data, tc->args->format);
		return;
	}
	/* A discard's header alone (brief) names its entry too: from the books. */
	named = full || e->h.type == PDT_EV_DISCARD;
	pdt_format_dev(e->h.dev, dev, sizeof(dev));
	snprintf(comm, sizeof(comm), "%.*s", PDT_COMM_LEN, e->h.comm);
	/*
	 * The BPF side sends a superblock's names with its first event and keeps no origin
	 * but at the persist: the books have both.
	 */
	fs_type = full && e->fs_type[0] ? e->fs_type : pdt_rules_fs_type(tc->rules, e->h.sb);
	/* A plain discard comes without its path, a deep one cut short: the books have it. */
	if (full && e->path[0])
		pdt_rules_event_path(tc->rules, e, path, sizeof(path));
	else
		pdt_rules_path(tc->rules, e->h.dentry, path, sizeof(path));
	origin = e->h.type == PDT_EV_PERSIST ? (enum pdt_origin)e->h.origin
					     : pdt_rules_origin(tc->rules, e->h.dentry);
	if (tc->args->format == PDT_FMT_JSON) {
		struct pdt_json j;

		pdt_json_init(&j, stdout);
		pdt_json_obj_open(&j);
		pdt_json_kv_str(&j, "event", pdt_event_name(e->h.type));
		pdt_json_kv_str(&j, "dev", dev);
		pdt_json_kv_uint(&j, "pid", e->h.pid);
		pdt_json_kv_int(&j, "refcount", e->h.refcount);
		pdt_json_kv_str(&j, "origin", pdt_origin_name(origin));
		if (named) {
			pdt_json_kv_str(&j, "fs_type", fs_type);
			pdt_json_kv_str(&j, "path", path);
		}
		pdt_json_kv_str(&j, "comm", comm);
		pdt_json_obj_close(&j);
		putchar('\n');
	} else {
		char fs[4 * PDT_FSTYPE_LEN], pe[4 * PDT_FINDING_PATH_LEN], ce[4 * PDT_COMM_LEN];

		printf("%-8s %-8s %-12s %-32s origin=%s count=%d pid=%u comm=%s\n",
		       pdt_event_name(e->h.type), dev,
		       named && fs_type[0] ? pdt_text_esc(fs, sizeof(fs), fs_type) : "-",
		       named && path[0] ? pdt_text_esc(pe, sizeof(pe), path) : "-",
		       pdt_origin_name(origin), e->h.refcount, e->h.pid,
		       pdt_text_esc(ce, sizeof(ce), comm));
	}
}

/*
 * A finding as it happens: in full when it fails the gate, in one line when an entry of
 * --suppressions or the --baseline lets it pass (the summary's counts come from the
 * judgement of the kept findings at the end).
 */
static void print_finding(const struct pdt_finding *f, void *ctx)
{
	struct trace_ctx *tc = ctx;
	struct pdt_gate_opts *g = &tc->args->gate;
	const struct modtab *mods = pdt_rules_modtab(tc->rules);
	const char *entry;
	bool known;
	long e;

	/* Read again when modules came or went since: their symbols are this moment's. */
	if (!tc->ksyms || tc->ksyms_epoch != modtab_epoch(mods)) {
		ksyms_free(tc->ksyms);
		tc->ksyms = ksyms_load();
		tc->ksyms_epoch = modtab_epoch(mods);
		tc->nmodsyms = 0;
		ksyms_set_modules(tc->ksyms, mods);
	}
	modtab_ksyms(mods, tc->ksyms, &tc->nmodsyms);
	e = pdt_supp_find(g->supp, f, tc->ksyms);
	entry = e >= 0 ? pdt_supp_name(g->supp, (size_t)e) : NULL;
	known = pdt_baseline_knows(g->base, f, tc->ksyms) && !entry;
	if (tc->args->format == PDT_FMT_JSON) {
		struct pdt_json j;

		pdt_json_init(&j, stdout);
		pdt_finding_json_fate(&j, f, tc->ksyms, tc->args->show_addresses, entry, known);
		putchar('\n');
	} else if (entry || known) {
		pdt_finding_brief(stdout, f, tc->ksyms, entry);
	} else {
		pdt_finding_text(stdout, f, tc->ksyms, tc->args->show_addresses);
		if (g->gen_suppressions)
			pdt_supp_gen(stdout, f, tc->ksyms);
		putchar('\n');
	}
	fflush(stdout);
}

static volatile sig_atomic_t reopen;

static void on_hup(int sig)
{
	(void)sig;
	reopen = 1;
}

/*
 * -o FILE: stdout is FILE, so every line goes there. On SIGHUP (logrotate moved it
 * away) what is buffered goes to the old file and FILE is opened again, appended to.
 */
static void open_output(const char *path, bool again)
{
	int fd = again ? open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0644)
		       : pdt_create_file(trace_name, path, 0644);

	if (fd < 0) {
		fprintf(stderr, "pdtrace: %s: cannot reopen '%s': %s; still writing the old one\n",
			trace_name, path, strerror(errno));
		return;
	}
	fflush(stdout);
	if (dup2(fd, STDOUT_FILENO) < 0)
		pdt_die(PDT_EXIT_ERROR, "%s: cannot write '%s': %s", trace_name, path,
			strerror(errno));
	close(fd);
}

/*
 * After each poll: reopen -o's file when asked; fold the superblocks gone clean into the
 * summary's one line but the last PDT_RULES_KEEP_GONE: a trace of weeks keeps what is
 * live or reported.
 */
static bool trace_tick(void *ctx)
{
	struct trace_ctx *tc = ctx;

	if (reopen && tc->args->output) {
		reopen = 0;
		open_output(tc->args->output, true);
	}
	pdt_rules_retire(tc->books, PDT_RULES_KEEP_GONE);
	return false;
}

/* Attached: say so, the way every tracking command does before its run. */
static int on_started(struct pdt_tracker *t, void *ctx, char *err, size_t errlen)
{
	struct trace_ctx *tc = ctx;

	(void)err;
	(void)errlen;
	pdt_rules_on_finding(pdt_tracker_rules(t), print_finding, tc);
	tc->rules = pdt_tracker_rules(t);
	tc->books = pdt_tracker_rules(t);
	fprintf(stderr, "pdtrace: tracing persistent dentries; Ctrl-C to stop\n");
	return 0;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_args args = {};
	struct trace_ctx tc = { .args = &args };
	struct pdt_session_opts so = {};
	struct pdt_report rep = {};
	struct pdt_tracker *t = pdt_tracker_new();
	struct pdt_gate *gate;
	char err[300];
	int status;

	pdt_parse_args(&trace_argp, trace_name, argc, argv, &args);
	if (args.output && strcmp(args.output, "-")) {
		struct sigaction sa = { .sa_handler = on_hup };

		open_output(args.output, false);
		sigaction(SIGHUP, &sa, NULL);
	} else {
		args.output = NULL;
	}
	if (args.events) {
		args.tracker.every_event = true; /* an elided entry would print no line */
		args.tracker.on_raw = print_event;
		args.tracker.raw_ctx = &tc;
	}
	so.tracker = args.tracker;
	so.duration = args.duration;
	so.started = on_started;
	so.tick = trace_tick;
	so.ctx = &tc;
	if (pdt_session_start(t, &so, err, sizeof(err)) ||
	    pdt_session_run(t, &so, &status, err, sizeof(err))) {
		pdt_tracker_close(t);
		pdt_die(PDT_EXIT_ERROR, "%s: %s", trace_name, err);
	}

	rep.exit_status = -1;
	pdt_fill_report(&rep, t, args.show_addresses);
	gate = pdt_gate_opts_apply(&args.gate, trace_name, &rep);
	if (args.format == PDT_FMT_JSON) {
		struct pdt_json j;

		pdt_json_init(&j, stdout);
		pdt_json_obj_open(&j);
		pdt_json_summary(&j, pdt_tracker_rules(t));
		pdt_json_kv_bool(&j, "complete", rep.complete);
		pdt_json_kv_uint(&j, "lost_events", rep.lost_events);
		/* What the text summary's coverage lines say: the rules a missing hook lost. */
		pdt_json_name(&j, "coverage_lost");
		pdt_json_arr_open(&j);
		for (size_t i = 0; i < rep.nmissing; i++)
			pdt_json_string(&j, rep.missing[i]);
		pdt_json_arr_close(&j);
		pdt_json_kv_uint(&j, "suppressed", pdt_gate_count(gate, PDT_FATE_SUPPRESSED));
		pdt_json_kv_uint(&j, "known", pdt_gate_count(gate, PDT_FATE_KNOWN));
		pdt_json_obj_close(&j);
		putchar('\n');
	} else {
		struct pdt_report sum = rep;

		/* The findings were streamed already: the summary is the table and counts. */
		sum.ksyms = NULL;
		pdt_report_summary(stdout, &sum);
	}
	status = pdt_report_status(&rep, pdt_fail_on_all);
	if (args.output && (fflush(stdout) || ferror(stdout)))
		pdt_die(PDT_EXIT_ERROR, "%s: error writing '%s'", trace_name,
			args.output ? args.output : "stdout");
	pdt_gate_free(gate);
	ksyms_free(tc.ksyms);
	pdt_tracker_close(t);
	return status;
}
