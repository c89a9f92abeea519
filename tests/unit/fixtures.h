/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixtures several unit tests share (include after <cmocka.h>). static inline: a test
 * that uses one of them does not have to use them all.
 */
#ifndef PDT_TEST_FIXTURES_H
#define PDT_TEST_FIXTURES_H

#include <stdio.h>
#include <string.h>
#include "ksyms.h"
#include "rules.h"

/* Kernel symbols from /proc/kallsyms-like TEXT. */
static inline struct ksyms *fixture_ksyms(const char *text)
{
	FILE *fp = fmemopen((void *)text, strlen(text), "r");
	struct ksyms *k;

	assert_non_null(fp);
	k = ksyms_parse(fp);
	fclose(fp);
	assert_non_null(k);
	return k;
}

/* Discards of entries that are not persistent, at these N paths, on tmpfs: N findings. */
static inline struct pdt_rules *fixture_discards(const char *const *paths, int n)
{
	struct pdt_rules *r = pdt_rules_new();
	struct pdt_event_full e = {};
	int i;

	e.h.type = PDT_EV_DISCARD;
	e.h.size = sizeof(e);
	e.h.sb = 0xffff888000200000ULL;
	e.h.refcount = 1;
	e.h.flags = PDT_F_WAS_POSITIVE;
	strcpy(e.fs_type, "tmpfs");
	for (i = 0; i < n; i++) {
		e.h.dentry = 0xffff888000000700ULL + (unsigned int)i;
		snprintf(e.path, sizeof(e.path), "%s", paths[i]);
		assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
	}
	return r;
}

#endif
