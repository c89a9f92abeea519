// SPDX-License-Identifier: GPL-2.0
/*
 * The self-check: before the tracker detaches, walk the tree of every superblock the
 * books hold that is still mounted here, and let the rules engine compare what the
 * kernel holds with what the books say is persistent (pdt_rules, on PDT_EV_WALK).
 * A difference means a kernel path the tracker did not see; the run is then
 * reported inconsistent rather than trusted.
 *
 * The walk is bpf/track/walk.bpf.c, a task_file iterator over pdtrace's own files:
 * it walks from the file opened here on the filesystem. Its entries come through the
 * event ring buffer, in order with every other event, so a recording carries them
 * and `report` reaches the same verdict.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "log.h"
#include "mountinfo.h"
#include "tracker_priv.h"
#include "track.skel.h"

#define WALK_TRIES 3		  /* a tree that changed during the walk is walked again */
#define WALK_MAX_RUNS 100000	  /* runs of one walk, each at most half the ring buffer */
#define WALK_MAX_STEPS (1u << 23) /* bpf_loop()'s own limit */

static void drain(struct pdt_tracker *t)
{
	while (ring_buffer__consume(t->rb) > 0)
		;
}

/* The filesystem of sb, opened at one of its mountpoints; -1 when not reachable here. */
static int open_sb(const struct pdt_sb *sb)
{
	char path[4096];
	struct stat st;
	int fd;

	if (mountinfo_lookup_self(sb->dev, path, sizeof(path)) <= 0)
		return -1;
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* Mounted over, or a bind mount of another device: not this filesystem. */
	if (fstat(fd, &st) || major(st.st_dev) != sb->dev >> 20 ||
	    minor(st.st_dev) != (sb->dev & 0xfffff)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One walk, in as many runs of the iterator as the ring buffer needs. 0: complete. */
static int walk(struct pdt_tracker *t, int fd, unsigned long long sb)
{
	struct track_bpf *s = t->skel;
	unsigned int skip = 0, runs;
	char buf[64];

	/* The books' count of elided entries, as of the walk's start (its end checks). */
	pdt_tracker_flush_elided(t);
	for (runs = 0; runs < WALK_MAX_RUNS; runs++) {
		int ifd;

		s->data->pdt_walk_fd = fd;
		s->bss->pdt_walk_sb = sb;
		s->bss->pdt_walk_skip = skip;
		s->bss->pdt_walk_next = skip;
		s->bss->pdt_walk_done = 0;
		s->bss->pdt_walk_max_steps = WALK_MAX_STEPS;
		ifd = bpf_iter_create(bpf_link__fd(t->walk_link));
		if (ifd < 0)
			return -1;
		while (read(ifd, buf, sizeof(buf)) > 0)
			;
		close(ifd);
		drain(t);
		if (s->bss->pdt_walk_done)
			return 0;
		if (s->bss->pdt_walk_next <= skip)
			return -1; /* no progress: another superblock, or a tree too big to walk */
		skip = s->bss->pdt_walk_next;
	}
	return -1;
}

static int attach_walk(struct pdt_tracker *t)
{
	union bpf_iter_link_info linfo = { .task.tid = getpid() };
	LIBBPF_OPTS(bpf_iter_attach_opts, opts, .link_info = &linfo,
		    .link_info_len = sizeof(linfo));

	t->walk_link = bpf_program__attach_iter(t->skel->progs.walk_task_file, &opts);
	if (!t->walk_link) {
		char line[160];

		snprintf(line, sizeof(line), "self-check: cannot walk the trees here (%s): lost %s",
			 strerror(errno), "the check of the books against the kernel");
		if (t->nmissing < sizeof(t->missing) / sizeof(t->missing[0]))
			t->missing[t->nmissing++] = strdup(line);
		return -1;
	}
	return 0;
}

void pdt_tracker_self_check(struct pdt_tracker *t)
{
	size_t i;

	if (!t->walk_link && attach_walk(t))
		return;
	drain(t);
	for (i = 0; i < pdt_rules_nsbs(t->rules); i++) {
		const struct pdt_sb *sb = pdt_rules_sb(t->rules, i);
		int fd, try;

		if (!sb || sb->unmounted || (fd = open_sb(sb)) < 0)
			continue;
		for (try = 0; try < WALK_TRIES; try++) {
			if (walk(t, fd, sb->sb))
				break;
			sb = pdt_rules_sb(t->rules, i); /* the table may have grown */
			if (sb->check == PDT_CHECK_CLEAN)
				break;
		}
		close(fd);
	}
}
