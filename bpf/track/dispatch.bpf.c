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
/* ctx is the entry registers (arm64: add_stack() puts the caller back in). */
#define PDT_KPROBE_CTX
#include "common.bpf.h"
#include "origin.bpf.h"
#include "persist.bpf.h"
#include "removal.bpf.h"
#include "shutdown.bpf.h"

/* The hooked function's enum pdt_hook_id: by its address ip, else by the link's cookie. */
static __always_inline u64 hook_at(struct pt_regs *ctx, u64 ip, u64 span)
{
	u32 n = hook_count(), i;

	if (n) {
		i = hook_find(ip, span, n);
		if (i < PDT_HOOK_IPS)
			return pdt_hook_ips[i].id;
	}
	return bpf_get_attach_cookie(ctx);
}

/* The brackets': bpf_get_func_ip() is the function's address at its return too. */
static __always_inline u64 hook_id(struct pt_regs *ctx)
{
	return hook_at(ctx, bpf_get_func_ip(ctx), 1);
}

/*
 * At a function's entry. On x86-64 the registers' ip is within its first bytes
 * (PDT_FENTRY_SPAN): a load, where bpf_get_func_ip() is a helper call, at each persist
 * and discard. (At a session's return they hold no ip of the function.)
 */
static __always_inline u64 entry_hook_id(struct pt_regs *ctx)
{
#ifdef __TARGET_ARCH_x86
	return hook_at(ctx, PT_REGS_IP(ctx), PDT_FENTRY_SPAN);
#else
	return hook_id(ctx);
#endif
}

#ifdef PDT_STACK_FLOOR
/*
 * The floor of keeping creation stacks (make stack-floor): the marks that tell a user's
 * create from the kernel's, and the kernel stack of each entry the kernel makes, taken
 * as pdtrace takes it (the kernel's unwinder), into scratch space.
 * Whatever else a design does with kernel-made entries comes on top.
 */
static __always_inline int stack_floor(struct pt_regs *ctx, u64 hook, void *a1, void *a2)
{
	struct pdt_task_state *t;

	if (hook == PDT_HK_CREATE)
		return mark(a2);
	if (hook == PDT_HK_LINK)
		return mark((void *)PT_REGS_PARM3(ctx));
	if (hook != PDT_HK_PERSIST)
		return 0;
	t = task_state(false);
	if (origin_of(t, as_dentry(a1)) == PDT_ORIGIN_USER)
		return 0;
	stack_scratch(ctx);
	return 0;
}
#endif

SEC("kprobe.multi")
int dispatch_entry(struct pt_regs *ctx)
{
	void *a1 = (void *)PT_REGS_PARM1(ctx), *a2 = (void *)PT_REGS_PARM2(ctx);
	u64 hook;

#ifdef PDT_STREAM_FLOOR
	hook = entry_hook_id(ctx);

	if (hook == PDT_HK_PERSIST || hook == PDT_HK_DISCARD)
		return stream_floor(a1);
#endif
#ifdef PDT_STACK_FLOOR
	return stack_floor(ctx, entry_hook_id(ctx), a1, a2);
#endif
	PDT_FLOOR_RETURN; /* the empty-programs floor: not even the hook's id */
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

/* The session kfunc (7.2's signature): is this the run at the function's return? */
extern bool bpf_session_is_return(void *ctx) __ksym;

/*
 * The brackets (removals, umounts, shutdowns): one kprobe.session program, run at entry
 * and at return of each. A session is one fprobe, on the function graph tracer, where a
 * program at entry and one at return were two fprobes: the entry's own ftrace callback
 * cost a configfs rmdir about a third of its bracket. The return runs only when the
 * entry ran, so a skipped entry (counted) leaves no bracket to close. User space attaches
 * it to its functions by address (tracker.c).
 */
SEC("kprobe.session")
int dispatch_session(struct pt_regs *ctx)
{
	void *a1 = (void *)PT_REGS_PARM1(ctx), *a2 = (void *)PT_REGS_PARM2(ctx);
	u64 hook;

	PDT_FLOOR_RETURN;
	hook = hook_id(ctx);
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
