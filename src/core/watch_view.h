/* SPDX-License-Identifier: GPL-2.0 */
/* What `pdtrace watch` prints: a top-like screen, log lines, JSON, Prometheus text. Plain C. */
#ifndef PDT_WATCH_VIEW_H
#define PDT_WATCH_VIEW_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include "rules.h"

struct watch_row {
	char fs_type[16];
	char s_id[32];
	char mountpoint[256]; /* "" if unknown */
	int nmounts;
	unsigned int dev;
	long long persistent;		  /* now (seed included) */
	double made_rate, discarded_rate; /* per second over the last interval */
	unsigned long long made, discarded, unpinned, findings;
	bool seeded; /* persistent includes entries counted by the start-up walk */
	bool gone;   /* unmounted: shown once more, greyed */
};

struct watch_header {
	const char *kernel;
	double elapsed;				   /* seconds since watch started */
	unsigned long long lost;		   /* events lost */
	unsigned long long findings[PDT_KIND_MAX]; /* by enum pdt_kind */
	const char *status;			   /* last finding, one line; may be NULL */
	unsigned long long map_full;		   /* insertions refused by full maps */
	unsigned long long unlisted; /* unmounted superblocks never given a row of their own */
};

enum watch_sort {
	WATCH_SORT_PERSISTENT,
	WATCH_SORT_MADE,
	WATCH_SORT_DISCARDED,
	WATCH_SORT_FS,
	WATCH_SORT_MOUNTPOINT
};

int watch_parse_sort(const char *s, enum watch_sort *sort);
void watch_sort_rows(struct watch_row *rows, size_t n, enum watch_sort sort);
/* Full screen with ANSI escapes, clipped to width x height. */
void watch_render_screen(FILE *fp, const struct watch_header *h, const struct watch_row *rows,
			 size_t n, int width, int height);
/* One line per superblock, timestamped, no escape codes. */
void watch_render_lines(FILE *fp, time_t now, const struct watch_header *h,
			const struct watch_row *rows, size_t n);
/* One JSON object for the interval. */
void watch_render_json(FILE *fp, time_t now, const struct watch_header *h,
		       const struct watch_row *rows, size_t n);
/* Prometheus text exposition format. */
void watch_render_prometheus(FILE *fp, const struct watch_header *h, const struct watch_row *rows,
			     size_t n);

#endif
