/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `pdtrace report`: a recording replayed through the rules engine, giving the
 * report `check` gave live. Plain C: fuzzed with the reader and the report writer.
 */
#ifndef PDT_REPLAY_H
#define PDT_REPLAY_H

#include <stdio.h>
#include "hooks.h"
#include "recfile.h"
#include "report.h"
#include "rules.h"

struct pdt_replay {
	struct pdt_rec rec;
	struct pdt_rules *rules;
	struct pdt_mount
	    *mounts; /* parallel to the rules' superblocks, as the tracker keeps them */
	size_t nmounts, cap_mounts;
	struct mountinfo_index mounts_ix; /* the snapshot in force */
	bool oom;
	bool fs_seen[PDT_MAX_HOOKS]; /* pdt_report.fs_seen */
	char start[32];		     /* the recording's start, ISO 8601 UTC */
	struct pdt_recording info;
};

/*
 * Read and replay a recording (size bytes if known, else UINT64_MAX). Returns 0
 * (the data may be incomplete: rp->rec.truncated), or -1 with one line in err.
 * Free rp with pdt_replay_free() either way.
 */
int pdt_replay_read(struct pdt_replay *rp, FILE *fp, uint64_t size, char *err, size_t errlen);
/* The report of a replay, as pdt_fill_report() makes one for a live run. */
void pdt_replay_fill_report(struct pdt_replay *rp, struct pdt_report *rep, const char *file,
			    bool show_addresses);
void pdt_replay_free(struct pdt_replay *rp);

#endif
