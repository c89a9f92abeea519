// SPDX-License-Identifier: GPL-2.0
/* Unit tests of watch's screen, lines and Prometheus output, and of the seeding walk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "watch_seed.h"
#include "watch_view.h"

static struct watch_row rows[3];

static void setup_rows(void)
{
	memset(rows, 0, sizeof(rows));
	strcpy(rows[0].fs_type, "tmpfs");
	strcpy(rows[0].s_id, "tmpfs");
	strcpy(rows[0].mountpoint, "/mnt/a \"q\"");
	rows[0].nmounts = 2;
	rows[0].dev = 27;
	rows[0].persistent = 5;
	rows[0].made = 7;
	rows[0].discarded = 2;
	rows[0].made_rate = 3.5;
	strcpy(rows[1].fs_type, "debugfs");
	strcpy(rows[1].s_id, "debugfs");
	strcpy(rows[1].mountpoint, "/sys/kernel/debug");
	rows[1].nmounts = 1;
	rows[1].dev = 7;
	rows[1].persistent = 100;
	rows[1].seeded = true;
	strcpy(rows[2].fs_type, "ramfs");
	rows[2].dev = 30;
	rows[2].gone = true;
}

static char *capture(void (*fn)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	fn(fp);
	fclose(fp);
	return buf;
}

static const struct watch_header hdr = { "7.2.13", 12.0, 0, { 1, 0, 0 }, "finding: leak: x", 0, 0 };
static const struct watch_header hdr_full = { "7.2.13", 12.0, 3, { 0, 0, 0 }, NULL, 7, 0 };
static const struct watch_header hdr_unlisted = { "7.2.13", 12.0, 0, { 0, 0, 0 }, NULL, 0, 130 };

static void screen_80x24(FILE *fp)
{
	watch_render_screen(fp, &hdr, rows, 3, 80, 24);
}

static void screen_tiny(FILE *fp)
{
	watch_render_screen(fp, &hdr, rows, 3, 30, 4);
}

static void screen_short(FILE *fp)
{
	watch_render_screen(fp, &hdr, rows, 3, 80, 6);
}

static void screen_full(FILE *fp)
{
	watch_render_screen(fp, &hdr_full, rows, 3, 120, 24);
}

static void json_full(FILE *fp)
{
	watch_render_json(fp, 0, &hdr_full, rows, 1);
}

static void prom_full(FILE *fp)
{
	watch_render_prometheus(fp, &hdr_full, rows, 3);
}

/* Losses: lost events always shown, a full map when there was one. */
static void test_losses(void **state)
{
	char *s;

	(void)state;
	setup_rows();
	s = capture(screen_80x24);
	assert_null(strstr(s, "map full"));
	free(s);
	s = capture(screen_full);
	assert_non_null(strstr(s, "- lost events 3 - map full 7 - findings: 0 leak"));
	free(s);
	s = capture(json_full);
	assert_non_null(
	    strstr(s, "{\"time\":0,\"elapsed\":12.0,\"lost_events\":3,\"map_full\":7,"));
	free(s);
	s = capture(prom_full);
	assert_non_null(strstr(s, "pdtrace_lost_events_total 3\n"));
	assert_non_null(
	    strstr(s, "# TYPE pdtrace_map_full_total counter\npdtrace_map_full_total 7\n"));
	free(s);
}

static void test_screen(void **state)
{
	char *s;

	(void)state;
	setup_rows();
	watch_sort_rows(rows, 3, WATCH_SORT_PERSISTENT);
	assert_string_equal(rows[0].fs_type, "debugfs");
	s = capture(screen_80x24);
	assert_non_null(strstr(s, "pdtrace watch - Linux 7.2.13 - up 12s - lost events 0"));
	assert_non_null(strstr(s, "finding: leak: x"));
	assert_non_null(strstr(s, "debugfs      0:7      /sys/kernel/debug"));
	assert_non_null(strstr(s, "/mnt/a \"q\" (+1)"));
	assert_non_null(strstr(s, "      100*"));   /* seeded */
	assert_non_null(strstr(s, "\033[2mramfs")); /* gone: greyed */
	free(s);
	s = capture(screen_tiny);
	assert_non_null(strstr(s, "terminal too small (30x4)"));
	assert_null(strstr(s, "FSTYPE"));
	free(s);
	/* 6 lines: header, status, column titles, 2 rows, and "... 1 more". */
	s = capture(screen_short);
	assert_non_null(strstr(s, "... 1 more"));
	free(s);
	/* A mountpoint's escape sequence is shown, not obeyed: \x1b as text, no raw ESC. */
	setup_rows();
	strcpy(rows[1].mountpoint, "/m\033]0;owned\007\033[2J\n");
	s = capture(screen_80x24);
	assert_non_null(strstr(s, "/m\\x1b]0;owned\\x07\\x1b[2J\\x0a"));
	assert_null(strstr(s, "\033]0;"));
	assert_null(strstr(s, "\007"));
	free(s);
}

static void lines(FILE *fp)
{
	watch_render_lines(fp, 0, &hdr, rows, 2);
}

static void lines_full(FILE *fp)
{
	watch_render_lines(fp, 0, &hdr_full, rows, 1);
}

static void test_lines(void **state)
{
	char *s;

	(void)state;
	setup_rows();
	s = capture(lines);
	assert_string_equal(
	    s, "1970-01-01T00:00:00Z tmpfs 0:27 /mnt/a \"q\" (+1) persistent=5 made=7 discarded=2 "
	       "unpinned=0 findings=0 made_per_s=3.5 discarded_per_s=0.0\n"
	       "1970-01-01T00:00:00Z debugfs 0:7 /sys/kernel/debug persistent=100 made=0 "
	       "discarded=0 unpinned=0 findings=0 made_per_s=0.0 discarded_per_s=0.0 seeded\n");
	assert_null(strchr(s, '\033'));
	free(s);
	/* Losses: a line of their own, first, every interval. */
	s = capture(lines_full);
	assert_true(!strncmp(s, "1970-01-01T00:00:00Z incomplete lost_events=3 map_full=7\n", 57));
	assert_non_null(strstr(s, "\n1970-01-01T00:00:00Z tmpfs 0:27 "));
	free(s);
}

static void lines_unlisted(FILE *fp)
{
	watch_render_lines(fp, 0, &hdr_unlisted, rows, 1);
}

static void json_unlisted(FILE *fp)
{
	watch_render_json(fp, 0, &hdr_unlisted, rows, 1);
}

static void screen_unlisted(FILE *fp)
{
	watch_render_screen(fp, &hdr_unlisted, rows, 3, 80, 24);
}

/* Superblocks gone too fast to get a row are counted in every output but Prometheus's. */
static void test_unlisted(void **state)
{
	char *s;

	(void)state;
	setup_rows();
	s = capture(lines_unlisted);
	assert_true(!strncmp(s, "1970-01-01T00:00:00Z unlisted unmounted=130\n", 44));
	free(s);
	s = capture(lines);
	assert_null(strstr(s, "unlisted"));
	free(s);
	s = capture(json_unlisted);
	assert_non_null(strstr(s, "\"map_full\":0,\"unlisted_unmounted\":130,\"findings\""));
	free(s);
	s = capture(screen_unlisted);
	assert_non_null(strstr(s, "(130 unmounted too fast to list)"));
	free(s);
	s = capture(screen_80x24);
	assert_null(strstr(s, "too fast"));
	free(s);
}

static void prom(FILE *fp)
{
	watch_render_prometheus(fp, &hdr, rows, 3);
}

static void test_prometheus(void **state)
{
	char *s;

	(void)state;
	setup_rows();
	s = capture(prom);
	assert_non_null(strstr(s, "# TYPE pdtrace_persistent_dentries gauge\n"));
	assert_non_null(strstr(s, "pdtrace_persistent_dentries{fs_type=\"tmpfs\",s_id=\"tmpfs\","
				  "dev=\"0:27\",mountpoint=\"/mnt/a \\\"q\\\"\"} 5\n"));
	assert_non_null(strstr(s, "pdtrace_made_total{fs_type=\"tmpfs\""));
	assert_non_null(strstr(s, "pdtrace_findings_total{kind=\"leak\"} 1\n"));
	assert_non_null(strstr(s, "pdtrace_lost_events_total 0\n"));
	assert_null(strstr(s, "ramfs")); /* gone rows are not exported */
	free(s);
	/* A mountpoint with every kind of byte: the page stays UTF-8, escapes as the format says. */
	strcpy(rows[0].mountpoint, "/m\\n\nl\"q\ttab\x1b[1m caf\xc3\xa9 \xff\xc3");
	s = capture(prom);
	assert_non_null(strstr(s, "mountpoint=\"/m\\\\n\\nl\\\"q\ttab\x1b[1m caf\xc3\xa9 "
				  "\xef\xbf\xbd\xef\xbf\xbd\"} 5\n"));
	/* tests/host/cli.sh has the Prometheus client's own parser read this page. */
	if (getenv("PDT_PROM_OUT")) {
		FILE *fp = fopen(getenv("PDT_PROM_OUT"), "w");

		assert_non_null(fp);
		fputs(s, fp);
		fclose(fp);
	}
	free(s);
}

static void test_seed_walk(void **state)
{
	char dir[] = "/tmp/pdt-seed-XXXXXX", p[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/a", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/a/f", dir);
	fclose(fopen(p, "w"));
	snprintf(p, sizeof(p), "%s/events", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/events/e1", dir);
	fclose(fopen(p, "w"));
	assert_int_equal(watch_count_tree(dir, "tmpfs"), 4);
	/* tracefs: "events" is counted, its eventfs contents are not. */
	assert_int_equal(watch_count_tree(dir, "tracefs"), 3);
	assert_int_equal(watch_count_tree("/nonexistent/x", "tmpfs"), -1);
	assert_true(watch_is_tree_in_dcache("configfs"));
	assert_false(watch_is_tree_in_dcache("ext4"));
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_screen),	   cmocka_unit_test(test_lines),
		cmocka_unit_test(test_prometheus), cmocka_unit_test(test_losses),
		cmocka_unit_test(test_seed_walk),  cmocka_unit_test(test_unlisted),
	};

	return cmocka_run_group_tests_name("watch", tests, NULL, NULL);
}
