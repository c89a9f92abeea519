// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: `doctor --config FILE` on any bytes. The .config reader of
 * src/core/kconfig.c under ASan and UBSan: a kernel configuration is whatever file the
 * user names. Its contract, checked on every input: a value is inside the text, on the
 * option's own line, after "CONFIG_X=", without the line's end; a release is inside the
 * text, one word followed by " Kernel Configuration"; enabled means a value of y or m.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kconfig.h"

static void check_value(const char *text, size_t n, const char *option)
{
	size_t len = 0, olen = strlen(option);
	const char *v = pdt_kconfig_value(text, option, &len), *line;
	bool on = pdt_kconfig_enabled(text, option);

	if (!v) {
		if (on)
			abort();
		return;
	}
	line = v - olen - 1;
	if (v < text + olen + 1 || v + len > text + n || memchr(v, '\n', len) ||
	    (len && v[len - 1] == '\r' && v[len] == '\n') || v[-1] != '=' ||
	    strncmp(line, option, olen) || (line > text && line[-1] != '\n')) {
		fprintf(stderr, "bad value of %s at byte %zu, %zu bytes\n", option,
			(size_t)(v - text), len);
		abort();
	}
	if (on != (len == 1 && (*v == 'y' || *v == 'm')))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	const char *rel;
	size_t i, n, len = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	n = strlen(text); /* the reader stops at a NUL, as at the end */
	for (i = 0; i < pdt_kconfig_nneeds; i++)
		check_value(text, n, pdt_kconfig_needs[i].option);
	/* An option the input names itself: its first line's name up to '='. */
	{
		const char *eq = memchr(text, '=', n), *nl = memchr(text, '\n', n);
		char opt[64];

		if (eq && eq > text && (!nl || eq < nl) && (size_t)(eq - text) < sizeof(opt) &&
		    !memchr(text, '\r', (size_t)(eq - text))) {
			memcpy(opt, text, (size_t)(eq - text));
			opt[eq - text] = '\0';
			check_value(text, n, opt);
		}
	}
	rel = pdt_kconfig_release(text, &len);
	if (rel && (rel < text || rel + len > text + n || !len || memchr(rel, ' ', len) ||
		    memchr(rel, '\n', len) || strncmp(rel + len, " Kernel Configuration", 21))) {
		fprintf(stderr, "bad release at byte %zu, %zu bytes\n", (size_t)(rel - text), len);
		abort();
	}
	free(text);
	return 0;
}
