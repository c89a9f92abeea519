// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include "u64map.h"

static char tomb_marker;
#define U64MAP_TOMB ((void *)&tomb_marker)

static size_t hash(uint64_t k)
{
	/* Kernel addresses share high bits and alignment: mix them (splitmix64). */
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebULL;
	k ^= k >> 31;
	return (size_t)k;
}

void u64map_init(struct u64map *m)
{
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->used = m->live = 0;
}

void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	u64map_init(m);
}

static size_t find_slot(const struct u64map *m, uint64_t key, int *found)
{
	size_t i = hash(key) & (m->cap - 1), tomb = (size_t)-1;

	for (;;) {
		void *v = m->vals[i];

		if (!v) {
			*found = 0;
			return tomb != (size_t)-1 ? tomb : i;
		}
		if (v == U64MAP_TOMB) {
			if (tomb == (size_t)-1)
				tomb = i;
		} else if (m->keys[i] == key) {
			*found = 1;
			return i;
		}
		i = (i + 1) & (m->cap - 1);
	}
}

void *u64map_get(const struct u64map *m, uint64_t key)
{
	int found;
	size_t i;

	if (!m->live) /* empty, or never used: nothing to probe */
		return NULL;
	i = find_slot(m, key, &found);
	return found ? m->vals[i] : NULL;
}

static int grow(struct u64map *m)
{
	/* Mostly tombstones: rehash at the same size, which drops them. */
	size_t ncap = !m->cap ? 64 : m->live * 4 < m->cap ? m->cap : m->cap * 2, i;
	struct u64map n = { calloc(ncap, sizeof(uint64_t)), calloc(ncap, sizeof(void *)), ncap, 0,
			    0 };

	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return -1;
	}
	for (i = 0; i < m->cap; i++)
		if (m->vals[i] && m->vals[i] != U64MAP_TOMB)
			u64map_put(&n, m->keys[i], m->vals[i]);
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

int u64map_put(struct u64map *m, uint64_t key, void *val)
{
	int found;
	size_t i;

	if ((m->used + 1) * 2 > m->cap && grow(m))
		return -1;
	i = find_slot(m, key, &found);
	if (!found) {
		if (!m->vals[i])
			m->used++;
		m->live++;
		m->keys[i] = key;
	}
	m->vals[i] = val;
	return 0;
}

/* Slot i holds a tombstone now: drop those that end their probe chain. */
static void drop_tombs(struct u64map *m, size_t i)
{
	/*
	 * A tombstone that ends its probe chain serves no lookup: empty it, and the ones
	 * before it. Churn at a few addresses then leaves no tombstones to probe through.
	 * Nothing moves, so an iteration in progress (u64map_next()) stays valid.
	 */
	if (m->vals[(i + 1) & (m->cap - 1)])
		return;
	while (m->vals[i] == U64MAP_TOMB) {
		m->vals[i] = NULL;
		m->used--;
		i = (i - 1) & (m->cap - 1);
	}
}

void *u64map_del(struct u64map *m, uint64_t key)
{
	int found;
	size_t i;
	void *v;

	if (!m->live)
		return NULL;
	i = find_slot(m, key, &found);
	if (!found)
		return NULL;
	v = m->vals[i];
	m->vals[i] = U64MAP_TOMB;
	m->live--;
	drop_tombs(m, i);
	return v;
}

long u64map_add(struct u64map *m, uint64_t key, long delta)
{
	int found = 0;
	size_t i = 0;
	long n;

	if (m->live)
		i = find_slot(m, key, &found);
	n = (found ? (long)(uintptr_t)m->vals[i] : 0) + delta;
	if (found && n > 0) {
		m->vals[i] = (void *)(uintptr_t)n;
	} else if (found) {
		m->vals[i] = U64MAP_TOMB;
		m->live--;
		drop_tombs(m, i);
	} else if (n > 0 && u64map_put(m, key, (void *)(uintptr_t)n)) {
		return -1;
	}
	return n > 0 ? n : 0;
}

void *u64map_next(const struct u64map *m, size_t *pos, uint64_t *key)
{
	while (*pos < m->cap) {
		size_t i = (*pos)++;

		if (m->vals[i] && m->vals[i] != U64MAP_TOMB) {
			if (key)
				*key = m->keys[i];
			return m->vals[i];
		}
	}
	return NULL;
}
