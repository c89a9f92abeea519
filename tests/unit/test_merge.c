// SPDX-License-Identifier: GPL-2.0
/* Unit tests of merged reports: findings deduplicated by signature, counts and origins. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "fixtures.h"
#include "merge.h"
#include "report.h"
#include "rules.h"

static char *render(const struct pdt_merge *m, enum pdt_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	pdt_merge_write(fp, fmt, m);
	fclose(fp);
	return buf;
}

/*
 * /x1 and /x2 are one bug (digits), /y another: three recordings give two distinct
 * findings, with their counts and where each was seen.
 */
static void test_dedup(void **state)
{
	const char *const a[] = { "/x1", "/y" }, *const b[] = { "/x2", "/x3" };
	struct pdt_rules *ra = fixture_discards(a, 2), *rb = fixture_discards(b, 2);
	struct pdt_report rep = { .rules = ra, .complete = true };
	const bool all[PDT_KIND_MAX] = { true, true, true };
	struct pdt_merge *m = pdt_merge_new(NULL, NULL);
	char *s;

	(void)state;
	assert_int_equal(pdt_merge_add(m, "a.pdtrec", &rep), 0);
	rep.rules = rb;
	assert_int_equal(pdt_merge_add(m, "b.pdtrec", &rep), 0);
	assert_int_equal(pdt_merge_add(m, "c.pdtrec", &rep), 0);
	assert_int_equal(pdt_merge_status(m, all), 1);
	s = render(m, PDT_FMT_TEXT);
	assert_non_null(strstr(s, "imbalance: discard-unpersisted: tmpfs 0:0 /x1\n"));
	assert_null(strstr(s, "tmpfs 0:0 /x2\n"));
	assert_non_null(strstr(s, "  seen 5 times in 3 recordings: a.pdtrec (1), b.pdtrec (2), "
				  "c.pdtrec (2)\n"));
	assert_non_null(strstr(s, "  seen 1 time in 1 recording: a.pdtrec (1)\n"));
	assert_non_null(strstr(s, "summary: 3 recordings, 6 findings, 2 distinct signatures, 0 "
				  "suppressed, 0 known\n"));
	free(s);
	s = render(m, PDT_FMT_JSON);
	assert_non_null(strstr(s, "\"path\":\"/x1\","));
	assert_non_null(strstr(s,
			       "\"first_recording\":\"a.pdtrec\",\"count\":5,\"origins\":[{"
			       "\"recording\":\"a.pdtrec\",\"count\":1},{\"recording\":"
			       "\"b.pdtrec\",\"count\":2},{\"recording\":\"c.pdtrec\",\"count\":2}"
			       "],\"suppressed_by\":null,\"known\":false,\"fails\":true}"));
	assert_non_null(strstr(s, "\"distinct\":2,\"suppressed\":0,\"known\":0}"));
	free(s);
	pdt_merge_free(m);
	pdt_rules_free(ra);
	pdt_rules_free(rb);
}

/* A thousand recordings of one bug: one distinct finding, one text block kept. */
static void test_bounded(void **state)
{
	const char *const a[] = { "/x1" };
	struct pdt_rules *r = fixture_discards(a, 1);
	struct pdt_report rep = { .rules = r, .complete = true };
	struct pdt_merge *m = pdt_merge_new(NULL, NULL);
	char *s;
	int i;

	(void)state;
	for (i = 0; i < 1000; i++)
		assert_int_equal(pdt_merge_add(m, "same.pdtrec", &rep), 0);
	s = render(m, PDT_FMT_JSON);
	assert_non_null(strstr(s, "\"distinct\":1,"));
	assert_non_null(strstr(s, "\"count\":1000,"));
	free(s);
	pdt_merge_free(m);
	pdt_rules_free(r);
}

/* Suppressed everywhere: passes; an incomplete recording without findings: 3. */
static void test_status(void **state)
{
	const char *const a[] = { "/x1" };
	const char supp[] = "{\nknown\nimbalance:*\n}\n";
	struct pdt_rules *r = fixture_discards(a, 1), *clean = pdt_rules_new();
	struct pdt_report rep = { .rules = r, .complete = true };
	const bool all[PDT_KIND_MAX] = { true, true, true };
	struct pdt_supp *s = pdt_supp_new();
	FILE *fp = fmemopen((void *)supp, sizeof(supp) - 1, "r");
	struct pdt_merge *m;
	char err[128], *out;

	(void)state;
	assert_int_equal(pdt_supp_parse(s, "k.supp", fp, err, sizeof(err)), 0);
	fclose(fp);
	m = pdt_merge_new(s, NULL);
	assert_int_equal(pdt_merge_add(m, "a.pdtrec", &rep), 0);
	assert_int_equal(pdt_merge_status(m, all), 0);
	out = render(m, PDT_FMT_TEXT);
	assert_non_null(
	    strstr(out, "suppressed by 'known': imbalance: discard-unpersisted (signature "));
	free(out);
	rep.rules = clean;
	rep.complete = false;
	assert_int_equal(pdt_merge_add(m, "cut.pdtrec", &rep), 0);
	assert_int_equal(pdt_merge_status(m, all), 3);
	pdt_merge_free(m);
	pdt_rules_free(r);
	pdt_rules_free(clean);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dedup),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_status),
	};

	return cmocka_run_group_tests_name("merge", tests, NULL, NULL);
}
