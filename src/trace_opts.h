/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracker's options, one argp child shared by every command that traces
 * (check, record, trace, watch): --dput, --user-stacks, --no-self-check, --ringbuf-pages.
 */
#ifndef PDT_TRACE_OPTS_H
#define PDT_TRACE_OPTS_H

#include <argp.h>
#include "tracker.h"

/* The largest ring buffer accepted: 1 GiB. */
#define PDT_MAX_RINGBUF_PAGES (1u << 18)

/*
 * Its input is the command's struct pdt_tracker_opts: set it from the command's
 * parser, `case ARGP_KEY_INIT: state->child_inputs[0] = &a->tracker;`. Errors
 * name the command (argv[0], state->name) and exit 2.
 */
extern const struct argp pdt_trace_argp;
/* A command's argp children: pdt_trace_argp under the heading "Tracing options:". */
extern const struct argp_child pdt_trace_children[];

#endif
