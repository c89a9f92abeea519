// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "exit_codes.h"
#include "gate.h"
#include "merge.h"
#include "merge_priv.h"
#include "signature.h"
#include "text.h"
#include "u64map.h"
#include "version.h"

struct pdt_merge *pdt_merge_new(struct pdt_supp *supp, struct pdt_baseline *base)
{
	struct pdt_merge *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->supp = supp;
	m->base = base;
	u64map_init(&m->by_sig);
	return m;
}

static void distinct_free(struct distinct *d)
{
	unsigned int i;

	free(d->key);
	free(d->text);
	free(d->first);
	free(d->path);
	free(d->fs_type);
	free(d->message);
	for (i = 0; i < d->nstack; i++)
		free(d->stack[i]);
	free(d->stack);
	free(d->suppressed_by);
	free(d->origins);
}

void pdt_merge_free(struct pdt_merge *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		distinct_free(&m->v[i]);
	for (i = 0; i < m->nrecs; i++)
		free(m->recs[i].file);
	free(m->v);
	free(m->recs);
	u64map_free(&m->by_sig);
	pdt_supp_free(m->supp);
	pdt_baseline_free(m->base);
	free(m);
}

/* Grow *v (of *cap elements of size sz) to hold n + 1. */
static int grow(void **v, size_t *cap, size_t n, size_t sz)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? 2 * *cap : 16;
	p = realloc(*v, ncap * sz);
	if (!p)
		return -1;
	*v = p;
	*cap = ncap;
	return 0;
}

static char *text_of(const struct pdt_finding *f, const struct ksyms *k)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	if (!mem)
		return NULL;
	pdt_finding_text(mem, f, k, false);
	fclose(mem);
	return buf;
}

static int keep_stack(struct distinct *d, const struct pdt_finding *f, const struct ksyms *k)
{
	char sym[400];
	unsigned int i;

	d->stack = calloc(f->nstack ? f->nstack : 1, sizeof(*d->stack));
	if (!d->stack)
		return -1;
	for (i = 0; i < f->nstack; i++) {
		if (ksyms_is_bpf(k, f->stack[i]))
			continue;
		ksyms_format_at(k, f->stack[i], f->stack_epoch, 0, sym, sizeof(sym));
		if (!(d->stack[d->nstack++] = strdup(sym)))
			return -1;
	}
	return 0;
}

/* The first occurrence of a signature: what the report shows of it. */
static struct distinct *new_distinct(struct pdt_merge *m, const struct pdt_sig *sig,
				     const struct pdt_finding *f, const struct ksyms *k,
				     const char *file)
{
	struct distinct *d;

	if (grow((void **)&m->v, &m->cap, m->n, sizeof(*m->v)))
		return NULL;
	d = &m->v[m->n];
	memset(d, 0, sizeof(*d));
	memcpy(d->hex, sig->hex, sizeof(d->hex));
	d->kind = f->kind;
	d->rule = f->rule;
	if (!(d->key = strdup(sig->key)) || !(d->text = text_of(f, k)) ||
	    !(d->first = strdup(file)) || !(d->path = strdup(f->path)) ||
	    !(d->fs_type = strdup(f->fs_type)) || !(d->message = strdup(f->message)) ||
	    keep_stack(d, f, k) ||
	    u64map_put(&m->by_sig, strtoull(sig->hex, NULL, 16), (void *)(m->n + 1))) {
		distinct_free(d);
		return NULL;
	}
	m->n++;
	return d;
}

static int add_origin(struct distinct *d, size_t rec)
{
	if (d->norigins && d->origins[d->norigins - 1].rec == rec) {
		d->origins[d->norigins - 1].count++;
		return 0;
	}
	d->origins = realloc(d->origins, (d->norigins + 1) * sizeof(*d->origins));
	if (!d->origins)
		return -1;
	d->origins[d->norigins++] = (struct origin){ rec, 1 };
	return 0;
}

/* One finding of recording rec: counted under its signature, judged as check would. */
static int add_finding(struct pdt_merge *m, size_t rec, const struct pdt_finding *f,
		       const struct pdt_report *rep)
{
	struct pdt_sig *sig = malloc(sizeof(*sig));
	struct distinct *d;
	long e;
	bool known;
	void *ix;

	if (!sig)
		return -1;
	pdt_sig_make(sig, f, rep->ksyms);
	ix = u64map_get(&m->by_sig, strtoull(sig->hex, NULL, 16));
	d = ix ? &m->v[(size_t)ix - 1] : new_distinct(m, sig, f, rep->ksyms, m->recs[rec].file);
	free(sig);
	if (!d)
		return -1;
	e = pdt_supp_match(m->supp, f, rep->ksyms);
	known = pdt_baseline_knows(m->base, f, rep->ksyms);
	if (e >= 0 && !d->suppressed_by && !(d->suppressed_by = strdup(pdt_supp_name(m->supp, e))))
		return -1;
	m->suppressed += e >= 0;
	m->known += e < 0 && known;
	d->known |= known;
	if (e < 0 && !known && (rep->complete || !pdt_rule_table[f->rule_id].by_absence))
		d->fails = true;
	d->count++;
	return add_origin(d, rec);
}

int pdt_merge_add(struct pdt_merge *m, const char *file, const struct pdt_report *rep)
{
	size_t i, n = pdt_rules_nfindings(rep->rules);
	struct recinfo *ri;

	if (grow((void **)&m->recs, &m->caprecs, m->nrecs, sizeof(*m->recs)))
		return -1;
	ri = &m->recs[m->nrecs];
	memset(ri, 0, sizeof(*ri));
	if (!(ri->file = strdup(file)))
		return -1;
	ri->complete = rep->complete;
	ri->findings = n;
	ri->unlisted = pdt_rules_unlisted(rep->rules);
	m->nrecs++;
	for (i = 0; i < n; i++)
		if (add_finding(m, m->nrecs - 1, pdt_rules_finding(rep->rules, i), rep))
			return -1;
	return 0;
}

int pdt_merge_status(const struct pdt_merge *m, const bool fail_on[PDT_KIND_MAX])
{
	bool complete = true;
	size_t i;

	for (i = 0; i < m->nrecs; i++) {
		if (m->recs[i].unlisted)
			return PDT_EXIT_FINDINGS; /* not judged: they fail */
		complete &= m->recs[i].complete;
	}
	for (i = 0; i < m->n; i++)
		if (m->v[i].fails && fail_on[m->v[i].kind])
			return PDT_EXIT_FINDINGS;
	return complete ? PDT_EXIT_OK : PDT_EXIT_INCOMPLETE;
}

/* ---- text ----------------------------------------------------------------- */

void pdt_merge_text_origins(FILE *fp, const struct pdt_merge *m, const struct distinct *d)
{
	char file[1024];
	size_t i;

	fprintf(fp, "  seen %llu time%s in %zu recording%s:", d->count, d->count == 1 ? "" : "s",
		d->norigins, d->norigins == 1 ? "" : "s");
	for (i = 0; i < d->norigins; i++)
		fprintf(fp, "%s %s (%llu)", i ? "," : "",
			pdt_text_esc(file, sizeof(file), m->recs[d->origins[i].rec].file),
			d->origins[i].count);
	fputc('\n', fp);
}

static void text_distinct(FILE *fp, const struct pdt_merge *m, const struct distinct *d)
{
	char name[1024];

	if (d->fails) {
		fputs(d->text, fp);
	} else {
		if (d->suppressed_by)
			fprintf(fp, "suppressed by '%s': ",
				pdt_text_esc(name, sizeof(name), d->suppressed_by));
		else if (d->known)
			fputs("known (in the baseline): ", fp);
		else
			fputs("passed (its recordings are incomplete, and it rests on an event "
			      "that did not come): ",
			      fp);
		fprintf(fp, "%s: %s (signature %s)\n", pdt_kind_name(d->kind), d->rule, d->hex);
	}
	pdt_merge_text_origins(fp, m, d);
	if (d->fails)
		fputc('\n', fp);
}

static void text_merge(FILE *fp, const struct pdt_merge *m)
{
	unsigned long long total = 0;
	char file[1024];
	size_t i;

	for (i = 0; i < m->n; i++)
		text_distinct(fp, m, &m->v[i]);
	for (i = 0; i < m->nrecs; i++) {
		total += m->recs[i].findings + m->recs[i].unlisted;
		fprintf(fp, "recording: %s: %llu finding%s%s%s\n",
			pdt_text_esc(file, sizeof(file), m->recs[i].file), m->recs[i].findings,
			m->recs[i].findings == 1 ? "" : "s",
			m->recs[i].unlisted ? " (and more not listed)" : "",
			m->recs[i].complete ? "" : ", INCOMPLETE: findings may be missing");
	}
	fprintf(
	    fp,
	    "summary: %zu recording%s, %llu finding%s, %zu distinct signature%s, %llu suppressed, "
	    "%llu known\n",
	    m->nrecs, m->nrecs == 1 ? "" : "s", total, total == 1 ? "" : "s", m->n,
	    m->n == 1 ? "" : "s", m->suppressed, m->known);
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_distinct(struct pdt_json *j, const struct pdt_merge *m, const struct distinct *d)
{
	size_t i;

	pdt_json_obj_open(j);
	pdt_json_kv_str(j, "signature", d->hex);
	pdt_json_kv_str(j, "signature_key", d->key);
	pdt_json_kv_str(j, "kind", pdt_kind_name(d->kind));
	pdt_json_kv_str(j, "rule", d->rule);
	pdt_json_kv_str(j, "fs_type", d->fs_type);
	pdt_json_kv_str(j, "path", d->path);
	pdt_json_kv_str(j, "message", d->message);
	pdt_json_name(j, "stack");
	pdt_json_arr_open(j);
	for (i = 0; i < d->nstack; i++)
		pdt_json_string(j, d->stack[i]);
	pdt_json_arr_close(j);
	pdt_json_kv_str(j, "first_recording", d->first);
	pdt_json_kv_uint(j, "count", d->count);
	pdt_json_name(j, "origins");
	pdt_json_arr_open(j);
	for (i = 0; i < d->norigins; i++) {
		pdt_json_obj_open(j);
		pdt_json_kv_str(j, "recording", m->recs[d->origins[i].rec].file);
		pdt_json_kv_uint(j, "count", d->origins[i].count);
		pdt_json_obj_close(j);
	}
	pdt_json_arr_close(j);
	pdt_json_kv_str(j, "suppressed_by", d->suppressed_by);
	pdt_json_kv_bool(j, "known", d->known);
	pdt_json_kv_bool(j, "fails", d->fails);
	pdt_json_obj_close(j);
}

static void json_merge(FILE *fp, const struct pdt_merge *m)
{
	struct pdt_json j;
	size_t i;

	pdt_json_init(&j, fp);
	pdt_json_obj_open(&j);
	pdt_json_kv_str(&j, "version", PDT_VERSION);
	pdt_json_name(&j, "recordings");
	pdt_json_arr_open(&j);
	for (i = 0; i < m->nrecs; i++) {
		pdt_json_obj_open(&j);
		pdt_json_kv_str(&j, "file", m->recs[i].file);
		pdt_json_kv_bool(&j, "complete", m->recs[i].complete);
		pdt_json_kv_uint(&j, "findings", m->recs[i].findings);
		pdt_json_kv_uint(&j, "unlisted_findings", m->recs[i].unlisted);
		pdt_json_obj_close(&j);
	}
	pdt_json_arr_close(&j);
	pdt_json_name(&j, "findings");
	pdt_json_arr_open(&j);
	for (i = 0; i < m->n; i++)
		json_distinct(&j, m, &m->v[i]);
	pdt_json_arr_close(&j);
	pdt_json_kv_uint(&j, "distinct", m->n);
	pdt_json_kv_uint(&j, "suppressed", m->suppressed);
	pdt_json_kv_uint(&j, "known", m->known);
	pdt_json_obj_close(&j);
	fputc('\n', fp);
}

void pdt_merge_write(FILE *fp, enum pdt_format fmt, const struct pdt_merge *m)
{
	switch (fmt) {
	case PDT_FMT_JSON:
		json_merge(fp, m);
		break;
	case PDT_FMT_JUNIT:
		pdt_merge_junit(fp, m);
		break;
	case PDT_FMT_KTAP:
		pdt_merge_ktap(fp, m);
		break;
	default:
		text_merge(fp, m);
	}
}
