// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the rules engine on synthetic event streams. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "rules.h"

#define SB1 0xffff888000100000ULL
#define SB2 0xffff888000200000ULL
#define ROOT 0xffff888001000000ULL /* the superblock root: never persistent */

static struct pdt_event_full ev;

/* A full event about dentry d (parent p) on SB1, path given. */
static const void *full(unsigned short type, uint64_t d, uint64_t p, const char *path,
			unsigned int flags)
{
	memset(&ev, 0, sizeof(ev));
	ev.h.type = type;
	ev.h.size = sizeof(ev);
	ev.h.flags = flags;
	ev.h.dentry = d;
	ev.h.parent = p;
	ev.h.sb = SB1;
	ev.h.dev = 27;
	ev.h.pid = 42;
	ev.h.refcount = 2;
	ev.h.origin = PDT_ORIGIN_KERNEL;
	strcpy(ev.h.comm, "test");
	strcpy(ev.fs_type, "tmpfs");
	strcpy(ev.s_id, "tmpfs");
	ev.nstack = 2;
	ev.stack[0] = 0xffffffff81000010ULL;
	ev.stack[1] = 0xffffffff81000020ULL;
	snprintf(ev.path, sizeof(ev.path), "%s", path);
	return &ev;
}

static void feed(struct pdt_rules *r, const void *e)
{
	assert_int_equal(pdt_rules_feed(r, e, sizeof(ev)), 0);
}

static void persist(struct pdt_rules *r, uint64_t d, uint64_t p, const char *path,
		    enum pdt_origin origin, unsigned int flags)
{
	full(PDT_EV_PERSIST, d, p, path, flags);
	ev.h.origin = origin;
	ev.h.refcount = 1;
	feed(r, &ev);
}

static void discard(struct pdt_rules *r, uint64_t d, uint64_t p, const char *path,
		    unsigned int flags, uint64_t removal_root)
{
	full(PDT_EV_DISCARD, d, p, path, flags | PDT_F_WAS_PERSISTENT | PDT_F_WAS_POSITIVE);
	ev.h.removal_root = removal_root;
	feed(r, &ev);
}

static void unpin(struct pdt_rules *r, uint64_t d)
{
	struct pdt_event e = { .type = PDT_EV_UNPIN,
			       .size = sizeof(e),
			       .dentry = d,
			       .sb = SB1,
			       .dev = 27,
			       .flags = PDT_F_WAS_PERSISTENT | PDT_F_IN_UMOUNT };

	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
}

static void sb_down(struct pdt_rules *r)
{
	feed(r, full(PDT_EV_SB_DOWN, 0, 0, "", PDT_F_IN_UMOUNT));
}

static const struct pdt_finding *only_finding(struct pdt_rules *r, enum pdt_kind kind,
					      const char *rule)
{
	const struct pdt_finding *f;

	assert_int_equal(pdt_rules_nfindings(r), 1);
	f = pdt_rules_finding(r, 0);
	assert_int_equal(f->kind, kind);
	assert_string_equal(f->rule, rule);
	return f;
}

static void test_clean_lifecycle(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_sb *sb;

	(void)state;
	persist(r, 0x100, ROOT, "/a", PDT_ORIGIN_USER, PDT_F_IS_DIR);
	persist(r, 0x200, 0x100, "/a/f", PDT_ORIGIN_USER, 0);
	persist(r, 0x300, ROOT, "/b", PDT_ORIGIN_USER, 0);
	discard(r, 0x200, 0x100, "/a/f", 0, 0);
	discard(r, 0x100, ROOT, "/a", 0, 0);
	unpin(r, 0x300);
	sb_down(r);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	assert_int_equal(pdt_rules_nsbs(r), 1);
	sb = pdt_rules_sb(r, 0);
	assert_string_equal(sb->fs_type, "tmpfs");
	assert_int_equal(sb->made, 3);
	assert_int_equal(sb->discarded, 2);
	assert_int_equal(sb->unpinned, 1);
	assert_int_equal(sb->live, 0);
	assert_true(sb->unmounted);
	pdt_rules_free(r);
}

/* Entries made before the run are adopted silently, in and out of the books. */
static void test_predating_entries_are_adopted(void **state)
{
	struct pdt_rules *r = pdt_rules_new();

	(void)state;
	discard(r, 0x500, ROOT, "/old", 0, 0);
	unpin(r, 0x600);
	sb_down(r);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	assert_int_equal(pdt_rules_sb(r, 0)->adopted, 2);
	assert_int_equal(pdt_rules_sb(r, 0)->made, 0);
	assert_int_equal(pdt_rules_sb(r, 0)->discarded, 1);
	assert_int_equal(pdt_rules_sb(r, 0)->unpinned, 1);
	assert_int_equal(pdt_rules_sb(r, 0)->live, 0);
	pdt_rules_free(r);
}

static void test_discard_unpersisted(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	full(PDT_EV_DISCARD, 0x700, ROOT, "/x", PDT_F_WAS_POSITIVE);
	ev.h.refcount = 1;
	feed(r, &ev);
	f = only_finding(r, PDT_KIND_IMBALANCE, PDT_RULE_DISCARD_UNPERSISTED);
	assert_string_equal(f->path, "/x");
	assert_true(f->has_refcount);
	assert_int_equal(f->refcount, 1);
	assert_int_equal(f->nstack, 2);
	assert_int_equal(pdt_rules_sb(r, 0)->discarded, 0);
	pdt_rules_free(r);
}

static void test_persist_twice_keeps_first_creation(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	persist(r, 0x100, ROOT, "/twice", PDT_ORIGIN_KERNEL, 0);
	full(PDT_EV_PERSIST, 0x100, ROOT, "/twice", PDT_F_WAS_PERSISTENT | PDT_F_WAS_POSITIVE);
	feed(r, &ev);
	f = only_finding(r, PDT_KIND_IMBALANCE, PDT_RULE_PERSIST_TWICE);
	assert_int_equal(f->ncreated, 2);
	assert_int_equal(f->origin, PDT_ORIGIN_KERNEL);
	/* Counted once: a second persist is no new persistent dentry. */
	assert_int_equal(pdt_rules_sb(r, 0)->made, 1);
	unpin(r, 0x100);
	sb_down(r);
	assert_int_equal(pdt_rules_nfindings(r), 1);
	pdt_rules_free(r);
}

static void test_dput_persistence_ref(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	persist(r, 0x100, ROOT, "/p", PDT_ORIGIN_KERNEL, 0);
	full(PDT_EV_DPUT, 0x100, ROOT, "/p", PDT_F_WAS_PERSISTENT | PDT_F_WAS_POSITIVE);
	ev.h.refcount = 1;
	feed(r, &ev);
	f = only_finding(r, PDT_KIND_IMBALANCE, PDT_RULE_DPUT_PERSISTENCE_REF);
	assert_int_equal(f->refcount, 1);
	assert_int_equal(f->ncreated, 2);
	pdt_rules_free(r);
}

static void test_busy_at_umount(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	persist(r, 0x100, ROOT, "/leak", PDT_ORIGIN_KERNEL, 0);
	unpin(r, 0x100);
	full(PDT_EV_BUSY, 0x100, ROOT, "/leak", PDT_F_IN_UMOUNT);
	ev.h.refcount = 1;
	feed(r, &ev);
	sb_down(r);
	f = only_finding(r, PDT_KIND_LEAK, PDT_RULE_BUSY_AT_UMOUNT);
	assert_string_equal(f->path, "/leak");
	assert_int_equal(f->refcount, 1);
	pdt_rules_free(r);
}

/* A dentry the umount walk never unpinned: a leak per dentry, and the books do not balance. */
static void test_pinned_after_umount_and_balance(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	persist(r, 0x100, ROOT, "/lost", PDT_ORIGIN_KERNEL, 0);
	sb_down(r);
	assert_int_equal(pdt_rules_nfindings(r), 2);
	f = pdt_rules_finding(r, 0);
	assert_string_equal(f->rule, PDT_RULE_PINNED_AFTER_UMOUNT);
	assert_string_equal(f->path, "/lost");
	f = pdt_rules_finding(r, 1);
	assert_string_equal(f->rule, PDT_RULE_SB_BALANCE);
	assert_non_null(strstr(f->message, "made 1, discarded 0, unpinned at umount 0"));
	assert_int_equal(pdt_rules_count(r, PDT_KIND_LEAK), 1);
	assert_int_equal(pdt_rules_count(r, PDT_KIND_IMBALANCE), 1);
	pdt_rules_free(r);
}

static void test_orphaned_child(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	persist(r, 0x100, ROOT, "/dir", PDT_ORIGIN_KERNEL, PDT_F_IS_DIR);
	persist(r, 0x200, 0x100, "/dir/child", PDT_ORIGIN_KERNEL, 0);
	discard(r, 0x100, ROOT, "/dir", 0, 0);
	f = only_finding(r, PDT_KIND_LEAK, PDT_RULE_ORPHANED);
	assert_string_equal(f->path, "/dir/child");
	assert_non_null(strstr(f->message, "/dir was discarded"));
	pdt_rules_free(r);
}

/* After a rename, the old parent may go: no orphan. */
static void test_move_updates_parent(void **state)
{
	struct pdt_rules *r = pdt_rules_new();

	(void)state;
	persist(r, 0x100, ROOT, "/d1", PDT_ORIGIN_USER, PDT_F_IS_DIR);
	persist(r, 0x101, ROOT, "/d2", PDT_ORIGIN_USER, PDT_F_IS_DIR);
	persist(r, 0x200, 0x100, "/d1/f", PDT_ORIGIN_USER, 0);
	full(PDT_EV_MOVE, 0x200, 0x101, "/d2/g", PDT_F_WAS_PERSISTENT);
	feed(r, &ev);
	discard(r, 0x100, ROOT, "/d1", 0, 0);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	discard(r, 0x101, ROOT, "/d2", 0, 0);
	assert_int_equal(pdt_rules_nfindings(r), 1);
	assert_string_equal(pdt_rules_finding(r, 0)->path, "/d2/g");
	pdt_rules_free(r);
}

/* RENAME_EXCHANGE: two MOVE events, each from the other's place; subtree paths follow. */
static void test_exchange_moves_both(void **state)
{
	struct pdt_rules *r = pdt_rules_new();

	(void)state;
	persist(r, 0x100, ROOT, "/p1", PDT_ORIGIN_USER, PDT_F_IS_DIR);
	persist(r, 0x101, ROOT, "/p2", PDT_ORIGIN_USER, PDT_F_IS_DIR);
	persist(r, 0x200, 0x100, "/p1/a", PDT_ORIGIN_USER, PDT_F_IS_DIR);
	persist(r, 0x201, 0x101, "/p2/b", PDT_ORIGIN_USER, PDT_F_IS_DIR);
	persist(r, 0x300, 0x200, "/p1/a/x", PDT_ORIGIN_USER, 0);
	full(PDT_EV_MOVE, 0x201, 0x100, "/p1/a", PDT_F_WAS_PERSISTENT);
	feed(r, &ev);
	full(PDT_EV_MOVE, 0x200, 0x101, "/p2/b", PDT_F_WAS_PERSISTENT);
	feed(r, &ev);
	/* p1 now holds what was p2/b; removing it with its child is clean. */
	discard(r, 0x201, 0x100, "/p1/a", 0, 0);
	discard(r, 0x100, ROOT, "/p1", 0, 0);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	/* p2 holds old a, whose child x now lives at /p2/b/x. */
	discard(r, 0x101, ROOT, "/p2", 0, 0);
	assert_int_equal(pdt_rules_nfindings(r), 1);
	assert_string_equal(pdt_rules_finding(r, 0)->path, "/p2/b");
	pdt_rules_free(r);
}

/* A rename over a persistent entry that stays persistent. */
static void test_rename_victim_kept(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	persist(r, 0x100, ROOT, "/v", PDT_ORIGIN_KERNEL, 0);
	full(PDT_EV_VICTIM, 0x100, ROOT, "/v", PDT_F_WAS_PERSISTENT);
	feed(r, &ev);
	f = only_finding(r, PDT_KIND_LEAK, PDT_RULE_RENAME_VICTIM_KEPT);
	assert_string_equal(f->path, "/v");
	assert_true(f->created_seen);
	pdt_rules_free(r);
}

static void eaten(struct pdt_rules *r, uint64_t d, uint64_t p, const char *path, unsigned int flags)
{
	full(PDT_EV_EATEN, d, p, path, flags | PDT_F_WAS_PERSISTENT | PDT_F_WAS_POSITIVE);
	ev.h.refcount = 0;
	feed(r, &ev);
}

/* Killed with its reference eaten: one finding, out of the books, balanced at umount. */
static void test_eaten_at_kill(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;
	const struct pdt_sb *sb;

	(void)state;
	persist(r, 0x100, ROOT, "/e", PDT_ORIGIN_KERNEL, 0);
	eaten(r, 0x100, ROOT, "/e", 0);
	f = only_finding(r, PDT_KIND_IMBALANCE, PDT_RULE_EATEN_PERSISTENCE_REF);
	assert_string_equal(f->path, "/e");
	assert_int_equal(f->refcount, 0);
	assert_non_null(strstr(f->message, "killed"));
	sb_down(r);
	sb = pdt_rules_sb(r, 0);
	assert_int_equal(sb->eaten, 1);
	assert_int_equal(sb->live, 0);
	assert_int_equal(pdt_rules_nfindings(r), 1); /* no sb-balance, no pinned-after-umount */
	pdt_rules_free(r);
}

/* dput() saw the culprit first: its finding stands alone. */
static void test_eaten_after_dput_is_one_report(void **state)
{
	struct pdt_rules *r = pdt_rules_new();

	(void)state;
	persist(r, 0x100, ROOT, "/e", PDT_ORIGIN_KERNEL, 0);
	full(PDT_EV_DPUT, 0x100, ROOT, "/e", PDT_F_WAS_PERSISTENT);
	ev.h.refcount = 1;
	feed(r, &ev);
	eaten(r, 0x100, ROOT, "/e", 0);
	only_finding(r, PDT_KIND_IMBALANCE, PDT_RULE_DPUT_PERSISTENCE_REF);
	/* The address lives again: a new eaten reference there is a new bug. */
	persist(r, 0x100, ROOT, "/e2", PDT_ORIGIN_KERNEL, 0);
	eaten(r, 0x100, ROOT, "/e2", PDT_F_AT_UMOUNT);
	assert_int_equal(pdt_rules_nfindings(r), 2);
	assert_string_equal(pdt_rules_finding(r, 1)->rule, PDT_RULE_EATEN_PERSISTENCE_REF);
	assert_non_null(strstr(pdt_rules_finding(r, 1)->message, "at umount"));
	unpin(r, 0x100);
	assert_int_equal(pdt_rules_sb(r, 0)->live, 0);
	pdt_rules_free(r);
}

/* ---- the self-check's walk ---- */

static void walk_mark(struct pdt_rules *r, bool end)
{
	feed(r, full(PDT_EV_WALK, ROOT, ROOT, "/", end ? PDT_F_WALK_END : 0));
}

static void walk_entry(struct pdt_rules *r, uint64_t d, uint64_t p, const char *name, int count,
		       unsigned int wflags)
{
	union {
		struct pdt_walk_entry e;
		char buf[sizeof(struct pdt_walk_entry) + 264];
	} u;
	size_t len = strlen(name);

	memset(&u, 0, sizeof(u));
	u.e.type = PDT_EV_WALK_ENTRY;
	u.e.size = (sizeof(u.e) + len + 7) & ~7u;
	u.e.name_len = len;
	u.e.wflags = wflags;
	u.e.dentry = d;
	u.e.parent = p;
	u.e.refcount = count;
	memcpy(u.e.name, name, len);
	assert_int_equal(pdt_rules_feed(r, &u, u.e.size), 0);
}

static void books_abc(struct pdt_rules *r)
{
	persist(r, 0x100, ROOT, "/a", PDT_ORIGIN_USER, PDT_F_IS_DIR);
	persist(r, 0x200, 0x100, "/a/b", PDT_ORIGIN_USER, 0);
	persist(r, 0x300, ROOT, "/c", PDT_ORIGIN_USER, 0);
}

static void walk_abc(struct pdt_rules *r, const char *bname, uint64_t bparent)
{
	walk_mark(r, false);
	walk_entry(r, ROOT, ROOT, "/", 1, PDT_W_ROOT | PDT_W_POSITIVE);
	walk_entry(r, 0x100, ROOT, "a", 2, PDT_W_PERSISTENT | PDT_W_POSITIVE);
	walk_entry(r, 0x200, bparent, bname, 1, PDT_W_PERSISTENT | PDT_W_POSITIVE);
	walk_entry(r, 0x300, ROOT, "c", 1, PDT_W_PERSISTENT | PDT_W_POSITIVE);
}

static void test_walk_consistent(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_sb *sb;

	(void)state;
	books_abc(r);
	walk_abc(r, "b", 0x100);
	walk_mark(r, true);
	sb = pdt_rules_sb(r, 0);
	assert_int_equal(sb->check, PDT_CHECK_CLEAN);
	assert_int_equal(sb->check_entries, 3);
	assert_int_equal(pdt_rules_inconsistent(r), 0);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	pdt_rules_free(r);
}

/* A rename the books missed: another name, another parent, an entry gone. */
static void test_walk_inconsistent(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_sb *sb;

	(void)state;
	books_abc(r);
	walk_abc(r, "renamed", 0x100);
	walk_mark(r, true);
	sb = pdt_rules_sb(r, 0);
	assert_int_equal(sb->check, PDT_CHECK_INCONSISTENT);
	assert_int_equal(sb->check_diffs, 1);
	assert_string_equal(sb->check_first, "/a/b: under another name in the kernel");
	assert_int_equal(pdt_rules_inconsistent(r), 1);

	walk_abc(r, "b", ROOT);
	walk_mark(r, true);
	assert_string_equal(sb->check_first, "/a/b: under another parent in the kernel");

	walk_mark(r, false);
	walk_entry(r, 0x100, ROOT, "a", 1, PDT_W_PERSISTENT | PDT_W_POSITIVE);
	walk_entry(r, 0x200, 0x100, "b", 1, PDT_W_POSITIVE);
	walk_mark(r, true);
	assert_int_equal(sb->check_diffs, 2); /* b not persistent, c absent */
	assert_string_equal(sb->check_first + strlen(sb->check_first) - 10, "the kernel");
	pdt_rules_free(r);
}

/* Differences while the superblock changed under the walk prove nothing: busy. */
static void test_walk_busy(void **state)
{
	struct pdt_rules *r = pdt_rules_new();

	(void)state;
	books_abc(r);
	walk_abc(r, "b", 0x100);
	persist(r, 0x400, ROOT, "/d", PDT_ORIGIN_USER, 0); /* not in the walk */
	walk_mark(r, true);
	assert_int_equal(pdt_rules_sb(r, 0)->check, PDT_CHECK_BUSY);
	assert_int_equal(pdt_rules_inconsistent(r), 0);
	pdt_rules_free(r);
}

/* Persistent entries with nothing but their children holding them, at stop. */
static void test_walk_finds_eaten(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	books_abc(r);
	walk_mark(r, false);
	walk_entry(r, ROOT, ROOT, "/", 1, PDT_W_ROOT | PDT_W_POSITIVE);
	walk_entry(r, 0x100, ROOT, "a", 1, PDT_W_PERSISTENT | PDT_W_POSITIVE); /* 1 child */
	walk_entry(r, 0x200, 0x100, "b", 1, PDT_W_PERSISTENT | PDT_W_POSITIVE);
	walk_entry(r, 0x300, ROOT, "c", 0, PDT_W_PERSISTENT | PDT_W_POSITIVE);
	walk_mark(r, true);
	assert_int_equal(pdt_rules_sb(r, 0)->check, PDT_CHECK_CLEAN);
	assert_int_equal(pdt_rules_nfindings(r), 2);
	f = pdt_rules_finding(r, 0);
	assert_string_equal(f->rule, PDT_RULE_EATEN_PERSISTENCE_REF);
	assert_true(!strcmp(f->path, "/a") || !strcmp(f->path, "/c"));
	assert_non_null(strstr(f->message, "when tracing stopped (pdtrace's self-check)"));
	/* A second walk does not report them again. */
	walk_abc(r, "b", 0x100);
	walk_mark(r, true);
	assert_int_equal(pdt_rules_nfindings(r), 2);
	pdt_rules_free(r);
}

static void test_walk_entry_malformed(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	struct pdt_walk_entry e = { .type = PDT_EV_WALK_ENTRY, .size = sizeof(e), .name_len = 9 };

	(void)state;
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), -1);
	e.name_len = 0;
	e.size = sizeof(e) + 8;
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), -1);
	assert_int_equal(pdt_rules_malformed(r), 2);
	pdt_rules_free(r);
}

static void test_removal_of_user_entry(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	persist(r, 0x100, ROOT, "/kdir", PDT_ORIGIN_KERNEL, PDT_F_IS_DIR);
	persist(r, 0x200, 0x100, "/kdir/kfile", PDT_ORIGIN_KERNEL, 0);
	persist(r, 0x300, 0x100, "/kdir/user", PDT_ORIGIN_USER, PDT_F_IS_DIR);
	full(PDT_EV_REMOVAL, 0x100, ROOT, "/kdir", PDT_F_IN_REMOVAL);
	ev.nstack = 3;
	ev.stack[2] = 0xffffffff81000030ULL;
	feed(r, &ev);
	discard(r, 0x200, 0x100, "/kdir/kfile", PDT_F_IN_REMOVAL, 0x100);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	/* As the BPF side sends a discard inside a removal: no path, no stack. */
	full(PDT_EV_DISCARD, 0x300, 0x100, "", PDT_F_IN_REMOVAL | PDT_F_WAS_PERSISTENT);
	ev.nstack = 0;
	ev.h.removal_root = 0x100;
	feed(r, &ev);
	f = only_finding(r, PDT_KIND_ILLEGAL_REMOVAL, PDT_RULE_USER_ENTRY_REMOVED);
	assert_string_equal(f->path, "/kdir/user"); /* from the books */
	assert_int_equal(f->origin, PDT_ORIGIN_USER);
	assert_non_null(strstr(f->message, "recursive removal of /kdir"));
	/* The stack where the removal started. */
	assert_int_equal(f->nstack, 3);
	assert_true(f->stack[2] == 0xffffffff81000030ULL);
	discard(r, 0x100, ROOT, "/kdir", PDT_F_IN_REMOVAL, 0x100);
	assert_int_equal(pdt_rules_nfindings(r), 1);
	pdt_rules_free(r);
}

/* A brief discard, as the BPF side sends one that no finding needs a path or stack for. */
static void brief_discard(struct pdt_rules *r, uint64_t d, uint64_t p, unsigned int flags,
			  uint64_t removal_root)
{
	struct pdt_event e = { .type = PDT_EV_DISCARD,
			       .size = sizeof(e),
			       .flags = flags,
			       .dentry = d,
			       .parent = p,
			       .sb = SB1,
			       .removal_root = removal_root,
			       .dev = 27,
			       .pid = 42,
			       .refcount = 2 };

	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
}

static void test_brief_discard(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	persist(r, 0x100, ROOT, "/kdir", PDT_ORIGIN_KERNEL, PDT_F_IS_DIR);
	persist(r, 0x200, 0x100, "/kdir/kfile", PDT_ORIGIN_KERNEL, 0);
	persist(r, 0x300, 0x100, "/kdir/user", PDT_ORIGIN_USER, 0);
	persist(r, 0x400, ROOT, "/plain", PDT_ORIGIN_KERNEL, 0);
	full(PDT_EV_REMOVAL, 0x100, ROOT, "/kdir", PDT_F_IN_REMOVAL);
	ev.nstack = 3;
	ev.stack[2] = 0xffffffff81000030ULL;
	feed(r, &ev);
	brief_discard(r, 0x200, 0x100, PDT_F_IN_REMOVAL | PDT_F_WAS_PERSISTENT, 0x100);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	/* The user's entry: its path from the books, the removal's stack. */
	brief_discard(r, 0x300, 0x100, PDT_F_IN_REMOVAL | PDT_F_WAS_PERSISTENT, 0x100);
	f = only_finding(r, PDT_KIND_ILLEGAL_REMOVAL, PDT_RULE_USER_ENTRY_REMOVED);
	assert_string_equal(f->path, "/kdir/user");
	assert_int_equal(f->nstack, 3);
	assert_true(f->stack[2] == 0xffffffff81000030ULL);
	brief_discard(r, 0x100, ROOT, PDT_F_IN_REMOVAL | PDT_F_WAS_PERSISTENT, 0x100);
	brief_discard(r, 0x400, ROOT, PDT_F_WAS_PERSISTENT, 0);
	assert_int_equal(pdt_rules_nfindings(r), 1);
	assert_int_equal(pdt_rules_sb(r, 0)->live, 0);
	assert_int_equal(pdt_rules_sb(r, 0)->discarded, 4);
	/* A brief discard of what is not persistent is still judged, by its header. */
	persist(r, 0x500, ROOT, "/again", PDT_ORIGIN_KERNEL, 0);
	brief_discard(r, 0x500, ROOT, 0, 0);
	assert_int_equal(pdt_rules_nfindings(r), 2);
	assert_int_equal(pdt_rules_malformed(r), 0);
	pdt_rules_free(r);
}

/* Only a discard has a brief form, and never as its superblock's first event. */
static void test_brief_malformed(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	struct pdt_event e = { .type = PDT_EV_PERSIST, .size = sizeof(e), .sb = SB1 };

	(void)state;
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), -1);
	e.type = PDT_EV_DISCARD;
	e.flags = PDT_F_FIRST_OF_SB;
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), -1);
	e.flags = 0;
	e.size = sizeof(struct pdt_event_full); /* lies about its size */
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), -1);
	assert_int_equal(pdt_rules_malformed(r), 3);
	assert_int_equal(pdt_rules_nsbs(r), 0);
	pdt_rules_free(r);
}

/* What the BPF side sends for a path too deep or too long: "..." and the leaf end. */
static const char *cut(const char *path)
{
	static char buf[PDT_PATH_LEN];
	size_t len = strlen(path);

	snprintf(buf, sizeof(buf), "...%.200s", len > 200 ? path + len - 200 : path);
	return buf;
}

/* A finding's path is whole however deep: rebuilt from the tracked ancestors. */
static void test_deep_path_is_whole(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	static char want[PDT_FINDING_PATH_LEN];
	const struct pdt_finding *f;
	uint64_t d = 0, parent = ROOT;
	char name[16];
	int i;

	(void)state;
	want[0] = '\0';
	for (i = 0; i < 110; i++) {
		snprintf(name, sizeof(name), "/n%d", i);
		strcat(want, name);
		d = 0x10000 + (uint64_t)i * 0x100;
		persist(r, d, parent, i < 24 ? want : cut(want), PDT_ORIGIN_USER, PDT_F_IS_DIR);
		parent = d;
	}
	assert_true(strlen(want) > PDT_PATH_LEN);
	feed(r, full(PDT_EV_PERSIST, d, d - 0x100, cut(want), PDT_F_WAS_PERSISTENT));
	f = only_finding(r, PDT_KIND_IMBALANCE, PDT_RULE_PERSIST_TWICE);
	assert_string_equal(f->path, want);
	pdt_rules_free(r);
}

/* The root of a removal may predate the run: its path comes with the removal event. */
static void test_removal_of_untracked_root(void **state)
{
	struct pdt_rules *r = pdt_rules_new();

	(void)state;
	persist(r, 0x300, 0x100, "/old/user", PDT_ORIGIN_USER, 0);
	feed(r, full(PDT_EV_REMOVAL, 0x100, ROOT, "/old", PDT_F_IN_REMOVAL));
	discard(r, 0x300, 0x100, "/old/user", PDT_F_IN_REMOVAL, 0x100);
	discard(r, 0x100, ROOT, "/old", PDT_F_IN_REMOVAL, 0x100);
	assert_non_null(
	    strstr(only_finding(r, PDT_KIND_ILLEGAL_REMOVAL, PDT_RULE_USER_ENTRY_REMOVED)->message,
		   "recursive removal of /old"));
	assert_int_equal(pdt_rules_sb(r, 0)->adopted, 1);
	pdt_rules_free(r);
}

/*
 * A removal whose root was elided (a user's rmdir of a configfs group): the kernel's
 * entries below it go, then REMOVAL_END says the root went quietly. No finding, no
 * change to the counts, and the removal is over: a later one at that address that
 * sends no REMOVAL of its own is one pdtrace did not see.
 */
static void test_removal_end(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	struct pdt_event e = { .type = PDT_EV_REMOVAL_END,
			       .size = sizeof(e),
			       .dentry = 0x100,
			       .parent = ROOT,
			       .sb = SB1,
			       .dev = 27,
			       .flags = PDT_F_WAS_PERSISTENT | PDT_F_IN_REMOVAL,
			       .removal_root = 0x100 };
	const struct pdt_sb *sb;

	(void)state;
	persist(r, 0x200, 0x100, "/grp/default", PDT_ORIGIN_KERNEL, PDT_F_IS_DIR);
	feed(r, full(PDT_EV_REMOVAL, 0x100, ROOT, "/grp", PDT_F_IN_REMOVAL));
	brief_discard(r, 0x200, 0x100, PDT_F_IN_REMOVAL | PDT_F_WAS_PERSISTENT, 0x100);
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	assert_int_equal(pdt_rules_malformed(r), 0);
	sb = pdt_rules_sb(r, 0);
	assert_int_equal(sb->made, 1);
	assert_int_equal(sb->discarded, 1);
	assert_int_equal(sb->live, 0);
	assert_int_equal(sb->adopted, 0);
	/* Its removal is gone from the books: not named by a user entry's removal later. */
	persist(r, 0x300, 0x100, "/grp/user", PDT_ORIGIN_USER, 0);
	discard(r, 0x300, 0x100, "/grp/user", PDT_F_IN_REMOVAL, 0x100);
	assert_non_null(
	    strstr(only_finding(r, PDT_KIND_ILLEGAL_REMOVAL, PDT_RULE_USER_ENTRY_REMOVED)->message,
		   "(a directory pdtrace did not see)"));
	/* Too short for its type: malformed. */
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e) - 1), -1);
	pdt_rules_free(r);
}

/* The removal's own root, and anything removed by an umount, are fine. */
static void test_removal_exemptions(void **state)
{
	struct pdt_rules *r = pdt_rules_new();

	(void)state;
	persist(r, 0x100, ROOT, "/u", PDT_ORIGIN_USER, PDT_F_IS_DIR);
	persist(r, 0x200, 0x100, "/u/v", PDT_ORIGIN_USER, 0);
	discard(r, 0x200, 0x100, "/u/v", PDT_F_IN_REMOVAL | PDT_F_IN_UMOUNT, 0x100);
	discard(r, 0x100, ROOT, "/u", PDT_F_IN_REMOVAL, 0x100);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	pdt_rules_free(r);
}

static void test_create_in_dead_dir(void **state)
{
	struct pdt_rules *r = pdt_rules_new();

	(void)state;
	persist(r, 0x100, ROOT, "/dying/new", PDT_ORIGIN_KERNEL, PDT_F_PARENT_DEAD);
	only_finding(r, PDT_KIND_ILLEGAL_REMOVAL, PDT_RULE_CREATE_IN_DEAD_DIR);
	assert_int_equal(pdt_rules_sb(r, 0)->made, 1);
	pdt_rules_free(r);
}

static void test_disabled_rule_is_silent(void **state)
{
	struct pdt_rules *r = pdt_rules_new();

	(void)state;
	pdt_rules_disable(r, PDT_RULE_PINNED_AFTER_UMOUNT);
	pdt_rules_disable(r, PDT_RULE_SB_BALANCE);
	persist(r, 0x100, ROOT, "/lost", PDT_ORIGIN_KERNEL, 0);
	sb_down(r);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	pdt_rules_free(r);
}

/* A superblock address reused after its umount gets new books. */
static void test_recycled_superblock(void **state)
{
	struct pdt_rules *r = pdt_rules_new();

	(void)state;
	persist(r, 0x100, ROOT, "/a", PDT_ORIGIN_USER, 0);
	unpin(r, 0x100);
	sb_down(r);
	persist(r, 0x100, ROOT, "/a", PDT_ORIGIN_USER, 0);
	persist(r, 0x101, ROOT, "/b", PDT_ORIGIN_USER, 0); /* the new books, not the old */
	assert_int_equal(pdt_rules_nsbs(r), 2);
	assert_true(pdt_rules_sb(r, 0)->unmounted);
	assert_false(pdt_rules_sb(r, 1)->unmounted);
	assert_int_equal(pdt_rules_sb(r, 0)->made, 1);
	assert_int_equal(pdt_rules_sb(r, 1)->made, 2);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	pdt_rules_free(r);
}

static void test_malformed_events(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	char junk[8] = { 1 };

	(void)state;
	assert_int_equal(pdt_rules_feed(r, junk, sizeof(junk)), -1);
	full(PDT_EV_PERSIST, 0x100, ROOT, "/a", 0);
	assert_int_equal(pdt_rules_feed(r, &ev, sizeof(ev.h)), -1); /* truncated */
	ev.h.type = 99;
	assert_int_equal(pdt_rules_feed(r, &ev, sizeof(ev)), -1);
	full(PDT_EV_PERSIST, 0x100, ROOT, "/a", 0);
	ev.h.size = 12; /* lies about its size */
	assert_int_equal(pdt_rules_feed(r, &ev, sizeof(ev)), -1);
	assert_int_equal(pdt_rules_malformed(r), 4);
	assert_int_equal(pdt_rules_nsbs(r), 0);
	pdt_rules_free(r);
}

/* Two superblocks keep separate books. */
static void test_two_superblocks(void **state)
{
	struct pdt_rules *r = pdt_rules_new();

	(void)state;
	persist(r, 0x100, ROOT, "/a", PDT_ORIGIN_USER, 0);
	full(PDT_EV_PERSIST, 0x900, ROOT, "/b", 0);
	ev.h.sb = SB2;
	ev.h.dev = 28;
	strcpy(ev.fs_type, "ramfs");
	feed(r, &ev);
	assert_int_equal(pdt_rules_nsbs(r), 2);
	assert_string_equal(pdt_rules_sb(r, 1)->fs_type, "ramfs");
	assert_int_equal(pdt_rules_sb(r, 0)->made, 1);
	assert_int_equal(pdt_rules_sb(r, 1)->made, 1);
	pdt_rules_free(r);
}

static void count_finding(const struct pdt_finding *f, void *ctx)
{
	(void)f;
	(*(unsigned long long *)ctx)++;
}

/*
 * One discard can make a finding per child, and a recording can repeat it: a
 * hostile file made 2 GB of findings from 3 MB. The report keeps the first
 * PDT_RULES_MAX_FINDINGS; the totals and the stream still count every one.
 */
static void test_findings_are_capped(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	unsigned long long streamed = 0;
	const uint64_t dir = 0xffff888000d00000ULL;
	uint64_t i;

	(void)state;
	pdt_rules_on_finding(r, count_finding, &streamed);
	for (i = 0; i < 1000; i++)
		persist(r, 0xffff888010000000ULL + i * 0x100, dir, "/d/c", PDT_ORIGIN_KERNEL, 0);
	for (i = 0; i < 11; i++) { /* a new d each time, the children still point to it */
		persist(r, dir, ROOT, "/d", PDT_ORIGIN_KERNEL, PDT_F_IS_DIR);
		full(PDT_EV_MOVE, 0xffff888010000000ULL, dir, "/d/c", PDT_F_WAS_PERSISTENT);
		feed(r, &ev);
		discard(r, dir, ROOT, "/d", 0, 0);
	}
	assert_int_equal(pdt_rules_nfindings(r), PDT_RULES_MAX_FINDINGS);
	assert_int_equal(pdt_rules_count(r, PDT_KIND_LEAK), 11000);
	assert_int_equal(pdt_rules_unlisted(r), 1000);
	assert_int_equal(streamed, 11000);
	pdt_rules_free(r);
}

static void module_event(struct pdt_rules *r, unsigned short type, const char *name)
{
	struct pdt_module_event e;

	memset(&e, 0, sizeof(e));
	e.h.type = type;
	e.h.size = sizeof(e);
	e.h.pid = 7;
	strcpy(e.h.comm, "rmmod");
	e.module = 0xffffffffc0200000ULL;
	e.text = 0xffffffffc0000000ULL;
	e.text_size = 0x1000;
	snprintf(e.name, sizeof(e.name), "%s", name);
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
}

/* A kernel-made entry of the module's code, persistent when the module is freed. */
static void test_outlives_module(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	module_event(r, PDT_EV_MODULE_LOAD, "drv");
	full(PDT_EV_PERSIST, 0x100, ROOT, "/drv", PDT_F_IS_DIR);
	ev.stack[1] = 0xffffffffc0000040ULL; /* its caller is in drv */
	feed(r, &ev);
	full(PDT_EV_PERSIST, 0x200, 0x100, "/drv/stats", 0);
	ev.stack[1] = 0xffffffffc0000080ULL;
	feed(r, &ev);
	persist(r, 0x300, ROOT, "/other", PDT_ORIGIN_KERNEL, 0); /* not drv's */
	discard(r, 0x200, 0x100, "/drv/stats", 0, 0);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	module_event(r, PDT_EV_MODULE_FREE, "drv");
	f = only_finding(r, PDT_KIND_LEAK, PDT_RULE_OUTLIVES_MODULE);
	assert_string_equal(f->path, "/drv");
	assert_string_equal(f->module, "drv");
	assert_string_equal(f->comm, "rmmod");
	assert_int_equal(f->ncreated, 2);
	assert_true(f->ncreated == 2 && f->created[1] == 0xffffffffc0000040ULL);
	assert_non_null(strstr(f->message, "module drv"));
	/* Once per entry: a second free of the same address names a load we did not see. */
	module_event(r, PDT_EV_MODULE_FREE, "drv");
	assert_int_equal(pdt_rules_nfindings(r), 1);
	pdt_rules_free(r);
}

/* A module that removes what it made is clean; so is one loaded before we watched. */
static void test_module_clean_and_unseen(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	struct pdt_module_event bad;

	(void)state;
	module_event(r, PDT_EV_MODULE_LOAD, "drv");
	full(PDT_EV_PERSIST, 0x100, ROOT, "/drv", PDT_F_IS_DIR);
	ev.stack[1] = 0xffffffffc0000040ULL;
	feed(r, &ev);
	discard(r, 0x100, ROOT, "/drv", 0, 0);
	module_event(r, PDT_EV_MODULE_FREE, "drv");
	module_event(r, PDT_EV_MODULE_FREE, "unseen");
	assert_int_equal(pdt_rules_nfindings(r), 0);
	assert_int_equal(pdt_rules_nsbs(r), 1); /* module events make no superblock */
	memset(&bad, 0, sizeof(bad));
	bad.h.type = PDT_EV_MODULE_LOAD;
	bad.h.size = sizeof(bad) - 8;
	assert_int_equal(pdt_rules_feed(r, &bad, sizeof(bad)), -1);
	assert_int_equal(pdt_rules_feed(r, &bad, sizeof(bad) - 8), -1);
	pdt_rules_free(r);
}

/* ---- elision: entries the BPF side keeps to itself ---- */

static void elided(struct pdt_rules *r, long long made, long long discarded, long long unpinned)
{
	struct pdt_elided_event e = {
		.h = { .type = PDT_EV_ELIDED, .size = sizeof(e), .sb = SB1, .dev = 27 },
		.made = made,
		.discarded = discarded,
		.unpinned = unpinned
	};

	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e)), 0);
}

/* The counts go into the books: made, discarded and unpinned as if streamed. */
static void test_elided_counts(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_sb *sb;

	(void)state;
	persist(r, 0x100, ROOT, "/a", PDT_ORIGIN_USER, PDT_F_IS_DIR | PDT_F_FIRST_OF_SB);
	elided(r, 5, 3, 0);
	elided(r, 2, 1, 0);
	sb = pdt_rules_sb(r, 0);
	assert_int_equal(sb->made, 8);
	assert_int_equal(sb->discarded, 4);
	assert_int_equal(sb->live, 4);
	assert_int_equal(sb->elided_live, 3);
	/* One of them sent (materialized) meanwhile: its made moves to the stream. */
	persist(r, 0x200, 0x100, "/a/f", PDT_ORIGIN_USER, PDT_F_MATERIALIZED);
	elided(r, -1, 0, 2);
	unpin(r, 0x200);
	unpin(r, 0x100);
	sb_down(r);
	assert_int_equal(sb->made, 8);
	assert_int_equal(sb->discarded, 4);
	assert_int_equal(sb->unpinned, 4);
	assert_int_equal(sb->live, 0);
	assert_int_equal(sb->elided_live, 0);
	assert_int_equal(pdt_rules_nfindings(r), 0);
	pdt_rules_free(r);
}

/* Counts that do not come back to zero at the umount: the balance finding names them. */
static void test_elided_balance(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	persist(r, 0x100, ROOT, "/a", PDT_ORIGIN_USER, 0);
	elided(r, 3, 1, 1);
	unpin(r, 0x100);
	sb_down(r);
	f = only_finding(r, PDT_KIND_IMBALANCE, PDT_RULE_SB_BALANCE);
	assert_non_null(strstr(f->message, "made 4, discarded 1, unpinned at umount 2"));
	pdt_rules_free(r);
}

/*
 * A directory sent after the entries below it (an elided one, materialized when it
 * is discarded) counts them: their orphaning is found.
 */
static void test_late_parent_counts_children(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_finding *f;

	(void)state;
	persist(r, 0x200, 0x100, "/dir/child", PDT_ORIGIN_KERNEL, 0);
	persist(r, 0x300, 0x100, "/dir/gone", PDT_ORIGIN_KERNEL, 0);
	discard(r, 0x300, 0x100, "/dir/gone", 0, 0);
	persist(r, 0x100, ROOT, "/dir", PDT_ORIGIN_USER, PDT_F_IS_DIR | PDT_F_MATERIALIZED);
	discard(r, 0x100, ROOT, "/dir", 0, 0);
	f = only_finding(r, PDT_KIND_LEAK, PDT_RULE_ORPHANED);
	assert_string_equal(f->path, "/dir/child");
	pdt_rules_free(r);
}

/* The walk checks the elided entries by count: each persistent, as many as the books say. */
static void test_walk_elided(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	const struct pdt_sb *sb;

	(void)state;
	books_abc(r);
	elided(r, 2, 0, 0);
	walk_abc(r, "b", 0x100);
	walk_entry(r, 0x500, ROOT, "e1", 1, PDT_W_PERSISTENT | PDT_W_POSITIVE | PDT_W_ELIDED);
	walk_entry(r, 0x600, ROOT, "e2", 1, PDT_W_PERSISTENT | PDT_W_POSITIVE | PDT_W_ELIDED);
	walk_mark(r, true);
	sb = pdt_rules_sb(r, 0);
	assert_int_equal(sb->check, PDT_CHECK_CLEAN);
	assert_int_equal(sb->check_entries, 5);

	/* One of them gone from the kernel while the BPF side still holds it. */
	walk_abc(r, "b", 0x100);
	walk_entry(r, 0x500, ROOT, "e1", 1, PDT_W_PERSISTENT | PDT_W_POSITIVE | PDT_W_ELIDED);
	walk_mark(r, true);
	assert_int_equal(sb->check, PDT_CHECK_INCONSISTENT);
	assert_string_equal(sb->check_first, "/: 2 entries kept by the BPF side, 1 in the kernel");

	/* Elided entries came or went during the walk: it proves nothing. */
	walk_abc(r, "b", 0x100);
	feed(r, full(PDT_EV_WALK, ROOT, ROOT, "/", PDT_F_WALK_END | PDT_F_WALK_MOVED));
	assert_int_equal(sb->check, PDT_CHECK_BUSY);
	pdt_rules_free(r);
}

static void test_elided_malformed(void **state)
{
	struct pdt_rules *r = pdt_rules_new();
	struct pdt_elided_event e = {
		.h = { .type = PDT_EV_ELIDED, .size = sizeof(e) - 8, .sb = SB1 }
	};

	(void)state;
	assert_int_equal(pdt_rules_feed(r, &e, sizeof(e) - 8), -1);
	assert_int_equal(pdt_rules_malformed(r), 1);
	pdt_rules_free(r);
}

/*
 * A run of weeks: superblocks that come and go clean are folded into one count and
 * their indices reused, while one with a finding stays listed, whatever came after.
 */
static void test_retire_gone(void **state)
{
	struct pdt_rules *r;
	const struct pdt_retired *ret;
	const struct pdt_sb *sb;
	size_t i, n, listed = 0;
	uint64_t k;

	(void)state;
	r = pdt_rules_new();
	/* The first superblock leaks: pinned after its umount. */
	persist(r, 0x100, ROOT, "/leak", PDT_ORIGIN_KERNEL, 0);
	sb_down(r);
	for (k = 1; k <= 10000; k++) {
		uint64_t sbk = SB2 + k * 0x1000; /* a new superblock, or an old address again */

		full(PDT_EV_PERSIST, 0x300 + k, ROOT, "/a", 0);
		ev.h.sb = k % 2 ? sbk : SB2;
		ev.h.refcount = 1;
		feed(r, &ev);
		full(PDT_EV_DISCARD, 0x300 + k, ROOT, "/a",
		     PDT_F_WAS_PERSISTENT | PDT_F_WAS_POSITIVE);
		ev.h.sb = k % 2 ? sbk : SB2;
		feed(r, &ev);
		full(PDT_EV_SB_DOWN, 0, 0, "", PDT_F_IN_UMOUNT);
		ev.h.sb = k % 2 ? sbk : SB2;
		feed(r, &ev);
		if (k % 100 == 0)
			pdt_rules_retire(r, 8);
	}
	pdt_rules_retire(r, 8);
	ret = pdt_rules_retired(r);
	assert_int_equal(ret->sbs, 10000 - 8);
	assert_int_equal(ret->made, 10000 - 8);
	assert_int_equal(ret->discarded, 10000 - 8);
	n = pdt_rules_nsbs(r);
	assert_true(n <= 1 + 8 + 100);
	for (i = 0; i < n; i++) {
		sb = pdt_rules_sb(r, i);
		if (!sb)
			continue;
		listed++;
		assert_int_equal(sb->made, 1);
	}
	assert_int_equal(listed, 1 + 8);
	/* The finding still names its superblock, which is still listed. */
	assert_int_equal(pdt_rules_nfindings(r), 2);
	sb = pdt_rules_sb(r, pdt_rules_finding(r, 0)->sb_index);
	assert_non_null(sb);
	assert_int_equal(sb->sb, SB1);
	assert_int_equal(sb->live, 1);
	pdt_rules_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_lifecycle),
		cmocka_unit_test(test_predating_entries_are_adopted),
		cmocka_unit_test(test_discard_unpersisted),
		cmocka_unit_test(test_persist_twice_keeps_first_creation),
		cmocka_unit_test(test_dput_persistence_ref),
		cmocka_unit_test(test_busy_at_umount),
		cmocka_unit_test(test_pinned_after_umount_and_balance),
		cmocka_unit_test(test_orphaned_child),
		cmocka_unit_test(test_move_updates_parent),
		cmocka_unit_test(test_exchange_moves_both),
		cmocka_unit_test(test_rename_victim_kept),
		cmocka_unit_test(test_eaten_at_kill),
		cmocka_unit_test(test_eaten_after_dput_is_one_report),
		cmocka_unit_test(test_walk_consistent),
		cmocka_unit_test(test_walk_inconsistent),
		cmocka_unit_test(test_walk_busy),
		cmocka_unit_test(test_walk_finds_eaten),
		cmocka_unit_test(test_walk_entry_malformed),
		cmocka_unit_test(test_removal_of_user_entry),
		cmocka_unit_test(test_brief_discard),
		cmocka_unit_test(test_brief_malformed),
		cmocka_unit_test(test_removal_of_untracked_root),
		cmocka_unit_test(test_deep_path_is_whole),
		cmocka_unit_test(test_removal_exemptions),
		cmocka_unit_test(test_create_in_dead_dir),
		cmocka_unit_test(test_disabled_rule_is_silent),
		cmocka_unit_test(test_recycled_superblock),
		cmocka_unit_test(test_removal_end),
		cmocka_unit_test(test_malformed_events),
		cmocka_unit_test(test_two_superblocks),
		cmocka_unit_test(test_findings_are_capped),
		cmocka_unit_test(test_outlives_module),
		cmocka_unit_test(test_module_clean_and_unseen),
		cmocka_unit_test(test_elided_counts),
		cmocka_unit_test(test_elided_balance),
		cmocka_unit_test(test_late_parent_counts_children),
		cmocka_unit_test(test_walk_elided),
		cmocka_unit_test(test_elided_malformed),
		cmocka_unit_test(test_retire_gone),
	};

	return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
