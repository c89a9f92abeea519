// SPDX-License-Identifier: GPL-2.0
/* Names in text output (text.c): nothing a terminal obeys gets through. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "text.h"

static const char *esc(const char *s)
{
	static char buf[1024];

	return pdt_text_esc(buf, sizeof(buf), s);
}

static void test_every_control_byte_is_escaped(void **state)
{
	char in[2] = { 0, 0 }, want[8];
	int c;

	(void)state;
	for (c = 1; c < 0x20; c++) {
		in[0] = (char)c;
		snprintf(want, sizeof(want), "\\x%02x", c);
		assert_string_equal(esc(in), want);
	}
	assert_string_equal(esc("\x7f"), "\\x7f");
	assert_string_equal(esc("esc\x1b[31mred"), "esc\\x1b[31mred");
	assert_string_equal(esc("nl\nx"), "nl\\x0ax");
}

static void test_printable_and_backslash(void **state)
{
	(void)state;
	assert_string_equal(esc("q\"b<&>/ ok"), "q\"b<&>/ ok");
	assert_string_equal(esc("a\\b"), "a\\\\b"); /* \x41 in a name cannot pose as an escape */
}

static void test_utf8(void **state)
{
	(void)state;
	assert_string_equal(esc("caf\xc3\xa9"), "caf\xc3\xa9");		  /* é */
	assert_string_equal(esc("\xe2\x82\xac"), "\xe2\x82\xac");	  /* € */
	assert_string_equal(esc("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80"); /* 😀 */
	assert_string_equal(esc("\xc2\x9b"), "\\xc2\\x9b");		  /* C1 CSI */
	assert_string_equal(esc("\x9b"
				"31m"),
			    "\\x9b31m");			     /* 8-bit CSI */
	assert_string_equal(esc("\xc3"), "\\xc3");		     /* cut short */
	assert_string_equal(esc("\xc0\xaf"), "\\xc0\\xaf");	     /* overlong / */
	assert_string_equal(esc("\xed\xa0\x80"), "\\xed\\xa0\\x80"); /* surrogate */
	assert_string_equal(esc("\xff\xfe"), "\\xff\\xfe");
}

/* Truncation keeps whole escapes and whole characters. */
static void test_truncation(void **state)
{
	char buf[8];

	(void)state;
	assert_string_equal(pdt_text_esc(buf, sizeof(buf), "ab\x1b\x1b"), "ab\\x1b");
	assert_string_equal(pdt_text_esc(buf, sizeof(buf), "abcdef\xc3\xa9"), "abcdef");
	assert_string_equal(pdt_text_esc(buf, 1, "abc"), "");
}

static const char *san(const char *s)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s", s);
	pdt_text_sanitize(buf);
	return buf;
}

/*
 * Names of a recording printed as they are (symbols, coverage lines): C0, DEL, C1
 * (raw, or U+0080-U+009F in UTF-8) and bytes that are not UTF-8 become '?', in place.
 */
static void test_sanitize(void **state)
{
	(void)state;
	assert_string_equal(san("vfs_write [ext4]"), "vfs_write [ext4]");
	assert_string_equal(san("a\x1b[2Jb\x7f"), "a?[2Jb?");
	assert_string_equal(san("csi\xc2\x9b"
				"31m"),
			    "csi??31m"); /* U+009B */
	assert_string_equal(san("raw\x9b"
				"31m\x85"),
			    "raw?31m?"); /* 8-bit C1 */
	assert_string_equal(san("\xc2\xa0nbsp \xc3\xa9t\xc3\xa9 \xe2\x82\xac"),
			    "\xc2\xa0nbsp \xc3\xa9t\xc3\xa9 \xe2\x82\xac");
	assert_string_equal(san("\xc4\x85"), "\xc4\x85"); /* a continuation byte 0x85: not C1 */
	assert_string_equal(san("bad\xff\xc3"), "bad??");
	assert_string_equal(san("\xed\xa0\x80"), "???"); /* a surrogate */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_control_byte_is_escaped),
		cmocka_unit_test(test_printable_and_backslash),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_truncation),
		cmocka_unit_test(test_sanitize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
