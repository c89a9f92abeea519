// SPDX-License-Identifier: GPL-2.0
/*
 * The floors `make bench` compares pdtrace with: the tracker's programs on the same
 * hooks, attached by the same user space, doing less. Linked with the tracker's maps,
 * global functions, kallsyms lookup and self-check walk in place of its programs, one
 * object per floor (make floor, stream-floor, stack-floor):
 *   FLOOR_EMPTY   every program returns at once: what the hooks cost by themselves;
 *   FLOOR_STREAM  a persist, a discard and an umount's unpin each send the smallest
 *                 event, which the reader counts and drops: the floor of any design
 *                 that streams the books to user space;
 *   FLOOR_STACKS  the origin marks of creations, and the kernel stack of each entry the
 *                 kernel makes, taken as pdtrace takes it: the floor of creation stacks.
 */
#include "common.bpf.h"
#include "hook_id.bpf.h"
#include "kstack.bpf.h"
#include "origin.bpf.h"
#include "persist.bpf.h"

#if !defined(FLOOR_EMPTY) && !defined(FLOOR_STREAM) && !defined(FLOOR_STACKS)
#error "build with -DFLOOR_EMPTY, -DFLOOR_STREAM or -DFLOOR_STACKS (Makefile: make floor)"
#endif

/* The smallest event, type 0: the reader counts it and drops it. */
static __always_inline int send_bare(void *dentry)
{
#ifdef FLOOR_STREAM
	struct pdt_event *e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);

	if (!e)
		return 0;
	e->type = 0;
	e->size = sizeof(*e);
	e->dentry = (u64)dentry;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
#endif
	return 0;
}

SEC("kprobe.multi")
int dispatch_entry(struct pt_regs *ctx)
{
#ifndef FLOOR_EMPTY
	void *a1 = (void *)PT_REGS_PARM1(ctx);
	u64 hook = entry_hook_id(ctx);
#endif

#ifdef FLOOR_STREAM
	if (hook == PDT_HK_PERSIST || hook == PDT_HK_DISCARD)
		return send_bare(a1);
#endif
#ifdef FLOOR_STACKS
	if (hook == PDT_HK_CREATE)
		return mark((void *)PT_REGS_PARM2(ctx));
	if (hook == PDT_HK_LINK)
		return mark((void *)PT_REGS_PARM3(ctx));
	if (hook == PDT_HK_PERSIST &&
	    origin_of(task_state(false), as_dentry(a1)) != PDT_ORIGIN_USER)
		stack_scratch(ctx);
#endif
	return 0;
}

SEC("kprobe.session")
int dispatch_session(struct pt_regs *ctx)
{
	return 0; /* 0 at entry: the return runs too, as pdtrace's does */
}

SEC("fentry/dput")
int BPF_PROG(dput, struct dentry *dentry)
{
	return 0;
}

SEC("fentry/dentry_kill")
int BPF_PROG(dentry_kill, struct dentry *dentry)
{
	return 0;
}

SEC("fentry/__d_move")
int BPF_PROG(__d_move, struct dentry *dentry, struct dentry *target, bool exchange)
{
	return 0;
}

SEC("fentry/select_collect_umount")
int BPF_PROG(select_collect_umount, void *data, struct dentry *dentry)
{
	if (dentry->d_flags & persistent_bit())
		send_bare(dentry);
	return 0;
}

SEC("fentry/umount_check")
int BPF_PROG(umount_check, void *data, struct dentry *dentry)
{
	return 0;
}

SEC("tp_btf/module_load")
int BPF_PROG(module_load, struct module *mod)
{
	return 0;
}

SEC("tp_btf/module_free")
int BPF_PROG(module_free, struct module *mod)
{
	return 0;
}

/* The LSM's origin marks: creations' in the creation-stacks floor only. */
#ifdef FLOOR_STACKS
#define FLOOR_MARK(dentry) mark(dentry)
#else
#define FLOOR_MARK(dentry) (void)(dentry)
#endif

#define FLOOR_LSM(hook, body)                                                                      \
	SEC("lsm/" #hook)                                                                          \
	int BPF_PROG(lsm_##hook, struct inode *dir, struct dentry *dentry)                         \
	{                                                                                          \
		body;                                                                              \
		return 0;                                                                          \
	}

FLOOR_LSM(inode_create, FLOOR_MARK(dentry))
FLOOR_LSM(inode_mkdir, FLOOR_MARK(dentry))
FLOOR_LSM(inode_mknod, FLOOR_MARK(dentry))
FLOOR_LSM(inode_unlink, (void)0)
FLOOR_LSM(inode_rmdir, (void)0)
