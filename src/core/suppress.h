/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Suppression files (--suppressions FILE, docs/findings.md "Suppressions"), in the
 * manner of valgrind's: named entries in braces, each a kind:rule, an optional fs type
 * and path, and frame patterns in order. A finding an entry matches does not fail the
 * gate. Plain C: the parser reads files users write, and is fuzzed.
 */
#ifndef PDT_SUPPRESS_H
#define PDT_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "ksyms.h"
#include "rules.h"

/* Frame lines per stack of an entry. */
#define PDT_SUPP_MAX_FRAMES 64
/* A line of a suppression file, at most. */
#define PDT_SUPP_MAX_LINE 8192

struct pdt_supp;

struct pdt_supp *pdt_supp_new(void);
void pdt_supp_free(struct pdt_supp *s);
/*
 * Add the entries of a file (read from fp; name is how errors call it). Returns 0, or -1
 * with "NAME:LINE: what is wrong" in err; the entries before the error stay added.
 */
int pdt_supp_parse(struct pdt_supp *s, const char *name, FILE *fp, char *err, size_t n);
/* pdt_supp_parse() of the file at path; an unreadable file is "PATH: why". */
int pdt_supp_load(struct pdt_supp *s, const char *path, char *err, size_t n);

size_t pdt_supp_count(const struct pdt_supp *s);
const char *pdt_supp_name(const struct pdt_supp *s, size_t i);
const char *pdt_supp_file(const struct pdt_supp *s, size_t i);
unsigned int pdt_supp_line(const struct pdt_supp *s, size_t i);
/* Findings entry i matched (pdt_supp_match() counts them). */
unsigned long long pdt_supp_matched(const struct pdt_supp *s, size_t i);

/* The first entry that matches f (counted), or -1. */
long pdt_supp_match(struct pdt_supp *s, const struct pdt_finding *f, const struct ksyms *k);
/* The same, not counted (a stream's look before the report judges). */
long pdt_supp_find(const struct pdt_supp *s, const struct pdt_finding *f, const struct ksyms *k);
/*
 * A ready entry for f (--gen-suppressions): its kind:rule, fs type, path with digit runs
 * as '#', and the frames from the top of each stack its signature uses, through the
 * last one it uses.
 */
void pdt_supp_gen(FILE *fp, const struct pdt_finding *f, const struct ksyms *k);

#endif
