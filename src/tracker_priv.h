/* SPDX-License-Identifier: GPL-2.0 */
/* The tracker's state: only tracker.c and selfcheck.c see inside it. */
#ifndef PDT_TRACKER_PRIV_H
#define PDT_TRACKER_PRIV_H

#include "report.h"
#include "tracker.h"

struct track_bpf;
struct ring_buffer;
struct bpf_link;

struct pdt_tracker {
	struct track_bpf *skel;
	struct ring_buffer *rb;
	struct pdt_rules *rules;
	struct pdt_mount *mounts;
	size_t nmounts, cap_mounts;
	char *missing[32]; /* "func(): what is lost" */
	size_t nmissing;
	char release[65];
	char machine[65];	     /* uname -m */
	unsigned long long start_ns; /* CLOCK_REALTIME when it was opened */
	bool fs_seen[PDT_MAX_HOOKS]; /* pdt_report.fs_seen */
	struct ksyms *ksyms;	     /* read at stop, while our trampolines are still in kallsyms */
	struct bpf_link *walk_link;  /* the self-check's iterator, made at its first use */
	struct pdt_facts facts;	     /* what this kernel has: the hooks attached */
	bool use_lsm;		     /* origin marks by BPF LSM programs, not the dispatcher */
	__u64
	    hook_addr[PDT_MAX_HOOKS]; /* pdt_hooks[i]'s address, looked up in the kernel (0: not) */
	unsigned int links, by_addr;  /* the dispatchers' links; those attached by address */
	struct bpf_link *dispatch[2]; /* dispatch_entry's and dispatch_session's links */
	bool no_self_check;
	/* Slots whose superblock the rules have heard of (its first event came through). */
	unsigned char announced[PDT_SB_SLOTS / 8];
	void (*on_raw)(const void *data, size_t size, void *ctx);
	void (*on_new_sb)(const struct pdt_sb *sb, const char *mountinfo, size_t len, void *ctx);
	void *raw_ctx;
};

/* Hand the elided counts that piled up to the rules (tracker.c). */
void pdt_tracker_flush_elided(struct pdt_tracker *t);

#endif
