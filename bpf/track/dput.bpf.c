// SPDX-License-Identifier: GPL-2.0
/*
 * dput() is the hottest function of the VFS: leave after one flag test unless the
 * dentry is persistent. A legitimate dput() of a persistent dentry always sees
 * count >= 2 (the persistence reference plus the caller's); <= 1 means the caller
 * is dropping the persistence reference itself.
 */
#include "common.bpf.h"
#include "event.bpf.h"
#include "elide.bpf.h"

SEC("fentry/dput")
int BPF_PROG(dput, struct dentry *dentry)
{
	struct pdt_event_full *e;

	if (!dentry || !(dentry->d_flags & persistent_bit()))
		return 0;
	if (dentry->d_lockref.count > 1)
		return 0;
	/* The filters above stay outside: they are the whole cost of nearly every call. */
	bpf_preempt_disable();
	materialize_if(addr_of(dentry));
	e = emit_full(ctx, PDT_EV_DPUT, dentry);
	if (e)
		submit(e);
	bpf_preempt_enable();
	return 0;
}
