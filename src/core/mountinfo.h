/* SPDX-License-Identifier: GPL-2.0 */
/* Mountpoints by device, from /proc/self/mountinfo (live, or a snapshot in a recording). */
#ifndef PDT_MOUNTINFO_H
#define PDT_MOUNTINFO_H

#include <stdio.h>
#include "u64map.h"

/*
 * Find the first mountpoint of the kernel-encoded device dev (major << 20 | minor)
 * in mountinfo text, and how many mounts it has. Returns the number of mounts
 * (0: not mounted; mountpoint then left empty). Octal escapes (\040) are decoded.
 */
int mountinfo_lookup(FILE *fp, unsigned int dev, char *mountpoint, size_t n);
/*
 * Call cb for every mount: kernel-encoded device, mountpoint (unescaped) and
 * filesystem type. Returns the number of mounts visited.
 */
typedef void (*mountinfo_cb)(unsigned int dev, const char *mountpoint, const char *fstype,
			     void *ctx);
int mountinfo_each(FILE *fp, mountinfo_cb cb, void *ctx);
/* Same on /proc/self/mountinfo. */
int mountinfo_lookup_self(unsigned int dev, char *mountpoint, size_t n);

/* /proc/self/mountinfo, whole (NULL if unreadable); *len its length. */
char *mountinfo_read_self(size_t *len);

/*
 * Every device of a mountinfo text, indexed once: a recording's snapshot serves
 * many superblocks, and a hostile one must not cost a scan per superblock.
 * Lookups answer exactly as mountinfo_lookup() on the same text.
 */
struct mountinfo_index {
	struct u64map devs; /* dev + 1 -> struct mountinfo_dev */
};

/* Returns 0, or -1 when out of memory (the index is then empty). */
int mountinfo_index_build(struct mountinfo_index *ix, const char *text, size_t len);
int mountinfo_index_lookup(const struct mountinfo_index *ix, unsigned int dev, char *mountpoint,
			   size_t n);
void mountinfo_index_free(struct mountinfo_index *ix);

#endif
