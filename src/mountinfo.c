// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "mountinfo.h"

static void unescape(const char *src, char *dst, size_t n)
{
	size_t o = 0;

	while (*src && o + 1 < n) {
		if (src[0] == '\\' && src[1] >= '0' && src[1] <= '3' && src[2] >= '0' &&
		    src[2] <= '7' && src[3] >= '0' && src[3] <= '7') {
			dst[o++] =
			    (char)((src[1] - '0') * 64 + (src[2] - '0') * 8 + (src[3] - '0'));
			src += 4;
		} else {
			dst[o++] = *src++;
		}
	}
	dst[o] = '\0';
}

int mountinfo_lookup(FILE *fp, unsigned int dev, char *mountpoint, size_t n)
{
	unsigned int major = dev >> 20, minor = dev & 0xfffff, ma, mi;
	char line[4096], mp[4096];
	int count = 0;

	if (n)
		mountpoint[0] = '\0';
	while (fgets(line, sizeof(line), fp)) {
		/* id parent major:minor root mountpoint ... */
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &ma, &mi, mp) != 3)
			continue;
		if (ma != major || mi != minor)
			continue;
		if (!count++ && n)
			unescape(mp, mountpoint, n);
	}
	return count;
}

int mountinfo_each(FILE *fp, mountinfo_cb cb, void *ctx)
{
	char line[4096], mp[4096], path[4096], fstype[64];
	unsigned int ma, mi;
	const char *sep;
	int count = 0;

	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &ma, &mi, mp) != 3)
			continue;
		/* Optional fields end with " - "; the filesystem type follows. */
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s", fstype) != 1)
			continue;
		unescape(mp, path, sizeof(path));
		cb(ma << 20 | mi, path, fstype, ctx);
		count++;
	}
	return count;
}

int mountinfo_lookup_self(unsigned int dev, char *mountpoint, size_t n)
{
	FILE *fp = fopen("/proc/self/mountinfo", "r");
	int count;

	if (!fp) {
		if (n)
			mountpoint[0] = '\0';
		return 0;
	}
	count = mountinfo_lookup(fp, dev, mountpoint, n);
	fclose(fp);
	return count;
}
