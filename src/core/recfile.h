/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recordings (`pdtrace record`, `pdtrace report`): the versioned block file of
 * docs/record-format.md. Plain C, no libbpf: the reader is unit-tested and
 * fuzzed on the host, and must survive any input.
 */
#ifndef PDT_RECFILE_H
#define PDT_RECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "ksyms.h"
#include "u64map.h"

#define PDT_REC_MAGIC "\x89PDTREC\n" /* 8 bytes: a text-mode transfer breaks it visibly */
#define PDT_REC_MAJOR 1		     /* readers refuse another major version */
#define PDT_REC_MINOR 5 /* new minors add blocks, event types, trailing fields, brief forms */
#define PDT_REC_FILE_HDR 16
#define PDT_REC_BLOCK_HDR 16

/* Sane maxima: every length read from a file is checked against these. */
#define PDT_REC_MAX_BLOCK (16u << 20) /* payload bytes */
#define PDT_REC_MAX_EVENT 65536	      /* one ring buffer record */
#define PDT_REC_MAX_SYMS (1u << 20)   /* symbols in the whole file */
#define PDT_REC_MAX_SYMNAME 511
#define PDT_REC_MAX_COVERAGE 64 /* coverage lines */
#define PDT_REC_MAX_LINE 1024	/* one coverage line, one disabled rule name */
#define PDT_REC_MAX_RULES_OFF 16
/* Zeros after a zeroed block header in a stream of unknown size (a pipe), at most. */
#define PDT_REC_MAX_ZERO_TAIL (64u << 20)

/* Block types (u16). */
enum pdt_rec_type {
	PDT_REC_META = 1,      /* first block: versions, kernel, start time */
	PDT_REC_RULES_OFF = 2, /* rules the recorder switched off (missing hooks, --no-dput) */
	PDT_REC_COVERAGE = 3,  /* "func() not traceable here: lost ..." lines */
	PDT_REC_ARGV = 4,      /* the traced COMMAND */
	PDT_REC_MOUNTS = 5,    /* a /proc/self/mountinfo snapshot */
	PDT_REC_EVENTS = 6,    /* raw ring buffer records */
	PDT_REC_KSYMS = 7,     /* the kallsyms slice covering recorded stacks */
	PDT_REC_END = 8,       /* last block: losses, exit status */
};

/* Block header flags (u16). */
#define PDT_REC_F_CRITICAL 0x0001 /* a reader that does not know the type must stop */

/* KSYMS payload flags (u32). */
#define PDT_REC_KSYMS_FINAL 0x0001 /* the whole slice, resolved at the end: replaces the others */

struct pdt_rec_meta {
	char version[32];    /* pdtrace that recorded */
	char release[65];    /* uname -r */
	char machine[65];    /* uname -m */
	uint64_t start_ns;   /* CLOCK_REALTIME at start */
	uint64_t mono_ns;    /* CLOCK_MONOTONIC at start (the events' clock) */
	uint16_t event_size; /* sizeof(struct pdt_event) of the recorder */
	uint16_t full_size;  /* sizeof(struct pdt_event_full) */
};

struct pdt_rec_end {
	uint64_t stop_ns; /* CLOCK_REALTIME at the end */
	uint64_t events;  /* events written */
	uint64_t lost_events;
	uint64_t map_full;
	int32_t exit_status; /* the command's, shell-style; -1 if none */
};

/* ---- writer ---------------------------------------------------------------- */

struct pdt_recw_buf {
	unsigned char *p;
	size_t len, cap;
};

struct pdt_recw {
	int fd;
	int err;	 /* first errno; sticky: later writes do nothing */
	uint64_t offset; /* bytes written */
	uint32_t seq;	 /* next block's sequence number */
	uint64_t nevents;
	struct pdt_recw_buf batch; /* pending EVENTS payload */
	size_t last_event;	   /* offset in batch of the last event appended */
	const struct ksyms *ksyms; /* full table the slice is cut from; may be NULL */
	struct u64map syms_out;	   /* symbol addresses written */
	struct u64map addrs;	   /* stack addresses seen */
	struct u64map pending;	   /* of those, seen before the table was set */
	char *mounts;		   /* last mountinfo snapshot written */
	size_t mounts_len;
	bool has_mounts;
};

/* Write the file header and META on fd. Returns 0, or -1 with w->err set. */
int pdt_recw_open(struct pdt_recw *w, int fd, const struct pdt_rec_meta *m);
/*
 * The full symbol table to cut the slice from (NULL: none yet). Not owned. It
 * may come late: the next flush then writes the symbols of the stacks seen so far.
 */
void pdt_recw_set_ksyms(struct pdt_recw *w, const struct ksyms *k);
/* A block of strings (RULES_OFF, COVERAGE, ARGV). */
int pdt_recw_strings(struct pdt_recw *w, uint16_t type, const char *const *v, size_t n);
/* Queue one raw event; writes a block when the batch is large. */
int pdt_recw_event(struct pdt_recw *w, const void *data, size_t size);
/* Write the queued events as one EVENTS block, then the symbols its stacks need. */
int pdt_recw_flush(struct pdt_recw *w);
/*
 * A mountinfo snapshot, unless it equals the last one. before_last: the last
 * queued event is the one that made the snapshot necessary (a new superblock):
 * the snapshot goes before it in the file, so a reader has it when it gets there.
 */
int pdt_recw_mounts(struct pdt_recw *w, const char *text, size_t len, bool before_last);
/*
 * Flush, then a final KSYMS block when the symbols of the stacks seen resolve
 * differently in final (kallsyms reloaded at the end: modules may have come
 * and gone), then END.
 */
int pdt_recw_close(struct pdt_recw *w, const struct ksyms *final, const struct pdt_rec_end *e);
void pdt_recw_free(struct pdt_recw *w);

/* ---- reader ---------------------------------------------------------------- */

/* What the reader hands on as it goes: events in file order, snapshots before their events. */
struct pdt_rec_sink {
	void (*event)(void *ctx, const void *data, size_t size);
	void (*mounts)(void *ctx, const char *text, size_t len);
	void (*rule_off)(void *ctx, const char *rule);
	void *ctx;
};

struct pdt_rec {
	struct pdt_rec_meta meta;
	char **argv; /* NULL-terminated; NULL: no command */
	char **coverage;
	size_t ncoverage;
	struct ksyms *ksyms; /* the slice, sorted; never NULL after a successful read */
	bool has_end;
	struct pdt_rec_end end;
	uint64_t nevents;
	uint32_t nblocks;
	uint64_t size;	/* bytes read */
	bool truncated; /* the file stops early: what was read is a clean prefix */
	char why_truncated[200];
	/* reader state */
	struct ksym *syms, *final_syms;
	size_t nsyms, cap_syms, nfinal, cap_final;
	bool has_meta, has_final;
};

/*
 * Read a recording from fp (size bytes if known, else UINT64_MAX), handing
 * events to sink. Returns 0 (possibly rec->truncated), or -1 with one line in
 * err naming the byte offset and what is wrong. rec is filled either way;
 * free it with pdt_rec_free().
 */
int pdt_rec_read(FILE *fp, uint64_t size, struct pdt_rec *rec, const struct pdt_rec_sink *sink,
		 char *err, size_t errlen);
void pdt_rec_free(struct pdt_rec *rec);
const char *pdt_rec_type_name(unsigned int type);

#endif
