/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PDT_STOP_H
#define PDT_STOP_H

#include <signal.h>
#include <stdbool.h>
#include <time.h>

/*
 * SIGINT and SIGTERM set a flag instead of killing pdtrace, so that the loop that
 * waits drains the events and reports. pdt_stop_catch() clears the flag and installs
 * the handler; pdt_stop_release() puts back what was there.
 */
struct pdt_stop_guard {
	struct sigaction old_int, old_term;
};

void pdt_stop_catch(struct pdt_stop_guard *g);
void pdt_stop_release(const struct pdt_stop_guard *g);
bool pdt_stop_requested(void);

/* Seconds on CLOCK_MONOTONIC since start. */
double pdt_since(const struct timespec *start);

/*
 * The wait without COMMAND, for every command: call poll(ctx) (it waits: for events,
 * or a sleep) until SIGINT or SIGTERM, duration seconds (0: no limit), or poll returns
 * true.
 */
void pdt_wait_stopped(double duration, bool (*poll)(void *ctx), void *ctx);

#endif
