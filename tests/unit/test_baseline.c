// SPDX-License-Identifier: GPL-2.0
/* Unit tests of --baseline: reading an earlier JSON report, and the gate's verdicts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "fixtures.h"
#include "baseline.h"
#include "gate.h"
#include "report.h"
#include "rules.h"

static struct pdt_baseline *parse(const char *json, char *err, size_t n)
{
	err[0] = '\0';
	return pdt_baseline_parse("b.json", json, strlen(json), err, n);
}

/* The JSON report of rules r, as -f json writes it. */
static char *json_of(struct pdt_rules *r)
{
	struct pdt_report rep = { .version = "0.1.0", .kernel = "7.2.13", .rules = r };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	pdt_report_write(fp, PDT_FMT_JSON, &rep);
	fclose(fp);
	return buf;
}

/* A report of /x and /y is the baseline; a run with /y and /z: 1 known, 1 new, 1 gone. */
static void test_known_new_gone(void **state)
{
	const char *const before[] = { "/x", "/y", "/y" }, *const after[] = { "/y", "/z" };
	struct pdt_rules *r = fixture_discards(before, 3), *r2;
	const bool all[PDT_KIND_MAX] = { true, true, true };
	char *json = json_of(r), err[256];
	struct pdt_baseline *b = parse(json, err, sizeof(err));
	struct pdt_gate *g;

	(void)state;
	assert_non_null(b);
	assert_int_equal(pdt_baseline_count(b), 2); /* /y twice: one signature */
	assert_string_equal(pdt_baseline_file(b), "b.json");
	assert_non_null(strstr(pdt_baseline_key(b, 0), "imbalance/discard-unpersisted tmpfs /"));
	g = pdt_gate_new(NULL, b);
	r2 = fixture_discards(after, 2);
	assert_int_equal(pdt_gate_judge(g, r2, NULL), 0);
	assert_int_equal(pdt_gate_fate(g, 0), PDT_FATE_KNOWN);
	assert_int_equal(pdt_gate_fate(g, 1), PDT_FATE_NEW);
	assert_int_equal(pdt_gate_count(g, PDT_FATE_KNOWN), 1);
	assert_int_equal(pdt_gate_count(g, PDT_FATE_NEW), 1);
	assert_int_equal(pdt_baseline_gone(b), 1);
	assert_true(pdt_gate_fail(g, r2, all, true));
	pdt_gate_free(g);
	pdt_rules_free(r2);
	/* The same run as the baseline: nothing new, the gate passes. */
	g = pdt_gate_new(NULL, parse(json, err, sizeof(err)));
	assert_int_equal(pdt_gate_judge(g, r, NULL), 0);
	assert_int_equal(pdt_gate_count(g, PDT_FATE_KNOWN), 3);
	assert_false(pdt_gate_fail(g, r, all, true));
	assert_int_equal(pdt_baseline_gone(pdt_gate_baseline(g)), 0);
	pdt_gate_free(g);
	free(json);
	pdt_rules_free(r);
}

static void test_clean_baseline(void **state)
{
	char err[256];
	struct pdt_baseline *b =
	    parse(" {\"version\":\"0.1.0\",\"findings\":[],\"x\":[1,-2.5e3,true,null,{}]}\n", err,
		  sizeof(err));

	(void)state;
	assert_non_null(b);
	assert_int_equal(pdt_baseline_count(b), 0);
	assert_false(pdt_baseline_has(b, "0123456789abcdef"));
	pdt_baseline_free(b);
	/* Members in any order, escapes in the key, unknown members skipped. */
	b = parse("{\"findings\":[{\"signature_key\":\"a\\u00e9\\n\\\"b\",\"n\":{\"signature\":1},"
		  "\"signature\":\"00000000000000ff\"}]}",
		  err, sizeof(err));
	assert_non_null(b);
	assert_int_equal(pdt_baseline_count(b), 1);
	assert_string_equal(pdt_baseline_key(b, 0), "a\xe9\n\"b");
	assert_true(pdt_baseline_has(b, "00000000000000ff"));
	assert_true(pdt_baseline_seen(b, 0));
	pdt_baseline_free(b);
}

/* Anything else: one line naming the file and the byte, and no baseline. */
static void test_errors(void **state)
{
	static const struct {
		const char *json, *err;
	} bad[] = {
		{ "", "b.json: byte 0: the file ends where a value should be" },
		{ "[]", "b.json: byte 0: not a pdtrace JSON report (not an object)" },
		{ "{\"version\":1}",
		  "b.json: byte 13: not a pdtrace JSON report (no \"findings\")" },
		{ "{\"findings\":{}}", "b.json: byte 12: \"findings\" is not an array of objects" },
		{ "{\"findings\":[{\"kind\":\"leak\"}]}",
		  "b.json: byte 28: a finding without a \"signature\"" },
		{ "{\"findings\":[{\"signature\":\"xyz\"}]}",
		  "b.json: byte 32: a finding's \"signature\" is not 16 hex digits" },
		{ "{\"findings\":[{\"signature\":7}]}",
		  "b.json: byte 26: a finding's \"signature\" is not a string" },
		{ "{\"findings\":[]", "b.json: byte 14: expected ',' or '}' in an object" },
		{ "{\"findings\":[]}x", "b.json: byte 15: more after the report's end" },
		{ "{\"a\":\"\\q\",\"findings\":[]}",
		  "b.json: byte 8: an unknown escape in a string" },
		{ "{\"a\":\"\x01\",\"findings\":[]}", "b.json: byte 7: a control byte inside" },
		{ "{\"a\":\"\\u12\"}", "b.json: byte 11: a \\u escape without 4 hex digits" },
		{ "{\"a\":}", "b.json: byte 5: expected a JSON value" },
		{ "{\"a\" 1}", "b.json: byte 5: expected ':' after a member's name" },
		{ "{\"findings\":[1 2]}",
		  "b.json: byte 13: \"findings\" is not an array of objects" },
	};
	char err[256], deep[300];
	struct pdt_baseline *b;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b = parse(bad[i].json, err, sizeof(err));
		if (b || strncmp(err, bad[i].err, strlen(bad[i].err)))
			fail_msg("input %zu: got '%s', want '%s...'", i, err, bad[i].err);
		assert_null(strchr(err, '\n'));
	}
	memset(deep, '[', sizeof(deep));
	memcpy(deep, "{\"x\":", 5);
	deep[sizeof(deep) - 1] = '\0';
	assert_null(parse(deep, err, sizeof(err)));
	assert_string_equal(err, "b.json: byte 68: nested too deep for a pdtrace report");
	/* NUL bytes inside: the length counts, not the terminator. */
	assert_null(pdt_baseline_parse("b.json", "{\"findings\":[]}\0", 16, err, sizeof(err)));
	assert_string_equal(err, "b.json: byte 15: more after the report's end");
}

/*
 * A baseline past PDT_BASELINE_MAX_BYTES is one line, before it is read: a sparse file of
 * 300 MiB (no disk) was read whole, then called not JSON. One at the limit is read.
 */
static void test_too_large(void **state)
{
	char path[] = "/tmp/pdt-baseline-XXXXXX", err[512], want[600];
	int fd = mkstemp(path);
	struct pdt_baseline *b;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)300 << 20), 0);
	assert_null(pdt_baseline_load(path, err, sizeof(err)));
	snprintf(want, sizeof(want),
		 "%s: more than 268435456 bytes: too large for a baseline (a pdtrace JSON report)",
		 path);
	assert_string_equal(err, want);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(write(fd, "{\"findings\":[]}", 15), 15);
	b = pdt_baseline_load(path, err, sizeof(err)); /* read, and parsed */
	assert_non_null(b);
	pdt_baseline_free(b);
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_new_gone),
		cmocka_unit_test(test_clean_baseline),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_too_large),
	};

	return cmocka_run_group_tests_name("baseline", tests, NULL, NULL);
}
