/* SPDX-License-Identifier: GPL-2.0 */
/* Where reports go, and what goes into them: shared by check and trace. */
#ifndef PDT_OUTPUT_H
#define PDT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "report.h"
#include "tracker.h"

/* Create (or truncate) path for writing, never through a symlink; exits 2 on error. */
int pdt_create_file(const char *cmd, const char *path, mode_t mode);
/*
 * A new file at path, mode 0600 (a recording holds kernel addresses): a regular file
 * there is unlinked first, never truncated; never through a symlink; a FIFO or a
 * character device is written as it is. Exits 2 on error.
 */
int pdt_create_private(const char *cmd, const char *path);
/* stdout for NULL or "-"; else pdt_create_file() as a stream. Exits 2 on error. */
FILE *pdt_open_output(const char *cmd, const char *path);
/* Flush and close; exits 2 when the report could not be written whole. */
void pdt_close_output(const char *cmd, FILE *fp, const char *path);
/* The report of a stopped tracker: counts, completeness, symbols, coverage. */
void pdt_fill_report(struct pdt_report *rep, struct pdt_tracker *t, bool show_addresses);

#endif
