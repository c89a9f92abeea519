// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
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

unsigned long long pdt_pattern_steps;

/* Bits of the NFA's states, W 64-bit words each: bit i is "token i is next". */
struct nfa {
	size_t m, w;	     /* tokens (a run of '*' as one), words */
	uint64_t *any;	     /* '*' tokens: a state that stays, and lets the next be */
	uint64_t *dig;	     /* '#' tokens */
	uint64_t *one;	     /* '?' tokens: any byte moves on */
	uint64_t *bytes;     /* per byte class: its tokens; class 0 none */
	uint64_t *p, *d, *x; /* states; inside a '#' (bit i: token i has taken digits); scratch */
	unsigned char cls[256];
};

static void set_bit(uint64_t *v, size_t i)
{
	v[i / 64] |= 1ULL << (i % 64);
}

/* Tokens, with consecutive '*' as one; each byte's class; false when pat is bad. */
static bool nfa_scan(struct nfa *a, const char *pat, size_t *nclass)
{
	enum tok t, prev = T_END;
	unsigned char b;

	a->m = *nclass = 0;
	memset(a->cls, 0, sizeof(a->cls));
	while ((t = next_tok(&pat, &b)) != T_END) {
		if (t == T_BAD)
			return false;
		if (t == T_ANY && prev == T_ANY)
			continue;
		if (t == T_BYTE && !a->cls[b])
			a->cls[b] = (unsigned char)++*nclass; /* at most 255: never NUL */
		prev = t;
		a->m++;
	}
	return true;
}

static void nfa_masks(struct nfa *a, const char *pat)
{
	enum tok t, prev = T_END;
	unsigned char b;
	size_t i = 0;

	while ((t = next_tok(&pat, &b)) != T_END) {
		if (t == T_ANY && prev == T_ANY)
			continue;
		prev = t;
		if (t == T_ANY)
			set_bit(a->any, i);
		else if (t == T_DIGITS)
			set_bit(a->dig, i);
		else if (t == T_ONE)
			set_bit(a->one, i);
		else
			set_bit(a->bytes + a->cls[b] * a->w, i);
		i++;
	}
}

/*
 * The epsilon moves before byte next: a '#' that has taken digits ends where no digit
 * follows (it takes the whole run), and a '*' may take nothing. Runs of '*' are one
 * token, so one pass makes every move.
 */
static void nfa_close(struct nfa *a, char next)
{
	uint64_t carry = 0, c;
	size_t w;

	if (!is_digit(next))
		for (w = 0; w < a->w; w++) {
			c = a->d[w] >> 63;
			a->p[w] |= a->d[w] << 1 | carry;
			carry = c;
		}
	for (carry = 0, w = 0; w < a->w; w++) {
		c = (a->p[w] & a->any[w]) >> 63;
		a->p[w] |= (a->p[w] & a->any[w]) << 1 | carry;
		carry = c;
	}
}

/* Byte c taken from every state at once: false when no state is left. */
static bool nfa_step(struct nfa *a, unsigned char c, char next)
{
	const uint64_t *bc = a->cls[c] ? a->bytes + a->cls[c] * a->w : NULL;
	uint64_t carry = 0, live = 0, x;
	size_t w;

	pdt_pattern_steps += a->w;
	for (w = 0; w < a->w; w++) {
		a->d[w] = is_digit((char)c) ? (a->p[w] | a->d[w]) & a->dig[w] : 0;
		a->x[w] = a->p[w] & (a->one[w] | (bc ? bc[w] : 0));
	}
	for (w = 0; w < a->w; w++) {
		x = a->x[w];
		a->p[w] = x << 1 | carry | (a->p[w] & a->any[w]);
		carry = x >> 63;
	}
	nfa_close(a, next);
	for (w = 0; w < a->w; w++)
		live |= a->p[w] | a->d[w];
	return live != 0;
}

/*
 * A Thompson NFA over the pattern's tokens, its states as bits: each byte of s costs
 * one pass over ceil((tokens + 1) / 64) words, whatever the pattern; no backtracking,
 * so no pattern and name make it quadratic (one word, linear in s, for patterns of up
 * to 63 tokens). The backtracking walk this replaces took 37 ms for a 4 KB path
 * against "*aa...ab".
 */
bool pdt_pattern_match(const char *pat, const char *s)
{
	uint64_t stack_words[96], *words = stack_words;
	struct nfa a;
	size_t nclass, need;
	bool r = true;

	if (!nfa_scan(&a, pat, &nclass))
		return false;
	a.w = (a.m + 1 + 63) / 64;
	need = a.w * (nclass + 1 + 6);
	if (need > sizeof(stack_words) / sizeof(stack_words[0]) &&
	    !(words = malloc(need * sizeof(*words))))
		return false; /* out of memory: no match, so the gate fails closed */
	memset(words, 0, need * sizeof(*words));
	a.any = words;
	a.dig = a.any + a.w;
	a.one = a.dig + a.w;
	a.p = a.one + a.w;
	a.d = a.p + a.w;
	a.x = a.d + a.w;
	a.bytes = a.x + a.w;
	nfa_masks(&a, pat);
	a.p[0] = 1;
	nfa_close(&a, *s);
	for (; *s && r; s++)
		r = nfa_step(&a, (unsigned char)*s, s[1]);
	r = r && (a.p[a.m / 64] >> (a.m % 64) & 1);
	if (words != stack_words)
		free(words);
	return r;
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
