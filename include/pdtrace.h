/* SPDX-License-Identifier: GPL-2.0 */
/* Structures and constants shared by the BPF programs and user space. */
#ifndef PDTRACE_H
#define PDTRACE_H

#define PDT_FSTYPE_LEN 16
#define PDT_SID_LEN 32 /* sizeof(super_block.s_id) */
#define PDT_COMM_LEN 16
#define PDT_PATH_LEN 256
#define PDT_STACK_DEPTH 24
#define PDT_MAX_SB 1024
#define PDT_PATH_DEPTH 24  /* path components walked up from a dentry */
#define PDT_MODNAME_LEN 56 /* MODULE_NAME_LEN on 64-bit */

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

/* ---- the tracker (bpf/track/) ------------------------------------------------ */

enum pdt_event_type {
	PDT_EV_PERSIST = 1, /* d_make_persistent() entry */
	PDT_EV_DISCARD,	    /* d_make_discardable() entry */
	PDT_EV_DPUT,	    /* dput() of a persistent dentry whose count is <= 1 */
	PDT_EV_UNPIN,	    /* select_collect_umount() unpins a persistent dentry */
	PDT_EV_BUSY,	    /* umount_check() finds a dentry still in use */
	PDT_EV_SB_DOWN,	    /* generic_shutdown_super() returned */
	PDT_EV_MOVE,	    /* __d_move() of a persistent dentry: new parent and path */
	PDT_EV_REMOVAL,	    /* an outermost recursive removal starts: its root and path */
	PDT_EV_EATEN,	    /* a persistent dentry with count 0: its reference was eaten */
	PDT_EV_VICTIM,	    /* a rename over a persistent dentry left it persistent */
	PDT_EV_WALK,	    /* the self-check's walk of a superblock starts or ends */
	PDT_EV_WALK_ENTRY,  /* one dentry the walk found (struct pdt_walk_entry) */
	PDT_EV_MODULE_LOAD, /* a module is about to run its init (struct pdt_module_event) */
	PDT_EV_MODULE_FREE, /* a module's exit ran, its memory is about to go */
	PDT_EV_ELIDED,	    /* counts of entries kept off the stream (struct pdt_elided_event) */
	PDT_EV_REMOVAL_END, /* a removal's root, elided, discarded: the removal is over */
	PDT_EV_MAX,
};

/*
 * The functions entered with no lock held share two kprobe.multi programs, one at
 * entry and one at return (bpf/track/dispatch.bpf.c): user space attaches each
 * function with one of these as its cookie, and the program dispatches on it.
 */
enum pdt_hook_id {
	PDT_HK_NONE,
	PDT_HK_PERSIST,	     /* d_make_persistent(dentry, inode) */
	PDT_HK_DISCARD,	     /* d_make_discardable(dentry) */
	PDT_HK_CREATE,	     /* security_inode_{create,mkdir,mknod,symlink}(dir, dentry, ...) */
	PDT_HK_LINK,	     /* security_inode_link(old, dir, new_dentry) */
	PDT_HK_REMOVE,	     /* security_inode_{unlink,rmdir}(dir, dentry) */
	PDT_HK_RENAME,	     /* security_inode_rename(..., flags) */
	PDT_HK_REMOVAL,	     /* {simple,locked}_recursive_removal(dentry, ...), entry and return */
	PDT_HK_REMOVAL_ARG2, /* configfs_rmdir(dir, dentry), entry and return */
	PDT_HK_UMOUNT,	     /* deactivate_locked_super(sb), entry and return */
	PDT_HK_SHUTDOWN,     /* generic_shutdown_super(sb), entry and return */
	PDT_HK_MAX,
};

/*
 * The dispatchers' fast path: user space reads the entry link's functions and cookies
 * back (their addresses, as the kernel resolved them) and writes them here, in the
 * tracker's .bss, most frequent first; the programs then find a function's id by its
 * address (bpf_get_func_ip()) instead of bpf_get_attach_cookie(), whose binary search
 * with an indirect comparison costs more than the rest of a churn hook's program.
 * Until nhook_ips is set, and for an address not in it, the cookie.
 */
#define PDT_HOOK_IPS 16
struct pdt_hook_ip {
	unsigned long long ip; /* kernel address: identity only */
	unsigned long long id; /* enum pdt_hook_id */
};

/*
 * Kernel addresses by name (bpf/track/resolve.bpf.c): user space writes the names into
 * the tracker's .data.resolve, runs the program once and reads the addresses back.
 */
#define PDT_RESOLVE_MAX 32
#define PDT_RESOLVE_NAME_LEN 64

enum pdt_origin {
	PDT_ORIGIN_UNKNOWN, /* made persistent before pdtrace started */
	PDT_ORIGIN_KERNEL,
	PDT_ORIGIN_USER, /* the dentry a user-space create/mkdir/mknod/symlink/link was given */
};

/* pdt_event.flags */
#define PDT_F_WAS_PERSISTENT (1u << 0) /* DCACHE_PERSISTENT set on entry */
#define PDT_F_WAS_POSITIVE (1u << 1)   /* d_inode set on entry */
#define PDT_F_PARENT_DEAD (1u << 2)    /* parent directory inode is S_DEAD */
#define PDT_F_IN_UMOUNT (1u << 3)      /* inside deactivate_locked_super() */
#define PDT_F_IN_REMOVAL (1u << 4)     /* inside a recursive removal (removal_root set) */
#define PDT_F_TRACKED (1u << 5) /* unused since recording format 1.1 (was: in the BPF dentry map) */
#define PDT_F_IS_DIR (1u << 6)
#define PDT_F_AT_UMOUNT (1u << 7)     /* EATEN: seen by the umount walk, not at the kill */
#define PDT_F_WALK_END (1u << 8)      /* WALK: the walk is over (else it starts) */
#define PDT_F_USER_REMOVE (1u << 9)   /* DISCARD: of the entry a user's unlink/rmdir holds */
#define PDT_F_FIRST_OF_SB (1u << 10)  /* the first full event of its superblock: names set */
#define PDT_F_MATERIALIZED (1u << 11) /* PERSIST: of an elided entry, sent when it mattered */
#define PDT_F_WALK_MOVED (1u << 12)   /* WALK end: elided entries came or went during the walk */

/*
 * Every event starts with this header. Kernel addresses (dentry, parent, sb,
 * removal_root, stack) identify objects and are never printed unless the user
 * asks for them.
 */
struct pdt_event {
	unsigned short type; /* enum pdt_event_type */
	unsigned short size; /* bytes of the whole event */
	unsigned int flags;
	unsigned long long ts_ns;
	unsigned long long dentry;
	unsigned long long parent;
	unsigned long long sb;
	unsigned long long removal_root;
	unsigned int dev; /* s_dev, the kernel's encoding (major << 20 | minor) */
	unsigned int pid;
	int refcount;	      /* d_lockref.count on entry */
	unsigned char origin; /* enum pdt_origin: set on PDT_EV_PERSIST (the books keep it) */
	unsigned char pad[3];
	char comm[PDT_COMM_LEN];
};

/* Events that may become findings carry names, a path and a kernel stack. */
struct pdt_event_full {
	struct pdt_event h;
	char fs_type[PDT_FSTYPE_LEN];
	char s_id[PDT_SID_LEN];
	unsigned int nstack; /* frames in stack */
	unsigned int
	    slot; /* PDT_F_FIRST_OF_SB, PDT_EV_SB_DOWN: its superblock's pdt_slots index + 1 (0: none) */
	unsigned long long stack[PDT_STACK_DEPTH];
	char path[PDT_PATH_LEN]; /* from the superblock root, "/" for the root */
};

/*
 * The self-check walks a superblock's whole tree (bpf/track/walk.bpf.c) and streams
 * what it finds between two PDT_EV_WALK events (full events: the start carries the
 * superblock's names; ts_ns orders it among the other events). Entries are small and
 * of variable size: the name's bytes follow, padded to 8.
 */
struct pdt_walk_entry {
	unsigned short type; /* PDT_EV_WALK_ENTRY */
	unsigned short size; /* sizeof(*this) + name_len rounded up to 8 */
	unsigned short name_len;
	unsigned char wflags; /* PDT_W_* */
	unsigned char pad;
	unsigned long long dentry;
	unsigned long long parent;
	int refcount;
	unsigned int seq; /* index in the walk: entries resume there after a full buffer */
	char name[];
};

/*
 * A module's load or free (the module_load and module_free tracepoints): where its
 * code is, so that a creation stack can name the module that made an entry. The
 * header's dentry, parent, sb, dev and refcount are 0.
 */
struct pdt_module_event {
	struct pdt_event h;
	unsigned long long module;    /* struct module address: identity only */
	unsigned long long text;      /* its core text: [text, text + text_size) */
	unsigned long long init_text; /* its init text (0 at free: gone after init) */
	unsigned int text_size;
	unsigned int init_size;
	char name[PDT_MODNAME_LEN];
};

/*
 * Elision: an entry whose life holds nothing a rule looks at (made persistent by a user's
 * create, discarded by a user's unlink or unpinned at umount, nothing in between but
 * renames; or made by the kernel and discarded in a recursive removal) never reaches the
 * stream. The BPF side keeps it in a set of its own and
 * counts it in its superblock's slot (pdt_slots in the tracker's .bss); the moment it could
 * matter it sends its PERSIST (PDT_F_MATERIALIZED) and it is tracked like any other.
 * The counts reach the books as PDT_EV_ELIDED events: the BPF side sends one before its
 * superblock's PDT_EV_SB_DOWN, user space one per slot that moved each time it reads
 * the ring buffer, and at stop. A slot's counts are deltas: whoever takes them zeroes them.
 */
#define PDT_SB_SLOTS 4096
struct pdt_sb_slot {
	unsigned long long sb; /* kernel address: identity only */
	long long made;	       /* elided persists (less those materialized since) */
	long long discarded;   /* elided entries discarded quietly */
	long long unpinned;    /* elided entries unpinned quietly at umount */
	long long live; /* its entries in the set now; BPF's own, user space never takes it */
};

/* The header's sb and dev say whose; dentry, parent and refcount are 0. */
struct pdt_elided_event {
	struct pdt_event h;
	long long made, discarded, unpinned;
};

#define PDT_W_PERSISTENT (1u << 0)
#define PDT_W_POSITIVE (1u << 1)
#define PDT_W_ROOT (1u << 2)
#define PDT_W_ELIDED (1u << 3) /* in the BPF side's set of elided entries */

/*
 * Indexes of the tracker's counters (pdt_counters in its .bss). Each makes the data
 * incomplete.
 */
enum pdt_track_counter {
	PDT_TC_LOST_EVENTS,    /* ring buffer full */
	PDT_TC_TASK_FULL,      /* task storage could not be had */
	PDT_TC_SB_FULL,	       /* superblock map full */
	PDT_TC_KIDS_UNCHECKED, /* a discarded directory had too many children to look at */
	PDT_TC_STACKS_FULL,    /* a removal's start sent without its stack: no room in the table */
	PDT_TC_GRAPH_SKIPPED,  /* calls the function graph tracer skipped (a bracket among them?) */
	PDT_TC_MAX,
};

#endif /* PDTRACE_H */
