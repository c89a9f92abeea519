// SPDX-License-Identifier: GPL-2.0
/*
 * `pdtrace record -o FILE [-- COMMAND]`: the event path of `check`, every raw
 * event written to FILE as it comes (docs/record-format.md), so `pdtrace report`
 * can make check's report elsewhere, later, or with a newer pdtrace.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "cli.h"
#include "commands.h"
#include "exit_codes.h"
#include "log.h"
#include "mountinfo.h"
#include "recfile.h"
#include "output.h"
#include "session.h"
#include "trace_opts.h"

static const char record_name[] = "record";

static const struct argp_option record_options[] = {
	{ "output", 'o', "FILE", 0, "Write the recording to FILE (required)", 0 },
	{ "duration", 'd', "SECONDS", 0, "Without COMMAND: stop after this long", 0 },
	{},
};

struct record_args {
	const char *output;
	double duration;
	struct pdt_tracker_opts tracker;
	char **command;
};

static error_t parse_record(int key, char *arg, struct argp_state *state)
{
	struct record_args *a = state->input;

	switch (key) {
	case 'o':
		a->output = arg;
		return 0;
	case 'd':
		a->duration = pdt_parse_seconds(record_name, "--duration", arg);
		return 0;
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->tracker;
		return 0;
	case ARGP_KEY_ARG:
		a->command = &state->argv[state->next - 1];
		state->next = state->argc;
		return 0;
	case ARGP_KEY_END:
		if (!a->output)
			pdt_die(PDT_EXIT_ERROR, "%s: no output file given (-o FILE)", record_name);
		if (a->duration > 0 && a->command)
			pdt_die(PDT_EXIT_ERROR, "%s: give either --duration or COMMAND, not both",
				record_name);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp record_argp = {
	record_options,
	parse_record,
	"-o FILE [-- COMMAND [ARGS...]]",
	"Record every event of the persistent-dentry tracker into FILE while COMMAND runs "
	"(without COMMAND: until Ctrl-C, SIGTERM or --duration); 'pdtrace report FILE' "
	"makes the report 'pdtrace check' would have made, on any machine.\v"
	"FILE holds kernel addresses (it is created mode 0600). "
	"Exit status: 0 recorded, 2 could not trace or write FILE, 3 recorded but data "
	"incomplete (lost events, full maps). Findings do not change it: report decides.",
	pdt_trace_children,
	NULL,
	NULL,
};

struct recorder {
	struct pdt_recw w;
	const char *path;
	char **command;
	struct ksyms *ksyms; /* the symbol slice is cut from it; read by loader */
	pthread_t loader;
	bool loading; /* loader started and not joined */
	atomic_bool loaded;
};

static uint64_t now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void on_raw(const void *data, size_t size, void *ctx)
{
	struct recorder *rec = ctx;

	pdt_recw_event(&rec->w, data, size);
}

static void on_new_sb(const struct pdt_sb *sb, const char *mountinfo, size_t len, void *ctx)
{
	struct recorder *rec = ctx;

	(void)sb;
	pdt_recw_mounts(&rec->w, mountinfo, len, true);
}

/*
 * kallsyms takes seconds to read under emulation, and events must not wait for
 * it (their mountpoints are looked up when they are delivered, and an umount
 * may come meanwhile): a thread reads it while they flow.
 */
static void *load_ksyms(void *arg)
{
	struct recorder *rec = arg;

	rec->ksyms = ksyms_load();
	atomic_store(&rec->loaded, true);
	return NULL;
}

static void start_loader(struct recorder *rec)
{
	if (!pthread_create(&rec->loader, NULL, load_ksyms, rec))
		rec->loading = true;
	else
		load_ksyms(rec);
	if (!rec->loading)
		pdt_recw_set_ksyms(&rec->w, rec->ksyms);
}

/* Once the loader is done (or now, if wait), the writer gets its table. */
static void take_ksyms(struct recorder *rec, bool wait)
{
	if (!rec->loading || (!wait && !atomic_load(&rec->loaded)))
		return;
	pthread_join(rec->loader, NULL);
	rec->loading = false;
	pdt_recw_set_ksyms(&rec->w, rec->ksyms);
}

static bool on_tick(void *ctx)
{
	struct recorder *rec = ctx;

	take_ksyms(rec, false);
	pdt_recw_flush(&rec->w);
	return false;
}

static void fill_meta(struct pdt_rec_meta *m, const struct pdt_tracker *t)
{
	struct utsname u;

	memset(m, 0, sizeof(*m));
	snprintf(m->version, sizeof(m->version), "%s", PDT_VERSION);
	snprintf(m->release, sizeof(m->release), "%s", pdt_tracker_release(t));
	if (!uname(&u))
		snprintf(m->machine, sizeof(m->machine), "%s", u.machine);
	m->start_ns = now_ns(CLOCK_REALTIME);
	m->mono_ns = now_ns(CLOCK_MONOTONIC);
	m->event_size = sizeof(struct pdt_event);
	m->full_size = sizeof(struct pdt_event_full);
}

/* What report needs before the first event: who recorded, what is off, the command. */
static int write_head(struct recorder *rec, struct pdt_tracker *t)
{
	const struct pdt_rules *rules = pdt_tracker_rules(t);
	const char *rules_off[PDT_REC_MAX_RULES_OFF];
	size_t i, n = 0, len = 0, nmissing;
	const char *const *missing = pdt_tracker_missing(t, &nmissing);
	struct pdt_rec_meta m;
	char *mounts;

	fill_meta(&m, t);
	for (i = 0; i < pdt_rules_ndisabled(rules) && n < PDT_REC_MAX_RULES_OFF; i++)
		rules_off[n++] = pdt_rules_disabled(rules, i);
	if (pdt_recw_open(&rec->w, rec->w.fd, &m) ||
	    pdt_recw_strings(&rec->w, PDT_REC_RULES_OFF, rules_off, n) ||
	    pdt_recw_strings(&rec->w, PDT_REC_COVERAGE, missing, nmissing))
		return -1;
	for (n = 0; rec->command && rec->command[n]; n++)
		;
	if (rec->command &&
	    pdt_recw_strings(&rec->w, PDT_REC_ARGV, (const char *const *)rec->command, n))
		return -1;
	mounts = mountinfo_read_self(&len);
	pdt_recw_mounts(&rec->w, mounts ? mounts : "", len, false);
	free(mounts);
	return rec->w.err ? -1 : 0;
}

static int on_started(struct pdt_tracker *t, void *ctx, char *err, size_t errlen)
{
	struct recorder *rec = ctx;

	if (write_head(rec, t)) {
		snprintf(err, errlen, "cannot write '%s': %s", rec->path, strerror(rec->w.err));
		return -1;
	}
	/* Attached: our programs are in kallsyms now, and their frames resolve. */
	start_loader(rec);
	if (!rec->command)
		fprintf(stderr, "pdtrace: recording to %s; Ctrl-C to stop\n", rec->path);
	return 0;
}

/*
 * Losses, the command's status, and the symbols as check resolves them (the
 * tracker reads kallsyms when it stops, while our programs are still loaded);
 * then END.
 */
static void finish(struct recorder *rec, struct pdt_tracker *t, int status,
		   unsigned long long *lost, unsigned long long *full)
{
	struct pdt_rec_end e = {};

	take_ksyms(rec, true);
	pdt_tracker_losses(t, lost, full);
	e.stop_ns = now_ns(CLOCK_REALTIME);
	e.lost_events = *lost;
	e.map_full = *full;
	e.exit_status = status;
	pdt_recw_close(&rec->w, pdt_tracker_ksyms(t), &e);
}

/* Fail before tracing: the half-made file is of no use to anyone. */
static void give_up(struct recorder *rec, struct pdt_tracker *t, const char *err)
{
	pdt_tracker_close(t);
	unlink(rec->path);
	pdt_die(PDT_EXIT_ERROR, "%s: %s", record_name, err);
}

/* check's event path, with the recorder on its hooks. */
static void session_opts(struct pdt_session_opts *so, const struct record_args *a,
			 struct recorder *rec)
{
	*so = (struct pdt_session_opts){ .tracker = a->tracker,
					 .command = a->command,
					 .duration = a->duration,
					 .started = on_started,
					 .tick = on_tick,
					 .ctx = rec };
	so->tracker.on_raw = on_raw;
	so->tracker.on_new_sb = on_new_sb;
	so->tracker.raw_ctx = rec;
}

int cmd_record(int argc, char **argv)
{
	struct record_args args = {};
	struct recorder rec = {};
	struct pdt_session_opts so;
	struct pdt_tracker *t = pdt_tracker_new();
	unsigned long long lost, full, malformed;
	char err[300];
	int status;

	pdt_parse_args(&record_argp, record_name, argc, argv, &args);
	rec.w.fd = pdt_create_private(record_name, args.output);
	rec.path = args.output;
	rec.command = args.command;
	session_opts(&so, &args, &rec);
	if (pdt_session_start(t, &so, err, sizeof(err)) ||
	    pdt_session_run(t, &so, &status, err, sizeof(err)))
		give_up(&rec, t, err);
	finish(&rec, t, status, &lost, &full);
	malformed = pdt_rules_malformed(pdt_tracker_rules(t));
	pdt_tracker_close(t);
	ksyms_free(rec.ksyms);
	if (rec.w.err || close(rec.w.fd))
		pdt_die(PDT_EXIT_ERROR, "%s: error writing '%s' at byte %llu: %s", record_name,
			args.output, (unsigned long long)rec.w.offset,
			strerror(rec.w.err ? rec.w.err : errno));
	fprintf(stderr, "pdtrace: recorded %llu events (%llu bytes) to %s\n",
		(unsigned long long)rec.w.nevents, (unsigned long long)rec.w.offset, args.output);
	pdt_recw_free(&rec.w);
	return lost || full || malformed ? PDT_EXIT_INCOMPLETE : PDT_EXIT_OK;
}
