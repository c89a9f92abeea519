/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small hash table from u64 keys (kernel addresses) to pointers: an index of open
 * addressing over entries kept in insertion order. The hash is keyed with a random key
 * per run, so keys from a recording cannot be chosen to collide; the order of iteration
 * is the order of insertion, the same on every run whatever the key.
 */
#ifndef PDT_U64MAP_H
#define PDT_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map {
	struct u64map_ent {
		uint64_t key;
		void *val; /* NULL: a removed entry */
	} * ents;	   /* in insertion order */
	uint32_t *slots;   /* the index: 0 empty, U64MAP_TOMB deleted, else entry + 1 */
	size_t cap;	   /* slots, a power of two */
	size_t used;	   /* slots not empty: live + tombstones */
	size_t live;
	size_t n;    /* entries, live and removed */
	size_t ecap; /* room for entries */
};

void u64map_init(struct u64map *m);
void u64map_free(struct u64map *m);
void *u64map_get(const struct u64map *m, uint64_t key);
/* Returns 0, or -1 when out of memory. Replaces an existing value. */
int u64map_put(struct u64map *m, uint64_t key, void *val);
/* Returns the removed value or NULL. */
void *u64map_del(struct u64map *m, uint64_t key);
/*
 * A map of counts (each value a nonzero count, not a pointer): add delta to key's and
 * return the new count, in one probe when key is there. A count that reaches 0 is
 * removed; a key absent is taken as 0, and a negative result stays absent (returns 0).
 * -1 when out of memory.
 */
long u64map_add(struct u64map *m, uint64_t key, long delta);
/*
 * Iterate, in the order of insertion: start with *pos = 0; returns NULL at the end.
 * Deleting the entry just returned is allowed; a put may rebuild the table.
 */
void *u64map_next(const struct u64map *m, size_t *pos, uint64_t *key);
/* Slots a lookup of key examines (for tests: probe chains stay short). */
size_t u64map_probes(const struct u64map *m, uint64_t key);

#endif
