// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "testing.h"

/* NAME's word in PDTRACE_TESTING: its value after '=' ("" when bare), or NULL. */
static const char *word(const char *name, size_t *vlen)
{
	const char *p = getenv("PDTRACE_TESTING");
	size_t n = strlen(name);

	while (p && *p) {
		size_t len;

		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (len >= n && !strncmp(p, name, n) && (len == n || p[n] == '=')) {
			*vlen = len > n ? len - n - 1 : 0;
			return len > n ? p + n + 1 : p + n;
		}
		p += len;
	}
	return NULL;
}

bool pdt_testing(const char *name)
{
	size_t len;

	return word(name, &len) != NULL;
}

unsigned long pdt_testing_num(const char *name, unsigned long dflt)
{
	size_t len;
	const char *v = word(name, &len);
	char buf[24], *end;
	unsigned long n;

	if (!v || !len || len >= sizeof(buf))
		return dflt;
	memcpy(buf, v, len);
	buf[len] = '\0';
	errno = 0;
	n = strtoul(buf, &end, 10);
	return *end || !n || errno || buf[0] == '-' ? dflt : n;
}

bool pdt_testing_lists(const char *name, const char *item)
{
	size_t len, n = strlen(item);
	const char *v = word(name, &len), *end;

	for (end = v ? v + len : NULL; v && v < end;) {
		size_t l = strcspn(v, ",");

		if (l > (size_t)(end - v))
			l = (size_t)(end - v);
		if (l == n && !strncmp(v, item, n))
			return true;
		v += l + 1;
	}
	return false;
}
