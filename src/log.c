// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <bpf/libbpf.h>
#include "log.h"

int pdt_verbose;

static void vmsg(const char *fmt, va_list ap)
{
	fputs("pdtrace: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void pdt_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void pdt_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(status);
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/* libbpf reports every failed probe at length; users get our one line instead. */
	if (!pdt_verbose || (level == LIBBPF_DEBUG && pdt_verbose < 2))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void pdt_setup_libbpf_log(void)
{
	libbpf_set_print(libbpf_print);
}
