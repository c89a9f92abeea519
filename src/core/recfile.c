// SPDX-License-Identifier: GPL-2.0
/*
 * The recording file: writer and reader (docs/record-format.md). Integers are
 * little-endian; every block carries a CRC32 over its header and payload, so a
 * reader stops at the first damaged byte and a killed writer leaves a file
 * whose complete blocks are all readable.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>
#include <zlib.h>
#include "pdtrace.h"
#include "recfile.h"
#include "text.h"

#define BATCH_FLUSH (64u << 10) /* an EVENTS block is written once this big */
#define META_FIXED 24		/* start_ns, mono_ns, sizes, byte order, pad */
#define END_FIXED 40
#define MAX_ARGS 65536

const char *pdt_rec_type_name(unsigned int type)
{
	static const char *const names[] = {
		[PDT_REC_META] = "META",	 [PDT_REC_RULES_OFF] = "RULES_OFF",
		[PDT_REC_COVERAGE] = "COVERAGE", [PDT_REC_ARGV] = "ARGV",
		[PDT_REC_MOUNTS] = "MOUNTS",	 [PDT_REC_EVENTS] = "EVENTS",
		[PDT_REC_KSYMS] = "KSYMS",	 [PDT_REC_END] = "END",
	};

	return type < sizeof(names) / sizeof(names[0]) && names[type] ? names[type] : "unknown";
}

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const unsigned char *p)
{
	return get16(p) | (uint32_t)get16(p + 2) << 16;
}

static uint64_t get64(const unsigned char *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

static uint32_t block_crc(const unsigned char *hdr, const unsigned char *payload, size_t len)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	crc = crc32(crc, hdr, 12);
	return (uint32_t)crc32(crc, payload, (uInt)len);
}

/* ---- writer ---------------------------------------------------------------- */

static int buf_reserve(struct pdt_recw_buf *b, size_t more)
{
	size_t ncap;
	unsigned char *p;

	if (b->cap - b->len >= more)
		return 0;
	if (more > SIZE_MAX / 2 - b->len)
		return -1;
	for (ncap = b->cap ? b->cap : 4096; ncap - b->len < more;)
		ncap *= 2;
	p = realloc(b->p, ncap);
	if (!p)
		return -1;
	b->p = p;
	b->cap = ncap;
	return 0;
}

static int buf_add(struct pdt_recw_buf *b, const void *data, size_t n)
{
	if (buf_reserve(b, n))
		return -1;
	if (n)
		memcpy(b->p + b->len, data, n);
	b->len += n;
	return 0;
}

static int buf_u16(struct pdt_recw_buf *b, uint16_t v)
{
	unsigned char x[2];

	put16(x, v);
	return buf_add(b, x, 2);
}

static int buf_u32(struct pdt_recw_buf *b, uint32_t v)
{
	unsigned char x[4];

	put32(x, v);
	return buf_add(b, x, 4);
}

static int buf_u64(struct pdt_recw_buf *b, uint64_t v)
{
	unsigned char x[8];

	put64(x, v);
	return buf_add(b, x, 8);
}

static int buf_str(struct pdt_recw_buf *b, const char *s)
{
	size_t n = strlen(s);

	return buf_u32(b, (uint32_t)n) || buf_add(b, s, n);
}

/* All of iov, or -1 with w->err set; a short write is retried, EINTR too. */
static int write_all(struct pdt_recw *w, struct iovec *iov, int n)
{
	while (n > 0) {
		ssize_t r = writev(w->fd, iov, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			w->err = r < 0 ? errno : EIO;
			return -1;
		}
		w->offset += (uint64_t)r;
		while (n > 0 && (size_t)r >= iov->iov_len) {
			r -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + r;
			iov->iov_len -= (size_t)r;
		}
	}
	return 0;
}

/* One block in one write: a reader sees either all of it or a clean cut. */
static int write_block(struct pdt_recw *w, uint16_t type, const void *payload, size_t len)
{
	unsigned char hdr[PDT_REC_BLOCK_HDR];
	struct iovec iov[2];

	if (w->err)
		return -1;
	if (len > PDT_REC_MAX_BLOCK) {
		w->err = EFBIG;
		return -1;
	}
	put16(hdr, type);
	put16(hdr + 2, 0);
	put32(hdr + 4, w->seq);
	put32(hdr + 8, (uint32_t)len);
	put32(hdr + 12, block_crc(hdr, payload, len));
	iov[0] = (struct iovec){ hdr, sizeof(hdr) };
	iov[1] = (struct iovec){ (void *)payload, len };
	if (write_all(w, iov, len ? 2 : 1))
		return -1;
	w->seq++;
	return 0;
}

static int write_buf(struct pdt_recw *w, uint16_t type, struct pdt_recw_buf *b, int build_err)
{
	int rc;

	if (build_err && !w->err)
		w->err = ENOMEM;
	rc = build_err ? -1 : write_block(w, type, b->p, b->len);
	free(b->p);
	return rc;
}

int pdt_recw_open(struct pdt_recw *w, int fd, const struct pdt_rec_meta *m)
{
	unsigned char hdr[PDT_REC_FILE_HDR];
	struct pdt_recw_buf b = {};
	struct iovec iov = { hdr, sizeof(hdr) };
	int bad;

	memset(w, 0, sizeof(*w));
	w->fd = fd;
	u64map_init(&w->syms_out);
	u64map_init(&w->addrs);
	u64map_init(&w->pending);
	memcpy(hdr, PDT_REC_MAGIC, 8);
	put16(hdr + 8, PDT_REC_MAJOR);
	put16(hdr + 10, PDT_REC_MINOR);
	put32(hdr + 12, (uint32_t)crc32(crc32(0L, Z_NULL, 0), hdr, 12));
	if (write_all(w, &iov, 1))
		return -1;
	bad = buf_u64(&b, m->start_ns) || buf_u64(&b, m->mono_ns) || buf_u16(&b, m->event_size) ||
	      buf_u16(&b, m->full_size) || buf_u32(&b, 1 /* little-endian events */) ||
	      buf_str(&b, m->version) || buf_str(&b, m->release) || buf_str(&b, m->machine);
	return write_buf(w, PDT_REC_META, &b, bad);
}

void pdt_recw_set_ksyms(struct pdt_recw *w, const struct ksyms *k)
{
	w->ksyms = k;
}

int pdt_recw_strings(struct pdt_recw *w, uint16_t type, const char *const *v, size_t n)
{
	struct pdt_recw_buf b = {};
	int bad;
	size_t i;

	if (n > MAX_ARGS)
		n = MAX_ARGS; /* what a reader accepts */
	bad = buf_u32(&b, (uint32_t)n);
	for (i = 0; i < n && !bad; i++)
		bad = buf_str(&b, v[i]);
	return write_buf(w, type, &b, bad);
}

int pdt_recw_event(struct pdt_recw *w, const void *data, size_t size)
{
	if (w->err)
		return -1;
	if (size > PDT_REC_MAX_EVENT) {
		w->err = EMSGSIZE;
		return -1;
	}
	/* Flush before, not after: the event just queued stays last (pdt_recw_mounts). */
	if (w->batch.len + 4 + size > BATCH_FLUSH && pdt_recw_flush(w))
		return -1;
	w->last_event = w->batch.len;
	if (buf_u32(&w->batch, (uint32_t)size) || buf_add(&w->batch, data, size)) {
		w->err = ENOMEM;
		return -1;
	}
	w->nevents++;
	return 0;
}

/* Where s ends: the next symbol's address (0: s is the last one, size unknown). */
static unsigned long long sym_extent(const struct ksyms *k, const struct ksym *s)
{
	size_t i = (size_t)(s - k->syms);

	if (s->size)
		return s->size;
	return i + 1 < k->n ? k->syms[i + 1].addr - s->addr : 0;
}

static int add_sym(struct pdt_recw_buf *b, const struct ksyms *k, const struct ksym *s)
{
	size_t n = strnlen(s->name, PDT_REC_MAX_SYMNAME);

	return buf_u64(b, s->addr) || buf_u64(b, sym_extent(k, s)) || buf_u16(b, (uint16_t)n) ||
	       buf_add(b, s->name, n);
}

/* The stack of a queued event, if it has one: events are unaligned in the batch. */
static unsigned int event_stack(const unsigned char *p, size_t size,
				unsigned long long st[PDT_STACK_DEPTH])
{
	unsigned int n;

	if (size < sizeof(struct pdt_event_full))
		return 0;
	memcpy(&n, p + offsetof(struct pdt_event_full, nstack), sizeof(n));
	n = n < PDT_STACK_DEPTH ? n : PDT_STACK_DEPTH;
	memcpy(st, p + offsetof(struct pdt_event_full, stack), n * sizeof(st[0]));
	return n;
}

/* The symbol of addr, unless it is written already: appended to b. */
static int add_addr(struct pdt_recw *w, struct pdt_recw_buf *b, uint64_t addr, size_t *count)
{
	const struct ksym *s = ksyms_find(w->ksyms, addr, NULL);

	if (!s || u64map_get(&w->syms_out, s->addr))
		return 0;
	if (u64map_put(&w->syms_out, s->addr, (void *)1) || add_sym(b, w->ksyms, s))
		return -1;
	(*count)++;
	return 0;
}

/*
 * Symbols for the stacks of the batch, appended to b. Addresses that came
 * before the table (record reads it while events flow) wait in pending.
 */
static int new_syms(struct pdt_recw *w, struct pdt_recw_buf *b, size_t *count)
{
	unsigned long long st[PDT_STACK_DEPTH];
	size_t off = 0, pos = 0;
	uint64_t addr;

	while (off + 4 <= w->batch.len) {
		uint32_t size = get32(w->batch.p + off);
		unsigned int i, n = event_stack(w->batch.p + off + 4, size, st);

		off += 4 + size;
		for (i = 0; i < n; i++) {
			if (u64map_get(&w->addrs, st[i]))
				continue;
			if (u64map_put(&w->addrs, st[i], (void *)1) ||
			    (w->ksyms ? add_addr(w, b, st[i], count)
				      : u64map_put(&w->pending, st[i], (void *)1)))
				return -1;
		}
	}
	if (!w->ksyms || !w->pending.live)
		return 0;
	while (u64map_next(&w->pending, &pos, &addr))
		if (add_addr(w, b, addr, count))
			return -1;
	u64map_free(&w->pending);
	return 0;
}

int pdt_recw_flush(struct pdt_recw *w)
{
	struct pdt_recw_buf b = {};
	size_t count = 0;
	int bad;

	if (w->err)
		return -1;
	if (w->batch.len && write_block(w, PDT_REC_EVENTS, w->batch.p, w->batch.len))
		return -1;
	/* Right after the events, so a cut file loses at most one batch's symbols. */
	bad = buf_u32(&b, 0) || new_syms(w, &b, &count);
	w->batch.len = 0;
	if (!bad && !count) {
		free(b.p);
		return 0;
	}
	return write_buf(w, PDT_REC_KSYMS, &b, bad);
}

/* Past any sane mount table: the whole lines that fit in a block, rather than fail. */
static size_t mounts_fit(const char *text, size_t len)
{
	const char *nl;

	if (len <= PDT_REC_MAX_BLOCK)
		return len;
	nl = memrchr(text, '\n', PDT_REC_MAX_BLOCK);
	return nl ? (size_t)(nl - text) + 1 : 0;
}

int pdt_recw_mounts(struct pdt_recw *w, const char *text, size_t len, bool before_last)
{
	unsigned char *tail = NULL;
	size_t tail_len = 0;
	char *copy;

	if (w->err)
		return -1;
	len = mounts_fit(text, len);
	if (w->has_mounts && len == w->mounts_len && !memcmp(text, w->mounts, len))
		return 0;
	if (before_last && w->batch.len) {
		tail_len = w->batch.len - w->last_event;
		tail = malloc(tail_len);
		if (!tail) {
			w->err = ENOMEM;
			return -1;
		}
		memcpy(tail, w->batch.p + w->last_event, tail_len);
		w->batch.len = w->last_event;
	}
	copy = malloc(len + 1);
	if (!copy || pdt_recw_flush(w) || write_block(w, PDT_REC_MOUNTS, text, len) ||
	    buf_add(&w->batch, tail, tail_len)) {
		w->err = w->err ? w->err : ENOMEM;
		free(copy);
		free(tail);
		return -1;
	}
	w->last_event = 0;
	memcpy(copy, text, len);
	free(w->mounts);
	w->mounts = copy;
	w->mounts_len = len;
	w->has_mounts = true;
	free(tail);
	return 0;
}

static bool same_sym(const struct ksyms *a, const struct ksym *x, const struct ksyms *b,
		     const struct ksym *y)
{
	if (!x || !y)
		return !x && !y;
	return x->addr == y->addr && sym_extent(a, x) == sym_extent(b, y) &&
	       !strcmp(x->name, y->name);
}

/* Every seen address resolved in final, when any resolves differently from the slice. */
static int final_syms(struct pdt_recw *w, const struct ksyms *final)
{
	struct pdt_recw_buf b = {};
	struct u64map done;
	bool differs = false;
	size_t pos = 0;
	uint64_t addr;
	int bad = 0;

	while (!differs && u64map_next(&w->addrs, &pos, &addr))
		differs = !same_sym(w->ksyms, ksyms_find(w->ksyms, addr, NULL), final,
				    ksyms_find(final, addr, NULL));
	if (!differs)
		return 0;
	u64map_init(&done);
	bad = buf_u32(&b, PDT_REC_KSYMS_FINAL);
	for (pos = 0; !bad && u64map_next(&w->addrs, &pos, &addr);) {
		const struct ksym *s = ksyms_find(final, addr, NULL);

		if (!s || u64map_get(&done, s->addr))
			continue;
		bad = u64map_put(&done, s->addr, (void *)1) || add_sym(&b, final, s);
	}
	u64map_free(&done);
	return write_buf(w, PDT_REC_KSYMS, &b, bad);
}

int pdt_recw_close(struct pdt_recw *w, const struct ksyms *final, const struct pdt_rec_end *e)
{
	struct pdt_recw_buf b = {};
	int bad;

	if (pdt_recw_flush(w) || (final && final_syms(w, final)))
		return -1;
	bad = buf_u64(&b, e->stop_ns) || buf_u64(&b, w->nevents) || buf_u64(&b, e->lost_events) ||
	      buf_u64(&b, e->map_full) || buf_u32(&b, (uint32_t)e->exit_status) || buf_u32(&b, 0);
	return write_buf(w, PDT_REC_END, &b, bad);
}

void pdt_recw_free(struct pdt_recw *w)
{
	free(w->batch.p);
	free(w->mounts);
	u64map_free(&w->syms_out);
	u64map_free(&w->addrs);
	u64map_free(&w->pending);
	memset(w, 0, sizeof(*w));
	w->fd = -1;
}

/* ---- reader ---------------------------------------------------------------- */

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
	if (get32(h + 12) != block_crc(h, p, len)) {
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
