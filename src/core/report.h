/* SPDX-License-Identifier: GPL-2.0 */
/* Reports of a run: text for terminals, JSON for tools, JUnit XML and KTAP for CI. Plain C. */
#ifndef PDT_REPORT_H
#define PDT_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "gate.h"
#include "json.h"
#include "ksyms.h"
#include "mountinfo.h"
#include "rules.h"

enum pdt_format { PDT_FMT_TEXT, PDT_FMT_JSON, PDT_FMT_JUNIT, PDT_FMT_KTAP, PDT_FMT_KCIDB };

struct pdt_mount {
	char path[256]; /* first mountpoint, "" if not mounted */
	int count;	/* number of mounts */
};

/* Where the data came from when the report is of a recording (`pdtrace report`). */
struct pdt_recording {
	const char *file;
	const char *recorded_by; /* pdtrace version that recorded */
	const char *start;	 /* ISO 8601, UTC */
	unsigned long long events;
	const char *truncated; /* why the file stops early; NULL if it does not */
};

struct pdt_report {
	const char *version;
	const char *kernel;	     /* uname -r */
	const char *machine;	     /* uname -m; NULL: not known */
	unsigned long long start_ns; /* wall clock at the start, ns since the epoch; 0: not known */
	bool complete;
	unsigned long long lost_events;
	unsigned long long map_full;	 /* insertions refused by full maps */
	unsigned long long dput_skipped; /* dput() checks the kernel skipped */
	unsigned long long malformed;
	char *const *argv; /* the command, NULL-terminated; NULL if none */
	int exit_status;   /* the command's, shell-style; -1 if none */
	const struct pdt_rules *rules;
	const struct pdt_mount *mounts; /* parallel to the rules' superblocks */
	size_t nmounts;
	const char *const *missing; /* "hook: what is lost" lines */
	size_t nmissing;
	/*
	 * [PDT_MAX_HOOKS]: a superblock of hook i's filesystem (pdt_hook.fs_type) came in
	 * this run, so its missing hook lost something. NULL: not known, every line counts.
	 */
	const bool *fs_seen;
	const struct ksyms *ksyms;
	bool show_addresses;
	const struct pdt_recording *recording; /* NULL: a live run */
	const struct pdt_gate *gate;	       /* verdicts; NULL: every finding is new */
	bool gen_suppressions;		       /* a ready entry under each unsuppressed finding */
	/*
	 * Each superblock's number among those of its name (pdt_report_sb_dup()), counted
	 * once by pdt_report_write(); NULL: counted on demand, by a pass over the others.
	 */
	const unsigned int *sb_dups;
};

int pdt_parse_format(const char *s, enum pdt_format *fmt);
/*
 * pdtrace's exit status for a report: 1 findings of a kind in fail_on (with
 * incomplete data, only findings observed directly: pdt_rules_fail()), else 3 when
 * the data is incomplete, else 0.
 */
/*
 * The one completeness rule, for every command: nothing lost, no map insertion
 * refused, no malformed event, the self-check found the books consistent, and (for a
 * recording) the file whole. r's counters and rules must be set.
 */
bool pdt_report_complete(const struct pdt_report *r, bool truncated);
int pdt_report_status(const struct pdt_report *r, const bool fail_on[PDT_KIND_MAX]);
/* fail_on for commands that fail on any finding (trace, watch). */
extern const bool pdt_fail_on_all[PDT_KIND_MAX];
/*
 * Set the mount of dev (looked up in ix) at idx of mounts kept parallel to the
 * superblocks (an index comes back when the rules retire its superblock).
 */
int pdt_mounts_set(struct pdt_mount **v, size_t *n, size_t *cap, size_t idx,
		   const struct mountinfo_index *ix, unsigned int dev);
/*
 * Does the run miss what this coverage line (of missing[]) says is lost? Not for a hook
 * that serves one filesystem (configfs_rmdir() without the configfs module) when no
 * superblock of that filesystem came: the text report leaves such a line out.
 */
bool pdt_report_coverage_needed(const struct pdt_report *r, const char *line);
void pdt_report_write(FILE *fp, enum pdt_format fmt, const struct pdt_report *r);
/* The text report without its findings: superblock table, coverage, summary. */
void pdt_report_summary(FILE *fp, const struct pdt_report *r);
/* One finding as `trace` streams it: a text block, or one JSON object on one line. */
void pdt_finding_text(FILE *fp, const struct pdt_finding *f, const struct ksyms *k, bool addrs);
void pdt_finding_json(struct pdt_json *j, const struct pdt_finding *f, const struct ksyms *k,
		      bool addrs);
/*
 * Finding i of the report as its format's text block shows it: in full (with a
 * suppression entry after it under --gen-suppressions) when it fails the gate, in one
 * line when it is suppressed or known.
 */
void pdt_report_finding(FILE *fp, const struct pdt_report *r, size_t i);
/*
 * A finding that passes the gate, in one line: "suppressed by 'ENTRY': ..." or, with
 * entry NULL, "known (in the baseline): ...", then what, where and its signature.
 */
void pdt_finding_brief(FILE *fp, const struct pdt_finding *f, const struct ksyms *k,
		       const char *entry);
/* pdt_finding_json() with the finding's fate: "suppressed_by" (entry or null), "known". */
void pdt_finding_json_fate(struct pdt_json *j, const struct pdt_finding *f, const struct ksyms *k,
			   bool addrs, const char *entry, bool known);
/* "summary":{"leak":N,"imbalance":N,"illegal-removal":N} in the object j is in. */
void pdt_json_summary(struct pdt_json *j, const struct pdt_rules *rules);
/* "major:minor" of a kernel-encoded dev_t. */
void pdt_format_dev(unsigned int dev, char *buf, size_t n);

#endif
