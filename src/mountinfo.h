/* SPDX-License-Identifier: GPL-2.0 */
/* Mountpoints by device, from /proc/self/mountinfo. */
#ifndef PDT_MOUNTINFO_H
#define PDT_MOUNTINFO_H

#include <stdio.h>

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

#endif
