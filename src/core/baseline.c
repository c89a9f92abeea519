// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "baseline.h"

struct sig {
	uint64_t v;
	char *key;
	bool seen;
};

struct pdt_baseline {
	char *file;
	struct sig *v;
	size_t n, cap;
};

/* What a JSON value is to the baseline: only findings[].signature(_key) are read. */
enum role { R_ROOT, R_FINDINGS, R_FINDING, R_SIG, R_KEY, R_OTHER };

struct reader {
	const char *s;
	size_t n, i;
	int depth;
	struct pdt_baseline *b;
	char *err;
	size_t errlen;
	bool has_findings;
	/* The finding being read. */
	char sig[24], *key;
	bool has_sig;
};

static int fail(struct reader *r, const char *what)
{
	snprintf(r->err, r->errlen, "%s: byte %zu: %s", r->b->file, r->i, what);
	return -1;
}

static void blanks(struct reader *r)
{
	while (r->i < r->n && strchr(" \t\r\n", r->s[r->i]) && r->s[r->i])
		r->i++;
}

static bool eat(struct reader *r, char c)
{
	blanks(r);
	if (r->i < r->n && r->s[r->i] == c) {
		r->i++;
		return true;
	}
	return false;
}

static int hex4(struct reader *r, unsigned int *cp)
{
	unsigned int i, v = 0;

	for (i = 0; i < 4; i++) {
		char c = r->i < r->n ? r->s[r->i++] : '\0';

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned int)(c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v |= (unsigned int)((c | 0x20) - 'a' + 10);
		else
			return fail(r, "a \\u escape without 4 hex digits");
	}
	*cp = v;
	return 0;
}

/* Append byte c to a growing string (out NULL: the string is skipped). */
static int put(struct reader *r, char **out, size_t *len, size_t *cap, char c)
{
	if (!out)
		return 0;
	if (*len + 2 > *cap) {
		size_t ncap = *cap ? 2 * *cap : 32;
		char *p = realloc(*out, ncap);

		if (!p)
			return fail(r, "out of memory");
		*out = p;
		*cap = ncap;
	}
	(*out)[(*len)++] = c;
	(*out)[*len] = '\0';
	return 0;
}

/* One escape after its '\': the byte it stands for (a \u00XX is a byte, as pdtrace writes). */
static int escape(struct reader *r, char *c)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *p;
	unsigned int cp;

	if (r->i >= r->n)
		return fail(r, "the file ends inside a string");
	p = strchr(from, r->s[r->i]);
	if (p && r->s[r->i]) {
		r->i++;
		*c = to[p - from];
		return 0;
	}
	if (r->s[r->i++] != 'u')
		return fail(r, "an unknown escape in a string");
	if (hex4(r, &cp))
		return -1;
	*c = cp && cp < 0x100 ? (char)cp : '?'; /* keys only show; digests are ASCII */
	return 0;
}

/* A string at the '"': into *out (malloc'd), or skipped when out is NULL. */
static int string(struct reader *r, char **out)
{
	size_t len = 0, cap = 0;
	char c;

	if (!eat(r, '"'))
		return fail(r, "expected a string");
	for (;;) {
		if (r->i >= r->n)
			return fail(r, "the file ends inside a string");
		c = r->s[r->i++];
		if (c == '"')
			break;
		if ((unsigned char)c < 0x20)
			return fail(r, "a control byte inside a string");
		if (c == '\\' && escape(r, &c))
			return -1;
		if (put(r, out, &len, &cap, c))
			return -1;
	}
	return out && !*out ? put(r, out, &len, &cap, '\0') : 0;
}

static int value(struct reader *r, enum role role);

static int sig_add(struct reader *r)
{
	struct pdt_baseline *b = r->b;
	char *end;
	struct sig *s;

	if (strlen(r->sig) != 16 || strspn(r->sig, "0123456789abcdef") != 16)
		return fail(r, "a finding's \"signature\" is not 16 hex digits");
	if (b->n == b->cap) {
		size_t ncap = b->cap ? 2 * b->cap : 64;

		if (!(s = realloc(b->v, ncap * sizeof(*s))))
			return fail(r, "out of memory");
		b->v = s;
		b->cap = ncap;
	}
	s = &b->v[b->n++];
	s->v = strtoull(r->sig, &end, 16);
	s->key = r->key;
	s->seen = false;
	r->key = NULL;
	return 0;
}

/* A member's role: findings at the top, signature and its key in a finding. */
static enum role member(enum role in, const char *name)
{
	if (in == R_ROOT && !strcmp(name, "findings"))
		return R_FINDINGS;
	if (in == R_FINDING && !strcmp(name, "signature"))
		return R_SIG;
	if (in == R_FINDING && !strcmp(name, "signature_key"))
		return R_KEY;
	return R_OTHER;
}

static int object(struct reader *r, enum role role)
{
	char *name = NULL;
	int rc = 0;

	if (role == R_FINDING) {
		r->has_sig = false;
		free(r->key);
		r->key = NULL;
	}
	if (eat(r, '}'))
		goto end;
	do {
		if (string(r, &name))
			return free(name), -1;
		if (!eat(r, ':'))
			return free(name), fail(r, "expected ':' after a member's name");
		rc = value(r, member(role, name));
		free(name);
		name = NULL;
		if (rc)
			return -1;
	} while (eat(r, ','));
	if (!eat(r, '}'))
		return fail(r, "expected ',' or '}' in an object");
end:
	if (role == R_FINDING && !r->has_sig)
		return fail(r, "a finding without a \"signature\" (a report of an older pdtrace?)");
	return role == R_FINDING ? sig_add(r) : 0;
}

static int array(struct reader *r, enum role role)
{
	enum role elem = role == R_FINDINGS ? R_FINDING : R_OTHER;

	if (eat(r, ']'))
		return 0;
	do {
		if (value(r, elem))
			return -1;
	} while (eat(r, ','));
	return eat(r, ']') ? 0 : fail(r, "expected ',' or ']' in an array");
}

/* A number, true, false or null: the bytes they may hold (what they say is not needed). */
static int scalar(struct reader *r)
{
	size_t start = r->i;

	while (r->i < r->n && r->s[r->i] && strchr("+-.0123456789eEtruefalsn", r->s[r->i]))
		r->i++;
	return r->i > start ? 0 : fail(r, "expected a JSON value");
}

static int string_value(struct reader *r, enum role role)
{
	char *s = NULL;

	if (role == R_KEY) {
		free(r->key);
		r->key = NULL;
		return string(r, &r->key);
	}
	if (role != R_SIG)
		return string(r, NULL);
	if (string(r, &s))
		return free(s), -1;
	snprintf(r->sig, sizeof(r->sig), "%s", s);
	free(s);
	r->has_sig = true;
	return 0;
}

static int value(struct reader *r, enum role role)
{
	int rc;

	blanks(r);
	if (r->i >= r->n)
		return fail(r, "the file ends where a value should be");
	if (role == R_ROOT && r->s[r->i] != '{')
		return fail(r, "not a pdtrace JSON report (not an object)");
	if ((role == R_FINDINGS && r->s[r->i] != '[') || (role == R_FINDING && r->s[r->i] != '{'))
		return fail(r, "\"findings\" is not an array of objects");
	if (role == R_SIG && r->s[r->i] != '"')
		return fail(r, "a finding's \"signature\" is not a string");
	if (++r->depth > PDT_BASELINE_MAX_DEPTH)
		return fail(r, "nested too deep for a pdtrace report");
	r->has_findings |= role == R_FINDINGS;
	if (r->s[r->i] == '{')
		rc = (r->i++, object(r, role));
	else if (r->s[r->i] == '[')
		rc = (r->i++, array(r, role));
	else if (r->s[r->i] == '"')
		rc = string_value(r, role);
	else
		rc = scalar(r);
	r->depth--;
	return rc;
}

static int cmp_sig(const void *a, const void *b)
{
	const struct sig *x = a, *y = b;

	return x->v < y->v ? -1 : x->v > y->v;
}

/* Sorted, one of each: a bug the earlier run hit twice is one known signature. */
static void dedup(struct pdt_baseline *b)
{
	size_t i, o = 0;

	if (!b->n)
		return; /* b->v is NULL: qsort() may not be given it */
	qsort(b->v, b->n, sizeof(b->v[0]), cmp_sig);
	for (i = 0; i < b->n; i++) {
		if (o && b->v[o - 1].v == b->v[i].v) {
			free(b->v[i].key);
			continue;
		}
		b->v[o++] = b->v[i];
	}
	b->n = o;
}

struct pdt_baseline *pdt_baseline_parse(const char *file, const char *buf, size_t len, char *err,
					size_t n)
{
	struct pdt_baseline *b = calloc(1, sizeof(*b));
	struct reader r = { .s = buf, .n = len, .b = b, .err = err, .errlen = n };
	int rc;

	if (!b || !(b->file = strdup(file))) {
		snprintf(err, n, "%s: out of memory", file);
		free(b);
		return NULL;
	}
	rc = value(&r, R_ROOT);
	blanks(&r);
	if (!rc && r.i < r.n)
		rc = fail(&r, "more after the report's end");
	if (!rc && !r.has_findings)
		rc = fail(&r, "not a pdtrace JSON report (no \"findings\")");
	free(r.key);
	if (rc) {
		pdt_baseline_free(b);
		return NULL;
	}
	dedup(b);
	return b;
}

/*
 * The whole file in memory (reports are small, and a parser over a buffer is simple), at
 * most PDT_BASELINE_MAX_BYTES: NULL with errno, EFBIG past the limit.
 */
static char *slurp(FILE *fp, size_t *len)
{
	size_t cap = 1 << 16, got;
	char *buf = malloc(cap), *p;
	struct stat st;

	*len = 0;
	errno = 0;
	if (!fstat(fileno(fp), &st) && S_ISREG(st.st_mode) &&
	    (uintmax_t)st.st_size > PDT_BASELINE_MAX_BYTES) {
		free(buf);
		errno = EFBIG;
		return NULL;
	}
	while (buf && (got = fread(buf + *len, 1, cap - *len, fp)) > 0) {
		*len += got;
		if (*len > PDT_BASELINE_MAX_BYTES) { /* a pipe, or a file that grew */
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		if (*len == cap) {
			p = realloc(buf, cap *= 2);
			if (!p)
				free(buf);
			buf = p;
		}
	}
	if (buf && ferror(fp)) {
		free(buf);
		return NULL;
	}
	if (!buf && !errno)
		errno = ENOMEM;
	return buf;
}

struct pdt_baseline *pdt_baseline_load(const char *path, char *err, size_t n)
{
	FILE *fp = fopen(path, "r");
	struct pdt_baseline *b;
	size_t len;
	char *buf;

	if (!fp) {
		snprintf(err, n, "%s: cannot read: %s", path, strerror(errno));
		return NULL;
	}
	buf = slurp(fp, &len);
	if (!buf && errno == EFBIG)
		snprintf(err, n,
			 "%s: more than %u bytes: too large for a baseline (a pdtrace JSON "
			 "report)",
			 path, PDT_BASELINE_MAX_BYTES);
	else if (!buf)
		snprintf(err, n, "%s: cannot read: %s", path, strerror(errno ? errno : EIO));
	fclose(fp);
	if (!buf)
		return NULL;
	b = pdt_baseline_parse(path, buf, len, err, n);
	free(buf);
	return b;
}

void pdt_baseline_free(struct pdt_baseline *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->n; i++)
		free(b->v[i].key);
	free(b->v);
	free(b->file);
	free(b);
}

const char *pdt_baseline_file(const struct pdt_baseline *b)
{
	return b->file;
}

bool pdt_baseline_has(struct pdt_baseline *b, const char *hex)
{
	struct sig key = { .v = strtoull(hex, NULL, 16) }, *s;

	if (!b || !b->n)
		return false;
	s = bsearch(&key, b->v, b->n, sizeof(b->v[0]), cmp_sig);
	if (s)
		s->seen = true;
	return s != NULL;
}

size_t pdt_baseline_count(const struct pdt_baseline *b)
{
	return b ? b->n : 0;
}

bool pdt_baseline_seen(const struct pdt_baseline *b, size_t i)
{
	return b->v[i].seen;
}

void pdt_baseline_sig(const struct pdt_baseline *b, size_t i, char hex[17])
{
	snprintf(hex, 17, "%016llx", (unsigned long long)b->v[i].v);
}

const char *pdt_baseline_key(const struct pdt_baseline *b, size_t i)
{
	return b->v[i].key ? b->v[i].key : "";
}

size_t pdt_baseline_gone(const struct pdt_baseline *b)
{
	size_t i, n = 0;

	for (i = 0; b && i < b->n; i++)
		n += !b->v[i].seen;
	return n;
}
