// SPDX-License-Identifier: GPL-2.0
/* Unit tests of doctor's verdict: made-up kernel facts in, rows and problems out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "hooks.h"
#include "requirements.h"

/* A kernel with everything: the 7.2 guest as doctor sees it. */
static void good_facts(struct pdt_facts *f)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	strcpy(f->release, "7.2.13+deb14-amd64");
	for (i = 0; i < pdt_nhooks; i++)
		f->funcs[i] = PDT_FUNC_PRESENT;
	f->persistent_flag = true;
	f->persistent_value = 1 << 27;
	f->cap_bpf = f->cap_perfmon = true;
	strcpy(f->lockdown, "none");
	f->attach_tried = true;
}

static int hook_index(const char *func)
{
	size_t i;

	for (i = 0; i < pdt_nhooks; i++)
		if (!strcmp(pdt_hooks[i].func, func))
			return (int)i;
	fail_msg("no hook %s", func);
	return -1;
}

static const struct pdt_row *row(const struct pdt_verdict *v, const char *what)
{
	int i;

	for (i = 0; i < v->nrows; i++)
		if (!strcmp(v->rows[i].what, what))
			return &v->rows[i];
	fail_msg("no row '%s'", what);
	return NULL;
}

static void test_good_kernel_can_trace(void **state)
{
	struct pdt_facts f;
	struct pdt_verdict v;

	(void)state;
	good_facts(&f);
	pdt_evaluate(&f, &v);
	assert_true(v.can_trace);
	assert_int_equal(v.nproblems, 0);
	assert_int_equal(row(&v, "fentry attach")->status, PDT_ST_OK);
	assert_string_equal(row(&v, "DCACHE_PERSISTENT")->detail, "enum dentry_flags = 0x8000000");
	/* One row per hook, plus BTF, the flag, privileges and attach. */
	assert_int_equal(v.nrows, (int)pdt_nhooks + 4);
}

/* The host's 6.18: no API, dput present, attach refused. Two one-line problems. */
static void test_kernel_without_api_and_eperm(void **state)
{
	struct pdt_facts f;
	struct pdt_verdict v;

	(void)state;
	good_facts(&f);
	strcpy(f.release, "6.18.44");
	f.funcs[hook_index("d_make_persistent")] = PDT_FUNC_ABSENT;
	f.funcs[hook_index("d_make_discardable")] = PDT_FUNC_ABSENT;
	f.persistent_flag = false;
	f.attach_err = -1;
	strcpy(f.attach_prog, "dput");
	pdt_evaluate(&f, &v);
	assert_false(v.can_trace);
	assert_int_equal(v.nproblems, 2);
	assert_string_equal(
	    v.problems[0],
	    "kernel 6.18.44 lacks the persistent-dentry API (missing from its BTF: "
	    "d_make_persistent(), d_make_discardable(), DCACHE_PERSISTENT): pdtrace "
	    "needs a kernel that has it, such as Debian's 7.2 (pdtrace's 'make demo' "
	    "boots one in a VM)");
	assert_non_null(strstr(v.problems[1], "attaching fentry programs is not permitted here "
					      "(EPERM on dput(); lockdown: none)"));
	assert_int_equal(row(&v, "d_make_persistent()")->status, PDT_ST_MISSING);
	assert_int_equal(row(&v, "hook dput()")->status, PDT_ST_OK);
	assert_int_equal(row(&v, "fentry attach")->status, PDT_ST_FAIL);
}

static void test_missing_optional_hook_does_not_block(void **state)
{
	struct pdt_facts f;
	struct pdt_verdict v;
	const struct pdt_row *r;

	(void)state;
	good_facts(&f);
	f.funcs[hook_index("select_collect_umount")] = PDT_FUNC_ABSENT;
	f.funcs[hook_index("configfs_rmdir")] = PDT_FUNC_NO_MODULE;
	pdt_evaluate(&f, &v);
	assert_true(v.can_trace);
	r = row(&v, "hook select_collect_umount()");
	assert_int_equal(r->status, PDT_ST_ABSENT);
	assert_string_equal(r->detail, "lost: counting of entries unpinned at umount");
	r = row(&v, "hook configfs_rmdir()");
	assert_non_null(strstr(r->detail, "module configfs not loaded"));
}

static void test_unprivileged(void **state)
{
	struct pdt_facts f;
	struct pdt_verdict v;

	(void)state;
	good_facts(&f);
	f.cap_bpf = true;
	f.cap_perfmon = false;
	f.attach_tried = false;
	pdt_evaluate(&f, &v);
	assert_false(v.can_trace);
	assert_int_equal(row(&v, "privileges")->status, PDT_ST_MISSING);
	assert_int_equal(row(&v, "fentry attach")->status, PDT_ST_SKIPPED);
	assert_string_equal(v.problems[0],
			    "insufficient privileges: run as root or with CAP_BPF and CAP_PERFMON");
}

static void test_sys_admin_is_enough(void **state)
{
	struct pdt_facts f;
	struct pdt_verdict v;

	(void)state;
	good_facts(&f);
	f.cap_bpf = f.cap_perfmon = false;
	f.cap_sys_admin = true;
	pdt_evaluate(&f, &v);
	assert_true(v.can_trace);
	assert_string_equal(row(&v, "privileges")->detail, "CAP_SYS_ADMIN");
}

static void test_no_btf_skips_function_checks(void **state)
{
	struct pdt_facts f;
	struct pdt_verdict v;

	(void)state;
	good_facts(&f);
	f.btf_err = -2;
	f.attach_tried = false;
	pdt_evaluate(&f, &v);
	assert_false(v.can_trace);
	assert_int_equal(row(&v, "kernel BTF")->status, PDT_ST_MISSING);
	assert_int_equal(row(&v, "d_make_persistent()")->status, PDT_ST_SKIPPED);
	assert_int_equal(row(&v, "DCACHE_PERSISTENT")->status, PDT_ST_SKIPPED);
	assert_non_null(strstr(row(&v, "kernel BTF")->detail, "CONFIG_DEBUG_INFO_BTF"));
	/* The reason is a problem line of its own, not "a required check failed". */
	assert_int_equal(v.nproblems, 1);
	assert_string_equal(
	    v.problems[0],
	    "no kernel BTF (/sys/kernel/btf/vmlinux: ENOENT): a kernel built without "
	    "CONFIG_DEBUG_INFO_BTF, or no sysfs mounted here");
}

/* BTF there but not walkable (a kind newer than pdtrace): a failure, not "no BTF". */
static void test_unreadable_btf_is_no_missing_config(void **state)
{
	struct pdt_facts f;
	struct pdt_verdict v;

	(void)state;
	good_facts(&f);
	f.btf_err = -71; /* EPROTO */
	f.attach_tried = false;
	pdt_evaluate(&f, &v);
	assert_false(v.can_trace);
	assert_int_equal(row(&v, "kernel BTF")->status, PDT_ST_FAIL);
	assert_null(strstr(row(&v, "kernel BTF")->detail, "CONFIG_DEBUG_INFO_BTF"));
	assert_int_equal(row(&v, "d_make_persistent()")->status, PDT_ST_SKIPPED);
	assert_int_equal(v.nproblems, 1);
	assert_string_equal(
	    v.problems[0], "cannot read the kernel's BTF (/sys/kernel/btf/vmlinux: EPROTO): a "
			   "BTF kind or layout newer than this pdtrace; a newer pdtrace is needed");
}

static void test_attach_other_error(void **state)
{
	struct pdt_facts f;
	struct pdt_verdict v;

	(void)state;
	good_facts(&f);
	f.attach_err = -524;
	strcpy(f.attach_prog, "d_make_persistent");
	pdt_evaluate(&f, &v);
	assert_false(v.can_trace);
	assert_string_equal(
	    v.problems[0],
	    "cannot attach an fentry program to d_make_persistent(): ENOTSUPP (524)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_kernel_can_trace),
		cmocka_unit_test(test_kernel_without_api_and_eperm),
		cmocka_unit_test(test_missing_optional_hook_does_not_block),
		cmocka_unit_test(test_unprivileged),
		cmocka_unit_test(test_sys_admin_is_enough),
		cmocka_unit_test(test_no_btf_skips_function_checks),
		cmocka_unit_test(test_unreadable_btf_is_no_missing_config),
		cmocka_unit_test(test_attach_other_error),
	};

	return cmocka_run_group_tests_name("requirements", tests, NULL, NULL);
}
