// SPDX-License-Identifier: GPL-2.0
/* The per-task state's global function (common.bpf.h's graph_check()). */
#include "common.bpf.h"

__noinline int pdt_graph_overrun(u32 now)
{
	struct pdt_task_state *t = task_state(true);
	u32 seen;

	if (!t)
		return 0; /* counted as PDT_TC_TASK_FULL: incomplete all the same */
	seen = t->graph_overruns;
	if (now == seen)
		return 0;
	t->graph_overruns = now;
	/* Lower than last read: a graph tracer's start set it back to 0 since. */
	__sync_fetch_and_add(&pdt_counters[PDT_TC_GRAPH_SKIPPED], now > seen ? now - seen : now);
	return 0;
}
