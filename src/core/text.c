// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "text.h"

size_t pdt_utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned int cp, i, len;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/* A terminal obeys the C1 controls (U+0080-U+009F, 0xc2 0x80-0x9f) like the C0 ones. */
static size_t printable_utf8_len(const unsigned char *s)
{
	size_t len = pdt_utf8_len((const char *)s);

	return len == 2 && s[0] == 0xc2 && s[1] < 0xa0 ? 0 : len;
}

const char *pdt_text_esc(char *buf, size_t n, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, len;
	char esc[5];

	if (!n)
		return buf;
	while (*p) {
		if (*p >= 0x20 && *p < 0x7f && *p != '\\') {
			len = 1;
			esc[0] = (char)*p;
		} else if (*p == '\\') {
			len = 2;
			memcpy(esc, "\\\\", 2);
		} else if ((len = printable_utf8_len(p))) {
			if (o + len >= n)
				break;
			memcpy(buf + o, p, len);
			o += len;
			p += len;
			continue;
		} else {
			len = 4;
			snprintf(esc, sizeof(esc), "\\x%02x", *p);
		}
		if (o + len >= n)
			break;
		memcpy(buf + o, esc, len);
		o += len;
		p++;
	}
	buf[o] = '\0';
	return buf;
}

void pdt_text_sanitize(char *str)
{
	unsigned char *s = (unsigned char *)str;
	size_t len;

	while (*s) {
		if (*s >= 0x20 && *s < 0x7f)
			s++;
		else if ((len = printable_utf8_len(s)))
			s += len;
		else
			*s++ = '?';
	}
}
