/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel's .config against what pdtrace and its VM tests need (doctor --config):
 * one row per option, before anyone builds or boots the kernel.
 */
#ifndef PDT_KCONFIG_H
#define PDT_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct pdt_kconfig_need {
	const char *option; /* "CONFIG_DEBUG_INFO_BTF" */
	bool required;	    /* without it pdtrace cannot trace at all */
	const char *cost;   /* what is lost without it */
};

/* Every option pdtrace looks for, required ones first (kconfig.c). */
extern const struct pdt_kconfig_need pdt_kconfig_needs[];
extern const size_t pdt_kconfig_nneeds;

/*
 * The value of option in a .config's text ("y", "m", a number or string), or NULL when
 * it is unset ("# CONFIG_X is not set") or absent; the last line about it counts, as in
 * kconfig. Its bytes are in text: *len of them (without a "\r").
 */
const char *pdt_kconfig_value(const char *text, const char *option, size_t *len);

/* The release of the header's "# Linux/ARCH RELEASE Kernel Configuration", or NULL. */
const char *pdt_kconfig_release(const char *text, size_t *len);

/* Set to y or m (a module is loaded on demand by the tests; doctor says "m"). */
bool pdt_kconfig_enabled(const char *text, const char *option);

#endif
