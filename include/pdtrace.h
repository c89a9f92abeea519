/* SPDX-License-Identifier: GPL-2.0 */
/* Structures and constants shared by the BPF programs and user space. */
#ifndef PDTRACE_H
#define PDTRACE_H

#define PDT_FSTYPE_LEN 16
#define PDT_SID_LEN 32 /* sizeof(super_block.s_id) */
#define PDT_MAX_SB 1024

/* Per-superblock call counts of `pdtrace stat`, keyed by s_dev. */
struct pdt_sb_stat {
	char fs_type[PDT_FSTYPE_LEN];
	char s_id[PDT_SID_LEN];
	unsigned long long made;      /* d_make_persistent() calls */
	unsigned long long discarded; /* d_make_discardable() calls */
};

/* Indexes of the global counters array of `pdtrace stat`. */
enum pdt_stat_counter {
	PDT_CNT_SB_FULL, /* a superblock could not get a slot in sb_stats */
	PDT_CNT_MAX,
};

#endif /* PDTRACE_H */
