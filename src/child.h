/* SPDX-License-Identifier: GPL-2.0 */
/* Running the traced COMMAND. */
#ifndef PDT_CHILD_H
#define PDT_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Fork and exec argv[0] (searched in PATH). Returns 0 with *pid set, or -errno
 * when fork or exec failed (an exec failure is reported through a CLOEXEC pipe,
 * so a missing command is an error here, not an exit status 127 later).
 */
int pdt_spawn(char *const argv[], pid_t *pid);

/*
 * Run until pid exits, calling poll(ctx) in a loop (it waits: for events, or a
 * sleep; what it returns is not asked: COMMAND's end ends the run). The one policy for COMMAND's signals: SIGTERM, SIGHUP and a SIGINT that a
 * process sent are passed on to it (a terminal's SIGINT reached it already) and
 * pdtrace stays to report; SIGQUIT is ignored. Returns the shell-style status: the
 * exit code, or 128 + signal number.
 */
int pdt_run_child(pid_t pid, bool (*poll)(void *ctx), void *ctx);

#endif
