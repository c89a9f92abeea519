// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP version 1 (Documentation/dev-tools/ktap.rst, what kselftest and KernelCI read):
 * a test point for complete data, one per superblock, one for findings past the list's
 * end. Each finding is a block of diagnostic lines before its superblock's result line,
 * where KTAP parsers (the kernel's kunit_parser.py) attach them to that test; the text
 * report's summary follows the last result, as diagnostics too.
 */
#include <stdlib.h>
#include <string.h>
#include "text.h"
#include "report_formats.h"

/*
 * A test name as KTAP can carry it: escaped for a terminal (text.h), and '#' as \x23,
 * since a '#' ends the name and starts a directive ("ok 1 name # SKIP"). A backslash is
 * already \\ there, so the escape stays unambiguous.
 */
void pdt_ktap_name(FILE *fp, const char *s)
{
	size_t n = 4 * strlen(s) + 1;
	char *buf = malloc(n);
	const char *p;

	if (!buf)
		return;
	for (p = pdt_text_esc(buf, n, s); *p; p++)
		if (*p == '#')
			fputs("\\x23", fp);
		else
			fputc(*p, fp);
	free(buf);
}

/* Lines of TEXT (LEN bytes, names already escaped by their writer) as "# " diagnostics. */
void pdt_ktap_diag(FILE *fp, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;

	while (p < end) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		fputs(nl > p ? "# " : "#", fp);
		fwrite(p, 1, nl - p, fp);
		fputc('\n', fp);
		p = nl + 1;
	}
}

static void ktap_findings(FILE *fp, const struct pdt_report *r, const struct pdt_sb_groups *g,
			  size_t sb_index)
{
	size_t j, k, nf = pdt_sb_groups_count(g, sb_index), len = 0;
	char *buf = NULL;
	FILE *mem;

	for (k = 0; k < nf; k++) {
		j = pdt_sb_groups_at(g, sb_index, k);
		if (pdt_rules_finding(r->rules, j)->sb_index != sb_index)
			continue;
		mem = open_memstream(&buf, &len);
		if (!mem)
			return;
		pdt_report_finding(mem, r, j); /* a suppressed or known one: one line */
		fclose(mem);
		pdt_ktap_diag(fp, buf, len);
		free(buf);
		buf = NULL;
	}
}

static void ktap_summary(FILE *fp, const struct pdt_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return;
	pdt_report_summary(mem, r);
	fclose(mem);
	pdt_ktap_diag(fp, buf, len);
	free(buf);
}

void pdt_ktap_report(FILE *fp, const struct pdt_report *r)
{
	size_t i, nsb = pdt_rules_nsbs(r->rules), n = 1, ncases = 0;
	char name[PDT_SB_NAME_LEN], why[512];
	struct pdt_sb_groups g;

	pdt_sb_groups_init(&g, r);
	fputs("KTAP version 1\n", fp);
	fprintf(fp, "# pdtrace %s, kernel ", r->version);
	pdt_ktap_name(fp, r->kernel);
	fputc('\n', fp);
	for (i = 0; i < nsb; i++)
		ncases += pdt_rules_sb(r->rules, i) != NULL;
	fprintf(fp, "1..%zu\n", ncases + 1 + !!pdt_rules_unlisted(r->rules));
	if (!r->complete) {
		pdt_report_incomplete_why(r, why, sizeof(why));
		fprintf(fp, "# incomplete: %s\n", why);
	}
	fprintf(fp, "%s %zu complete data\n", r->complete ? "ok" : "not ok", n++);
	for (i = 0; i < nsb; i++) {
		if (!pdt_rules_sb(r->rules, i))
			continue; /* retired: nothing to report */
		ktap_findings(fp, r, &g, i);
		pdt_report_sb_name(r, i, name, sizeof(name));
		fprintf(fp, "%s %zu ", pdt_report_sb_findings(r, &g, i) ? "not ok" : "ok", n++);
		pdt_ktap_name(fp, name);
		fputc('\n', fp);
	}
	pdt_sb_groups_free(&g);
	if (pdt_rules_unlisted(r->rules)) {
		fprintf(fp, "# %llu more findings not listed (the first %d are)\n",
			pdt_rules_unlisted(r->rules), PDT_RULES_MAX_FINDINGS);
		fprintf(fp, "not ok %zu unlisted findings\n", n++);
	}
	ktap_summary(fp, r);
}
