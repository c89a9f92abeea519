// SPDX-License-Identifier: GPL-2.0
/*
 * `pdtrace doctor`'s attach test: empty fentry programs on the required hooks.
 * Loading and attaching them is the only reliable way to learn whether this
 * kernel lets us trace (lockdown, a locked tracefs or an LSM can all say no).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

SEC("fentry/d_make_persistent")
int BPF_PROG(probe_persist, struct dentry *dentry, struct inode *inode)
{
	return 0;
}

SEC("fentry/d_make_discardable")
int BPF_PROG(probe_discard, struct dentry *dentry)
{
	return 0;
}

SEC("fentry/dput")
int BPF_PROG(probe_dput, struct dentry *dentry)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
