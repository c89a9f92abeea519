/* SPDX-License-Identifier: GPL-2.0 */
/* A dentry's path from its superblock's root, for events (built in path.bpf.c). */
#ifndef PDT_PATH_BPF_H
#define PDT_PATH_BPF_H

#include "common.bpf.h"

/*
 * Path of the dentry at a from its superblock's root, built right to left in the
 * per-CPU scratch buffer (offsets masked so the verifier can bound every access):
 * where it starts there. Too deep or too long a path keeps its leaf end and starts
 * with "...". Global functions: each is verified once per program, not at each of the
 * many places an event takes a path. Two drivers of one step: the persist and discard
 * handlers, which take the paths of every kernel-made entry, unroll its loop
 * (fill_path_unrolled()); the others, which take paths rarely (umount, renames, the
 * self-check, an entry's materialization), run it as a bpf_loop() callback, checked
 * once, for the cost of a call per component (fill_path()).
 */
u32 pdt_build_path(u64 a);
u32 pdt_build_path_loop(u64 a);

/* The path that starts at pos in the scratch buffer into out (PDT_PATH_LEN bytes). */
static __always_inline void copy_path(u32 pos, char *out)
{
	struct pdt_scratch *s;
	u32 zero = 0, len;

	s = bpf_map_lookup_elem(&scratch, &zero);

	if (!s) {
		out[0] = '\0';
		return;
	}
	/* Its length is known: one copy, not the string helper's byte at a time. */
	len = PDT_SCRATCH_MASK + 1 - (pos & PDT_SCRATCH_MASK);
	if (len > PDT_PATH_LEN)
		len = PDT_PATH_LEN;
	bpf_probe_read_kernel(out, len, &s->buf[pos & PDT_SCRATCH_MASK]);
	out[PDT_PATH_LEN - 1] = '\0';
}

/* d's path into out (PDT_PATH_LEN bytes), by the bpf_loop() builder. */
static __always_inline void fill_path(struct dentry *d, char *out)
{
	copy_path(pdt_build_path_loop(addr_of(d)), out);
}

/* The same by the unrolled one: the dispatcher's, for every kernel-made entry's path. */
static __always_inline void fill_path_unrolled(struct dentry *d, char *out)
{
	copy_path(pdt_build_path(addr_of(d)), out);
}

#endif
