// SPDX-License-Identifier: GPL-2.0
/*
 * The recording file (docs/record-format.md): what its writer (recfile_write.c) and
 * reader (recfile_read.c) share. Every block carries a CRC32 over its header and
 * payload, so a reader stops at the first damaged byte and a killed writer leaves a
 * file whose complete blocks are all readable.
 */
#include <zlib.h>
#include "pdtrace.h"
#include "recfile.h"
#include "recfile_format.h"

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

uint32_t pdt_rec_block_crc(const unsigned char *hdr, const unsigned char *payload, size_t len)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	crc = crc32(crc, hdr, 12);
	return (uint32_t)crc32(crc, payload, (uInt)len);
}
