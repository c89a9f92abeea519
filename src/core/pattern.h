/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wildcard patterns of suppression files (docs/findings.md, "Suppressions"): `*` any
 * bytes (a '/' too), `?` one byte, `#` a run of decimal digits (what a signature
 * normalises), `\` quoting the next byte, `\xHH` a byte as the text reports escape it.
 */
#ifndef PDT_PATTERN_H
#define PDT_PATTERN_H

#include <stdbool.h>
#include <stdio.h>

/* NULL if pat is well formed, else what is wrong with it. */
const char *pdt_pattern_check(const char *pat);
/*
 * Does the well-formed pattern pat match all of s? Linear in s for a pattern of up to
 * 63 tokens, and never more than len(s) * ceil((tokens + 1) / 64) word steps.
 */
bool pdt_pattern_match(const char *pat, const char *s);
/* The word steps pdt_pattern_match() has taken, for tests of its cost. */
extern unsigned long long pdt_pattern_steps;
/*
 * s as a pattern that matches it: escaped as text reports escape names (text.h), the
 * wildcard characters quoted; with digits_wild, each run of digits as '#'.
 */
void pdt_pattern_quote(FILE *fp, const char *s, bool digits_wild);

#endif
