/* SPDX-License-Identifier: GPL-2.0 */
/* JSON output shared by the reports and watch. */
#ifndef PDT_JSON_H
#define PDT_JSON_H

#include <stdio.h>

/*
 * S as a JSON string, quotes included. Names from the kernel are bytes, not
 * UTF-8: every byte outside printable ASCII is written as \u00XX, so the output
 * is valid JSON whatever S holds.
 */
void pdt_json_str(FILE *fp, const char *s);

#endif
