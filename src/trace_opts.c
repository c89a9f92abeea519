// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "exit_codes.h"
#include "log.h"
#include "trace_opts.h"

enum {
	OPT_NO_DPUT = 0x300,
	OPT_RINGBUF_PAGES,
	OPT_DPUT,
	OPT_USER_STACKS,
	OPT_NO_SELF_CHECK,
};

/* The defaults are spelt out in the help: keep them in step. */
_Static_assert(PDT_DEFAULT_RINGBUF_PAGES == 2048, "--ringbuf-pages help");

static const struct argp_option trace_options[] = {
	{ "dput", OPT_DPUT, NULL, 0,
	  "Trace dput() too: a dput() that drops an entry's persistent reference is then "
	  "caught with its own stack (costly on lookups)",
	  0 },
	{ "no-dput", OPT_NO_DPUT, NULL, 0,
	  "Do not trace dput(): the default; cancels an earlier --dput", 0 },
	{ "user-stacks", OPT_USER_STACKS, NULL, 0,
	  "Keep the kernel stack of user-space creations too (by default: their pid and comm)", 0 },
	{ "no-self-check", OPT_NO_SELF_CHECK, NULL, 0,
	  "Skip the final check that pdtrace's counts match the entries the kernel holds", 0 },
	{ "ringbuf-pages", OPT_RINGBUF_PAGES, "N", 0,
	  "Event ring buffer of N 4 KiB pages, a power of two (default 2048: 8 MiB)", 0 },
	{},
};

/* A decimal count, digits only (no sign, no space): -1 if ARG is not one. Saturates. */
static int parse_count(const char *arg, unsigned long long *v)
{
	if (!arg[0] || strspn(arg, "0123456789") != strlen(arg))
		return -1;
	*v = strtoull(arg, NULL, 10); /* ULLONG_MAX on overflow: too large */
	return 0;
}

static unsigned int ringbuf_pages(const char *cmd, const char *arg)
{
	unsigned long long v;

	if (parse_count(arg, &v))
		pdt_die(PDT_EXIT_ERROR, "%s: --ringbuf-pages expects a number of pages, got '%s'",
			cmd, arg);
	if (v > PDT_MAX_RINGBUF_PAGES)
		pdt_die(PDT_EXIT_ERROR, "%s: --ringbuf-pages must be at most %u (1 GiB), got '%s'",
			cmd, PDT_MAX_RINGBUF_PAGES, arg);
	if (!v || (v & (v - 1)))
		pdt_die(PDT_EXIT_ERROR,
			"%s: --ringbuf-pages must be a power of two (1, 2, 4 ... %u), got '%s'",
			cmd, PDT_MAX_RINGBUF_PAGES, arg);
	return (unsigned int)v;
}

static error_t parse_trace_opts(int key, char *arg, struct argp_state *state)
{
	struct pdt_tracker_opts *o = state->input;
	/* pdt_parse_args() hands each command its own argv: argv[0] is the command. */
	const char *cmd = state->name;

	switch (key) {
	case OPT_DPUT:
		o->dput = true;
		return 0;
	case OPT_NO_DPUT:
		o->dput = false;
		return 0;
	case OPT_USER_STACKS:
		o->user_stacks = true;
		return 0;
	case OPT_NO_SELF_CHECK:
		o->no_self_check = true;
		return 0;
	case OPT_RINGBUF_PAGES:
		o->ringbuf_pages = ringbuf_pages(cmd, arg);
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp pdt_trace_argp = {
	trace_options, parse_trace_opts, NULL, NULL, NULL, NULL, NULL,
};

const struct argp_child pdt_trace_children[] = {
	{ &pdt_trace_argp, 0, "Tracing options:", 0 },
	{},
};
