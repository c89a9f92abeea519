// SPDX-License-Identifier: GPL-2.0
/*
 * Throughput of the rules engine on hostile but well-formed streams: each case is fed at
 * size N and 2N, and the CPU time of the larger (best of three runs) must stay under 3
 * times the smaller's. Work that grows with the square of the input (every walk's end
 * rebuilding every path of its superblock, every discard, umount or unload visiting
 * every entry) takes 4 times as long at 2N and fails. The sizes make one run at N take
 * about 100 ms or more here, under the sanitizers, so that noise does not decide.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <cmocka.h>
#include "report.h"
#include "rules.h"

#define SB1 0xffff888000100000ULL
#define ROOT 0xffff888001000000ULL
#define DENT(i) (0xffff888100000000ULL + (uint64_t)(i)*0x100)

static struct pdt_event_full ev;

/* The creation stack's second frame: in the module of module_event()'s text by default. */
static uint64_t caller = 0xffffffffc0000040ULL;

static void full(struct pdt_rules *r, unsigned short type, uint64_t d, uint64_t p, uint64_t sb,
		 unsigned int flags, const char *path)
{
	memset(&ev.h, 0, sizeof(ev.h));
	ev.h.type = type;
	ev.h.size = sizeof(ev);
	ev.h.flags = flags;
	ev.h.dentry = d;
	ev.h.parent = p;
	ev.h.sb = sb;
	ev.h.dev = 27;
	ev.h.pid = 42;
	ev.h.refcount = 1;
	ev.h.origin = PDT_ORIGIN_KERNEL;
	strcpy(ev.h.comm, "hostile");
	strcpy(ev.fs_type, "tmpfs");
	strcpy(ev.s_id, "tmpfs");
	ev.nstack = 2;
	ev.stack[0] = 0xffffffff81000010ULL;
	ev.stack[1] = caller;
	snprintf(ev.path, sizeof(ev.path), "%s", path);
	assert_int_equal(pdt_rules_feed(r, &ev, sizeof(ev)), 0);
}

static void persist(struct pdt_rules *r, uint64_t d, uint64_t p, uint64_t sb, const char *path)
{
	full(r, PDT_EV_PERSIST, d, p, sb, PDT_F_IS_DIR, path);
}

static void walk_entry(struct pdt_rules *r, uint64_t d, uint64_t p, const char *name)
{
	union {
		struct pdt_walk_entry we;
		char buf[sizeof(struct pdt_walk_entry) + 16];
	} u;
	size_t len = strlen(name);

	memset(&u, 0, sizeof(u));
	u.we.type = PDT_EV_WALK_ENTRY;
	u.we.size = (unsigned short)((sizeof(u.we) + len + 7) & ~7UL);
	u.we.name_len = (unsigned short)len;
	u.we.wflags = PDT_W_PERSISTENT | PDT_W_POSITIVE;
	u.we.dentry = d;
	u.we.parent = p;
	u.we.refcount = 2;
	memcpy(u.we.name, name, len);
	assert_int_equal(pdt_rules_feed(r, &u, u.we.size), 0);
}

/* Module i's load or free; its text at text. */
static void module_event(struct pdt_rules *r, unsigned short type, unsigned int i, uint64_t text)
{
	struct pdt_module_event e;

	memset(&e, 0, sizeof(e));
	e.h.type = type;
	e.h.size = sizeof(e);
	e.module = 0xffffffff00000000ULL + (uint64_t)i * 0x1000;
	e.text = text;
	e.text_size = 0x1000;
	snprintf(e.name, sizeof(e.name), "mod%u", i);
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
}

/*
 * n entries in chains 100 deep, and a self-check walk per 4000 of them whose end
 * compares the superblock's books (the walk itself finds 8 entries).
 */
static void walks(struct pdt_rules *r, unsigned int n)
{
	unsigned int i, k;

	for (i = 0; i < n; i++)
		persist(r, DENT(i), i % 100 ? DENT(i - 1) : ROOT, SB1, "/d");
	for (i = 0; i < n / 4000; i++) {
		full(r, PDT_EV_WALK, 0, 0, SB1, 0, "/");
		for (k = 0; k < 8; k++)
			walk_entry(r, DENT(k), k % 100 ? DENT(k - 1) : ROOT, "d");
		full(r, PDT_EV_WALK, 0, 0, SB1, PDT_F_WALK_END, "/");
	}
	assert_int_equal(pdt_rules_sb(r, 0)->check, PDT_CHECK_INCONSISTENT);
	assert_int_equal(pdt_rules_sb(r, 0)->check_diffs, n - 8);
}

/*
 * A directory with n children, discarded, made again at the same address (a new life:
 * the children still name it their parent) and discarded again, n / 400 times: each
 * discard makes a finding per child.
 */
static void orphans(struct pdt_rules *r, unsigned int n)
{
	const uint64_t dir = DENT(n);
	unsigned int i;

	for (i = 0; i < n; i++)
		persist(r, DENT(i), dir, SB1, "/dir/c");
	for (i = 0; i < n / 400; i++) {
		persist(r, dir, ROOT, SB1, "/dir");
		/* A move under it counts a child, whom the new life would not know of. */
		full(r, PDT_EV_MOVE, DENT(0), dir, SB1, PDT_F_WAS_PERSISTENT, "/dir/c");
		full(r, PDT_EV_DISCARD, dir, ROOT, SB1, PDT_F_WAS_PERSISTENT | PDT_F_IS_DIR,
		     "/dir");
	}
	assert_int_equal(pdt_rules_count(r, PDT_KIND_LEAK), (unsigned long long)n * (n / 400));
	assert_int_equal(pdt_rules_nfindings(r), PDT_RULES_MAX_FINDINGS);
}

/* n entries on one superblock, and n / 4 others that each make one entry and go. */
static void sb_downs(struct pdt_rules *r, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		persist(r, DENT(i), ROOT, SB1, "/e");
	for (i = 0; i < n / 4; i++) {
		uint64_t sb = 0xffff888200000000ULL + (uint64_t)i * 0x1000;

		persist(r, DENT(n + i), ROOT, sb, "/f");
		full(r, PDT_EV_SB_DOWN, 0, 0, sb, PDT_F_IN_UMOUNT, "");
	}
	assert_int_equal(pdt_rules_count(r, PDT_KIND_LEAK), n / 4);
	assert_int_equal(pdt_rules_sb(r, 0)->live, n);
}

/* n entries no module made, and n / 4 modules that each make one entry and unload. */
static void unloads(struct pdt_rules *r, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) /* before any module: none made them */
		persist(r, DENT(i), ROOT, SB1, "/e");
	for (i = 0; i < n / 4; i++) {
		module_event(r, PDT_EV_MODULE_LOAD, i, 0xffffffffc0000000ULL);
		persist(r, DENT(n + i), ROOT, SB1, "/m");
		module_event(r, PDT_EV_MODULE_FREE, i, 0);
	}
	assert_int_equal(pdt_rules_count(r, PDT_KIND_LEAK), n / 4);
}

/*
 * n modules loaded at once, at falling addresses, each making an entry, then freed
 * oldest first: the module table holds n of them.
 */
static void modules(struct pdt_rules *r, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		uint64_t text = 0xffffffffe0000000ULL - (uint64_t)i * 0x2000;

		module_event(r, PDT_EV_MODULE_LOAD, i, text);
		caller = text + 0x40;
		persist(r, DENT(i), ROOT, SB1, "/m");
	}
	caller = 0xffffffffc0000040ULL;
	for (i = 0; i < n; i++)
		module_event(r, PDT_EV_MODULE_FREE, i, 0);
	assert_int_equal(pdt_rules_count(r, PDT_KIND_LEAK), n);
}

/*
 * n superblocks with a finding each (a discard of an entry that is not persistent),
 * reported in the CI formats, which show each superblock's findings in its test case.
 */
static void reports(struct pdt_rules *r, unsigned int n)
{
	struct pdt_report rep = {
		.version = "0.1.0", .kernel = "7.2", .complete = true, .rules = r, .exit_status = -1
	};
	FILE *fp = fopen("/dev/null", "w");
	unsigned int i;

	assert_non_null(fp);
	for (i = 0; i < n; i++)
		full(r, PDT_EV_DISCARD, DENT(i), ROOT, 0xffff888200000000ULL + (uint64_t)i * 0x1000,
		     0, "/x");
	assert_int_equal(pdt_rules_nfindings(r), n);
	pdt_report_write(fp, PDT_FMT_JUNIT, &rep);
	pdt_report_write(fp, PDT_FMT_KTAP, &rep);
	fclose(fp);
}

static double cpu_ms(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* The least CPU time of three runs at size n, in milliseconds, the books' freeing included. */
static double best_of_3(void (*load)(struct pdt_rules *, unsigned int), unsigned int n)
{
	double best = 0;
	int i;

	for (i = 0; i < 3; i++) {
		double t0 = cpu_ms(), t;
		struct pdt_rules *r = pdt_rules_new();

		assert_non_null(r);
		load(r, n);
		pdt_rules_free(r);
		t = cpu_ms() - t0;
		if (!i || t < best)
			best = t;
	}
	return best;
}

static void linear(const char *what, void (*load)(struct pdt_rules *, unsigned int), unsigned int n)
{
	double t1 = best_of_3(load, n), t2 = best_of_3(load, 2 * n);

	print_message("# %s: N=%u %.0f ms, 2N=%u %.0f ms, ratio %.2f (at most 3)\n", what, n, t1,
		      2 * n, t2, t2 / t1);
	assert_true(t2 <= 3 * t1);
}

static void test_walks(void **state)
{
	(void)state;
	linear("self-check walks", walks, 40000);
}

static void test_orphans(void **state)
{
	(void)state;
	linear("discards of a directory with many children", orphans, 40000);
}

static void test_sb_downs(void **state)
{
	(void)state;
	linear("superblock shutdowns", sb_downs, 40000);
}

static void test_unloads(void **state)
{
	(void)state;
	linear("module unloads", unloads, 40000);
}

static void test_modules(void **state)
{
	(void)state;
	linear("modules loaded at once", modules, 20000);
}

static void test_reports(void **state)
{
	(void)state;
	linear("JUnit and KTAP reports of many superblocks", reports, 4000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walks),	 cmocka_unit_test(test_orphans),
		cmocka_unit_test(test_sb_downs), cmocka_unit_test(test_unloads),
		cmocka_unit_test(test_modules),	 cmocka_unit_test(test_reports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
