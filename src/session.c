// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include "child.h"
#include "session.h"
#include "stop.h"

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

/* One wait for events, then the caller's tick: true when it asks to stop. */
static bool poll_once(struct pdt_tracker *t, const struct pdt_session_opts *o)
{
	pdt_tracker_poll(t, o->poll_ms ? o->poll_ms : 100);
	return o->tick && o->tick(o->ctx);
}

struct poll_ctx {
	struct pdt_tracker *t;
	const struct pdt_session_opts *o;
};

static void poll_child(void *ctx)
{
	struct poll_ctx *p = ctx;

	poll_once(p->t, p->o); /* COMMAND's end, not the tick, ends this run */
}

static double since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

/* No COMMAND: until SIGINT or SIGTERM, the duration, or the tick asks to stop. */
static void wait_stopped(struct pdt_tracker *t, const struct pdt_session_opts *o)
{
	struct pdt_stop_guard g;
	struct timespec start;

	pdt_stop_catch(&g);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!pdt_stop_requested() && !(o->duration > 0 && since(&start) >= o->duration))
		if (poll_once(t, o))
			break;
	pdt_stop_release(&g);
}

int pdt_session_run(struct pdt_tracker *t, const struct pdt_session_opts *o, int *status, char *err,
		    size_t errlen)
{
	pid_t pid;
	int rc;

	*status = -1;
	if (o->command) {
		rc = pdt_spawn(o->command, &pid);
		if (rc) {
			snprintf(err, errlen, "cannot run '%s': %s", o->command[0], strerror(-rc));
			return -1;
		}
		struct poll_ctx p = { t, o };

		*status = pdt_run_child(pid, poll_child, &p);
	} else {
		wait_stopped(t, o);
	}
	pdt_tracker_stop(t);
	return 0;
}
