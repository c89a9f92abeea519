// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: --baseline REPORT.json on any bytes. The JSON reader of
 * src/core/baseline.c under ASan and UBSan: a baseline comes from wherever CI keeps it.
 * Its contract, checked on every input: an error is one line, "fuzz.json: byte N: ...",
 * N within the input; a baseline it accepts holds each of its signatures once, sorted,
 * and finds each of them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "baseline.h"

static void check_error(const char *err, size_t size)
{
	unsigned long long at;

	if (sscanf(err, "fuzz.json: byte %llu: ", &at) != 1 || at > size || strchr(err, '\n')) {
		fprintf(stderr, "bad error line: '%s'\n", err);
		abort();
	}
}

static void check_baseline(struct pdt_baseline *b)
{
	char hex[17], prev[17] = "";
	size_t i;

	for (i = 0; i < pdt_baseline_count(b); i++) {
		pdt_baseline_sig(b, i, hex);
		if ((i && strcmp(prev, hex) >= 0) || !pdt_baseline_has(b, hex) ||
		    !pdt_baseline_seen(b, i)) {
			fprintf(stderr, "signature %zu (%s) out of order or not found\n", i, hex);
			abort();
		}
		strcpy(prev, hex);
		(void)pdt_baseline_key(b, i);
	}
	if (pdt_baseline_gone(b))
		abort(); /* every one was just seen */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[300] = "";
	struct pdt_baseline *b =
	    pdt_baseline_parse("fuzz.json", (const char *)data, size, err, sizeof(err));

	if (!b)
		check_error(err, size);
	else
		check_baseline(b);
	pdt_baseline_free(b);
	return 0;
}
