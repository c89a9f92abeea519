/* SPDX-License-Identifier: GPL-2.0 */
/* A small open-addressing hash table from u64 keys (kernel addresses) to pointers. */
#ifndef PDT_U64MAP_H
#define PDT_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys;
	void **vals; /* NULL: empty slot; U64MAP_TOMB: deleted */
	size_t cap;  /* power of two */
	size_t used; /* live + tombstones */
	size_t live;
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
/* Iterate: start with *pos = 0; returns NULL at the end. */
void *u64map_next(const struct u64map *m, size_t *pos, uint64_t *key);

#endif
