/* SPDX-License-Identifier: GPL-2.0 */
/* Diagnostics: one-line errors on stderr, libbpf's chatter only with -v. */
#ifndef PDT_LOG_H
#define PDT_LOG_H

#include <stdarg.h>

extern int pdt_verbose;

/* "pdtrace: <message>" on stderr. */
void pdt_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, then exit with the given status. */
void pdt_die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* Install the libbpf print callback: silent unless -v. */
void pdt_setup_libbpf_log(void);

#endif
