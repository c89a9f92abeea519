// SPDX-License-Identifier: GPL-2.0
/*
 * KCIDB I/O JSON (KernelCI's common report database, schema v5.3 of kernelci/kcidb-io),
 * what kcidb-submit sends: one checkout and one build standing for the kernel that ran
 * (its release is all pdtrace knows of it), and the tests: complete data, one per
 * superblock, one per finding, one for findings past the list's end. Test paths are
 * the same on every boot (no device numbers), so that KernelCI follows a test from run
 * to run. Every id starts with the origin, "pdtrace", then the run's id: a hash of the
 * kernel release, the machine and the start time, the same for a recording however
 * often it is reported.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "json.h"
#include "report_formats.h"
#include "signature.h"
#include "text.h"

#define KCIDB_ORIGIN "pdtrace"
#define KCIDB_LOG_MAX 16384 /* the schema's maxLength of a log_excerpt */

struct kcidb {
	struct pdt_json j;
	const struct pdt_report *r;
	struct pdt_sb_groups g;			 /* each superblock's findings, read once */
	char run[8 + sizeof(KCIDB_ORIGIN) + 17]; /* "pdtrace:HEX" */
	char start[40];				 /* RFC 3339, UTC; "" if not known */
	char arch[65];				 /* uname -m as the schema allows it, or "" */
	unsigned int ntests;
};

/* FNV-1a, 64 bits: ids need to differ between runs, not to resist anyone. */
static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	return h;
}

/* A path component: [a-zA-Z0-9_-] only (the schema's), anything else as '_'. */
static void path_part(char *out, size_t n, const char *s)
{
	size_t i = 0;

	for (; *s && i + 1 < n; s++) {
		char c = *s;

		out[i++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				   (c >= '0' && c <= '9') || c == '-' || c == '_'
			       ? c
			       : '_';
	}
	out[i] = '\0';
	if (!i && n > 1)
		snprintf(out, n, "_"); /* "/": an empty component is not allowed */
}

static void run_facts(struct kcidb *k)
{
	const struct pdt_report *r = k->r;
	unsigned long long h = 0xcbf29ce484222325ULL;
	const char *m = r->machine ? r->machine : "";
	time_t secs = (time_t)(r->start_ns / 1000000000ULL);
	struct tm tm;
	char num[24];
	size_t i;

	h = fnv(h, r->kernel ? r->kernel : "", strlen(r->kernel ? r->kernel : "") + 1);
	h = fnv(h, m, strlen(m) + 1);
	snprintf(num, sizeof(num), "%llu", r->start_ns);
	h = fnv(h, num, strlen(num));
	snprintf(k->run, sizeof(k->run), KCIDB_ORIGIN ":%016llx", h);
	k->start[0] = '\0';
	if (r->start_ns && gmtime_r(&secs, &tm)) {
		strftime(k->start, sizeof(k->start), "%Y-%m-%dT%H:%M:%S", &tm);
		snprintf(k->start + strlen(k->start), sizeof(k->start) - strlen(k->start),
			 ".%03lluZ", r->start_ns / 1000000ULL % 1000);
	}
	/* x86_64, aarch64: the schema's architecture is [a-z0-9_]*, else left out. */
	snprintf(k->arch, sizeof(k->arch), "%s", m);
	for (i = 0; k->arch[i]; i++)
		if (!((k->arch[i] >= 'a' && k->arch[i] <= 'z') ||
		      (k->arch[i] >= '0' && k->arch[i] <= '9') || k->arch[i] == '_'))
			k->arch[0] = '\0';
}

/* "Linux RELEASE MACHINE": the kernel, as a comment and in misc's kernel_release. */
static void kernel_comment(struct kcidb *k)
{
	char *s = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&s, &len);

	if (!mem)
		return;
	fprintf(mem, "Linux %s%s%s", k->r->kernel ? k->r->kernel : "?",
		k->r->machine && k->r->machine[0] ? " " : "", k->r->machine ? k->r->machine : "");
	fclose(mem);
	pdt_json_kv_str(&k->j, "comment", s);
	free(s);
}

static void kernel_misc(struct kcidb *k)
{
	pdt_json_name(&k->j, "misc");
	pdt_json_obj_open(&k->j);
	pdt_json_kv_str(&k->j, "kernel_release", k->r->kernel ? k->r->kernel : "");
	if (k->r->machine && k->r->machine[0])
		pdt_json_kv_str(&k->j, "machine", k->r->machine);
	pdt_json_kv_str(&k->j, "pdtrace_version", k->r->version);
	pdt_json_obj_close(&k->j);
}

static void checkout_and_build(struct kcidb *k)
{
	struct pdt_json *j = &k->j;

	pdt_json_name(j, "checkouts");
	pdt_json_arr_open(j);
	pdt_json_obj_open(j);
	pdt_json_kv_str(j, "id", k->run);
	pdt_json_kv_str(j, "origin", KCIDB_ORIGIN);
	kernel_comment(k);
	if (k->start[0])
		pdt_json_kv_str(j, "start_time", k->start);
	kernel_misc(k);
	pdt_json_obj_close(j);
	pdt_json_arr_close(j);

	pdt_json_name(j, "builds");
	pdt_json_arr_open(j);
	pdt_json_obj_open(j);
	pdt_json_kv_str(j, "id", k->run);
	pdt_json_kv_str(j, "checkout_id", k->run);
	pdt_json_kv_str(j, "origin", KCIDB_ORIGIN);
	kernel_comment(k);
	if (k->arch[0])
		pdt_json_kv_str(j, "architecture", k->arch);
	kernel_misc(k);
	pdt_json_obj_close(j);
	pdt_json_arr_close(j);
}

/* A test's first members: id, build, origin, path, status, environment, start. */
static void test_open(struct kcidb *k, const char *path, const char *status)
{
	struct pdt_json *j = &k->j;
	char id[sizeof(k->run) + 24];

	snprintf(id, sizeof(id), "%s.%u", k->run, ++k->ntests);
	pdt_json_obj_open(j);
	pdt_json_kv_str(j, "id", id);
	pdt_json_kv_str(j, "build_id", k->run);
	pdt_json_kv_str(j, "origin", KCIDB_ORIGIN);
	pdt_json_kv_str(j, "path", path);
	pdt_json_kv_str(j, "status", status);
	pdt_json_name(j, "environment");
	pdt_json_obj_open(j);
	kernel_comment(k);
	kernel_misc(k);
	pdt_json_obj_close(j);
	if (k->start[0])
		pdt_json_kv_str(j, "start_time", k->start);
}

/* TEXT (LEN bytes) as a log_excerpt, cut to the schema's length. */
static void log_excerpt(struct pdt_json *j, char *text, size_t len)
{
	if (!len)
		return;
	if (len > KCIDB_LOG_MAX)
		text[KCIDB_LOG_MAX] = '\0';
	pdt_json_kv_str(j, "log_excerpt", text);
}

static void test_complete(struct kcidb *k)
{
	const struct pdt_report *r = k->r;
	struct pdt_json *j = &k->j;
	char why[512];

	/* Incomplete data says nothing of the kernel: ERROR, not FAIL. */
	test_open(k, "pdtrace.complete_data", r->complete ? "PASS" : "ERROR");
	if (r->complete)
		snprintf(why, sizeof(why), "complete data");
	else
		pdt_report_incomplete_why(r, why, sizeof(why));
	pdt_json_kv_str(j, "comment", why);
	pdt_json_name(j, "misc");
	pdt_json_obj_open(j);
	pdt_json_kv_uint(j, "lost_events", r->lost_events);
	pdt_json_kv_uint(j, "map_full", r->map_full);
	pdt_json_kv_uint(j, "malformed_events", r->malformed);
	pdt_json_kv_uint(j, "inconsistent_superblocks", pdt_rules_inconsistent(r->rules));
	if (r->recording)
		pdt_json_kv_str(j, "recording", r->recording->file);
	if (r->argv && r->argv[0]) {
		pdt_json_kv_str(j, "command", r->argv[0]);
		if (r->exit_status >= 0)
			pdt_json_kv_int(j, "exit_status", r->exit_status);
	}
	pdt_json_obj_close(j);
	pdt_json_obj_close(j);
}

void pdt_kcidb_sb_path(const struct pdt_report *r, size_t sb_index, char *buf, size_t n)
{
	const struct pdt_sb *sb = pdt_rules_sb(r->rules, sb_index);
	const char *place = sb_index < r->nmounts && r->mounts[sb_index].path[0]
				? r->mounts[sb_index].path + (r->mounts[sb_index].path[0] == '/')
				: sb->s_id;
	char fs[PDT_FSTYPE_LEN], pl[PDT_SB_NAME_LEN];
	unsigned int dup = pdt_report_sb_dup(r, sb_index);
	int len;

	path_part(fs, sizeof(fs), sb->fs_type);
	path_part(pl, sizeof(pl), place);
	len = snprintf(buf, n, "pdtrace.%s.superblock.%s", fs, pl);
	if (dup > 1 && len >= 0 && (size_t)len < n)
		snprintf(buf + len, n - (size_t)len, "-%u", dup);
}

/* "KIND: RULE: PATH (new|suppressed|known)", the path escaped as the text report does. */
static void sb_finding_line(FILE *fp, const struct pdt_report *r, size_t i)
{
	const struct pdt_finding *f = pdt_rules_finding(r->rules, i);
	enum pdt_fate fate = pdt_gate_fate(r->gate, i);
	char path[4 * PDT_FINDING_PATH_LEN];

	fprintf(fp, "%s: %s: %s (%s)\n", pdt_kind_name(f->kind), f->rule,
		f->path[0] ? pdt_text_esc(path, sizeof(path), f->path) : "?",
		fate == PDT_FATE_NEW	      ? "new"
		: fate == PDT_FATE_SUPPRESSED ? "suppressed"
					      : "known");
}

static void test_superblock(struct kcidb *k, size_t i)
{
	const struct pdt_report *r = k->r;
	const struct pdt_sb *sb = pdt_rules_sb(r->rules, i);
	const struct pdt_mount *m = i < r->nmounts ? &r->mounts[i] : NULL;
	struct pdt_json *j = &k->j;
	char path[PDT_SB_NAME_LEN + 64], name[PDT_SB_NAME_LEN], *log = NULL;
	size_t f, nf = pdt_sb_groups_count(&k->g, i), len = 0;
	FILE *mem;

	pdt_kcidb_sb_path(r, i, path, sizeof(path));
	pdt_report_sb_name(r, i, name, sizeof(name));
	test_open(k, path, pdt_report_sb_findings(r, &k->g, i) ? "FAIL" : "PASS");
	pdt_json_kv_str(j, "comment", name);
	/* Its findings in one line each, as the text report lists passed ones. */
	if ((mem = open_memstream(&log, &len))) {
		for (f = 0; f < nf; f++) {
			size_t at = pdt_sb_groups_at(&k->g, i, f);

			if (pdt_rules_finding(r->rules, at)->sb_index == i)
				sb_finding_line(mem, r, at);
		}
		fclose(mem);
		log_excerpt(j, log, len);
		free(log);
	}
	pdt_json_name(j, "misc");
	pdt_json_obj_open(j);
	pdt_json_kv_str(j, "name", name);
	pdt_json_kv_str(j, "fs_type", sb->fs_type);
	pdt_json_kv_str(j, "s_id", sb->s_id);
	if (m && m->path[0]) /* the schema allows no null anywhere */
		pdt_json_kv_str(j, "mountpoint", m->path);
	pdt_json_kv_uint(j, "made", sb->made);
	pdt_json_kv_uint(j, "discarded", sb->discarded);
	pdt_json_kv_uint(j, "unpinned_at_umount", sb->unpinned);
	pdt_json_kv_int(j, "persistent_now", sb->live);
	pdt_json_kv_uint(j, "findings", sb->findings);
	pdt_json_obj_close(j);
	pdt_json_obj_close(j);
}

static void test_finding(struct kcidb *k, size_t i)
{
	const struct pdt_report *r = k->r;
	const struct pdt_finding *f = pdt_rules_finding(r->rules, i);
	enum pdt_fate fate = pdt_gate_fate(r->gate, i);
	long e = pdt_gate_entry(r->gate, i);
	struct pdt_json *j = &k->j;
	char fs[PDT_FSTYPE_LEN], path[PDT_FSTYPE_LEN + 96], name[PDT_SB_NAME_LEN], *s = NULL;
	struct pdt_sig *sig = malloc(sizeof(*sig));
	size_t len = 0;
	FILE *mem;

	path_part(fs, sizeof(fs), f->fs_type);
	snprintf(path, sizeof(path), "pdtrace.%s.%s.%s", fs, pdt_kind_name(f->kind), f->rule);
	pdt_report_sb_name(r, f->sb_index, name, sizeof(name));
	/* One the gate lets pass reports no verdict on the kernel: DONE, not PASS. */
	test_open(k, path, fate == PDT_FATE_NEW ? "FAIL" : "DONE");
	if ((mem = open_memstream(&s, &len))) {
		fprintf(mem, "%s: %s: %s: %s", pdt_kind_name(f->kind), f->rule, name,
			f->path[0] ? f->path : "?");
		fclose(mem);
		pdt_json_kv_str(j, "comment", s);
		free(s);
		s = NULL;
	}
	if ((mem = open_memstream(&s, &len))) {
		pdt_report_finding(mem, r, i);
		fclose(mem);
		log_excerpt(j, s, len);
		free(s);
	}
	pdt_json_name(j, "misc");
	pdt_json_obj_open(j);
	pdt_json_kv_str(j, "superblock", name);
	pdt_json_kv_str(j, "path", f->path);
	pdt_json_kv_str(j, "fate",
			fate == PDT_FATE_NEW	      ? "new"
			: fate == PDT_FATE_SUPPRESSED ? "suppressed"
						      : "known");
	if (e >= 0)
		pdt_json_kv_str(j, "suppressed_by", pdt_supp_name(pdt_gate_supp(r->gate), e));
	if (sig) {
		pdt_sig_make(sig, f, r->ksyms);
		pdt_json_kv_str(j, "signature", sig->hex);
		pdt_json_kv_str(j, "signature_key", sig->key);
	}
	if (f->module[0])
		pdt_json_kv_str(j, "module", f->module);
	pdt_json_obj_close(j);
	pdt_json_obj_close(j);
	free(sig);
}

void pdt_kcidb_report(FILE *fp, const struct pdt_report *r)
{
	struct kcidb *k = calloc(1, sizeof(*k));
	size_t i;

	if (!k)
		return;
	k->r = r;
	pdt_sb_groups_init(&k->g, r);
	run_facts(k);
	pdt_json_init(&k->j, fp);
	pdt_json_obj_open(&k->j);
	pdt_json_name(&k->j, "version");
	pdt_json_obj_open(&k->j);
	pdt_json_kv_uint(&k->j, "major", 5);
	pdt_json_kv_uint(&k->j, "minor", 3);
	pdt_json_obj_close(&k->j);
	checkout_and_build(k);
	pdt_json_name(&k->j, "tests");
	pdt_json_arr_open(&k->j);
	test_complete(k);
	for (i = 0; i < pdt_rules_nsbs(r->rules); i++)
		if (pdt_rules_sb(r->rules, i)) /* retired: nothing to report */
			test_superblock(k, i);
	for (i = 0; i < pdt_rules_nfindings(r->rules); i++)
		test_finding(k, i);
	if (pdt_rules_unlisted(r->rules)) {
		char msg[96];

		test_open(k, "pdtrace.unlisted_findings", "FAIL");
		snprintf(msg, sizeof(msg), "%llu more findings not listed (the first %d are)",
			 pdt_rules_unlisted(r->rules), PDT_RULES_MAX_FINDINGS);
		pdt_json_kv_str(&k->j, "comment", msg);
		pdt_json_obj_close(&k->j);
	}
	pdt_json_arr_close(&k->j);
	pdt_json_obj_close(&k->j);
	fputc('\n', fp);
	pdt_sb_groups_free(&k->g);
	free(k);
}
