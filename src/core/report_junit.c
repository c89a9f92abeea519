// SPDX-License-Identifier: GPL-2.0
/*
 * JUnit XML (the Ant schema Jenkins and GitLab read): a test case for complete data, one
 * per superblock, one for findings past the list's end.
 */
#include <stdbool.h>
#include <stdlib.h>
#include "report_formats.h"

void pdt_xml_str(FILE *fp, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '&':
			fputs("&amp;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		default:
			/* XML 1.0 forbids most control characters, even escaped. */
			if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f)
				fprintf(fp, "\\x%02x", c);
			else
				fputc(c, fp);
		}
	}
}

/* Finding i as the text report shows it (in full, or one line when it passes the gate). */
static void xml_finding_body(FILE *fp, size_t i, const struct pdt_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (mem) {
		pdt_report_finding(mem, r, i);
		fclose(mem);
		pdt_xml_str(fp, buf);
	}
	free(buf);
}

/* Is finding j on this superblock, and does it fail the gate? */
static bool failing(const struct pdt_report *r, size_t j, size_t sb_index)
{
	return pdt_rules_finding(r->rules, j)->sb_index == sb_index &&
	       pdt_gate_fate(r->gate, j) == PDT_FATE_NEW;
}

/* The superblock's suppressed and known findings: they pass, but the log shows them. */
static void junit_passed(FILE *fp, const struct pdt_report *r, const struct pdt_sb_groups *g,
			 size_t sb_index)
{
	size_t k, nf = pdt_sb_groups_count(g, sb_index);
	bool open = false;

	for (k = 0; k < nf; k++) {
		size_t j = pdt_sb_groups_at(g, sb_index, k);

		if (pdt_rules_finding(r->rules, j)->sb_index != sb_index ||
		    pdt_gate_fate(r->gate, j) == PDT_FATE_NEW)
			continue;
		if (!open)
			fputs("    <system-out>", fp);
		open = true;
		xml_finding_body(fp, j, r);
	}
	if (open)
		fputs("</system-out>\n", fp);
}

/*
 * A superblock's findings as its test case's one failure (CI servers count failed
 * cases: the Ant JUnit schema that Jenkins and GitLab read allows one failure per
 * case). Its type is the findings' kind when they share one; its message names the
 * first few; its body holds every one as the text report shows it.
 */
#define PDT_JUNIT_MESSAGE_FINDINGS 5
static void junit_failure(FILE *fp, const struct pdt_report *r, const struct pdt_sb_groups *g,
			  size_t sb_index)
{
	size_t j, k, nf = pdt_sb_groups_count(g, sb_index), count = 0, named = 0;
	const struct pdt_finding *first = NULL;
	bool one_kind = true;

	for (k = 0; k < nf; k++) {
		const struct pdt_finding *f;

		j = pdt_sb_groups_at(g, sb_index, k);
		f = pdt_rules_finding(r->rules, j);

		if (!failing(r, j, sb_index))
			continue;
		if (!first)
			first = f;
		one_kind &= f->kind == first->kind;
		count++;
	}
	if (!count)
		return;
	fprintf(fp, "    <failure type=\"%s\" message=\"",
		one_kind ? pdt_kind_name(first->kind) : "findings");
	if (count > 1)
		fprintf(fp, "%zu findings: ", count);
	for (k = 0; k < nf && named < PDT_JUNIT_MESSAGE_FINDINGS; k++) {
		const struct pdt_finding *f;

		j = pdt_sb_groups_at(g, sb_index, k);
		f = pdt_rules_finding(r->rules, j);

		if (!failing(r, j, sb_index))
			continue;
		fprintf(fp, "%s%s: ", named++ ? "; " : "", f->rule);
		pdt_xml_str(fp, f->path);
	}
	fputs(count > named ? "; ...\">" : "\">", fp);
	for (k = 0, named = 0; k < nf; k++) {
		j = pdt_sb_groups_at(g, sb_index, k);
		if (!failing(r, j, sb_index))
			continue;
		if (named++)
			fputc('\n', fp);
		xml_finding_body(fp, j, r);
	}
	fputs("</failure>\n", fp);
}

/* The suite's output: what each suppression entry matched (stale ones too), the baseline. */
static void junit_gate(FILE *fp, const struct pdt_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return;
	pdt_report_gate_lines(mem, r);
	fclose(mem);
	if (len) {
		fputs("  <system-out>", fp);
		pdt_xml_str(fp, buf);
		fputs("</system-out>\n", fp);
	}
	free(buf);
}

void pdt_junit_report(FILE *fp, const struct pdt_report *r)
{
	size_t i, nsb = pdt_rules_nsbs(r->rules), ncases = 0;
	unsigned long long failures = (r->complete ? 0 : 1) + !!pdt_rules_unlisted(r->rules);
	char name[PDT_SB_NAME_LEN], why[512];
	struct pdt_sb_groups g;

	pdt_sb_groups_init(&g, r);
	/* One failure per case: count the superblocks with findings. */
	for (i = 0; i < nsb; i++)
		if (pdt_rules_sb(r->rules, i)) {
			failures += pdt_report_sb_findings(r, &g, i) > 0;
			ncases++;
		}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n", fp);
	fprintf(fp, "<testsuite name=\"pdtrace\" tests=\"%zu\" failures=\"%llu\" errors=\"0\">\n",
		ncases + 1 + !!pdt_rules_unlisted(r->rules), failures);
	if (pdt_rules_unlisted(r->rules))
		fprintf(
		    fp,
		    "  <testcase classname=\"pdtrace\" name=\"unlisted findings\">\n"
		    "    <failure type=\"unlisted\" message=\"%llu more findings not listed\"/>\n"
		    "  </testcase>\n",
		    pdt_rules_unlisted(r->rules));
	fputs("  <testcase classname=\"pdtrace\" name=\"complete data\">\n", fp);
	if (!r->complete) {
		pdt_report_incomplete_why(r, why, sizeof(why));
		fputs("    <failure type=\"incomplete\" message=\"", fp);
		pdt_xml_str(fp, why);
		fputs("\"/>\n", fp);
	}
	fputs("  </testcase>\n", fp);
	for (i = 0; i < nsb; i++) {
		if (!pdt_rules_sb(r->rules, i))
			continue; /* retired: nothing to report */
		pdt_report_sb_name(r, i, name, sizeof(name));
		fputs("  <testcase classname=\"pdtrace.", fp);
		pdt_xml_str(fp, pdt_rules_sb(r->rules, i)->fs_type);
		fputs("\" name=\"", fp);
		pdt_xml_str(fp, name);
		fputs("\">\n", fp);
		junit_failure(fp, r, &g, i);
		junit_passed(fp, r, &g, i);
		fputs("  </testcase>\n", fp);
	}
	pdt_sb_groups_free(&g);
	junit_gate(fp, r);
	fputs("</testsuite>\n</testsuites>\n", fp);
}
