// SPDX-License-Identifier: GPL-2.0
/*
 * The elided set's global functions (elide.bpf.h): the verifier checks each once per
 * program that calls it, not at each of its callers.
 */
#include "elide.bpf.h"

__noinline long pdt_elided_key(u64 d)
{
	u32 k;

	return elided_probe(d, &k) ? (long)k : -1;
}

__noinline int pdt_send_elided(u32 key)
{
	struct pdt_elided *m = bpf_map_lookup_elem(&elided, &key);
	struct pdt_event_full *e;
	char comm[PDT_COMM_LEN];
	struct inode *inode;
	struct dentry *d;
	u32 slot, pid, ks;
	u64 a;

	if (!m)
		return 0;
	a = m->dentry;
	slot = m->slot & (PDT_SB_SLOTS - 1);
	ks = m->kstack;
	pid = m->pid;
	__builtin_memcpy(comm, m->comm, sizeof(comm));
	if (!elided_take(m, a))
		return 0;
	__sync_fetch_and_add(&pdt_slots[slot].live, -1);
	d = as_dentry((void *)a);
	e = reserve_full_sb(PDT_EV_PERSIST, d, NULL, false, PDT_NO_SLOT);
	if (!e)
		return 0; /* counted lost: the books are incomplete, the count stays in the slot */
	__sync_fetch_and_add(&pdt_slots[slot].made, -1);
	e->h.flags = PDT_F_MATERIALIZED | (e->h.flags & PDT_F_WAS_POSITIVE);
	e->h.origin = ks ? PDT_ORIGIN_KERNEL : PDT_ORIGIN_USER;
	if (ks)
		kstack_fill(ks, e);
	e->h.pid = pid;
	__builtin_memcpy(e->h.comm, comm, sizeof(comm));
	inode = d->d_inode;
	if (inode && PDT_S_ISDIR(inode->i_mode))
		e->h.flags |= PDT_F_IS_DIR;
	fill_path(d, e->path);
	submit(e);
	return 0;
}

static int ancestor_step(u32 i, u64 *cur)
{
	u64 parent = (u64)BPF_CORE_READ((struct dentry *)*cur, d_parent);
	long k;

	if (!*cur || parent == *cur)
		return 1;
	k = pdt_elided_key(*cur);
	if (k >= 0)
		pdt_send_elided(k);
	*cur = parent;
	return 0;
}

/*
 * The entry, then its elided ancestors: the books rebuild a path longer than the
 * BPF side sends from the entries above it, and count the entries below each.
 */
__noinline int pdt_materialize(u32 key)
{
	struct pdt_elided *m = bpf_map_lookup_elem(&elided, &key);
	u64 cur;

	if (!m)
		return 0;
	cur = m->dentry;
	pdt_send_elided(key);
	if (cur)
		cur = (u64)BPF_CORE_READ((struct dentry *)cur, d_parent);
	bpf_loop(PDT_MAX_DEPTH, ancestor_step, &cur, 0);
	return 0;
}
