/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracker's maps and globals, shared by its sources: declared here, defined once in
 * maps.bpf.c, joined by bpftool gen object. User space reads the globals through the
 * skeleton's mapping of .bss and sets the const ones before load.
 */
#ifndef PDT_MAPS_BPF_H
#define PDT_MAPS_BPF_H

/* Every event, in order: a single ring buffer keeps reservation order across CPUs. */
extern struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8 << 20); /* resized by user space before load */
} events SEC(".maps");

/*
 * Superblocks the reader has heard of, by address: the first event of a superblock
 * carries its names and wakes the reader at once (see submit()).
 */
extern struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PDT_MAX_SB);
	__type(key, u64);
	__type(value, u32); /* its pdt_slots index, PDT_NO_SLOT when they ran out */
} sbs SEC(".maps");

#define PDT_NO_SLOT 0xffffffffu

/* Per-task state: what a task is in the middle of (BPF-private). */
struct pdt_task_state {
	unsigned long long create_target;   /* dentry a user-space create was given ... */
	unsigned long long create_name;	    /* ... with this name (d_name.hash_len) */
	unsigned long long whiteout_parent; /* a RENAME_WHITEOUT's whiteout goes here ... */
	unsigned long long whiteout_hash;   /* ... with this name (d_name.hash_len) */
	unsigned long long remove_target;   /* dentry a user-space unlink/rmdir holds */
	unsigned long long shutdown_sb;	    /* in generic_shutdown_super() of this one */
	unsigned long long removal_root;    /* outermost recursive removal */
	unsigned int removal_depth;
	unsigned int umount_depth;
	unsigned int removal_kstack; /* its PDT_EV_REMOVAL not sent yet: its stack's id */
	unsigned int graph_overruns; /* the task's trace_overrun when last read (graph_check()) */
};

/*
 * What each task is in the middle of: task-local storage, reached through the task
 * itself (no hashing, no LRU lock) and freed with it. A create mark on a filesystem
 * without persistence is simply overwritten by the task's next one.
 */
extern struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct pdt_task_state);
} tasks SEC(".maps");

/*
 * The tracker's counters (enum pdt_track_counter), in .bss: user space reads them
 * through the skeleton's mapping, with no map syscall, which would make the kprobe
 * programs miss on that CPU while it runs (bpf_disable_instrumentation()).
 */
extern struct pdt_hook_ip pdt_hook_ips[PDT_HOOK_IPS];
extern __u32 pdt_nhook_ips;
extern __u64 pdt_counters[PDT_TC_MAX];
extern struct pdt_sb_slot pdt_slots[PDT_SB_SLOTS];
extern __u32 pdt_nslots;
/*
 * Slots of superblocks gone, given back by user space once it read their PDT_EV_SB_DOWN
 * (and stopped reading their counts): a ring it alone writes, pdt_free_head last.
 */
extern __u32 pdt_free_slots[PDT_SB_SLOTS];
extern __u32 pdt_free_head;  /* slots given back, ever */
extern __u32 pdt_free_tail;  /* of those, taken again */
extern __u32 pdt_spare_slot; /* taken by a CPU that lost the race to name its sb */
extern __u32 pdt_brackets_live;

/* Scratch space to build a path right to left; see fill_path(). */
#define PDT_SCRATCH_MASK 511
struct pdt_scratch {
	char buf[PDT_SCRATCH_MASK + 1 + 256];
};

extern struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct pdt_scratch);
} scratch SEC(".maps");

/*
 * Kernel stacks of user-space creations too (--user-stacks). They are the syscall's
 * path, and the unwind costs more than the rest of the persist program together:
 * by default a user-made entry keeps its creator's pid and comm instead.
 */
extern const volatile bool pdt_user_stacks;
extern const volatile __u64 pdt_ring_size;

/*
 * Each CPU's last superblock, with the generation it was seen in: a superblock's
 * events come in runs, and this check is one inlined array load where the hash
 * lookup below costs a hashing and a bucket walk. A shutdown bumps pdt_sb_gen,
 * which empties every CPU's entry at once.
 */
struct pdt_sb_seen {
	unsigned long long sb;
	unsigned long long gen;
	unsigned int slot;
	unsigned int pad;
};

extern struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct pdt_sb_seen);
} sb_seen SEC(".maps");

extern __u64 pdt_sb_gen;

/*
 * A dentry's address as a number: the verifier allows no arithmetic on a BTF pointer,
 * but a pointer stored in a map value reads back as a plain number (root may leak
 * them). The dispatcher's arguments are numbers already.
 */
extern struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} addr_tmp SEC(".maps");

extern __u64 pdt_anchor;

#endif
