// SPDX-License-Identifier: GPL-2.0
/*
 * `pdtrace watch`: live per-superblock persistent counts, like top or bpftop.
 * A screen refreshed in place on a terminal; one timestamped line per
 * superblock per interval otherwise; one JSON object per interval with -f json;
 * and a Prometheus textfile rewritten atomically with --prometheus.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "cli.h"
#include "commands.h"
#include "exit_codes.h"
#include "log.h"
#include "mountinfo.h"
#include "report.h"
#include "trace_opts.h"
#include "output.h"
#include "session.h"
#include "stop.h"
#include "text.h"
#include "tracker.h"
#include "watch_seed.h"
#include "watch_view.h"

static const char watch_name[] = "watch";

enum { OPT_PROM = 0x200, OPT_SORT, OPT_FS };

static const struct argp_option watch_options[] = {
	{ "interval", 'i', "SECONDS", 0, "Refresh every SECONDS (default 1)", 0 },
	{ "count", 'n', "COUNT", 0, "Stop after COUNT refreshes", 0 },
	{ "fs", OPT_FS, "TYPE,...", 0, "Only these filesystem types", 0 },
	{ "sort", OPT_SORT, "FIELD", 0, "persistent (default), made, discarded, fs or mountpoint",
	  0 },
	{ "format", 'f', "FORMAT", 0,
	  "text (default: a screen on a terminal, lines elsewhere) or json (one object per "
	  "interval)",
	  0 },
	{ "json", 'j', NULL, 0, "Same as -f json", 0 },
	{ "pretty", 'p', NULL, 0, "JSON, each object indented over several lines", 0 },
	{ "prometheus", OPT_PROM, "FILE", 0,
	  "Rewrite FILE each interval (textfile collector); stdout then gets only findings, "
	  "unless it is a terminal or -f is given",
	  0 },
	{},
};

#define MAX_FS 16

struct watch_args {
	double interval;
	long count;
	char *fs_list;
	const char *only[MAX_FS];
	size_t nonly;
	enum watch_sort sort;
	enum pdt_format format;
	bool format_given; /* -f, -j, -p or --json */
	const char *prometheus;
	struct pdt_tracker_opts tracker;
};

/* A superblock's counts as last read from the rules: all a row needs once it is retired. */
struct wsb_counts {
	char fs_type[PDT_FSTYPE_LEN];
	char s_id[PDT_SID_LEN];
	unsigned long long made, discarded, unpinned, findings, adopted;
	long long live;
	bool unmounted;
};

/* One row's identity across intervals: a seeded mount, a traced superblock, or both. */
struct wsb {
	unsigned int dev;
	char fs_type[16];
	long long seed;
	bool seeded;
	long rules_idx;		   /* -1: no event seen yet */
	unsigned long long serial; /* the rules' superblock at rules_idx (its index is reused) */
	struct wsb_counts last;	   /* valid once rules_idx >= 0 */
	unsigned long long prev_made, prev_discarded;
	bool gone, gone_shown;
};

/*
 * Superblocks gone within one interval that get a row of their own; the others are only
 * counted. Mount churn of containers unmounts hundreds a second, and a row for each would
 * make watch's memory follow the churn instead of what is mounted.
 */
#define WATCH_GONE_ROWS 64

struct watch_state {
	struct watch_args *args;
	struct pdt_tracker *t;
	struct wsb *sbs;
	size_t nsbs, cap;
	struct watch_row *rows; /* one per wsb, reused from interval to interval */
	size_t rows_cap;
	unsigned long long serial_seen;	 /* rules superblocks up to this serial have a row */
	unsigned long long gone_unshown; /* gone without a row of their own (WATCH_GONE_ROWS) */
	char status[400];
	bool terminal; /* the screen: a terminal that understands ANSI escapes */
	bool quiet;    /* --prometheus to a pipe or file: only findings on stdout */
	struct timespec start;
	struct timespec last; /* the last render */
	long done;	      /* renders since the first */
};

static volatile sig_atomic_t resized;

static void on_winch(int sig)
{
	(void)sig;
	resized = 1;
}

static void split_fs(struct watch_args *a)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(a->fs_list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!watch_is_tree_in_dcache(tok))
			pdt_die(PDT_EXIT_ERROR, "%s: --fs: '%s' is not a tree-in-dcache filesystem",
				watch_name, tok);
		if (a->nonly == MAX_FS)
			pdt_die(PDT_EXIT_ERROR, "%s: --fs: at most %d types", watch_name, MAX_FS);
		a->only[a->nonly++] = tok;
	}
	if (!a->nonly)
		pdt_die(PDT_EXIT_ERROR, "%s: --fs needs at least one type", watch_name);
}

static error_t parse_watch(int key, char *arg, struct argp_state *state)
{
	struct watch_args *a = state->input;
	char *end;

	switch (key) {
	case 'i':
		a->interval = pdt_parse_seconds(watch_name, "--interval", arg);
		if (a->interval < 0.1)
			pdt_die(PDT_EXIT_ERROR, "%s: --interval must be at least 0.1", watch_name);
		return 0;
	case 'n':
		errno = 0;
		a->count = strtol(arg, &end, 10);
		if (errno || end == arg || *end || a->count <= 0)
			pdt_die(PDT_EXIT_ERROR, "%s: --count expects a positive number, got '%s'",
				watch_name, arg);
		return 0;
	case OPT_FS:
		a->fs_list = arg;
		split_fs(a);
		return 0;
	case OPT_SORT:
		if (watch_parse_sort(arg, &a->sort))
			pdt_die(PDT_EXIT_ERROR,
				"%s: unknown sort field '%s' (persistent, made, discarded, fs, "
				"mountpoint)",
				watch_name, arg);
		return 0;
	case 'f':
		pdt_parse_text_json(watch_name, arg, &a->format);
		a->format_given = true;
		return 0;
	case 'j':
	case 'p':
		pdt_format_json(&a->format, key == 'p');
		a->format_given = true;
		return 0;
	case OPT_PROM:
		a->prometheus = arg;
		return 0;
	case ARGP_KEY_INIT:
		state->child_inputs[0] = &a->tracker;
		return 0;
	case ARGP_KEY_ARG:
		pdt_unexpected_arg(watch_name, arg);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp watch_argp = {
	watch_options,
	parse_watch,
	NULL,
	"Show live per-superblock persistent dentry counts, refreshed every interval.\v"
	"Rows marked * were seeded by walking the tree at start-up. On a terminal, q or Ctrl-C "
	"quits. Exit status: 0, 1 if findings were made, 2 cannot trace, 3 data incomplete.",
	pdt_trace_children,
	NULL,
	NULL,
};

static bool fs_wanted(const struct watch_args *a, const char *fstype)
{
	size_t i;

	for (i = 0; i < a->nonly; i++)
		if (!strcmp(a->only[i], fstype))
			return true;
	return a->nonly == 0;
}

static struct wsb *add_wsb(struct watch_state *w, unsigned int dev, const char *fstype)
{
	struct wsb *s;

	if (w->nsbs == w->cap) {
		size_t ncap = w->cap ? w->cap * 2 : 32;

		s = realloc(w->sbs, ncap * sizeof(*s));
		if (!s)
			pdt_die(PDT_EXIT_ERROR, "%s: out of memory", watch_name);
		w->sbs = s;
		w->cap = ncap;
	}
	s = &w->sbs[w->nsbs++];
	memset(s, 0, sizeof(*s));
	s->dev = dev;
	s->rules_idx = -1;
	snprintf(s->fs_type, sizeof(s->fs_type), "%s", fstype);
	return s;
}

static void seed(struct watch_state *w)
{
	size_t n = 0, i;
	struct watch_seed *seeds = watch_seed_all(&n, w->args->only, w->args->nonly);

	for (i = 0; i < n; i++) {
		struct wsb *s = add_wsb(w, seeds[i].dev, seeds[i].fs_type);

		s->seed = seeds[i].count;
		s->seeded = true;
	}
	free(seeds);
}

/* Give each superblock the rules engine met since last time a row (its seeded one if any). */
static void match_rules(struct watch_state *w)
{
	const struct pdt_rules *rules = pdt_tracker_rules(w->t);
	size_t i, j, n = pdt_rules_nsbs(rules);
	unsigned long long seen = w->serial_seen;

	for (i = 0; i < n; i++) {
		const struct pdt_sb *sb = pdt_rules_sb(rules, i);
		struct wsb *s = NULL;

		if (!sb || sb->serial <= w->serial_seen)
			continue;
		for (j = 0; j < w->nsbs; j++)
			if (w->sbs[j].dev == sb->dev && w->sbs[j].rules_idx < 0 && !w->sbs[j].gone)
				s = &w->sbs[j];
		if (!s)
			s = add_wsb(w, sb->dev, sb->fs_type);
		s->rules_idx = (long)i;
		s->serial = sb->serial;
		if (sb->serial > seen)
			seen = sb->serial;
	}
	w->serial_seen = seen;
}

/* Copy what the rows show of each traced superblock: the rules may then retire it. */
static void snapshot(struct watch_state *w)
{
	const struct pdt_rules *rules = pdt_tracker_rules(w->t);
	size_t i;

	for (i = 0; i < w->nsbs; i++) {
		struct wsb *s = &w->sbs[i];
		const struct pdt_sb *sb =
		    s->rules_idx >= 0 ? pdt_rules_sb(rules, s->rules_idx) : NULL;
		struct wsb_counts *c = &s->last;

		if (!sb || sb->serial != s->serial)
			continue;
		snprintf(c->fs_type, sizeof(c->fs_type), "%s", sb->fs_type);
		snprintf(c->s_id, sizeof(c->s_id), "%s", sb->s_id);
		c->made = sb->made;
		c->discarded = sb->discarded;
		c->unpinned = sb->unpinned;
		c->findings = sb->findings;
		c->adopted = sb->adopted;
		c->live = sb->live;
		c->unmounted = sb->unmounted;
	}
}

/* Past WATCH_GONE_ROWS superblocks gone since the last render, the oldest are only counted. */
static void cap_gone(struct watch_state *w)
{
	size_t i, kept = 0, gone = 0, drop;

	for (i = 0; i < w->nsbs; i++)
		gone += w->sbs[i].rules_idx >= 0 && w->sbs[i].last.unmounted;
	if (gone <= WATCH_GONE_ROWS)
		return;
	drop = gone - WATCH_GONE_ROWS;
	for (i = 0; i < w->nsbs; i++) {
		const struct wsb *s = &w->sbs[i];

		if (drop && s->rules_idx >= 0 && s->last.unmounted) {
			drop--;
			/* A row filtered out by --fs is not one a user misses. */
			w->gone_unshown += fs_wanted(w->args, s->last.fs_type);
			continue;
		}
		w->sbs[kept++] = *s;
	}
	w->nsbs = kept;
}

/*
 * After each poll, not only at a render: what the interval's rows need is copied, and the
 * superblocks gone clean are folded as trace and check fold them, so that watch holds
 * what is mounted and no more than a fixed number gone, however fast mounts come and go.
 */
static void collect(struct watch_state *w)
{
	match_rules(w);
	snapshot(w);
	cap_gone(w);
	pdt_rules_retire(pdt_tracker_rules(w->t), PDT_RULES_KEEP_GONE);
}

static void fill_row(struct wsb *s, struct watch_row *r, double dt)
{
	const struct wsb_counts *c = s->rules_idx >= 0 ? &s->last : NULL;

	memset(r, 0, sizeof(*r));
	r->dev = s->dev;
	snprintf(r->fs_type, sizeof(r->fs_type), "%s", c ? c->fs_type : s->fs_type);
	snprintf(r->s_id, sizeof(r->s_id), "%s", c ? c->s_id : s->fs_type);
	r->seeded = s->seeded;
	r->persistent = s->seed;
	if (c) {
		/* Entries from before start-up that were released came out of the seed. */
		r->persistent += c->live - (long long)c->adopted;
		r->made = c->made;
		r->discarded = c->discarded;
		r->unpinned = c->unpinned;
		r->findings = c->findings;
		r->made_rate = (c->made - s->prev_made) / dt;
		r->discarded_rate = (c->discarded - s->prev_discarded) / dt;
		s->prev_made = c->made;
		s->prev_discarded = c->discarded;
		if (c->unmounted)
			s->gone = true;
	}
	r->nmounts =
	    s->gone ? 0 : mountinfo_lookup_self(s->dev, r->mountpoint, sizeof(r->mountpoint));
	/* A seeded superblock unmounted without a traced event just disappears. */
	if (!r->nmounts && !c)
		s->gone = true;
	r->gone = s->gone;
}

/*
 * Build this interval's rows; rows gone last time are dropped now, and forgotten: a
 * watch of weeks keeps rows for what is mounted.
 */
static size_t build_rows(struct watch_state *w, double dt)
{
	size_t i, n = 0, kept = 0;

	collect(w);
	if (w->rows_cap < w->nsbs) {
		struct watch_row *r = realloc(w->rows, w->nsbs * sizeof(*r));

		if (!r)
			pdt_die(PDT_EXIT_ERROR, "%s: out of memory", watch_name);
		w->rows = r;
		w->rows_cap = w->nsbs;
	}
	for (i = 0; i < w->nsbs; i++) {
		struct wsb *s = &w->sbs[i];

		if (s->gone_shown)
			continue;
		w->sbs[kept++] = *s;
		s = &w->sbs[kept - 1];
		if (!fs_wanted(w->args, s->fs_type)) {
			/* Not shown: dropped once its superblock is gone, as if it had been. */
			if (s->rules_idx >= 0 && s->last.unmounted)
				s->gone_shown = true;
			continue;
		}
		fill_row(s, &w->rows[n], dt);
		if (!fs_wanted(w->args, w->rows[n].fs_type))
			continue;
		if (s->gone)
			s->gone_shown = true;
		n++;
	}
	w->nsbs = kept;
	watch_sort_rows(w->rows, n, w->args->sort);
	return n;
}

static void write_prometheus(const char *path, const struct watch_header *h,
			     const struct watch_row *rows, size_t n)
{
	char tmp[4096];
	FILE *fp;
	int fd;

	/* A temporary then rename(): the collector never reads a half-written file. */
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0 || !(fp = fdopen(fd, "w")))
		pdt_die(PDT_EXIT_ERROR, "%s: cannot write '%s': %s", watch_name, path,
			strerror(errno));
	watch_render_prometheus(fp, h, rows, n);
	if (fchmod(fd, 0644) || fclose(fp) || rename(tmp, path)) {
		unlink(tmp);
		pdt_die(PDT_EXIT_ERROR, "%s: cannot write '%s': %s", watch_name, path,
			strerror(errno));
	}
}

static void terminal_size(int *w, int *h)
{
	struct winsize ws;

	*w = 80;
	*h = 24;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col && ws.ws_row) {
		*w = ws.ws_col;
		*h = ws.ws_row;
	}
}

static void render(struct watch_state *w, double dt)
{
	struct watch_header h = {
		pdt_tracker_release(w->t), pdt_since(&w->start), 0, { 0 }, NULL, 0, 0
	};
	struct watch_row *rows;
	size_t n;
	int k, cols, lines;

	n = build_rows(w, dt);
	rows = w->rows;
	h.unlisted = w->gone_unshown;
	pdt_tracker_losses(w->t, &h.lost, &h.map_full);
	for (k = 0; k < PDT_KIND_MAX; k++)
		h.findings[k] = pdt_rules_count(pdt_tracker_rules(w->t), k);
	h.status = w->status[0] ? w->status : NULL;
	if (w->args->format == PDT_FMT_JSON) {
		watch_render_json(stdout, time(NULL), &h, rows, n);
	} else if (w->terminal) {
		terminal_size(&cols, &lines);
		watch_render_screen(stdout, &h, rows, n, cols, lines);
	} else if (!w->quiet) {
		watch_render_lines(stdout, time(NULL), &h, rows, n);
	}
	if (w->args->prometheus)
		write_prometheus(w->args->prometheus, &h, rows, n);
}

/* Findings are never dropped: a status line on the screen, a line of their own elsewhere. */
static void on_finding(const struct pdt_finding *f, void *ctx)
{
	struct watch_state *w = ctx;
	char dev[24], fs[4 * PDT_FSTYPE_LEN], path[4 * PDT_FINDING_PATH_LEN];

	/* The status line goes to a terminal: names escaped (text.h). */
	pdt_format_dev(f->dev, dev, sizeof(dev));
	snprintf(w->status, sizeof(w->status), "finding: %s: %s: %s %s %s", pdt_kind_name(f->kind),
		 f->rule, pdt_text_esc(fs, sizeof(fs), f->fs_type), dev,
		 pdt_text_esc(path, sizeof(path), f->path));
	if (w->args->format == PDT_FMT_JSON) {
		struct pdt_json j;

		pdt_json_init(&j, stdout);
		pdt_json_obj_open(&j);
		pdt_json_name(&j, "finding");
		pdt_finding_json(&j, f, NULL, false);
		pdt_json_obj_close(&j);
		putchar('\n');
	} else if (!w->terminal) {
		printf("%s\n", w->status);
	}
}

static struct termios saved_tio;
static bool tio_saved;

static void restore_terminal(void)
{
	if (tio_saved)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
	fputs("\033[?25h\033[?1049l", stdout);
	fflush(stdout);
}

static void setup_terminal(void)
{
	struct termios raw;

	if (isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &saved_tio)) {
		raw = saved_tio;
		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		tio_saved = !tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	}
	fputs("\033[?1049h\033[?25l\033[2J", stdout); /* alternate screen, no cursor */
	atexit(restore_terminal);
}

static bool quit_key(void)
{
	struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
	char c;

	if (!tio_saved || poll(&p, 1, 0) <= 0)
		return false;
	return read(STDIN_FILENO, &c, 1) == 1 && (c == 'q' || c == 'Q');
}

/*
 * After each poll of the session (every 50 ms): redraw on a resize, render every
 * interval; true to stop (the q key, --count renders done).
 */
static bool tick(void *ctx)
{
	struct watch_state *w = ctx;
	double dt = pdt_since(&w->last);

	if (quit_key())
		return true;
	if (resized && w->terminal) {
		resized = 0;
		fputs("\033[2J", stdout);
		render(w, dt > 0.05 ? dt : w->args->interval);
		clock_gettime(CLOCK_MONOTONIC, &w->last);
		return false;
	}
	if (dt < w->args->interval) {
		collect(w);
		return false;
	}
	render(w, dt);
	clock_gettime(CLOCK_MONOTONIC, &w->last);
	return w->args->count && ++w->done >= w->args->count;
}

/*
 * stdout is a terminal that takes the screen's escapes: TERM unset or "dumb" (Emacs'
 * shell, a serial console) gets lines, as a pipe does.
 */
static bool ansi_terminal(void)
{
	const char *term = getenv("TERM");

	return isatty(STDOUT_FILENO) && term && term[0] && strcmp(term, "dumb");
}

/* Attached: seed the counts, then show them at once. */
static int started(struct pdt_tracker *t, void *ctx, char *err, size_t errlen)
{
	struct sigaction wa = { .sa_handler = on_winch };
	struct watch_state *w = ctx;

	(void)t;
	(void)err;
	(void)errlen;
	pdt_rules_on_finding(pdt_tracker_rules(w->t), on_finding, w);
	/* Attached first, then walked: nothing made meanwhile is missed (it may count twice). */
	seed(w);
	clock_gettime(CLOCK_MONOTONIC, &w->start);
	w->terminal = w->args->format == PDT_FMT_TEXT && ansi_terminal();
	/*
	 * A service writes the metrics to a file; its stdout (the journal) gets the findings
	 * and not a line per superblock every interval. -f asks for the stream as well.
	 */
	w->quiet = w->args->prometheus && !w->args->format_given && !isatty(STDOUT_FILENO);
	sigaction(SIGWINCH, &wa, NULL);
	if (w->terminal)
		setup_terminal();
	render(w, w->args->interval); /* the seeded state at once */
	clock_gettime(CLOCK_MONOTONIC, &w->last);
	return 0;
}

int cmd_watch(int argc, char **argv)
{
	struct watch_args args = { .interval = 1.0, .sort = WATCH_SORT_PERSISTENT };
	struct watch_state w = { .args = &args };
	struct pdt_session_opts so = {};
	struct pdt_report rep = {};
	char err[300];
	int status;

	pdt_parse_args(&watch_argp, watch_name, argc, argv, &args);
	w.t = pdt_tracker_new();
	so.tracker = args.tracker;
	so.started = started;
	so.tick = tick;
	so.poll_ms = 50;
	so.ctx = &w;
	if (pdt_session_start(w.t, &so, err, sizeof(err)) ||
	    pdt_session_run(w.t, &so, &status, err, sizeof(err))) {
		pdt_tracker_close(w.t);
		pdt_die(PDT_EXIT_ERROR, "%s: %s", watch_name, err);
	}
	pdt_fill_report(&rep, w.t, false); /* its completeness: the rule every command uses */
	status = pdt_report_status(&rep, pdt_fail_on_all);
	pdt_tracker_close(w.t);
	free(w.sbs);
	free(w.rows);
	return status;
}
