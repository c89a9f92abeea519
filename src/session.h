/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One traced run, the event loop every tracking command shares (check, record,
 * trace, watch: the same findings from the same path): attach, run COMMAND or wait
 * for SIGINT, SIGTERM, the duration or the tick's word, then detach and drain every
 * event into the rules engine.
 */
#ifndef PDT_SESSION_H
#define PDT_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include "tracker.h"

struct pdt_session_opts {
	struct pdt_tracker_opts tracker;
	char **command;	 /* NULL: until SIGINT, SIGTERM or duration */
	double duration; /* seconds, without COMMAND; 0: no limit */
	/* Attached, COMMAND not started yet: 0, or -1 with a reason in err. Optional. */
	int (*started)(struct pdt_tracker *t, void *ctx, char *err, size_t errlen);
	/*
	 * After each poll of the ring buffer (at least every poll_ms). Without COMMAND,
	 * true stops the run (watch's q key, its count). Optional.
	 */
	bool (*tick)(void *ctx);
	int poll_ms; /* 0: 100 ms */
	void *ctx;
};

/* Attach, then started(). Returns 0, or -1 with one line in err (the caller exits 2). */
int pdt_session_start(struct pdt_tracker *t, const struct pdt_session_opts *o, char *err,
		      size_t errlen);
/*
 * Run COMMAND (or wait), delivering events meanwhile, then detach and drain.
 * *status: COMMAND's shell-style status, -1 without one. Returns 0, or -1 with
 * one line in err when COMMAND cannot be run.
 */
int pdt_session_run(struct pdt_tracker *t, const struct pdt_session_opts *o, int *status, char *err,
		    size_t errlen);

#endif
