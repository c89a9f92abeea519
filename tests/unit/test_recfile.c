// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the recording file: writer/reader round trip, the symbol slice,
 * snapshot order, and damaged files: truncation at every byte offset, CRC
 * mismatches, absurd lengths. Every error must be one line naming a byte offset.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <zlib.h>
#include <cmocka.h>
#include "fixtures.h"
#include "recfile.h"
#include "replay.h"

#define SB1 0xffff888000100000ULL
#define SB2 0xffff888000200000ULL
#define D1 0xffff888001000000ULL
#define D2 0xffff888002000000ULL

static const char kallsyms[] = "ffffffff81000000 T _stext\n"
			       "ffffffff81000100 t d_make_persistent\n"
			       "ffffffff81000200 T dput\n"
			       "ffffffff81000300 T vfs_mkdir\n"
			       "ffffffffc0000000 t configfs_rmdir\t[configfs]\n";

struct mem {
	unsigned char *p;
	size_t len;
};

static struct ksyms *syms(const char *text)
{
	return fixture_ksyms(text);
}

static struct pdt_event_full ev;

static const void *full(unsigned short type, uint64_t d, const char *path, unsigned long long a0,
			unsigned long long a1)
{
	memset(&ev, 0, sizeof(ev));
	ev.h.type = type;
	ev.h.size = sizeof(ev);
	ev.h.flags = type == PDT_EV_PERSIST ? 0 : PDT_F_WAS_PERSISTENT;
	ev.h.dentry = d;
	ev.h.sb = SB1;
	ev.h.dev = 27;
	ev.h.pid = 42;
	ev.h.refcount = 2;
	ev.h.origin = PDT_ORIGIN_USER;
	strcpy(ev.h.comm, "test");
	strcpy(ev.fs_type, "tmpfs");
	strcpy(ev.s_id, "tmpfs");
	ev.nstack = 2;
	ev.stack[0] = a0;
	ev.stack[1] = a1;
	snprintf(ev.path, sizeof(ev.path), "%s", path);
	return &ev;
}

static void meta(struct pdt_rec_meta *m)
{
	memset(m, 0, sizeof(*m));
	strcpy(m->version, "0.1.0");
	strcpy(m->release, "7.2.13-test");
	strcpy(m->machine, "x86_64");
	m->start_ns = 1700000000ULL * 1000000000ULL;
	m->event_size = sizeof(struct pdt_event);
	m->full_size = sizeof(struct pdt_event_full);
}

static struct mem file_of(int fd)
{
	struct mem m;
	off_t n = lseek(fd, 0, SEEK_END);

	assert_true(n > 0);
	m.len = (size_t)n;
	m.p = malloc(m.len);
	assert_non_null(m.p);
	assert_int_equal(pread(fd, m.p, m.len, 0), (ssize_t)m.len);
	close(fd);
	return m;
}

/*
 * A small recording: head blocks, a persist, a new superblock's snapshot written
 * before its event, a discard, the final symbols (a module came), END.
 */
static struct mem sample(const struct ksyms *k, const struct ksyms *final)
{
	static const char *const off[] = { "dput-persistence-ref" };
	static const char *const cov[] = { "dput() not traceable here: lost x" };
	static const char *const argv[] = { "sh", "-c", "mkdir /mnt/t/a" };
	struct pdt_rec_end e = { .exit_status = 7, .lost_events = 0 };
	struct pdt_recw w;
	struct pdt_rec_meta m;
	int fd = memfd_create("rec", 0);

	assert_true(fd >= 0);
	meta(&m);
	assert_int_equal(pdt_recw_open(&w, fd, &m), 0);
	pdt_recw_set_ksyms(&w, k);
	assert_int_equal(pdt_recw_strings(&w, PDT_REC_RULES_OFF, off, 1), 0);
	assert_int_equal(pdt_recw_strings(&w, PDT_REC_COVERAGE, cov, 1), 0);
	assert_int_equal(pdt_recw_strings(&w, PDT_REC_ARGV, argv, 3), 0);
	assert_int_equal(pdt_recw_mounts(&w, "start\n", 6, false), 0);
	assert_int_equal(pdt_recw_event(&w,
					full(PDT_EV_PERSIST, D1, "/a", 0xffffffff81000110ULL,
					     0xffffffff81000310ULL),
					sizeof(ev)),
			 0);
	assert_int_equal(pdt_recw_mounts(&w, "start\n", 6, true), 0); /* unchanged: nothing */
	assert_int_equal(pdt_recw_flush(&w), 0);
	full(PDT_EV_PERSIST, D2, "/b", 0xffffffff81000110ULL, 0xffffffffc0000010ULL);
	ev.h.sb = SB2; /* a new superblock: its snapshot must come first */
	assert_int_equal(pdt_recw_event(&w, &ev, sizeof(ev)), 0);
	assert_int_equal(pdt_recw_mounts(&w, "30 22 0:27 / /mnt/t rw - tmpfs t rw\n", 36, true), 0);
	assert_int_equal(pdt_recw_event(&w,
					full(PDT_EV_DISCARD, D1, "/a", 0xffffffff81000210ULL,
					     0xffffffff81000310ULL),
					sizeof(ev)),
			 0);
	assert_int_equal(pdt_recw_close(&w, final, &e), 0);
	assert_int_equal(w.nevents, 3);
	pdt_recw_free(&w);
	return file_of(fd);
}

struct log {
	char order[64];
	size_t n;
	char rules_off[64];
};

static void log_event(void *ctx, const void *data, size_t size)
{
	struct log *l = ctx;
	const struct pdt_event *h = data;

	assert_int_equal(size, sizeof(struct pdt_event_full));
	assert_int_equal((uintptr_t)data % 8, 0); /* the rules engine casts it */
	if (l->n < sizeof(l->order) - 1)
		l->order[l->n++] = h->type == PDT_EV_PERSIST ? 'P' : 'D';
}

static void log_mounts(void *ctx, const char *text, size_t len)
{
	struct log *l = ctx;

	(void)text;
	if (l->n < sizeof(l->order) - 1)
		l->order[l->n++] = len == 6 ? 's' : 'm';
}

static void log_rule_off(void *ctx, const char *rule)
{
	struct log *l = ctx;

	snprintf(l->rules_off, sizeof(l->rules_off), "%s", rule);
}

static int read_mem(const struct mem *m, size_t len, struct pdt_rec *rec, struct log *l, char *err,
		    size_t errlen)
{
	const struct pdt_rec_sink sink = { log_event, log_mounts, log_rule_off, l };
	FILE *fp = fmemopen(len ? m->p : (void *)"", len ? len : 1, "r");
	int rc;

	assert_non_null(fp);
	if (!len)
		fgetc(fp); /* fmemopen cannot be empty: consume its one byte */
	err[0] = '\0';
	rc = pdt_rec_read(fp, len, rec, &sink, err, errlen);
	fclose(fp);
	return rc;
}

static void test_round_trip(void **state)
{
	struct ksyms *k = syms(kallsyms);
	struct mem m = sample(k, NULL);
	struct pdt_rec rec;
	struct log l = {};
	char err[256], buf[128];

	(void)state;
	assert_int_equal(read_mem(&m, m.len, &rec, &l, err, sizeof(err)), 0);
	assert_false(rec.truncated);
	assert_true(rec.has_end);
	assert_string_equal(rec.meta.version, "0.1.0");
	assert_string_equal(rec.meta.release, "7.2.13-test");
	assert_string_equal(rec.meta.machine, "x86_64");
	assert_int_equal(rec.meta.start_ns, 1700000000ULL * 1000000000ULL);
	assert_string_equal(rec.argv[0], "sh");
	assert_string_equal(rec.argv[2], "mkdir /mnt/t/a");
	assert_null(rec.argv[3]);
	assert_int_equal(rec.ncoverage, 1);
	assert_string_equal(rec.coverage[0], "dput() not traceable here: lost x");
	assert_string_equal(l.rules_off, "dput-persistence-ref");
	assert_int_equal(rec.end.exit_status, 7);
	assert_int_equal(rec.nevents, 3);
	/* Start snapshot, P, then the new superblock's snapshot before its persist. */
	assert_string_equal(l.order, "sPmPD");
	/* Only the symbols the stacks use, each bounded by the next one's address. */
	assert_int_equal(rec.ksyms->n, 4);
	ksyms_format_at(rec.ksyms, 0xffffffff81000110ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "d_make_persistent+0x10");
	ksyms_format_at(rec.ksyms, 0xffffffffc0000010ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "configfs_rmdir+0x10 [configfs]");
	ksyms_format_at(rec.ksyms, 0xffffffff81000010ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "?"); /* _stext is not in the slice */
	pdt_rec_free(&rec);
	free(m.p);
	ksyms_free(k);
}

/* kallsyms changed under the recording (a module loaded): a final slice replaces the rest. */
static void test_final_symbols(void **state)
{
	struct ksyms *k = syms(kallsyms);
	struct ksyms *later = syms("ffffffff81000100 t d_make_persistent\n"
				   "ffffffff81000300 T vfs_mkdir\n"
				   "ffffffff81000180 t inserted\n"
				   "ffffffffc0000000 t pdt_faultfs_fill\t[pdt_faultfs]\n");
	struct mem m = sample(k, later), same = sample(k, k);
	struct pdt_rec rec;
	struct log l = {};
	char err[256], buf[128];

	(void)state;
	assert_int_equal(read_mem(&m, m.len, &rec, &l, err, sizeof(err)), 0);
	ksyms_format_at(rec.ksyms, 0xffffffffc0000010ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "pdt_faultfs_fill+0x10 [pdt_faultfs]");
	ksyms_format_at(rec.ksyms, 0xffffffff81000210ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "inserted+0x90");
	pdt_rec_free(&rec);
	/* Unchanged: no final block, the file is smaller. */
	assert_true(same.len < m.len);
	free(m.p);
	free(same.p);
	ksyms_free(k);
	ksyms_free(later);
}

/* Offsets of the blocks of m, for the tests that damage one. */
static size_t block_at(const struct mem *m, unsigned int index)
{
	size_t off = PDT_REC_FILE_HDR;

	while (index--) {
		uint32_t len;

		memcpy(&len, m->p + off + 8, 4);
		off += PDT_REC_BLOCK_HDR + len;
	}
	return off;
}

/* "byte N: ..." with N within the file: the contract of every reader error. */
static void assert_offset_error(const char *err, size_t len)
{
	unsigned long long at;

	if (sscanf(err, "byte %llu: ", &at) != 1 || !strchr(err, ':'))
		fail_msg("error without an offset: '%s'", err);
	if (at > len)
		fail_msg("offset %llu past the end (%zu): '%s'", at, len, err);
	if (strchr(err, '\n'))
		fail_msg("error of more than one line: '%s'", err);
}

static void test_truncation_everywhere(void **state)
{
	struct ksyms *k = syms(kallsyms);
	struct mem m = sample(k, NULL);
	size_t len, prefixes = 0, errors = 0;
	struct pdt_rec rec;
	char err[256];

	(void)state;
	for (len = 0; len < m.len; len++) {
		struct log l = {};

		if (read_mem(&m, len, &rec, &l, err, sizeof(err))) {
			assert_offset_error(err, len);
			/* Only before META is whole: from there on, every cut is a prefix. */
			assert_true(len < block_at(&m, 1));
			errors++;
		} else {
			/* A clean prefix: marked truncated, never complete. */
			assert_true(rec.truncated);
			assert_false(rec.has_end);
			assert_true(strstr(rec.why_truncated, "truncated at byte") != NULL);
			prefixes++;
		}
		pdt_rec_free(&rec);
	}
	/* Cut inside the header or META: nothing to report; after it, a prefix. */
	assert_true(errors > 0 && prefixes > 0);
	free(m.p);
	ksyms_free(k);
}

static void expect_error(struct mem *m, const char *want)
{
	struct pdt_rec rec;
	struct log l = {};
	char err[256];

	if (!read_mem(m, m->len, &rec, &l, err, sizeof(err)))
		fail_msg("read a damaged file without error (want '%s')", want);
	assert_offset_error(err, m->len);
	if (!strstr(err, want))
		fail_msg("error '%s' does not say '%s'", err, want);
	pdt_rec_free(&rec);
}

/* Recompute a block's CRC after a deliberate edit: damage the CRC cannot see. */
static void fix_crc(struct mem *m, size_t off)
{
	uint32_t len, crc;

	memcpy(&len, m->p + off + 8, 4);
	crc = (uint32_t)crc32(crc32(crc32(0L, Z_NULL, 0), m->p + off, 12),
			      m->p + off + PDT_REC_BLOCK_HDR, len);
	memcpy(m->p + off + 12, &crc, 4);
}

static void test_damage(void **state)
{
	struct ksyms *k = syms(kallsyms);
	struct mem m = sample(k, NULL);
	unsigned char *orig = malloc(m.len);
	uint32_t v;
	char want[64];
	size_t b3 = block_at(&m, 3);

	(void)state;
	memcpy(orig, m.p, m.len);
#define RESET() memcpy(m.p, orig, m.len)
	m.p[0] = 'X';
	expect_error(&m, "byte 0: not a pdtrace recording (bad magic number)");
	RESET();
	m.p[8] = 2;
	expect_error(&m, "byte 12: file header CRC mismatch");
	RESET();
	m.p[b3 + PDT_REC_BLOCK_HDR + 5] ^= 1;
	snprintf(want, sizeof(want), "byte %zu: block 3 (ARGV, ", b3);
	expect_error(&m, want);
	expect_error(&m, "CRC mismatch");
	RESET();
	v = 0xffffffff; /* absurd block length */
	memcpy(m.p + b3 + 8, &v, 4);
	expect_error(&m, "ARGV block of 4294967295 bytes (at most 16777216)");
	RESET();
	v = 9; /* sequence */
	memcpy(m.p + b3 + 4, &v, 4);
	expect_error(&m, "block sequence number 9, expected 3");
	RESET();
	v = 1000000; /* argv count the block cannot hold */
	memcpy(m.p + b3 + PDT_REC_BLOCK_HDR, &v, 4);
	fix_crc(&m, b3);
	expect_error(&m, "ARGV block: 1000000 strings (the block holds at most");
	RESET();
	v = 0x7fffffff; /* a string longer than any block */
	memcpy(m.p + b3 + PDT_REC_BLOCK_HDR + 4, &v, 4);
	fix_crc(&m, b3);
	expect_error(&m, "ARGV block: string of 2147483647 bytes (at most 16777216)");
	v = 0xffffff; /* a string longer than its block */
	memcpy(m.p + b3 + PDT_REC_BLOCK_HDR + 4, &v, 4);
	fix_crc(&m, b3);
	expect_error(&m, "ARGV block: string needs 16777215 bytes, only");
	RESET();
	m.p[block_at(&m, 0)] = PDT_REC_EVENTS; /* first block not META */
	fix_crc(&m, block_at(&m, 0));
	expect_error(&m, "the first block is EVENTS, not META");
	RESET();
	m.p[block_at(&m, 1)] = PDT_REC_META; /* META again */
	fix_crc(&m, block_at(&m, 1));
	expect_error(&m, "a second META block");
	RESET();
	m.p[block_at(&m, 1) + 2] = PDT_REC_F_CRITICAL; /* unknown critical type */
	m.p[block_at(&m, 1)] = 99;
	fix_crc(&m, block_at(&m, 1));
	expect_error(&m, "block of unknown type 99 that a reader must understand");
	RESET();
	free(orig);
	free(m.p);
	ksyms_free(k);
}

/* An EVENTS block whose event sizes lie, with a valid CRC (a hostile file). */
static void test_hostile_events(void **state)
{
	struct ksyms *k = syms(kallsyms);
	struct mem m = sample(k, NULL);
	size_t b = block_at(&m, 5); /* the first EVENTS block */
	uint32_t v;

	(void)state;
	assert_int_equal(m.p[b], PDT_REC_EVENTS);
	v = 0;
	memcpy(m.p + b + PDT_REC_BLOCK_HDR, &v, 4);
	fix_crc(&m, b);
	expect_error(&m, "EVENTS block: event #0 of 0 bytes (1 to 65536)");
	v = 70000;
	memcpy(m.p + b + PDT_REC_BLOCK_HDR, &v, 4);
	fix_crc(&m, b);
	expect_error(&m, "event #0 of 70000 bytes");
	v = 60000;
	memcpy(m.p + b + PDT_REC_BLOCK_HDR, &v, 4);
	fix_crc(&m, b);
	expect_error(&m, "EVENTS block: event needs 60000 bytes, only");
	free(m.p);
	ksyms_free(k);
}

static void test_tails(void **state)
{
	struct ksyms *k = syms(kallsyms);
	struct mem m = sample(k, NULL), z;
	struct pdt_rec rec;
	struct log l = {};
	char err[256];

	(void)state;
	/* Zeros after the last block (a crash before the data reached the disk): a cut. */
	z.len = block_at(&m, 6) + 100;
	z.p = calloc(1, z.len);
	memcpy(z.p, m.p, block_at(&m, 6));
	assert_int_equal(read_mem(&z, z.len, &rec, &l, err, sizeof(err)), 0);
	assert_true(rec.truncated);
	assert_non_null(strstr(rec.why_truncated, "zeros from here on"));
	pdt_rec_free(&rec);
	/* A zeroed header with data after it is damage. */
	z.p[z.len - 1] = 1;
	expect_error(&z, "a zeroed block header");
	free(z.p);
	/* Anything after END is damage. */
	z.len = m.len + 16;
	z.p = calloc(1, z.len);
	memcpy(z.p, m.p, m.len);
	z.p[m.len] = 8;
	expect_error(&z, "data after the END block");
	free(z.p);
	free(m.p);
	ksyms_free(k);
}

/* The reader honours the recorded event layout and byte order. */
static void test_foreign_layout(void **state)
{
	struct ksyms *k = syms(kallsyms);
	struct mem m = sample(k, NULL);
	size_t b = block_at(&m, 0) + PDT_REC_BLOCK_HDR;

	(void)state;
	m.p[b + 16] ^= 8; /* sizeof(struct pdt_event) */
	fix_crc(&m, block_at(&m, 0));
	expect_error(&m, "this pdtrace reads");
	m.p[b + 16] ^= 8;
	m.p[b + 20] = 2;
	fix_crc(&m, block_at(&m, 0));
	expect_error(&m, "only little-endian");
	free(m.p);
	ksyms_free(k);
}

/* Replay: the rules engine sees the recording, disabled rules and snapshots included. */
static void test_replay(void **state)
{
	struct ksyms *k = syms(kallsyms);
	struct mem m = sample(k, NULL);
	FILE *fp = fmemopen(m.p, m.len, "r");
	struct pdt_replay rp;
	struct pdt_report rep;
	char err[256];

	(void)state;
	assert_int_equal(pdt_replay_read(&rp, fp, m.len, err, sizeof(err)), 0);
	fclose(fp);
	pdt_replay_fill_report(&rp, &rep, "x.pdtrec", false);
	assert_true(rep.complete);
	assert_string_equal(rep.kernel, "7.2.13-test");
	assert_int_equal(pdt_rules_nsbs(rp.rules), 2);
	assert_int_equal(pdt_rules_sb(rp.rules, 0)->made, 1);
	assert_int_equal(pdt_rules_sb(rp.rules, 0)->discarded, 1);
	assert_int_equal(pdt_rules_sb(rp.rules, 1)->made, 1);
	assert_int_equal(rep.nmounts, 2);
	assert_string_equal(rep.mounts[0].path, "");	   /* not in the start snapshot */
	assert_string_equal(rep.mounts[1].path, "/mnt/t"); /* the snapshot before its event */
	assert_int_equal(pdt_rules_ndisabled(rp.rules), 1);
	assert_string_equal(rep.recording->start, "2023-11-14T22:13:20Z");
	assert_int_equal(rep.exit_status, 7);
	pdt_replay_free(&rp);
	free(m.p);
	ksyms_free(k);
}

/* The table may come after the first stacks (record reads it in a thread): they wait. */
static void test_late_symbols(void **state)
{
	struct ksyms *k = syms(kallsyms);
	struct pdt_rec_end e = { .exit_status = -1 };
	struct pdt_recw w;
	struct pdt_rec_meta m;
	struct pdt_rec rec;
	struct log l = {};
	struct mem f;
	char err[256], buf[128];
	int fd = memfd_create("late", 0);

	(void)state;
	meta(&m);
	assert_int_equal(pdt_recw_open(&w, fd, &m), 0);
	full(PDT_EV_PERSIST, D1, "/a", 0xffffffff81000110ULL, 0xffffffff81000310ULL);
	assert_int_equal(pdt_recw_event(&w, &ev, sizeof(ev)), 0);
	assert_int_equal(pdt_recw_flush(&w), 0); /* no table yet: no KSYMS */
	pdt_recw_set_ksyms(&w, k);
	assert_int_equal(pdt_recw_flush(&w), 0); /* no events, the pending symbols */
	assert_int_equal(pdt_recw_close(&w, k, &e), 0);
	pdt_recw_free(&w);
	f = file_of(fd);
	assert_int_equal(f.p[block_at(&f, 2)], PDT_REC_KSYMS);
	assert_int_equal(read_mem(&f, f.len, &rec, &l, err, sizeof(err)), 0);
	assert_false(rec.has_final); /* the late slice resolves as the final table */
	ksyms_format_at(rec.ksyms, 0xffffffff81000310ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "vfs_mkdir+0x10");
	pdt_rec_free(&rec);
	free(f.p);
	ksyms_free(k);
}

/* A file still growing (record still writing) reads as the prefix its size at open says. */
static void test_size_at_open(void **state)
{
	struct ksyms *k = syms(kallsyms);
	struct mem m = sample(k, NULL);
	size_t cut = block_at(&m, 6);
	FILE *fp = fmemopen(m.p, m.len, "r");
	struct pdt_rec rec;
	char err[256];

	(void)state;
	assert_int_equal(pdt_rec_read(fp, cut, &rec, NULL, err, sizeof(err)), 0);
	assert_true(rec.truncated);
	assert_int_equal(rec.size, cut);
	assert_int_equal(rec.nblocks, 6);
	pdt_rec_free(&rec);
	fclose(fp);
	free(m.p);
	ksyms_free(k);
}

/* A mount table past the block limit is kept in whole lines, not refused. */
static void test_huge_mounts(void **state)
{
	const size_t len = PDT_REC_MAX_BLOCK + 100;
	char *text = malloc(len);
	struct pdt_recw w;
	struct pdt_rec_meta m;
	struct pdt_rec_end e = { .exit_status = -1 };
	struct mem f;
	size_t i;
	uint32_t blen;
	int fd = memfd_create("big", 0);

	(void)state;
	for (i = 0; i < len; i++)
		text[i] = i % 64 == 63 ? '\n' : 'x';
	meta(&m);
	assert_int_equal(pdt_recw_open(&w, fd, &m), 0);
	assert_int_equal(pdt_recw_mounts(&w, text, len, false), 0);
	assert_int_equal(pdt_recw_close(&w, NULL, &e), 0);
	pdt_recw_free(&w);
	f = file_of(fd);
	memcpy(&blen, f.p + block_at(&f, 1) + 8, 4);
	assert_true(blen <= PDT_REC_MAX_BLOCK && blen > PDT_REC_MAX_BLOCK - 64);
	assert_int_equal(blen % 64, 0); /* whole lines */
	free(f.p);
	free(text);
}

/* The index of a snapshot answers exactly as a scan of the same text. */
static void test_mountinfo_index(void **state)
{
	static const char mi[] = "22 1 0:21 / /proc rw - proc proc rw\n"
				 "30 22 0:27 / /mnt/with\\040space rw - tmpfs t rw\n"
				 "31 22 0:27 / /mnt/again rw - tmpfs t rw\n"
				 "garbage\n"
				 "32 22 8:1 / / rw - ext4 /dev/sda1 rw\n"
				 "33 22 4096:1 / /big rw - x x rw\n"
				 "34 22 0:1048576 / /bigminor rw - x x rw\n"
				 "35 22 0:40 / /no-newline";
	static const unsigned int devs[] = { 21, 27, 8u << 20 | 1, 1, 40, 99, 0 };
	struct mountinfo_index ix;
	char a[256], b[256];
	size_t i;

	(void)state;
	assert_int_equal(mountinfo_index_build(&ix, mi, sizeof(mi) - 1), 0);
	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		FILE *fp = fmemopen((void *)mi, sizeof(mi) - 1, "r");
		int n = mountinfo_lookup(fp, devs[i], a, sizeof(a));

		fclose(fp);
		assert_int_equal(mountinfo_index_lookup(&ix, devs[i], b, sizeof(b)), n);
		assert_string_equal(a, b);
	}
	assert_int_equal(mountinfo_index_lookup(&ix, 27, b, sizeof(b)), 2);
	assert_string_equal(b, "/mnt/with space");
	assert_int_equal(mountinfo_index_lookup(&ix, 40, b, 5), 1);
	assert_string_equal(b, "/no-"); /* truncated like the scan */
	mountinfo_index_free(&ix);
	assert_int_equal(mountinfo_index_build(&ix, "", 0), 0);
	assert_int_equal(mountinfo_index_lookup(&ix, 27, b, sizeof(b)), 0);
	assert_string_equal(b, "");
	mountinfo_index_free(&ix);
}

/* A pipe: a recording's first bytes, then zeros up to a cap (what it served, counted). */
struct zero_pipe {
	const struct mem *m;
	size_t prefix, served, cap;
};

static ssize_t zero_pipe_read(void *cookie, char *buf, size_t n)
{
	struct zero_pipe *z = cookie;
	size_t i;

	if (n > z->cap - z->served)
		n = z->cap - z->served;
	for (i = 0; i < n; i++, z->served++)
		buf[i] = z->served < z->prefix ? (char)z->m->p[z->served] : 0;
	return (ssize_t)n;
}

/*
 * `cat prefix /dev/zero | pdtrace report -`: the reader looked for the end of the zeros
 * for ever. In a stream of unknown size, zeros past PDT_REC_MAX_ZERO_TAIL after a zeroed
 * block header are an error, read no further (here the stream would give 1 GiB).
 */
static void test_endless_zeros_in_a_pipe(void **state)
{
	struct ksyms *k = syms(kallsyms);
	struct mem m = sample(k, NULL);
	struct zero_pipe z = { &m, block_at(&m, 6), 0, (size_t)1 << 30 };
	cookie_io_functions_t io = { .read = zero_pipe_read };
	const struct pdt_rec_sink sink = { NULL, NULL, NULL, NULL };
	struct pdt_rec rec;
	char err[256];
	FILE *fp = fopencookie(&z, "r", io);

	(void)state;
	assert_non_null(fp);
	assert_int_equal(pdt_rec_read(fp, UINT64_MAX, &rec, &sink, err, sizeof(err)), -1);
	assert_offset_error(err, SIZE_MAX);
	assert_non_null(strstr(err, "a block header of zeros is not a block"));
	assert_true(z.served <= z.prefix + PDT_REC_MAX_ZERO_TAIL + 2 * 65536);
	pdt_rec_free(&rec);
	fclose(fp);
	/* A short run of zeros at the end of a pipe is still a crash's tail, as in a file. */
	z.served = 0;
	z.cap = z.prefix + 4096;
	fp = fopencookie(&z, "r", io);
	assert_int_equal(pdt_rec_read(fp, UINT64_MAX, &rec, &sink, err, sizeof(err)), 0);
	assert_true(rec.truncated);
	assert_non_null(strstr(rec.why_truncated, "zeros from here on"));
	pdt_rec_free(&rec);
	fclose(fp);
	free(m.p);
	ksyms_free(k);
}

/*
 * Symbol names and coverage lines reach terminals as they are: C0 and C1 controls (raw
 * 0x80-0x9f, or U+0080-U+009F in UTF-8, such as CSI) come out as '?'.
 */
static void test_names_lose_controls(void **state)
{
	static const char *const cov[] = { "cov\xc2\x9b"
					   "31m \x1b[2J \x9b"
					   "1m \xc3\xa9" };
	struct ksyms *k = syms("ffffffff81000100 t evil\x9b"
			       "2J\n"
			       "ffffffff81000200 T csi\xc2\x9b"
			       "31m\n");
	struct pdt_rec_end e = { .exit_status = -1 };
	struct pdt_rec_meta meta_;
	struct pdt_recw w;
	struct pdt_rec rec;
	struct log l = {};
	struct mem m;
	char err[256], buf[128];
	int fd = memfd_create("rec", 0);

	(void)state;
	assert_true(fd >= 0);
	meta(&meta_);
	assert_int_equal(pdt_recw_open(&w, fd, &meta_), 0);
	pdt_recw_set_ksyms(&w, k);
	assert_int_equal(pdt_recw_strings(&w, PDT_REC_COVERAGE, cov, 1), 0);
	assert_int_equal(pdt_recw_mounts(&w, "start\n", 6, false), 0);
	assert_int_equal(pdt_recw_event(&w,
					full(PDT_EV_PERSIST, D1, "/a", 0xffffffff81000110ULL,
					     0xffffffff81000210ULL),
					sizeof(ev)),
			 0);
	assert_int_equal(pdt_recw_close(&w, NULL, &e), 0);
	pdt_recw_free(&w);
	m = file_of(fd);
	assert_int_equal(read_mem(&m, m.len, &rec, &l, err, sizeof(err)), 0);
	assert_int_equal(rec.ncoverage, 1);
	assert_string_equal(rec.coverage[0], "cov??31m ?[2J ?1m \xc3\xa9");
	ksyms_format_at(rec.ksyms, 0xffffffff81000110ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "evil?2J+0x10");
	ksyms_format_at(rec.ksyms, 0xffffffff81000210ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "csi??31m+0x10");
	pdt_rec_free(&rec);
	free(m.p);
	ksyms_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_final_symbols),
		cmocka_unit_test(test_truncation_everywhere),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_hostile_events),
		cmocka_unit_test(test_tails),
		cmocka_unit_test(test_foreign_layout),
		cmocka_unit_test(test_replay),
		cmocka_unit_test(test_mountinfo_index),
		cmocka_unit_test(test_late_symbols),
		cmocka_unit_test(test_size_at_open),
		cmocka_unit_test(test_huge_mounts),
		cmocka_unit_test(test_endless_zeros_in_a_pipe),
		cmocka_unit_test(test_names_lose_controls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
