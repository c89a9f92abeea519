// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include "u64map.h"

#define U64MAP_TOMB UINT32_MAX
/* Entries are indexed by uint32_t, as entry + 1, below the tombstone. */
#define U64MAP_MAX_ENTRIES (UINT32_MAX - 2)

/*
 * The hash is keyed with 192 random bits drawn once per run: an unkeyed mix (splitmix64,
 * as before) is invertible, so a recording could hold addresses chosen to share one
 * slot, and every operation then walked them all. The keyed hash is wyhash's for 8
 * bytes (the design of Go's runtime map hash where it has no AES, seeded per process for
 * the same reason): two 64x64->128 multiplies, a few ns; SipHash-1-3 doubled the cost
 * of a lookup.
 */
static uint64_t hkey[3];
static pthread_once_t hkey_once = PTHREAD_ONCE_INIT;

static uint64_t mix64(uint64_t k)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebULL;
	k ^= k >> 31;
	return k;
}

static void hkey_seed(void)
{
	uint64_t k[3];
	struct timespec a, b;
	size_t got = 0;
	ssize_t n;

	while (got < sizeof(k)) {
		n = getrandom((char *)k + got, sizeof(k) - got, GRND_NONBLOCK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got < sizeof(k)) {
		/*
		 * No entropy yet (early boot) or no getrandom(): the clocks, the pid and where
		 * ASLR put the stack and this code; not secret, but not known to a file
		 * written before the run.
		 */
		clock_gettime(CLOCK_REALTIME, &a);
		clock_gettime(CLOCK_MONOTONIC, &b);
		k[0] = mix64((uint64_t)a.tv_sec * 1000000000ULL + (uint64_t)a.tv_nsec) ^
		       mix64((uint64_t)(uintptr_t)&a ^ ((uint64_t)getpid() << 32));
		k[1] = mix64((uint64_t)b.tv_sec * 1000000000ULL + (uint64_t)b.tv_nsec) ^
		       mix64((uint64_t)(uintptr_t)&hkey_seed + k[0]);
		k[2] = mix64(k[0] ^ k[1] ^ (uint64_t)(uintptr_t)&b);
	}
	k[2] |= 1; /* the last multiplier is never 0 */
	memcpy(hkey, k, sizeof(hkey));
}

/* The 128-bit product of a and b, its halves folded. */
static inline uint64_t mum(uint64_t a, uint64_t b)
{
	unsigned __int128 r = (unsigned __int128)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

static inline uint64_t hash(uint64_t k)
{
	return mum(mum((k & 0xffffffffULL) ^ hkey[0], (k >> 32) ^ hkey[1]), hkey[2]);
}

void u64map_init(struct u64map *m)
{
	pthread_once(&hkey_once, hkey_seed);
	memset(m, 0, sizeof(*m));
}

void u64map_free(struct u64map *m)
{
	free(m->ents);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

/* The slot of key (*found), or where it would go: the first tombstone, or the empty. */
static inline size_t find_slot(const struct u64map *m, uint64_t key, int *found)
{
	size_t mask = m->cap - 1, i = (size_t)hash(key) & mask, tomb = (size_t)-1;

	for (;;) {
		uint32_t s = m->slots[i];

		if (!s) {
			*found = 0;
			return tomb != (size_t)-1 ? tomb : i;
		}
		if (s == U64MAP_TOMB) {
			if (tomb == (size_t)-1)
				tomb = i;
		} else if (m->ents[s - 1].key == key) {
			*found = 1;
			return i;
		}
		i = (i + 1) & mask;
	}
}

size_t u64map_probes(const struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1, i, n = 1;

	if (!m->cap)
		return 0;
	for (i = (size_t)hash(key) & mask; m->slots[i]; i = (i + 1) & mask, n++)
		if (m->slots[i] != U64MAP_TOMB && m->ents[m->slots[i] - 1].key == key)
			break;
	return n;
}

void *u64map_get(const struct u64map *m, uint64_t key)
{
	int found;
	size_t i;

	if (!m->live) /* empty, or never used: nothing to probe */
		return NULL;
	i = find_slot(m, key, &found);
	return found ? m->ents[m->slots[i] - 1].val : NULL;
}

/*
 * Room for one more entry: the removed entries dropped (the live ones keep their
 * order), the index rebuilt, at the same size when it is mostly tombstones, else twice.
 */
static int rebuild(struct u64map *m)
{
	size_t ncap = !m->cap ? 64 : m->live * 4 < m->cap ? m->cap : m->cap * 2, i, o = 0;
	struct u64map_ent *ents;
	uint32_t *slots;

	pthread_once(&hkey_once, hkey_seed); /* a map zeroed, not u64map_init()ed, too */
	if (m->live >= U64MAP_MAX_ENTRIES)
		return -1;
	while ((m->live + 1) * 2 > ncap)
		ncap *= 2;
	slots = calloc(ncap, sizeof(*slots));
	if (!slots)
		return -1;
	if (ncap / 2 > m->ecap) { /* the index never shrinks, nor the entries' room */
		ents = realloc(m->ents, ncap / 2 * sizeof(*ents));
		if (!ents) {
			free(slots);
			return -1;
		}
		m->ents = ents;
		m->ecap = ncap / 2;
	}
	for (i = 0; i < m->n; i++) /* compact: the live entries keep their order */
		if (m->ents[i].val)
			m->ents[o++] = m->ents[i];
	m->n = o;
	free(m->slots);
	m->slots = slots;
	m->cap = ncap;
	m->used = m->live = o;
	for (i = 0; i < o; i++) {
		size_t s = (size_t)hash(m->ents[i].key) & (ncap - 1);

		while (slots[s])
			s = (s + 1) & (ncap - 1);
		slots[s] = (uint32_t)(i + 1);
	}
	return 0;
}

int u64map_put(struct u64map *m, uint64_t key, void *val)
{
	int found;
	size_t i;

	if (((m->used + 1) * 2 > m->cap || m->n == m->ecap) && rebuild(m))
		return -1;
	i = find_slot(m, key, &found);
	if (found) {
		m->ents[m->slots[i] - 1].val = val;
		return 0;
	}
	if (!m->slots[i])
		m->used++;
	m->live++;
	m->ents[m->n].key = key;
	m->ents[m->n].val = val;
	m->slots[i] = (uint32_t)++m->n;
	return 0;
}

/* Slot i holds a tombstone now: drop those that end their probe chain. */
static void drop_tombs(struct u64map *m, size_t i)
{
	/*
	 * A tombstone that ends its probe chain serves no lookup: empty it, and the ones
	 * before it. Churn at a few addresses then leaves no tombstones to probe through.
	 */
	if (m->slots[(i + 1) & (m->cap - 1)])
		return;
	while (m->slots[i] == U64MAP_TOMB) {
		m->slots[i] = 0;
		m->used--;
		i = (i - 1) & (m->cap - 1);
	}
}

/*
 * Remove the entry of slot i. Nothing moves, so an iteration in progress
 * (u64map_next()) stays valid; removed entries at the end are dropped at once.
 */
static void *remove_slot(struct u64map *m, size_t i)
{
	struct u64map_ent *e = &m->ents[m->slots[i] - 1];
	void *v = e->val;

	e->val = NULL;
	m->slots[i] = U64MAP_TOMB;
	m->live--;
	drop_tombs(m, i);
	while (m->n && !m->ents[m->n - 1].val)
		m->n--;
	return v;
}

void *u64map_del(struct u64map *m, uint64_t key)
{
	int found;
	size_t i;

	if (!m->live)
		return NULL;
	i = find_slot(m, key, &found);
	return found ? remove_slot(m, i) : NULL;
}

long u64map_add(struct u64map *m, uint64_t key, long delta)
{
	int found = 0;
	size_t i = 0;
	long n;

	if (m->live)
		i = find_slot(m, key, &found);
	n = (found ? (long)(uintptr_t)m->ents[m->slots[i] - 1].val : 0) + delta;
	if (found && n > 0)
		m->ents[m->slots[i] - 1].val = (void *)(uintptr_t)n;
	else if (found)
		remove_slot(m, i);
	else if (n > 0 && u64map_put(m, key, (void *)(uintptr_t)n))
		return -1;
	return n > 0 ? n : 0;
}

void *u64map_next(const struct u64map *m, size_t *pos, uint64_t *key)
{
	while (*pos < m->n) {
		const struct u64map_ent *e = &m->ents[(*pos)++];

		if (e->val) {
			if (key)
				*key = e->key;
			return e->val;
		}
	}
	return NULL;
}
