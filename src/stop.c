// SPDX-License-Identifier: GPL-2.0
#include <time.h>
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

double pdt_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9;
}

void pdt_wait_stopped(double duration, bool (*poll)(void *ctx), void *ctx)
{
	struct pdt_stop_guard g;
	struct timespec start;

	pdt_stop_catch(&g);
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!pdt_stop_requested() && !(duration > 0 && pdt_since(&start) >= duration))
		if (poll(ctx))
			break;
	pdt_stop_release(&g);
}
