// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "child.h"
#include "session.h"
#include "stop.h"
#include "testing.h"

int pdt_session_start(struct pdt_tracker *t, const struct pdt_session_opts *o, char *err,
		      size_t errlen)
{
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (pdt_tracker_open(t, &o->tracker, err, errlen))
		return -1;
	return o->started ? o->started(t, o->ctx, err, errlen) : 0;
}

struct poll_ctx {
	struct pdt_tracker *t;
	const struct pdt_session_opts *o;
	int poll_ms;
};

/*
 * The longest wait for events: the caller's, else 100 ms. poll-ms=N (PDTRACE_TESTING)
 * sets it, so that only the BPF side's wakeups (see submit() in common.bpf.h) can have
 * the reader take events before the command is done.
 */
static int poll_ms(const struct pdt_session_opts *o)
{
	unsigned long ms = pdt_testing_num("poll-ms", 0);

	return ms && ms < 3600000 ? (int)ms : o->poll_ms ? o->poll_ms : 100;
}

/* One wait for events, then the caller's tick: true when it asks to stop. */
static bool poll_once(void *ctx)
{
	const struct poll_ctx *p = ctx;

	pdt_tracker_poll(p->t, p->poll_ms);
	return p->o->tick && p->o->tick(p->o->ctx);
}

int pdt_session_run(struct pdt_tracker *t, const struct pdt_session_opts *o, int *status, char *err,
		    size_t errlen)
{
	struct poll_ctx p = { t, o, poll_ms(o) }; /* read once, not at every poll */
	pid_t pid;
	int rc;

	*status = -1;
	if (o->command) {
		rc = pdt_spawn(o->command, &pid);
		if (rc) {
			snprintf(err, errlen, "cannot run '%s': %s", o->command[0], strerror(-rc));
			return -1;
		}
		*status = pdt_run_child(pid, poll_once, &p);
	} else {
		pdt_wait_stopped(o->duration, poll_once, &p);
	}
	pdt_tracker_stop(t);
	return 0;
}
