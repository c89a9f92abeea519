/* SPDX-License-Identifier: GPL-2.0 */
/* Which hooked function a dispatcher runs for (the table of pdtrace.h, or the cookie). */
#ifndef PDT_HOOK_ID_BPF_H
#define PDT_HOOK_ID_BPF_H

#include "common.bpf.h"

/* How many of the table's entries (pdtrace.h) user space has written: 0, then all. */
static __always_inline u32 hook_count(void)
{
	return *(volatile __u32 *)&pdt_nhook_ips;
}

/*
 * The place among the table's first n entries of the function that starts less than
 * span bytes before ip: PDT_HOOK_IPS when none does. n is hook_count() read once by
 * the caller, which may ask again whether the table was written.
 */
static __always_inline u32 hook_find(u64 ip, u64 span, u32 n)
{
	u32 i;

#pragma unroll
	for (i = 0; i < PDT_HOOK_IPS; i++)
		if (i < n && ip - pdt_hook_ips[i].ip < span)
			return i;
	return PDT_HOOK_IPS;
}

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

#endif
