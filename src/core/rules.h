/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules engine: turns the tracker's event stream into per-superblock books
 * and findings. Plain C, no libbpf: the unit tests feed it recorded or made-up
 * events, and `check`, `trace` (and later `report`) feed it the live stream.
 */
#ifndef PDT_RULES_H
#define PDT_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pdtrace.h"

enum pdt_kind { PDT_KIND_LEAK, PDT_KIND_IMBALANCE, PDT_KIND_ILLEGAL_REMOVAL, PDT_KIND_MAX };

/* The rules: one row each in pdt_rule_table (rules.c). */
enum pdt_rule_id {
	PDT_R_BUSY_AT_UMOUNT,
	PDT_R_PINNED_AFTER_UMOUNT,
	PDT_R_ORPHANED,
	PDT_R_DISCARD_UNPERSISTED,
	PDT_R_PERSIST_TWICE,
	PDT_R_DPUT_PERSISTENCE_REF,
	PDT_R_SB_BALANCE,
	PDT_R_USER_ENTRY_REMOVED,
	PDT_R_CREATE_IN_DEAD_DIR,
	PDT_R_EATEN_PERSISTENCE_REF,
	PDT_R_RENAME_VICTIM_KEPT,
	PDT_R_OUTLIVES_MODULE,
	PDT_R_MAX,
};

struct pdt_rule_info {
	const char *name; /* as reports print it */
	enum pdt_kind kind;
	/*
	 * It concludes from an event that did not come (an unpin, a discard): with lost
	 * events such a finding may be an artifact of the loss.
	 */
	bool by_absence;
	/* Its finding is about one entry with a creation to show (not a superblock's books). */
	bool has_creation;
};

extern const struct pdt_rule_info pdt_rule_table[PDT_R_MAX];

/* Rule names, as reports print them. */
#define PDT_RULE_BUSY_AT_UMOUNT "busy-at-umount"
#define PDT_RULE_PINNED_AFTER_UMOUNT "pinned-after-umount"
#define PDT_RULE_ORPHANED "orphaned"
#define PDT_RULE_DISCARD_UNPERSISTED "discard-unpersisted"
#define PDT_RULE_PERSIST_TWICE "persist-twice"
#define PDT_RULE_DPUT_PERSISTENCE_REF "dput-persistence-ref"
#define PDT_RULE_SB_BALANCE "sb-balance"
#define PDT_RULE_USER_ENTRY_REMOVED "user-entry-removed"
#define PDT_RULE_CREATE_IN_DEAD_DIR "create-in-dead-dir"
#define PDT_RULE_EATEN_PERSISTENCE_REF "eaten-persistence-ref"
#define PDT_RULE_RENAME_VICTIM_KEPT "rename-victim-kept"
#define PDT_RULE_OUTLIVES_MODULE "outlives-module"

/* The self-check of a superblock: its books against a walk of the kernel's tree. */
enum pdt_check {
	PDT_CHECK_NONE,		/* not walked (unmounted, not reachable, or switched off) */
	PDT_CHECK_CLEAN,	/* every entry the books hold is there, where they say */
	PDT_CHECK_INCONSISTENT, /* the tracker missed a kernel path: see check_first */
	PDT_CHECK_BUSY,		/* differences, but the tree changed during the walk */
};

/*
 * A finding's path is exact up to PATH_MAX: the BPF side sends at most PDT_PATH_LEN
 * bytes and PDT_PATH_DEPTH levels (keeping the leaf end after "..."), and the rules
 * rebuild the rest from the ancestors they track.
 */
#define PDT_FINDING_PATH_LEN 4096

struct pdt_finding {
	enum pdt_kind kind;
	enum pdt_rule_id rule_id;
	const char *rule; /* pdt_rule_table[rule_id].name */
	size_t sb_index;  /* into pdt_rules_sb() */
	char fs_type[PDT_FSTYPE_LEN];
	char s_id[PDT_SID_LEN];
	unsigned int dev;
	char path[PDT_FINDING_PATH_LEN];
	enum pdt_origin origin;
	bool has_refcount;
	int refcount;
	unsigned int pid;
	char comm[PDT_COMM_LEN];
	unsigned long long ts_ns;
	unsigned int nstack;
	unsigned long long stack[PDT_STACK_DEPTH];
	unsigned int stack_epoch,
	    created_epoch; /* module epochs of the two stacks (ksyms_find_at()) */
	bool created_seen; /* the persist event came: created_pid/comm are its */
	unsigned int created_pid;
	char created_comm[PDT_COMM_LEN];
	char module[PDT_MODNAME_LEN]; /* outlives-module: the module whose code made it */
	unsigned int ncreated;	      /* 0: creation not seen, or its stack not kept */
	unsigned long long created[PDT_STACK_DEPTH];
	char message[384];
};

struct pdt_sb {
	unsigned long long sb; /* kernel address: identity only */
	unsigned int dev;
	char fs_type[PDT_FSTYPE_LEN];
	char s_id[PDT_SID_LEN];
	unsigned long long made;      /* made persistent while we watched */
	unsigned long long discarded; /* persistent dentries discarded */
	unsigned long long unpinned;  /* persistent dentries unpinned at umount */
	unsigned long long adopted;   /* of the released, those made before we started */
	long long live;		      /* made and not released yet */
	unsigned long long findings;
	unsigned long long eaten; /* of the made, killed with their reference eaten */
	long long elided_live;	  /* of the live, those the BPF side keeps to itself */
	bool unmounted;
	enum pdt_check check;
	unsigned long long check_entries; /* entries the books hold that the walk checked */
	unsigned long long check_diffs;
	char check_first[PDT_PATH_LEN + 64]; /* the first difference, in words */
	/* 1, 2, ...: the order the books met their superblocks (an index is reused). */
	unsigned long long serial;
	bool retired; /* folded into pdt_rules_retired(): its index is free for another */
};

/*
 * Superblocks that came and went with nothing to report (no finding, books balanced),
 * folded into one line so that a run of weeks keeps only what is live or reported.
 */
struct pdt_retired {
	unsigned long long sbs;
	unsigned long long made, discarded, unpinned, adopted;
};

struct pdt_rules;
struct modtab;

typedef void (*pdt_finding_cb)(const struct pdt_finding *f, void *ctx);
typedef void (*pdt_sb_cb)(const struct pdt_sb *sb, void *ctx);

struct pdt_rules *pdt_rules_new(void);
void pdt_rules_free(struct pdt_rules *r);
/* Called for each finding as it is made (streaming output); optional. */
void pdt_rules_on_finding(struct pdt_rules *r, pdt_finding_cb cb, void *ctx);
/* Called when a superblock is first seen (to look up its mountpoint); optional. */
void pdt_rules_on_new_sb(struct pdt_rules *r, pdt_sb_cb cb, void *ctx);
/* Disable a rule whose hook is missing: its findings are not made. */
void pdt_rules_disable(struct pdt_rules *r, const char *rule);
/* The rules disabled so far (a recording carries them to `report`). */
size_t pdt_rules_ndisabled(const struct pdt_rules *r);
const char *pdt_rules_disabled(const struct pdt_rules *r, size_t i);
/* This pdtrace's own name of a rule (for names read from a file), or NULL if it has none. */
const char *pdt_rule_name(const char *name);

/*
 * Feed one event as the ring buffer delivered it. Returns 0, or -1 when the
 * event is malformed (short, unknown type, size mismatch): it is then ignored.
 */
int pdt_rules_feed(struct pdt_rules *r, const void *data, size_t size);

/*
 * Findings kept for the report: at most PDT_RULES_MAX_FINDINGS (a recording can
 * make one event cost many findings). Later ones are counted in the totals and
 * handed to the on_finding callback, but not kept: pdt_rules_unlisted().
 */
#define PDT_RULES_MAX_FINDINGS 10000
size_t pdt_rules_nfindings(const struct pdt_rules *r);
unsigned long long pdt_rules_unlisted(const struct pdt_rules *r);
const struct pdt_finding *pdt_rules_finding(const struct pdt_rules *r, size_t i);
/* Indices of superblocks; pdt_rules_sb() is NULL for a free (retired) one. */
size_t pdt_rules_nsbs(const struct pdt_rules *r);
const struct pdt_sb *pdt_rules_sb(const struct pdt_rules *r, size_t i);
/*
 * Fold the superblocks that are gone with no finding and balanced books into
 * pdt_rules_retired(), all but the keep that went last: their indices go to the next
 * superblocks. A long run calls it after each output that showed them (watch, trace).
 */
void pdt_rules_retire(struct pdt_rules *r, size_t keep);
/* What check and trace keep in full: the report of a short run lists every superblock. */
#define PDT_RULES_KEEP_GONE 256
/* The index of a superblock of these books (as pdt_rules_sb() takes it). */
size_t pdt_rules_sb_index(const struct pdt_rules *r, const struct pdt_sb *sb);
const struct pdt_retired *pdt_rules_retired(const struct pdt_rules *r);
/* Findings per kind. */
unsigned long long pdt_rules_count(const struct pdt_rules *r, enum pdt_kind kind);
/*
 * The findings of a kind made by rules whose evidence is an event that did not come
 * (pdt_rule_table[].by_absence: pinned-after-umount, orphaned, sb-balance). When
 * events were lost, such a finding may be an artifact of the loss.
 */
unsigned long long pdt_rules_count_by_absence(const struct pdt_rules *r, enum pdt_kind kind);
/*
 * Do the findings fail a gate on these kinds? With complete data any finding does;
 * with incomplete data only those observed directly (not by absence).
 */
bool pdt_rules_fail(const struct pdt_rules *r, const bool fail_on[PDT_KIND_MAX], bool complete);
/*
 * Superblocks whose self-check found the books wrong (PDT_CHECK_INCONSISTENT): the
 * data is then incomplete, whatever was lost.
 */
size_t pdt_rules_inconsistent(const struct pdt_rules *r);
const char *pdt_check_name(enum pdt_check c);
/* The origin the books give a dentry (PDT_ORIGIN_UNKNOWN when they do not hold it). */
enum pdt_origin pdt_rules_origin(const struct pdt_rules *r, uint64_t dentry);
/* Where the books put a dentry they hold ("" when they do not). */
void pdt_rules_path(const struct pdt_rules *r, uint64_t dentry, char *buf, size_t n);
/*
 * The whole path of a full event's dentry: the event's own, or where it is cut short
 * ("..." in front), rebuilt from the books' copy of the dentry or of its parent.
 */
void pdt_rules_event_path(const struct pdt_rules *r, const struct pdt_event_full *e, char *buf,
			  size_t n);
/* The fs type of a superblock the books know by address, or "". */
const char *pdt_rules_fs_type(const struct pdt_rules *r, uint64_t sb);
/* Where the modules seen so far had their code (names for their frames: modtab_ksyms()). */
const struct modtab *pdt_rules_modtab(const struct pdt_rules *r);
/* Malformed events seen. */
unsigned long long pdt_rules_malformed(const struct pdt_rules *r);

const char *pdt_kind_name(enum pdt_kind k);
const char *pdt_origin_name(enum pdt_origin o);

#endif
