// SPDX-License-Identifier: GPL-2.0
/*
 * A merged report of several recordings for CI servers, in JUnit XML and KTAP: a test for
 * each recording's complete data, then one for each distinct finding (its signature),
 * failed when an occurrence fails the gate in its own recording; a suppressed or known
 * finding is a passed test that says so. The escaping is the single reports' own.
 */
#include <stdlib.h>
#include "merge.h"
#include "merge_priv.h"
#include "report_formats.h"
#include "text.h"

/* What a distinct finding's test carries: the finding as text, then where it was seen. */
static char *distinct_body(const struct pdt_merge *m, const struct distinct *d, size_t *len)
{
	char *buf = NULL, name[1024];
	FILE *mem = open_memstream(&buf, len);

	if (!mem)
		return NULL;
	if (d->suppressed_by)
		fprintf(mem, "suppressed by '%s'\n",
			pdt_text_esc(name, sizeof(name), d->suppressed_by));
	else if (d->known)
		fputs("known (in the baseline)\n", mem);
	fputs(d->text, mem);
	pdt_merge_text_origins(mem, m, d);
	fclose(mem);
	return buf;
}

static bool rec_fails(const struct recinfo *r)
{
	return !r->complete || r->unlisted;
}

static void distinct_name(char *buf, size_t n, const struct distinct *d)
{
	snprintf(buf, n, "%s %s %s", pdt_kind_name(d->kind), d->rule, d->hex);
}

void pdt_merge_junit(FILE *fp, const struct pdt_merge *m)
{
	size_t i, failures = 0, len;
	char name[128], *body;

	for (i = 0; i < m->nrecs; i++)
		failures += rec_fails(&m->recs[i]);
	for (i = 0; i < m->n; i++)
		failures += m->v[i].fails;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n", fp);
	fprintf(fp, "<testsuite name=\"pdtrace\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n",
		m->nrecs + m->n, failures);
	for (i = 0; i < m->nrecs; i++) {
		const struct recinfo *r = &m->recs[i];

		fputs("  <testcase classname=\"pdtrace.recording\" name=\"complete data: ", fp);
		pdt_xml_str(fp, r->file);
		fputs("\">\n", fp);
		if (rec_fails(r))
			fprintf(fp, "    <failure type=\"incomplete\" message=\"%s\"/>\n",
				r->complete
				    ? "findings past the list's end were not judged"
				    : "the recording is incomplete: findings may be missing");
		fputs("  </testcase>\n", fp);
	}
	for (i = 0; i < m->n; i++) {
		const struct distinct *d = &m->v[i];

		distinct_name(name, sizeof(name), d);
		fputs("  <testcase classname=\"pdtrace.", fp);
		pdt_xml_str(fp, d->fs_type);
		fprintf(fp, "\" name=\"%s\">\n", name);
		body = distinct_body(m, d, &len);
		if (d->fails) {
			fprintf(fp,
				"    <failure type=\"%s\" message=\"%s: ", pdt_kind_name(d->kind),
				d->rule);
			pdt_xml_str(fp, d->path);
			if (d->count == 1)
				fputs(" (once)\">", fp);
			else
				fprintf(fp, " (%llu times)\">", d->count);
			if (body)
				pdt_xml_str(fp, body);
			fputs("</failure>\n", fp);
		} else if (body) {
			fputs("    <system-out>", fp);
			pdt_xml_str(fp, body);
			fputs("</system-out>\n", fp);
		}
		free(body);
		fputs("  </testcase>\n", fp);
	}
	fputs("</testsuite>\n</testsuites>\n", fp);
}

void pdt_merge_ktap(FILE *fp, const struct pdt_merge *m)
{
	size_t i, n = 1, len;
	char name[128], *body;

	fputs("KTAP version 1\n", fp);
	fprintf(fp, "# pdtrace: %zu recordings, %zu distinct findings\n", m->nrecs, m->n);
	fprintf(fp, "1..%zu\n", m->nrecs + m->n);
	for (i = 0; i < m->nrecs; i++) {
		const struct recinfo *r = &m->recs[i];

		if (!r->complete)
			fputs("# incomplete: findings may be missing\n", fp);
		if (r->unlisted)
			fprintf(fp, "# %llu findings past the list's end, not judged\n",
				r->unlisted);
		fprintf(fp, "%s %zu complete data: ", rec_fails(r) ? "not ok" : "ok", n++);
		pdt_ktap_name(fp, r->file);
		fputc('\n', fp);
	}
	for (i = 0; i < m->n; i++) {
		const struct distinct *d = &m->v[i];

		body = distinct_body(m, d, &len);
		if (body)
			pdt_ktap_diag(fp, body, len);
		free(body);
		distinct_name(name, sizeof(name), d);
		fprintf(fp, "%s %zu %s\n", d->fails ? "not ok" : "ok", n++, name);
	}
}
