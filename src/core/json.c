// SPDX-License-Identifier: GPL-2.0
#include "json.h"

void pdt_json_str(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", fp);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(fp, "\\u%04x", c);
		else
			fputc(c, fp);
	}
	fputc('"', fp);
}

static bool pretty_default;

void pdt_json_set_pretty(bool pretty)
{
	pretty_default = pretty;
}

void pdt_json_init(struct pdt_json *j, FILE *fp)
{
	j->fp = fp;
	j->pretty = pretty_default;
	j->depth = 0;
	j->need_comma[0] = false;
	j->after_name = false;
}

/* Before any value or name: the comma that separates it from the previous one. */
static void sep(struct pdt_json *j)
{
	if (j->after_name) {
		j->after_name = false;
		return;
	}
	if (j->need_comma[j->depth])
		fputc(',', j->fp);
	j->need_comma[j->depth] = true;
	if (j->pretty && j->depth > 0)
		fprintf(j->fp, "\n%*s", 2 * j->depth, "");
}

static void jopen(struct pdt_json *j, char c)
{
	sep(j);
	fputc(c, j->fp);
	if (j->depth < PDT_JSON_MAX_DEPTH - 1)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void jclose(struct pdt_json *j, char c)
{
	/* An empty object or array stays on one line: {} and []. */
	if (j->pretty && j->need_comma[j->depth])
		fprintf(j->fp, "\n%*s", 2 * (j->depth - 1), "");
	fputc(c, j->fp);
	if (j->depth > 0)
		j->depth--;
}

void pdt_json_obj_open(struct pdt_json *j)
{
	jopen(j, '{');
}

void pdt_json_obj_close(struct pdt_json *j)
{
	jclose(j, '}');
}

void pdt_json_arr_open(struct pdt_json *j)
{
	jopen(j, '[');
}

void pdt_json_arr_close(struct pdt_json *j)
{
	jclose(j, ']');
}

void pdt_json_name(struct pdt_json *j, const char *name)
{
	sep(j);
	pdt_json_str(j->fp, name);
	fputs(j->pretty ? ": " : ":", j->fp);
	j->after_name = true;
}

void pdt_json_string(struct pdt_json *j, const char *s)
{
	sep(j);
	if (s)
		pdt_json_str(j->fp, s);
	else
		fputs("null", j->fp);
}

void pdt_json_uint(struct pdt_json *j, unsigned long long v)
{
	sep(j);
	fprintf(j->fp, "%llu", v);
}

void pdt_json_int(struct pdt_json *j, long long v)
{
	sep(j);
	fprintf(j->fp, "%lld", v);
}

void pdt_json_bool(struct pdt_json *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->fp);
}

void pdt_json_null(struct pdt_json *j)
{
	sep(j);
	fputs("null", j->fp);
}

void pdt_json_double(struct pdt_json *j, const char *fmt, double v)
{
	sep(j);
	fprintf(j->fp, fmt, v);
}

void pdt_json_kv_str(struct pdt_json *j, const char *name, const char *s)
{
	pdt_json_name(j, name);
	pdt_json_string(j, s);
}

void pdt_json_kv_uint(struct pdt_json *j, const char *name, unsigned long long v)
{
	pdt_json_name(j, name);
	pdt_json_uint(j, v);
}

void pdt_json_kv_int(struct pdt_json *j, const char *name, long long v)
{
	pdt_json_name(j, name);
	pdt_json_int(j, v);
}

void pdt_json_kv_bool(struct pdt_json *j, const char *name, bool v)
{
	pdt_json_name(j, name);
	pdt_json_bool(j, v);
}
