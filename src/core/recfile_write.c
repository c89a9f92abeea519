// SPDX-License-Identifier: GPL-2.0
/*
 * The recording file's writer: blocks written whole, one write() each, so that a
 * killed writer leaves only complete blocks behind (docs/record-format.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/uio.h>
#include <zlib.h>
#include "pdtrace.h"
#include "recfile.h"
#include "recfile_format.h"

#define BATCH_FLUSH (64u << 10) /* an EVENTS block is written once this big */

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
	put32(hdr + 12, pdt_rec_block_crc(hdr, payload, len));
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
