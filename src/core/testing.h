/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PDTRACE_TESTING: the test suite's knobs, in one variable (pdtrace(8), ENVIRONMENT):
 * words separated by blanks, each NAME or NAME=VALUE, e.g.
 * "no-lsm omit-hooks=__d_move,dput kstacks=4". Not for normal use: each makes pdtrace
 * behave as on a kernel or a load it cannot otherwise be given in a test.
 */
#ifndef PDT_TESTING_H
#define PDT_TESTING_H

#include <stdbool.h>

/* Whether the word NAME (or NAME=...) is set. */
bool pdt_testing(const char *name);

/* NAME's value as a number above 0, else dflt (NAME unset, bare, or not such a number). */
unsigned long pdt_testing_num(const char *name, unsigned long dflt);

/* Whether item is in NAME's comma-separated value (omit-hooks=f,g). */
bool pdt_testing_lists(const char *name, const char *item);

#endif
