// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "report.h"
#include "text.h"
#include "watch_view.h"

int watch_parse_sort(const char *s, enum watch_sort *sort)
{
	static const char *const names[] = { "persistent", "made", "discarded", "fs",
					     "mountpoint" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*sort = (enum watch_sort)i;
			return 0;
		}
	/* The name it had before --fs and the suppressions' fs: spelt it so. */
	if (!strcmp(s, "fstype")) {
		*sort = WATCH_SORT_FS;
		return 0;
	}
	return -1;
}

static enum watch_sort sort_key;

static int cmp_rows(const void *a, const void *b)
{
	const struct watch_row *x = a, *y = b;
	int c = 0;

	switch (sort_key) {
	case WATCH_SORT_PERSISTENT:
		c = (y->persistent > x->persistent) - (y->persistent < x->persistent);
		break;
	case WATCH_SORT_MADE:
		c = (y->made_rate > x->made_rate) - (y->made_rate < x->made_rate);
		break;
	case WATCH_SORT_DISCARDED:
		c = (y->discarded_rate > x->discarded_rate) -
		    (y->discarded_rate < x->discarded_rate);
		break;
	case WATCH_SORT_FS:
		c = strcmp(x->fs_type, y->fs_type);
		break;
	case WATCH_SORT_MOUNTPOINT:
		c = strcmp(x->mountpoint, y->mountpoint);
		break;
	}
	return c ? c : (x->dev > y->dev) - (x->dev < y->dev);
}

void watch_sort_rows(struct watch_row *rows, size_t n, enum watch_sort sort)
{
	sort_key = sort;
	qsort(rows, n, sizeof(*rows), cmp_rows);
}

/* The mountpoint for the text views, escaped (text.h): its name is anyone's. */
static void mount_str(const struct watch_row *r, char *buf, size_t n)
{
	char esc[4 * sizeof(r->mountpoint)];

	if (!r->mountpoint[0])
		snprintf(buf, n, "-");
	else if (r->nmounts > 1)
		snprintf(buf, n, "%s (+%d)", pdt_text_esc(esc, sizeof(esc), r->mountpoint),
			 r->nmounts - 1);
	else
		snprintf(buf, n, "%s", pdt_text_esc(esc, sizeof(esc), r->mountpoint));
}

/* Print at most width columns of s, then clear to the end of the line. */
static void clipped(FILE *fp, const char *s, int width)
{
	fprintf(fp, "%.*s\033[K\r\n", width, s);
}

void watch_render_screen(FILE *fp, const struct watch_header *h, const struct watch_row *rows,
			 size_t n, int width, int height)
{
	char line[512], mp[1100], dev[24], full[40], fs[4 * PDT_FSTYPE_LEN];
	int used = 0;
	size_t i;

	fputs("\033[H", fp);
	if (width < 40 || height < 6) {
		fprintf(fp, "\033[2Jterminal too small (%dx%d)\r\n", width, height);
		fflush(fp);
		return;
	}
	/* A full map is rare: said only when it happened. */
	snprintf(full, sizeof(full), " - map full %llu", h->map_full);
	snprintf(line, sizeof(line),
		 "pdtrace watch - Linux %s - up %.0fs - lost events %llu%s - findings: %llu leak, "
		 "%llu imbalance, %llu illegal-removal",
		 h->kernel, h->elapsed, h->lost, h->map_full ? full : "", h->findings[0],
		 h->findings[1], h->findings[2]);
	clipped(fp, line, width);
	clipped(fp, h->status ? h->status : "", width);
	fputs("\033[7m", fp);
	snprintf(line, sizeof(line), "%-12s %-8s %-24s %10s %8s %11s %8s %6s", "FSTYPE", "DEV",
		 "MOUNTPOINT", "PERSISTENT", "MADE/s", "DISCARDED/s", "UNPINNED", "FINDS");
	fprintf(fp, "%-*.*s\033[0m\r\n", width, width, line);
	used = 3;
	for (i = 0; i < n && used < height - 1; i++, used++) {
		const struct watch_row *r = &rows[i];

		mount_str(r, mp, sizeof(mp));
		pdt_format_dev(r->dev, dev, sizeof(dev));
		snprintf(line, sizeof(line), "%-12s %-8s %-24.64s %9lld%s %8.1f %11.1f %8llu %6llu",
			 pdt_text_esc(fs, sizeof(fs), r->fs_type), dev, mp, r->persistent,
			 r->seeded ? "*" : " ", r->made_rate, r->discarded_rate, r->unpinned,
			 r->findings);
		if (r->gone)
			fputs("\033[2m", fp);
		fprintf(fp, "%.*s\033[0m\033[K\r\n", width, line);
	}
	if (i < n)
		fprintf(fp, "... %zu more\033[K\r\n", n - i);
	if (h->unlisted && used < height)
		fprintf(fp, "(%llu unmounted too fast to list)\033[K\r\n", h->unlisted);
	fputs("\033[J", fp); /* rows that went away */
	fflush(fp);
}

void watch_render_lines(FILE *fp, time_t now, const struct watch_header *h,
			const struct watch_row *rows, size_t n)
{
	char ts[32], mp[1100], dev[24], fs[4 * PDT_FSTYPE_LEN];
	struct tm tm;
	size_t i;

	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%Y-%m-%dT%H:%M:%SZ", &tm);
	/* Once anything is lost, every interval says so: the counts are then a lower bound. */
	if (h->lost || h->map_full)
		fprintf(fp, "%s incomplete lost_events=%llu map_full=%llu\n", ts, h->lost,
			h->map_full);
	/* Counted from the first one on: a reader of the lines knows rows were left out. */
	if (h->unlisted)
		fprintf(fp, "%s unlisted unmounted=%llu\n", ts, h->unlisted);
	for (i = 0; i < n; i++) {
		const struct watch_row *r = &rows[i];

		mount_str(r, mp, sizeof(mp));
		pdt_format_dev(r->dev, dev, sizeof(dev));
		fprintf(fp,
			"%s %s %s %s persistent=%lld made=%llu discarded=%llu unpinned=%llu "
			"findings=%llu made_per_s=%.1f discarded_per_s=%.1f%s%s\n",
			ts, pdt_text_esc(fs, sizeof(fs), r->fs_type), dev, mp, r->persistent,
			r->made, r->discarded, r->unpinned, r->findings, r->made_rate,
			r->discarded_rate, r->seeded ? " seeded" : "", r->gone ? " unmounted" : "");
	}
	fflush(fp);
}

void watch_render_json(FILE *fp, time_t now, const struct watch_header *h,
		       const struct watch_row *rows, size_t n)
{
	struct pdt_json j;
	char dev[24];
	size_t i;
	int k;

	pdt_json_init(&j, fp);
	pdt_json_obj_open(&j);
	pdt_json_kv_int(&j, "time", (long long)now);
	pdt_json_name(&j, "elapsed");
	pdt_json_double(&j, "%.1f", h->elapsed);
	pdt_json_kv_uint(&j, "lost_events", h->lost);
	pdt_json_kv_uint(&j, "map_full", h->map_full);
	pdt_json_kv_uint(&j, "unlisted_unmounted", h->unlisted);
	pdt_json_name(&j, "findings");
	pdt_json_obj_open(&j);
	for (k = 0; k < PDT_KIND_MAX; k++)
		pdt_json_kv_uint(&j, pdt_kind_name((enum pdt_kind)k), h->findings[k]);
	pdt_json_obj_close(&j);
	pdt_json_name(&j, "superblocks");
	pdt_json_arr_open(&j);
	for (i = 0; i < n; i++) {
		const struct watch_row *r = &rows[i];

		pdt_format_dev(r->dev, dev, sizeof(dev));
		pdt_json_obj_open(&j);
		pdt_json_kv_str(&j, "fs_type", r->fs_type);
		pdt_json_kv_str(&j, "s_id", r->s_id);
		pdt_json_kv_str(&j, "dev", dev);
		pdt_json_kv_str(&j, "mountpoint", r->mountpoint);
		pdt_json_kv_int(&j, "mounts", r->nmounts);
		pdt_json_kv_int(&j, "persistent", r->persistent);
		pdt_json_kv_uint(&j, "made", r->made);
		pdt_json_kv_uint(&j, "discarded", r->discarded);
		pdt_json_kv_uint(&j, "unpinned", r->unpinned);
		pdt_json_kv_uint(&j, "findings", r->findings);
		pdt_json_name(&j, "made_per_s");
		pdt_json_double(&j, "%.1f", r->made_rate);
		pdt_json_name(&j, "discarded_per_s");
		pdt_json_double(&j, "%.1f", r->discarded_rate);
		pdt_json_kv_bool(&j, "seeded", r->seeded);
		pdt_json_kv_bool(&j, "unmounted", r->gone);
		pdt_json_obj_close(&j);
	}
	pdt_json_arr_close(&j);
	pdt_json_obj_close(&j);
	fputc('\n', fp);
	fflush(fp);
}

/*
 * Label values are UTF-8 with backslash, double quote and newline escaped (the text
 * exposition format). A byte that is not part of valid UTF-8 has no escape there: it
 * becomes U+FFFD, so that a scraper never rejects the whole page over one name.
 */
static void prom_label(FILE *fp, const char *name, const char *v, bool last)
{
	size_t len;

	fprintf(fp, "%s=\"", name);
	while (*v) {
		if (*v == '\\' || *v == '"') {
			fprintf(fp, "\\%c", *v++);
		} else if (*v == '\n') {
			fputs("\\n", fp);
			v++;
		} else if (!(*v & 0x80)) {
			fputc(*v++, fp);
		} else if ((len = pdt_utf8_len(v))) {
			fwrite(v, 1, len, fp);
			v += len;
		} else {
			fputs("\xef\xbf\xbd", fp);
			v++;
		}
	}
	fputs(last ? "\"" : "\",", fp);
}

static void prom_series(FILE *fp, const char *metric, const struct watch_row *r, long long v)
{
	char dev[24];

	pdt_format_dev(r->dev, dev, sizeof(dev));
	fprintf(fp, "%s{", metric);
	prom_label(fp, "fs_type", r->fs_type, false);
	prom_label(fp, "s_id", r->s_id, false);
	prom_label(fp, "dev", dev, false);
	prom_label(fp, "mountpoint", r->mountpoint, true);
	fprintf(fp, "} %lld\n", v);
}

void watch_render_prometheus(FILE *fp, const struct watch_header *h, const struct watch_row *rows,
			     size_t n)
{
	size_t i;
	int k;

	fputs("# HELP pdtrace_persistent_dentries Persistent dentries now, per superblock.\n"
	      "# TYPE pdtrace_persistent_dentries gauge\n",
	      fp);
	for (i = 0; i < n; i++)
		if (!rows[i].gone)
			prom_series(fp, "pdtrace_persistent_dentries", &rows[i],
				    rows[i].persistent);
	fputs("# HELP pdtrace_made_total Dentries made persistent since pdtrace started.\n"
	      "# TYPE pdtrace_made_total counter\n",
	      fp);
	for (i = 0; i < n; i++)
		if (!rows[i].gone)
			prom_series(fp, "pdtrace_made_total", &rows[i], (long long)rows[i].made);
	fputs(
	    "# HELP pdtrace_discarded_total Persistent dentries discarded since pdtrace started.\n"
	    "# TYPE pdtrace_discarded_total counter\n",
	    fp);
	for (i = 0; i < n; i++)
		if (!rows[i].gone)
			prom_series(fp, "pdtrace_discarded_total", &rows[i],
				    (long long)rows[i].discarded);
	fputs("# HELP pdtrace_findings_total Findings since pdtrace started, by kind.\n"
	      "# TYPE pdtrace_findings_total counter\n",
	      fp);
	for (k = 0; k < PDT_KIND_MAX; k++)
		fprintf(fp, "pdtrace_findings_total{kind=\"%s\"} %llu\n",
			pdt_kind_name((enum pdt_kind)k), h->findings[k]);
	fprintf(fp,
		"# HELP pdtrace_lost_events_total Events lost to a full ring buffer.\n"
		"# TYPE pdtrace_lost_events_total counter\n"
		"pdtrace_lost_events_total %llu\n"
		"# HELP pdtrace_map_full_total Insertions refused by full BPF maps (entries not "
		"tracked).\n"
		"# TYPE pdtrace_map_full_total counter\n"
		"pdtrace_map_full_total %llu\n",
		h->lost, h->map_full);
}
