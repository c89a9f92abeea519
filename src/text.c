// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "text.h"

/*
 * Length of the valid UTF-8 character at s (2 to 4 bytes), or 0: overlong forms,
 * surrogates, code points past U+10FFFF and the C1 controls (U+0080-U+009F, which
 * some terminals obey) do not count.
 */
static size_t utf8_len(const unsigned char *s)
{
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
	    (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0)
		return 0;
	return len;
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
		} else if ((len = utf8_len(p))) {
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
