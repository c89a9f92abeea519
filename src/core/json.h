/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON writer every JSON output goes through (like bpftool's json_writer): it
 * places the commas and colons and escapes every string, so no caller assembles JSON
 * by hand. Compact by default: no whitespace between tokens; indented (bpftool's -p)
 * once pdt_json_set_pretty(true) was called.
 */
#ifndef PDT_JSON_H
#define PDT_JSON_H

#include <stdbool.h>
#include <stdio.h>

#define PDT_JSON_MAX_DEPTH 16

struct pdt_json {
	FILE *fp;
	int depth;
	bool need_comma[PDT_JSON_MAX_DEPTH]; /* a value was written at this level */
	bool after_name;		     /* the next value follows "name": */
	bool pretty;			     /* indented, two spaces a level */
};

/*
 * Every writer initialised after this call indents (true) or not (false, the default).
 * A process-wide choice, as bpftool's -p: one option changes every JSON output.
 */
void pdt_json_set_pretty(bool pretty);

/*
 * S as a JSON string, quotes included. Names from the kernel are bytes, not
 * UTF-8: every byte outside printable ASCII is written as \u00XX, so the output
 * is valid JSON whatever S holds.
 */
void pdt_json_str(FILE *fp, const char *s);

void pdt_json_init(struct pdt_json *j, FILE *fp);
void pdt_json_obj_open(struct pdt_json *j);
void pdt_json_obj_close(struct pdt_json *j);
void pdt_json_arr_open(struct pdt_json *j);
void pdt_json_arr_close(struct pdt_json *j);
/* An object member's name: the value written next is its value. */
void pdt_json_name(struct pdt_json *j, const char *name);
void pdt_json_string(struct pdt_json *j, const char *s); /* NULL: null */
void pdt_json_uint(struct pdt_json *j, unsigned long long v);
void pdt_json_int(struct pdt_json *j, long long v);
void pdt_json_bool(struct pdt_json *j, bool v);
void pdt_json_null(struct pdt_json *j);
/* A number printed with a printf format of one double ("%.1f"). */
void pdt_json_double(struct pdt_json *j, const char *fmt, double v);

/* Name and value in one call. */
void pdt_json_kv_str(struct pdt_json *j, const char *name, const char *s);
void pdt_json_kv_uint(struct pdt_json *j, const char *name, unsigned long long v);
void pdt_json_kv_int(struct pdt_json *j, const char *name, long long v);
void pdt_json_kv_bool(struct pdt_json *j, const char *name, bool v);

#endif
