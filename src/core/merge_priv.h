/* SPDX-License-Identifier: GPL-2.0 */
/* The merge's insides, for its writers (merge.c: text and JSON; merge_ci.c: JUnit, KTAP). */
#ifndef PDT_MERGE_PRIV_H
#define PDT_MERGE_PRIV_H

#include <stdbool.h>
#include <stdio.h>
#include "rules.h"
#include "u64map.h"

/* How often a distinct finding was seen in one recording. */
struct origin {
	size_t rec;
	unsigned long long count;
};

struct distinct {
	char hex[17];
	char *key;
	enum pdt_kind kind;
	const char *rule;
	char *text;  /* the first occurrence as the text report shows it */
	char *first; /* its recording */
	char *path, *fs_type, *message;
	char **stack; /* its stack, symbolized, without addresses */
	unsigned int nstack;
	char *suppressed_by; /* the entry that matched its first occurrence */
	bool known;
	bool fails; /* an occurrence fails the gate in its own recording */
	unsigned long long count;
	struct origin *origins;
	size_t norigins;
};

struct recinfo {
	char *file;
	bool complete;
	unsigned long long findings, unlisted;
};

struct pdt_merge {
	struct pdt_supp *supp;
	struct pdt_baseline *base;
	struct u64map by_sig; /* digest -> index + 1 into v */
	struct distinct *v;
	size_t n, cap;
	struct recinfo *recs;
	size_t nrecs, caprecs;
	unsigned long long suppressed, known;
};

/* "  seen N times in M recordings: FILE (N), ..." */
void pdt_merge_text_origins(FILE *fp, const struct pdt_merge *m, const struct distinct *d);
void pdt_merge_junit(FILE *fp, const struct pdt_merge *m);
void pdt_merge_ktap(FILE *fp, const struct pdt_merge *m);

#endif
