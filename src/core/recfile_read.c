// SPDX-License-Identifier: GPL-2.0
/*
 * The recording file's reader: every length checked against its block and the
 * limits of recfile.h before it is used; it stops at the first damaged byte and
 * keeps what came before (docs/record-format.md).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "pdtrace.h"
#include "recfile.h"
#include "recfile_format.h"
#include "text.h"

/* A payload being parsed; off is its first byte's offset in the file, for errors. */
struct cur {
	const unsigned char *p;
	size_t len, pos;
	uint64_t off;
	const char *what; /* block type name */
	char *err;
	size_t errlen;
};

struct reader {
	FILE *fp;
	uint64_t size, off;
	struct pdt_rec *rec;
	const struct pdt_rec_sink *sink;
	char *err;
	size_t errlen;
	uint64_t *scratch; /* one event, aligned for the rules engine */
	bool argv_seen, coverage_seen, rules_off_seen;
};

static int fail_at(char *err, size_t errlen, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail_at(char *err, size_t errlen, uint64_t off, const char *fmt, ...)
{
	int n = snprintf(err, errlen, "byte %llu: ", (unsigned long long)off);
	va_list ap;

	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int need(struct cur *c, size_t n, const char *field)
{
	if (c->len - c->pos >= n)
		return 0;
	return fail_at(c->err, c->errlen, c->off + c->pos,
		       "%s block: %s needs %zu bytes, only %zu left in the block", c->what, field,
		       n, c->len - c->pos);
}

static int take32(struct cur *c, const char *field, uint32_t *v)
{
	if (need(c, 4, field))
		return -1;
	*v = get32(c->p + c->pos);
	c->pos += 4;
	return 0;
}

static int take64(struct cur *c, const char *field, uint64_t *v)
{
	if (need(c, 8, field))
		return -1;
	*v = get64(c->p + c->pos);
	c->pos += 8;
	return 0;
}

/* Names from a file reach terminals: no C0 or C1 controls, nothing that is not UTF-8. */
static void sanitize(char *s)
{
	pdt_text_sanitize(s);
}

/* A u32-length string of at most max bytes, copied and NUL-terminated (NULs cut it short). */
static char *take_str(struct cur *c, const char *field, size_t max)
{
	uint64_t at = c->off + c->pos;
	uint32_t n;
	char *s;

	if (take32(c, field, &n))
		return NULL;
	if (n > max) {
		fail_at(c->err, c->errlen, at, "%s block: %s of %u bytes (at most %zu)", c->what,
			field, n, max);
		return NULL;
	}
	if (need(c, n, field))
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s) {
		fail_at(c->err, c->errlen, at, "out of memory");
		return NULL;
	}
	memcpy(s, c->p + c->pos, n);
	s[n] = '\0';
	c->pos += n;
	return s;
}

static int str_into(struct cur *c, const char *field, char *dst, size_t n)
{
	char *s = take_str(c, field, n - 1);

	if (!s)
		return -1;
	memcpy(dst, s, strlen(s) + 1);
	sanitize(dst);
	free(s);
	return 0;
}

static int parse_meta(struct reader *r, struct cur *c)
{
	struct pdt_rec_meta *m = &r->rec->meta;
	uint32_t order, sizes;

	if (take64(c, "start time", &m->start_ns) || take64(c, "start clock", &m->mono_ns) ||
	    take32(c, "event sizes", &sizes) || take32(c, "byte order", &order))
		return -1;
	m->event_size = (uint16_t)sizes;
	m->full_size = (uint16_t)(sizes >> 16);
	if (order != 1)
		return fail_at(c->err, c->errlen, c->off + 20,
			       "events recorded in byte order %u: only little-endian (1) is read",
			       order);
	if (m->event_size != sizeof(struct pdt_event) ||
	    m->full_size != sizeof(struct pdt_event_full))
		return fail_at(c->err, c->errlen, c->off + 16,
			       "events of %u/%u bytes, this pdtrace reads %zu/%zu: report it with "
			       "the pdtrace that recorded it",
			       m->event_size, m->full_size, sizeof(struct pdt_event),
			       sizeof(struct pdt_event_full));
	/* A newer minor version may append fields: the rest is ignored. */
	return str_into(c, "pdtrace version", m->version, sizeof(m->version)) ||
	       str_into(c, "kernel release", m->release, sizeof(m->release)) ||
	       str_into(c, "machine", m->machine, sizeof(m->machine));
}

/* A u32 count, then that many strings; count checked against what the block can hold. */
static char **take_strings(struct cur *c, size_t max_count, size_t max_len, size_t *count)
{
	uint64_t at = c->off + c->pos;
	uint32_t n, i;
	char **v;

	if (take32(c, "string count", &n))
		return NULL;
	if (n > max_count || n > (c->len - c->pos) / 4) {
		fail_at(c->err, c->errlen, at, "%s block: %u strings (the block holds at most %zu)",
			c->what, n,
			(c->len - c->pos) / 4 < max_count ? (c->len - c->pos) / 4 : max_count);
		return NULL;
	}
	v = calloc((size_t)n + 1, sizeof(*v));
	if (!v) {
		fail_at(c->err, c->errlen, at, "out of memory");
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (!(v[i] = take_str(c, "string", max_len)))
			break;
	if (i < n) {
		while (i)
			free(v[--i]);
		free(v);
		return NULL;
	}
	*count = n;
	return v;
}

static void free_strings(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static int once(struct reader *r, struct cur *c, bool *seen)
{
	if (*seen)
		return fail_at(c->err, c->errlen, c->off - PDT_REC_BLOCK_HDR, "a second %s block",
			       c->what);
	*seen = true;
	(void)r;
	return 0;
}

static int parse_strings(struct reader *r, struct cur *c, unsigned int type)
{
	size_t n = 0, i;
	char **v;

	switch (type) {
	case PDT_REC_ARGV:
		if (once(r, c, &r->argv_seen) ||
		    !(v = take_strings(c, MAX_ARGS, PDT_REC_MAX_BLOCK, &n)))
			return -1;
		r->rec->argv = v;
		return 0;
	case PDT_REC_COVERAGE:
		if (once(r, c, &r->coverage_seen) ||
		    !(v = take_strings(c, PDT_REC_MAX_COVERAGE, PDT_REC_MAX_LINE, &n)))
			return -1;
		for (i = 0; i < n; i++)
			sanitize(v[i]);
		r->rec->coverage = v;
		r->rec->ncoverage = n;
		return 0;
	}
	if (once(r, c, &r->rules_off_seen) ||
	    !(v = take_strings(c, PDT_REC_MAX_RULES_OFF, PDT_REC_MAX_LINE, &n)))
		return -1;
	for (i = 0; i < n && r->sink && r->sink->rule_off; i++)
		r->sink->rule_off(r->sink->ctx, v[i]);
	free_strings(v);
	return 0;
}

static int parse_events(struct reader *r, struct cur *c)
{
	uint32_t size;

	while (c->pos < c->len) {
		uint64_t at = c->off + c->pos;

		if (take32(c, "event size", &size))
			return -1;
		if (!size || size > PDT_REC_MAX_EVENT)
			return fail_at(c->err, c->errlen, at,
				       "EVENTS block: event #%llu of %u bytes (1 to %u)",
				       (unsigned long long)r->rec->nevents, size,
				       PDT_REC_MAX_EVENT);
		if (need(c, size, "event"))
			return -1;
		memcpy(r->scratch, c->p + c->pos, size);
		c->pos += size;
		r->rec->nevents++;
		if (r->sink && r->sink->event)
			r->sink->event(r->sink->ctx, r->scratch, size);
	}
	return 0;
}

static int add_ksym(struct pdt_rec *rec, bool final, const struct ksym *s)
{
	struct ksym **v = final ? &rec->final_syms : &rec->syms;
	size_t *n = final ? &rec->nfinal : &rec->nsyms,
	       *cap = final ? &rec->cap_final : &rec->cap_syms;

	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		struct ksym *p = realloc(*v, ncap * sizeof(*p));

		if (!p)
			return -1;
		*v = p;
		*cap = ncap;
	}
	(*v)[(*n)++] = *s;
	return 0;
}

static int parse_ksym(struct reader *r, struct cur *c, bool final)
{
	uint64_t at = c->off + c->pos, addr, size;
	struct ksym s = {};
	uint16_t n;

	if (take64(c, "symbol address", &addr) || take64(c, "symbol size", &size) ||
	    need(c, 2, "symbol name length"))
		return -1;
	s.addr = addr;
	s.size = size;
	n = get16(c->p + c->pos);
	c->pos += 2;
	if (!n || n > PDT_REC_MAX_SYMNAME)
		return fail_at(c->err, c->errlen, at + 16,
			       "KSYMS block: symbol name of %u bytes (1 to %u)", n,
			       PDT_REC_MAX_SYMNAME);
	if (need(c, n, "symbol name"))
		return -1;
	if (r->rec->nsyms + r->rec->nfinal >= PDT_REC_MAX_SYMS)
		return fail_at(c->err, c->errlen, at, "more than %u symbols", PDT_REC_MAX_SYMS);
	s.name = malloc((size_t)n + 1);
	if (!s.name)
		return fail_at(c->err, c->errlen, at, "out of memory");
	memcpy(s.name, c->p + c->pos, n);
	s.name[n] = '\0';
	c->pos += n;
	sanitize(s.name);
	if (add_ksym(r->rec, final, &s)) {
		free(s.name);
		return fail_at(c->err, c->errlen, at, "out of memory");
	}
	return 0;
}

static int parse_ksyms(struct reader *r, struct cur *c)
{
	uint32_t flags;
	bool final;

	if (take32(c, "flags", &flags))
		return -1;
	final = flags & PDT_REC_KSYMS_FINAL;
	if (final && r->rec->has_final)
		return fail_at(c->err, c->errlen, c->off, "a second final KSYMS block");
	r->rec->has_final |= final;
	while (c->pos < c->len)
		if (parse_ksym(r, c, final))
			return -1;
	return 0;
}

static int parse_end(struct reader *r, struct cur *c)
{
	struct pdt_rec_end *e = &r->rec->end;
	uint32_t status;

	if (take64(c, "stop time", &e->stop_ns) || take64(c, "event count", &e->events) ||
	    take64(c, "lost events", &e->lost_events) || take64(c, "map full", &e->map_full) ||
	    take32(c, "exit status", &status))
		return -1;
	e->exit_status = (int32_t)status;
	if (e->events != r->rec->nevents)
		return fail_at(c->err, c->errlen, c->off + 8,
			       "END block counts %llu events, the file holds %llu",
			       (unsigned long long)e->events, (unsigned long long)r->rec->nevents);
	r->rec->has_end = true;
	return 0;
}

/* The payload p of the block at file offset at. */
static int parse_block(struct reader *r, uint64_t at, unsigned int type, unsigned int flags,
		       const unsigned char *p, size_t len)
{
	struct cur c = { p,	 len,	   0, at + PDT_REC_BLOCK_HDR, pdt_rec_type_name(type),
			 r->err, r->errlen };

	if (r->rec->nblocks == 0 && type != PDT_REC_META)
		return fail_at(r->err, r->errlen, at, "the first block is %s, not META", c.what);
	if (r->rec->nblocks > 0 && type == PDT_REC_META)
		return fail_at(r->err, r->errlen, at, "a second META block");
	switch (type) {
	case PDT_REC_META:
		return parse_meta(r, &c);
	case PDT_REC_RULES_OFF:
	case PDT_REC_COVERAGE:
	case PDT_REC_ARGV:
		return parse_strings(r, &c, type);
	case PDT_REC_MOUNTS:
		if (r->sink && r->sink->mounts)
			r->sink->mounts(r->sink->ctx, (const char *)p, len);
		return 0;
	case PDT_REC_EVENTS:
		return parse_events(r, &c);
	case PDT_REC_KSYMS:
		return parse_ksyms(r, &c);
	case PDT_REC_END:
		return parse_end(r, &c);
	}
	if (flags & PDT_REC_F_CRITICAL)
		return fail_at(
		    r->err, r->errlen, at,
		    "block of unknown type %u that a reader must understand (recorded by "
		    "a newer pdtrace?)",
		    type);
	return 0; /* an optional block of a newer minor version */
}

static size_t read_some(struct reader *r, void *buf, size_t n)
{
	size_t got;

	/* The size at open is the file: a recording still being written reads as a prefix. */
	if (r->size != UINT64_MAX && n > r->size - r->off)
		n = (size_t)(r->size - r->off);
	got = fread(buf, 1, n, r->fp);

	r->off += got;
	return got;
}

/* The file stops early: keep what was read, say where and why. */
static int cut_short(struct reader *r, uint64_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int cut_short(struct reader *r, uint64_t at, const char *fmt, ...)
{
	struct pdt_rec *rec = r->rec;
	va_list ap;
	int n;

	if (!rec->has_meta)
		return fail_at(r->err, r->errlen, at,
			       "the file ends before its first block is complete: nothing "
			       "recorded");
	n = snprintf(rec->why_truncated, sizeof(rec->why_truncated),
		     "truncated at byte %llu: ", (unsigned long long)at);
	va_start(ap, fmt);
	vsnprintf(rec->why_truncated + n, sizeof(rec->why_truncated) - (size_t)n, fmt, ap);
	va_end(ap);
	rec->truncated = true;
	return 0;
}

static bool all_zero(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/*
 * After a zero block header: is the rest of the file zeros too (a crash's hole)? 1 yes,
 * 0 no; -1 when a stream of unknown size (a pipe) goes on with zeros past the largest
 * block: a hole is never that long, and `cat rec /dev/zero` never ends.
 */
static int zero_tail(struct reader *r)
{
	unsigned char buf[4096];
	uint64_t zeros = 0;
	size_t got;

	while ((got = read_some(r, buf, sizeof(buf))) > 0) {
		if (!all_zero(buf, got))
			return 0;
		zeros += got;
		if (r->size == UINT64_MAX && zeros > PDT_REC_MAX_ZERO_TAIL)
			return -1;
	}
	return 1;
}

static int check_file_header(struct reader *r)
{
	unsigned char h[PDT_REC_FILE_HDR];
	size_t got = read_some(r, h, sizeof(h));

	if (got >= 8 && memcmp(h, PDT_REC_MAGIC, 8))
		return fail_at(r->err, r->errlen, 0, "not a pdtrace recording (bad magic number)");
	if (got < sizeof(h))
		return fail_at(r->err, r->errlen, got,
			       "the file ends inside its %d-byte header: not a recording, or "
			       "nothing recorded",
			       PDT_REC_FILE_HDR);
	if (get32(h + 12) != (uint32_t)crc32(crc32(0L, Z_NULL, 0), h, 12))
		return fail_at(r->err, r->errlen, 12, "file header CRC mismatch");
	if (get16(h + 8) != PDT_REC_MAJOR)
		return fail_at(r->err, r->errlen, 8,
			       "format version %u.%u, this pdtrace reads %u.x: use a pdtrace that "
			       "knows it",
			       get16(h + 8), get16(h + 10), PDT_REC_MAJOR);
	return 0;
}

/* The payload of a block whose header is h, or NULL (error, or the file stops). */
static unsigned char *read_payload(struct reader *r, const unsigned char *h, uint64_t at, int *rc)
{
	unsigned int type = get16(h);
	uint32_t len = get32(h + 8);
	unsigned char *p;

	*rc = -1;
	if (len > PDT_REC_MAX_BLOCK) {
		fail_at(r->err, r->errlen, at + 8, "%s block of %u bytes (at most %u)",
			pdt_rec_type_name(type), len, PDT_REC_MAX_BLOCK);
		return NULL;
	}
	if (r->size != UINT64_MAX && len > r->size - r->off) {
		*rc =
		    cut_short(r, at, "block %u (%s) of %u bytes, only %llu left", r->rec->nblocks,
			      pdt_rec_type_name(type), len, (unsigned long long)(r->size - r->off));
		return NULL;
	}
	p = malloc(len ? len : 1);
	if (!p) {
		fail_at(r->err, r->errlen, at, "out of memory for a block of %u bytes", len);
		return NULL;
	}
	if (read_some(r, p, len) != len) {
		*rc = cut_short(r, at, "block %u (%s) of %u bytes is cut short", r->rec->nblocks,
				pdt_rec_type_name(type), len);
		free(p);
		return NULL;
	}
	if (get32(h + 12) != pdt_rec_block_crc(h, p, len)) {
		fail_at(r->err, r->errlen, at, "block %u (%s, %u bytes): CRC mismatch",
			r->rec->nblocks, pdt_rec_type_name(type), len);
		free(p);
		return NULL;
	}
	*rc = 0;
	return p;
}

/* One block at r->off: 1 parsed, 0 end of file (or a clean cut), -1 error. */
static int next_block(struct reader *r)
{
	unsigned char h[PDT_REC_BLOCK_HDR], *p;
	uint64_t at = r->off;
	size_t got = read_some(r, h, sizeof(h));
	int rc;

	if (!got)
		return r->rec->has_end ? 0
				       : cut_short(r, at, "no END block after block %u",
						   r->rec->nblocks ? r->rec->nblocks - 1 : 0);
	if (r->rec->has_end)
		return fail_at(r->err, r->errlen, at, "data after the END block");
	if (got < sizeof(h))
		return cut_short(r, at, "a block header cut short (%zu of %d bytes)", got,
				 PDT_REC_BLOCK_HDR);
	if (all_zero(h, sizeof(h))) {
		rc = zero_tail(r);
		if (rc > 0)
			return cut_short(r, at,
					 "zeros from here on (the system stopped while "
					 "writing?)");
		if (rc < 0)
			return fail_at(r->err, r->errlen, at,
				       "a zeroed block header, then more than %u bytes of zeros "
				       "(a block header of zeros is not a block)",
				       PDT_REC_MAX_ZERO_TAIL);
		return fail_at(r->err, r->errlen, at, "a zeroed block header");
	}
	if (get32(h + 4) != r->rec->nblocks)
		return fail_at(r->err, r->errlen, at + 4,
			       "block sequence number %u, expected %u (a block is missing or "
			       "repeated)",
			       get32(h + 4), r->rec->nblocks);
	if (!(p = read_payload(r, h, at, &rc)))
		return rc < 0 ? -1 : 0;
	rc = parse_block(r, at, get16(h), get16(h + 2), p, get32(h + 8));
	free(p);
	if (rc)
		return -1;
	r->rec->has_meta = true;
	r->rec->nblocks++;
	return 1;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr > y->addr) - (x->addr < y->addr);
	return strcmp(x->name, y->name);
}

/* The slice as a ksyms table: the final one when the file has it, sorted, one per address. */
static int build_ksyms(struct pdt_rec *rec)
{
	struct ksyms *k = calloc(1, sizeof(*k));
	struct ksym *v = rec->has_final ? rec->final_syms : rec->syms;
	size_t n = rec->has_final ? rec->nfinal : rec->nsyms, i, out = 0;

	if (!k)
		return -1;
	if (n)
		qsort(v, n, sizeof(*v), cmp_sym);
	for (i = 0; i < n; i++) {
		if (out && v[out - 1].addr == v[i].addr)
			free(v[i].name);
		else
			v[out++] = v[i];
	}
	k->syms = v;
	k->n = k->cap = out;
	if (rec->has_final)
		rec->final_syms = NULL, rec->nfinal = 0;
	else
		rec->syms = NULL, rec->nsyms = 0;
	rec->ksyms = k;
	return 0;
}

int pdt_rec_read(FILE *fp, uint64_t size, struct pdt_rec *rec, const struct pdt_rec_sink *sink,
		 char *err, size_t errlen)
{
	struct reader r = { fp, size, 0, rec, sink, err, errlen, NULL, false, false, false };
	int rc;

	memset(rec, 0, sizeof(*rec));
	rec->end.exit_status = -1;
	r.scratch = malloc(PDT_REC_MAX_EVENT);
	if (!r.scratch)
		return fail_at(err, errlen, 0, "out of memory");
	rc = check_file_header(&r);
	if (!rc)
		while ((rc = next_block(&r)) > 0)
			;
	free(r.scratch);
	rec->size = r.off;
	if (!rc && build_ksyms(rec))
		rc = fail_at(err, errlen, r.off, "out of memory");
	return rc ? -1 : 0;
}

static void free_syms(struct ksym *v, size_t n)
{
	while (n)
		free(v[--n].name);
	free(v);
}

void pdt_rec_free(struct pdt_rec *rec)
{
	free_strings(rec->argv);
	free_strings(rec->coverage);
	ksyms_free(rec->ksyms);
	free_syms(rec->syms, rec->nsyms);
	free_syms(rec->final_syms, rec->nfinal);
	memset(rec, 0, sizeof(*rec));
}
