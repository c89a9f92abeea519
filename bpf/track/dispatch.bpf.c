// SPDX-License-Identifier: GPL-2.0
/*
 * Every function pdtrace hooks that is entered with no lock held, behind two
 * kprobe.multi programs: one at entry, one at return. A fentry program there could be
 * preempted and make the hook skip every other task's call meanwhile; a kprobe.multi
 * program runs with preemption off, so the kernel skips a run only when it nests in
 * an interrupt over another program, and counts it. One link for all of them: each
 * kprobe.multi link costs a registration with ftrace, which is slow to attach. User
 * space gives each function its enum pdt_hook_id as the attach cookie.
 */
/* ctx is the entry registers (arm64: add_stack() puts the caller back in). */
#define PDT_KPROBE_CTX
#include "common.bpf.h"
#include "origin.bpf.h"
#include "persist.bpf.h"
#include "removal.bpf.h"
#include "shutdown.bpf.h"

SEC("kprobe.multi")
int pdt_enter(struct pt_regs *ctx)
{
	void *a1 = (void *)PT_REGS_PARM1(ctx), *a2 = (void *)PT_REGS_PARM2(ctx);

#ifdef PDT_STREAM_FLOOR
	u64 hook = bpf_get_attach_cookie(ctx);

	if (hook == PDT_HK_PERSIST || hook == PDT_HK_DISCARD)
		return stream_floor(a1);
#endif
	PDT_FLOOR_RETURN; /* the empty-programs floor: not even the cookie */
	switch (bpf_get_attach_cookie(ctx)) {
	case PDT_HK_PERSIST:
		return on_persist(ctx, a1, a2);
	case PDT_HK_DISCARD:
		return on_discard(ctx, a1);
	case PDT_HK_CREATE:
		return mark(a2);
	case PDT_HK_LINK:
		return mark((void *)PT_REGS_PARM3(ctx));
	case PDT_HK_REMOVE:
		return mark_remove(a2);
	case PDT_HK_RENAME:
		return mark_rename(a2, PT_REGS_PARM5(ctx));
	case PDT_HK_REMOVAL:
		return removal_enter(ctx, a1);
	case PDT_HK_REMOVAL_ARG2:
		return removal_enter(ctx, a2);
	case PDT_HK_UMOUNT:
		return umount_enter();
	case PDT_HK_SHUTDOWN:
		return shutdown_enter(a1);
	}
	return 0;
}

SEC("kretprobe.multi")
int pdt_return(struct pt_regs *ctx)
{
	PDT_FLOOR_RETURN;
	switch (bpf_get_attach_cookie(ctx)) {
	case PDT_HK_REMOVAL:
	case PDT_HK_REMOVAL_ARG2:
		return removal_exit();
	case PDT_HK_UMOUNT:
		return umount_exit();
	case PDT_HK_SHUTDOWN:
		return shutdown_exit();
	}
	return 0;
}
