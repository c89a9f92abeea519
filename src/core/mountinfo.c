// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "mountinfo.h"

#define MOUNTINFO_LINE 4096

struct mountinfo_dev {
	int count;
	char path[]; /* first mountpoint, unescaped */
};

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

/* "id parent major:minor root mountpoint ...": the device and the (escaped) mountpoint. */
static int parse_line(const char *line, unsigned int *dev, char mp[MOUNTINFO_LINE])
{
	unsigned int ma, mi;

	if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &ma, &mi, mp) != 3)
		return -1;
	*dev = ma << 20 | (mi & 0xfffff);
	/* Only what the kernel's encoding can say: others never match a superblock. */
	return ma >> 12 || mi >> 20 ? -1 : 0;
}

int mountinfo_lookup(FILE *fp, unsigned int dev, char *mountpoint, size_t n)
{
	char line[MOUNTINFO_LINE], mp[MOUNTINFO_LINE];
	unsigned int d;
	int count = 0;

	if (n)
		mountpoint[0] = '\0';
	while (fgets(line, sizeof(line), fp)) {
		if (parse_line(line, &d, mp) || d != dev)
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

char *mountinfo_read_self(size_t *len)
{
	FILE *fp = fopen("/proc/self/mountinfo", "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	*len = 0;
	if (!fp)
		return NULL;
	do { /* procfs gives no size: grow as it comes */
		if (n == cap) {
			char *p = realloc(buf, cap ? cap * 2 : 16384);

			if (!p) {
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = p;
			cap = cap ? cap * 2 : 16384;
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
	} while (got);
	fclose(fp);
	*len = n;
	return buf;
}

static int index_line(struct mountinfo_index *ix, const char *line)
{
	char mp[MOUNTINFO_LINE];
	struct mountinfo_dev *d;
	unsigned int dev;

	if (parse_line(line, &dev, mp))
		return 0;
	d = u64map_get(&ix->devs, (uint64_t)dev + 1);
	if (d) {
		d->count++;
		return 0;
	}
	d = malloc(sizeof(*d) + strlen(mp) + 1);
	if (!d)
		return -1;
	d->count = 1;
	unescape(mp, d->path, strlen(mp) + 1);
	if (u64map_put(&ix->devs, (uint64_t)dev + 1, d)) {
		free(d);
		return -1;
	}
	return 0;
}

int mountinfo_index_build(struct mountinfo_index *ix, const char *text, size_t len)
{
	char line[MOUNTINFO_LINE];
	FILE *fp;
	int rc = 0;

	u64map_init(&ix->devs);
	if (!len)
		return 0;
	/* fgets on the text, as mountinfo_lookup() reads it: long lines split the same way. */
	fp = fmemopen((void *)text, len, "r");
	if (!fp)
		return -1;
	while (!rc && fgets(line, sizeof(line), fp))
		rc = index_line(ix, line);
	fclose(fp);
	if (rc)
		mountinfo_index_free(ix);
	return rc;
}

int mountinfo_index_lookup(const struct mountinfo_index *ix, unsigned int dev, char *mountpoint,
			   size_t n)
{
	const struct mountinfo_dev *d = u64map_get(&ix->devs, (uint64_t)dev + 1);

	if (n)
		snprintf(mountpoint, n, "%s", d ? d->path : "");
	return d ? d->count : 0;
}

void mountinfo_index_free(struct mountinfo_index *ix)
{
	size_t pos = 0;
	void *d;

	while ((d = u64map_next(&ix->devs, &pos, NULL)))
		free(d);
	u64map_free(&ix->devs);
}
