/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --baseline REPORT.json: the signatures of an earlier `-f json` report. A finding whose
 * signature is there is known and does not fail the gate; the report says how many
 * were known, new and gone. Plain C, with the small JSON reader it needs: the file comes
 * from wherever CI keeps it, and is read as untrusted.
 */
#ifndef PDT_BASELINE_H
#define PDT_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Nesting a baseline may have, at most (pdtrace's reports have 4). */
#define PDT_BASELINE_MAX_DEPTH 64
/*
 * Bytes a baseline may have, at most: 256 MiB. A JSON report of the most findings the
 * rules keep (10000) is some 20 MiB; the file is read whole, so the limit holds first.
 */
#define PDT_BASELINE_MAX_BYTES (256u << 20)

struct pdt_baseline;

/*
 * The signatures of the JSON report in buf (len bytes; file names it in errors).
 * NULL with "FILE: byte N: what is wrong" (or "FILE: what") in err.
 */
struct pdt_baseline *pdt_baseline_parse(const char *file, const char *buf, size_t len, char *err,
					size_t n);
/*
 * pdt_baseline_parse() of the file at path; "PATH: cannot read: why", or "PATH: more than
 * PDT_BASELINE_MAX_BYTES bytes ..." (checked before it is read, or, from a pipe, as it is).
 */
struct pdt_baseline *pdt_baseline_load(const char *path, char *err, size_t n);
void pdt_baseline_free(struct pdt_baseline *b);

const char *pdt_baseline_file(const struct pdt_baseline *b);
/* Is this signature (16 hex digits) in the baseline? It is then marked seen. */
bool pdt_baseline_has(struct pdt_baseline *b, const char *hex);
/* The distinct signatures, sorted; seen or not; their keys ("" when the report had none). */
size_t pdt_baseline_count(const struct pdt_baseline *b);
bool pdt_baseline_seen(const struct pdt_baseline *b, size_t i);
void pdt_baseline_sig(const struct pdt_baseline *b, size_t i, char hex[17]);
const char *pdt_baseline_key(const struct pdt_baseline *b, size_t i);
/* Signatures of the baseline no finding of this run had. */
size_t pdt_baseline_gone(const struct pdt_baseline *b);

#endif
