/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `pdtrace report A.pdtrec B.pdtrec DIR ...`: many recordings as one report, findings
 * deduplicated by signature, each with how often and where it was seen. Recordings are
 * added one at a time and freed: memory grows with the distinct findings (and, for each,
 * the recordings it was seen in), not with the recordings.
 */
#ifndef PDT_MERGE_H
#define PDT_MERGE_H

#include <stdbool.h>
#include <stdio.h>
#include "baseline.h"
#include "report.h"
#include "suppress.h"

struct pdt_merge;

/* A merge with these suppressions and this baseline (either may be NULL): it owns them. */
struct pdt_merge *pdt_merge_new(struct pdt_supp *supp, struct pdt_baseline *base);
void pdt_merge_free(struct pdt_merge *m);
/* Add the findings of one recording's report. Returns 0, or -1 out of memory. */
int pdt_merge_add(struct pdt_merge *m, const char *file, const struct pdt_report *rep);
/* The merged report: text or JSON. */
void pdt_merge_write(FILE *fp, enum pdt_format fmt, const struct pdt_merge *m);
/*
 * 1 when a finding of a fail_on kind, neither suppressed nor known, fails in its own
 * recording (pdt_report_status()'s rule), or a recording has findings past its list;
 * else 3 when a recording is incomplete; else 0.
 */
int pdt_merge_status(const struct pdt_merge *m, const bool fail_on[PDT_KIND_MAX]);

#endif
