// SPDX-License-Identifier: GPL-2.0
/*
 * pdt-recstat FILE: what a recording's event stream holds, for assertions in the
 * guest, which cannot see which events pdtrace sent otherwise (report gives verdicts
 * and counts, not the stream). One line per event type present, "TYPE NAME COUNT" in
 * type order, then "materialized N": the PERSIST events of elided entries, sent late.
 * Walks the blocks of docs/record-format.md without checking their CRCs (report
 * does). Exit 0; 1 with "pdt-recstat: FILE: what" on a file it cannot walk.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "event_names.h"
#include "pdtrace.h"
#include "recfile.h"

static unsigned int le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned int)p[3] << 24;
}

static unsigned int le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static int die(const char *file, const char *what)
{
	fprintf(stderr, "pdt-recstat: %s: %s\n", file, what);
	return 1;
}

/* The events of one EVENTS block's payload into the counts. */
static int count_events(const unsigned char *p, size_t len, unsigned long long *n,
			unsigned long long *materialized)
{
	size_t pos = 0;

	while (pos < len) {
		struct pdt_event h;
		unsigned int size;

		if (len - pos < 4)
			return -1;
		size = le32(p + pos);
		pos += 4;
		if (!size || size > len - pos)
			return -1;
		if (size >= 8) {
			memset(&h, 0, sizeof(h));
			memcpy(&h, p + pos, size < sizeof(h) ? size : sizeof(h));
			if (h.type < PDT_EV_MAX)
				n[h.type]++;
			if (h.type == PDT_EV_PERSIST && (h.flags & PDT_F_MATERIALIZED))
				(*materialized)++;
		}
		pos += size;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long n[PDT_EV_MAX] = { 0 }, materialized = 0;
	unsigned char hdr[PDT_REC_BLOCK_HDR], *buf = NULL;
	FILE *f;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: pdt-recstat FILE\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f)
		return die(argv[1], "cannot open");
	if (fread(hdr, 1, PDT_REC_FILE_HDR, f) != PDT_REC_FILE_HDR ||
	    memcmp(hdr, PDT_REC_MAGIC, strlen(PDT_REC_MAGIC)))
		return die(argv[1], "not a recording");
	while (fread(hdr, 1, PDT_REC_BLOCK_HDR, f) == PDT_REC_BLOCK_HDR) {
		unsigned int type = le16(hdr), len = le32(hdr + 8);

		if (len > PDT_REC_MAX_BLOCK || !(buf = realloc(buf, len ? len : 1)) ||
		    fread(buf, 1, len, f) != len)
			return die(argv[1], "a block cut short");
		if (type == PDT_REC_EVENTS && count_events(buf, len, n, &materialized))
			return die(argv[1], "an EVENTS block that does not add up");
	}
	for (i = 0; i < PDT_EV_MAX; i++)
		if (n[i])
			printf("%d %s %llu\n", i, pdt_event_name(i) ?: "?", n[i]);
	printf("materialized %llu\n", materialized);
	free(buf);
	fclose(f);
	return 0;
}
