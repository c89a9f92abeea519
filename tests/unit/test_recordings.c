// SPDX-License-Identifier: GPL-2.0
/*
 * The rules engine and the reports driven by real recordings: files made by
 * `pdtrace record` in the VM on Debian's kernel (tests/fuzz/make-recordings.sh,
 * scenarios record-tmpfs and record-faultfs*: the fault-injection filesystem)
 * and kept in tests/fuzz/corpus. What check saw live in the guest must come out
 * of them on this host.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "replay.h"

#ifndef PDT_SRCDIR
#define PDT_SRCDIR "."
#endif

static const bool all_kinds[PDT_KIND_MAX] = { true, true, true };

struct loaded {
	struct pdt_replay rp;
	struct pdt_report rep;
	unsigned char *data;
	size_t len;
};

static void load_file(const char *name, struct loaded *l)
{
	char path[512], err[300];
	FILE *fp;
	long n;

	snprintf(path, sizeof(path), "%s/tests/fuzz/corpus/%s", PDT_SRCDIR, name);
	fp = fopen(path, "rb");
	if (!fp)
		fail_msg("cannot open %s", path);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	l->len = (size_t)n;
	l->data = malloc(l->len);
	assert_non_null(l->data);
	assert_int_equal(fread(l->data, 1, l->len, fp), l->len);
	rewind(fp);
	if (pdt_replay_read(&l->rp, fp, l->len, err, sizeof(err)))
		fail_msg("%s: %s", name, err);
	fclose(fp);
	pdt_replay_fill_report(&l->rp, &l->rep, name, false);
}

static void unload(struct loaded *l)
{
	pdt_replay_free(&l->rp);
	free(l->data);
}

/* The one tmpfs of the workload: mkdir a, a/b, echo >a/f, ln -s, ln; mv, rm, rmdir, umount. */
static void assert_workload(const struct loaded *l)
{
	const struct pdt_sb *sb;

	assert_int_equal(pdt_rules_nsbs(l->rp.rules), 1);
	sb = pdt_rules_sb(l->rp.rules, 0);
	assert_string_equal(sb->fs_type, "tmpfs");
	assert_int_equal(sb->made, 5);
	assert_int_equal(sb->discarded, 3);
	assert_int_equal(sb->unpinned, 2);
	assert_int_equal(sb->live, 0);
	assert_true(sb->unmounted);
	assert_int_equal(pdt_rules_nfindings(l->rp.rules), 0);
	assert_int_equal(l->rep.nmounts, 1);
	assert_string_equal(l->rep.mounts[0].path, "/mnt/t");
	assert_int_equal(l->rep.mounts[0].count, 1);
}

/* Stacks of a real kernel symbolize from the file's slice alone. */
static void assert_symbols(const struct loaded *l)
{
	static const char *const want[] = { "d_make_persistent", "vfs_mkdir", "do_syscall_64" };
	const struct ksyms *k = l->rp.rec.ksyms;
	size_t i, j;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		for (j = 0; j < k->n && strcmp(k->syms[j].name, want[i]); j++)
			;
		if (j == k->n)
			fail_msg("no symbol %s in the slice", want[i]);
		assert_true(k->syms[j].size > 0);
	}
}

static void test_clean(void **state)
{
	struct loaded l;

	(void)state;
	load_file("rec-tmpfs-clean.pdtrec", &l);
	assert_true(l.rep.complete);
	assert_workload(&l);
	assert_symbols(&l);
	assert_string_equal(l.rep.argv[0], "sh");
	assert_int_equal(l.rep.exit_status, 0);
	assert_int_equal(l.rep.nmissing, l.rp.rec.ncoverage);
	assert_int_equal(pdt_report_status(&l.rep, all_kinds), 0);
	assert_true(strncmp(l.rep.kernel, "7.", 2) == 0);
	unload(&l);
}

static void test_record_of_check(void **state)
{
	struct loaded l;

	(void)state;
	load_file("rec-check-tmpfs.pdtrec", &l);
	assert_true(l.rep.complete);
	assert_workload(&l);
	assert_string_equal(l.rep.argv[1], "check");
	assert_int_equal(pdt_report_status(&l.rep, all_kinds), 0);
	unload(&l);
}

static void test_no_dput(void **state)
{
	struct loaded l;
	size_t i;

	(void)state;
	load_file("rec-tmpfs-no-dput.pdtrec", &l);
	assert_workload(&l);
	for (i = 0; i < pdt_rules_ndisabled(l.rp.rules); i++)
		if (!strcmp(pdt_rules_disabled(l.rp.rules, i), PDT_RULE_DPUT_PERSISTENCE_REF))
			break;
	assert_true(i < pdt_rules_ndisabled(l.rp.rules));
	unload(&l);
}

/*
 * Entries persistent before record started are adopted, never findings: f
 * discarded, y and y/k unpinned; d made, moved, unpinned. The books count every
 * release, adopted or not.
 */
static void test_adopted(void **state)
{
	const struct pdt_sb *sb;
	struct loaded l;

	(void)state;
	load_file("rec-tmpfs-adopted.pdtrec", &l);
	sb = pdt_rules_sb(l.rp.rules, 0);
	assert_non_null(sb);
	assert_int_equal(sb->made, 1);
	/* Released entries count whether or not we saw them made; adopted says how many we did not. */
	assert_int_equal(sb->adopted, 3);
	assert_int_equal(sb->unpinned + sb->discarded, sb->made + sb->adopted);
	assert_int_equal(sb->live, 0);
	assert_string_equal(l.rep.mounts[0].path, "/mnt/ad");
	assert_int_equal(l.rep.exit_status, 3);
	assert_int_equal(pdt_report_status(&l.rep, all_kinds), 0);
	unload(&l);
}

static void test_system_wide(void **state)
{
	struct loaded l;

	(void)state;
	load_file("rec-systemwide-sigint.pdtrec", &l);
	assert_null(l.rep.argv);
	assert_workload(&l);
	unload(&l);
	load_file("rec-duration.pdtrec", &l);
	assert_true(l.rep.complete);
	assert_int_equal(l.rp.rec.nevents, 0);
	assert_int_equal(pdt_rules_nsbs(l.rp.rules), 0);
	unload(&l);
}

/* A killed record: what it wrote is reported, and it cannot pass a gate. */
static void test_killed(void **state)
{
	struct loaded l;

	(void)state;
	load_file("rec-killed-truncated.pdtrec", &l);
	assert_true(l.rp.rec.truncated);
	assert_false(l.rep.complete);
	assert_workload(&l);
	assert_int_equal(l.rep.exit_status, -1);
	assert_int_equal(pdt_report_status(&l.rep, all_kinds), 3);
	unload(&l);
}

/* The one finding of a pdtfaultfs fault, as check reported it in the guest. */
static void assert_finding(const char *file, enum pdt_kind kind, const char *rule, const char *path,
			   enum pdt_origin origin, const char *top)
{
	const struct pdt_finding *f;
	struct loaded l;
	char sym[400];

	load_file(file, &l);
	/* Losses (a recursion miss, say) make a recording incomplete; a finding still fails. */
	assert_int_equal(l.rep.complete, !l.rep.lost_events && !l.rep.map_full && !l.rep.malformed);
	assert_int_equal(pdt_rules_nfindings(l.rp.rules), 1);
	f = pdt_rules_finding(l.rp.rules, 0);
	assert_int_equal(f->kind, kind);
	assert_string_equal(f->rule, rule);
	assert_string_equal(f->path, path);
	assert_string_equal(f->fs_type, "pdtfaultfs");
	assert_int_equal(f->origin, origin);
	/* The first frame that is not ours (BPF programs, trampolines), from the slice alone. */
	assert_true(f->nstack > 0);
	for (unsigned int i = 0; i < f->nstack; i++) {
		if (ksyms_is_bpf(l.rep.ksyms, f->stack[i]))
			continue;
		ksyms_format_at(l.rep.ksyms, f->stack[i], 0, 0, sym, sizeof(sym));
		assert_true(strncmp(sym, top, strlen(top)) == 0);
		break;
	}
	assert_int_equal(pdt_report_status(&l.rep, all_kinds), 1);
	unload(&l);
}

static void test_faults(void **state)
{
	(void)state;
	assert_finding("rec-faultfs-discard.pdtrec", PDT_KIND_IMBALANCE,
		       PDT_RULE_DISCARD_UNPERSISTED, "/nx", PDT_ORIGIN_UNKNOWN,
		       "d_make_discardable+");
	assert_finding("rec-faultfs-twice.pdtrec", PDT_KIND_IMBALANCE, PDT_RULE_PERSIST_TWICE,
		       "/tw", PDT_ORIGIN_KERNEL, "d_make_persistent+");
	assert_finding("rec-faultfs-dput.pdtrec", PDT_KIND_IMBALANCE, PDT_RULE_DPUT_PERSISTENCE_REF,
		       "/xd", PDT_ORIGIN_KERNEL, "dput+");
	assert_finding("rec-faultfs-orphan.pdtrec", PDT_KIND_LEAK, PDT_RULE_ORPHANED, "/od/child",
		       PDT_ORIGIN_KERNEL, "d_make_discardable+");
	assert_finding("rec-faultfs-dead.pdtrec", PDT_KIND_ILLEGAL_REMOVAL,
		       PDT_RULE_CREATE_IN_DEAD_DIR, "/kdir/late", PDT_ORIGIN_KERNEL,
		       "d_make_persistent+");
	assert_finding("rec-faultfs-leak.pdtrec", PDT_KIND_LEAK, PDT_RULE_BUSY_AT_UMOUNT, "/lk",
		       PDT_ORIGIN_UNKNOWN, "umount_check+");
}

/* A user entry under the kernel's kdir, then the kernel removes kdir: two findings. */
static void test_removal(void **state)
{
	struct loaded l;
	FILE *mem;
	char *text = NULL;
	size_t len = 0;

	(void)state;
	load_file("rec-faultfs-removal.pdtrec", &l);
	assert_int_equal(pdt_rules_count(l.rp.rules, PDT_KIND_ILLEGAL_REMOVAL), 2);
	mem = open_memstream(&text, &len);
	pdt_report_write(mem, PDT_FMT_TEXT, &l.rep);
	fclose(mem);
	assert_non_null(strstr(text, "user-entry-removed: pdtfaultfs 0:27 /kdir/u/f\n"));
	assert_non_null(strstr(text, "destroyed by a recursive removal of /kdir\n"));
	assert_non_null(strstr(text, "[pdt_faultfs]\n")); /* module frames symbolized */
	assert_null(strstr(text, "[bpf]"));		  /* ours hidden */
	assert_null(strstr(text, "0xffff"));		  /* no address without --show-addresses */
	free(text);
	unload(&l);
}

static int replay_prefix(const unsigned char *data, size_t len, char *err, size_t errlen)
{
	FILE *fp = fmemopen((void *)data, len, "r");
	struct pdt_replay rp;
	struct pdt_report rep;
	FILE *null = fopen("/dev/null", "w");
	int rc;

	assert_non_null(fp);
	assert_non_null(null);
	rc = pdt_replay_read(&rp, fp, len, err, errlen);
	if (!rc) {
		pdt_replay_fill_report(&rp, &rep, "cut", true);
		assert_false(rep.complete);
		assert_int_equal(pdt_report_status(&rep, all_kinds), 3);
		pdt_report_write(null, PDT_FMT_JSON, &rep);
	}
	pdt_replay_free(&rp);
	fclose(fp);
	fclose(null);
	return rc;
}

/* Every cut of a real recording: an error naming an offset in it, or an incomplete report. */
static void test_real_truncation(void **state)
{
	struct loaded l;
	char err[300];
	size_t len;

	(void)state;
	load_file("rec-tmpfs-adopted.pdtrec", &l);
	for (len = 1; len < l.len; len++) {
		unsigned long long at;

		if (!replay_prefix(l.data, len, err, sizeof(err)))
			continue;
		if (sscanf(err, "byte %llu: ", &at) != 1 || at > len || strchr(err, '\n'))
			fail_msg("cut at %zu: bad error '%s'", len, err);
	}
	unload(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),		cmocka_unit_test(test_record_of_check),
		cmocka_unit_test(test_no_dput),		cmocka_unit_test(test_adopted),
		cmocka_unit_test(test_system_wide),	cmocka_unit_test(test_killed),
		cmocka_unit_test(test_real_truncation), cmocka_unit_test(test_faults),
		cmocka_unit_test(test_removal),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
