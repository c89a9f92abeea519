// SPDX-License-Identifier: GPL-2.0
/* Reading a kernel .config (doctor --config). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "kconfig.h"

static const char config[] = "#\n# Automatically generated file; DO NOT EDIT.\n"
			     "CONFIG_BPF=y\n"
			     "CONFIG_BPF_SYSCALL=y\n"
			     "# CONFIG_DEBUG_INFO_BTF is not set\n"
			     "CONFIG_OVERLAY_FS=m\n"
			     "CONFIG_NR_CPUS=64\n"
			     "CONFIG_LOCALVERSION=\"-test\"\n"
			     "CONFIG_9P_FS=y"; /* no newline at the end */

static void test_values(void **state)
{
	const char *v;
	size_t len;

	(void)state;
	v = pdt_kconfig_value(config, "CONFIG_NR_CPUS", &len);
	assert_non_null(v);
	assert_int_equal(len, 2);
	assert_memory_equal(v, "64", 2);
	v = pdt_kconfig_value(config, "CONFIG_LOCALVERSION", &len);
	assert_int_equal(len, 7);
	assert_null(pdt_kconfig_value(config, "CONFIG_DEBUG_INFO_BTF", &len)); /* not set */
	assert_null(pdt_kconfig_value(config, "CONFIG_KPROBES", &len));	       /* absent */
	assert_null(pdt_kconfig_value(config, "CONFIG_BP", &len)); /* a prefix is not a match */
}

static void test_enabled(void **state)
{
	(void)state;
	assert_true(pdt_kconfig_enabled(config, "CONFIG_BPF"));
	assert_true(pdt_kconfig_enabled(config, "CONFIG_BPF_SYSCALL"));
	assert_true(pdt_kconfig_enabled(config, "CONFIG_OVERLAY_FS")); /* a module */
	assert_true(pdt_kconfig_enabled(config, "CONFIG_9P_FS"));      /* the last line */
	assert_false(pdt_kconfig_enabled(config, "CONFIG_DEBUG_INFO_BTF"));
	assert_false(pdt_kconfig_enabled(config, "CONFIG_NR_CPUS")); /* a number, not y or m */
	assert_false(pdt_kconfig_enabled("", "CONFIG_BPF"));
}

/* kconfig's reading: the last line wins, a CRLF file reads the same. */
static void test_last_wins_crlf(void **state)
{
	static const char twice[] = "CONFIG_A=y\n# CONFIG_B is not set\nCONFIG_A=m\nCONFIG_B=y\n"
				    "CONFIG_C=y\n# CONFIG_C is not set\n";
	static const char crlf[] = "# Linux/x86 7.2.13 Kernel Configuration\r\nCONFIG_A=y\r\n"
				   "# CONFIG_B is not set\r\nCONFIG_N=64\r\n";
	const char *v;
	size_t len;

	(void)state;
	v = pdt_kconfig_value(twice, "CONFIG_A", &len);
	assert_non_null(v);
	assert_int_equal(len, 1);
	assert_int_equal(*v, 'm');
	assert_true(pdt_kconfig_enabled(twice, "CONFIG_B"));
	assert_false(pdt_kconfig_enabled(twice, "CONFIG_C"));
	assert_true(pdt_kconfig_enabled(crlf, "CONFIG_A"));
	assert_false(pdt_kconfig_enabled(crlf, "CONFIG_B"));
	v = pdt_kconfig_value(crlf, "CONFIG_N", &len);
	assert_int_equal(len, 2);
	assert_memory_equal(v, "64", 2);
}

static void test_release(void **state)
{
	static const char cfg[] = "#\n# Automatically generated file; DO NOT EDIT.\n"
				  "# Linux/arm64 6.18.0-rc1 Kernel Configuration\n#\nCONFIG_A=y\n";
	const char *v;
	size_t len;

	(void)state;
	v = pdt_kconfig_release(cfg, &len);
	assert_non_null(v);
	assert_int_equal(len, 10);
	assert_memory_equal(v, "6.18.0-rc1", 10);
	assert_null(pdt_kconfig_release(config, &len));
	assert_null(
	    pdt_kconfig_release("CONFIG_A=y\n# Linux/x86 7.2 Kernel Configuration\n", &len));
}

/* Every option doctor looks for has a reason, and the required ones come first. */
static void test_needs_table(void **state)
{
	bool optional_seen = false;
	size_t i;

	(void)state;
	assert_true(pdt_kconfig_nneeds >= 10);
	for (i = 0; i < pdt_kconfig_nneeds; i++) {
		assert_true(!strncmp(pdt_kconfig_needs[i].option, "CONFIG_", 7));
		assert_true(pdt_kconfig_needs[i].cost[0]);
		if (!pdt_kconfig_needs[i].required)
			optional_seen = true;
		else
			assert_false(optional_seen);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),	       cmocka_unit_test(test_enabled),
		cmocka_unit_test(test_last_wins_crlf), cmocka_unit_test(test_release),
		cmocka_unit_test(test_needs_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
