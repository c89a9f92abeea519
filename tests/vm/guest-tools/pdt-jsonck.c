// SPDX-License-Identifier: GPL-2.0
/*
 * pdt-jsonck [--lines] FILE: a strict RFC 8259 check of pdtrace's JSON in the guest,
 * which has no parser of its own. The whole file is one value, or with --lines every
 * line is one (trace and watch print one object per line). Strings must be valid
 * UTF-8 with no raw control byte and only the escapes the RFC defines. Exit 0 when
 * valid; 1 with "pdt-jsonck: FILE:LINE:COLUMN: what" on the first error; 2 on misuse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct in {
	const unsigned char *p, *start;
	const char *err;
	int depth;
};

static int value(struct in *in);

static void ws(struct in *in)
{
	while (*in->p == ' ' || *in->p == '\t' || *in->p == '\n' || *in->p == '\r')
		in->p++;
}

static int fail(struct in *in, const char *what)
{
	if (!in->err)
		in->err = what;
	return -1;
}

/* One UTF-8 character of 2 to 4 bytes at in->p (no overlong form, no surrogate). */
static int utf8(struct in *in)
{
	const unsigned char *s = in->p;
	unsigned int cp, n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return fail(in, "byte that is not UTF-8 in a string");
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return fail(in, "byte that is not UTF-8 in a string");
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return fail(in, "invalid UTF-8 sequence in a string");
	in->p += n;
	return 0;
}

static int string(struct in *in)
{
	int i;

	in->p++; /* the opening quote */
	for (;;) {
		unsigned char c = *in->p;

		if (c == '"') {
			in->p++;
			return 0;
		}
		if (!c || c == '\n')
			return fail(in, "unterminated string");
		if (c < 0x20)
			return fail(in, "raw control byte in a string");
		if (c == '\\') {
			c = *++in->p;
			if (c == 'u') {
				for (i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", in->p[i]) ||
					    !in->p[i])
						return fail(in, "bad \\u escape");
				in->p += 5;
			} else if (c && strchr("\"\\/bfnrt", c)) {
				in->p++;
			} else {
				return fail(in, "bad escape");
			}
		} else if (c >= 0x80) {
			if (utf8(in))
				return -1;
		} else {
			in->p++;
		}
	}
}

static int digits(struct in *in)
{
	if (*in->p < '0' || *in->p > '9')
		return fail(in, "digit expected");
	while (*in->p >= '0' && *in->p <= '9')
		in->p++;
	return 0;
}

static int number(struct in *in)
{
	if (*in->p == '-')
		in->p++;
	if (*in->p == '0')
		in->p++;
	else if (digits(in))
		return -1;
	if (*in->p == '.') {
		in->p++;
		if (digits(in))
			return -1;
	}
	if (*in->p == 'e' || *in->p == 'E') {
		in->p++;
		if (*in->p == '+' || *in->p == '-')
			in->p++;
		if (digits(in))
			return -1;
	}
	return 0;
}

static int members(struct in *in, char close, int object)
{
	in->p++;
	ws(in);
	if (*in->p == close) {
		in->p++;
		return 0;
	}
	for (;;) {
		if (object) {
			if (*in->p != '"')
				return fail(in, "name expected");
			if (string(in))
				return -1;
			ws(in);
			if (*in->p++ != ':')
				return fail(in, "':' expected");
		}
		if (value(in))
			return -1;
		ws(in);
		if (*in->p == close) {
			in->p++;
			return 0;
		}
		if (*in->p++ != ',')
			return fail(in, "',' or end expected");
		ws(in);
	}
}

static int value(struct in *in)
{
	int rc;

	ws(in);
	if (++in->depth > 64)
		return fail(in, "nested too deep");
	if (*in->p == '{')
		rc = members(in, '}', 1);
	else if (*in->p == '[')
		rc = members(in, ']', 0);
	else if (*in->p == '"')
		rc = string(in);
	else if (*in->p == '-' || (*in->p >= '0' && *in->p <= '9'))
		rc = number(in);
	else if (!strncmp((const char *)in->p, "true", 4))
		in->p += 4, rc = 0;
	else if (!strncmp((const char *)in->p, "false", 5))
		in->p += 5, rc = 0;
	else if (!strncmp((const char *)in->p, "null", 4))
		in->p += 4, rc = 0;
	else
		rc = fail(in, "value expected");
	in->depth--;
	return rc;
}

/* One value from p to end (a NUL there); 0 or -1 with in->err and in->p set. */
static int check(struct in *in)
{
	if (value(in))
		return -1;
	ws(in);
	return *in->p ? fail(in, "text after the value") : 0;
}

int main(int argc, char **argv)
{
	int lines = argc == 3 && !strcmp(argv[1], "--lines");
	const char *file = argv[argc - 1];
	static unsigned char buf[64 << 20];
	size_t n, line = 1;
	unsigned char *p, *nl;
	FILE *fp;

	if (argc != 2 && !lines) {
		fprintf(stderr, "usage: pdt-jsonck [--lines] FILE\n");
		return 2;
	}
	fp = fopen(file, "rb");
	if (!fp) {
		perror(file);
		return 2;
	}
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		fprintf(stderr, "pdt-jsonck: %s: a NUL byte\n", file);
		return 1;
	}
	for (p = buf; lines ? *p != '\0' : p == buf;
	     p = nl ? nl + 1 : p + strlen((char *)p), line++) {
		struct in in = { p, p, NULL, 0 };

		nl = lines ? (unsigned char *)strchr((char *)p, '\n') : NULL;
		if (nl)
			*nl = '\0';
		if (check(&in)) {
			fprintf(stderr, "pdt-jsonck: %s:%zu:%zu: %s\n", file, line,
				(size_t)(in.p - in.start) + 1, in.err);
			return 1;
		}
		if (!nl && lines)
			break;
	}
	return 0;
}
