// SPDX-License-Identifier: GPL-2.0
/*
 * The table of hooks (src/core/hooks.c) against the tracker's BPF object as built: each
 * hook's program is there, on that hook, and every program on a kernel function is in
 * the table. The object is opened, not loaded: no kernel is needed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <bpf/libbpf.h>
#include "hooks.h"

static struct bpf_object *obj;

static int open_object(void **state)
{
	(void)state;
	obj = bpf_object__open_file(PDT_TRACK_OBJ, NULL);
	return obj ? 0 : -1;
}

static int close_object(void **state)
{
	(void)state;
	bpf_object__close(obj);
	return 0;
}

static void expect_section(const char *program, const char *want)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, program);

	if (!p)
		fail_msg("no BPF program %s (the table says it hooks %s)", program, want);
	if (strcmp(bpf_program__section_name(p), want))
		fail_msg("program %s is on %s, the table says %s", program,
			 bpf_program__section_name(p), want);
}

/* Each row's program exists and is attached where the row says. */
static void test_table_programs_exist(void **state)
{
	char want[128];
	size_t i;

	(void)state;
	for (i = 0; i < pdt_nhooks; i++) {
		const struct pdt_hook *h = &pdt_hooks[i];

		assert_non_null(h->program);
		assert_non_null(h->handler);
		if (h->id)
			snprintf(want, sizeof(want), "%s",
				 h->bracket ? "kprobe.session" : "kprobe.multi");
		else
			snprintf(want, sizeof(want), "%s/%s", h->tracepoint ? "tp_btf" : "fentry",
				 h->func);
		expect_section(h->program, want);
		if (h->lsm) {
			char name[64];

			snprintf(name, sizeof(name), "lsm_%s", h->lsm);
			snprintf(want, sizeof(want), "lsm/%s", h->lsm);
			expect_section(name, want);
		}
	}
}

/* No program on a kernel function or tracepoint that the table does not list. */
static void test_programs_in_table(void **state)
{
	struct bpf_program *p;

	(void)state;
	bpf_object__for_each_program(p, obj) {
		const char *sec = bpf_program__section_name(p), *slash = strchr(sec, '/');
		const struct pdt_hook *h;

		/* The dispatchers, the kallsyms lookup, the self-check's iterator. */
		if (!slash || !strncmp(sec, "iter/", 5))
			continue;
		if (!strncmp(sec, "lsm/", 4)) {
			h = pdt_hook_find_lsm(slash + 1);
			if (!h)
				fail_msg("program %s on %s: no hook lists that LSM hook",
					 bpf_program__name(p), sec);
			continue;
		}
		h = pdt_hook_find(slash + 1);
		if (!h)
			fail_msg("program %s on %s: not in the table of hooks",
				 bpf_program__name(p), sec);
		if (strcmp(h->program, bpf_program__name(p)))
			fail_msg("program %s on %s: the table names %s", bpf_program__name(p), sec,
				 h->program);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_programs_exist),
		cmocka_unit_test(test_programs_in_table),
	};

	return cmocka_run_group_tests(tests, open_object, close_object);
}
