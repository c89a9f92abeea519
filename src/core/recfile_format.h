/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The recording file's layout shared by its writer (recfile_write.c) and reader
 * (recfile_read.c): little-endian integers, and a CRC32 over each block's header
 * and payload (docs/record-format.md).
 */
#ifndef PDT_RECFILE_FORMAT_H
#define PDT_RECFILE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define META_FIXED 24 /* start_ns, mono_ns, sizes, byte order, pad */
#define END_FIXED 40
#define MAX_ARGS 65536 /* strings in a block of strings, as written and as read */

static inline void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static inline void put32(unsigned char *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static inline void put64(unsigned char *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t get32(const unsigned char *p)
{
	return get16(p) | (uint32_t)get16(p + 2) << 16;
}

static inline uint64_t get64(const unsigned char *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

/* The CRC32 of a block: its 12-byte header, then its payload. */
uint32_t pdt_rec_block_crc(const unsigned char *hdr, const unsigned char *payload, size_t len);

#endif
