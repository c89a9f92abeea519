// SPDX-License-Identifier: GPL-2.0
/*
 * Every function pdtrace hooks that is entered with no lock held, behind two
 * kprobe.multi programs: dispatch_entry at entry of most, dispatch_session at entry and return of
 * the brackets (a kprobe.session). A fentry program there could be preempted and make
 * the hook skip every other task's call meanwhile; a kprobe.multi program runs with
 * preemption off, so the kernel skips a run only when it nests in an interrupt over
 * another program, and counts it. One link for each: a kprobe.multi link costs a
 * registration with ftrace, which is slow to attach. User space gives each function
 * its enum pdt_hook_id as the attach cookie, and then the table of hook_id() (pdtrace.h).
 */
#include "common.bpf.h"
#include "origin.bpf.h"
#include "persist.bpf.h"
#include "removal.bpf.h"
#include "shutdown.bpf.h"
#include "hook_id.bpf.h"

SEC("kprobe.multi")
int dispatch_entry(struct pt_regs *ctx)
{
	void *a1 = (void *)PT_REGS_PARM1(ctx), *a2 = (void *)PT_REGS_PARM2(ctx);
	u64 hook;

	hook = entry_hook_id(ctx);
	switch (hook) {
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
	}
	return 0;
}

/*
 * The brackets (removals, umounts, shutdowns): one kprobe.session program, run at entry
 * and at return of each: one fprobe on the function graph tracer, where a program at
 * entry and one at return would be two, each with its own ftrace callback
 * (docs/overhead.md measures it). The return runs only when the entry ran, so a skipped
 * entry (counted) leaves no bracket to close. User space attaches it by address.
 */
SEC("kprobe.session")
int dispatch_session(struct pt_regs *ctx)
{
	void *a1 = (void *)PT_REGS_PARM1(ctx), *a2 = (void *)PT_REGS_PARM2(ctx);
	u64 hook = hook_id(ctx);

	if (bpf_session_is_return(ctx)) {
		switch (hook) {
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
	/*
	 * Until user space has the link it keeps (tracker.c attaches it again when the
	 * kernel gave it function graph index 0), a call is skipped whole: 1 at entry
	 * runs no return, so no bracket opens on a link that then goes away.
	 */
	if (!*(volatile __u32 *)&pdt_brackets_live)
		return 1;
	switch (hook) {
	case PDT_HK_REMOVAL:
	case PDT_HK_REMOVAL_ARG2: /* one place: the verifier checks it once */
		removal_enter(ctx, hook == PDT_HK_REMOVAL ? a1 : a2);
		break;
	case PDT_HK_UMOUNT:
		umount_enter();
		break;
	case PDT_HK_SHUTDOWN:
		shutdown_enter(a1);
		break;
	}
	return 0; /* 0 at entry: the return runs too */
}
