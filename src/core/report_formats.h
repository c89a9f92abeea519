/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CI formats of a report (JUnit XML, KTAP), each in a file of its own, and what they
 * share with report.c. Private to the report.
 */
#ifndef PDT_REPORT_FORMATS_H
#define PDT_REPORT_FORMATS_H

#include <stdio.h>
#include "report.h"

void pdt_junit_report(FILE *fp, const struct pdt_report *r);
void pdt_ktap_report(FILE *fp, const struct pdt_report *r);
void pdt_kcidb_report(FILE *fp, const struct pdt_report *r);
/*
 * A superblock's KCIDB test path, the same on every boot:
 * "pdtrace.FSTYPE.superblock.PLACE[-N]", PLACE its mountpoint without the leading '/'
 * (or its s_id), each character outside [a-zA-Z0-9_-] as '_', N from
 * pdt_report_sb_dup().
 */
void pdt_kcidb_sb_path(const struct pdt_report *r, size_t sb_index, char *buf, size_t n);

/* The one escaping function of each format: XML text and attribute values; a KTAP test
 * name (terminal-safe, '#' as \x23); text lines (already escaped) as "# " diagnostics. */
void pdt_xml_str(FILE *fp, const char *s);
void pdt_ktap_name(FILE *fp, const char *s);
void pdt_ktap_diag(FILE *fp, const char *text, size_t len);

/* Why the data is incomplete, in one line (a recording cut short, else the counters). */
void pdt_report_incomplete_why(const struct pdt_report *r, char *buf, size_t n);
/*
 * The listed findings grouped by superblock, each group in the findings' order, so that
 * a format that shows them per superblock reads each finding once, not once per
 * superblock. Without memory (idx NULL) a group is every finding: callers still check
 * each one's sb_index.
 */
struct pdt_sb_groups {
	size_t *start; /* superblock i's findings: idx[start[i]] to idx[start[i + 1] - 1] */
	size_t *idx;
	size_t nfindings;
};
void pdt_sb_groups_init(struct pdt_sb_groups *g, const struct pdt_report *r);
void pdt_sb_groups_free(struct pdt_sb_groups *g);
/* How many findings the group of sb_index holds (every listed one without memory). */
size_t pdt_sb_groups_count(const struct pdt_sb_groups *g, size_t sb_index);
/* The k-th finding of that group: an index for pdt_rules_finding(). */
size_t pdt_sb_groups_at(const struct pdt_sb_groups *g, size_t sb_index, size_t k);
/* Findings listed on superblock sb_index that fail the gate (new ones). */
size_t pdt_report_sb_findings(const struct pdt_report *r, const struct pdt_sb_groups *g,
			      size_t sb_index);
/* The suppression entries' counts (stale ones too) and the baseline's, as text lines. */
void pdt_report_gate_lines(FILE *fp, const struct pdt_report *r);
/*
 * A superblock as a test is named, the same on every boot (a device number is not):
 * "FSTYPE MOUNTPOINT", or "FSTYPE S_ID" when it has no mountpoint; the second and later
 * superblocks of one such name, in the order the books met them, end in " (2)", " (3)"...
 * Unescaped; PDT_SB_NAME_LEN holds it.
 */
#define PDT_SB_NAME_LEN (PDT_FSTYPE_LEN + sizeof(((struct pdt_mount *)0)->path) + 16)
void pdt_report_sb_name(const struct pdt_report *r, size_t sb_index, char *buf, size_t n);
/* 1 for the first superblock of its name, 2 for the second... (pdt_report_sb_name()). */
unsigned int pdt_report_sb_dup(const struct pdt_report *r, size_t sb_index);

#endif
