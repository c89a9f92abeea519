// SPDX-License-Identifier: GPL-2.0
#include <fcntl.h>
#include <fts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "mountinfo.h"
#include "watch_seed.h"

bool watch_is_tree_in_dcache(const char *fstype)
{
	static const char *const types[] = {
		"tmpfs",      "ramfs",	  "hugetlbfs", "configfs",   "debugfs",	    "tracefs",
		"securityfs", "bpf",	  "binder",    "mqueue",     "binfmt_misc", "fusectl",
		"pstore",     "efivarfs", "nfsd",      "rpc_pipefs", "ocfs2_dlmfs", "autofs",
		"functionfs", "gadgetfs", "devtmpfs",  "devpts",
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(fstype, types[i]))
			return true;
	return false;
}

/*
 * An automount point not yet triggered (debugfs's "tracing" on a kernel with
 * CONFIG_TRACEFS_AUTOMOUNT_DEPRECATED): opening it would mount the filesystem it stands
 * for, whose entries are not this superblock's. statx() with AT_NO_AUTOMOUNT leaves it
 * as it is and says what it is.
 */
static bool is_automount(const char *path)
{
	struct statx stx;

	return !statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT, STATX_TYPE, &stx) &&
	       (stx.stx_attributes & STATX_ATTR_AUTOMOUNT);
}

long long watch_count_tree(const char *root, const char *fstype)
{
	char *paths[] = { (char *)root, NULL };
	bool tracefs = !strcmp(fstype, "tracefs");
	long long count = 0;
	FTSENT *e;
	FTS *fts;

	/*
	 * FTS_XDEV: an entry a mount covers is reported, then not entered: that dentry is
	 * this superblock's, as persistent as its siblings.
	 */
	fts = fts_open(paths, FTS_PHYSICAL | FTS_NOCHDIR | FTS_XDEV, NULL);
	if (!fts)
		return -1;
	while ((e = fts_read(fts))) {
		if (e->fts_level == FTS_ROOTLEVEL) {
			if (e->fts_info == FTS_D || e->fts_info == FTS_DP)
				continue;
			count = -1; /* root cannot be walked */
			break;
		}
		if (e->fts_info == FTS_DP)
			continue;
		count++;
		if (e->fts_info == FTS_D &&
		    ((tracefs && !strcmp(e->fts_name, "events")) || is_automount(e->fts_accpath)))
			fts_set(fts, e, FTS_SKIP);
	}
	fts_close(fts);
	return count;
}

struct seed_ctx {
	struct watch_seed *seeds;
	size_t n, cap;
	const char *const *only;
	size_t nonly;
};

static bool wanted(const struct seed_ctx *c, const char *fstype)
{
	size_t i;

	if (!watch_is_tree_in_dcache(fstype))
		return false;
	for (i = 0; i < c->nonly; i++)
		if (!strcmp(c->only[i], fstype))
			return true;
	return c->nonly == 0;
}

static void add_mount(unsigned int dev, const char *mp, const char *fstype, void *ctx)
{
	struct seed_ctx *c = ctx;
	struct watch_seed *s;
	size_t i;

	if (!wanted(c, fstype))
		return;
	for (i = 0; i < c->n; i++)
		if (c->seeds[i].dev == dev)
			return; /* a superblock mounted twice is walked once */
	if (c->n == c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 16;

		s = realloc(c->seeds, ncap * sizeof(*s));
		if (!s)
			return;
		c->seeds = s;
		c->cap = ncap;
	}
	s = &c->seeds[c->n++];
	memset(s, 0, sizeof(*s));
	s->dev = dev;
	snprintf(s->fs_type, sizeof(s->fs_type), "%s", fstype);
	snprintf(s->mountpoint, sizeof(s->mountpoint), "%s", mp);
	s->count = -1; /* walked after the mountinfo pass */
}

struct watch_seed *watch_seed_all(size_t *n, const char *const *only_fs, size_t nonly)
{
	struct seed_ctx c = { NULL, 0, 0, only_fs, nonly };
	FILE *fp = fopen("/proc/self/mountinfo", "r");
	size_t i;

	*n = 0;
	if (!fp)
		return NULL;
	mountinfo_each(fp, add_mount, &c);
	fclose(fp);
	for (i = 0; i < c.n; i++) {
		c.seeds[i].count = watch_count_tree(c.seeds[i].mountpoint, c.seeds[i].fs_type);
		if (c.seeds[i].count < 0)
			c.seeds[i].count = 0;
	}
	*n = c.n;
	return c.seeds;
}
