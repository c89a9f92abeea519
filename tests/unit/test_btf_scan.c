// SPDX-License-Identifier: GPL-2.0
/*
 * The raw scan of kernel BTF that doctor and every tracing command run at start, on
 * blobs built here: vmlinux-like, a module's split BTF on top, and broken ones.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/btf.h>
#include "btf_scan.h"

/* struct btf_type's info word (the uapi header has only its decoders). */
#define INFO(kind, vlen) ((uint32_t)(kind) << 24 | (uint32_t)(vlen))

/* A blob under construction: types, then strings, behind a header. */
struct blob {
	uint32_t types[512];
	size_t ntypes; /* words */
	char strs[1024];
	size_t nstrs;
	uint32_t str_base; /* split BTF: its base's string length */
};

static void blob_init(struct blob *b, uint32_t str_base)
{
	memset(b, 0, sizeof(*b));
	b->nstrs = 1; /* offset 0: the empty name */
	b->str_base = str_base;
}

static uint32_t str(struct blob *b, const char *s)
{
	uint32_t off = (uint32_t)b->nstrs + b->str_base;

	memcpy(b->strs + b->nstrs, s, strlen(s) + 1);
	b->nstrs += strlen(s) + 1;
	return off;
}

static void word(struct blob *b, uint32_t w)
{
	b->types[b->ntypes++] = w;
}

/* A type's struct btf_type: name, kind, vlen, and its size or type word. */
static void type(struct blob *b, uint32_t name_off, int kind, uint32_t vlen, uint32_t size)
{
	word(b, name_off);
	word(b, INFO(kind, vlen));
	word(b, size);
}

/* The blob as the kernel's file holds it; len gets its length. */
static void *blob_bytes(const struct blob *b, size_t *len)
{
	struct btf_header h = {
		.magic = BTF_MAGIC,
		.version = BTF_VERSION,
		.hdr_len = sizeof(h),
		.type_off = 0,
		.type_len = (uint32_t)(b->ntypes * 4),
		.str_off = (uint32_t)(b->ntypes * 4),
		.str_len = (uint32_t)b->nstrs,
	};
	char *p;

	*len = sizeof(h) + h.type_len + h.str_len;
	p = malloc(*len);
	assert_non_null(p);
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), b->types, h.type_len);
	memcpy(p + sizeof(h) + h.type_len, b->strs, h.str_len);
	return p;
}

/*
 * A vmlinux-like blob: an int, a struct of two members, a function and its prototype,
 * a typedef, an enum and an enum64, a function of the same name as the enum's members.
 */
static void vmlinux_like(struct blob *b)
{
	uint32_t persistent = 0;

	blob_init(b, 0);
	type(b, str(b, "int"), BTF_KIND_INT, 0, 4);
	word(b, 32);
	type(b, str(b, "dentry"), BTF_KIND_STRUCT, 2, 16);
	word(b, str(b, "d_flags")), word(b, 1), word(b, 0);
	word(b, str(b, "d_parent")), word(b, 1), word(b, 64);
	type(b, 0, BTF_KIND_FUNC_PROTO, 1, 1);
	word(b, 0), word(b, 1);
	type(b, str(b, "d_make_persistent"), BTF_KIND_FUNC, 0, 3);
	type(b, str(b, "btf_trace_module_load"), BTF_KIND_TYPEDEF, 0, 3);
	type(b, str(b, "dentry_flags"), BTF_KIND_ENUM, 2, 4);
	word(b, str(b, "DCACHE_OP_HASH")), word(b, 1);
	word(b, persistent = str(b, "DCACHE_PERSISTENT")), word(b, 0x8000000);
	type(b, str(b, "wide"), BTF_KIND_ENUM64, 1, 8);
	word(b, persistent), word(b, 0x2), word(b, 0x1);
	type(b, str(b, "dput"), BTF_KIND_FUNC, 0, 3);
}

static struct btf_scan *scan_of(const struct blob *b, const struct btf_scan *base)
{
	size_t len;
	void *data = blob_bytes(b, &len);
	int err = 1;
	struct btf_scan *s = btf_scan_from_mem(data, len, base, &err);

	assert_non_null(s);
	assert_int_equal(err, 0);
	return s;
}

static void test_finds_functions_typedefs_and_enumerators(void **state)
{
	struct btf_want w[] = {
		{ .name = "dput", .kind = BTF_KIND_FUNC },
		{ .name = "d_make_persistent", .kind = BTF_KIND_FUNC },
		{ .name = "btf_trace_module_load", .kind = BTF_KIND_TYPEDEF },
		{ .name = "dentry_flags", .kind = BTF_KIND_ENUM, .member = "DCACHE_PERSISTENT" },
		{ .name = "wide", .kind = BTF_KIND_ENUM, .member = "DCACHE_PERSISTENT" },
		/* Absent, or there as another kind, or an enum without that member. */
		{ .name = "d_make_discardable", .kind = BTF_KIND_FUNC },
		{ .name = "dentry", .kind = BTF_KIND_FUNC },
		{ .name = "btf_trace_module_load", .kind = BTF_KIND_FUNC },
		{ .name = "dentry_flags", .kind = BTF_KIND_ENUM, .member = "DCACHE_GONE" },
		{ .name = "d_", .kind = BTF_KIND_FUNC },
	};
	struct blob b;
	struct btf_scan *s;
	size_t i;

	(void)state;
	vmlinux_like(&b);
	s = scan_of(&b, NULL);
	w[5].found = true; /* a scan starts from nothing found */
	assert_int_equal(btf_scan_find(s, w, sizeof(w) / sizeof(w[0])), 0);
	for (i = 0; i < 5; i++)
		assert_true(w[i].found);
	for (; i < sizeof(w) / sizeof(w[0]); i++)
		assert_false(w[i].found);
	assert_int_equal(w[3].value, 0x8000000);
	assert_int_equal(w[4].value, 0x100000002LL);
	btf_scan_free(s);
}

/* A module's split BTF: its own names follow vmlinux's strings, and it may use those. */
static void test_split_btf_names_in_module_and_base(void **state)
{
	struct btf_want w[] = {
		{ .name = "configfs_rmdir", .kind = BTF_KIND_FUNC },
		{ .name = "dput", .kind = BTF_KIND_FUNC },
		{ .name = "d_make_persistent", .kind = BTF_KIND_FUNC },
	};
	struct blob base, mod;
	struct btf_scan *vmlinux, *s;

	(void)state;
	vmlinux_like(&base);
	vmlinux = scan_of(&base, NULL);
	blob_init(&mod, (uint32_t)base.nstrs);
	type(&mod, str(&mod, "configfs_rmdir"), BTF_KIND_FUNC, 0, 3);
	type(&mod, 1 + 4 /* "dentry" in the base's strings */, BTF_KIND_FUNC, 0, 3);
	s = scan_of(&mod, vmlinux);
	assert_int_equal(btf_scan_find(s, w, 3), 0);
	assert_true(w[0].found);
	assert_false(w[1].found); /* vmlinux's, not the module's */
	assert_false(w[2].found);
	w[1].name = "dentry";
	assert_int_equal(btf_scan_find(s, w, 3), 0);
	assert_true(w[1].found);
	btf_scan_free(s);
	btf_scan_free(vmlinux);
}

static int open_err(const void *data, size_t len)
{
	void *copy = malloc(len ? len : 1);
	int err = 0;

	assert_non_null(copy);
	memcpy(copy, data, len);
	assert_null(btf_scan_from_mem(copy, len, NULL, &err));
	return err;
}

/* Not BTF, or sections past the end, or strings without their last NUL: refused whole. */
static void test_bad_layouts_refused(void **state)
{
	struct btf_header *h;
	struct blob b;
	size_t len;
	char *p;

	(void)state;
	vmlinux_like(&b);
	p = blob_bytes(&b, &len);
	h = (struct btf_header *)p;
	assert_int_equal(open_err(p, 8), -EPROTO);
	h->magic = 0x9feb; /* the other byte order */
	assert_int_equal(open_err(p, len), -EPROTO);
	h->magic = BTF_MAGIC;
	assert_int_equal(open_err(p, len - 1), -EPROTO);
	h->str_len--;
	assert_int_equal(open_err(p, len), -EPROTO); /* its last byte is no longer a NUL */
	h->str_len++;
	h->hdr_len = (uint32_t)len + 1;
	assert_int_equal(open_err(p, len), -EPROTO);
	free(p);
}

/* A kind newer than this code, or a type cut short, stops the walk with -EPROTO. */
static void test_unknown_kind_and_short_type(void **state)
{
	struct btf_want w = { .name = "dput", .kind = BTF_KIND_FUNC };
	struct btf_scan *s;
	struct blob b;

	(void)state;
	vmlinux_like(&b);
	b.types[1] = INFO(BTF_KIND_ENUM64 + 5, 0); /* the first type, an int */
	s = scan_of(&b, NULL);
	assert_int_equal(btf_scan_find(s, &w, 1), -EPROTO);
	btf_scan_free(s);

	vmlinux_like(&b);
	type(&b, str(&b, "late"), BTF_KIND_STRUCT, 3, 8); /* its members are missing */
	s = scan_of(&b, NULL);
	assert_int_equal(btf_scan_find(s, &w, 1), -EPROTO);
	btf_scan_free(s);
}

/* From a file: a mapping of a plain file, a read of a pipe (as of a module's BTF). */
static void test_open_file_pipe_and_missing(void **state)
{
	struct btf_want w = { .name = "d_make_persistent", .kind = BTF_KIND_FUNC };
	char path[64], tmpl[] = "/tmp/pdt-btf-XXXXXX";
	struct btf_scan *s;
	struct blob b;
	int fd, fds[2], err = 1;
	size_t len;
	void *p;

	(void)state;
	vmlinux_like(&b);
	p = blob_bytes(&b, &len);
	fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, len), (ssize_t)len);
	close(fd);
	s = btf_scan_open(tmpl, NULL, &err);
	unlink(tmpl);
	assert_non_null(s);
	assert_int_equal(err, 0);
	assert_int_equal(btf_scan_find(s, &w, 1), 0);
	assert_true(w.found);
	btf_scan_free(s);

	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], p, len), (ssize_t)len);
	close(fds[1]);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
	s = btf_scan_open(path, NULL, &err);
	close(fds[0]);
	assert_non_null(s);
	assert_int_equal(btf_scan_find(s, &w, 1), 0);
	assert_true(w.found);
	btf_scan_free(s);
	free(p);

	assert_null(btf_scan_open("/nonexistent/btf/vmlinux", NULL, &err));
	assert_int_equal(err, -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_finds_functions_typedefs_and_enumerators),
		cmocka_unit_test(test_split_btf_names_in_module_and_base),
		cmocka_unit_test(test_bad_layouts_refused),
		cmocka_unit_test(test_unknown_kind_and_short_type),
		cmocka_unit_test(test_open_file_pipe_and_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
