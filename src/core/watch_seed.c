// SPDX-License-Identifier: GPL-2.0
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* nftw() has no context argument: one walk at a time. */
static long long walk_count;
static bool walk_tracefs;

static int count_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	if (ftw->level == 0)
		return FTW_CONTINUE;
	walk_count++;
	if (walk_tracefs && flag == FTW_D && !strcmp(path + ftw->base, "events"))
		return FTW_SKIP_SUBTREE;
	return FTW_CONTINUE;
}

long long watch_count_tree(const char *root, const char *fstype)
{
	walk_count = 0;
	walk_tracefs = !strcmp(fstype, "tracefs");
	if (nftw(root, count_one, 32, FTW_PHYS | FTW_MOUNT | FTW_ACTIONRETVAL) < 0)
		return -1;
	return walk_count;
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
	s->count = -1; /* walked after the mountinfo pass: nftw would reuse our stack */
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
