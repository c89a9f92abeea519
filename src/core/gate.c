// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include "gate.h"
#include "signature.h"

struct pdt_gate {
	struct pdt_supp *supp;
	struct pdt_baseline *base;
	size_t n;		     /* findings judged */
	unsigned char *fate;	     /* enum pdt_fate, per finding */
	long *entry;		     /* the suppression that matched, per finding */
	unsigned long long count[3]; /* per fate */
};

struct pdt_gate *pdt_gate_new(struct pdt_supp *supp, struct pdt_baseline *base)
{
	struct pdt_gate *g = calloc(1, sizeof(*g));

	if (g) {
		g->supp = supp;
		g->base = base;
	}
	return g;
}

void pdt_gate_free(struct pdt_gate *g)
{
	if (!g)
		return;
	pdt_supp_free(g->supp);
	pdt_baseline_free(g->base);
	free(g->fate);
	free(g->entry);
	free(g);
}

bool pdt_baseline_knows(struct pdt_baseline *b, const struct pdt_finding *f, const struct ksyms *k)
{
	struct pdt_sig *sig;
	bool known;

	if (!b)
		return false;
	sig = malloc(sizeof(*sig));
	if (!sig)
		return false; /* new: the gate fails closed */
	pdt_sig_make(sig, f, k);
	known = pdt_baseline_has(b, sig->hex);
	free(sig);
	return known;
}

/*
 * A suppression first (it names why the finding passes), then the baseline; a finding in
 * the baseline is not gone, whatever else becomes of it.
 */
static enum pdt_fate judge(struct pdt_gate *g, const struct pdt_finding *f, const struct ksyms *k,
			   long *entry)
{
	bool known = pdt_baseline_knows(g->base, f, k);

	*entry = pdt_supp_match(g->supp, f, k);
	if (*entry >= 0)
		return PDT_FATE_SUPPRESSED;
	return known ? PDT_FATE_KNOWN : PDT_FATE_NEW;
}

int pdt_gate_judge(struct pdt_gate *g, const struct pdt_rules *r, const struct ksyms *k)
{
	size_t i, n = pdt_rules_nfindings(r);

	g->fate = calloc(n ? n : 1, sizeof(*g->fate));
	g->entry = calloc(n ? n : 1, sizeof(*g->entry));
	if (!g->fate || !g->entry)
		return -1;
	for (i = 0; i < n; i++) {
		g->fate[i] = (unsigned char)judge(g, pdt_rules_finding(r, i), k, &g->entry[i]);
		g->count[g->fate[i]]++;
	}
	g->n = n;
	return 0;
}

enum pdt_fate pdt_gate_fate(const struct pdt_gate *g, size_t i)
{
	return g && i < g->n ? (enum pdt_fate)g->fate[i] : PDT_FATE_NEW;
}

long pdt_gate_entry(const struct pdt_gate *g, size_t i)
{
	return g && i < g->n ? g->entry[i] : -1;
}

const struct pdt_supp *pdt_gate_supp(const struct pdt_gate *g)
{
	return g ? g->supp : NULL;
}

const struct pdt_baseline *pdt_gate_baseline(const struct pdt_gate *g)
{
	return g ? g->base : NULL;
}

unsigned long long pdt_gate_count(const struct pdt_gate *g, enum pdt_fate v)
{
	return g ? g->count[v] : 0;
}

bool pdt_gate_fail(const struct pdt_gate *g, const struct pdt_rules *r,
		   const bool fail_on[PDT_KIND_MAX], bool complete)
{
	unsigned long long listed[PDT_KIND_MAX] = { 0 }, absent[PDT_KIND_MAX] = { 0 };
	size_t i, n = pdt_rules_nfindings(r);
	int k;

	if (!g)
		return pdt_rules_fail(r, fail_on, complete);
	for (i = 0; i < n; i++) {
		const struct pdt_finding *f = pdt_rules_finding(r, i);
		bool by_absence = pdt_rule_table[f->rule_id].by_absence;

		listed[f->kind]++;
		absent[f->kind] += by_absence;
		if (fail_on[f->kind] && pdt_gate_fate(g, i) == PDT_FATE_NEW &&
		    (complete || !by_absence))
			return true;
	}
	/* The unlisted ones: counted per kind by the rules, never judged. */
	for (k = 0; k < PDT_KIND_MAX; k++) {
		unsigned long long more = pdt_rules_count(r, k) - listed[k];
		unsigned long long more_absent = pdt_rules_count_by_absence(r, k) - absent[k];

		if (fail_on[k] && more > (complete ? 0 : more_absent))
			return true;
	}
	return false;
}
