// SPDX-License-Identifier: GPL-2.0
/* PDTRACE_TESTING, the test suite's knobs: words, values, lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include "testing.h"

static void test_words(void **state)
{
	(void)state;
	unsetenv("PDTRACE_TESTING");
	assert_false(pdt_testing("no-lsm"));
	assert_int_equal(pdt_testing_num("kstacks", 7), 7);
	setenv("PDTRACE_TESTING", " no-lsm\tkstacks=4  omit-hooks=__d_move,dput poll-ms=x", 1);
	assert_true(pdt_testing("no-lsm"));
	assert_true(pdt_testing("kstacks"));
	assert_false(pdt_testing("no"));       /* a prefix is not the word */
	assert_false(pdt_testing("no-elide")); /* absent */
	assert_int_equal(pdt_testing_num("kstacks", 0), 4);
	assert_int_equal(pdt_testing_num("poll-ms", 100), 100); /* not a number */
	assert_int_equal(pdt_testing_num("no-lsm", 5), 5);	/* bare */
	assert_true(pdt_testing_lists("omit-hooks", "__d_move"));
	assert_true(pdt_testing_lists("omit-hooks", "dput"));
	assert_false(pdt_testing_lists("omit-hooks", "d_move"));
	assert_false(pdt_testing_lists("omit-hooks", "dpu"));
	assert_false(pdt_testing_lists("no-lsm", "x"));
	setenv("PDTRACE_TESTING", "kstacks=0 elide-bits=99999999999999999999999", 1);
	assert_int_equal(pdt_testing_num("kstacks", 1), 1);
	assert_int_equal(pdt_testing_num("elide-bits", 2), 2);
	unsetenv("PDTRACE_TESTING");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
