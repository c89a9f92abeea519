// SPDX-License-Identifier: GPL-2.0
/* Unit tests of finding signatures: stable across KASLR, rebuilds and variable names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "fixtures.h"
#include "ksyms.h"
#include "rules.h"
#include "signature.h"

/* One kernel's symbols at a base address: KASLR moves them all together. */
static struct ksyms *syms_at(unsigned long long base, unsigned long long mod_base, const char *cold)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "%llx t d_make_discardable\n"
		 "%llx T vfs_write\n"
		 "%llx T ksys_write\n"
		 "%llx T do_syscall_64\n"
		 "%llx T entry_SYSCALL_64_after_hwframe\n"
		 "%llx t bpf_prog_1234_pdt_entry\t[bpf]\n"
		 "%llx t pdt_orphan\t[pdt_faultfs]\n"
		 "%llx t pdt_ctl_write%s\t[pdt_faultfs]\n",
		 base, base + 0x100, base + 0x200, base + 0x300, base + 0x400, base + 0x500,
		 mod_base, mod_base + 0x100, cold);
	return fixture_ksyms(text);
}

/*
 * An orphaned leak as one boot sees it: frames at the given bases, with offsets off
 * into each function (a rebuilt module moves them).
 */
static void orphan_at(struct pdt_finding *f, unsigned long long base, unsigned long long mod_base,
		      unsigned long long off)
{
	const unsigned long long st[] = {
		base + 0x500 + off, /* our BPF program: not shown, not signed */
		base + 9,	    /* d_make_discardable: the hook */
		mod_base + off,	    /* pdt_orphan */
		mod_base + 0x100 + off,
		base + 0x100 + off,
		base + 0x200 + off,
		base + 0x300 + off,
		base + 0x400 + off,
	};

	memset(f, 0, sizeof(*f));
	f->kind = PDT_KIND_LEAK;
	f->rule_id = PDT_R_ORPHANED;
	f->rule = pdt_rule_table[PDT_R_ORPHANED].name;
	strcpy(f->fs_type, "pdtfaultfs");
	f->dev = 27;
	f->pid = (unsigned int)off;
	strcpy(f->path, "/od/child");
	f->origin = PDT_ORIGIN_KERNEL;
	f->nstack = sizeof(st) / sizeof(st[0]);
	memcpy(f->stack, st, sizeof(st));
}

static void test_stable_across_boots(void **state)
{
	struct ksyms *a = syms_at(0xffffffff81000000ULL, 0xffffffffc0000000ULL, ".cold");
	struct ksyms *b = syms_at(0xffffffff9a200000ULL, 0xffffffffc0a40000ULL, "");
	struct pdt_finding f;
	struct pdt_sig s1, s2;

	(void)state;
	orphan_at(&f, 0xffffffff81000000ULL, 0xffffffffc0000000ULL, 4);
	pdt_sig_make(&s1, &f, a);
	/* Another boot, another KASLR slide, a rebuilt module (no .cold part), other dev. */
	orphan_at(&f, 0xffffffff9a200000ULL, 0xffffffffc0a40000ULL, 0x18);
	f.dev = 42;
	pdt_sig_make(&s2, &f, b);
	assert_string_equal(s1.hex, s2.hex);
	assert_string_equal(s1.key, s2.key);
	/* The hook and the entry frames left out, the compiler's suffix dropped. */
	assert_string_equal(s1.key, "leak/orphaned pdtfaultfs /od/child | at pdt_orphan "
				    "[pdt_faultfs], pdt_ctl_write [pdt_faultfs], vfs_write");
	/* The scheme is part of the interface: baselines hold these digests. */
	assert_string_equal(s1.hex, "2866cea668130244");
	assert_null(strstr(s1.key, "0x"));
	ksyms_free(a);
	ksyms_free(b);
}

static void test_what_tells_findings_apart(void **state)
{
	struct ksyms *k = syms_at(0xffffffff81000000ULL, 0xffffffffc0000000ULL, "");
	struct pdt_finding f;
	struct pdt_sig base, s;

	(void)state;
	orphan_at(&f, 0xffffffff81000000ULL, 0xffffffffc0000000ULL, 4);
	pdt_sig_make(&base, &f, k);
	strcpy(f.path, "/od/child2");
	pdt_sig_make(&s, &f, k);
	assert_string_not_equal(base.hex, s.hex);
	strcpy(f.path, "/od/child");
	f.rule_id = PDT_R_PINNED_AFTER_UMOUNT;
	f.rule = pdt_rule_table[f.rule_id].name;
	pdt_sig_make(&s, &f, k);
	assert_string_not_equal(base.hex, s.hex);
	orphan_at(&f, 0xffffffff81000000ULL, 0xffffffffc0000000ULL, 4);
	strcpy(f.fs_type, "tmpfs");
	pdt_sig_make(&s, &f, k);
	assert_string_not_equal(base.hex, s.hex);
	/* Another code path: pdt_orphan's frame gone. */
	orphan_at(&f, 0xffffffff81000000ULL, 0xffffffffc0000000ULL, 4);
	memmove(&f.stack[2], &f.stack[3], (f.nstack - 3) * sizeof(f.stack[0]));
	f.nstack--;
	pdt_sig_make(&s, &f, k);
	assert_string_not_equal(base.hex, s.hex);
	ksyms_free(k);
}

/* Digit runs are instance numbers, ids, pids: "#", so /inst3 and /inst42 are one bug. */
static void test_path_normalised(void **state)
{
	struct ksyms *k = syms_at(0xffffffff81000000ULL, 0xffffffffc0000000ULL, "");
	struct pdt_finding f;
	struct pdt_sig s1, s2, s3;
	char buf[64];

	(void)state;
	pdt_sig_path("/gadget/g12/functions/ffs.usb0/ep3", buf, sizeof(buf));
	assert_string_equal(buf, "/gadget/g#/functions/ffs.usb#/ep#");
	pdt_sig_path("/12345678", buf, 4);
	assert_string_equal(buf, "/#");
	orphan_at(&f, 0xffffffff81000000ULL, 0xffffffffc0000000ULL, 4);
	strcpy(f.path, "/inst3/child");
	pdt_sig_make(&s1, &f, k);
	strcpy(f.path, "/inst42/child");
	pdt_sig_make(&s2, &f, k);
	strcpy(f.path, "/inst/child");
	pdt_sig_make(&s3, &f, k);
	assert_string_equal(s1.hex, s2.hex);
	assert_string_not_equal(s1.hex, s3.hex);
	assert_non_null(strstr(s1.key, " /inst#/child | "));
	ksyms_free(k);
}

/*
 * The kernel's creation stack is part of the signature; a user's is not (kept only with
 * --user-stacks: the signature must not depend on an option).
 */
static void test_creation_frames(void **state)
{
	struct ksyms *k = syms_at(0xffffffff81000000ULL, 0xffffffffc0000000ULL, "");
	struct pdt_finding f;
	struct pdt_sig with, without;

	(void)state;
	orphan_at(&f, 0xffffffff81000000ULL, 0xffffffffc0000000ULL, 4);
	pdt_sig_make(&without, &f, k);
	f.ncreated = f.nstack;
	memcpy(f.created, f.stack, sizeof(f.created));
	pdt_sig_make(&with, &f, k);
	assert_string_not_equal(with.hex, without.hex);
	assert_non_null(strstr(with.key, " | made at pdt_orphan [pdt_faultfs], "));
	f.origin = PDT_ORIGIN_USER;
	pdt_sig_make(&with, &f, k);
	f.ncreated = 0;
	pdt_sig_make(&without, &f, k);
	assert_string_equal(with.hex, without.hex);
	assert_null(strstr(with.key, "made at"));
	ksyms_free(k);
}

/* Frames the symbol table does not know, and stacks with nothing but entry frames. */
static void test_unknown_and_generic_frames(void **state)
{
	struct ksyms *k = syms_at(0xffffffff81000000ULL, 0xffffffffc0000000ULL, "");
	struct pdt_finding f;
	struct pdt_sig s;

	(void)state;
	assert_true(pdt_sig_generic("entry_SYSCALL_64_after_hwframe"));
	assert_true(pdt_sig_generic("__x64_sys_openat"));
	assert_true(pdt_sig_generic("__arm64_sys_write"));
	assert_true(pdt_sig_generic("invoke_syscall"));
	assert_true(pdt_sig_generic("el0_svc_common"));
	assert_true(pdt_sig_generic("el0t_64_sync_handler"));
	assert_false(pdt_sig_generic("vfs_write"));
	orphan_at(&f, 0xffffffff81000000ULL, 0xffffffffc0000000ULL, 4);
	f.stack[2] = 0x1000; /* unknown */
	f.nstack = 3;
	pdt_sig_make(&s, &f, k);
	assert_string_equal(s.key, "leak/orphaned pdtfaultfs /od/child | at");
	f.nstack = 0;
	f.path[0] = '\0';
	pdt_sig_make(&s, &f, k);
	assert_string_equal(s.key, "leak/orphaned pdtfaultfs ? | at");
	assert_int_equal(strlen(s.hex), 16);
	ksyms_free(k);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stable_across_boots),
		cmocka_unit_test(test_what_tells_findings_apart),
		cmocka_unit_test(test_path_normalised),
		cmocka_unit_test(test_creation_frames),
		cmocka_unit_test(test_unknown_and_generic_frames),
	};

	return cmocka_run_group_tests_name("signature", tests, NULL, NULL);
}
