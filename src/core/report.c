// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "exit_codes.h"
#include "hooks.h"
#include "json.h"
#include "text.h"
#include "report.h"
#include "report_formats.h"
#include "signature.h"

int pdt_parse_format(const char *s, enum pdt_format *fmt)
{
	if (!strcmp(s, "text"))
		*fmt = PDT_FMT_TEXT;
	else if (!strcmp(s, "json"))
		*fmt = PDT_FMT_JSON;
	else if (!strcmp(s, "junit"))
		*fmt = PDT_FMT_JUNIT;
	else if (!strcmp(s, "ktap"))
		*fmt = PDT_FMT_KTAP;
	else if (!strcmp(s, "kcidb"))
		*fmt = PDT_FMT_KCIDB;
	else
		return -1;
	return 0;
}

/* Findings that rest on an event that did not come (pdt_rule_table[].by_absence). */
static unsigned long long by_absence(const struct pdt_report *r)
{
	unsigned long long n = 0;
	int k;

	for (k = 0; k < PDT_KIND_MAX; k++)
		n += pdt_rules_count_by_absence(r->rules, k);
	return n;
}

const bool pdt_fail_on_all[PDT_KIND_MAX] = { [0 ... PDT_KIND_MAX - 1] = true };

bool pdt_report_complete(const struct pdt_report *r, bool truncated)
{
	return !truncated && !r->lost_events && !r->map_full && !r->malformed &&
	       !pdt_rules_inconsistent(r->rules);
}

int pdt_report_status(const struct pdt_report *r, const bool fail_on[PDT_KIND_MAX])
{
	if (pdt_gate_fail(r->gate, r->rules, fail_on, r->complete))
		return PDT_EXIT_FINDINGS;
	return r->complete ? PDT_EXIT_OK : PDT_EXIT_INCOMPLETE;
}

int pdt_mounts_set(struct pdt_mount **v, size_t *n, size_t *cap, size_t idx,
		   const struct mountinfo_index *ix, unsigned int dev)
{
	struct pdt_mount *m;

	if (idx >= *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;

		while (ncap <= idx)
			ncap *= 2;
		m = realloc(*v, ncap * sizeof(*m));
		if (!m)
			return -1;
		*v = m;
		*cap = ncap;
	}
	for (; *n < idx; (*n)++) /* indices in between belong to no superblock yet */
		memset(&(*v)[*n], 0, sizeof(**v));
	if (*n == idx)
		(*n)++;
	m = &(*v)[idx];
	m->count = mountinfo_index_lookup(ix, dev, m->path, sizeof(m->path));
	return 0;
}

void pdt_format_dev(unsigned int dev, char *buf, size_t n)
{
	snprintf(buf, n, "%u:%u", dev >> 20, dev & 0xfffff);
}

void pdt_report_incomplete_why(const struct pdt_report *r, char *buf, size_t n)
{
	if (r->recording && r->recording->truncated)
		snprintf(buf, n, "the recording is %s", r->recording->truncated);
	else
		snprintf(buf, n,
			 "%llu events lost, %llu map insertions refused, %llu malformed events, "
			 "%zu superblocks whose books differ from the kernel",
			 r->lost_events, r->map_full, r->malformed,
			 pdt_rules_inconsistent(r->rules));
}

void pdt_sb_groups_init(struct pdt_sb_groups *g, const struct pdt_report *r)
{
	size_t i, s, nsb = pdt_rules_nsbs(r->rules), nf = pdt_rules_nfindings(r->rules);

	g->nfindings = nf;
	g->start = calloc(nsb + 2, sizeof(*g->start));
	g->idx = malloc((nf ? nf : 1) * sizeof(*g->idx));
	if (!g->start || !g->idx) {
		pdt_sb_groups_free(g);
		return;
	}
	/*
	 * A counting sort: the groups' sizes, where each starts, then the indices in order.
	 * A finding whose index is past the superblocks' (made with none, before any was
	 * met) is in no group: no superblock's loop ever reached it.
	 */
	for (i = 0; i < nf; i++)
		if ((s = pdt_rules_finding(r->rules, i)->sb_index) < nsb)
			g->start[s + 2]++;
	for (i = 2; i < nsb + 2; i++)
		g->start[i] += g->start[i - 1];
	for (i = 0; i < nf; i++)
		if ((s = pdt_rules_finding(r->rules, i)->sb_index) < nsb)
			g->idx[g->start[s + 1]++] = i;
}

void pdt_sb_groups_free(struct pdt_sb_groups *g)
{
	free(g->start);
	free(g->idx);
	g->start = g->idx = NULL;
}

size_t pdt_sb_groups_count(const struct pdt_sb_groups *g, size_t sb_index)
{
	return g->idx ? g->start[sb_index + 1] - g->start[sb_index] : g->nfindings;
}

size_t pdt_sb_groups_at(const struct pdt_sb_groups *g, size_t sb_index, size_t k)
{
	return g->idx ? g->idx[g->start[sb_index] + k] : k;
}

size_t pdt_report_sb_findings(const struct pdt_report *r, const struct pdt_sb_groups *g,
			      size_t sb_index)
{
	size_t k, n = 0, nf = pdt_sb_groups_count(g, sb_index);

	for (k = 0; k < nf; k++) {
		size_t j = pdt_sb_groups_at(g, sb_index, k);

		n += pdt_rules_finding(r->rules, j)->sb_index == sb_index &&
		     pdt_gate_fate(r->gate, j) == PDT_FATE_NEW;
	}
	return n;
}

/* The name before disambiguation: what to compare, without building the string. */
static const char *sb_place(const struct pdt_report *r, size_t i)
{
	return i < r->nmounts && r->mounts[i].path[0] ? r->mounts[i].path
						      : pdt_rules_sb(r->rules, i)->s_id;
}

/* 0 when superblocks i and j have the same name (fs type and place). */
static int cmp_same_name(const struct pdt_report *r, size_t i, size_t j)
{
	int c = strcmp(pdt_rules_sb(r->rules, i)->fs_type, pdt_rules_sb(r->rules, j)->fs_type);

	return c ? c : strcmp(sb_place(r, i), sb_place(r, j));
}

/* Superblocks in the order of their names, then of the books' meeting them. */
static int cmp_named(const void *a, const void *b, void *ctx)
{
	const struct pdt_report *r = ctx;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct pdt_sb *x = pdt_rules_sb(r->rules, i), *y = pdt_rules_sb(r->rules, j);
	int c = cmp_same_name(r, i, j);

	return c ? c : (x->serial > y->serial) - (x->serial < y->serial);
}

/* pdt_report_sb_dup() of every superblock, by one sort: NULL when out of memory. */
static unsigned int *sb_dups(const struct pdt_report *r)
{
	size_t i, n = 0, nsb = pdt_rules_nsbs(r->rules);
	unsigned int *dup = calloc(nsb + 1, sizeof(*dup));
	size_t *order = malloc((nsb + 1) * sizeof(*order));

	if (!dup || !order) {
		free(dup);
		free(order);
		return NULL;
	}
	for (i = 0; i < nsb; i++)
		if (pdt_rules_sb(r->rules, i))
			order[n++] = i;
	qsort_r(order, n, sizeof(*order), cmp_named, (void *)r);
	for (i = 0; i < n; i++)
		dup[order[i]] =
		    i && !cmp_same_name(r, order[i - 1], order[i]) ? dup[order[i - 1]] + 1 : 1;
	free(order);
	return dup;
}

unsigned int pdt_report_sb_dup(const struct pdt_report *r, size_t sb_index)
{
	const struct pdt_sb *sb = pdt_rules_sb(r->rules, sb_index), *o;
	const char *place = sb_place(r, sb_index);
	unsigned int before = 1;
	size_t i;

	if (r->sb_dups)
		return r->sb_dups[sb_index];

	/* Superblocks met earlier under the same name: the order of the books, not dev_t. */
	for (i = 0; i < pdt_rules_nsbs(r->rules); i++)
		if (i != sb_index && (o = pdt_rules_sb(r->rules, i)) && o->serial < sb->serial &&
		    !strcmp(o->fs_type, sb->fs_type) && !strcmp(sb_place(r, i), place))
			before++;
	return before;
}

void pdt_report_sb_name(const struct pdt_report *r, size_t sb_index, char *buf, size_t n)
{
	const struct pdt_sb *sb = pdt_rules_sb(r->rules, sb_index);
	unsigned int dup = pdt_report_sb_dup(r, sb_index);
	int len = snprintf(buf, n, "%s %s", sb->fs_type, sb_place(r, sb_index));

	if (dup > 1 && len >= 0 && (size_t)len < n)
		snprintf(buf + len, n - (size_t)len, " (%u)", dup);
}

bool pdt_report_coverage_needed(const struct pdt_report *r, const char *line)
{
	const char *paren = strstr(line, "() ");
	const struct pdt_hook *h;
	char func[64];

	if (!paren || (size_t)(paren - line) >= sizeof(func))
		return true;
	snprintf(func, sizeof(func), "%.*s", (int)(paren - line), line);
	h = pdt_hook_find(func);
	/* Unknown to this pdtrace, or not told what came: fail closed, say it. */
	return !h || !h->fs_type || !r->fs_seen || r->fs_seen[h - pdt_hooks];
}

/* ---- text ----------------------------------------------------------------- */

static void text_stack(FILE *fp, const char *title, const unsigned long long *st, unsigned int n,
		       unsigned int epoch, const struct ksyms *k, bool addrs)
{
	char sym[400];
	unsigned int i;

	fprintf(fp, "  %s:\n", title);
	if (!n)
		fprintf(fp, "    (not seen: made persistent before pdtrace started)\n");
	for (i = 0; i < n; i++) {
		if (ksyms_is_bpf(k, st[i]))
			continue; /* our own programs and trampolines */
		ksyms_format_at(k, st[i], epoch, addrs, sym, sizeof(sym));
		fprintf(fp, "    %s\n", sym);
	}
}

/* "signature: HEX KEY": the key holds a path, escaped like every name. */
static void text_signature(FILE *fp, const struct pdt_finding *f, const struct ksyms *k)
{
	struct pdt_sig *s = malloc(sizeof(*s));
	char *key = malloc(4 * sizeof(s->key));

	if (s && key) {
		pdt_sig_make(s, f, k);
		fprintf(fp, "  signature: %s %s\n", s->hex,
			pdt_text_esc(key, 4 * sizeof(s->key), s->key));
	}
	free(key);
	free(s);
}

void pdt_finding_text(FILE *fp, const struct pdt_finding *f, const struct ksyms *k, bool addrs)
{
	char dev[24], fs[4 * PDT_FSTYPE_LEN], path[4 * PDT_FINDING_PATH_LEN],
	    msg[4 * sizeof(f->message)], comm[4 * PDT_COMM_LEN];

	/* Names are whatever their makers chose: escaped (text.h), like every name here. */
	pdt_format_dev(f->dev, dev, sizeof(dev));
	fprintf(fp, "%s: %s: %s %s %s\n", pdt_kind_name(f->kind), f->rule,
		pdt_text_esc(fs, sizeof(fs), f->fs_type), dev,
		f->path[0] ? pdt_text_esc(path, sizeof(path), f->path) : "?");
	fprintf(fp, "  %s\n", pdt_text_esc(msg, sizeof(msg), f->message));
	text_signature(fp, f, k);
	fprintf(fp, "  origin %s", pdt_origin_name(f->origin));
	if (f->has_refcount)
		fprintf(fp, ", refcount %d", f->refcount);
	fprintf(fp, ", by pid %u (%s)\n", f->pid, pdt_text_esc(comm, sizeof(comm), f->comm));
	if (f->nstack)
		text_stack(fp, "stack", f->stack, f->nstack, f->stack_epoch, k, addrs);
	/* A superblock's books and a never-persistent dentry have no creation to show. */
	if (!pdt_rule_table[f->rule_id].has_creation)
		return;
	if (f->created_seen)
		fprintf(fp, "  made persistent by pid %u (%s)%s\n", f->created_pid,
			pdt_text_esc(comm, sizeof(comm), f->created_comm),
			f->ncreated ? ""
				    : ", a user-space creation (its kernel stack is kept with "
				      "--user-stacks)");
	if (f->ncreated || !f->created_seen)
		text_stack(fp, "made persistent at", f->created, f->ncreated, f->created_epoch, k,
			   addrs);
}

void pdt_finding_brief(FILE *fp, const struct pdt_finding *f, const struct ksyms *k,
		       const char *entry)
{
	char dev[24], fs[4 * PDT_FSTYPE_LEN], path[4 * PDT_FINDING_PATH_LEN], name[1024];
	struct pdt_sig *sig = malloc(sizeof(*sig));

	if (!sig)
		return;
	pdt_sig_make(sig, f, k);
	pdt_format_dev(f->dev, dev, sizeof(dev));
	if (entry)
		fprintf(fp, "suppressed by '%s': ", pdt_text_esc(name, sizeof(name), entry));
	else
		fputs("known (in the baseline): ", fp);
	fprintf(fp, "%s: %s: %s %s %s (signature %s)\n", pdt_kind_name(f->kind), f->rule,
		pdt_text_esc(fs, sizeof(fs), f->fs_type), dev,
		f->path[0] ? pdt_text_esc(path, sizeof(path), f->path) : "?", sig->hex);
	free(sig);
}

/* A suppressed or known finding of the report in one line. */
static void text_brief(FILE *fp, const struct pdt_report *r, size_t i)
{
	long e = pdt_gate_entry(r->gate, i);

	pdt_finding_brief(fp, pdt_rules_finding(r->rules, i), r->ksyms,
			  e >= 0 ? pdt_supp_name(pdt_gate_supp(r->gate), e) : NULL);
}

void pdt_report_finding(FILE *fp, const struct pdt_report *r, size_t i)
{
	const struct pdt_finding *f = pdt_rules_finding(r->rules, i);
	enum pdt_fate v = pdt_gate_fate(r->gate, i);

	if (v != PDT_FATE_NEW) {
		text_brief(fp, r, i);
	} else {
		pdt_finding_text(fp, f, r->ksyms, r->show_addresses);
	}
	if (r->gen_suppressions && v != PDT_FATE_SUPPRESSED)
		pdt_supp_gen(fp, f, r->ksyms);
}

static void text_report(FILE *fp, const struct pdt_report *r)
{
	size_t i, n = pdt_rules_nfindings(r->rules);

	for (i = 0; i < n; i++) {
		pdt_report_finding(fp, r, i);
		if (pdt_gate_fate(r->gate, i) == PDT_FATE_NEW)
			fputc('\n', fp);
	}
	pdt_report_summary(fp, r);
}

/* Each entry that matched, and each that matched nothing (stale, or mistyped). */
static void text_suppressions(FILE *fp, const struct pdt_report *r)
{
	const struct pdt_supp *s = pdt_gate_supp(r->gate);
	char name[1024], file[1024];
	size_t i;

	for (i = 0; i < pdt_supp_count(s); i++) {
		unsigned long long m = pdt_supp_matched(s, i);

		fprintf(fp, "suppression '%s' (%s:%u) ",
			pdt_text_esc(name, sizeof(name), pdt_supp_name(s, i)),
			pdt_text_esc(file, sizeof(file), pdt_supp_file(s, i)), pdt_supp_line(s, i));
		if (m)
			fprintf(fp, "matched %llu finding%s\n", m, m == 1 ? "" : "s");
		else
			fputs("matched nothing\n", fp);
	}
	if (pdt_supp_count(s)) {
		unsigned long long n = pdt_gate_count(r->gate, PDT_FATE_SUPPRESSED);

		fprintf(fp, "suppressed: %llu finding%s (they do not fail the gate)\n", n,
			n == 1 ? "" : "s");
	}
}

/* Where the data came from, and why a recording is incomplete beyond the counters. */
static void text_recording(FILE *fp, const struct pdt_report *r)
{
	const struct pdt_recording *rec = r->recording;
	char file[1024], by[128];

	if (!rec)
		return;
	fprintf(fp, "recording: %s, by pdtrace %s, started %s, %llu events\n",
		pdt_text_esc(file, sizeof(file), rec->file),
		pdt_text_esc(by, sizeof(by), rec->recorded_by), rec->start, rec->events);
	if (rec->truncated)
		fprintf(fp, "INCOMPLETE: the recording is %s: findings may be missing\n",
			rec->truncated);
}

/* The self-check's verdict: one line per superblock that is not clean, or one for all. */
static void text_self_check(FILE *fp, const struct pdt_report *r)
{
	unsigned long long entries = 0;
	size_t i, walked = 0;
	char dev[24], fs[4 * PDT_FSTYPE_LEN], first[4 * (PDT_PATH_LEN + 64)];

	for (i = 0; i < pdt_rules_nsbs(r->rules); i++) {
		const struct pdt_sb *sb = pdt_rules_sb(r->rules, i);

		if (!sb || sb->check == PDT_CHECK_NONE)
			continue;
		/* A busy superblock was walked but not checked: it has its own line. */
		if (sb->check != PDT_CHECK_BUSY) {
			walked++;
			entries += sb->check_entries;
		}
		pdt_format_dev(sb->dev, dev, sizeof(dev));
		if (sb->check == PDT_CHECK_INCONSISTENT)
			fprintf(fp,
				"INCONSISTENT: self-check of %s %s: %llu of the %llu entries the "
				"books hold differ from the kernel's tree (first: %s): the tracker "
				"missed a kernel path, findings on this filesystem may be false\n",
				pdt_text_esc(fs, sizeof(fs), sb->fs_type), dev, sb->check_diffs,
				sb->check_entries,
				pdt_text_esc(first, sizeof(first), sb->check_first));
		else if (sb->check == PDT_CHECK_BUSY)
			fprintf(fp, "self-check: %s %s changed during every walk: not checked\n",
				pdt_text_esc(fs, sizeof(fs), sb->fs_type), dev);
	}
	if (walked && !pdt_rules_inconsistent(r->rules))
		fprintf(fp,
			"self-check: %zu mounted superblock%s walked, the books match the kernel "
			"(%llu entr%s)\n",
			walked, walked == 1 ? "" : "s", entries, entries == 1 ? "y" : "ies");
}

/* Known, new and gone against the baseline; each gone signature with its key. */
static void text_baseline(FILE *fp, const struct pdt_report *r)
{
	const struct pdt_baseline *b = pdt_gate_baseline(r->gate);
	char *esc, hex[17];
	size_t i, n;

	if (!b)
		return;
	n = 4 * strlen(pdt_baseline_file(b)) + 1;
	for (i = 0; i < pdt_baseline_count(b); i++)
		if (4 * strlen(pdt_baseline_key(b, i)) + 1 > n)
			n = 4 * strlen(pdt_baseline_key(b, i)) + 1;
	if (!(esc = malloc(n)))
		return;
	fprintf(fp, "baseline: %s: %llu known, %llu new, %zu gone\n",
		pdt_text_esc(esc, n, pdt_baseline_file(b)), pdt_gate_count(r->gate, PDT_FATE_KNOWN),
		pdt_gate_count(r->gate, PDT_FATE_NEW), pdt_baseline_gone(b));
	for (i = 0; i < pdt_baseline_count(b); i++) {
		if (pdt_baseline_seen(b, i))
			continue;
		pdt_baseline_sig(b, i, hex);
		fprintf(fp, "baseline: gone: %s %s\n", hex,
			pdt_text_esc(esc, n, pdt_baseline_key(b, i)));
	}
	free(esc);
}

void pdt_report_gate_lines(FILE *fp, const struct pdt_report *r)
{
	text_suppressions(fp, r);
	text_baseline(fp, r);
}

/*
 * "summary:" counts the findings that fail the gate (unlisted ones too: no verdict
 * passed them), then how many the gate let pass, so that a 0 there matches exit 0.
 */
static void text_summary_line(FILE *fp, const struct pdt_report *r)
{
	unsigned long long passed[PDT_KIND_MAX] = { 0 }, supp, known;
	size_t i, n = pdt_rules_nfindings(r->rules);
	int k;

	for (i = 0; i < n; i++)
		if (pdt_gate_fate(r->gate, i) != PDT_FATE_NEW)
			passed[pdt_rules_finding(r->rules, i)->kind]++;
	fputs("summary:", fp);
	for (k = 0; k < PDT_KIND_MAX; k++)
		fprintf(fp, "%s %llu %s", k ? "," : "",
			pdt_rules_count(r->rules, (enum pdt_kind)k) - passed[k],
			pdt_kind_name((enum pdt_kind)k));
	supp = pdt_gate_count(r->gate, PDT_FATE_SUPPRESSED);
	known = pdt_gate_count(r->gate, PDT_FATE_KNOWN);
	if (supp && known)
		fprintf(fp, " (%llu suppressed, %llu known)", supp, known);
	else if (supp || known)
		fprintf(fp, " (%llu %s)", supp + known, supp ? "suppressed" : "known");
	fputc('\n', fp);
}

void pdt_report_summary(FILE *fp, const struct pdt_report *r)
{
	bool truncated = r->recording && r->recording->truncated;
	const struct pdt_retired *ret = pdt_rules_retired(r->rules);
	unsigned long long absent;
	char dev[24], cmd[1024], rel[4 * 65];
	size_t i;

	fprintf(fp, "%-12s %-8s %-16s %-20s %7s %9s %8s %10s %5s %s\n", "FSTYPE", "DEV", "S_ID",
		"MOUNTPOINT", "MADE", "DISCARDED", "UNPINNED", "PERSISTENT", "FINDS", "STATE");
	for (i = 0; i < pdt_rules_nsbs(r->rules); i++) {
		const struct pdt_sb *sb = pdt_rules_sb(r->rules, i);
		const char *mp = i < r->nmounts && r->mounts[i].path[0] ? r->mounts[i].path : "-";
		char fs[4 * PDT_FSTYPE_LEN], sid[4 * PDT_SID_LEN],
		    mpe[4 * sizeof(r->mounts[i].path)];

		if (!sb)
			continue; /* retired: in the line below */
		pdt_format_dev(sb->dev, dev, sizeof(dev));
		fprintf(fp, "%-12s %-8s %-16s %-20s %7llu %9llu %8llu %10lld %5llu %s\n",
			pdt_text_esc(fs, sizeof(fs), sb->fs_type), dev,
			pdt_text_esc(sid, sizeof(sid), sb->s_id),
			pdt_text_esc(mpe, sizeof(mpe), mp), sb->made, sb->discarded, sb->unpinned,
			sb->live, sb->findings, sb->unmounted ? "unmounted" : "mounted");
	}
	if (ret->sbs)
		fprintf(fp,
			"and %llu superblocks gone with balanced books and no finding: made %llu, "
			"discarded %llu, unpinned at umount %llu\n",
			ret->sbs, ret->made, ret->discarded, ret->unpinned);
	for (i = 0; i < r->nmissing; i++)
		if (pdt_report_coverage_needed(r, r->missing[i]))
			fprintf(fp, "coverage: %s\n", r->missing[i]);
	if (r->dput_skipped)
		fprintf(fp,
			"coverage: dput() checked all but %llu calls (the kernel skips a program "
			"while another run of it is under way on that CPU)\n",
			r->dput_skipped);
	text_self_check(fp, r);
	if (r->kernel)
		fprintf(fp, "kernel: %s\n", pdt_text_esc(rel, sizeof(rel), r->kernel));
	text_recording(fp, r);
	if (!r->complete && (r->lost_events || r->map_full || r->malformed ||
			     (!truncated && !pdt_rules_inconsistent(r->rules))))
		fprintf(fp,
			"INCOMPLETE: %llu events lost, %llu map insertions refused, %llu malformed "
			"events: findings may be missing\n",
			r->lost_events, r->map_full, r->malformed);
	absent = by_absence(r);
	if (!r->complete && absent) {
		int k, n = 0;

		fprintf(fp, "INCOMPLETE: %llu findings rest on an event that did not come (",
			absent);
		for (k = 0; k < PDT_R_MAX; k++)
			if (pdt_rule_table[k].by_absence)
				fprintf(fp, "%s%s", n++ ? ", " : "", pdt_rule_table[k].name);
		fputs("): they may be artifacts of the loss and do not set the exit status\n", fp);
	}
	if (r->argv && r->argv[0] && r->exit_status >= 0)
		fprintf(fp, "command: %s exited with status %d\n",
			pdt_text_esc(cmd, sizeof(cmd), r->argv[0]), r->exit_status);
	else if (r->argv && r->argv[0])
		fprintf(fp, "command: %s (exit status not recorded)\n",
			pdt_text_esc(cmd, sizeof(cmd), r->argv[0]));
	if (pdt_rules_unlisted(r->rules))
		fprintf(fp, "findings: %llu more not listed (the first %d are)\n",
			pdt_rules_unlisted(r->rules), PDT_RULES_MAX_FINDINGS);
	pdt_report_gate_lines(fp, r);
	text_summary_line(fp, r);
}

/* ---- JSON ----------------------------------------------------------------- */

static void json_stack(struct pdt_json *j, const char *name, const unsigned long long *st,
		       unsigned int n, unsigned int epoch, const struct ksyms *k, bool addrs)
{
	char sym[400];
	unsigned int i;

	pdt_json_name(j, name);
	pdt_json_arr_open(j);
	for (i = 0; i < n; i++) {
		if (ksyms_is_bpf(k, st[i]))
			continue;
		ksyms_format_at(k, st[i], epoch, addrs, sym, sizeof(sym));
		pdt_json_string(j, sym);
	}
	pdt_json_arr_close(j);
}

static void json_signature(struct pdt_json *j, const struct pdt_finding *f, const struct ksyms *k)
{
	struct pdt_sig *s = malloc(sizeof(*s));

	if (!s)
		return;
	pdt_sig_make(s, f, k);
	pdt_json_kv_str(j, "signature", s->hex);
	pdt_json_kv_str(j, "signature_key", s->key);
	free(s);
}

static void json_finding_members(struct pdt_json *j, const struct pdt_finding *f,
				 const struct ksyms *k, bool addrs)
{
	char dev[24];

	pdt_format_dev(f->dev, dev, sizeof(dev));
	pdt_json_kv_str(j, "kind", pdt_kind_name(f->kind));
	pdt_json_kv_str(j, "rule", f->rule);
	pdt_json_kv_str(j, "fs_type", f->fs_type);
	pdt_json_kv_str(j, "s_id", f->s_id);
	pdt_json_kv_str(j, "dev", dev);
	pdt_json_kv_str(j, "path", f->path);
	pdt_json_kv_str(j, "origin", pdt_origin_name(f->origin));
	pdt_json_name(j, "refcount");
	if (f->has_refcount)
		pdt_json_int(j, f->refcount);
	else
		pdt_json_null(j);
	pdt_json_kv_uint(j, "pid", f->pid);
	pdt_json_kv_str(j, "comm", f->comm);
	json_stack(j, "stack", f->stack, f->nstack, f->stack_epoch, k, addrs);
	json_stack(j, "created_stack", f->created, f->ncreated, f->created_epoch, k, addrs);
	pdt_json_name(j, "created_by");
	if (f->created_seen) {
		pdt_json_obj_open(j);
		pdt_json_kv_uint(j, "pid", f->created_pid);
		pdt_json_kv_str(j, "comm", f->created_comm);
		pdt_json_obj_close(j);
	} else {
		pdt_json_null(j);
	}
	pdt_json_kv_str(j, "message", f->message);
	json_signature(j, f, k);
	if (f->module[0]) /* outlives-module */
		pdt_json_kv_str(j, "module", f->module);
}

void pdt_finding_json(struct pdt_json *j, const struct pdt_finding *f, const struct ksyms *k,
		      bool addrs)
{
	pdt_json_obj_open(j);
	json_finding_members(j, f, k, addrs);
	pdt_json_obj_close(j);
}

void pdt_finding_json_fate(struct pdt_json *j, const struct pdt_finding *f, const struct ksyms *k,
			   bool addrs, const char *entry, bool known)
{
	pdt_json_obj_open(j);
	json_finding_members(j, f, k, addrs);
	pdt_json_kv_str(j, "suppressed_by", entry);
	pdt_json_kv_bool(j, "known", known);
	pdt_json_obj_close(j);
}

/* A report's finding i: its members, the entry that suppressed it, whether it is known. */
static void json_report_finding(struct pdt_json *j, const struct pdt_report *r, size_t i)
{
	const struct pdt_finding *f = pdt_rules_finding(r->rules, i);
	long e = pdt_gate_entry(r->gate, i);
	char *gen = NULL;
	size_t len = 0;
	FILE *mem;

	pdt_json_obj_open(j);
	json_finding_members(j, f, r->ksyms, r->show_addresses);
	pdt_json_kv_str(j, "suppressed_by",
			e >= 0 ? pdt_supp_name(pdt_gate_supp(r->gate), e) : NULL);
	pdt_json_kv_bool(j, "known", pdt_gate_fate(r->gate, i) == PDT_FATE_KNOWN);
	if (r->gen_suppressions && e < 0 && (mem = open_memstream(&gen, &len))) {
		pdt_supp_gen(mem, f, r->ksyms);
		fclose(mem);
		pdt_json_kv_str(j, "suppression", gen);
		free(gen);
	}
	pdt_json_obj_close(j);
}

/* The entries of the suppression files, what each matched, and the findings suppressed. */
static void json_suppressions(struct pdt_json *j, const struct pdt_report *r)
{
	const struct pdt_supp *s = pdt_gate_supp(r->gate);
	size_t i;

	pdt_json_kv_uint(j, "suppressed", pdt_gate_count(r->gate, PDT_FATE_SUPPRESSED));
	pdt_json_name(j, "suppressions");
	pdt_json_arr_open(j);
	for (i = 0; i < pdt_supp_count(s); i++) {
		pdt_json_obj_open(j);
		pdt_json_kv_str(j, "name", pdt_supp_name(s, i));
		pdt_json_kv_str(j, "file", pdt_supp_file(s, i));
		pdt_json_kv_uint(j, "line", pdt_supp_line(s, i));
		pdt_json_kv_uint(j, "matched", pdt_supp_matched(s, i));
		pdt_json_obj_close(j);
	}
	pdt_json_arr_close(j);
}

/* One flat object (no nesting: scripts strip it with one pattern), or null for a live run. */
static void json_recording(struct pdt_json *j, const struct pdt_recording *rec)
{
	pdt_json_name(j, "recording");
	if (!rec) {
		pdt_json_null(j);
		return;
	}
	pdt_json_obj_open(j);
	pdt_json_kv_str(j, "file", rec->file);
	pdt_json_kv_str(j, "recorded_by", rec->recorded_by);
	pdt_json_kv_str(j, "start", rec->start);
	pdt_json_kv_uint(j, "events", rec->events);
	pdt_json_kv_str(j, "truncated", rec->truncated); /* NULL: null */
	pdt_json_obj_close(j);
}

static void json_command(struct pdt_json *j, const struct pdt_report *r)
{
	size_t i;

	pdt_json_name(j, "command");
	if (!r->argv) {
		pdt_json_null(j);
		return;
	}
	pdt_json_obj_open(j);
	pdt_json_name(j, "argv");
	pdt_json_arr_open(j);
	for (i = 0; r->argv[i]; i++)
		pdt_json_string(j, r->argv[i]);
	pdt_json_arr_close(j);
	pdt_json_name(j, "exit_status");
	if (r->exit_status >= 0)
		pdt_json_int(j, r->exit_status);
	else
		pdt_json_null(j);
	pdt_json_obj_close(j);
}

static void json_superblock(struct pdt_json *j, const struct pdt_report *r, size_t i)
{
	const struct pdt_sb *sb = pdt_rules_sb(r->rules, i);
	const struct pdt_mount *m = i < r->nmounts ? &r->mounts[i] : NULL;
	char dev[24], name[PDT_SB_NAME_LEN];

	pdt_format_dev(sb->dev, dev, sizeof(dev));
	pdt_json_obj_open(j);
	pdt_json_kv_str(j, "fs_type", sb->fs_type);
	pdt_json_kv_str(j, "s_id", sb->s_id);
	pdt_json_kv_str(j, "dev", dev);
	pdt_json_kv_str(j, "mountpoint", m && m->path[0] ? m->path : NULL);
	pdt_json_kv_int(j, "mounts", m ? m->count : 0);
	pdt_json_kv_uint(j, "made", sb->made);
	pdt_json_kv_uint(j, "discarded", sb->discarded);
	pdt_json_kv_uint(j, "unpinned_at_umount", sb->unpinned);
	pdt_json_kv_uint(j, "adopted", sb->adopted);
	pdt_json_kv_int(j, "persistent_now", sb->live);
	pdt_json_kv_uint(j, "findings", sb->findings);
	pdt_json_kv_bool(j, "unmounted", sb->unmounted);
	pdt_json_kv_uint(j, "eaten", sb->eaten);
	pdt_json_kv_str(j, "self_check", pdt_check_name(sb->check));
	pdt_json_kv_uint(j, "check_entries", sb->check_entries);
	pdt_json_kv_uint(j, "check_differences", sb->check_diffs);
	pdt_json_kv_str(j, "check_first", sb->check_diffs ? sb->check_first : NULL);
	/* The test's name in the JUnit, KTAP and KCIDB reports: the same on every boot. */
	pdt_report_sb_name(r, i, name, sizeof(name));
	pdt_json_kv_str(j, "name", name);
	pdt_json_obj_close(j);
}

/* Superblocks folded into one count (pdt_rules_retire()); absent when there are none. */
static void json_retired(struct pdt_json *j, const struct pdt_retired *ret)
{
	if (!ret->sbs)
		return;
	pdt_json_name(j, "retired_superblocks");
	pdt_json_obj_open(j);
	pdt_json_kv_uint(j, "superblocks", ret->sbs);
	pdt_json_kv_uint(j, "made", ret->made);
	pdt_json_kv_uint(j, "discarded", ret->discarded);
	pdt_json_kv_uint(j, "unpinned_at_umount", ret->unpinned);
	pdt_json_kv_uint(j, "adopted", ret->adopted);
	pdt_json_obj_close(j);
}

/* The kinds' counts: {"leak":N,"imbalance":N,"illegal-removal":N}. */
void pdt_json_summary(struct pdt_json *j, const struct pdt_rules *rules)
{
	int k;

	pdt_json_name(j, "summary");
	pdt_json_obj_open(j);
	for (k = 0; k < PDT_KIND_MAX; k++)
		pdt_json_kv_uint(j, pdt_kind_name((enum pdt_kind)k),
				 pdt_rules_count(rules, (enum pdt_kind)k));
	pdt_json_obj_close(j);
}

/* null without --baseline; else the counts and the signatures no finding had. */
static void json_baseline(struct pdt_json *j, const struct pdt_report *r)
{
	const struct pdt_baseline *b = pdt_gate_baseline(r->gate);
	char hex[17];
	size_t i;

	pdt_json_name(j, "baseline");
	if (!b) {
		pdt_json_null(j);
		return;
	}
	pdt_json_obj_open(j);
	pdt_json_kv_str(j, "file", pdt_baseline_file(b));
	pdt_json_kv_uint(j, "known", pdt_gate_count(r->gate, PDT_FATE_KNOWN));
	pdt_json_kv_uint(j, "new", pdt_gate_count(r->gate, PDT_FATE_NEW));
	pdt_json_kv_uint(j, "gone", pdt_baseline_gone(b));
	pdt_json_name(j, "gone_signatures");
	pdt_json_arr_open(j);
	for (i = 0; i < pdt_baseline_count(b); i++) {
		if (pdt_baseline_seen(b, i))
			continue;
		pdt_baseline_sig(b, i, hex);
		pdt_json_obj_open(j);
		pdt_json_kv_str(j, "signature", hex);
		pdt_json_kv_str(j, "signature_key", pdt_baseline_key(b, i));
		pdt_json_obj_close(j);
	}
	pdt_json_arr_close(j);
	pdt_json_obj_close(j);
}

static void json_report(FILE *fp, const struct pdt_report *r)
{
	struct pdt_json j;
	size_t i, n;

	pdt_json_init(&j, fp);
	pdt_json_obj_open(&j);
	pdt_json_kv_str(&j, "version", r->version);
	pdt_json_kv_str(&j, "kernel", r->kernel);
	pdt_json_kv_bool(&j, "complete", r->complete);
	pdt_json_kv_uint(&j, "lost_events", r->lost_events);
	pdt_json_kv_uint(&j, "map_full", r->map_full);
	pdt_json_kv_uint(&j, "malformed_events", r->malformed);
	pdt_json_kv_uint(&j, "dput_checks_skipped", r->dput_skipped);
	json_recording(&j, r->recording);
	json_command(&j, r);
	pdt_json_name(&j, "coverage_lost");
	pdt_json_arr_open(&j);
	for (i = 0; i < r->nmissing; i++)
		pdt_json_string(&j, r->missing[i]);
	pdt_json_arr_close(&j);
	pdt_json_name(&j, "superblocks");
	pdt_json_arr_open(&j);
	for (i = 0; i < pdt_rules_nsbs(r->rules); i++)
		if (pdt_rules_sb(r->rules, i))
			json_superblock(&j, r, i);
	pdt_json_arr_close(&j);
	json_retired(&j, pdt_rules_retired(r->rules));
	pdt_json_kv_uint(&j, "inconsistent_superblocks", pdt_rules_inconsistent(r->rules));
	pdt_json_kv_uint(&j, "unlisted_findings", pdt_rules_unlisted(r->rules));
	pdt_json_kv_uint(&j, "findings_by_absence", by_absence(r));
	pdt_json_name(&j, "findings");
	pdt_json_arr_open(&j);
	n = pdt_rules_nfindings(r->rules);
	for (i = 0; i < n; i++)
		json_report_finding(&j, r, i);
	pdt_json_arr_close(&j);
	json_suppressions(&j, r);
	json_baseline(&j, r);
	pdt_json_summary(&j, r->rules);
	pdt_json_obj_close(&j);
	fputc('\n', fp);
}

void pdt_report_write(FILE *fp, enum pdt_format fmt, const struct pdt_report *in)
{
	/* Names are asked for once per superblock and per finding: number them once. */
	unsigned int *dups = in->sb_dups ? NULL : sb_dups(in);
	struct pdt_report copy = *in;
	const struct pdt_report *r = &copy;

	if (dups)
		copy.sb_dups = dups;
	switch (fmt) {
	case PDT_FMT_TEXT:
		text_report(fp, r);
		break;
	case PDT_FMT_JSON:
		json_report(fp, r);
		break;
	case PDT_FMT_JUNIT:
		pdt_junit_report(fp, r);
		break;
	case PDT_FMT_KTAP:
		pdt_ktap_report(fp, r);
		break;
	case PDT_FMT_KCIDB:
		pdt_kcidb_report(fp, r);
		break;
	}
	free(dups);
}
