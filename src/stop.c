// SPDX-License-Identifier: GPL-2.0
#include "stop.h"

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

void pdt_stop_catch(struct pdt_stop_guard *g)
{
	struct sigaction sa = { .sa_handler = on_stop };

	stop = 0;
	sigaction(SIGINT, &sa, &g->old_int);
	sigaction(SIGTERM, &sa, &g->old_term);
}

void pdt_stop_release(const struct pdt_stop_guard *g)
{
	sigaction(SIGINT, &g->old_int, NULL);
	sigaction(SIGTERM, &g->old_term, NULL);
}

bool pdt_stop_requested(void)
{
	return stop;
}
