/* SPDX-License-Identifier: GPL-2.0 */
/* Where reports go, and what goes into them: shared by check and trace. */
#ifndef PDT_OUTPUT_H
#define PDT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include "report.h"
#include "tracker.h"

/* stdout for NULL or "-"; else create FILE without following a symlink. Exits 2 on error. */
FILE *pdt_open_output(const char *cmd, const char *path);
/* Flush and close; exits 2 when the report could not be written whole. */
void pdt_close_output(const char *cmd, FILE *fp, const char *path);
/* The report of a stopped tracker: counts, completeness, symbols, coverage. */
void pdt_fill_report(struct pdt_report *rep, struct pdt_tracker *t, bool show_addresses);

#endif
