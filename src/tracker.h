/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live tracker: loads the BPF programs on the hooks this kernel has, feeds
 * the ring buffer into the rules engine, and keeps the mountpoint of every
 * superblock it meets. Shared by check, trace, watch and record (through session.h).
 */
#ifndef PDT_TRACKER_H
#define PDT_TRACKER_H

#include <stdbool.h>
#include "kernel_facts.h"
#include "ksyms.h"
#include "rules.h"

struct pdt_mount;

#define PDT_DEFAULT_RINGBUF_PAGES 2048 /* 8 MiB */
#define PDT_DRAIN_PAUSE_MS 5	       /* after a drain, before the next wait */

struct pdt_tracker_opts {
	bool dput;		    /* hook dput() too (its rule is off without it) */
	bool user_stacks;	    /* kernel stacks of user-space creations too */
	bool no_self_check;	    /* no walk of the trees at stop (see selfcheck.c) */
	bool every_event;	    /* no elision: every persist and discard streamed (trace -e) */
	unsigned int ringbuf_pages; /* of 4 KiB, power of two; 0: PDT_DEFAULT_RINGBUF_PAGES */
	/* Every raw event before the rules see it (trace -e, record); optional. */
	void (*on_raw)(const void *data, size_t size, void *ctx);
	/* A new superblock, with the mountinfo text its mountpoint was read from (record). */
	void (*on_new_sb)(const struct pdt_sb *sb, const char *mountinfo, size_t len, void *ctx);
	void *raw_ctx; /* for both */
};

/* Opaque: the tracker's state is its own (tracker_priv.h, for tracker.c and selfcheck.c). */
struct pdt_tracker;

/* An unopened tracker (NULL when out of memory); pdt_tracker_close() frees it. */
struct pdt_tracker *pdt_tracker_new(void);
/* Its rules engine: the books and the findings. */
struct pdt_rules *pdt_tracker_rules(const struct pdt_tracker *t);
/* The kernel release it runs on. */
const char *pdt_tracker_release(const struct pdt_tracker *t);
/* Hooks this kernel lacks, one line each ("func(): what is lost"). */
const char *const *pdt_tracker_missing(const struct pdt_tracker *t, size_t *n);
/* The mount of each superblock of the books, in their order. */
const struct pdt_mount *pdt_tracker_mounts(const struct pdt_tracker *t, size_t *n);
/* pdt_report.fs_seen: the hooks of one filesystem whose superblocks came. */
const bool *pdt_tracker_fs_seen(const struct pdt_tracker *t);
/* uname -m, and the wall clock (ns since the epoch) when it was opened. */
const char *pdt_tracker_machine(const struct pdt_tracker *t);
unsigned long long pdt_tracker_start_ns(const struct pdt_tracker *t);
/* kallsyms as read at stop (NULL before). */
struct ksyms *pdt_tracker_ksyms(const struct pdt_tracker *t);

struct pdt_facts;
/* A one-line reason why this kernel or process cannot be traced, or NULL. */
const char *pdt_check_kernel(struct pdt_facts *f, char *err, size_t errlen);

/*
 * Check the kernel, load and attach. On failure returns -1 with a one-line
 * reason in err (the caller exits 2).
 */
int pdt_tracker_open(struct pdt_tracker *t, const struct pdt_tracker_opts *o, char *err,
		     size_t errlen);
/* Deliver pending events to the rules engine; waits up to timeout_ms. */
int pdt_tracker_poll(struct pdt_tracker *t, int timeout_ms);
/*
 * Read kallsyms (so stacks can be symbolized and our own trampolines recognized),
 * detach every program (no new events), then deliver what is left in the buffer.
 */
void pdt_tracker_stop(struct pdt_tracker *t);
/*
 * Walk the tree of every superblock the books hold that is still mounted and compare
 * (src/selfcheck.c): the verdict lands in each superblock's check field. Called by
 * pdt_tracker_stop() while the programs are still attached.
 */
void pdt_tracker_self_check(struct pdt_tracker *t);
/* Sum over CPUs of entry idx of a per-CPU array of u64 counters (0 when unreadable). */
unsigned long long pdt_percpu_sum(int map_fd, unsigned int idx);
/*
 * Events lost (a full ring buffer, hook calls the kernel skipped on every copy of
 * the program), and insertions refused by full maps.
 */
void pdt_tracker_losses(struct pdt_tracker *t, unsigned long long *lost,
			unsigned long long *map_full);
/* Runs of dput()'s check the kernel skipped (not data lost: see tracker.c). */
unsigned long long pdt_tracker_dput_skipped(struct pdt_tracker *t);
/* Detach, free everything, and t itself. */
void pdt_tracker_close(struct pdt_tracker *t);

#endif
