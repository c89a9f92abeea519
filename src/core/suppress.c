// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "pattern.h"
#include "signature.h"
#include "suppress.h"
#include "text.h"

enum { STACK_AT, STACK_MADE, NSTACKS };

struct entry {
	char *name, *file;
	unsigned int line;	       /* of its '{' */
	char *kind, *rule, *fs, *path; /* patterns; fs and path NULL: any */
	char **frames[NSTACKS];	       /* each at its length, the table as long as it needs */
	unsigned int nframes[NSTACKS], frames_cap[NSTACKS];
	unsigned long long matched;
};

/* The entries whose kind and rule patterns match one rule's, in file order. */
struct rule_index {
	size_t *v, n, cap;
};

struct pdt_supp {
	struct entry *v;
	size_t n, cap;
	struct rule_index by_rule[PDT_R_MAX]; /* a finding tries only its rule's entries */
};

/* Where the parser is in an entry. */
enum state { OUTSIDE, WANT_NAME, WANT_KIND, IN_BODY };

struct parser {
	struct pdt_supp *s;
	const char *file;
	unsigned int line;
	enum state state;
	struct entry *e;
	int last_stack; /* the list a bare "..." belongs to */
	char *err;
	size_t errlen;
};

struct pdt_supp *pdt_supp_new(void)
{
	return calloc(1, sizeof(struct pdt_supp));
}

static void entry_free(struct entry *e)
{
	unsigned int i, l;

	free(e->name);
	free(e->file);
	free(e->kind);
	free(e->rule);
	free(e->fs);
	free(e->path);
	for (l = 0; l < NSTACKS; l++) {
		for (i = 0; i < e->nframes[l]; i++)
			free(e->frames[l][i]);
		free(e->frames[l]);
	}
}

void pdt_supp_free(struct pdt_supp *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++)
		entry_free(&s->v[i]);
	for (i = 0; i < PDT_R_MAX; i++)
		free(s->by_rule[i].v);
	free(s->v);
	free(s);
}

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct parser *p, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%u: %s", p->file, p->line, what);
	return -1;
}

/* A name from the file, as an error message may quote it: escaped, cut short. */
static const char *quote(char *buf, size_t n, const char *s)
{
	return pdt_text_esc(buf, n, s);
}

static bool has_wild(const char *pat)
{
	return strpbrk(pat, "*?#\\") != NULL;
}

/* A copy of a pattern, checked. */
static int set_pattern(struct parser *p, char **dst, const char *pat, const char *what)
{
	const char *bad = pdt_pattern_check(pat);

	if (bad)
		return fail(p, "bad %s pattern: %s", what, bad);
	if (*dst)
		return fail(p, "a second %s line in one entry", what);
	*dst = strdup(pat);
	return *dst ? 0 : fail(p, "out of memory");
}

static bool known_kind(const char *name)
{
	int k;

	for (k = 0; k < PDT_KIND_MAX; k++)
		if (!strcmp(name, pdt_kind_name((enum pdt_kind)k)))
			return true;
	return false;
}

/* "KIND:RULE", each a name or a pattern. */
static int parse_kind(struct parser *p, char *line)
{
	char *colon = strchr(line, ':'), q[64];

	if (!colon || !strcmp(line, "}"))
		return fail(p,
			    "entry '%s' needs a KIND:RULE line after its name (e.g. leak:orphaned, "
			    "leak:*)",
			    quote(q, sizeof(q), p->e->name));
	*colon = '\0';
	if (!has_wild(line) && !known_kind(line))
		return fail(p, "unknown kind '%s' (leak, imbalance, illegal-removal, or a pattern)",
			    quote(q, sizeof(q), line));
	if (!has_wild(colon + 1) && !pdt_rule_name(colon + 1)) {
		char names[512] = "";
		size_t k, n = 0;

		for (k = 0; k < PDT_R_MAX && n < sizeof(names); k++)
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", k ? ", " : "",
					      pdt_rule_table[k].name);
		return fail(p, "unknown rule '%s' (%s, or a pattern)",
			    quote(q, sizeof(q), colon + 1), names);
	}
	if (set_pattern(p, &p->e->kind, line, "kind") ||
	    set_pattern(p, &p->e->rule, colon + 1, "rule"))
		return -1;
	p->state = IN_BODY;
	return 0;
}

static int add_frame(struct parser *p, int stack, const char *pat)
{
	struct entry *e = p->e;

	if (e->nframes[stack] == PDT_SUPP_MAX_FRAMES)
		return fail(p, "more than %d %s lines in one entry", PDT_SUPP_MAX_FRAMES,
			    stack == STACK_AT ? "frame:" : "made:");
	/* Consecutive "..." are one: the matcher's table stays small. */
	if (!strcmp(pat, "...") && e->nframes[stack] &&
	    !strcmp(e->frames[stack][e->nframes[stack] - 1], "..."))
		return 0;
	if (pdt_pattern_check(pat))
		return fail(p, "bad frame pattern: %s", pdt_pattern_check(pat));
	if (e->nframes[stack] == e->frames_cap[stack]) {
		unsigned int ncap = e->frames_cap[stack] ? 2 * e->frames_cap[stack] : 4;
		char **v = realloc(e->frames[stack], ncap * sizeof(*v));

		if (!v)
			return fail(p, "out of memory");
		e->frames[stack] = v;
		e->frames_cap[stack] = ncap;
	}
	if (!(e->frames[stack][e->nframes[stack]] = strdup(pat)))
		return fail(p, "out of memory");
	e->nframes[stack]++;
	p->last_stack = stack;
	return 0;
}

/* The closed entry p->e, indexed under each rule its kind and rule patterns match. */
static int index_entry(struct parser *p)
{
	struct pdt_supp *s = p->s;
	int r;

	for (r = 0; r < PDT_R_MAX; r++) {
		const struct pdt_rule_info *ri = &pdt_rule_table[r];
		struct rule_index *ix = &s->by_rule[r];

		if (!pdt_pattern_match(p->e->kind, pdt_kind_name(ri->kind)) ||
		    !pdt_pattern_match(p->e->rule, ri->name))
			continue;
		if (ix->n == ix->cap) {
			size_t ncap = ix->cap ? 2 * ix->cap : 8,
			       *v = realloc(ix->v, ncap * sizeof(*v));

			if (!v) {
				while (r--) /* the entry is not added: out of every index */
					if (s->by_rule[r].n &&
					    s->by_rule[r].v[s->by_rule[r].n - 1] == s->n)
						s->by_rule[r].n--;
				return fail(p, "out of memory");
			}
			ix->v = v;
			ix->cap = ncap;
		}
		ix->v[ix->n++] = s->n;
	}
	return 0;
}

static int parse_body(struct parser *p, const char *line)
{
	char q[64];

	if (!strcmp(line, "}")) {
		if (index_entry(p))
			return -1;
		p->s->n++;
		p->state = OUTSIDE;
		return 0;
	}
	if (!strcmp(line, "{"))
		return fail(p, "'{' inside entry '%s' (a '}' missing?)",
			    quote(q, sizeof(q), p->e->name));
	if (!strcmp(line, "..."))
		return add_frame(p, p->last_stack, line);
	if (!strncmp(line, "frame:", 6))
		return add_frame(p, STACK_AT, line + 6);
	if (!strncmp(line, "made:", 5))
		return add_frame(p, STACK_MADE, line + 5);
	if (!strncmp(line, "fs:", 3))
		return set_pattern(p, &p->e->fs, line + 3, "fs:");
	if (!strncmp(line, "path:", 5))
		return set_pattern(p, &p->e->path, line + 5, "path:");
	return fail(p, "unknown line '%s' (fs:, path:, frame:, made:, ... or '}')",
		    quote(q, sizeof(q), line));
}

static int open_entry(struct parser *p, const char *line)
{
	struct pdt_supp *s = p->s;

	if (strcmp(line, "{"))
		return fail(p, "expected '{', the start of an entry, or a # comment");
	if (s->n == s->cap) {
		size_t ncap = s->cap ? 2 * s->cap : 8;
		struct entry *v = realloc(s->v, ncap * sizeof(*v));

		if (!v)
			return fail(p, "out of memory");
		s->v = v;
		s->cap = ncap;
	}
	p->e = &s->v[s->n];
	memset(p->e, 0, sizeof(*p->e));
	p->e->line = p->line;
	p->last_stack = STACK_AT;
	if (!(p->e->file = strdup(p->file)))
		return fail(p, "out of memory");
	p->state = WANT_NAME;
	return 0;
}

static int parse_line(struct parser *p, char *line)
{
	switch (p->state) {
	case OUTSIDE:
		return open_entry(p, line);
	case WANT_NAME:
		if (!strcmp(line, "}") || !strcmp(line, "{"))
			return fail(p, "an entry starts with its name, then a KIND:RULE line");
		if (!(p->e->name = strdup(line)))
			return fail(p, "out of memory");
		p->state = WANT_KIND;
		return 0;
	case WANT_KIND:
		return parse_kind(p, line);
	case IN_BODY:
		return parse_body(p, line);
	}
	return -1;
}

/* Leading and trailing blanks off, as valgrind's files indent their lines. */
static char *trim(char *s, size_t len)
{
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' ' ||
		       s[len - 1] == '\t'))
		s[--len] = '\0';
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/*
 * One line read into buf (PDT_SUPP_MAX_LINE + 1 bytes): 0, 1 at the end of the file,
 * -1 on an error. A line is never buffered past the limit, and a read error (an
 * unreadable file, a directory) is one, never the end of the file.
 */
static int next_line(struct parser *p, FILE *fp, char *buf, char **line)
{
	size_t len = 0;
	bool nul = false;
	int c;

	errno = 0;
	while ((c = getc(fp)) != EOF && c != '\n') {
		if (len == PDT_SUPP_MAX_LINE) {
			p->line++;
			return fail(p, "a line longer than %d bytes", PDT_SUPP_MAX_LINE);
		}
		nul |= !c;
		buf[len++] = (char)c;
	}
	if (c == EOF && !len && !ferror(fp))
		return 1;
	p->line++;
	if (c == EOF && ferror(fp))
		return fail(p, "read error: %s", strerror(errno ? errno : EIO));
	if (nul)
		return fail(p, "a NUL byte (not a text file?)");
	buf[len] = '\0';
	*line = trim(buf, len);
	return 0;
}

int pdt_supp_parse(struct pdt_supp *s, const char *name, FILE *fp, char *err, size_t n)
{
	struct parser p = { .s = s, .file = name, .err = err, .errlen = n };
	char *buf = malloc(PDT_SUPP_MAX_LINE + 1), *line = NULL;
	int rc;

	if (!buf) {
		snprintf(err, n, "%s: out of memory", name);
		return -1;
	}
	while (!(rc = next_line(&p, fp, buf, &line))) {
		if (!line[0] || line[0] == '#')
			continue;
		if (parse_line(&p, line)) {
			rc = -1;
			break;
		}
	}
	free(buf);
	if (rc > 0 && p.state != OUTSIDE) {
		p.line = p.e->line;
		rc = fail(&p, "entry not closed: end of file before its '}'");
	}
	if (rc < 0 && p.state != OUTSIDE) /* the entry being read is not added */
		entry_free(p.e);
	return rc < 0 ? -1 : 0;
}

int pdt_supp_load(struct pdt_supp *s, const char *path, char *err, size_t n)
{
	FILE *fp = fopen(path, "r");
	int rc;

	if (!fp) {
		snprintf(err, n, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	rc = pdt_supp_parse(s, path, fp, err, n);
	fclose(fp);
	return rc;
}

size_t pdt_supp_count(const struct pdt_supp *s)
{
	return s ? s->n : 0;
}

const char *pdt_supp_name(const struct pdt_supp *s, size_t i)
{
	return s->v[i].name;
}

const char *pdt_supp_file(const struct pdt_supp *s, size_t i)
{
	return s->v[i].file;
}

unsigned int pdt_supp_line(const struct pdt_supp *s, size_t i)
{
	return s->v[i].line;
}

unsigned long long pdt_supp_matched(const struct pdt_supp *s, size_t i)
{
	return s->v[i].matched;
}

/* ---- matching ------------------------------------------------------------- */

/*
 * Patterns pat[i..] against frames j.. of st, "..." taking any number of frames; the
 * patterns need match only the top of the stack. memo: 0 unknown, 1 yes, 2 no, so
 * that a list of "..." and patterns costs patterns x frames steps at most.
 */
static bool frames_from(char *const *pat, unsigned int np, const struct pdt_sig_stack *st,
			unsigned int i, unsigned int j,
			unsigned char memo[PDT_SUPP_MAX_FRAMES + 1][PDT_STACK_DEPTH + 1])
{
	bool r;

	if (i == np)
		return true;
	if (memo[i][j])
		return memo[i][j] == 1;
	if (!strcmp(pat[i], "..."))
		r = frames_from(pat, np, st, i + 1, j, memo) ||
		    (j < st->n && frames_from(pat, np, st, i, j + 1, memo));
	else
		r = j < st->n && pdt_pattern_match(pat[i], st->frame[j]) &&
		    frames_from(pat, np, st, i + 1, j + 1, memo);
	memo[i][j] = r ? 1 : 2;
	return r;
}

static bool frames_match(const struct entry *e, int stack, const unsigned long long *addrs,
			 unsigned int n, unsigned int epoch, const struct ksyms *k)
{
	unsigned char memo[PDT_SUPP_MAX_FRAMES + 1][PDT_STACK_DEPTH + 1];
	struct pdt_sig_stack st;

	if (!e->nframes[stack])
		return true;
	pdt_sig_stack(&st, addrs, n, epoch, k);
	memset(memo, 0, sizeof(memo));
	return frames_from(e->frames[stack], e->nframes[stack], &st, 0, 0, memo);
}

static bool entry_matches(const struct entry *e, const struct pdt_finding *f, const struct ksyms *k)
{
	return pdt_pattern_match(e->kind, pdt_kind_name(f->kind)) &&
	       pdt_pattern_match(e->rule, f->rule) &&
	       (!e->fs || pdt_pattern_match(e->fs, f->fs_type)) &&
	       (!e->path || pdt_pattern_match(e->path, f->path)) &&
	       frames_match(e, STACK_AT, f->stack, f->nstack, f->stack_epoch, k) &&
	       frames_match(e, STACK_MADE, f->created, f->ncreated, f->created_epoch, k);
}

long pdt_supp_find(const struct pdt_supp *s, const struct pdt_finding *f, const struct ksyms *k)
{
	const struct rule_index *ix;
	size_t i;

	if (!s)
		return -1;
	/* A finding of a rule of the table tries the entries indexed under it, in order. */
	if ((unsigned int)f->rule_id < PDT_R_MAX && f->rule &&
	    !strcmp(f->rule, pdt_rule_table[f->rule_id].name) &&
	    f->kind == pdt_rule_table[f->rule_id].kind) {
		ix = &s->by_rule[f->rule_id];
		for (i = 0; i < ix->n; i++)
			if (entry_matches(&s->v[ix->v[i]], f, k))
				return (long)ix->v[i];
		return -1;
	}
	for (i = 0; i < s->n; i++)
		if (entry_matches(&s->v[i], f, k))
			return (long)i;
	return -1;
}

long pdt_supp_match(struct pdt_supp *s, const struct pdt_finding *f, const struct ksyms *k)
{
	long i = pdt_supp_find(s, f, k);

	if (i >= 0)
		s->v[i].matched++;
	return i;
}

/* ---- --gen-suppressions --------------------------------------------------- */

/* The frames of a stack from its top through the last one its signature uses. */
static void gen_frames(FILE *fp, const char *prefix, const unsigned long long *addrs,
		       unsigned int n, unsigned int epoch, const struct ksyms *k)
{
	unsigned int idx[PDT_SIG_FRAMES], np, last, i;
	struct pdt_sig_stack st;

	pdt_sig_stack(&st, addrs, n, epoch, k);
	if (!st.n)
		return;
	np = pdt_sig_pick(&st, idx);
	last = np ? idx[np - 1] : 0;
	for (i = 0; i <= last; i++) {
		fprintf(fp, "   %s", prefix);
		pdt_pattern_quote(fp, st.frame[i], false);
		fputc('\n', fp);
	}
}

void pdt_supp_gen(FILE *fp, const struct pdt_finding *f, const struct ksyms *k)
{
	struct pdt_sig *sig = malloc(sizeof(*sig));

	if (!sig)
		return;
	pdt_sig_make(sig, f, k);
	fprintf(fp, "{\n   %s-%s\n   %s:%s\n   fs:", f->rule, sig->hex, pdt_kind_name(f->kind),
		f->rule);
	pdt_pattern_quote(fp, f->fs_type, false);
	if (f->path[0]) {
		fputs("\n   path:", fp);
		pdt_pattern_quote(fp, f->path, true);
	}
	fputc('\n', fp);
	gen_frames(fp, "frame:", f->stack, f->nstack, f->stack_epoch, k);
	if (pdt_sig_uses_creation(f))
		gen_frames(fp, "made:", f->created, f->ncreated, f->created_epoch, k);
	fputs("}\n", fp);
	free(sig);
}
