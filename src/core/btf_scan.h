/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names in the kernel's BTF, found in one pass over the raw blob. libbpf parses and
 * indexes vmlinux BTF at load anyway; parsing it a second time only to ask whether a
 * few dozen functions exist cost start-up a tenth of a second under emulation.
 */
#ifndef PDT_BTF_SCAN_H
#define PDT_BTF_SCAN_H

#include <stdbool.h>
#include <stddef.h>

/* One name a scan looks for. */
struct btf_want {
	const char *name;   /* the type's name */
	int kind;	    /* BTF_KIND_FUNC, BTF_KIND_TYPEDEF, or BTF_KIND_ENUM (or ENUM64) */
	const char *member; /* BTF_KIND_ENUM: the enumerator wanted */
	bool found;
	long long value; /* the enumerator's value */
};

struct btf_scan;

/*
 * A BTF blob read from path (/sys/kernel/btf/vmlinux), or a module's split BTF on top
 * of base. NULL with *err = -errno: absent, unreadable, or not BTF this code can walk.
 */
struct btf_scan *btf_scan_open(const char *path, const struct btf_scan *base, int *err);
/* The same from memory, which the scan then owns (free()d with it). */
struct btf_scan *btf_scan_from_mem(void *data, size_t len, const struct btf_scan *base, int *err);
void btf_scan_free(struct btf_scan *s);
/*
 * Mark each of want[0..n) found (and an enumerator's value) in one pass over the types.
 * 0, or -EPROTO at a type it cannot walk (a kind newer than this code, a bad length).
 */
int btf_scan_find(const struct btf_scan *s, struct btf_want *want, size_t n);

#endif
