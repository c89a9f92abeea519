// SPDX-License-Identifier: GPL-2.0
/* The hash table under the rules engine's books, against a plain array. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>
#include "u64map.h"

#define NKEYS 512

/* Kernel-like addresses: shared high bits, 192-byte spacing. */
static uint64_t key_of(unsigned int i)
{
	return 0xffff888100000000ULL + (uint64_t)i * 192;
}

static void test_random_ops_match_reference(void **state)
{
	static void *ref[NKEYS];
	struct u64map m;
	unsigned int i, step;

	(void)state;
	u64map_init(&m);
	srand(7);
	for (step = 0; step < 200000; step++) {
		i = rand() % NKEYS;
		switch (rand() % 3) {
		case 0:
			assert_int_equal(u64map_put(&m, key_of(i), (void *)(uintptr_t)(step + 1)),
					 0);
			ref[i] = (void *)(uintptr_t)(step + 1);
			break;
		case 1:
			assert_ptr_equal(u64map_del(&m, key_of(i)), ref[i]);
			ref[i] = NULL;
			break;
		default:
			assert_ptr_equal(u64map_get(&m, key_of(i)), ref[i]);
		}
	}
	for (i = 0; i < NKEYS; i++)
		assert_ptr_equal(u64map_get(&m, key_of(i)), ref[i]);
	u64map_free(&m);
}

/*
 * A tombstone at the end of a probe chain is emptied: churn (a new key put, then
 * deleted, every time) in a table of nothing else leaves no tombstone at all, where
 * it used to leave one per deletion until a rehash.
 */
static void test_churn_leaves_no_tombstones(void **state)
{
	struct u64map m;
	unsigned int i;

	(void)state;
	u64map_init(&m);
	for (i = 0; i < 100000; i++) {
		assert_int_equal(u64map_put(&m, key_of(i), (void *)2), 0);
		assert_ptr_equal(u64map_del(&m, key_of(i)), (void *)2);
		assert_int_equal(m.used, 0);
	}
	assert_int_equal(m.cap, 64);
	u64map_free(&m);
}

/* Deleting the entry an iteration just returned visits every other entry once. */
static void test_delete_while_iterating(void **state)
{
	static unsigned char seen[NKEYS];
	struct u64map m;
	size_t pos = 0, n = 0;
	uint64_t key;
	unsigned int i;
	void *v;

	(void)state;
	u64map_init(&m);
	for (i = 0; i < NKEYS; i++)
		u64map_put(&m, key_of(i), (void *)(uintptr_t)(i + 1));
	while ((v = u64map_next(&m, &pos, &key))) {
		i = (unsigned int)(uintptr_t)v - 1;
		assert_int_equal(key, key_of(i));
		assert_int_equal(seen[i]++, 0);
		assert_ptr_equal(u64map_del(&m, key), v);
		n++;
	}
	assert_int_equal(n, NKEYS);
	assert_int_equal(m.live, 0);
	u64map_free(&m);
}

/*
 * Emptied by deletions out of order (tombstones left inside probe chains), the table
 * answers nothing (get and del skip the probe when nothing is live), and takes keys
 * again.
 */
static void test_emptied_table(void **state)
{
	struct u64map m;
	unsigned int i;

	(void)state;
	u64map_init(&m);
	for (i = 0; i < NKEYS; i++)
		assert_int_equal(u64map_put(&m, key_of(i), (void *)(uintptr_t)(i + 1)), 0);
	for (i = 0; i < NKEYS; i += 2)
		assert_ptr_equal(u64map_del(&m, key_of(i)), (void *)(uintptr_t)(i + 1));
	for (i = 1; i < NKEYS; i += 2)
		assert_ptr_equal(u64map_del(&m, key_of(i)), (void *)(uintptr_t)(i + 1));
	assert_int_equal(m.live, 0);
	for (i = 0; i < NKEYS; i++) {
		assert_null(u64map_get(&m, key_of(i)));
		assert_null(u64map_del(&m, key_of(i)));
	}
	assert_int_equal(u64map_put(&m, key_of(3), (void *)7), 0);
	assert_ptr_equal(u64map_get(&m, key_of(3)), (void *)7);
	assert_null(u64map_get(&m, key_of(4)));
	assert_ptr_equal(u64map_del(&m, key_of(3)), (void *)7);
	assert_null(u64map_get(&m, key_of(3)));
	u64map_free(&m);
	assert_null(u64map_get(&m, key_of(3)));
	assert_null(u64map_del(&m, key_of(3)));
}

/*
 * Counts (u64map_add()): against a plain array, with random +1 and -1 (a -1 on an
 * absent key changes nothing); a count at 0 is gone, for get and for the table's size.
 */
static void test_counts_match_reference(void **state)
{
	static long ref[NKEYS];
	struct u64map m;
	unsigned int i, step;
	long delta, live = 0;

	(void)state;
	u64map_init(&m);
	srand(11);
	for (step = 0; step < 200000; step++) {
		i = rand() % NKEYS;
		delta = rand() % 2 ? 1 : -1;
		if (ref[i] + delta >= 0) { /* else absent, and it stays so */
			live += !ref[i];
			ref[i] += delta;
			live -= !ref[i];
		}
		assert_int_equal(u64map_add(&m, key_of(i), delta), ref[i]);
		assert_ptr_equal(u64map_get(&m, key_of(i)), (void *)(uintptr_t)ref[i]);
		assert_int_equal(m.live, live);
	}
	for (i = 0; i < NKEYS; i++)
		assert_int_equal(u64map_add(&m, key_of(i), 0), ref[i]);
	u64map_free(&m);
}

/* Counting up and back down at fresh keys leaves the table as it found it. */
static void test_counts_churn_leave_nothing(void **state)
{
	struct u64map m;
	unsigned int i;

	(void)state;
	u64map_init(&m);
	for (i = 0; i < 100000; i++) {
		assert_int_equal(u64map_add(&m, key_of(i), -1), 0);
		assert_int_equal(u64map_add(&m, key_of(i), 1), 1);
		assert_int_equal(u64map_add(&m, key_of(i), 1), 2);
		assert_int_equal(u64map_add(&m, key_of(i), -1), 1);
		assert_int_equal(u64map_add(&m, key_of(i), -1), 0);
		assert_int_equal(m.live, 0);
		assert_int_equal(m.used, 0);
	}
	assert_int_equal(m.cap, 64);
	u64map_free(&m);
}

/* The inverse of an odd constant modulo 2^64 (Newton's iteration). */
static uint64_t inverse(uint64_t a)
{
	uint64_t x = a; /* right to 3 bits */
	int i;

	for (i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

/* The inverse of x ^= x >> s. */
static uint64_t unshift(uint64_t x, unsigned int s)
{
	uint64_t r = x;
	unsigned int i;

	for (i = s; i < 64; i += s)
		r = x ^ (r >> s);
	return r;
}

/* The hash the map had (splitmix64's finalizer, unkeyed), and its inverse. */
static uint64_t old_hash(uint64_t k)
{
	k ^= k >> 30;
	k *= 0xbf58476d1ce4e5b9ULL;
	k ^= k >> 27;
	k *= 0x94d049bb133111ebULL;
	k ^= k >> 31;
	return k;
}

static uint64_t old_unhash(uint64_t h)
{
	h = unshift(h, 31);
	h *= inverse(0x94d049bb133111ebULL);
	h = unshift(h, 27);
	h *= inverse(0xbf58476d1ce4e5b9ULL);
	return unshift(h, 30);
}

#define NCOLLIDE 20000

/*
 * Keys a recording could hold to attack the old hash: their hashes share the low 24 bits,
 * so in any table of up to 16 Mi slots they all start at one slot, and each put, get or
 * del walked a chain as long as the table (NCOLLIDE^2 / 2 probes to fill it, 2 * 10^8).
 * Under the keyed hash their chains are as short as anyone's.
 */
static void test_chosen_collisions_stay_short(void **state)
{
	static uint64_t keys[NCOLLIDE];
	size_t probes = 0, longest = 0, p;
	struct u64map m;
	unsigned int i;

	(void)state;
	for (i = 0; i < NCOLLIDE; i++) {
		keys[i] = old_unhash((uint64_t)(i + 1) << 24 | 0x5a5a5a);
		assert_int_equal(old_hash(keys[i]), (uint64_t)(i + 1) << 24 | 0x5a5a5a);
		assert_int_equal(old_hash(keys[i]) & 0xffffff, old_hash(keys[0]) & 0xffffff);
	}
	u64map_init(&m);
	for (i = 0; i < NCOLLIDE; i++)
		assert_int_equal(u64map_put(&m, keys[i], (void *)(uintptr_t)(i + 1)), 0);
	assert_int_equal(m.live, NCOLLIDE);
	for (i = 0; i < NCOLLIDE; i++) {
		p = u64map_probes(&m, keys[i]);
		probes += p;
		longest = p > longest ? p : longest;
		assert_ptr_equal(u64map_get(&m, keys[i]), (void *)(uintptr_t)(i + 1));
	}
	/* Linear probing at a load under 1/2 averages about 1.5 probes; 4 is generous. */
	assert_true(probes < 4 * NCOLLIDE);
	assert_true(longest < 100);
	/* Iteration is in insertion order, whatever the key. */
	{
		size_t pos = 0;
		uint64_t key;
		void *v;

		for (i = 0; (v = u64map_next(&m, &pos, &key)); i++) {
			assert_int_equal(key, keys[i]);
			assert_ptr_equal(v, (void *)(uintptr_t)(i + 1));
		}
		assert_int_equal(i, NCOLLIDE);
	}
	for (i = 0; i < NCOLLIDE; i++)
		assert_ptr_equal(u64map_del(&m, keys[i]), (void *)(uintptr_t)(i + 1));
	assert_int_equal(m.live, 0);
	u64map_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_ops_match_reference),
		cmocka_unit_test(test_churn_leaves_no_tombstones),
		cmocka_unit_test(test_delete_while_iterating),
		cmocka_unit_test(test_emptied_table),
		cmocka_unit_test(test_counts_match_reference),
		cmocka_unit_test(test_counts_churn_leave_nothing),
		cmocka_unit_test(test_chosen_collisions_stay_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
