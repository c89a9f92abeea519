/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PDT_STOP_H
#define PDT_STOP_H

#include <signal.h>
#include <stdbool.h>

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

#endif
