// SPDX-License-Identifier: GPL-2.0
/*
 * `pdtrace stat`: count d_make_persistent()/d_make_discardable() per superblock
 * while COMMAND runs (or for --duration, or until Ctrl-C), like `perf stat -a`.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/sysmacros.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "child.h"
#include "cli.h"
#include "stop.h"
#include "text.h"
#include "report.h"
#include "commands.h"
#include "exit_codes.h"
#include "json.h"
#include "log.h"
#include "pdtrace.h"
#include "kernel_facts.h"
#include "tracker.h"
#include "stat.skel.h"

static const char stat_name[] = "stat";

static const struct argp_option stat_options[] = {
	{ "duration", 'd', "SECONDS", 0, "Count for this long (without COMMAND)", 0 },
	{ "format", 'f', "FORMAT", 0, "text (default) or json", 0 },
	{ "json", 'j', NULL, 0, "Same as -f json", 0 },
	{ "pretty", 'p', NULL, 0, "JSON, indented for people to read", 0 },
	{},
};

struct stat_args {
	double duration;
	enum pdt_format format;
	char **command; /* NULL-terminated, or NULL */
};

static error_t parse_stat(int key, char *arg, struct argp_state *state)
{
	struct stat_args *a = state->input;

	switch (key) {
	case 'd':
		a->duration = pdt_parse_seconds(stat_name, "--duration", arg);
		return 0;
	case 'f':
		pdt_parse_text_json(stat_name, arg, &a->format);
		return 0;
	case 'j':
	case 'p':
		pdt_format_json(&a->format, key == 'p');
		return 0;
	case ARGP_KEY_ARG:
		/* The rest is COMMAND with its own options: stop parsing here. */
		a->command = &state->argv[state->next - 1];
		state->next = state->argc;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp stat_argp = {
	stat_options,
	parse_stat,
	"[-- COMMAND [ARGS...]]",
	"Count d_make_persistent() and d_make_discardable() calls per superblock, system-wide, "
	"while COMMAND runs, for --duration, or until Ctrl-C.\v"
	"Exit status: COMMAND's (as perf stat does: stat wraps a command and counts, it judges "
	"nothing), or 2 when pdtrace cannot trace, 3 when counts are incomplete.",
	NULL,
	NULL,
	NULL,
};

/* The counters are in the kernel: nothing to poll between two looks at the clock. */
static bool nap(void *ctx)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 100 * 1000 * 1000 };

	(void)ctx;
	nanosleep(&ts, NULL);
	return false;
}

struct sb_row {
	unsigned int dev;
	struct pdt_sb_stat st;
};

static int cmp_rows(const void *a, const void *b)
{
	const struct sb_row *x = a, *y = b;
	int c = strcmp(x->st.fs_type, y->st.fs_type);

	return c ? c : (x->dev > y->dev) - (x->dev < y->dev);
}

/*
 * -f json: one object, the table's rows under "superblocks" with the table's names, and
 * the calls on superblocks beyond the table (incomplete when not 0).
 */
static void print_json(const struct sb_row *rows, int n, unsigned long long beyond)
{
	struct pdt_json j;
	int i;

	pdt_json_init(&j, stdout);
	pdt_json_obj_open(&j);
	pdt_json_name(&j, "superblocks");
	pdt_json_arr_open(&j);
	for (i = 0; i < n; i++) {
		char dev[24], fs[PDT_FSTYPE_LEN + 1], sid[PDT_SID_LEN + 1];

		snprintf(fs, sizeof(fs), "%.*s", PDT_FSTYPE_LEN, rows[i].st.fs_type);
		snprintf(sid, sizeof(sid), "%.*s", PDT_SID_LEN, rows[i].st.s_id);
		pdt_format_dev(rows[i].dev, dev, sizeof(dev));
		pdt_json_obj_open(&j);
		pdt_json_kv_str(&j, "fs_type", fs);
		pdt_json_kv_str(&j, "dev", dev);
		pdt_json_kv_str(&j, "s_id", sid);
		pdt_json_kv_uint(&j, "persisted", rows[i].st.made);
		pdt_json_kv_uint(&j, "discarded", rows[i].st.discarded);
		pdt_json_obj_close(&j);
	}
	pdt_json_arr_close(&j);
	pdt_json_kv_uint(&j, "calls_beyond_table", beyond);
	pdt_json_kv_bool(&j, "complete", !beyond);
	pdt_json_obj_close(&j);
	putchar('\n');
}

static int print_stats(struct stat_bpf *skel, enum pdt_format format, unsigned long long beyond)
{
	int fd = bpf_map__fd(skel->maps.sb_stats), n = 0, i;
	static struct sb_row rows[PDT_MAX_SB];
	unsigned int key, *prev = NULL;

	while (n < PDT_MAX_SB && !bpf_map_get_next_key(fd, prev, &key)) {
		if (!bpf_map_lookup_elem(fd, &key, &rows[n].st))
			rows[n++].dev = key;
		prev = &key;
	}
	qsort(rows, n, sizeof(rows[0]), cmp_rows);
	if (format == PDT_FMT_JSON) {
		print_json(rows, n, beyond);
		return n;
	}
	printf("%-16s %-9s %-20s %10s %10s\n", "FSTYPE", "DEV", "S_ID", "PERSISTED", "DISCARDED");
	for (i = 0; i < n; i++) {
		char dev[24], fs[4 * PDT_FSTYPE_LEN + 1], sid[4 * PDT_SID_LEN + 1];
		char raw_fs[PDT_FSTYPE_LEN + 1], raw_sid[PDT_SID_LEN + 1];

		/* The kernel's strings, not necessarily terminated; escaped (text.h). */
		snprintf(raw_fs, sizeof(raw_fs), "%.*s", PDT_FSTYPE_LEN, rows[i].st.fs_type);
		snprintf(raw_sid, sizeof(raw_sid), "%.*s", PDT_SID_LEN, rows[i].st.s_id);
		pdt_format_dev(rows[i].dev, dev, sizeof(dev));
		printf("%-16s %-9s %-20s %10llu %10llu\n", pdt_text_esc(fs, sizeof(fs), raw_fs),
		       dev, pdt_text_esc(sid, sizeof(sid), raw_sid), rows[i].st.made,
		       rows[i].st.discarded);
	}
	return n;
}

static int run_workload(const struct stat_args *a)
{
	pid_t pid;
	int err;

	if (!a->command) {
		pdt_wait_stopped(a->duration, nap, NULL);
		return PDT_EXIT_OK;
	}
	err = pdt_spawn(a->command, &pid);
	if (err)
		pdt_die(PDT_EXIT_ERROR, "%s: cannot run '%s': %s", stat_name, a->command[0],
			strerror(-err));
	return pdt_run_child(pid, nap, NULL); /* the child policy of every command */
}

int cmd_stat(int argc, char **argv)
{
	struct stat_args args = {};
	struct pdt_facts facts;
	struct stat_bpf *skel;
	char why[300];
	unsigned long long full;
	int status, err;

	pdt_parse_args(&stat_argp, stat_name, argc, argv, &args);
	if (args.command && args.duration > 0)
		pdt_die(PDT_EXIT_ERROR, "%s: give either --duration or COMMAND, not both",
			stat_name);
	if (pdt_check_kernel(&facts, why, sizeof(why)))
		pdt_die(PDT_EXIT_ERROR, "%s: %s", stat_name, why);
	skel = stat_bpf__open_and_load();
	if (!skel)
		pdt_die(PDT_EXIT_ERROR,
			"%s: cannot load the BPF programs: %s (run 'pdtrace doctor')", stat_name,
			strerror(errno));
	err = stat_bpf__attach(skel);
	if (err) {
		stat_bpf__destroy(skel);
		pdt_die(PDT_EXIT_ERROR, "%s: cannot attach: %s (run 'pdtrace doctor')", stat_name,
			strerror(-err));
	}
	status = run_workload(&args);
	stat_bpf__detach(skel);
	full = pdt_percpu_sum(bpf_map__fd(skel->maps.counters), PDT_CNT_SB_FULL);
	print_stats(skel, args.format, full);
	if (full) {
		fprintf(
		    stderr,
		    "pdtrace: stat: incomplete: %llu calls on superblocks beyond the %d counted\n",
		    full, PDT_MAX_SB);
		status = PDT_EXIT_INCOMPLETE;
	}
	stat_bpf__destroy(skel);
	return status;
}
