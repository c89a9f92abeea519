// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: `pdtrace report --suppressions S --baseline B A.pdtrec B.pdtrec ...`
 * on any bytes. The gate (src/core/gate.c: suppressions and a baseline judging each
 * finding) and the merge of recordings (src/core/merge*.c), with the reader and the
 * rules engine before them, under ASan and UBSan.
 *
 * The input is parts cut at PDT_FUZZ_SEP: a suppression file, a baseline (a JSON
 * report; empty: none), then up to 8 recordings. Each recording is reported alone
 * through a gate, as `report` does for one, and added to the merge, which is written
 * in text and JSON. Checked on every input: a gate counts each finding the rules kept
 * once, and the merge's exit status follows pdt_merge_status()'s rule: 1 when a
 * recording has findings past its list, else the worst of the recordings' own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "baseline.h"
#include "exit_codes.h"
#include "gate.h"
#include "merge.h"
#include "replay.h"
#include "suppress.h"

#define PDT_FUZZ_SEP "\n--8<--\n"
#define PDT_FUZZ_MAX_RECS 8

/* The suppressions and baseline of the input, parsed anew for each owner. */
static struct pdt_supp *supp_of(const uint8_t *p, size_t n)
{
	struct pdt_supp *s = pdt_supp_new();
	char err[300];
	FILE *fp;

	if (!s || !n || !(fp = fmemopen((void *)p, n, "r")))
		return s;
	pdt_supp_parse(s, "fuzz.supp", fp, err, sizeof(err)); /* the entries before an error stay */
	fclose(fp);
	return s;
}

static struct pdt_baseline *base_of(const uint8_t *p, size_t n)
{
	char err[300];

	return n ? pdt_baseline_parse("fuzz.json", (const char *)p, n, err, sizeof(err)) : NULL;
}

/* One recording alone through a gate, as `report` judges it: its exit status. */
static int gate_one(struct pdt_report *rep, const uint8_t *supp, size_t nsupp, const uint8_t *base,
		    size_t nbase, FILE *out)
{
	struct pdt_gate *g = pdt_gate_new(supp_of(supp, nsupp), base_of(base, nbase));
	unsigned long long counted = 0;
	int k, rc;

	if (!g || pdt_gate_judge(g, rep->rules, rep->ksyms))
		abort(); /* out of memory, on inputs this small */
	for (k = PDT_FATE_NEW; k <= PDT_FATE_KNOWN; k++)
		counted += pdt_gate_count(g, (enum pdt_fate)k);
	if (counted != pdt_rules_nfindings(rep->rules)) {
		fprintf(stderr, "gate counted %llu of %zu findings\n", counted,
			pdt_rules_nfindings(rep->rules));
		abort();
	}
	rep->gate = g;
	rep->gen_suppressions = true;
	pdt_report_write(out, PDT_FMT_TEXT, rep);
	pdt_report_write(out, PDT_FMT_JSON, rep);
	rc = pdt_report_status(rep, pdt_fail_on_all);
	rep->gate = NULL;
	pdt_gate_free(g);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *out;
	const uint8_t *part[PDT_FUZZ_MAX_RECS + 2];
	size_t len[PDT_FUZZ_MAX_RECS + 2], nparts = 0, off = 0, i;
	const size_t seplen = strlen(PDT_FUZZ_SEP);
	struct pdt_merge *m;
	int rc, worst = PDT_EXIT_OK;
	bool unlisted = false;

	if (!out)
		out = fopen("/dev/null", "w");
	if (!out)
		abort();
	while (nparts < PDT_FUZZ_MAX_RECS + 2) {
		const uint8_t *sep = memmem(data + off, size - off, PDT_FUZZ_SEP, seplen);
		size_t end = sep ? (size_t)(sep - data) : size;

		part[nparts] = data + off;
		len[nparts++] = end - off;
		if (!sep)
			break;
		off = end + seplen;
	}
	if (nparts < 3)
		return 0; /* no recording */
	m = pdt_merge_new(supp_of(part[0], len[0]), base_of(part[1], len[1]));
	if (!m)
		abort();
	for (i = 2; i < nparts; i++) {
		struct pdt_replay rp;
		struct pdt_report rep;
		char err[300];
		FILE *fp;

		if (!len[i] || !(fp = fmemopen((void *)part[i], len[i], "r")))
			continue;
		if (!pdt_replay_read(&rp, fp, len[i], err, sizeof(err))) {
			pdt_replay_fill_report(&rp, &rep, "fuzz.pdtrec", part[i][0] & 1);
			rc = gate_one(&rep, part[0], len[0], part[1], len[1], out);
			if (rc == PDT_EXIT_FINDINGS ||
			    (rc == PDT_EXIT_INCOMPLETE && worst == PDT_EXIT_OK))
				worst = rc;
			unlisted |= pdt_rules_unlisted(rep.rules) > 0;
			if (pdt_merge_add(m, "fuzz.pdtrec", &rep))
				abort();
		}
		fclose(fp);
		pdt_replay_free(&rp);
	}
	pdt_merge_write(out, PDT_FMT_TEXT, m);
	pdt_merge_write(out, PDT_FMT_JSON, m);
	rc = pdt_merge_status(m, pdt_fail_on_all);
	if (unlisted)
		worst = PDT_EXIT_FINDINGS; /* not judged: they fail, whatever else is lost */
	if (rc != worst) {
		fprintf(stderr, "merge status %d, the recordings' worst %d\n", rc, worst);
		abort();
	}
	pdt_merge_free(m);
	return 0;
}
