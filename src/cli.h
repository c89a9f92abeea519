/* SPDX-License-Identifier: GPL-2.0 */
/*
 * argp with pdtrace's error contract: a bad option is one line on stderr and
 * exit status 2, never argp's two-line message and EX_USAGE.
 */
#ifndef PDT_CLI_H
#define PDT_CLI_H

#include <argp.h>
#include <stdbool.h>
#include "report.h"
#include "rules.h"
#include "version.h"

/*
 * Parse argv with argp (options in order). Handles --help/-h and -v/--verbose (alias --debug).
 * cmd is the subcommand ("doctor"), or NULL for pdtrace's own options.
 * On a bad option: prints one line and exits PDT_EXIT_ERROR.
 */
void pdt_parse_args(const struct argp *argp, const char *cmd, int argc, char **argv, void *input);

/*
 * -j and -p, as bpftool's: FMT becomes JSON, indented with pretty (every JSON writer of
 * the process then indents, json.h).
 */
void pdt_format_json(enum pdt_format *fmt, bool pretty);
/* -f of a command that writes text or JSON only: either, or exit 2 naming the command. */
void pdt_parse_text_json(const char *cmd, const char *arg, enum pdt_format *fmt);

/* Parse a positive number of seconds (fractions allowed) or exit 2 naming the option. */
double pdt_parse_seconds(const char *cmd, const char *opt, const char *arg);

/* For commands without positional arguments: one line, exit 2. */
void pdt_unexpected_arg(const char *cmd, const char *arg) __attribute__((noreturn));

/* --fail-on: "leak,imbalance" -> flags; exits 2 on an unknown kind or none. */
void pdt_parse_kinds(const char *cmd, const char *arg, bool kinds[PDT_KIND_MAX]);

#endif
