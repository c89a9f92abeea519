// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rules.h"
#include "u64map.h"

/* A dentry pdtrace saw made persistent, until it is discarded or unpinned. */
struct dent {
	uint64_t dentry, parent, sb;
	enum pdt_origin origin;
	bool is_dir;
	unsigned int children; /* tracked persistent children */
	unsigned int pid;
	char comm[PDT_COMM_LEN];
	char path[PDT_PATH_LEN];
	unsigned int nstack;
	unsigned long long stack[PDT_STACK_DEPTH];
};

struct pdt_rules {
	struct u64map dents;	/* dentry address -> struct dent */
	struct u64map sb_index; /* sb address -> index + 1 into sbs */
	struct u64map removals; /* removal root address -> its path (malloc'd) */
	struct pdt_sb *sbs;
	size_t nsbs, cap_sbs;
	struct pdt_finding *findings;
	size_t nfindings, cap_findings;
	struct pdt_finding spill; /* made past the cap: counted, streamed, not kept */
	unsigned long long unlisted;
	unsigned long long per_kind[PDT_KIND_MAX];
	unsigned long long by_absence[PDT_KIND_MAX];
	unsigned long long malformed;
	const char *disabled[16];
	size_t ndisabled;
	pdt_finding_cb on_finding;
	void *on_finding_ctx;
	pdt_sb_cb on_new_sb;
	void *on_new_sb_ctx;
};

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

struct pdt_rules *pdt_rules_new(void)
{
	struct pdt_rules *r = calloc(1, sizeof(*r));

	if (r) {
		u64map_init(&r->dents);
		u64map_init(&r->sb_index);
		u64map_init(&r->removals);
	}
	return r;
}

void pdt_rules_free(struct pdt_rules *r)
{
	size_t pos = 0;
	struct dent *d;

	if (!r)
		return;
	while ((d = u64map_next(&r->dents, &pos, NULL)))
		free(d);
	u64map_free(&r->dents);
	pos = 0;
	while ((d = u64map_next(&r->removals, &pos, NULL)))
		free(d);
	u64map_free(&r->removals);
	u64map_free(&r->sb_index);
	free(r->sbs);
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
	if (r->ndisabled < sizeof(r->disabled) / sizeof(r->disabled[0]))
		r->disabled[r->ndisabled++] = rule;
}

size_t pdt_rules_ndisabled(const struct pdt_rules *r)
{
	return r->ndisabled;
}

const char *pdt_rules_disabled(const struct pdt_rules *r, size_t i)
{
	return i < r->ndisabled ? r->disabled[i] : NULL;
}

const char *pdt_rule_name(const char *name)
{
	static const char *const rules[] = {
		PDT_RULE_BUSY_AT_UMOUNT,     PDT_RULE_PINNED_AFTER_UMOUNT,
		PDT_RULE_ORPHANED,	     PDT_RULE_DISCARD_UNPERSISTED,
		PDT_RULE_PERSIST_TWICE,	     PDT_RULE_DPUT_PERSISTENCE_REF,
		PDT_RULE_SB_BALANCE,	     PDT_RULE_USER_ENTRY_REMOVED,
		PDT_RULE_CREATE_IN_DEAD_DIR,
	};
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!strcmp(rules[i], name))
			return rules[i];
	return NULL;
}

static bool rule_enabled(const struct pdt_rules *r, const char *rule)
{
	size_t i;

	for (i = 0; i < r->ndisabled; i++)
		if (!strcmp(r->disabled[i], rule))
			return false;
	return true;
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
	return i < r->nsbs ? &r->sbs[i] : NULL;
}

unsigned long long pdt_rules_count(const struct pdt_rules *r, enum pdt_kind kind)
{
	return kind < PDT_KIND_MAX ? r->per_kind[kind] : 0;
}

bool pdt_rule_by_absence(const char *rule)
{
	return !strcmp(rule, PDT_RULE_PINNED_AFTER_UMOUNT) || !strcmp(rule, PDT_RULE_ORPHANED) ||
	       !strcmp(rule, PDT_RULE_SB_BALANCE);
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

/* Copy a fixed-size, possibly unterminated kernel string. */
static void copy_str(char *dst, size_t n, const char *src, size_t srcn)
{
	size_t len = strnlen(src, srcn < n ? srcn : n - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

/*
 * The superblock an event is about. A superblock whose umount we saw and that
 * shows up again is a new one at a recycled address: start new books.
 */
static struct pdt_sb *get_sb(struct pdt_rules *r, const struct pdt_event *h,
			     const struct pdt_event_full *full)
{
	uintptr_t idx = (uintptr_t)u64map_get(&r->sb_index, h->sb);
	struct pdt_sb *sb;

	if (idx && !(r->sbs[idx - 1].unmounted && h->type != PDT_EV_SB_DOWN))
		sb = &r->sbs[idx - 1];
	else {
		if (r->nsbs == r->cap_sbs) {
			size_t ncap = r->cap_sbs ? r->cap_sbs * 2 : 16;
			struct pdt_sb *n = realloc(r->sbs, ncap * sizeof(*n));

			if (!n)
				return NULL;
			r->sbs = n;
			r->cap_sbs = ncap;
		}
		sb = &r->sbs[r->nsbs++];
		memset(sb, 0, sizeof(*sb));
		sb->sb = h->sb;
		sb->dev = h->dev;
		if (u64map_put(&r->sb_index, h->sb, (void *)(uintptr_t)r->nsbs)) {
			r->nsbs--;
			return NULL;
		}
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

static struct pdt_finding *new_finding(struct pdt_rules *r, enum pdt_kind kind, const char *rule,
				       struct pdt_sb *sb, const struct pdt_event *h)
{
	struct pdt_finding *f = &r->spill;

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
	f->kind = kind;
	f->rule = rule;
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
	return f;
}

/* Fill the parts of a finding that come from a full event and a tracked dentry. */
static void describe(struct pdt_finding *f, const struct pdt_event_full *e, const struct dent *d)
{
	if (e) {
		copy_str(f->path, sizeof(f->path), e->path, sizeof(e->path));
		f->nstack = e->nstack < PDT_STACK_DEPTH ? e->nstack : PDT_STACK_DEPTH;
		memcpy(f->stack, e->stack, f->nstack * sizeof(f->stack[0]));
	}
	if (d) {
		if (!f->path[0])
			memcpy(f->path, d->path, sizeof(f->path));
		f->origin = d->origin;
		f->created_seen = true;
		f->created_pid = d->pid;
		memcpy(f->created_comm, d->comm, sizeof(f->created_comm));
		f->ncreated = d->nstack;
		memcpy(f->created, d->stack, d->nstack * sizeof(f->created[0]));
	}
}

static void commit(struct pdt_rules *r, struct pdt_finding *f, struct pdt_sb *sb)
{
	if (f == &r->spill)
		r->unlisted++;
	else
		r->nfindings++;
	r->per_kind[f->kind]++;
	if (pdt_rule_by_absence(f->rule))
		r->by_absence[f->kind]++;
	if (sb)
		sb->findings++;
	if (r->on_finding)
		r->on_finding(f, r->on_finding_ctx);
}

/* Take a tracked dentry out of the books (discarded, unpinned or gone with its sb). */
static void forget(struct pdt_rules *r, struct dent *d)
{
	struct dent *parent = u64map_get(&r->dents, d->parent);

	if (parent && parent->children)
		parent->children--;
	u64map_del(&r->dents, d->dentry);
	free(d);
}

static void on_persist(struct pdt_rules *r, const struct pdt_event_full *e, struct pdt_sb *sb)
{
	const struct pdt_event *h = &e->h;
	struct dent *d = u64map_get(&r->dents, h->dentry), *parent;
	struct pdt_finding *f;

	if (h->flags & PDT_F_WAS_PERSISTENT) {
		if (!rule_enabled(r, PDT_RULE_PERSIST_TWICE) ||
		    !(f = new_finding(r, PDT_KIND_IMBALANCE, PDT_RULE_PERSIST_TWICE, sb, h)))
			return;
		describe(f, e, d);
		snprintf(f->message, sizeof(f->message),
			 "d_make_persistent() on a dentry that is already persistent "
			 "(count %d on entry): it takes a second reference",
			 h->refcount);
		f->has_refcount = true;
		f->refcount = h->refcount;
		commit(r, f, sb);
		return;
	}
	if ((h->flags & PDT_F_PARENT_DEAD) && rule_enabled(r, PDT_RULE_CREATE_IN_DEAD_DIR) &&
	    (f = new_finding(r, PDT_KIND_ILLEGAL_REMOVAL, PDT_RULE_CREATE_IN_DEAD_DIR, sb, h))) {
		describe(f, e, NULL);
		f->origin = h->origin;
		f->created_seen = true;
		f->created_pid = h->pid;
		copy_str(f->created_comm, sizeof(f->created_comm), h->comm, sizeof(h->comm));
		f->ncreated = f->nstack;
		memcpy(f->created, f->stack, sizeof(f->created));
		snprintf(f->message, sizeof(f->message),
			 "made persistent inside a directory that is being removed (S_DEAD): "
			 "nothing will ever discard it");
		commit(r, f, sb);
	}
	if (d) /* a stale entry: its release was lost or happened outside our hooks */
		forget(r, d);
	d = calloc(1, sizeof(*d));
	if (!d || u64map_put(&r->dents, h->dentry, d)) {
		free(d);
		return;
	}
	d->dentry = h->dentry;
	d->parent = h->parent;
	d->sb = h->sb;
	d->origin = h->origin;
	d->is_dir = h->flags & PDT_F_IS_DIR;
	d->pid = h->pid;
	copy_str(d->comm, sizeof(d->comm), h->comm, sizeof(h->comm));
	copy_str(d->path, sizeof(d->path), e->path, sizeof(e->path));
	d->nstack = e->nstack < PDT_STACK_DEPTH ? e->nstack : PDT_STACK_DEPTH;
	memcpy(d->stack, e->stack, d->nstack * sizeof(d->stack[0]));
	parent = u64map_get(&r->dents, h->parent);
	if (parent)
		parent->children++;
	sb->made++;
	sb->live++;
}

/* Persistent entries still below a directory that stops being reachable. */
static void report_orphans(struct pdt_rules *r, const struct pdt_event_full *e, struct dent *dir,
			   struct pdt_sb *sb)
{
	size_t pos = 0;
	struct dent *c;

	if (!dir->children || !rule_enabled(r, PDT_RULE_ORPHANED))
		return;
	while ((c = u64map_next(&r->dents, &pos, NULL))) {
		struct pdt_finding *f;

		if (c->parent != dir->dentry)
			continue;
		f = new_finding(r, PDT_KIND_LEAK, PDT_RULE_ORPHANED, sb, &e->h);
		if (!f)
			return;
		describe(f, NULL, c);
		f->nstack = e->nstack < PDT_STACK_DEPTH ? e->nstack : PDT_STACK_DEPTH;
		memcpy(f->stack, e->stack, f->nstack * sizeof(f->stack[0]));
		snprintf(f->message, sizeof(f->message),
			 "still persistent after its parent %.180s was discarded: unreachable, "
			 "pinned until an umount",
			 dir->path);
		commit(r, f, sb);
	}
}

static void on_discard(struct pdt_rules *r, const struct pdt_event_full *e, struct pdt_sb *sb)
{
	const struct pdt_event *h = &e->h;
	struct dent *d = u64map_get(&r->dents, h->dentry);
	struct pdt_finding *f;

	if (!(h->flags & PDT_F_WAS_PERSISTENT)) {
		if (!rule_enabled(r, PDT_RULE_DISCARD_UNPERSISTED) ||
		    !(f = new_finding(r, PDT_KIND_IMBALANCE, PDT_RULE_DISCARD_UNPERSISTED, sb, h)))
			return;
		describe(f, e, NULL);
		f->has_refcount = true;
		f->refcount = h->refcount;
		snprintf(f->message, sizeof(f->message),
			 "d_make_discardable() on a dentry that is not persistent (count %d on "
			 "entry): it drops a reference that persistence never took",
			 h->refcount);
		commit(r, f, sb);
		return;
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
	    rule_enabled(r, PDT_RULE_USER_ENTRY_REMOVED) &&
	    (f = new_finding(r, PDT_KIND_ILLEGAL_REMOVAL, PDT_RULE_USER_ENTRY_REMOVED, sb, h))) {
		const char *root = u64map_get(&r->removals, h->removal_root);

		describe(f, e, d);
		snprintf(f->message, sizeof(f->message),
			 "user-created entry destroyed by a recursive removal of %.180s",
			 root ? root : "(a directory pdtrace did not see)");
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

	if (!rule_enabled(r, PDT_RULE_DPUT_PERSISTENCE_REF) ||
	    !(f = new_finding(r, PDT_KIND_IMBALANCE, PDT_RULE_DPUT_PERSISTENCE_REF, sb, &e->h)))
		return;
	describe(f, e, d);
	f->has_refcount = true;
	f->refcount = e->h.refcount;
	snprintf(f->message, sizeof(f->message),
		 "dput() of a persistent dentry with count %d on entry: it drops the reference "
		 "that persistence holds",
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

	if (!rule_enabled(r, PDT_RULE_BUSY_AT_UMOUNT) ||
	    !(f = new_finding(r, PDT_KIND_LEAK, PDT_RULE_BUSY_AT_UMOUNT, sb, &e->h)))
		return;
	describe(f, e, d);
	f->has_refcount = true;
	f->refcount = e->h.refcount;
	snprintf(f->message, sizeof(f->message),
		 "still in use at umount (count %d): the kernel says \"Dentry still in use\"",
		 e->h.refcount);
	commit(r, f, sb);
}

static void on_sb_down(struct pdt_rules *r, const struct pdt_event_full *e, struct pdt_sb *sb)
{
	size_t pos = 0;
	struct dent *d;
	struct pdt_finding *f;

	sb->unmounted = true;
	while ((d = u64map_next(&r->dents, &pos, NULL))) {
		if (d->sb != sb->sb)
			continue;
		if (rule_enabled(r, PDT_RULE_PINNED_AFTER_UMOUNT) &&
		    (f = new_finding(r, PDT_KIND_LEAK, PDT_RULE_PINNED_AFTER_UMOUNT, sb, &e->h))) {
			describe(f, NULL, d);
			snprintf(f->message, sizeof(f->message),
				 "still persistent after the umount of its superblock: the umount "
				 "walk never reached it");
			commit(r, f, sb);
		}
		forget(r, d);
	}
	if (sb->live && rule_enabled(r, PDT_RULE_SB_BALANCE) &&
	    (f = new_finding(r, PDT_KIND_IMBALANCE, PDT_RULE_SB_BALANCE, sb, &e->h))) {
		snprintf(f->path, sizeof(f->path), "/");
		snprintf(f->message, sizeof(f->message),
			 "made %llu, discarded %llu, unpinned at umount %llu (%llu of those made "
			 "before pdtrace started): %lld left over once the superblock is gone",
			 sb->made, sb->discarded, sb->unpinned, sb->adopted, sb->live);
		commit(r, f, sb);
	}
}

static size_t expected_size(unsigned int type)
{
	switch (type) {
	case PDT_EV_UNPIN:
		return sizeof(struct pdt_event);
	case PDT_EV_PERSIST:
	case PDT_EV_DISCARD:
	case PDT_EV_DPUT:
	case PDT_EV_BUSY:
	case PDT_EV_SB_DOWN:
	case PDT_EV_MOVE:
	case PDT_EV_REMOVAL:
		return sizeof(struct pdt_event_full);
	}
	return 0;
}

static void on_move(struct pdt_rules *r, const struct pdt_event_full *e)
{
	struct dent *d = u64map_get(&r->dents, e->h.dentry), *p;

	if (!d)
		return;
	p = u64map_get(&r->dents, d->parent);
	if (p && p->children)
		p->children--;
	d->parent = e->h.parent;
	p = u64map_get(&r->dents, d->parent);
	if (p)
		p->children++;
	copy_str(d->path, sizeof(d->path), e->path, sizeof(e->path));
}

static void on_removal(struct pdt_rules *r, const struct pdt_event_full *e)
{
	char *path = strndup(e->path, sizeof(e->path));

	if (!path)
		return;
	free(u64map_del(&r->removals, e->h.dentry));
	if (u64map_put(&r->removals, e->h.dentry, path))
		free(path);
}

int pdt_rules_feed(struct pdt_rules *r, const void *data, size_t size)
{
	const struct pdt_event *h = data;
	const struct pdt_event_full *e = data;
	struct pdt_sb *sb;
	size_t want;

	if (size < sizeof(*h) || !(want = expected_size(h->type)) || size < want ||
	    h->size != want) {
		r->malformed++;
		return -1;
	}
	sb = get_sb(r, h, want == sizeof(*e) ? e : NULL);
	if (!sb)
		return -1;
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
	}
	return 0;
}
