// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the module table: which module's code a creation stack passed through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "modtab.h"

#define VMLINUX 0xffffffff81234567ULL

static struct pdt_module_event mod_ev(unsigned short type, uint64_t mod, const char *name,
				      uint64_t text, unsigned int size, uint64_t init,
				      unsigned int init_size)
{
	struct pdt_module_event e;

	memset(&e, 0, sizeof(e));
	e.h.type = type;
	e.h.size = sizeof(e);
	e.module = mod;
	e.text = text;
	e.text_size = size;
	e.init_text = init;
	e.init_size = init_size;
	snprintf(e.name, sizeof(e.name), "%s", name);
	return e;
}

static unsigned int load(struct modtab *mt, uint64_t mod, const char *name, uint64_t text,
			 unsigned int size, uint64_t init, unsigned int init_size)
{
	struct pdt_module_event e =
	    mod_ev(PDT_EV_MODULE_LOAD, mod, name, text, size, init, init_size);

	return modtab_load(mt, &e);
}

static unsigned int unload(struct modtab *mt, uint64_t mod, const char *name)
{
	struct pdt_module_event e = mod_ev(PDT_EV_MODULE_FREE, mod, name, 0, 0, 0, 0);

	return modtab_unload(mt, &e);
}

static unsigned int owner(struct modtab *mt, uint64_t a, uint64_t b, uint64_t c)
{
	unsigned long long stack[3] = { a, b, c };

	return modtab_owner(mt, stack, 3);
}

/* The innermost frame in a module names it: core text and init text alike. */
static void test_innermost_module_frame(void **state)
{
	struct modtab *mt = modtab_new();
	unsigned int a, b;

	(void)state;
	a = load(mt, 0x1000, "lib", 0xffffffffc0000000ULL, 0x2000, 0xffffffffc0100000ULL, 0x100);
	b = load(mt, 0x2000, "drv", 0xffffffffc0010000ULL, 0x1000, 0xffffffffc0110000ULL, 0x100);
	assert_true(a && b && a != b);
	assert_int_equal(owner(mt, VMLINUX, 0xffffffffc0000010ULL, 0xffffffffc0010010ULL), a);
	assert_int_equal(owner(mt, VMLINUX, 0xffffffffc0110050ULL, VMLINUX), b);
	assert_int_equal(owner(mt, VMLINUX, VMLINUX, VMLINUX), 0);
	/* The ends: lo is in, hi is out. */
	assert_int_equal(owner(mt, 0xffffffffc0011000ULL, 0xffffffffc0010fffULL, 0), b);
	assert_int_equal(owner(mt, 0xffffffffc0002000ULL, 0, 0), 0);
	assert_string_equal(modtab_name(mt, b), "drv");
	modtab_free(mt);
}

/* A free ends a load; its name stays for findings; an unknown module is 0. */
static void test_unload(void **state)
{
	struct modtab *mt = modtab_new();
	unsigned int a;

	(void)state;
	a = load(mt, 0x1000, "drv", 0xffffffffc0000000ULL, 0x2000, 0, 0);
	assert_int_equal(unload(mt, 0x9999, "other"), 0);
	assert_int_equal(unload(mt, 0x1000, "drv"), a);
	assert_int_equal(owner(mt, 0xffffffffc0000010ULL, 0, 0), 0);
	assert_string_equal(modtab_name(mt, a), "drv");
	assert_int_equal(unload(mt, 0x1000, "drv"), 0); /* once */
	assert_string_equal(modtab_name(mt, 0), "");
	assert_string_equal(modtab_name(mt, 77), "");
	modtab_free(mt);
}

/*
 * A reload at the same address is a new module; init text freed and handed to the
 * next module names that one.
 */
static void test_reload_and_reused_init_text(void **state)
{
	struct modtab *mt = modtab_new();
	unsigned int a, b, c;

	(void)state;
	a = load(mt, 0x1000, "one", 0xffffffffc0000000ULL, 0x1000, 0xffffffffc0100000ULL, 0x1000);
	b = load(mt, 0x2000, "two", 0xffffffffc0010000ULL, 0x1000, 0xffffffffc0100800ULL, 0x100);
	assert_int_equal(owner(mt, 0xffffffffc0100010ULL, 0, 0), 0); /* no longer one's */
	assert_int_equal(owner(mt, 0xffffffffc0100810ULL, 0, 0), b);
	assert_int_equal(owner(mt, 0xffffffffc0000010ULL, 0, 0), a);
	assert_int_equal(unload(mt, 0x1000, "one"), a);
	c = load(mt, 0x1000, "one", 0xffffffffc0000000ULL, 0x1000, 0, 0);
	assert_true(c != a);
	assert_int_equal(owner(mt, 0xffffffffc0000010ULL, 0, 0), c);
	assert_int_equal(unload(mt, 0x1000, "one"), c);
	modtab_free(mt);
}

/* Empty ranges and one that wraps name nothing. */
static void test_bad_ranges(void **state)
{
	struct modtab *mt = modtab_new();

	(void)state;
	assert_true(load(mt, 0x1000, "x", 0, 0x1000, 0xfffffffffffff000ULL, 0x2000) > 0);
	assert_int_equal(owner(mt, 0x10, 0xfffffffffffff010ULL, 0), 0);
	modtab_free(mt);
}

/* Frames of a freed module keep its name and an offset; a loaded one's own symbols win. */
static void test_ksyms_names(void **state)
{
	struct modtab *mt = modtab_new();
	struct ksyms *k = calloc(1, sizeof(*k));
	char buf[128];
	size_t done = 0;

	(void)state;
	assert_int_equal(ksyms_add(k, 0xffffffffc0000000ULL, 0, "drv_probe", "drv"), 0);
	ksyms_sort(k);
	load(mt, 0x1000, "drv", 0xffffffffc0000000ULL, 0x1000, 0xffffffffc0100000ULL, 0x100);
	load(mt, 0x2000, "gone", 0xffffffffc0200000ULL, 0x1000, 0, 0);
	assert_int_equal(modtab_ksyms(mt, k, &done), 0);
	assert_int_equal(done, 3);
	ksyms_format_at(k, 0xffffffffc0000010ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "drv_probe+0x10 [drv]");
	ksyms_format_at(k, 0xffffffffc0100010ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "(init_text)+0x10 [drv]");
	ksyms_format_at(k, 0xffffffffc0200ff0ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "(text)+0xff0 [gone]");
	ksyms_format_at(k, 0xffffffffc0201000ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "?");
	assert_int_equal(modtab_ksyms(mt, k, &done), 0); /* nothing new */
	assert_int_equal(k->n, 4);
	ksyms_free(k);
	modtab_free(mt);
}

/*
 * A frame is named by the module that had its address when the stack was taken: an init
 * text freed and taken by the next module, a module loaded before we watched and freed,
 * its text taken by another. The symbols are the end's (kallsyms read then).
 */
static void test_names_of_their_epoch(void **state)
{
	const unsigned long long init = 0xffffffffc0100000ULL, old = 0xffffffffc0300000ULL;
	struct modtab *mt = modtab_new();
	struct ksyms *k = calloc(1, sizeof(*k));
	struct pdt_module_event e;
	unsigned int at_init, at_tcp, at_old;
	char buf[128];
	size_t done = 0;

	(void)state;
	assert_int_equal(ksyms_add(k, 0xffffffffc0000000ULL, 0, "nvmet_fn", "nvmet"), 0);
	assert_int_equal(ksyms_add(k, init, 0, "tcp_fn", "nvmet_tcp"), 0);
	assert_int_equal(ksyms_add(k, old, 0, "new_fn", "new"), 0);
	assert_int_equal(ksyms_add(k, VMLINUX - 0x67, 0, "vfs_fn", NULL), 0);
	ksyms_sort(k);
	load(mt, 0x1000, "nvmet", 0xffffffffc0000000ULL, 0x1000, init, 0x400);
	at_init = modtab_epoch(mt);
	load(mt, 0x2000, "nvmet_tcp", init, 0x2000, 0, 0); /* nvmet's init text, freed */
	at_tcp = modtab_epoch(mt);
	assert_true(at_tcp > at_init);
	e = mod_ev(PDT_EV_MODULE_FREE, 0x3000, "old", old, 0x1000, 0, 0); /* loaded before us */
	assert_int_equal(modtab_unload(mt, &e), 0);
	at_old = modtab_epoch(mt);
	load(mt, 0x4000, "new", old, 0x1000, 0, 0);
	assert_int_equal(modtab_ksyms(mt, k, &done), 0);
	ksyms_set_modules(k, mt);

	ksyms_format_at(k, init + 0x255, at_init, 0, buf, sizeof(buf));
	assert_string_equal(buf, "(init_text)+0x255 [nvmet]");
	ksyms_format_at(k, init + 0x255, at_tcp, 0, buf, sizeof(buf));
	assert_string_equal(buf, "tcp_fn+0x255 [nvmet_tcp]");
	ksyms_format_at(k, 0xffffffffc0000010ULL, at_init, 0, buf, sizeof(buf));
	assert_string_equal(buf, "nvmet_fn+0x10 [nvmet]");
	ksyms_format_at(k, old + 0x10, at_init, 0, buf, sizeof(buf));
	assert_string_equal(buf, "(text)+0x10 [old]");
	ksyms_format_at(k, old + 0x10, at_old + 1, 0, buf, sizeof(buf));
	assert_string_equal(buf, "new_fn+0x10 [new]");
	ksyms_format_at(k, VMLINUX, at_init, 0, buf, sizeof(buf));
	assert_string_equal(buf, "vfs_fn+0x67");
	/* Unloaded since: its symbols are no longer the end's, its name and offset stay. */
	unload(mt, 0x2000, "nvmet_tcp");
	ksyms_format_at(k, init + 0x255, at_tcp, 0, buf, sizeof(buf));
	assert_string_equal(buf, "(text)+0x255 [nvmet_tcp]");
	ksyms_free(k);
	modtab_free(mt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_innermost_module_frame),
		cmocka_unit_test(test_unload),
		cmocka_unit_test(test_reload_and_reused_init_text),
		cmocka_unit_test(test_bad_ranges),
		cmocka_unit_test(test_ksyms_names),
		cmocka_unit_test(test_names_of_their_epoch),
	};

	return cmocka_run_group_tests_name("modtab", tests, NULL, NULL);
}
