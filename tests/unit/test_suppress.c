// SPDX-License-Identifier: GPL-2.0
/* Unit tests of suppression files: the patterns, the parser, the matcher, the generator. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "fixtures.h"
#include "gate.h"
#include "ksyms.h"
#include "pattern.h"
#include "rules.h"
#include "suppress.h"

#define BASE 0xffffffff81000000ULL
#define MOD 0xffffffffc0000000ULL

static struct ksyms *syms_at(unsigned long long base, unsigned long long mod)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "%llx t d_make_discardable\n%llx T vfs_write\n%llx T ksys_write\n"
		 "%llx T do_syscall_64\n%llx t d_make_persistent\n"
		 "%llx t pdt_orphan\t[pdt_faultfs]\n%llx t pdt_ctl_write.cold\t[pdt_faultfs]\n"
		 "%llx t pdt_pin\t[pdt_faultfs]\n",
		 base, base + 0x100, base + 0x200, base + 0x300, base + 0x400, mod, mod + 0x100,
		 mod + 0x200);
	return fixture_ksyms(text);
}

/* An orphaned leak of the kernel's /inst<N>/child, as one boot sees it. */
static void orphan(struct pdt_finding *f, unsigned long long base, unsigned long long mod, int n)
{
	const unsigned long long st[] = { base + 9,	mod + 4,      mod + 0x104,
					  base + 0x104, base + 0x204, base + 0x304 };
	const unsigned long long made[] = { base + 0x409, mod + 0x204, mod + 4, mod + 0x104,
					    base + 0x104 };

	memset(f, 0, sizeof(*f));
	f->kind = PDT_KIND_LEAK;
	f->rule_id = PDT_R_ORPHANED;
	f->rule = pdt_rule_table[f->rule_id].name;
	strcpy(f->fs_type, "pdtfaultfs");
	snprintf(f->path, sizeof(f->path), "/inst%d/child", n);
	f->origin = PDT_ORIGIN_KERNEL;
	f->nstack = 6;
	memcpy(f->stack, st, sizeof(st));
	f->ncreated = 5;
	memcpy(f->created, made, sizeof(made));
}

static struct pdt_supp *parse(const char *text, int want_rc, char *err, size_t n)
{
	struct pdt_supp *s = pdt_supp_new();
	FILE *fp = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(s);
	assert_non_null(fp);
	err[0] = '\0';
	assert_int_equal(pdt_supp_parse(s, "t.supp", fp, err, n), want_rc);
	fclose(fp);
	return s;
}

static void test_patterns(void **state)
{
	(void)state;
	assert_true(pdt_pattern_match("*", ""));
	assert_true(pdt_pattern_match("/a/*", "/a/b/c"));
	assert_true(pdt_pattern_match("*child", "/x/child"));
	assert_false(pdt_pattern_match("*child", "/x/childs"));
	assert_true(pdt_pattern_match("/inst#/c?ild", "/inst42/child"));
	assert_false(pdt_pattern_match("/inst#/child", "/inst/child"));
	assert_false(pdt_pattern_match("/inst#", "/inst4x"));
	assert_true(pdt_pattern_match("a\\*b\\?\\#\\\\", "a*b?#\\"));
	assert_false(pdt_pattern_match("a\\*b", "axb"));
	assert_true(pdt_pattern_match("\\x1b[1m*", "\x1b[1mx"));
	assert_true(pdt_pattern_match("*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaab"));
	assert_false(pdt_pattern_match("*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaa"));
	assert_null(pdt_pattern_check("a\\*\\x41"));
	assert_non_null(pdt_pattern_check("a\\"));
	assert_non_null(pdt_pattern_check("\\xg1"));
	assert_non_null(pdt_pattern_check("\\x00"));
}

/* The patterns' meaning, by backtracking (exponential, for short inputs only). */
static bool ref_match(const char *p, const char *s)
{
	size_t n = 0;

	switch (*p) {
	case '\0':
		return !*s;
	case '*':
		return ref_match(p + 1, s) || (*s && ref_match(p, s + 1));
	case '?':
		return *s && ref_match(p + 1, s + 1);
	case '#':
		while (s[n] >= '0' && s[n] <= '9')
			n++;
		return n && ref_match(p + 1, s + n); /* the whole run: one number */
	case '\\':
		return *s == p[1] && ref_match(p + 2, s + 1);
	}
	return *s == *p && ref_match(p + 1, s + 1);
}

/* Random patterns and names of a small alphabet: the matcher agrees with ref_match(). */
static void test_pattern_matches_reference(void **state)
{
	static const char pat_abc[] = "ab1*?#\\", name_abc[] = "ab12";
	char pat[12], name[12];
	unsigned int i, j, n;

	(void)state;
	srand(49);
	for (i = 0; i < 200000; i++) {
		n = (unsigned int)rand() % 10;
		for (j = 0; j < n; j++) {
			pat[j] = pat_abc[rand() % 7];
			if (pat[j] == '\\') /* a quoted byte, never a \x escape */
				pat[++j] = name_abc[rand() % 3];
		}
		pat[j < sizeof(pat) ? j : sizeof(pat) - 1] = '\0';
		if (pdt_pattern_check(pat))
			continue;
		n = (unsigned int)rand() % 10;
		for (j = 0; j < n; j++)
			name[j] = name_abc[rand() % 4];
		name[n] = '\0';
		if (pdt_pattern_match(pat, name) != ref_match(pat, name))
			fail_msg("pattern '%s', name '%s': %d", pat, name,
				 pdt_pattern_match(pat, name));
	}
}

/*
 * "*aaa...ab" against a 4 KB path of 'a's: the backtracking walk retried the pattern from
 * every byte (len(path) * len(pattern) steps, 17 million here: 37 ms). The NFA takes one
 * pass of (tokens + 1) / 64 words per byte.
 */
static void test_pattern_no_blowup(void **state)
{
	enum { PATH = 4096, PAT = 4000 };
	char *path = malloc(PATH + 1), *pat = malloc(PAT + 1);
	unsigned long long before;

	(void)state;
	assert_non_null(path);
	assert_non_null(pat);
	memset(path, 'a', PATH);
	path[PATH] = '\0';
	pat[0] = '*';
	memset(pat + 1, 'a', PAT - 2);
	pat[PAT - 1] = 'b';
	pat[PAT] = '\0';
	before = pdt_pattern_steps;
	assert_false(pdt_pattern_match(pat, path));
	assert_true(pdt_pattern_steps - before <= (unsigned long long)PATH * ((PAT + 64) / 64));
	/* A short pattern is one word: linear in the name. */
	before = pdt_pattern_steps;
	assert_false(pdt_pattern_match("*aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", path));
	assert_true(pdt_pattern_steps - before <= PATH);
	path[PATH - 1] = 'b';
	assert_true(pdt_pattern_match(pat, path));
	assert_true(pdt_pattern_match("*a#*ab", "xa12yab"));
	free(path);
	free(pat);
}

/* Whatever a name holds, its quoted form matches it, and only it (or its digit variants). */
static void test_quote_matches_the_name(void **state)
{
	static const char *const names[] = { "/plain",
					     "/a*b?c#d",
					     "/back\\slash",
					     "/ctl\x1b[1m\x01\x7f",
					     "/bad\xff\xfe utf8 \xc3\xa9",
					     "/x\\x41",
					     " lead and trail  ",
					     "" };
	char *buf;
	size_t len, i;
	FILE *fp;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		fp = open_memstream(&buf, &len);
		pdt_pattern_quote(fp, names[i], false);
		fclose(fp);
		assert_null(pdt_pattern_check(buf));
		assert_true(pdt_pattern_match(buf, names[i]));
		assert_false(pdt_pattern_match(buf, "/other"));
		free(buf);
	}
	fp = open_memstream(&buf, &len);
	pdt_pattern_quote(fp, "/g12/ep3\x1b", true);
	fclose(fp);
	assert_string_equal(buf, "/g#/ep#\\x1b");
	assert_true(pdt_pattern_match(buf, "/g7/ep30\x1b"));
	free(buf);
}

static const char good[] = "# pdtrace suppressions\n"
			   "\n"
			   "{\n"
			   "   known orphan\n"
			   "   leak:orphaned\n"
			   "   fs:pdtfault*\n"
			   "   path:/inst#/child\n"
			   "   frame:d_make_discardable\n"
			   "   ...\n"
			   "   frame:pdt_ctl_write [pdt_faultfs]\n"
			   "   made:d_make_persistent\n"
			   "   made:pdt_pin [*]\n"
			   "}\n"
			   "  {  \n"
			   "\tany imbalance\n"
			   "\timbalance:*\n"
			   "}\n";

static void test_parse(void **state)
{
	char err[256];
	struct pdt_supp *s = parse(good, 0, err, sizeof(err));

	(void)state;
	assert_int_equal(pdt_supp_count(s), 2);
	assert_string_equal(pdt_supp_name(s, 0), "known orphan");
	assert_string_equal(pdt_supp_file(s, 0), "t.supp");
	assert_int_equal(pdt_supp_line(s, 0), 3);
	assert_string_equal(pdt_supp_name(s, 1), "any imbalance");
	assert_int_equal(pdt_supp_line(s, 1), 14);
	pdt_supp_free(s);
}

/* Each mistake: one line naming the file, the line and what is wrong; nothing half-read. */
static void test_parse_errors(void **state)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "leak:orphaned\n",
		  "t.supp:1: expected '{', the start of an entry, or a # comment" },
		{ "{\n}\n", "t.supp:2: an entry starts with its name, then a KIND:RULE line" },
		{ "{\nn\n}\n", "t.supp:3: entry 'n' needs a KIND:RULE line after its name" },
		{ "{\nn\nlake:orphaned\n}\n", "t.supp:3: unknown kind 'lake'" },
		{ "{\nn\nleak:orphan\n}\n", "t.supp:3: unknown rule 'orphan'" },
		{ "{\nn\nleak:*\nstack:x\n}\n", "t.supp:4: unknown line 'stack:x'" },
		{ "{\nn\nleak:*\npath:/a\npath:/b\n}\n", "t.supp:5: a second path: line" },
		{ "{\nn\nleak:*\nframe:a\\\n}\n", "t.supp:4: bad frame pattern: a '\\'" },
		{ "{\nn\nleak:*\n{\n", "t.supp:4: '{' inside entry 'n'" },
		{ "\n\n{\nn\nleak:*\nframe:x\n", "t.supp:3: entry not closed: end of file" },
		{ "{\nn\x1b[1m\nleak:*\nfoo\n}\n", "t.supp:4: unknown line 'foo'" },
		{ "{\nname\x1b\nbogus\n}\n", "t.supp:3: entry 'name\\x1b' needs a KIND:RULE" },
	};
	char err[256], text[9000];
	struct pdt_supp *s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		s = parse(bad[i].text, -1, err, sizeof(err));
		if (strncmp(err, bad[i].err, strlen(bad[i].err)))
			fail_msg("input %zu: got '%s', want '%s...'", i, err, bad[i].err);
		assert_null(strchr(err, '\n'));
		assert_int_equal(pdt_supp_count(s), 0);
		pdt_supp_free(s);
	}
	/* A NUL byte, and a line past the limit. */
	s = pdt_supp_new();
	{
		FILE *fp = fmemopen((void *)"{\nn\0x\n", 6, "r");

		assert_int_equal(pdt_supp_parse(s, "t.supp", fp, err, sizeof(err)), -1);
		assert_string_equal(err, "t.supp:2: a NUL byte (not a text file?)");
		fclose(fp);
	}
	pdt_supp_free(s);
	memset(text, 'a', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	s = parse(text, -1, err, sizeof(err));
	assert_string_equal(err, "t.supp:1: a line longer than 8192 bytes");
	pdt_supp_free(s);
	/* Entries before the error stay; the one it is in does not. */
	s = parse("{\na\nleak:*\n}\n{\nb\nleak:*\nbad\n}\n", -1, err, sizeof(err));
	assert_int_equal(pdt_supp_count(s), 1);
	pdt_supp_free(s);
}

static void test_match(void **state)
{
	struct ksyms *k = syms_at(BASE, MOD);
	struct pdt_finding f;
	char err[256];
	struct pdt_supp *s = parse(good, 0, err, sizeof(err));

	(void)state;
	orphan(&f, BASE, MOD, 3);
	assert_int_equal(pdt_supp_match(s, &f, k), 0);
	strcpy(f.path, "/inst/child"); /* '#' wants digits */
	assert_int_equal(pdt_supp_match(s, &f, k), -1);
	orphan(&f, BASE, MOD, 3);
	strcpy(f.fs_type, "tmpfs");
	assert_int_equal(pdt_supp_match(s, &f, k), -1);
	orphan(&f, BASE, MOD, 3);
	f.stack[0] = BASE + 0x409; /* top frame d_make_persistent, not d_make_discardable */
	assert_int_equal(pdt_supp_match(s, &f, k), -1);
	orphan(&f, BASE, MOD, 3);
	f.ncreated = 1; /* the creation stack too short for the made: lines */
	assert_int_equal(pdt_supp_match(s, &f, k), -1);
	orphan(&f, BASE, MOD, 3);
	f.stack[2] = BASE + 0x104; /* no pdt_ctl_write after the "..." */
	f.stack[3] = BASE + 0x204;
	f.nstack = 4;
	assert_int_equal(pdt_supp_match(s, &f, k), -1);
	orphan(&f, BASE, MOD, 3);
	f.kind = PDT_KIND_IMBALANCE;
	f.rule_id = PDT_R_PERSIST_TWICE;
	f.rule = pdt_rule_table[f.rule_id].name;
	assert_int_equal(pdt_supp_match(s, &f, k), 1);
	assert_int_equal(pdt_supp_matched(s, 0), 1);
	assert_int_equal(pdt_supp_matched(s, 1), 1);
	pdt_supp_free(s);
	ksyms_free(k);
}

/*
 * What --gen-suppressions prints is a file the parser reads, and its entry matches that
 * finding on another boot (KASLR, another instance number), and not another bug.
 */
static void test_generated_entry(void **state)
{
	struct ksyms *k = syms_at(BASE, MOD), *k2 = syms_at(BASE + 0x2a00000, MOD + 0x40000);
	struct pdt_finding f;
	struct pdt_supp *s;
	char err[256], *buf;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	orphan(&f, BASE, MOD, 3);
	pdt_supp_gen(fp, &f, k);
	fclose(fp);
	assert_string_equal(buf, "{\n"
				 "   orphaned-e2d74459760dcf34\n"
				 "   leak:orphaned\n"
				 "   fs:pdtfaultfs\n"
				 "   path:/inst#/child\n"
				 "   frame:d_make_discardable\n"
				 "   frame:pdt_orphan [pdt_faultfs]\n"
				 "   frame:pdt_ctl_write [pdt_faultfs]\n"
				 "   frame:vfs_write\n"
				 "   made:d_make_persistent\n"
				 "   made:pdt_pin [pdt_faultfs]\n"
				 "   made:pdt_orphan [pdt_faultfs]\n"
				 "   made:pdt_ctl_write [pdt_faultfs]\n"
				 "   made:vfs_write\n"
				 "}\n");
	s = parse(buf, 0, err, sizeof(err));
	free(buf);
	orphan(&f, BASE + 0x2a00000, MOD + 0x40000, 17);
	assert_int_equal(pdt_supp_match(s, &f, k2), 0);
	strcpy(f.path, "/inst17/other");
	assert_int_equal(pdt_supp_match(s, &f, k2), -1);
	orphan(&f, BASE + 0x2a00000, MOD + 0x40000, 17);
	f.rule_id = PDT_R_PINNED_AFTER_UMOUNT;
	f.rule = pdt_rule_table[f.rule_id].name;
	assert_int_equal(pdt_supp_match(s, &f, k2), -1);
	pdt_supp_free(s);
	/* A name that ends in blanks, which the parser trims off a line: \x20. */
	strcpy(f.path, "/trailing  ");
	fp = open_memstream(&buf, &len);
	pdt_supp_gen(fp, &f, k2);
	fclose(fp);
	assert_non_null(strstr(buf, "   path:/trailing\\x20\\x20\n"));
	s = parse(buf, 0, err, sizeof(err));
	free(buf);
	assert_int_equal(pdt_supp_match(s, &f, k2), 0);
	pdt_supp_free(s);
	ksyms_free(k);
	ksyms_free(k2);
}

/* A stream of one endless line ('a' up to a cap, then the end), counting what it gave. */
struct endless {
	size_t served, cap;
};

static ssize_t endless_read(void *cookie, char *buf, size_t n)
{
	struct endless *e = cookie;

	if (n > e->cap - e->served)
		n = e->cap - e->served;
	memset(buf, 'a', n);
	e->served += n;
	return (ssize_t)n;
}

/*
 * The line limit holds before the line is buffered: a file of one 64 MiB line is read
 * no further than the limit (and a stdio buffer). getline() buffered it whole (and one
 * larger than memory failed with ENOMEM, taken for the end of the file: the file was
 * accepted cut short, without a word).
 */
static void test_line_limit_before_buffering(void **state)
{
	struct endless e = { 0, 64 << 20 };
	cookie_io_functions_t io = { .read = endless_read };
	struct pdt_supp *s = pdt_supp_new();
	FILE *fp = fopencookie(&e, "r", io);
	char err[256];

	(void)state;
	assert_non_null(fp);
	assert_int_equal(pdt_supp_parse(s, "t.supp", fp, err, sizeof(err)), -1);
	assert_string_equal(err, "t.supp:1: a line longer than 8192 bytes");
	assert_true(e.served <= PDT_SUPP_MAX_LINE + 2 * BUFSIZ);
	fclose(fp);
	pdt_supp_free(s);
	/* A line of 8192 bytes is one. */
	{
		char *text = malloc(PDT_SUPP_MAX_LINE + 8);

		assert_non_null(text);
		memset(text, '#', PDT_SUPP_MAX_LINE);
		strcpy(text + PDT_SUPP_MAX_LINE, "\n");
		s = parse(text, 0, err, sizeof(err));
		pdt_supp_free(s);
		free(text);
	}
}

static ssize_t failing_read(void *cookie, char *buf, size_t n)
{
	int *calls = cookie;

	if ((*calls)++)
		return errno = EIO, -1;
	n = n < 2 ? n : 2;
	memcpy(buf, "{\n", n);
	return (ssize_t)n;
}

/* A read error is an error, with its cause: never the end of the file. */
static void test_read_error(void **state)
{
	cookie_io_functions_t io = { .read = failing_read };
	struct pdt_supp *s = pdt_supp_new();
	char err[256];
	int calls = 0;
	FILE *fp = fopencookie(&calls, "r", io);

	(void)state;
	assert_int_equal(pdt_supp_parse(s, "t.supp", fp, err, sizeof(err)), -1);
	assert_string_equal(err, "t.supp:2: read error: Input/output error");
	fclose(fp);
	assert_int_equal(pdt_supp_load(s, ".", err, sizeof(err)), -1);
	assert_string_equal(err, ".:1: read error: Is a directory");
	pdt_supp_free(s);
}

/*
 * Entries are indexed by the rules their kind:rule can match: a finding tries only
 * those (no pattern matched at all for a rule no entry names), and still gets the first
 * one in the file that matches.
 */
static void test_index_by_rule(void **state)
{
	struct ksyms *k = syms_at(BASE, MOD);
	struct pdt_finding f;
	char err[256], *buf;
	size_t len, i;
	unsigned long long before;
	struct pdt_supp *s;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	for (i = 0; i < 1000; i++)
		fprintf(fp, "{\n e%zu\n leak:orphaned\n path:/x%zu\n}\n", i, i);
	fputs("{\n any\n *:*\n path:/inst#/child\n}\n{\n late\n leak:orphaned\n}\n", fp);
	fclose(fp);
	s = parse(buf, 0, err, sizeof(err));
	free(buf);
	orphan(&f, BASE, MOD, 3);
	f.rule_id = PDT_R_PINNED_AFTER_UMOUNT;
	f.rule = pdt_rule_table[f.rule_id].name;
	before = pdt_pattern_steps;
	assert_int_equal(pdt_supp_match(s, &f, k), 1000); /* "any", the only one indexed */
	assert_true(pdt_pattern_steps - before < 200);
	strcpy(f.path, "/other");
	before = pdt_pattern_steps;
	assert_int_equal(pdt_supp_match(s, &f, k), -1);
	assert_true(pdt_pattern_steps - before < 200);
	orphan(&f, BASE, MOD, 3); /* orphaned: every entry in order, the first that matches */
	assert_int_equal(pdt_supp_match(s, &f, k), 1000);
	strcpy(f.path, "/x7");
	assert_int_equal(pdt_supp_match(s, &f, k), 7);
	strcpy(f.path, "/y");
	assert_int_equal(pdt_supp_match(s, &f, k), 1001);
	pdt_supp_free(s);
	ksyms_free(k);
}

/* A finding an entry suppresses does not fail the gate; another one still does. */
static void test_gate(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	struct pdt_event_full e = {};
	char err[256];
	struct pdt_supp *s =
	    parse("{\nx\nimbalance:discard-unpersisted\npath:/x\n}\n", 0, err, sizeof(err));
	struct pdt_gate *g = pdt_gate_new(s, NULL);
	const bool all[PDT_KIND_MAX] = { true, true, true };

	(void)state;
	e.h.type = PDT_EV_DISCARD;
	e.h.size = sizeof(e);
	e.h.dentry = 0xffff888000000700ULL;
	e.h.sb = 0xffff888000200000ULL;
	e.h.refcount = 1;
	e.h.flags = PDT_F_WAS_POSITIVE;
	strcpy(e.fs_type, "tmpfs");
	strcpy(e.path, "/x");
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
	assert_true(pdt_rules_fail(r, all, true));
	assert_int_equal(pdt_gate_judge(g, r, NULL), 0);
	assert_int_equal(pdt_gate_fate(g, 0), PDT_FATE_SUPPRESSED);
	assert_int_equal(pdt_gate_entry(g, 0), 0);
	assert_false(pdt_gate_fail(g, r, all, true));
	pdt_gate_free(g);
	/* A second discard, of /y: new. */
	g = pdt_gate_new(
	    parse("{\nx\nimbalance:discard-unpersisted\npath:/x\n}\n", 0, err, sizeof(err)), NULL);
	e.h.dentry++;
	strcpy(e.path, "/y");
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
	assert_int_equal(pdt_gate_judge(g, r, NULL), 0);
	assert_int_equal(pdt_gate_fate(g, 1), PDT_FATE_NEW);
	assert_int_equal(pdt_gate_count(g, PDT_FATE_SUPPRESSED), 1);
	assert_true(pdt_gate_fail(g, r, all, true));
	pdt_gate_free(g);
	pdt_rules_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patterns),
		cmocka_unit_test(test_pattern_matches_reference),
		cmocka_unit_test(test_pattern_no_blowup),
		cmocka_unit_test(test_line_limit_before_buffering),
		cmocka_unit_test(test_read_error),
		cmocka_unit_test(test_index_by_rule),
		cmocka_unit_test(test_quote_matches_the_name),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_match),
		cmocka_unit_test(test_generated_entry),
		cmocka_unit_test(test_gate),
	};

	return cmocka_run_group_tests_name("suppress", tests, NULL, NULL);
}
