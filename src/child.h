/* SPDX-License-Identifier: GPL-2.0 */
/* Running the traced COMMAND. */
#ifndef PDT_CHILD_H
#define PDT_CHILD_H

#include <sys/types.h>

/*
 * Fork and exec argv[0] (searched in PATH). Returns 0 with *pid set, or -errno
 * when fork or exec failed (an exec failure is reported through a CLOEXEC pipe,
 * so a missing command is an error here, not an exit status 127 later).
 */
int pdt_spawn(char *const argv[], pid_t *pid);

/*
 * Wait for pid while SIGINT and SIGQUIT are ignored here (the terminal sends
 * them to the command too, which is what ends it). Returns the shell-style
 * status: the exit code, or 128 + signal number.
 */
int pdt_wait(pid_t pid);

#endif
