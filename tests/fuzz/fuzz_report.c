// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: `pdtrace report` on any bytes. The reader, the rules engine
 * and the four report writers, under ASan and UBSan. Besides not crashing, the
 * reader must keep its contract: an error is one line naming a byte offset
 * within the input, and a file it accepts without END is marked truncated.
 *
 * Blocks carry sequence numbers and CRC32s, which random mutations almost never
 * keep right: the custom mutator repairs them (7 times in 8) so the fuzzer gets
 * past them into the parsers, with no test-only code in the reader itself.
 *
 * Memory must not grow faster than the input: what a replay keeps allocated is
 * checked against a linear bound (ASan's allocator counts it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sanitizer/allocator_interface.h>
#include <zlib.h>
#include "recfile.h"
#include "replay.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Renumber the whole blocks, and recompute their CRCs and the file header's. */
static void fix_blocks(uint8_t *data, size_t size)
{
	size_t off = PDT_REC_FILE_HDR;
	uint32_t seq = 0;

	if (size < PDT_REC_FILE_HDR)
		return;
	put_le32(data + 12, (uint32_t)crc32(crc32(0L, Z_NULL, 0), data, 12));
	while (size - off >= PDT_REC_BLOCK_HDR) {
		uint32_t len = le32(data + off + 8);
		uLong crc;

		if (len > size - off - PDT_REC_BLOCK_HDR)
			return;
		put_le32(data + off + 4, seq++);
		crc = crc32(crc32(0L, Z_NULL, 0), data + off, 12);
		crc = crc32(crc, data + off + PDT_REC_BLOCK_HDR, len);
		put_le32(data + off + 12, (uint32_t)crc);
		off += PDT_REC_BLOCK_HDR + len;
	}
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	size = LLVMFuzzerMutate(data, size, max_size);
	if (seed % 8)
		fix_blocks(data, size);
	return size;
}

/* The error contract, checked on every input: "byte N: ...", N <= size, one line. */
static void check_error(const char *err, size_t size)
{
	unsigned long long at;

	if (sscanf(err, "byte %llu: ", &at) != 1 || at > size || strchr(err, '\n') ||
	    strlen(err) < 12) {
		fprintf(stderr, "bad error line: '%s'\n", err);
		abort();
	}
}

static void write_reports(struct pdt_replay *rp, FILE *out, bool addrs)
{
	struct pdt_report rep;

	pdt_replay_fill_report(rp, &rep, "fuzz.pdtrec", addrs);
	if (!rp->rec.has_end && !rp->rec.truncated)
		abort(); /* accepted without END, yet not marked incomplete */
	if (rep.complete && rp->rec.truncated)
		abort();
	pdt_report_write(out, PDT_FMT_TEXT, &rep);
	pdt_report_write(out, PDT_FMT_JSON, &rep);
	pdt_report_write(out, PDT_FMT_JUNIT, &rep);
	pdt_report_write(out, PDT_FMT_KTAP, &rep);
}

/* Kept after a replay: the rules engine's books, the slice, the snapshot index. */
static void check_memory(size_t before, size_t size)
{
	size_t used = __sanitizer_get_current_allocated_bytes() - before;

	if (used > 64 * size + (32u << 20)) {
		fprintf(stderr, "%zu bytes kept for a %zu-byte input\n", used, size);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *out;
	size_t before = __sanitizer_get_current_allocated_bytes();
	struct pdt_replay rp;
	char err[300] = "";
	FILE *fp;
	/* Regular files have a size; a pipe (report -) has none: try both. */
	uint64_t known = size && (data[size - 1] & 1) ? UINT64_MAX : size;

	if (!out)
		out = fopen("/dev/null", "w");
	if (!size)
		return 0; /* fmemopen needs a byte; the empty file is a unit test */
	fp = fmemopen((void *)data, size, "r");
	if (!fp || !out)
		abort();
	if (pdt_replay_read(&rp, fp, known, err, sizeof(err)))
		check_error(err, size);
	else
		write_reports(&rp, out, data[0] & 1);
	check_memory(before, size);
	fclose(fp);
	pdt_replay_free(&rp);
	return 0;
}
