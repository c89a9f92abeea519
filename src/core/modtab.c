// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "modtab.h"
#include "u64map.h"

/*
 * [lo, hi) of one module's text; seen: its index in seen[]. The ranges that hold text
 * now are a treap ordered by lo (a search tree kept balanced by random priorities), so
 * that a load, a free and a lookup cost the logarithm of the modules loaded, whatever
 * order a recording gives their addresses in.
 */
struct range {
	unsigned long long lo, hi;
	unsigned int id, seen;
	unsigned int prio;
	struct range *left, *right;
};

/* A module load seen: its name for findings, its address while it is loaded. */
struct mod {
	unsigned long long module; /* 0 once freed */
	unsigned long long lo[2];  /* where its text and init text were put */
	unsigned int prev;	   /* the load before it at the same address, 0: none */
	char name[PDT_MODNAME_LEN];
};

/*
 * Every range ever loaded, in order, for modtab_ksyms() and modtab_frame(): it held
 * its module's text from epoch born until epoch died (LIVE: it still does).
 */
#define LIVE UINT_MAX
struct seen {
	unsigned long long lo;
	unsigned int size, id;
	unsigned int born, died;
	bool init;
};

struct modtab {
	struct range *root; /* never overlapping */
	struct seen *seen;
	size_t nseen, cap_seen;
	struct mod *mods; /* mods[id - 1] */
	size_t nmods, cap_mods;
	/* Module address -> the latest load there (mods[].prev goes to the earlier ones). */
	struct u64map latest;
	unsigned int
	    last_zero;	    /* the latest load whose module address is 0 (freed, or never set) */
	unsigned int epoch; /* module events applied */
	uint64_t prio_state;
};

struct modtab *modtab_new(void)
{
	struct modtab *mt = calloc(1, sizeof(struct modtab));

	if (mt) {
		u64map_init(&mt->latest);
		/* Priorities a recording cannot guess: the treap stays balanced. */
		mt->prio_state =
		    (uint64_t)(uintptr_t)mt ^ arc4random() ^ ((uint64_t)arc4random() << 32);
	}
	return mt;
}

static void free_ranges(struct range *t)
{
	while (t) {
		struct range *right = t->right;

		free_ranges(t->left);
		free(t);
		t = right;
	}
}

void modtab_free(struct modtab *mt)
{
	if (mt) {
		free_ranges(mt->root);
		u64map_free(&mt->latest);
		free(mt->seen);
		free(mt->mods);
		free(mt);
	}
}

static unsigned int next_prio(struct modtab *mt)
{
	/* xorshift64 */
	mt->prio_state ^= mt->prio_state << 13;
	mt->prio_state ^= mt->prio_state >> 7;
	mt->prio_state ^= mt->prio_state << 17;
	return (unsigned int)(mt->prio_state >> 32);
}

/* t's ranges that start below key into *a, the others into *b. */
static void split(struct range *t, unsigned long long key, struct range **a, struct range **b)
{
	if (!t) {
		*a = *b = NULL;
	} else if (t->lo < key) {
		split(t->right, key, &t->right, b);
		*a = t;
	} else {
		split(t->left, key, a, &t->left);
		*b = t;
	}
}

/* Two treaps, every range of a below every range of b, as one. */
static struct range *merge(struct range *a, struct range *b)
{
	if (!a || !b)
		return a ? a : b;
	if (a->prio > b->prio) {
		a->right = merge(a->right, b);
		return a;
	}
	b->left = merge(a, b->left);
	return b;
}

/* The range that starts last at or below addr, or NULL. */
static const struct range *last_at_or_below(const struct modtab *mt, unsigned long long addr)
{
	const struct range *t = mt->root, *best = NULL;

	while (t) {
		if (t->lo <= addr) {
			best = t;
			t = t->right;
		} else {
			t = t->left;
		}
	}
	return best;
}

/* The range that holds addr. */
static const struct range *find(const struct modtab *mt, unsigned long long addr)
{
	const struct range *r = last_at_or_below(mt, addr);

	return r && addr < r->hi ? r : NULL;
}

/* The range that starts at lo stops holding its module's text now. */
static void drop_at(struct modtab *mt, unsigned long long lo)
{
	struct range *a, *m, *c;

	split(mt->root, lo, &a, &m);
	split(m, lo + 1, &m, &c); /* lo < hi: lo + 1 does not wrap */
	mt->root = merge(a, c);
	if (m) {
		mt->seen[m->seen].died = mt->epoch;
		free(m);
	}
}

/* Module id's ranges (those later loads did not take over) stop holding its text. */
static void drop_id(struct modtab *mt, unsigned int id)
{
	const struct mod *m = &mt->mods[id - 1];
	int i;

	for (i = 0; i < 2; i++) {
		const struct range *r = find(mt, m->lo[i]);

		if (m->lo[i] && r && r->lo == m->lo[i] && r->id == id)
			drop_at(mt, m->lo[i]);
	}
}

/* Module id has no address any more (freed), or never had one. */
static void mod_zero(struct modtab *mt, unsigned int id)
{
	mt->mods[id - 1].module = 0;
	if (id > mt->last_zero)
		mt->last_zero = id;
}

/*
 * arr (n elements of size bytes, capacity *cap) with room for one more: arr itself or
 * where it moved to; NULL when out of memory (arr is still valid then).
 */
static void *grow(void *arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *q;

	if (n < *cap)
		return arr;
	ncap = *cap ? 2 * *cap : 64;
	q = realloc(arr, ncap * size);
	if (q)
		*cap = ncap;
	return q;
}

static int note_seen(struct modtab *mt, unsigned long long lo, unsigned int size, unsigned int id,
		     unsigned int born, bool init)
{
	struct seen *seen = grow(mt->seen, &mt->cap_seen, mt->nseen, sizeof(*seen));

	if (!seen)
		return -1;
	mt->seen = seen;
	mt->seen[mt->nseen++] = (struct seen){ lo, size, id, born, LIVE, init };
	return 0;
}

static int add_range(struct modtab *mt, unsigned long long lo, unsigned int size, unsigned int id,
		     bool init)
{
	unsigned long long hi = lo + size;
	const struct range *o;
	struct range *n, *a, *b;

	if (!lo || !size || hi < lo)
		return 0;
	if (note_seen(mt, lo, size, id, mt->epoch, init))
		return -1;
	/*
	 * The ranges it overlaps stop holding their text: never overlapping, they are the
	 * last ones to start below hi, as long as they reach past lo.
	 */
	while ((o = last_at_or_below(mt, hi - 1)) && o->hi > lo)
		drop_at(mt, o->lo);
	n = malloc(sizeof(*n));
	if (!n)
		return -1;
	*n = (struct range){ lo, hi, id, (unsigned int)(mt->nseen - 1), next_prio(mt), NULL, NULL };
	split(mt->root, lo, &a, &b);
	mt->root = merge(merge(a, n), b);
	return 0;
}

/* A new entry for the module of e (its id, 0 when out of memory). */
static unsigned int new_mod(struct modtab *mt, const struct pdt_module_event *e)
{
	struct mod *m = grow(mt->mods, &mt->cap_mods, mt->nmods, sizeof(*m));
	unsigned int id;

	if (!m)
		return 0;
	mt->mods = m;
	m = &mt->mods[mt->nmods];
	memset(m, 0, sizeof(*m));
	m->module = e->module;
	memcpy(m->name, e->name, sizeof(m->name));
	m->name[sizeof(m->name) - 1] = '\0';
	id = (unsigned int)++mt->nmods;
	if (!e->module)
		mod_zero(mt, id);
	return id;
}

unsigned int modtab_load(struct modtab *mt, const struct pdt_module_event *e)
{
	unsigned int id;
	struct mod *m;

	mt->epoch++;
	id = new_mod(mt, e);
	if (!id)
		return 0;
	m = &mt->mods[id - 1];
	if (e->module) {
		m->prev = (unsigned int)(uintptr_t)u64map_get(&mt->latest, e->module);
		if (u64map_put(&mt->latest, e->module, (void *)(uintptr_t)id))
			m->prev = 0; /* out of memory: its free will not find it */
	}
	m->lo[0] = e->text;
	m->lo[1] = e->init_text;
	if (add_range(mt, e->text, e->text_size, id, false) ||
	    add_range(mt, e->init_text, e->init_size, id, true)) {
		drop_id(mt, id);
		mod_zero(mt, id);
	}
	return id;
}

unsigned int modtab_owner(const struct modtab *mt, const unsigned long long *stack, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && mt->root; i++) {
		const struct range *r = find(mt, stack[i]);

		if (r)
			return r->id;
	}
	return 0;
}

/* The latest load at e's address that is not freed yet (0: none), taken off its chain. */
static unsigned int take_latest(struct modtab *mt, const struct pdt_module_event *e)
{
	unsigned int id;

	if (!e->module) /* a load at address 0 and every freed one have module 0 */
		return mt->last_zero;
	id = (unsigned int)(uintptr_t)u64map_get(&mt->latest, e->module);
	/* Loads freed already (or failed) are passed over, and leave the chain with it. */
	while (id && mt->mods[id - 1].module != e->module)
		id = mt->mods[id - 1].prev;
	if (!id)
		u64map_del(&mt->latest, e->module);
	else if (mt->mods[id - 1].prev)
		u64map_put(&mt->latest, e->module, (void *)(uintptr_t)mt->mods[id - 1].prev);
	else
		u64map_del(&mt->latest, e->module);
	return id;
}

unsigned int modtab_unload(struct modtab *mt, const struct pdt_module_event *e)
{
	unsigned int id;

	mt->epoch++;
	/* The latest load at that address: a module reloaded at the same place is a new one. */
	id = take_latest(mt, e);
	if (id) {
		mod_zero(mt, id);
		drop_id(mt, id);
		return id;
	}
	/*
	 * Loaded before we watched: its text held it from the start until now, which
	 * the frames of stacks taken meanwhile must still say. Its init text is long gone.
	 */
	id = new_mod(mt, e);
	if (id && e->text && e->text_size && e->text + e->text_size > e->text) {
		mod_zero(mt, id);
		if (!note_seen(mt, e->text, e->text_size, id, 0, false))
			mt->seen[mt->nseen - 1].died = mt->epoch;
	} else if (id && e->module) {
		/* No text to show: it keeps its address, and a free there finds it again. */
		mt->mods[id - 1].prev = (unsigned int)(uintptr_t)u64map_get(&mt->latest, e->module);
		if (u64map_put(&mt->latest, e->module, (void *)(uintptr_t)id))
			mt->mods[id - 1].prev = 0;
	}
	return 0;
}

unsigned int modtab_epoch(const struct modtab *mt)
{
	return mt->epoch;
}

bool modtab_frame(const struct modtab *mt, unsigned long long addr, unsigned int epoch,
		  struct modtab_frame *out)
{
	size_t i;

	/* Latest first: the one that held addr at epoch, if any, is alone in holding it then. */
	for (i = mt->nseen; i > 0; i--) {
		const struct seen *s = &mt->seen[i - 1];

		if (addr - s->lo >= s->size || epoch < s->born || epoch >= s->died)
			continue;
		out->lo = s->lo;
		out->size = s->size;
		out->init = s->init;
		out->live = s->died == LIVE;
		out->name = modtab_name(mt, s->id);
		return true;
	}
	return false;
}

const char *modtab_name(const struct modtab *mt, unsigned int id)
{
	return id && id <= mt->nmods ? mt->mods[id - 1].name : "";
}

int modtab_ksyms(const struct modtab *mt, struct ksyms *k, size_t *done)
{
	size_t i;

	if (!k || *done >= mt->nseen)
		return 0;
	for (i = *done; i < mt->nseen; i++) {
		const struct seen *s = &mt->seen[i];

		if (ksyms_add(k, s->lo, s->size, s->init ? "(init_text)" : "(text)",
			      modtab_name(mt, s->id)))
			return -1;
	}
	*done = mt->nseen;
	ksyms_sort(k);
	return 0;
}
