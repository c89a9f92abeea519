// SPDX-License-Identifier: GPL-2.0
/* Unit tests of symbolization, mountinfo parsing and the report formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "fixtures.h"
#include "json.h"
#include "ksyms.h"
#include "mountinfo.h"
#include "gate.h"
#include "hooks.h"
#include "report.h"
#include "report_formats.h"
#include "rules.h"
#include "suppress.h"

static const char kallsyms[] = "ffffffff81000000 T _stext\n"
			       "ffffffff81000100 t d_make_persistent\n"
			       "ffffffff81000200 T dput\n"
			       "ffffffff81000300 D some_data\n"
			       "0000000000000000 T hidden_by_kptr_restrict\n"
			       "ffffffffc0000000 t configfs_rmdir\t[configfs]\n"
			       "ffffffffc0100000 t ftrace_trampoline\t[__builtin__ftrace]\n"
			       "garbage line\n";

static struct ksyms *load_syms(void)
{
	return fixture_ksyms(kallsyms);
}

static void test_ksyms(void **state)
{
	struct ksyms *k = load_syms();
	char buf[128];

	(void)state;
	assert_int_equal(k->n, 5); /* text symbols with real addresses only */
	ksyms_format_at(k, 0xffffffff81000110ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "d_make_persistent+0x10");
	ksyms_format_at(k, 0xffffffffc0000004ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "configfs_rmdir+0x4 [configfs]");
	ksyms_format_at(k, 0x1000, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "?");
	/* A trampoline is a page: past it is a module's code, maybe one that is gone. */
	ksyms_format_at(k, 0xffffffffc0100ff0ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "ftrace_trampoline+0xff0 [__builtin__ftrace]");
	ksyms_format_at(k, 0xffffffffc0103089ULL, 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "?");
	ksyms_format_at(k, 0xffffffff81000200ULL, 0, 1, buf, sizeof(buf));
	assert_string_equal(buf, "0xffffffff81000200 dput+0x0");
	ksyms_free(k);
}

static void test_mountinfo(void **state)
{
	static const char mi[] = "22 1 0:21 / /proc rw - proc proc rw\n"
				 "30 22 0:27 / /mnt/with\\040space rw - tmpfs t rw\n"
				 "31 22 0:27 / /mnt/again rw - tmpfs t rw\n"
				 "32 22 8:1 / / rw - ext4 /dev/sda1 rw\n";
	char mp[256];
	FILE *fp;

	(void)state;
	fp = fmemopen((void *)mi, sizeof(mi) - 1, "r");
	assert_int_equal(mountinfo_lookup(fp, 27, mp, sizeof(mp)), 2);
	assert_string_equal(mp, "/mnt/with space");
	fclose(fp);
	fp = fmemopen((void *)mi, sizeof(mi) - 1, "r");
	assert_int_equal(mountinfo_lookup(fp, 8u << 20 | 1, mp, sizeof(mp)), 1);
	assert_string_equal(mp, "/");
	fclose(fp);
	fp = fmemopen((void *)mi, sizeof(mi) - 1, "r");
	assert_int_equal(mountinfo_lookup(fp, 99, mp, sizeof(mp)), 0);
	assert_string_equal(mp, "");
	fclose(fp);
}

/* A run with one finding (a persistent dentry left after umount). */
/* The leak's path: one with XML's special characters, or any other (fixture_path). */
static const char *fixture_path = "/a<b>&\"c\"";
/* The superblock's s_id (a filesystem's source name: whatever its mounter chose). */
static const char *fixture_sid = "tmpfs";
/* Its mountpoint ("": not mounted, the s_id names it). */
static const char *fixture_mount = "/mnt/t";

static struct pdt_rules *one_leak(void)
{
	struct pdt_rules *r = pdt_rules_new();
	struct pdt_event_full e = {};

	e.h.type = PDT_EV_PERSIST;
	e.h.size = sizeof(e);
	e.h.dentry = 0xffff888012345678ULL;
	e.h.parent = 0xffff888000000001ULL;
	e.h.sb = 0xffff888000100000ULL;
	e.h.dev = 27;
	e.h.origin = PDT_ORIGIN_USER;
	strcpy(e.h.comm, "mk\"dir");
	strcpy(e.fs_type, "tmpfs");
	snprintf(e.s_id, sizeof(e.s_id), "%s", fixture_sid);
	snprintf(e.path, sizeof(e.path), "%s", fixture_path);
	e.nstack = 1;
	e.stack[0] = 0xffffffff81000104ULL;
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
	e.h.type = PDT_EV_SB_DOWN;
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
	return r;
}

static char *render(enum pdt_format fmt, bool addrs, bool complete)
{
	struct pdt_rules *r = one_leak();
	struct ksyms *k = load_syms();
	struct pdt_mount m = { "", 1 };
	char *argv[] = { "sh", "-c", "true", NULL }, *buf = NULL;
	const char *missing[] = { "umount_check() not traceable here: lost x" };
	struct pdt_report rep = { .version = "0.1.0",
				  .kernel = "7.2.13",
				  .complete = complete,
				  .lost_events = complete ? 0 : 5,
				  .argv = argv,
				  .exit_status = 0,
				  .rules = r,
				  .mounts = &m,
				  .nmounts = 1,
				  .missing = missing,
				  .nmissing = 1,
				  .ksyms = k,
				  .show_addresses = addrs };
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	snprintf(m.path, sizeof(m.path), "%s", fixture_mount);
	rep.start_ns = 1765150062123456789ULL;
	rep.machine = "x86_64";
	pdt_report_write(fp, fmt, &rep);
	fclose(fp);
	ksyms_free(k);
	pdt_rules_free(r);
	return buf;
}

/* Every byte outside printable ASCII escaped, whatever the kernel's names hold. */
static void test_json_str(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(fp);
	pdt_json_str(fp, "a\"b\\c\nd\te\x7f\xc3\xa9/");
	pdt_json_str(fp, "");
	fclose(fp);
	assert_string_equal(buf, "\"a\\\"b\\\\c\\nd\\u0009e\\u007f\\u00c3\\u00a9/\"\"\"");
	free(buf);
}

/* The writer places every comma and colon: nesting, empty containers, null strings. */
static void test_json_writer(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct pdt_json j;

	(void)state;
	pdt_json_init(&j, fp);
	pdt_json_obj_open(&j);
	pdt_json_kv_str(&j, "a", "x\"y");
	pdt_json_name(&j, "b");
	pdt_json_arr_open(&j);
	pdt_json_uint(&j, 1);
	pdt_json_obj_open(&j);
	pdt_json_kv_bool(&j, "t", true);
	pdt_json_kv_str(&j, "n", NULL);
	pdt_json_obj_close(&j);
	pdt_json_arr_open(&j);
	pdt_json_arr_close(&j);
	pdt_json_int(&j, -2);
	pdt_json_arr_close(&j);
	pdt_json_name(&j, "c");
	pdt_json_obj_open(&j);
	pdt_json_obj_close(&j);
	pdt_json_name(&j, "d");
	pdt_json_double(&j, "%.1f", 2.25);
	pdt_json_obj_close(&j);
	fclose(fp);
	assert_string_equal(buf, "{\"a\":\"x\\\"y\",\"b\":[1,{\"t\":true,\"n\":null},[],-2],"
				 "\"c\":{},\"d\":2.2}");
	free(buf);
}

static void test_json_report(void **state)
{
	char *s = render(PDT_FMT_JSON, false, true);

	(void)state;
	assert_non_null(strstr(s, "\"complete\":true"));
	assert_non_null(strstr(s, "\"argv\":[\"sh\",\"-c\",\"true\"],\"exit_status\":0"));
	assert_non_null(strstr(s, "\"fs_type\":\"tmpfs\",\"s_id\":\"tmpfs\",\"dev\":\"0:27\","
				  "\"mountpoint\":\"/mnt/t\",\"mounts\":1,\"made\":1"));
	assert_non_null(strstr(s, "\"unmounted\":true"));
	assert_non_null(strstr(s, "\"rule\":\"pinned-after-umount\""));
	assert_non_null(strstr(s, "\"path\":\"/a<b>&\\\"c\\\"\""));
	assert_non_null(strstr(s, "\"comm\":\"mk\\\"dir\""));
	assert_non_null(strstr(s, "\"created_stack\":[\"d_make_persistent+0x4\"],"
				  "\"created_by\":{\"pid\":0,\"comm\":\"mk\\\"dir\"}"));
	assert_non_null(
	    strstr(s, "\"summary\":{\"leak\":1,\"imbalance\":1,\"illegal-removal\":0}"));
	assert_non_null(strstr(
	    s, "\"signature\":\"c844870819613c42\",\"signature_key\":"
	       "\"leak/pinned-after-umount tmpfs /a<b>&\\\"c\\\" | at\",\"suppressed_by\":null,"
	       "\"known\":false}"));
	/* No kernel address anywhere unless asked. */
	assert_null(strstr(s, "ffff"));
	free(s);
	s = render(PDT_FMT_JSON, true, false);
	assert_non_null(strstr(s, "0xffffffff81000104 d_make_persistent+0x4"));
	assert_non_null(strstr(s, "\"complete\":false,\"lost_events\":5"));
	free(s);
}

static void test_text_report(void **state)
{
	char *s = render(PDT_FMT_TEXT, false, false);

	(void)state;
	assert_non_null(strstr(s, "leak: pinned-after-umount: tmpfs 0:27 /a<b>&\"c\"\n"));
	assert_non_null(strstr(s, "  made persistent by pid 0 (mk\"dir)\n  made persistent at:\n"
				  "    d_make_persistent+0x4\n"));
	assert_non_null(strstr(s, "coverage: umount_check() not traceable here"));
	assert_non_null(strstr(s, "INCOMPLETE: 5 events lost"));
	assert_non_null(strstr(s, "INCOMPLETE: 2 findings rest on an event that did not come"));
	assert_non_null(strstr(s, "summary: 1 leak, 1 imbalance, 0 illegal-removal"));
	assert_null(strstr(s, "ffff"));
	/* Every finding's signature, its key escaped like the path it holds. */
	assert_non_null(strstr(s, "/a<b>&\"c\"\n  still persistent after the umount of its "
				  "superblock: the umount walk never reached it\n  signature: "
				  "c844870819613c42 "
				  "leak/pinned-after-umount tmpfs /a<b>&\"c\" | at\n"));
	free(s);
}

/*
 * With events lost, a leak at umount or an unbalanced superblock may be an unpin or a
 * discard that was lost: such findings alone give "incomplete" (3), not 1. A finding
 * observed directly (a discard of an entry that was not persistent) still gives 1.
 */
static void test_status_with_lost_events(void **state)
{
	struct pdt_rules *r = one_leak();
	struct pdt_report rep = { .rules = r, .complete = true };
	const bool all[PDT_KIND_MAX] = { [0 ... PDT_KIND_MAX - 1] = true };
	bool none[PDT_KIND_MAX] = { false };
	struct pdt_event_full e = {};

	(void)state;
	assert_int_equal(pdt_rules_count_by_absence(r, PDT_KIND_LEAK), 1);
	assert_int_equal(pdt_rules_count_by_absence(r, PDT_KIND_IMBALANCE), 1);
	assert_int_equal(pdt_report_status(&rep, all), 1);
	assert_int_equal(pdt_report_status(&rep, none), 0);
	rep.complete = false;
	rep.lost_events = 1;
	assert_int_equal(pdt_report_status(&rep, all), 3);
	e.h.type = PDT_EV_DISCARD;
	e.h.size = sizeof(e);
	e.h.dentry = 0xffff888000000700ULL;
	e.h.sb = 0xffff888000200000ULL;
	e.h.refcount = 1;
	e.h.flags = PDT_F_WAS_POSITIVE;
	strcpy(e.fs_type, "tmpfs");
	strcpy(e.path, "/x");
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
	assert_int_equal(pdt_rules_count(r, PDT_KIND_IMBALANCE), 2);
	assert_int_equal(pdt_report_status(&rep, all), 1);
	none[PDT_KIND_IMBALANCE] = true;
	assert_int_equal(pdt_report_status(&rep, none), 1);
	none[PDT_KIND_IMBALANCE] = false;
	none[PDT_KIND_LEAK] = true;
	assert_int_equal(pdt_report_status(&rep, none), 3);
	pdt_rules_free(r);
}

/* A user-space creation without its stack (the default): who made it, not where. */
static void test_user_creation_without_stack(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	struct pdt_event_full e = {};
	struct pdt_report rep = { .version = "0.1.0", .kernel = "7.2.13", .rules = r };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	e.h.type = PDT_EV_PERSIST;
	e.h.size = sizeof(e);
	e.h.dentry = 0xffff888012345678ULL;
	e.h.sb = 0xffff888000100000ULL;
	e.h.origin = PDT_ORIGIN_USER;
	e.h.pid = 42;
	strcpy(e.h.comm, "mkdir");
	strcpy(e.fs_type, "tmpfs");
	strcpy(e.path, "/u");
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
	e.h.type = PDT_EV_SB_DOWN;
	e.h.pid = 7;
	strcpy(e.h.comm, "umount");
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
	fp = open_memstream(&buf, &len);
	pdt_report_write(fp, PDT_FMT_TEXT, &rep);
	pdt_report_write(fp, PDT_FMT_JSON, &rep);
	fclose(fp);
	assert_non_null(
	    strstr(buf, "by pid 7 (umount)\n  made persistent by pid 42 (mkdir), a "
			"user-space creation (its kernel stack is kept with --user-stacks)\n"));
	assert_null(strstr(buf, "made persistent at"));
	assert_non_null(
	    strstr(buf, "\"created_stack\":[],\"created_by\":{\"pid\":42,\"comm\":\"mkdir\"}"));
	free(buf);
	pdt_rules_free(r);
}

static void test_junit_report(void **state)
{
	char *s = render(PDT_FMT_JUNIT, false, true);
	const char *f;

	(void)state;
	/* Two findings on one superblock: one failed case, one failure listing both. */
	assert_non_null(strstr(s, "<testsuite name=\"pdtrace\" tests=\"2\" failures=\"1\""));
	assert_non_null(strstr(s, "<testcase classname=\"pdtrace.tmpfs\" name=\"tmpfs /mnt/t\">"));
	assert_non_null(f = strstr(s, "<failure type=\"findings\" message=\"2 findings: "
				      "pinned-after-umount: /a&lt;b&gt;&amp;&quot;c&quot;; "
				      "sb-balance: /\">"));
	assert_null(strstr(f + 1, "<failure"));
	assert_non_null(strstr(f, "leak: pinned-after-umount: tmpfs 0:27 /a&lt;b&gt;"));
	assert_non_null(strstr(f, "imbalance: sb-balance: tmpfs 0:27 /\n"));
	assert_non_null(strstr(f, "\n  signature: c844870819613c42 leak/pinned-after-umount "
				  "tmpfs /a&lt;b&gt;&amp;&quot;c&quot; | at\n"));
	assert_null(strstr(s, "<b>"));
	free(s);
	/*
	 * Every byte a name can hold: tests/host/cli.sh validates this report against the
	 * Ant JUnit schema (tests/host/junit.xsd) with xmllint.
	 */
	fixture_path = "/a<b>&\"c\"\x1b[1m\x01\x7f\xff\xc3\xa9\\x";
	s = render(PDT_FMT_JUNIT, false, true);
	fixture_path = "/a<b>&\"c\"";
	assert_null(strchr(s, '\x1b'));
	assert_null(strchr(s, '\x01'));
	if (getenv("PDT_JUNIT_OUT")) {
		FILE *fp = fopen(getenv("PDT_JUNIT_OUT"), "w");

		assert_non_null(fp);
		fputs(s, fp);
		fclose(fp);
	}
	free(s);
}

static void test_ktap_report(void **state)
{
	char *s = render(PDT_FMT_KTAP, false, true);
	const char *f;

	(void)state;
	/* The plan, complete data, then the superblock's findings before its result. */
	assert_non_null(strstr(s, "KTAP version 1\n# pdtrace 0.1.0, kernel 7.2.13\n1..2\n"
				  "ok 1 complete data\n"));
	assert_non_null(f = strstr(s, "\n# leak: pinned-after-umount: tmpfs 0:27 /a<b>&\"c\"\n"));
	assert_non_null(strstr(f, "\n#   signature: c844870819613c42 leak/pinned-after-umount "
				  "tmpfs /a<b>&\"c\" | at\n"));
	assert_non_null(f = strstr(f, "\n# imbalance: sb-balance: tmpfs 0:27 /\n"));
	assert_non_null(f = strstr(f, "\nnot ok 2 tmpfs /mnt/t\n"));
	assert_non_null(strstr(f, "\n# summary: 1 leak, 1 imbalance, 0 illegal-removal\n"));
	assert_null(strstr(s, "\nok 3"));
	free(s);
	s = render(PDT_FMT_KTAP, false, false);
	assert_non_null(strstr(s, "1..2\n# incomplete: 5 events lost, 0 map insertions refused, "
				  "0 malformed events, 0 superblocks whose books differ from the "
				  "kernel\nnot ok 1 complete data\n"));
	free(s);
	/*
	 * A '#' in a test name would end it ("ok 2 name # SKIP"): \x23. Control bytes and a
	 * newline in a path stay inside their diagnostic line. tests/host/cli.sh runs the
	 * kernel's KTAP parser on this report.
	 */
	fixture_path = "/a#b\nok 9 x\x1b[1m\xff\\x";
	fixture_sid = "s#1 # SKIP";
	fixture_mount = "";
	s = render(PDT_FMT_KTAP, false, true);
	fixture_path = "/a<b>&\"c\"";
	fixture_sid = "tmpfs";
	fixture_mount = "/mnt/t";
	assert_null(strchr(s, '\x1b'));
	assert_null(strstr(s, "\nok 9"));
	assert_non_null(strstr(s, "\n# leak: pinned-after-umount: tmpfs 0:27 /a#b\\x0aok 9 "
				  "x\\x1b[1m\\xff\\\\x\n"));
	assert_non_null(strstr(s, "\nnot ok 2 tmpfs s\\x231 \\x23 SKIP\n"));
	if (getenv("PDT_KTAP_OUT")) {
		FILE *fp = fopen(getenv("PDT_KTAP_OUT"), "w");

		assert_non_null(fp);
		fputs(s, fp);
		fclose(fp);
	}
	free(s);
}

/* A persistent entry made on superblock sb (device dev) of fs_type. */
static void persist_on(struct pdt_rules *r, unsigned long long sb, unsigned int dev,
		       const char *fs_type, const char *s_id)
{
	struct pdt_event_full e = {};

	e.h.type = PDT_EV_PERSIST;
	e.h.size = sizeof(e);
	e.h.dentry = sb + 0x1000;
	e.h.sb = sb;
	e.h.dev = dev;
	snprintf(e.fs_type, sizeof(e.fs_type), "%s", fs_type);
	snprintf(e.s_id, sizeof(e.s_id), "%s", s_id);
	strcpy(e.path, "/e");
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
}

/*
 * Test names stay the same from boot to boot: no device number, the mountpoint (or the
 * s_id), and the second superblock of a name numbered in the order the books met it,
 * whatever the device numbers' order.
 */
static void test_sb_names(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	struct pdt_mount m[4] = { { "/mnt/t", 1 }, { "/mnt/t", 1 }, { "", 0 }, { "/", 1 } };
	struct pdt_report rep = { .rules = r, .mounts = m, .nmounts = 4 };
	char name[PDT_SB_NAME_LEN];

	(void)state;
	persist_on(r, 0xffff888000100000ULL, 40, "tmpfs", "tmpfs");
	persist_on(r, 0xffff888000200000ULL, 27, "tmpfs", "tmpfs");
	persist_on(r, 0xffff888000300000ULL, 28, "configfs", "con fig#");
	persist_on(r, 0xffff888000400000ULL, 29, "ramfs", "none");
	pdt_report_sb_name(&rep, 0, name, sizeof(name));
	assert_string_equal(name, "tmpfs /mnt/t");
	pdt_report_sb_name(&rep, 1, name, sizeof(name));
	assert_string_equal(name, "tmpfs /mnt/t (2)");
	pdt_report_sb_name(&rep, 2, name, sizeof(name));
	assert_string_equal(name, "configfs con fig#");
	pdt_kcidb_sb_path(&rep, 1, name, sizeof(name));
	assert_string_equal(name, "pdtrace.tmpfs.superblock.mnt_t-2");
	pdt_kcidb_sb_path(&rep, 2, name, sizeof(name));
	assert_string_equal(name, "pdtrace.configfs.superblock.con_fig_");
	pdt_kcidb_sb_path(&rep, 3, name, sizeof(name));
	assert_string_equal(name, "pdtrace.ramfs.superblock._");
	pdt_rules_free(r);
}

/* The text report of rep, in a string. */
static char *text_of(const struct pdt_report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	pdt_report_write(fp, PDT_FMT_TEXT, rep);
	fclose(fp);
	return buf;
}

/* summary: counts what fails the gate, and says apart what it let pass. */
static void test_summary_gate(void **state)
{
	const char supp[] = "{\nleaks\nleak:*\n}\n{\nimb\nimbalance:*\n}\n";
	struct pdt_rules *r = one_leak();
	struct ksyms *k = load_syms();
	struct pdt_report rep = {
		.version = "0.1.0", .kernel = "7.2.13", .rules = r, .ksyms = k, .complete = true
	};
	struct pdt_supp *sp = pdt_supp_new();
	FILE *fp = fmemopen((void *)supp, sizeof(supp) - 1, "r");
	const bool all[PDT_KIND_MAX] = { true, true, true };
	struct pdt_gate *g;
	char err[128], *s;

	(void)state;
	assert_int_equal(pdt_supp_parse(sp, "k.supp", fp, err, sizeof(err)), 0);
	fclose(fp);
	s = text_of(&rep);
	assert_non_null(strstr(s, "\nsummary: 1 leak, 1 imbalance, 0 illegal-removal\n"));
	free(s);
	g = pdt_gate_new(sp, NULL);
	assert_int_equal(pdt_gate_judge(g, r, k), 0);
	rep.gate = g;
	s = text_of(&rep);
	assert_non_null(
	    strstr(s, "\nsummary: 0 leak, 0 imbalance, 0 illegal-removal (2 suppressed)\n"));
	assert_int_equal(pdt_report_status(&rep, all), 0);
	free(s);
	pdt_gate_free(g);
	ksyms_free(k);
	pdt_rules_free(r);
}

/*
 * The kernel release is in the text report; configfs_rmdir()'s coverage line only when
 * a configfs superblock came (or when nobody says: it fails closed).
 */
static void test_kernel_and_coverage(void **state)
{
	const char *missing[] = {
		"configfs_rmdir() not traceable here: lost illegal-removal of configfs directories",
		"umount_check() not traceable here: lost x"
	};
	struct pdt_rules *r = one_leak();
	bool seen[PDT_MAX_HOOKS] = { false };
	struct pdt_report rep = { .version = "0.1.0",
				  .kernel = "7.2.13+deb14-amd64",
				  .rules = r,
				  .complete = true,
				  .missing = missing,
				  .nmissing = 2 };
	char *s;

	(void)state;
	s = text_of(&rep);
	assert_non_null(strstr(s, "\nkernel: 7.2.13+deb14-amd64\n"));
	assert_non_null(strstr(s, "\ncoverage: configfs_rmdir() not traceable here"));
	free(s);
	rep.fs_seen = seen;
	s = text_of(&rep);
	assert_null(strstr(s, "configfs_rmdir"));
	assert_non_null(strstr(s, "\ncoverage: umount_check() not traceable here"));
	free(s);
	pdt_hooks_note_fs(seen, "tmpfs");
	s = text_of(&rep);
	assert_null(strstr(s, "configfs_rmdir"));
	free(s);
	pdt_hooks_note_fs(seen, "configfs");
	s = text_of(&rep);
	assert_non_null(strstr(s, "\ncoverage: configfs_rmdir() not traceable here"));
	free(s);
	pdt_rules_free(r);
}

/* KCIDB: the kernel, a test per superblock and per finding at stable paths. */
static void test_kcidb_report(void **state)
{
	char *s = render(PDT_FMT_KCIDB, false, true), *again;
	const char *run;

	(void)state;
	assert_non_null(strstr(s, "{\"version\":{\"major\":5,\"minor\":3},\"checkouts\":[{\"id\":"
				  "\"pdtrace:"));
	run = strstr(s, "\"id\":\"pdtrace:") + 6;
	assert_non_null(strstr(s, "\"architecture\":\"x86_64\""));
	assert_non_null(strstr(s, "\"environment\":{\"comment\":\"Linux 7.2.13 x86_64\",\"misc\":"
				  "{\"kernel_release\":\"7.2.13\""));
	assert_non_null(strstr(s, "\"start_time\":\"2025-12-07T23:27:42.123Z\""));
	assert_non_null(strstr(s, "\"path\":\"pdtrace.complete_data\",\"status\":\"PASS\""));
	assert_non_null(
	    strstr(s, "\"path\":\"pdtrace.tmpfs.superblock.mnt_t\",\"status\":\"FAIL\""));
	assert_non_null(
	    strstr(s, "\"path\":\"pdtrace.tmpfs.leak.pinned-after-umount\",\"status\":\"FAIL\""));
	assert_non_null(
	    strstr(s, "\"path\":\"pdtrace.tmpfs.imbalance.sb-balance\",\"status\":\"FAIL\""));
	assert_non_null(strstr(s, "\"comment\":\"tmpfs /mnt/t\""));
	assert_non_null(strstr(s, "\"signature\":\"c844870819613c42\""));
	assert_null(strstr(s, "null"));
	assert_null(strstr(s, "ffff"));
	/* The same data, the same ids: a recording reported twice is one run. */
	again = render(PDT_FMT_KCIDB, false, true);
	assert_string_equal(s, again);
	assert_int_equal(strncmp(run, "pdtrace:", 8), 0);
	free(again);
	free(s);
	s = render(PDT_FMT_KCIDB, false, false);
	assert_non_null(strstr(s, "\"path\":\"pdtrace.complete_data\",\"status\":\"ERROR\""));
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ksyms),
		cmocka_unit_test(test_mountinfo),
		cmocka_unit_test(test_json_str),
		cmocka_unit_test(test_json_writer),
		cmocka_unit_test(test_json_report),
		cmocka_unit_test(test_text_report),
		cmocka_unit_test(test_junit_report),
		cmocka_unit_test(test_ktap_report),
		cmocka_unit_test(test_status_with_lost_events),
		cmocka_unit_test(test_user_creation_without_stack),
		cmocka_unit_test(test_sb_names),
		cmocka_unit_test(test_summary_gate),
		cmocka_unit_test(test_kernel_and_coverage),
		cmocka_unit_test(test_kcidb_report),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
