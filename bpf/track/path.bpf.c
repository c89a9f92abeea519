// SPDX-License-Identifier: GPL-2.0
/* The path builders path.bpf.h declares: global functions, each verified once. */
#include "path.bpf.h"

struct path_build {
	struct pdt_scratch *s;
	struct dentry *d; /* the next component's */
	u32 pos;	  /* where the path starts in s */
	bool truncated, at_root;
};

/* One component, d's name, before the rest; 1 ends the loop. */
static __always_inline int path_component(u32 i, struct path_build *b)
{
	struct dentry *d = b->d, *parent = d->d_parent;
	u32 len = d->d_name.len, pos = b->pos;

	if (parent == d || !parent) {
		b->at_root = true;
		return 1;
	}
	if (len > 255 || PDT_SCRATCH_MASK - pos + len + 1 > PDT_PATH_LEN - 5) {
		b->truncated = true;
		return 1;
	}
	pos -= len;
	bpf_probe_read_kernel(&b->s->buf[pos & PDT_SCRATCH_MASK], len & 255, d->d_name.name);
	pos -= 1;
	b->s->buf[pos & PDT_SCRATCH_MASK] = '/';
	b->pos = pos;
	b->d = parent;
	return 0;
}

static __always_inline bool path_start(struct path_build *b, u64 a)
{
	u32 zero = 0;

	b->s = bpf_map_lookup_elem(&scratch, &zero);
	b->d = as_dentry((void *)a);
	b->pos = PDT_SCRATCH_MASK;
	b->truncated = b->at_root = false;
	if (!b->s)
		return false;
	b->s->buf[PDT_SCRATCH_MASK] = '\0';
	return true;
}

/* The root's "/", or the "..." of a path cut short; where the path starts. */
static __always_inline u32 path_end(struct path_build *b)
{
	u32 pos = b->pos;

	if (!b->at_root && !b->truncated && b->d->d_parent != b->d)
		b->truncated = true; /* PDT_PATH_DEPTH components, and more above */
	if (pos == PDT_SCRATCH_MASK) {
		pos -= 1;
		b->s->buf[pos & PDT_SCRATCH_MASK] = '/';
	}
	if (b->truncated) {
		pos -= 3;
		b->s->buf[pos & PDT_SCRATCH_MASK] = '.';
		b->s->buf[(pos + 1) & PDT_SCRATCH_MASK] = '.';
		b->s->buf[(pos + 2) & PDT_SCRATCH_MASK] = '.';
	}
	return pos & PDT_SCRATCH_MASK;
}

__noinline u32 pdt_build_path(u64 a)
{
	struct path_build b;
	u32 i;

	if (!path_start(&b, a))
		return PDT_SCRATCH_MASK;
	for (i = 0; i < PDT_PATH_DEPTH; i++)
		if (path_component(i, &b))
			break;
	return path_end(&b);
}

__noinline u32 pdt_build_path_loop(u64 a)
{
	struct path_build b;

	if (!path_start(&b, a))
		return PDT_SCRATCH_MASK;
	bpf_loop(PDT_PATH_DEPTH, path_component, &b, 0);
	return path_end(&b);
}
