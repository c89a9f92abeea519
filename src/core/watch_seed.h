/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Start-up counts for `watch`: the persistent dentries of tree-in-dcache
 * filesystems mounted before pdtrace started, counted by walking each tree.
 */
#ifndef PDT_WATCH_SEED_H
#define PDT_WATCH_SEED_H

#include <stdbool.h>
#include <stddef.h>

struct watch_seed {
	unsigned int dev;
	char fs_type[16];
	char mountpoint[256];
	long long count;
};

/* Is fstype one of the filesystems that keep their tree in the dcache? */
bool watch_is_tree_in_dcache(const char *fstype);
/*
 * Count the entries below root (root itself excluded), not crossing mounts: an
 * entry a mount covers is counted, not entered, and an automount point is never
 * triggered. In tracefs, "events" directories are counted but not entered: eventfs
 * makes their contents on lookup, without persistence. Returns -1 if root cannot
 * be walked.
 */
long long watch_count_tree(const char *root, const char *fstype);
/* One seed per tree-in-dcache superblock in /proc/self/mountinfo. Caller frees. */
struct watch_seed *watch_seed_all(size_t *n, const char *const *only_fs, size_t nonly);

#endif
