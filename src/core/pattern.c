// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "pattern.h"
#include "text.h"

enum tok { T_END, T_BYTE, T_ANY, T_ONE, T_DIGITS, T_BAD };

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The token at *p: its kind, the byte of a T_BYTE; *p moves past it. */
static enum tok next_tok(const char **p, unsigned char *byte)
{
	const char *s = *p;

	switch (*s) {
	case '\0':
		return T_END;
	case '*':
		*p = s + 1;
		return T_ANY;
	case '?':
		*p = s + 1;
		return T_ONE;
	case '#':
		*p = s + 1;
		return T_DIGITS;
	case '\\':
		if (s[1] == 'x' && hexval(s[2]) >= 0 && hexval(s[3]) >= 0 &&
		    (hexval(s[2]) || hexval(s[3]))) {
			*byte = (unsigned char)(hexval(s[2]) << 4 | hexval(s[3]));
			*p = s + 4;
			return T_BYTE;
		}
		if (!s[1] || s[1] == 'x')
			return T_BAD;
		*byte = (unsigned char)s[1];
		*p = s + 2;
		return T_BYTE;
	}
	*byte = (unsigned char)*s;
	*p = s + 1;
	return T_BYTE;
}

const char *pdt_pattern_check(const char *pat)
{
	unsigned char b;
	enum tok t;

	while ((t = next_tok(&pat, &b)) != T_END)
		if (t == T_BAD)
			return "a '\\' at the end, or a \\x not followed by two hex digits (not "
			       "00)";
	return NULL;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * One token against s: how many bytes it takes, or -1. '#' takes the whole run of digits
 * (no backtracking into it: a run is one number).
 */
static long take(enum tok t, unsigned char b, const char *s)
{
	long n = 0;

	switch (t) {
	case T_BYTE:
		return *s && (unsigned char)*s == b ? 1 : -1;
	case T_ONE:
		return *s ? 1 : -1;
	case T_DIGITS:
		while (is_digit(s[n]))
			n++;
		return n ? n : -1;
	default:
		return -1;
	}
}

/*
 * The classic wildcard walk: on a mismatch, the last '*' takes one more byte and the
 * pattern resumes after it. Linear in the pattern for each byte of s: no recursion, no
 * exponential case.
 */
bool pdt_pattern_match(const char *pat, const char *s)
{
	const char *star_p = NULL, *star_s = NULL, *p = pat, *q;
	unsigned char b = 0;
	enum tok t;
	long n;

	for (;;) {
		q = p;
		t = next_tok(&q, &b);
		if (t == T_END && !*s)
			return true;
		if (t == T_ANY) {
			star_p = p = q;
			star_s = s;
			continue;
		}
		if (t != T_END && (n = take(t, b, s)) >= 0) {
			p = q;
			s += n;
			continue;
		}
		if (!star_p || !*star_s)
			return false;
		p = star_p;
		s = ++star_s;
	}
}

void pdt_pattern_quote(FILE *fp, const char *s, bool digits_wild)
{
	size_t n = 4 * strlen(s) + 1;
	char *buf = malloc(n);
	const char *p;

	if (!buf)
		return;
	for (p = pdt_text_esc(buf, n, s); *p; p++) {
		if (*p == '\\') { /* an escape of text.h: \\ or \xHH, kept whole */
			size_t len = p[1] == 'x' ? 4 : 2;

			fwrite(p, 1, len, fp);
			p += len - 1;
		} else if (digits_wild && is_digit(*p)) {
			while (is_digit(p[1]))
				p++;
			fputc('#', fp);
		} else if (*p == ' ' && (p == buf || !p[strspn(p, " ")])) {
			fputs("\\x20", fp); /* a file's lines lose their blanks at either end */
		} else {
			if (*p == '*' || *p == '?' || *p == '#')
				fputc('\\', fp);
			fputc(*p, fp);
		}
	}
	free(buf);
}
