/* SPDX-License-Identifier: GPL-2.0 */
/* Exit statuses of pdtrace, the contract CI scripts rely on. */
#ifndef PDT_EXIT_CODES_H
#define PDT_EXIT_CODES_H

enum pdt_exit {
	PDT_EXIT_OK = 0,	 /* traced, nothing to report */
	PDT_EXIT_FINDINGS = 1,	 /* findings of a kind selected by --fail-on */
	PDT_EXIT_ERROR = 2,	 /* could not trace: usage, kernel, privileges, attach */
	PDT_EXIT_INCOMPLETE = 3, /* data incomplete (lost events, full maps) */
};

#endif
