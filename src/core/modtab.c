// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "modtab.h"

/* [lo, hi) of one module's text; seen: its index in seen[]. */
struct range {
	unsigned long long lo, hi;
	unsigned int id, seen;
};

/* A module load seen: its name for findings, its address while it is loaded. */
struct mod {
	unsigned long long module; /* 0 once freed */
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
	struct range *ranges; /* sorted by lo, never overlapping */
	size_t nranges, cap_ranges;
	struct seen *seen;
	size_t nseen, cap_seen;
	struct mod *mods; /* mods[id - 1] */
	size_t nmods, cap_mods;
	unsigned int epoch; /* module events applied */
};

struct modtab *modtab_new(void)
{
	return calloc(1, sizeof(struct modtab));
}

void modtab_free(struct modtab *mt)
{
	if (mt) {
		free(mt->ranges);
		free(mt->seen);
		free(mt->mods);
		free(mt);
	}
}

/* The ranges gone() picks stop holding their module's text now. */
static void drop_ranges(struct modtab *mt, int (*gone)(const struct range *, const void *),
			const void *arg)
{
	size_t i, k = 0;

	for (i = 0; i < mt->nranges; i++)
		if (!gone(&mt->ranges[i], arg))
			mt->ranges[k++] = mt->ranges[i];
		else
			mt->seen[mt->ranges[i].seen].died = mt->epoch;
	mt->nranges = k;
}

static int overlaps(const struct range *r, const void *arg)
{
	const struct range *n = arg;

	return r->lo < n->hi && n->lo < r->hi;
}

static int of_id(const struct range *r, const void *arg)
{
	return r->id == *(const unsigned int *)arg;
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
	struct range n = { lo, lo + size, id, (unsigned int)mt->nseen }, *r;
	size_t i;

	if (!lo || !size || n.hi < lo)
		return 0;
	if (note_seen(mt, lo, size, id, mt->epoch, init))
		return -1;
	drop_ranges(mt, overlaps, &n);
	r = grow(mt->ranges, &mt->cap_ranges, mt->nranges, sizeof(*r));
	if (!r)
		return -1;
	mt->ranges = r;
	for (i = mt->nranges; i > 0 && mt->ranges[i - 1].lo > lo; i--)
		mt->ranges[i] = mt->ranges[i - 1];
	mt->ranges[i] = n;
	mt->nranges++;
	return 0;
}

/* A new entry for the module of e (its id, 0 when out of memory). */
static unsigned int new_mod(struct modtab *mt, const struct pdt_module_event *e)
{
	struct mod *m = grow(mt->mods, &mt->cap_mods, mt->nmods, sizeof(*m));

	if (!m)
		return 0;
	mt->mods = m;
	m = &mt->mods[mt->nmods];
	m->module = e->module;
	memcpy(m->name, e->name, sizeof(m->name));
	m->name[sizeof(m->name) - 1] = '\0';
	return (unsigned int)++mt->nmods;
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
	if (add_range(mt, e->text, e->text_size, id, false) ||
	    add_range(mt, e->init_text, e->init_size, id, true)) {
		drop_ranges(mt, of_id, &id);
		m->module = 0;
	}
	return id;
}

/* The range that holds addr, by binary search. */
static const struct range *find(const struct modtab *mt, unsigned long long addr)
{
	size_t lo = 0, hi = mt->nranges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (mt->ranges[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && addr < mt->ranges[lo - 1].hi ? &mt->ranges[lo - 1] : NULL;
}

unsigned int modtab_owner(const struct modtab *mt, const unsigned long long *stack, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n && mt->nranges; i++) {
		const struct range *r = find(mt, stack[i]);

		if (r)
			return r->id;
	}
	return 0;
}

unsigned int modtab_unload(struct modtab *mt, const struct pdt_module_event *e)
{
	unsigned int id;
	size_t i;

	mt->epoch++;
	/* The latest load at that address: a module reloaded at the same place is a new one. */
	for (i = mt->nmods; i > 0; i--) {
		struct mod *m = &mt->mods[i - 1];

		if (m->module != e->module)
			continue;
		id = (unsigned int)i;
		m->module = 0;
		drop_ranges(mt, of_id, &id);
		return id;
	}
	/*
	 * Loaded before we watched: its text held it from the start until now, which
	 * the frames of stacks taken meanwhile must still say. Its init text is long gone.
	 */
	id = new_mod(mt, e);
	if (id && e->text && e->text_size && e->text + e->text_size > e->text) {
		mt->mods[id - 1].module = 0;
		if (!note_seen(mt, e->text, e->text_size, id, 0, false))
			mt->seen[mt->nseen - 1].died = mt->epoch;
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
