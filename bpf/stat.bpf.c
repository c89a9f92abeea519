// SPDX-License-Identifier: GPL-2.0
/*
 * `pdtrace stat`: count d_make_persistent() and d_make_discardable() calls per
 * superblock. Keyed by s_dev so that no kernel address reaches user space.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "pdtrace.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PDT_MAX_SB);
	__type(key, u32);
	__type(value, struct pdt_sb_stat);
} sb_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PDT_CNT_MAX);
	__type(key, u32);
	__type(value, u64);
} counters SEC(".maps");

static void bump_counter(u32 idx)
{
	u64 *c = bpf_map_lookup_elem(&counters, &idx);

	if (c)
		*c += 1;
}

static struct pdt_sb_stat *sb_stat(struct super_block *sb)
{
	u32 dev = BPF_CORE_READ(sb, s_dev);
	struct pdt_sb_stat *st, init = {};

	st = bpf_map_lookup_elem(&sb_stats, &dev);
	if (st)
		return st;
	bpf_probe_read_kernel_str(init.fs_type, sizeof(init.fs_type),
				  BPF_CORE_READ(sb, s_type, name));
	bpf_probe_read_kernel_str(init.s_id, sizeof(init.s_id), sb->s_id);
	/* Another CPU may have inserted it meanwhile: BPF_NOEXIST keeps its counts. */
	bpf_map_update_elem(&sb_stats, &dev, &init, BPF_NOEXIST);
	st = bpf_map_lookup_elem(&sb_stats, &dev);
	if (!st)
		bump_counter(PDT_CNT_SB_FULL);
	return st;
}

SEC("fentry/d_make_persistent")
int BPF_PROG(stat_persist, struct dentry *dentry, struct inode *inode)
{
	struct pdt_sb_stat *st = sb_stat(BPF_CORE_READ(dentry, d_sb));

	if (st)
		__sync_fetch_and_add(&st->made, 1);
	return 0;
}

SEC("fentry/d_make_discardable")
int BPF_PROG(stat_discard, struct dentry *dentry)
{
	struct pdt_sb_stat *st = sb_stat(BPF_CORE_READ(dentry, d_sb));

	if (st)
		__sync_fetch_and_add(&st->discarded, 1);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
