// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "modtab.h"
#include "rules.h"
#include "u64map.h"

/*
 * The lists a dent is on, so that a discard, an umount, a module's unload and a walk
 * visit only the entries they are about: those under one parent address, those of one
 * superblock, those made by one module.
 */
enum dent_list { BY_PARENT, BY_SB, BY_MODULE, NLISTS };

struct dent;
struct link {
	struct dent *prev, *next;
};

/* The entries of one list, with how many there are. */
struct dlist {
	struct dent *head, *tail;
	size_t n;
	bool unsorted; /* not in the order the books took them (a move appends) */
};

/* A dentry pdtrace saw made persistent, until it is discarded or unpinned. */
struct dent {
	uint64_t dentry, parent, sb;
	/* The order the books took it in: the dents map's order, which findings follow. */
	unsigned long long seq;
	unsigned long long walk_mark; /* the last walk that found it where the books say */
	struct link link[NLISTS];
	enum pdt_origin origin;
	bool is_dir;
	unsigned int children; /* tracked persistent children */
	unsigned int pid;
	unsigned int module; /* modtab id of the module whose code made it, 0: none */
	unsigned int epoch;  /* the module epoch its stack was taken in */
	char comm[PDT_COMM_LEN];
	/*
	 * Where it was made (kernel-made entries: user creations keep no stack) and its
	 * path at its last persist or move, sized to fit: churn makes one dent per
	 * event, and a path is mostly a few bytes, not PDT_PATH_LEN. Both live in the
	 * dent's own allocation, the path after the stack (one malloc per entry); a
	 * longer path after a move gets its own.
	 */
	unsigned int nstack;
	char *path;
	size_t inline_cap;
	unsigned long long stack[];
};

/* Where the dent's own copy of its path is: after its stack. */
static char *dent_inline_path(struct dent *d)
{
	return (char *)(d->stack + d->nstack);
}

static void dent_free(struct dent *d)
{
	if (d) {
		if (d->path != dent_inline_path(d))
			free(d->path);
		free(d);
	}
}

static int dent_set_path(struct dent *d, const char *path, size_t len)
{
	char *own = dent_inline_path(d), *p = len < d->inline_cap ? own : malloc(len + 1);

	if (!p)
		return -1;
	memmove(p, path, len);
	p[len] = '\0';
	if (d->path != own && d->path != p)
		free(d->path);
	d->path = p;
	return 0;
}

/* path: the event's, whole (event_path()), len bytes long. */
static struct dent *dent_new(const struct pdt_event_full *e, const char *path, size_t len)
{
	unsigned int nstack = e->nstack < PDT_STACK_DEPTH ? e->nstack : PDT_STACK_DEPTH;
	/*
	 * malloc, not calloc: Debian 12's glibc takes no calloc() chunk from the thread cache, so
	 * under churn every dent went through the allocator's slow paths both ways.
	 */
	struct dent *d = malloc(sizeof(*d) + nstack * sizeof(d->stack[0]) + len + 1);

	if (!d)
		return NULL;
	memset(d, 0, sizeof(*d));
	d->nstack = nstack;
	memcpy(d->stack, e->stack, nstack * sizeof(d->stack[0]));
	d->inline_cap = len + 1;
	d->path = dent_inline_path(d);
	dent_set_path(d, path, len); /* fits: no allocation */
	return d;
}

/* One dentry the self-check's walk found (struct pdt_walk_entry). */
struct went {
	uint64_t dentry, parent;
	int refcount;
	unsigned int wflags;
	unsigned int nchildren; /* entries of the walk below it */
	char name[256];
};

/* The walk under way: its entries, and whether its superblock changed meanwhile. */
struct walk {
	bool open, dirty;
	uint64_t sb;
	struct u64map ents; /* dentry address -> struct went */
};

/*
 * A recursive removal under way: its root's path and the stack where it started,
 * which a user entry it destroys shows (the BPF side unwinds once per removal).
 */
struct removal {
	char path[PDT_PATH_LEN];
	unsigned int nstack;
	unsigned long long stack[PDT_STACK_DEPTH];
};

struct pdt_rules {
	struct u64map dents; /* dentry address -> struct dent */
	/* Per list: parent address, superblock address or module id -> struct dlist. */
	struct u64map lists[NLISTS];
	unsigned long long dent_seq, walk_serial;
	/*
	 * Untracked dentry address -> how many tracked entries name it their parent: a
	 * directory the books learn of after its children (an elided one, sent when it
	 * mattered) starts with its count.
	 */
	struct u64map waiting;
	struct u64map eaten; /* dentries whose eaten reference was reported */
	struct walk walk;
	struct u64map sb_index; /* sb address -> index + 1 into sbs */
	/* The last superblock get_sb() looked up: a stream is mostly one at a time. */
	uint64_t last_sb;
	uintptr_t last_idx;
	struct u64map removals; /* removal root address -> struct removal (malloc'd) */
	struct modtab *mods;	/* where the loaded modules' code is */
	struct pdt_sb *sbs;
	size_t nsbs, cap_sbs;
	unsigned long long sb_serial; /* superblocks met so far */
	/* Indices of superblocks gone clean, oldest first (a ring), and of those retired. */
	size_t *gone, gone_head, ngone, cap_gone;
	size_t *free_idx, nfree, cap_free;
	struct pdt_retired retired;
	struct pdt_finding *findings;
	size_t nfindings, cap_findings;
	struct pdt_finding spill;   /* made past the cap: counted, streamed, not kept */
	struct pdt_event_full wide; /* a brief discard, widened: all but its header stays 0 */
	unsigned long long unlisted;
	unsigned long long per_kind[PDT_KIND_MAX];
	unsigned long long by_absence[PDT_KIND_MAX];
	unsigned long long malformed;
	bool off[PDT_R_MAX];		 /* rules disabled: their hooks are missing */
	const char *disabled[PDT_R_MAX]; /* the same, in the order they were disabled */
	size_t ndisabled;
	pdt_finding_cb on_finding;
	void *on_finding_ctx;
	pdt_sb_cb on_new_sb;
	void *on_new_sb_ctx;
};

/* What files d on its list l. */
static uint64_t list_key(const struct dent *d, enum dent_list l)
{
	return l == BY_PARENT ? d->parent : l == BY_SB ? d->sb : d->module;
}

/* The list l of key, made when create says so: NULL when there is none (or no memory). */
static struct dlist *list_at(struct pdt_rules *r, enum dent_list l, uint64_t key, bool create)
{
	struct dlist *dl = u64map_get(&r->lists[l], key);

	if (dl || !create)
		return dl;
	dl = calloc(1, sizeof(*dl));
	if (dl && u64map_put(&r->lists[l], key, dl)) {
		free(dl);
		dl = NULL;
	}
	return dl;
}

/* d at the end of dl, its list l. */
static void list_append(struct dlist *dl, struct dent *d, enum dent_list l)
{
	d->link[l].prev = dl->tail;
	d->link[l].next = NULL;
	if (dl->tail) {
		dl->unsorted |= dl->tail->seq > d->seq;
		dl->tail->link[l].next = d;
	} else {
		dl->head = d;
	}
	dl->tail = d;
	dl->n++;
}

/* d off its list l, which goes when it is empty. */
static void list_del(struct pdt_rules *r, struct dent *d, enum dent_list l)
{
	uint64_t key = list_key(d, l);
	struct dlist *dl = u64map_get(&r->lists[l], key);
	struct link *k = &d->link[l];

	if (!dl)
		return;
	if (k->prev)
		k->prev->link[l].next = k->next;
	else
		dl->head = k->next;
	if (k->next)
		k->next->link[l].prev = k->prev;
	else
		dl->tail = k->prev;
	k->prev = k->next = NULL;
	if (!--dl->n) {
		u64map_del(&r->lists[l], key);
		free(dl);
	}
}

static int by_seq(const void *a, const void *b)
{
	const struct dent *x = *(const struct dent *const *)a, *y = *(const struct dent *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * A list back in the order the books took its entries, which findings follow (a move
 * appends its entry at the end). Out of memory, it stays as it is.
 */
static void list_sort(struct dlist *dl, enum dent_list l)
{
	struct dent **v, *d;
	size_t i = 0, n = dl->n;

	if (!dl->unsorted || !(v = malloc(n * sizeof(*v))))
		return;
	for (d = dl->head; d; d = d->link[l].next)
		v[i++] = d;
	qsort(v, n, sizeof(*v), by_seq);
	dl->head = dl->tail = NULL;
	dl->n = 0;
	for (i = 0; i < n; i++)
		list_append(dl, v[i], l);
	free(v);
	dl->unsorted = false;
}

const char *pdt_kind_name(enum pdt_kind k)
{
	static const char *const names[] = { "leak", "imbalance", "illegal-removal" };

	return k < PDT_KIND_MAX ? names[k] : "?";
}

const char *pdt_origin_name(enum pdt_origin o)
{
	switch (o) {
	case PDT_ORIGIN_KERNEL:
		return "kernel";
	case PDT_ORIGIN_USER:
		return "user";
	default:
		return "unknown";
	}
}

const struct pdt_rule_info pdt_rule_table[PDT_R_MAX] = {
	[PDT_R_BUSY_AT_UMOUNT] = { PDT_RULE_BUSY_AT_UMOUNT, PDT_KIND_LEAK, false, true },
	[PDT_R_PINNED_AFTER_UMOUNT] = { PDT_RULE_PINNED_AFTER_UMOUNT, PDT_KIND_LEAK, true, true },
	[PDT_R_ORPHANED] = { PDT_RULE_ORPHANED, PDT_KIND_LEAK, true, true },
	[PDT_R_DISCARD_UNPERSISTED] = { PDT_RULE_DISCARD_UNPERSISTED, PDT_KIND_IMBALANCE, false,
					false },
	[PDT_R_PERSIST_TWICE] = { PDT_RULE_PERSIST_TWICE, PDT_KIND_IMBALANCE, false, true },
	[PDT_R_DPUT_PERSISTENCE_REF] = { PDT_RULE_DPUT_PERSISTENCE_REF, PDT_KIND_IMBALANCE, false,
					 true },
	[PDT_R_SB_BALANCE] = { PDT_RULE_SB_BALANCE, PDT_KIND_IMBALANCE, true, false },
	[PDT_R_USER_ENTRY_REMOVED] = { PDT_RULE_USER_ENTRY_REMOVED, PDT_KIND_ILLEGAL_REMOVAL, false,
				       true },
	[PDT_R_CREATE_IN_DEAD_DIR] = { PDT_RULE_CREATE_IN_DEAD_DIR, PDT_KIND_ILLEGAL_REMOVAL, false,
				       true },
	[PDT_R_EATEN_PERSISTENCE_REF] = { PDT_RULE_EATEN_PERSISTENCE_REF, PDT_KIND_IMBALANCE, false,
					  true },
	[PDT_R_RENAME_VICTIM_KEPT] = { PDT_RULE_RENAME_VICTIM_KEPT, PDT_KIND_LEAK, false, true },
	[PDT_R_OUTLIVES_MODULE] = { PDT_RULE_OUTLIVES_MODULE, PDT_KIND_LEAK, true, true },
};

/* The rule of this name, or PDT_R_MAX. */
static enum pdt_rule_id rule_by_name(const char *name)
{
	int i;

	for (i = 0; i < PDT_R_MAX; i++)
		if (!strcmp(pdt_rule_table[i].name, name))
			return (enum pdt_rule_id)i;
	return PDT_R_MAX;
}

const char *pdt_rule_name(const char *name)
{
	enum pdt_rule_id id = rule_by_name(name);

	return id < PDT_R_MAX ? pdt_rule_table[id].name : NULL;
}

static bool rule_enabled(const struct pdt_rules *r, enum pdt_rule_id id)
{
	return !r->off[id];
}

struct pdt_rules *pdt_rules_new(void)
{
	struct pdt_rules *r = calloc(1, sizeof(*r));
	int i;

	if (r && !(r->mods = modtab_new())) {
		free(r);
		return NULL;
	}
	if (r) {
		u64map_init(&r->dents);
		for (i = 0; i < NLISTS; i++)
			u64map_init(&r->lists[i]);
		u64map_init(&r->waiting);
		u64map_init(&r->sb_index);
		u64map_init(&r->removals);
		u64map_init(&r->eaten);
		u64map_init(&r->walk.ents);
	}
	return r;
}

static void walk_clear(struct walk *w)
{
	size_t pos = 0;
	struct went *e;

	while ((e = u64map_next(&w->ents, &pos, NULL)))
		free(e);
	u64map_free(&w->ents);
	u64map_init(&w->ents);
	w->open = w->dirty = false;
}

void pdt_rules_free(struct pdt_rules *r)
{
	struct removal *rm;
	struct dlist *dl;
	size_t pos = 0;
	struct dent *d;
	int i;

	if (!r)
		return;

	while ((d = u64map_next(&r->dents, &pos, NULL)))
		dent_free(d);
	u64map_free(&r->dents);
	for (i = 0; i < NLISTS; i++) {
		pos = 0;
		while ((dl = u64map_next(&r->lists[i], &pos, NULL)))
			free(dl);
		u64map_free(&r->lists[i]);
	}
	u64map_free(&r->waiting);
	pos = 0;
	while ((rm = u64map_next(&r->removals, &pos, NULL)))
		free(rm);
	u64map_free(&r->removals);
	u64map_free(&r->sb_index);
	u64map_free(&r->eaten);
	walk_clear(&r->walk);
	u64map_free(&r->walk.ents);
	modtab_free(r->mods);
	free(r->sbs);
	free(r->gone);
	free(r->free_idx);
	free(r->findings);
	free(r);
}

void pdt_rules_on_finding(struct pdt_rules *r, pdt_finding_cb cb, void *ctx)
{
	r->on_finding = cb;
	r->on_finding_ctx = ctx;
}

void pdt_rules_on_new_sb(struct pdt_rules *r, pdt_sb_cb cb, void *ctx)
{
	r->on_new_sb = cb;
	r->on_new_sb_ctx = ctx;
}

void pdt_rules_disable(struct pdt_rules *r, const char *rule)
{
	enum pdt_rule_id id = rule_by_name(rule);

	if (id == PDT_R_MAX || r->off[id])
		return;
	r->off[id] = true;
	r->disabled[r->ndisabled++] = pdt_rule_table[id].name;
}

size_t pdt_rules_ndisabled(const struct pdt_rules *r)
{
	return r->ndisabled;
}

const char *pdt_rules_disabled(const struct pdt_rules *r, size_t i)
{
	return i < r->ndisabled ? r->disabled[i] : NULL;
}

size_t pdt_rules_nfindings(const struct pdt_rules *r)
{
	return r->nfindings;
}

unsigned long long pdt_rules_unlisted(const struct pdt_rules *r)
{
	return r->unlisted;
}

const struct pdt_finding *pdt_rules_finding(const struct pdt_rules *r, size_t i)
{
	return i < r->nfindings ? &r->findings[i] : NULL;
}

size_t pdt_rules_nsbs(const struct pdt_rules *r)
{
	return r->nsbs;
}

const struct pdt_sb *pdt_rules_sb(const struct pdt_rules *r, size_t i)
{
	return i < r->nsbs && !r->sbs[i].retired ? &r->sbs[i] : NULL;
}

size_t pdt_rules_sb_index(const struct pdt_rules *r, const struct pdt_sb *sb)
{
	return (size_t)(sb - r->sbs);
}

const struct pdt_retired *pdt_rules_retired(const struct pdt_rules *r)
{
	return &r->retired;
}

/* A superblock gone with nothing to report: retired later, once shown (pdt_rules_retire()). */
static void note_gone(struct pdt_rules *r, const struct pdt_sb *sb)
{
	if (sb->findings || sb->live || sb->check != PDT_CHECK_NONE)
		return;
	if (r->ngone == r->cap_gone) {
		size_t ncap = r->cap_gone ? r->cap_gone * 2 : 64, i;
		size_t *n = malloc(ncap * sizeof(*n));

		if (!n)
			return; /* kept in full: only memory is lost */
		for (i = 0; i < r->ngone; i++)
			n[i] = r->gone[(r->gone_head + i) % r->cap_gone];
		free(r->gone);
		r->gone = n;
		r->gone_head = 0;
		r->cap_gone = ncap;
	}
	r->gone[(r->gone_head + r->ngone++) % r->cap_gone] = (size_t)(sb - r->sbs);
}

void pdt_rules_retire(struct pdt_rules *r, size_t keep)
{
	while (r->ngone > keep) {
		size_t i = r->gone[r->gone_head];
		struct pdt_sb *sb = &r->sbs[i];

		if (r->nfree == r->cap_free) {
			size_t ncap = r->cap_free ? r->cap_free * 2 : 64;
			size_t *n = realloc(r->free_idx, ncap * sizeof(*n));

			if (!n)
				return;
			r->free_idx = n;
			r->cap_free = ncap;
		}
		r->gone_head = (r->gone_head + 1) % r->cap_gone;
		r->ngone--;
		if (sb->findings || sb->live)
			continue; /* a finding came after all: it names this superblock */
		r->retired.sbs++;
		r->retired.made += sb->made;
		r->retired.discarded += sb->discarded;
		r->retired.unpinned += sb->unpinned;
		r->retired.adopted += sb->adopted;
		/* Its address may name a newer superblock by now: only its own entry goes. */
		if ((uintptr_t)u64map_get(&r->sb_index, sb->sb) == i + 1)
			u64map_del(&r->sb_index, sb->sb);
		if (r->last_idx == i + 1)
			r->last_idx = 0;
		sb->retired = true;
		r->free_idx[r->nfree++] = i;
	}
}

unsigned long long pdt_rules_count(const struct pdt_rules *r, enum pdt_kind kind)
{
	return kind < PDT_KIND_MAX ? r->per_kind[kind] : 0;
}

unsigned long long pdt_rules_count_by_absence(const struct pdt_rules *r, enum pdt_kind kind)
{
	return kind < PDT_KIND_MAX ? r->by_absence[kind] : 0;
}

bool pdt_rules_fail(const struct pdt_rules *r, const bool fail_on[PDT_KIND_MAX], bool complete)
{
	int k;

	for (k = 0; k < PDT_KIND_MAX; k++)
		if (fail_on[k] && r->per_kind[k] > (complete ? 0 : r->by_absence[k]))
			return true;
	return false;
}

unsigned long long pdt_rules_malformed(const struct pdt_rules *r)
{
	return r->malformed;
}

/* An event's stack into dst (PDT_STACK_DEPTH frames at most): how many frames. */
static unsigned int copy_stack(unsigned long long *dst, const struct pdt_event_full *e)
{
	unsigned int n = e->nstack < PDT_STACK_DEPTH ? e->nstack : PDT_STACK_DEPTH;

	memcpy(dst, e->stack, n * sizeof(dst[0]));
	return n;
}

/* Copy a fixed-size, possibly unterminated kernel string: its length. */
static size_t copy_str(char *dst, size_t n, const char *src, size_t srcn)
{
	size_t len = strnlen(src, srcn < n ? srcn : n - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
	return len;
}

/*
 * The superblock an event is about. A superblock whose umount we saw and that
 * shows up again is a new one at a recycled address: start new books.
 */
static struct pdt_sb *get_sb(struct pdt_rules *r, const struct pdt_event *h,
			     const struct pdt_event_full *full)
{
	uintptr_t idx = r->last_idx && r->last_sb == h->sb
			    ? r->last_idx
			    : (uintptr_t)u64map_get(&r->sb_index, h->sb);
	struct pdt_sb *sb;

	r->last_sb = h->sb;
	r->last_idx = idx;
	if (idx && !(r->sbs[idx - 1].unmounted && h->type != PDT_EV_SB_DOWN))
		sb = &r->sbs[idx - 1];
	else {
		size_t i;

		if (r->nfree) {
			i = r->free_idx[--r->nfree];
		} else {
			if (r->nsbs == r->cap_sbs) {
				size_t ncap = r->cap_sbs ? r->cap_sbs * 2 : 16;
				struct pdt_sb *n = realloc(r->sbs, ncap * sizeof(*n));

				if (!n)
					return NULL;
				r->sbs = n;
				r->cap_sbs = ncap;
			}
			i = r->nsbs++;
		}
		sb = &r->sbs[i];
		memset(sb, 0, sizeof(*sb));
		sb->sb = h->sb;
		sb->dev = h->dev;
		sb->serial = ++r->sb_serial;
		if (u64map_put(&r->sb_index, h->sb, (void *)(uintptr_t)(i + 1))) {
			if (i + 1 == r->nsbs)
				r->nsbs--;
			else
				r->free_idx[r->nfree++] = i;
			sb->retired = true;
			return NULL;
		}
		r->last_idx = i + 1;
		if (full) {
			copy_str(sb->fs_type, sizeof(sb->fs_type), full->fs_type,
				 sizeof(full->fs_type));
			copy_str(sb->s_id, sizeof(sb->s_id), full->s_id, sizeof(full->s_id));
		}
		if (r->on_new_sb)
			r->on_new_sb(sb, r->on_new_sb_ctx);
		return sb;
	}
	/* Names arrive with the first full event; a small one may have come first. */
	if (full && !sb->fs_type[0]) {
		copy_str(sb->fs_type, sizeof(sb->fs_type), full->fs_type, sizeof(full->fs_type));
		copy_str(sb->s_id, sizeof(sb->s_id), full->s_id, sizeof(full->s_id));
	}
	return sb;
}

/*
 * Past the cap with no one to stream findings to, a finding is only counted: nothing
 * reads it, so it is not built (its path may take thousands of lookups).
 */
static bool counting_only(const struct pdt_rules *r)
{
	return r->nfindings >= PDT_RULES_MAX_FINDINGS && !r->on_finding;
}

/* The spill, not built (counting_only()): describe() leaves it alone too. */
static bool unbuilt(const struct pdt_rules *r, const struct pdt_finding *f)
{
	return f == &r->spill && !r->on_finding;
}

static struct pdt_finding *new_finding(struct pdt_rules *r, enum pdt_rule_id rule,
				       struct pdt_sb *sb, const struct pdt_event *h)
{
	struct pdt_finding *f = &r->spill;

	if (counting_only(r)) { /* commit() reads these */
		f->kind = pdt_rule_table[rule].kind;
		f->rule_id = rule;
		f->rule = pdt_rule_table[rule].name;
		return f;
	}
	if (r->nfindings < PDT_RULES_MAX_FINDINGS && r->nfindings == r->cap_findings) {
		size_t ncap = r->cap_findings ? r->cap_findings * 2 : 16;
		struct pdt_finding *n = realloc(r->findings, ncap * sizeof(*n));

		if (!n)
			return NULL;
		r->findings = n;
		r->cap_findings = ncap;
	}
	if (r->nfindings < PDT_RULES_MAX_FINDINGS)
		f = &r->findings[r->nfindings];
	memset(f, 0, sizeof(*f));
	f->kind = pdt_rule_table[rule].kind;
	f->rule_id = rule;
	f->rule = pdt_rule_table[rule].name;
	if (sb) {
		f->sb_index = (size_t)(sb - r->sbs);
		memcpy(f->fs_type, sb->fs_type, sizeof(f->fs_type));
		memcpy(f->s_id, sb->s_id, sizeof(f->s_id));
		f->dev = sb->dev;
	}
	f->pid = h->pid;
	copy_str(f->comm, sizeof(f->comm), h->comm, sizeof(h->comm));
	f->ts_ns = h->ts_ns;
	f->origin = PDT_ORIGIN_UNKNOWN;
	f->stack_epoch = f->created_epoch = modtab_epoch(r->mods);
	return f;
}

/* The last component of a path as the books keep it. */
static const char *leaf(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* "/name" at the end of out, len bytes long, if it fits whole: the new length. */
static size_t path_append_at(char *out, size_t n, size_t len, const char *name)
{
	size_t k = strlen(name);

	if (len + 1 + k >= n)
		return len;
	out[len] = '/';
	memcpy(out + len + 1, name, k + 1);
	return len + 1 + k;
}

static void path_append(char *out, size_t n, const char *name)
{
	path_append_at(out, n, strlen(out), name);
}

/*
 * Where a tracked dentry is now. Each dentry keeps the path it had when it was last
 * made persistent or moved; a rename of a directory moves its whole subtree without
 * an event for each entry below, so the path is rebuilt from the leaf names of the
 * tracked ancestors, up to the first one whose own path is the base.
 */
static void dent_path(const struct pdt_rules *r, const struct dent *d, char *out, size_t n)
{
	const struct dent *chain[PDT_FINDING_PATH_LEN / 2]; /* "/x" a level at least */
	size_t depth = 0, len;

	chain[depth++] = d;
	while (depth < sizeof(chain) / sizeof(chain[0])) {
		const struct dent *p = u64map_get((struct u64map *)&r->dents, d->parent);

		if (!p || p == d)
			break;
		chain[depth++] = d = p;
	}
	snprintf(out, n, "%s", chain[depth - 1]->path);
	/* The length carried along: a chain thousands deep is not measured again each level. */
	len = strlen(out);
	while (--depth > 0)
		len = path_append_at(out, n, len, leaf(chain[depth - 1]->path));
}

/* The BPF side cut the path short: "..." and the leaf end. */
static bool path_cut(const char *path)
{
	return !strncmp(path, "...", 3);
}

/*
 * A full event's path, whole: where the BPF side cut it short, from the books' copy
 * of the dentry (self: not for a move, which the books have not applied yet) or of
 * the parent it names, with the leaf the event kept.
 */
static size_t event_path(const struct pdt_rules *r, const struct pdt_event_full *e, bool self,
			 char *out, size_t n)
{
	size_t len = copy_str(out, n, e->path, sizeof(e->path));
	const struct dent *d;

	if (!path_cut(out))
		return len;
	if (self && (d = u64map_get((struct u64map *)&r->dents, e->h.dentry))) {
		dent_path(r, d, out, n);
	} else if ((d = u64map_get((struct u64map *)&r->dents, e->h.parent))) {
		char name[PDT_PATH_LEN];

		copy_str(name, sizeof(name), leaf(e->path), sizeof(name));
		dent_path(r, d, out, n);
		path_append(out, n, name);
	}
	return strlen(out);
}

void pdt_rules_event_path(const struct pdt_rules *r, const struct pdt_event_full *e, char *buf,
			  size_t n)
{
	if (n)
		event_path(r, e, true, buf, n);
}

/* Fill the parts of a finding that come from a full event and a tracked dentry. */
static void describe(const struct pdt_rules *r, struct pdt_finding *f,
		     const struct pdt_event_full *e, const struct dent *d)
{
	if (unbuilt(r, f))
		return;
	if (e) {
		event_path(r, e, true, f->path, sizeof(f->path));
		f->nstack = copy_stack(f->stack, e);
	}
	if (d) {
		if (!f->path[0]) /* a cut one event_path() rebuilt from the books already */
			dent_path(r, d, f->path, sizeof(f->path));
		f->origin = d->origin;
		f->created_seen = true;
		f->created_pid = d->pid;
		memcpy(f->created_comm, d->comm, sizeof(f->created_comm));
		f->ncreated = d->nstack;
		f->created_epoch = d->epoch;
		if (d->nstack)
			memcpy(f->created, d->stack, d->nstack * sizeof(f->created[0]));
	}
}

/* n findings of a rule past the cap, counted as commit() counts them (counting_only()). */
static void count_unbuilt(struct pdt_rules *r, enum pdt_rule_id rule, struct pdt_sb *sb,
			  unsigned long long n)
{
	enum pdt_kind kind = pdt_rule_table[rule].kind;

	r->unlisted += n;
	r->per_kind[kind] += n;
	if (pdt_rule_table[rule].by_absence)
		r->by_absence[kind] += n;
	if (sb)
		sb->findings += n;
}

static void commit(struct pdt_rules *r, struct pdt_finding *f, struct pdt_sb *sb)
{
	if (f == &r->spill)
		r->unlisted++;
	else
		r->nfindings++;
	r->per_kind[f->kind]++;
	if (pdt_rule_table[f->rule_id].by_absence)
		r->by_absence[f->kind]++;
	if (sb)
		sb->findings++;
	if (r->on_finding)
		r->on_finding(f, r->on_finding_ctx);
}

/*
 * A tracked entry comes (+1) under parent or leaves it (-1). Under a parent the books
 * do not hold (elided, or not yet seen), the count waits for it (on_persist()).
 */
static void count_child(struct pdt_rules *r, uint64_t parent, int delta)
{
	struct dent *p = u64map_get(&r->dents, parent);

	if (!p)
		u64map_add(&r->waiting, parent, delta);
	else if (delta > 0 || p->children)
		p->children += delta;
}

/* d on each list it belongs to: -1, on none, when out of memory. */
static int dent_enlist(struct pdt_rules *r, struct dent *d)
{
	struct dlist *p = list_at(r, BY_PARENT, d->parent, true);
	struct dlist *s = list_at(r, BY_SB, d->sb, true);
	struct dlist *m = d->module ? list_at(r, BY_MODULE, d->module, true) : NULL;

	if (!p || !s || (d->module && !m))
		return -1; /* an empty list made meanwhile stays, harmless */
	list_append(p, d, BY_PARENT);
	list_append(s, d, BY_SB);
	if (m)
		list_append(m, d, BY_MODULE);
	return 0;
}

static void forget_lists(struct pdt_rules *r, struct dent *d)
{
	list_del(r, d, BY_PARENT);
	list_del(r, d, BY_SB);
	if (d->module)
		list_del(r, d, BY_MODULE);
}

/* Take a tracked dentry out of the books (discarded, unpinned or gone with its sb). */
static void forget(struct pdt_rules *r, struct dent *d)
{
	forget_lists(r, d);
	count_child(r, d->parent, -1);
	u64map_del(&r->dents, d->dentry);
	dent_free(d);
}

static void on_persist(struct pdt_rules *r, const struct pdt_event_full *e, struct pdt_sb *sb)
{
	const struct pdt_event *h = &e->h;
	struct dent *d = u64map_get(&r->dents, h->dentry);
	char path[PDT_FINDING_PATH_LEN];
	struct pdt_finding *f;
	size_t len;

	if (h->flags & PDT_F_WAS_PERSISTENT) {
		if (!rule_enabled(r, PDT_R_PERSIST_TWICE) ||
		    !(f = new_finding(r, PDT_R_PERSIST_TWICE, sb, h)))
			return;
		describe(r, f, e, d);
		snprintf(f->message, sizeof(f->message),
			 "d_make_persistent() on a dentry that is already persistent "
			 "(count %d on entry): it takes a second reference",
			 h->refcount);
		f->has_refcount = true;
		f->refcount = h->refcount;
		commit(r, f, sb);
		return;
	}
	if ((h->flags & PDT_F_PARENT_DEAD) && rule_enabled(r, PDT_R_CREATE_IN_DEAD_DIR) &&
	    (f = new_finding(r, PDT_R_CREATE_IN_DEAD_DIR, sb, h))) {
		describe(r, f, e, NULL);
		f->origin = h->origin;
		f->created_seen = true;
		f->created_pid = h->pid;
		memcpy(f->created_comm, f->comm, sizeof(f->created_comm)); /* the event's */
		f->ncreated = f->nstack;
		memcpy(f->created, f->stack, sizeof(f->created));
		snprintf(f->message, sizeof(f->message),
			 "made persistent inside a directory that is being removed (S_DEAD): "
			 "nothing will ever discard it");
		commit(r, f, sb);
	}
	if (d) /* a stale entry: its release was lost or happened outside our hooks */
		forget(r, d);
	u64map_del(&r->eaten, h->dentry); /* a new life at this address */
	len = event_path(r, e, false, path, sizeof(path));
	d = dent_new(e, path, len);
	if (!d)
		return;
	d->dentry = h->dentry;
	d->parent = h->parent;
	d->sb = h->sb;
	d->module = modtab_owner(r->mods, d->stack, d->nstack);
	d->seq = ++r->dent_seq;
	if (dent_enlist(r, d)) {
		dent_free(d);
		return;
	}
	if (u64map_put(&r->dents, h->dentry, d)) {
		forget_lists(r, d);
		dent_free(d);
		return;
	}
	d->origin = h->origin;
	d->is_dir = h->flags & PDT_F_IS_DIR;
	d->pid = h->pid;
	d->epoch = modtab_epoch(r->mods);
	copy_str(d->comm, sizeof(d->comm), h->comm, sizeof(h->comm));
	d->children = (uintptr_t)u64map_del(&r->waiting, h->dentry);
	count_child(r, h->parent, +1);
	sb->made++;
	sb->live++;
}

/* Persistent entries still below a directory that stops being reachable. */
static void report_orphans(struct pdt_rules *r, const struct pdt_event_full *e, struct dent *dir,
			   struct pdt_sb *sb)
{
	struct dlist *kids;
	size_t done = 0;
	struct dent *c;

	if (!dir->children || !rule_enabled(r, PDT_R_ORPHANED) ||
	    !(kids = list_at(r, BY_PARENT, dir->dentry, false)))
		return;
	list_sort(kids, BY_PARENT);
	for (c = kids->head; c; c = c->link[BY_PARENT].next, done++) {
		struct pdt_finding *f;

		if (counting_only(r)) {
			count_unbuilt(r, PDT_R_ORPHANED, sb, kids->n - done);
			return;
		}
		f = new_finding(r, PDT_R_ORPHANED, sb, &e->h);
		if (!f)
			return;
		describe(r, f, NULL, c);
		f->nstack = copy_stack(f->stack, e);
		snprintf(f->message, sizeof(f->message),
			 "still persistent after its parent %.180s was discarded: unreachable, "
			 "pinned until an umount",
			 e->path);
		commit(r, f, sb);
	}
}

/*
 * One eaten-persistence-ref per life of a dentry, wherever it is seen first (a dput()
 * finding counts): the finding to describe and commit, or NULL when it was reported
 * already or the rule is off.
 */
static struct pdt_finding *new_eaten(struct pdt_rules *r, struct pdt_sb *sb,
				     const struct pdt_event *h, uint64_t dentry, int refcount)
{
	struct pdt_finding *f;

	if (u64map_get(&r->eaten, dentry) || !rule_enabled(r, PDT_R_EATEN_PERSISTENCE_REF) ||
	    !(f = new_finding(r, PDT_R_EATEN_PERSISTENCE_REF, sb, h)))
		return NULL;
	u64map_put(&r->eaten, dentry, (void *)1);
	f->has_refcount = true;
	f->refcount = refcount;
	return f;
}

/* Where an eaten persistence reference was seen (eaten-persistence-ref). */
static const char *const eaten_where[] = {
	"killed with DCACHE_PERSISTENT set (count 0): a plain dput() ate the persistence "
	"reference, and the entry and its data are gone",
	"count 0 with DCACHE_PERSISTENT set at umount: a plain dput() ate the persistence "
	"reference and the entry sat unused on the LRU",
	"count %d with DCACHE_PERSISTENT set when tracing stopped (pdtrace's self-check), no "
	"more than its %u children hold: a plain dput() ate the persistence reference",
	"count %d when a user's unlink or rmdir discards it: only the VFS's own reference is "
	"left, a plain dput() ate the persistence reference, and the discard kills the "
	"dentry under the VFS",
	"count 0 with DCACHE_PERSISTENT set when tracing stopped (pdtrace's self-check): a "
	"plain dput() ate the persistence reference and the entry sits unused on the LRU",
};

static void on_discard(struct pdt_rules *r, const struct pdt_event_full *e, struct pdt_sb *sb)
{
	const struct pdt_event *h = &e->h;
	struct dent *d = u64map_get(&r->dents, h->dentry);
	struct pdt_finding *f;

	if (!(h->flags & PDT_F_WAS_PERSISTENT)) {
		if (!rule_enabled(r, PDT_R_DISCARD_UNPERSISTED) ||
		    !(f = new_finding(r, PDT_R_DISCARD_UNPERSISTED, sb, h)))
			return;
		describe(r, f, e, NULL);
		f->has_refcount = true;
		f->refcount = h->refcount;
		snprintf(f->message, sizeof(f->message),
			 "d_make_discardable() on a dentry that is not persistent (count %d on "
			 "entry): it drops a reference that persistence never took",
			 h->refcount);
		commit(r, f, sb);
		return;
	}
	if ((h->flags & PDT_F_USER_REMOVE) && h->refcount <= 1 &&
	    (f = new_eaten(r, sb, h, h->dentry, h->refcount))) {
		describe(r, f, e, d);
		snprintf(f->message, sizeof(f->message), eaten_where[3], h->refcount);
		commit(r, f, sb);
	}
	if (h->dentry == h->removal_root)
		free(u64map_del(&r->removals, h->dentry)); /* a removal ends with its root */
	sb->discarded++;
	if (!d) {
		sb->adopted++; /* persistent since before we started */
		return;
	}
	if ((h->flags & PDT_F_IN_REMOVAL) && !(h->flags & PDT_F_IN_UMOUNT) &&
	    d->origin == PDT_ORIGIN_USER && h->removal_root != h->dentry &&
	    rule_enabled(r, PDT_R_USER_ENTRY_REMOVED) &&
	    (f = new_finding(r, PDT_R_USER_ENTRY_REMOVED, sb, h))) {
		const struct removal *rm = u64map_get(&r->removals, h->removal_root);

		describe(r, f, e, d);
		if (!f->nstack && rm) {
			f->nstack = rm->nstack;
			memcpy(f->stack, rm->stack, rm->nstack * sizeof(f->stack[0]));
		}
		snprintf(f->message, sizeof(f->message),
			 "user-created entry destroyed by a recursive removal of %.180s",
			 rm ? rm->path : "(a directory pdtrace did not see)");
		commit(r, f, sb);
	}
	report_orphans(r, e, d, sb);
	sb->live--;
	forget(r, d);
}

static void on_dput(struct pdt_rules *r, const struct pdt_event_full *e, struct pdt_sb *sb)
{
	struct dent *d = u64map_get(&r->dents, e->h.dentry);
	struct pdt_finding *f;

	if (!rule_enabled(r, PDT_R_DPUT_PERSISTENCE_REF) ||
	    !(f = new_finding(r, PDT_R_DPUT_PERSISTENCE_REF, sb, &e->h)))
		return;
	describe(r, f, e, d);
	f->has_refcount = true;
	f->refcount = e->h.refcount;
	snprintf(f->message, sizeof(f->message),
		 "dput() of a persistent dentry with count %d on entry: it drops the reference "
		 "that persistence holds",
		 e->h.refcount);
	commit(r, f, sb);
	/* One bug, one report: the kill or the umount walk that follows says it again. */
	u64map_put(&r->eaten, e->h.dentry, (void *)1);
}

/* A persistent dentry whose count reached 0 (PDT_EV_EATEN), at its kill or at umount. */
static void on_eaten(struct pdt_rules *r, const struct pdt_event_full *e, struct pdt_sb *sb)
{
	struct dent *d = u64map_get(&r->dents, e->h.dentry);
	bool killed = !(e->h.flags & PDT_F_AT_UMOUNT);
	struct pdt_finding *f;

	f = new_eaten(r, sb, &e->h, e->h.dentry, e->h.refcount);
	if (f) {
		describe(r, f, e, d);
		snprintf(f->message, sizeof(f->message), "%s", eaten_where[killed ? 0 : 1]);
		commit(r, f, sb);
	}
	if (!killed)
		return;			    /* the unpin that follows takes it out of the books */
	u64map_del(&r->eaten, e->h.dentry); /* the address is free again */
	sb->eaten++;
	if (d) {
		sb->live--;
		forget(r, d);
	} else {
		sb->adopted++;
	}
}

/* A rename over a persistent entry that was not discarded first. */
static void on_victim(struct pdt_rules *r, const struct pdt_event_full *e, struct pdt_sb *sb)
{
	struct dent *d = u64map_get(&r->dents, e->h.dentry);
	struct pdt_finding *f;

	if (!rule_enabled(r, PDT_R_RENAME_VICTIM_KEPT) ||
	    !(f = new_finding(r, PDT_R_RENAME_VICTIM_KEPT, sb, &e->h)))
		return;
	describe(r, f, e, d);
	f->has_refcount = true;
	f->refcount = e->h.refcount;
	snprintf(f->message, sizeof(f->message),
		 "a rename over this entry left it persistent (count %d): unhashed and "
		 "unreachable, pinned until an umount",
		 e->h.refcount);
	commit(r, f, sb);
}

static void on_unpin(struct pdt_rules *r, const struct pdt_event *h, struct pdt_sb *sb)
{
	struct dent *d = u64map_get(&r->dents, h->dentry);

	sb->unpinned++;
	if (!d) {
		sb->adopted++;
		return;
	}
	sb->live--;
	forget(r, d);
}

static void on_busy(struct pdt_rules *r, const struct pdt_event_full *e, struct pdt_sb *sb)
{
	struct dent *d = u64map_get(&r->dents, e->h.dentry);
	struct pdt_finding *f;

	if (!rule_enabled(r, PDT_R_BUSY_AT_UMOUNT) ||
	    !(f = new_finding(r, PDT_R_BUSY_AT_UMOUNT, sb, &e->h)))
		return;
	describe(r, f, e, d);
	f->has_refcount = true;
	f->refcount = e->h.refcount;
	snprintf(f->message, sizeof(f->message),
		 "still in use at umount (count %d): the kernel says \"Dentry still in use\"",
		 e->h.refcount);
	commit(r, f, sb);
}

static void on_sb_down(struct pdt_rules *r, const struct pdt_event_full *e, struct pdt_sb *sb)
{
	struct dlist *dl = list_at(r, BY_SB, sb->sb, false);
	size_t n = dl ? dl->n : 0;
	struct dent *d;
	struct pdt_finding *f;
	bool again = sb->unmounted;

	sb->unmounted = true;
	while (n-- > 0) { /* forget() frees the list with its last entry */
		d = dl->head;
		if (rule_enabled(r, PDT_R_PINNED_AFTER_UMOUNT) &&
		    (f = new_finding(r, PDT_R_PINNED_AFTER_UMOUNT, sb, &e->h))) {
			describe(r, f, NULL, d);
			snprintf(f->message, sizeof(f->message),
				 "still persistent after the umount of its superblock: the umount "
				 "walk never reached it");
			commit(r, f, sb);
		}
		forget(r, d);
	}
	if (sb->live && rule_enabled(r, PDT_R_SB_BALANCE) &&
	    (f = new_finding(r, PDT_R_SB_BALANCE, sb, &e->h))) {
		snprintf(f->path, sizeof(f->path), "/");
		snprintf(f->message, sizeof(f->message),
			 "made %llu, discarded %llu, unpinned at umount %llu (%llu of those made "
			 "before pdtrace started): %lld left over once the superblock is gone",
			 sb->made, sb->discarded, sb->unpinned, sb->adopted, sb->live);
		commit(r, f, sb);
	}
	if (!again)
		note_gone(r, sb);
}

/*
 * User entries whose whole life the BPF side kept to itself, counted (PDT_EV_ELIDED):
 * made, and of those, discarded or unpinned quietly. Deltas, in step with the stream
 * where it matters: a superblock's last come before its PDT_EV_SB_DOWN.
 */
static void on_elided(const struct pdt_elided_event *e, struct pdt_sb *sb)
{
	/* In unsigned arithmetic: a recording may hold any numbers, and wraps are defined. */
	unsigned long long net = (unsigned long long)e->made - (unsigned long long)e->discarded -
				 (unsigned long long)e->unpinned;

	sb->made += (unsigned long long)e->made;
	sb->discarded += (unsigned long long)e->discarded;
	sb->unpinned += (unsigned long long)e->unpinned;
	sb->live = (long long)((unsigned long long)sb->live + net);
	sb->elided_live = (long long)((unsigned long long)sb->elided_live + net);
}

static size_t expected_size(unsigned int type)
{
	switch (type) {
	case PDT_EV_ELIDED:
		return sizeof(struct pdt_elided_event);
	case PDT_EV_UNPIN:
	case PDT_EV_REMOVAL_END:
		return sizeof(struct pdt_event);
	case PDT_EV_PERSIST:
	case PDT_EV_DISCARD:
	case PDT_EV_DPUT:
	case PDT_EV_BUSY:
	case PDT_EV_SB_DOWN:
	case PDT_EV_MOVE:
	case PDT_EV_REMOVAL:
	case PDT_EV_EATEN:
	case PDT_EV_VICTIM:
	case PDT_EV_WALK:
		return sizeof(struct pdt_event_full);
	}
	return 0;
}

/*
 * A discard that cannot be a finding but for what the header says comes without
 * names, path or stack (format minor 4): the books have its path.
 */
static bool is_brief_discard(const struct pdt_event *h, size_t size)
{
	return size == sizeof(*h) && h->type == PDT_EV_DISCARD && h->size == sizeof(*h) &&
	       !(h->flags & PDT_F_FIRST_OF_SB);
}

static void on_move(struct pdt_rules *r, const struct pdt_event_full *e)
{
	struct dent *d = u64map_get(&r->dents, e->h.dentry);
	char path[PDT_FINDING_PATH_LEN];
	size_t len;

	if (!d)
		return;
	if (d->parent != e->h.parent) {
		struct dlist *to = list_at(r, BY_PARENT, e->h.parent, true);

		if (!to)
			return; /* out of memory: the books keep it where it was */
		list_del(r, d, BY_PARENT);
		list_append(to, d, BY_PARENT);
	}
	count_child(r, d->parent, -1);
	d->parent = e->h.parent;
	count_child(r, d->parent, +1);
	len = event_path(r, e, false, path, sizeof(path));
	dent_set_path(d, path, len); /* keeps the old path when out of memory */
}

static void on_removal(struct pdt_rules *r, const struct pdt_event_full *e)
{
	struct removal *rm = malloc(sizeof(*rm));

	if (!rm)
		return;
	copy_str(rm->path, sizeof(rm->path), e->path, sizeof(e->path));
	rm->nstack = copy_stack(rm->stack, e);
	free(u64map_del(&r->removals, e->h.dentry));
	if (u64map_put(&r->removals, e->h.dentry, rm))
		free(rm);
}

/* ---- modules ---------------------------------------------------------------- */

static struct pdt_sb *sb_of(struct pdt_rules *r, uint64_t sb)
{
	uintptr_t idx = (uintptr_t)u64map_get(&r->sb_index, sb);

	return idx ? &r->sbs[idx - 1] : NULL;
}

/*
 * A module is freed (its exit ran): whatever its code made persistent and nothing
 * discarded stays pinned for good on a filesystem that never unmounts (debugfs,
 * tracefs), with operations that point into code that is gone.
 */
static void on_module_free(struct pdt_rules *r, const struct pdt_module_event *e)
{
	unsigned int id = modtab_unload(r->mods, e);
	struct dlist *dl = id ? u64map_del(&r->lists[BY_MODULE], id) : NULL;
	struct dent *d, *next;

	/* Its entries leave the list, which goes: one finding per entry and module. */
	for (d = dl ? dl->head : NULL; d; d = next) {
		struct pdt_sb *sb;
		struct pdt_finding *f;

		next = d->link[BY_MODULE].next;
		d->link[BY_MODULE].prev = d->link[BY_MODULE].next = NULL;
		d->module = 0;
		sb = sb_of(r, d->sb);
		if (!rule_enabled(r, PDT_R_OUTLIVES_MODULE) ||
		    !(f = new_finding(r, PDT_R_OUTLIVES_MODULE, sb, &e->h)))
			continue;
		describe(r, f, NULL, d);
		copy_str(f->module, sizeof(f->module), e->name, sizeof(e->name));
		snprintf(f->message, sizeof(f->message),
			 "made by module %s and still persistent after %s was unloaded: "
			 "pinned until an umount (never, on debugfs and tracefs)",
			 f->module, f->module);
		commit(r, f, sb);
	}
	free(dl);
}

const struct modtab *pdt_rules_modtab(const struct pdt_rules *r)
{
	return r->mods;
}

static int feed_module(struct pdt_rules *r, const void *data, size_t size)
{
	const struct pdt_module_event *e = data;

	if (size != sizeof(*e) || e->h.size != size) {
		r->malformed++;
		return -1;
	}
	if (e->h.type == PDT_EV_MODULE_LOAD)
		modtab_load(r->mods, e);
	else
		on_module_free(r, e);
	return 0;
}

/* ---- the self-check ------------------------------------------------------- */

static void walk_entry(struct pdt_rules *r, const struct pdt_walk_entry *we)
{
	struct went *e;

	if (!r->walk.open || u64map_get(&r->walk.ents, we->dentry))
		return;
	e = calloc(1, sizeof(*e));
	if (!e || u64map_put(&r->walk.ents, we->dentry, e)) {
		free(e);
		return;
	}
	e->dentry = we->dentry;
	e->parent = we->parent;
	e->refcount = we->refcount;
	e->wflags = we->wflags;
	memcpy(e->name, we->name, we->name_len);
}

/* A walk entry's path, from the walk's own names. */
static void went_path(const struct walk *w, const struct went *e, char *out, size_t n)
{
	const struct went *chain[PDT_FINDING_PATH_LEN / 2]; /* as dent_path() */
	size_t depth = 0, len;

	while (e && !(e->wflags & PDT_W_ROOT) && depth < sizeof(chain) / sizeof(chain[0])) {
		chain[depth++] = e;
		e = u64map_get((struct u64map *)&w->ents, e->parent);
	}
	len = (size_t)snprintf(out, n, "%s", depth ? "" : "/");
	while (depth-- > 0)
		len = path_append_at(out, n, len, chain[depth]->name);
}

static void note_diff(struct pdt_sb *sb, const char *path, const char *what)
{
	if (!sb->check_diffs++)
		snprintf(sb->check_first, sizeof(sb->check_first), "%.256s: %s", path, what);
}

/*
 * The entries the BPF side keeps to itself: persistent, each, and as many as the books
 * count.
 */
static void walk_compare_elided(struct pdt_rules *r, struct pdt_sb *sb)
{
	char path[PDT_PATH_LEN], what[96];
	long long n = 0;
	size_t pos = 0;
	struct went *e;

	while ((e = u64map_next(&r->walk.ents, &pos, NULL))) {
		if (!(e->wflags & PDT_W_ELIDED))
			continue;
		n++;
		if (!(e->wflags & PDT_W_PERSISTENT)) {
			path[0] = '\0';
			if (!sb->check_diffs) /* only the first difference is shown */
				went_path(&r->walk, e, path, sizeof(path));
			note_diff(sb, path, "kept by the BPF side, not persistent in the kernel");
		}
	}
	sb->check_entries += n;
	if (n != sb->elided_live) {
		snprintf(what, sizeof(what),
			 "%lld entries kept by the BPF side, %lld in the kernel", sb->elided_live,
			 n);
		note_diff(sb, "/", what);
	}
}

/* Why an entry of the books differs from the walk's e of it, or NULL when it does not. */
static const char *went_differs(const struct went *e, const struct dent *d)
{
	if (!e || !(e->wflags & PDT_W_PERSISTENT))
		return "persistent in the books, not in the kernel";
	if (e->parent != d->parent)
		return "under another parent in the kernel";
	if (strcmp(e->name, leaf(d->path)))
		return "under another name in the kernel";
	return NULL;
}

/*
 * Every entry the books hold for the walked superblock, against the walk. From the
 * walk's side: each entry it found where the books say is marked, the others differ.
 * The first difference (in the books' order) is the first entry not marked, found
 * past marked ones only: the walk costs what it found, not what the books hold.
 */
static void walk_compare(struct pdt_rules *r, struct pdt_sb *sb)
{
	const struct dlist *dl = list_at(r, BY_SB, sb->sb, false);
	unsigned long long same = 0, mark = ++r->walk_serial;
	char path[PDT_PATH_LEN];
	const struct went *e;
	size_t pos = 0;
	struct dent *d;

	while ((e = u64map_next(&r->walk.ents, &pos, NULL))) {
		d = u64map_get(&r->dents, e->dentry);
		if (d && d->sb == sb->sb && !went_differs(e, d)) {
			d->walk_mark = mark;
			same++;
		}
	}
	sb->check_entries = dl ? dl->n : 0;
	sb->check_diffs = 0;
	sb->check_first[0] = '\0';
	if (same < sb->check_entries) {
		for (d = dl->head; d->walk_mark == mark; d = d->link[BY_SB].next)
			;
		dent_path(r, d, path, sizeof(path));
		note_diff(sb, path, went_differs(u64map_get(&r->walk.ents, d->dentry), d));
		sb->check_diffs = sb->check_entries - same;
	}
	walk_compare_elided(r, sb);
}

/* Persistent entries held by nothing but their children: eaten, seen at stop. */
static void walk_eaten(struct pdt_rules *r, struct pdt_sb *sb, const struct pdt_event *h)
{
	size_t pos = 0;
	struct went *e, *p;

	while ((e = u64map_next(&r->walk.ents, &pos, NULL)))
		if (!(e->wflags & PDT_W_ROOT) && (p = u64map_get(&r->walk.ents, e->parent)))
			p->nchildren++;
	pos = 0;
	while ((e = u64map_next(&r->walk.ents, &pos, NULL))) {
		struct dent *d = u64map_get(&r->dents, e->dentry);
		struct pdt_finding *f;

		if (!(e->wflags & PDT_W_PERSISTENT) || e->refcount > (int)e->nchildren ||
		    !(f = new_eaten(r, sb, h, e->dentry, e->refcount)))
			continue;
		if (!unbuilt(r, f))
			went_path(&r->walk, e, f->path, sizeof(f->path));
		describe(r, f, NULL, d);
		if (e->nchildren)
			snprintf(f->message, sizeof(f->message), eaten_where[2], e->refcount,
				 e->nchildren);
		else
			snprintf(f->message, sizeof(f->message), "%s", eaten_where[4]);
		commit(r, f, sb);
	}
}

/*
 * A walk starts (its superblock's books are about to be checked) or ends. Another
 * event of that superblock between the two makes differences inconclusive: the
 * tracker walks again.
 */
static void on_walk(struct pdt_rules *r, const struct pdt_event_full *e, struct pdt_sb *sb)
{
	struct walk *w = &r->walk;

	if (!(e->h.flags & PDT_F_WALK_END)) {
		walk_clear(w);
		w->open = true;
		w->sb = e->h.sb;
		return;
	}
	if (!w->open || w->sb != e->h.sb)
		return;
	if (e->h.flags & PDT_F_WALK_MOVED)
		w->dirty = true;
	walk_compare(r, sb);
	if (sb->check_diffs && w->dirty)
		sb->check = PDT_CHECK_BUSY;
	else
		sb->check = sb->check_diffs ? PDT_CHECK_INCONSISTENT : PDT_CHECK_CLEAN;
	if (!w->dirty)
		walk_eaten(r, sb, &e->h);
	walk_clear(w);
}

enum pdt_origin pdt_rules_origin(const struct pdt_rules *r, uint64_t dentry)
{
	const struct dent *d = r ? u64map_get((struct u64map *)&r->dents, dentry) : NULL;

	return d ? d->origin : PDT_ORIGIN_UNKNOWN;
}

void pdt_rules_path(const struct pdt_rules *r, uint64_t dentry, char *buf, size_t n)
{
	const struct dent *d = r ? u64map_get((struct u64map *)&r->dents, dentry) : NULL;

	if (d)
		dent_path(r, d, buf, n);
	else if (n)
		buf[0] = '\0';
}

const char *pdt_rules_fs_type(const struct pdt_rules *r, uint64_t sb)
{
	uintptr_t idx = r ? (uintptr_t)u64map_get((struct u64map *)&r->sb_index, sb) : 0;

	return idx ? r->sbs[idx - 1].fs_type : "";
}

size_t pdt_rules_inconsistent(const struct pdt_rules *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nsbs; i++)
		n += !r->sbs[i].retired && r->sbs[i].check == PDT_CHECK_INCONSISTENT;
	return n;
}

const char *pdt_check_name(enum pdt_check c)
{
	static const char *const names[] = { "not checked", "consistent", "inconsistent", "busy" };

	return c <= PDT_CHECK_BUSY ? names[c] : "?";
}

static int feed_walk_entry(struct pdt_rules *r, const void *data, size_t size)
{
	const struct pdt_walk_entry *we = data;

	if (size < sizeof(*we) || we->size != size || we->name_len > 255 ||
	    we->name_len > size - sizeof(*we)) {
		r->malformed++;
		return -1;
	}
	walk_entry(r, we);
	return 0;
}

int pdt_rules_feed(struct pdt_rules *r, const void *data, size_t size)
{
	const struct pdt_event *h = data;
	const struct pdt_event_full *e = data;
	struct pdt_sb *sb;
	size_t want;

	if (size >= sizeof(unsigned short) && h->type == PDT_EV_WALK_ENTRY)
		return feed_walk_entry(r, data, size);
	if (size >= sizeof(unsigned short) &&
	    (h->type == PDT_EV_MODULE_LOAD || h->type == PDT_EV_MODULE_FREE))
		return feed_module(r, data, size);
	if (is_brief_discard(h, size)) {
		memcpy(&r->wide.h, h, sizeof(*h));
		r->wide.h.size = sizeof(r->wide);
		return pdt_rules_feed(r, &r->wide, sizeof(r->wide));
	}
	if (size < sizeof(*h) || !(want = expected_size(h->type)) || size < want ||
	    h->size != want) {
		r->malformed++;
		return -1;
	}
	sb = get_sb(r, h, want == sizeof(*e) ? e : NULL);
	if (!sb)
		return -1;
	/* Counts change no entry: the walk compares entries. */
	if (r->walk.open && h->sb == r->walk.sb && h->type != PDT_EV_WALK &&
	    h->type != PDT_EV_ELIDED)
		r->walk.dirty = true;
	switch (h->type) {
	case PDT_EV_PERSIST:
		on_persist(r, e, sb);
		break;
	case PDT_EV_DISCARD:
		on_discard(r, e, sb);
		break;
	case PDT_EV_DPUT:
		on_dput(r, e, sb);
		break;
	case PDT_EV_UNPIN:
		on_unpin(r, h, sb);
		break;
	case PDT_EV_BUSY:
		on_busy(r, e, sb);
		break;
	case PDT_EV_SB_DOWN:
		on_sb_down(r, e, sb);
		break;
	case PDT_EV_MOVE:
		on_move(r, e);
		break;
	case PDT_EV_REMOVAL:
		on_removal(r, e);
		break;
	case PDT_EV_EATEN:
		on_eaten(r, e, sb);
		break;
	case PDT_EV_VICTIM:
		on_victim(r, e, sb);
		break;
	case PDT_EV_WALK:
		on_walk(r, e, sb);
		break;
	case PDT_EV_ELIDED:
		on_elided(data, sb);
		break;
	case PDT_EV_REMOVAL_END: /* its root's life was elided: the counts have it */
		free(u64map_del(&r->removals, h->dentry));
		break;
	}
	return 0;
}
