// SPDX-License-Identifier: GPL-3.0-or-later
// Transposition table tests: round trips, mate-score conversion, replacement,
// aging, hashfull and sizing, and threads sharing a table.
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>

#include "engine/tt.h"

enum { SMALL_MB = 1, DEEP = 20, MID = 10, SHALLOW = 1, FLOOD = 200 };

// The table indexes buckets by the key's low bits, and even the smallest table
// has far fewer than 2^32 buckets, so keys differing only above bit 32 share
// a bucket. i >= 1 keeps them distinct from the plain low bits.
static const Key BUCKET_LOW = 0x2A5;

static Key bucket_key(unsigned i) {
    return BUCKET_LOW | ((Key)i << 32);
}

static TTable *new_table(size_t mb) {
    TTable *tt = tt_new(mb);
    cr_assert_not_null(tt, "tt_new(%zu) failed", mb);
    return tt;
}

static bool probe(TTable *tt, Key key, TTHit *hit) {
    return tt_probe(tt, key, 0, hit);
}

static void store(TTable *tt, Key key, Move move, int depth, Bound bound) {
    tt_store(tt, key, 0, move, 100 + depth, 7, depth, bound);
}

Test(tt, store_then_probe_round_trips) {
    TTable *tt = new_table(SMALL_MB);
    Key key = 0x123456789ABCDEF0ULL;
    Move m = move_make_promotion(SQ_A1 + 52, SQ_H8 - 1, QUEEN);
    tt_store(tt, key, 3, m, -250, 31, 9, BOUND_LOWER);
    TTHit hit;
    cr_assert(tt_probe(tt, key, 3, &hit));
    cr_assert_eq(hit.move, m);
    cr_assert_eq(hit.score, -250);
    cr_assert_eq(hit.eval, 31);
    cr_assert_eq(hit.depth, 9);
    cr_assert_eq(hit.bound, BOUND_LOWER);
    tt_free(tt);
}

Test(tt, other_key_misses) {
    TTable *tt = new_table(SMALL_MB);
    TTHit hit;
    // An empty slot's zero key must not match key 0.
    cr_assert_not(probe(tt, 0, &hit));
    store(tt, bucket_key(1), move_make(SQ_B1, SQ_C1 + 16), 5, BOUND_EXACT);
    cr_assert(probe(tt, bucket_key(1), &hit));
    cr_assert_not(probe(tt, bucket_key(2), &hit), "same bucket, other key");
    cr_assert_not(probe(tt, bucket_key(1) + 1, &hit), "other bucket");
    cr_assert_not(probe(tt, 0, &hit));
    tt_free(tt);
}

Test(tt, mate_scores_are_node_relative) {
    TTable *tt = new_table(SMALL_MB);
    TTHit hit;
    tt_store(tt, bucket_key(1), 4, MOVE_NONE, VALUE_MATE - 10, VALUE_NONE, 6, BOUND_EXACT);
    cr_assert(tt_probe(tt, bucket_key(1), 6, &hit));
    cr_assert_eq(hit.score, VALUE_MATE - 12);
    cr_assert(tt_probe(tt, bucket_key(1), 4, &hit));
    cr_assert_eq(hit.score, VALUE_MATE - 10);

    tt_store(tt, bucket_key(2), 4, MOVE_NONE, -VALUE_MATE + 10, VALUE_NONE, 6, BOUND_EXACT);
    cr_assert(tt_probe(tt, bucket_key(2), 6, &hit));
    cr_assert_eq(hit.score, -VALUE_MATE + 12);

    tt_store(tt, bucket_key(3), 4, MOVE_NONE, 1234, VALUE_NONE, 6, BOUND_EXACT);
    cr_assert(tt_probe(tt, bucket_key(3), 9, &hit));
    cr_assert_eq(hit.score, 1234);
    tt_free(tt);
}

Test(tt, value_none_is_not_taken_for_a_mate) {
    TTable *tt = new_table(SMALL_MB);
    TTHit hit;
    tt_store(tt, bucket_key(1), 10, MOVE_NONE, VALUE_NONE, 42, 0, BOUND_NONE);
    cr_assert(tt_probe(tt, bucket_key(1), 20, &hit));
    cr_assert_eq(hit.score, VALUE_NONE);
    cr_assert_eq(hit.eval, 42);
    cr_assert_eq(hit.bound, BOUND_NONE);
    tt_free(tt);
}

Test(tt, deep_current_entry_survives_shallow_flood) {
    TTable *tt = new_table(SMALL_MB);
    Move m = move_make(SQ_E8 - 48, SQ_E8 - 32);
    store(tt, bucket_key(1), m, DEEP, BOUND_EXACT);
    for (unsigned i = 0; i < FLOOD; i++)
        store(tt, bucket_key(100 + i), MOVE_NONE, SHALLOW, BOUND_UPPER);
    TTHit hit;
    cr_assert(probe(tt, bucket_key(1), &hit));
    cr_assert_eq(hit.depth, DEEP);
    cr_assert_eq(hit.move, m);
    cr_assert(probe(tt, bucket_key(100 + FLOOD - 1), &hit), "the last store is kept too");
    tt_free(tt);
}

Test(tt, old_deep_entry_is_replaced) {
    TTable *tt = new_table(SMALL_MB);
    store(tt, bucket_key(1), MOVE_NONE, DEEP, BOUND_EXACT);
    for (int i = 0; i < 3; i++)
        tt_new_search(tt);
    store(tt, bucket_key(2), MOVE_NONE, MID, BOUND_EXACT);
    store(tt, bucket_key(3), MOVE_NONE, MID, BOUND_EXACT);
    // Depth 0 beats depth 20 aged three searches (20 - 3 * 8 < 0).
    store(tt, bucket_key(5), MOVE_NONE, 0, BOUND_EXACT);
    TTHit hit;
    cr_assert_not(probe(tt, bucket_key(1), &hit), "the stale deep entry should go");
    cr_assert(probe(tt, bucket_key(2), &hit));
    cr_assert(probe(tt, bucket_key(3), &hit));
    cr_assert(probe(tt, bucket_key(5), &hit));
    tt_free(tt);
}

Test(tt, same_deep_entry_kept_without_aging) {
    TTable *tt = new_table(SMALL_MB);
    store(tt, bucket_key(1), MOVE_NONE, DEEP, BOUND_EXACT);
    store(tt, bucket_key(2), MOVE_NONE, MID, BOUND_EXACT);
    store(tt, bucket_key(3), MOVE_NONE, MID, BOUND_EXACT);
    store(tt, bucket_key(4), MOVE_NONE, SHALLOW, BOUND_EXACT);
    store(tt, bucket_key(5), MOVE_NONE, 0, BOUND_EXACT);
    TTHit hit;
    cr_assert(probe(tt, bucket_key(1), &hit));
    cr_assert(probe(tt, bucket_key(5), &hit));
    cr_assert_not(probe(tt, bucket_key(4), &hit), "the always-replace slot moved on");
    tt_free(tt);
}

Test(tt, probing_keeps_an_entry_young) {
    TTable *tt = new_table(SMALL_MB);
    store(tt, bucket_key(1), MOVE_NONE, DEEP, BOUND_EXACT);
    for (int i = 0; i < 3; i++)
        tt_new_search(tt);
    TTHit hit;
    cr_assert(probe(tt, bucket_key(1), &hit));
    store(tt, bucket_key(2), MOVE_NONE, MID, BOUND_EXACT);
    store(tt, bucket_key(3), MOVE_NONE, MID, BOUND_EXACT);
    store(tt, bucket_key(4), MOVE_NONE, 0, BOUND_EXACT);
    cr_assert(probe(tt, bucket_key(1), &hit), "a probed entry belongs to this search");
    cr_assert_eq(hit.depth, DEEP);
    tt_free(tt);
}

Test(tt, always_replace_slot_keeps_latest_shallow_entry) {
    TTable *tt = new_table(SMALL_MB);
    for (unsigned i = 1; i <= 3; i++)
        store(tt, bucket_key(i), MOVE_NONE, MID, BOUND_LOWER);
    for (unsigned i = 10; i < 20; i++)
        store(tt, bucket_key(i), move_make(SQ_A1, (Square)i), SHALLOW, BOUND_UPPER);
    TTHit hit;
    cr_assert(probe(tt, bucket_key(19), &hit));
    cr_assert_eq(hit.move, move_make(SQ_A1, 19));
    cr_assert_not(probe(tt, bucket_key(18), &hit));
    for (unsigned i = 1; i <= 3; i++) {
        cr_assert(probe(tt, bucket_key(i), &hit));
        cr_assert_eq(hit.depth, MID);
    }
    tt_free(tt);
}

Test(tt, key_in_always_slot_moves_up_when_deep) {
    TTable *tt = new_table(SMALL_MB);
    for (unsigned i = 1; i <= 3; i++)
        store(tt, bucket_key(i), MOVE_NONE, MID, BOUND_LOWER);
    Move m = move_make(SQ_G1, SQ_G1 + 15);
    store(tt, bucket_key(9), m, SHALLOW, BOUND_UPPER); // lands in the always-replace slot
    store(tt, bucket_key(9), MOVE_NONE, DEEP, BOUND_EXACT);
    for (unsigned i = 0; i < FLOOD; i++)
        store(tt, bucket_key(100 + i), MOVE_NONE, SHALLOW, BOUND_UPPER);
    TTHit hit;
    cr_assert(probe(tt, bucket_key(9), &hit), "the deep result must not stay evictable");
    cr_assert_eq(hit.depth, DEEP);
    cr_assert_eq(hit.bound, BOUND_EXACT);
    cr_assert_eq(hit.move, m);
    tt_free(tt);
}

Test(tt, moving_up_leaves_no_stale_copy) {
    TTable *tt = new_table(SMALL_MB);
    // Bucket 0 is inside the hashfull sample, so the count shows every used slot.
    for (Key i = 1; i <= 3; i++)
        store(tt, i << 32, MOVE_NONE, MID, BOUND_LOWER);
    store(tt, (Key)9 << 32, MOVE_NONE, SHALLOW, BOUND_UPPER);
    cr_assert_eq(tt_hashfull(tt), 4);
    store(tt, (Key)9 << 32, MOVE_NONE, DEEP, BOUND_EXACT);
    cr_assert_eq(tt_hashfull(tt), 3, "one entry evicted, the always-replace copy dropped");
    TTHit hit;
    cr_assert(probe(tt, (Key)9 << 32, &hit));
    cr_assert_eq(hit.depth, DEEP);
    tt_free(tt);
}

Test(tt, same_key_update_keeps_old_move) {
    TTable *tt = new_table(SMALL_MB);
    Move m = move_make(SQ_B1, SQ_C1 + 16);
    store(tt, bucket_key(1), m, 5, BOUND_LOWER);
    store(tt, bucket_key(1), MOVE_NONE, 6, BOUND_UPPER);
    TTHit hit;
    cr_assert(probe(tt, bucket_key(1), &hit));
    cr_assert_eq(hit.move, m);
    cr_assert_eq(hit.depth, 6);
    cr_assert_eq(hit.bound, BOUND_UPPER);
    cr_assert_eq(hit.score, 106);

    Move m2 = move_make(SQ_G1, SQ_G1 + 15);
    store(tt, bucket_key(1), m2, 7, BOUND_LOWER);
    cr_assert(probe(tt, bucket_key(1), &hit));
    cr_assert_eq(hit.move, m2, "a real new move replaces the old one");
    tt_free(tt);
}

Test(tt, deep_exact_entry_resists_much_shallower_bound) {
    TTable *tt = new_table(SMALL_MB);
    Move m = move_make(SQ_E8 - 48, SQ_E8 - 32);
    store(tt, bucket_key(1), m, 12, BOUND_EXACT);
    store(tt, bucket_key(1), move_make(SQ_A1, SQ_A8), 3, BOUND_LOWER);
    TTHit hit;
    cr_assert(probe(tt, bucket_key(1), &hit));
    cr_assert_eq(hit.depth, 12);
    cr_assert_eq(hit.bound, BOUND_EXACT);
    cr_assert_eq(hit.move, m);

    // A nearly as deep bound, or any exact result, does replace it.
    store(tt, bucket_key(1), MOVE_NONE, 11, BOUND_UPPER);
    cr_assert(probe(tt, bucket_key(1), &hit));
    cr_assert_eq(hit.depth, 11);
    cr_assert_eq(hit.bound, BOUND_UPPER);
    store(tt, bucket_key(1), MOVE_NONE, 2, BOUND_EXACT);
    cr_assert(probe(tt, bucket_key(1), &hit));
    cr_assert_eq(hit.depth, 2);

    // From an older search the exact entry no longer guards itself.
    store(tt, bucket_key(2), MOVE_NONE, 12, BOUND_EXACT);
    tt_new_search(tt);
    store(tt, bucket_key(2), MOVE_NONE, 3, BOUND_LOWER);
    cr_assert(probe(tt, bucket_key(2), &hit));
    cr_assert_eq(hit.depth, 3);
    tt_free(tt);
}

Test(tt, eval_only_store_keeps_score) {
    TTable *tt = new_table(SMALL_MB);
    tt_store(tt, bucket_key(1), 0, MOVE_NONE, 50, VALUE_NONE, 8, BOUND_LOWER);
    tt_store(tt, bucket_key(1), 0, MOVE_NONE, VALUE_NONE, 33, 0, BOUND_NONE);
    TTHit hit;
    cr_assert(probe(tt, bucket_key(1), &hit));
    cr_assert_eq(hit.score, 50);
    cr_assert_eq(hit.bound, BOUND_LOWER);
    cr_assert_eq(hit.depth, 8);
    cr_assert_eq(hit.eval, 33);
    tt_free(tt);
}

Test(tt, hashfull_counts_current_generation) {
    TTable *tt = new_table(SMALL_MB);
    cr_assert_eq(tt_hashfull(tt), 0);
    // One entry in each of the first 250 buckets: a quarter of the sampled slots.
    for (Key b = 0; b < 250; b++)
        store(tt, b | ((Key)1 << 40), MOVE_NONE, 4, BOUND_EXACT);
    cr_assert_eq(tt_hashfull(tt), 250);
    for (Key b = 0; b < 250; b++)
        store(tt, b | ((Key)2 << 40), MOVE_NONE, 4, BOUND_EXACT);
    cr_assert_eq(tt_hashfull(tt), 500);
    tt_new_search(tt);
    cr_assert_eq(tt_hashfull(tt), 0, "older entries are not counted");
    store(tt, 7, MOVE_NONE, 4, BOUND_EXACT);
    cr_assert_eq(tt_hashfull(tt), 1);
    tt_clear(tt);
    cr_assert_eq(tt_hashfull(tt), 0);
    tt_free(tt);
}

Test(tt, clear_removes_entries) {
    TTable *tt = new_table(SMALL_MB);
    for (unsigned i = 1; i <= 4; i++)
        store(tt, bucket_key(i), MOVE_NONE, MID, BOUND_EXACT);
    store(tt, 0xDEADBEEFULL, MOVE_NONE, MID, BOUND_EXACT);
    tt_clear(tt);
    TTHit hit;
    for (unsigned i = 1; i <= 4; i++)
        cr_assert_not(probe(tt, bucket_key(i), &hit));
    cr_assert_not(probe(tt, 0xDEADBEEFULL, &hit));
    store(tt, bucket_key(1), MOVE_NONE, MID, BOUND_EXACT);
    cr_assert(probe(tt, bucket_key(1), &hit), "usable after clear");
    tt_free(tt);
}

// A clear maps fresh pages over a used table: clearing again and again, with
// and without stores between, must always leave a working, empty table.
Test(tt, repeated_clears) {
    TTable *tt = new_table(SMALL_MB);
    TTHit hit;
    tt_clear(tt); // never stored to: nothing to drop
    cr_assert_not(probe(tt, bucket_key(3), &hit));
    for (int round = 0; round < 3; round++) {
        store(tt, bucket_key(3), MOVE_NONE, MID, BOUND_EXACT);
        cr_assert(probe(tt, bucket_key(3), &hit));
        tt_clear(tt);
        tt_clear(tt);
        cr_assert_not(probe(tt, bucket_key(3), &hit), "round %d", round);
        cr_assert_eq(tt_hashfull(tt), 0);
    }
    cr_assert(tt_resize(tt, SMALL_MB * 2));
    store(tt, bucket_key(5), MOVE_NONE, MID, BOUND_EXACT);
    tt_clear(tt);
    cr_assert_not(probe(tt, bucket_key(5), &hit), "cleared after a resize");
    tt_free(tt);
}

Test(tt, sizes_round_down_and_clamp) {
    TTable *tt = new_table(5);
    cr_assert_eq(tt_size_mb(tt), 4);
    tt_free(tt);
    tt = new_table(0);
    cr_assert_eq(tt_size_mb(tt), TT_MB_MIN);
    tt_free(tt);
    tt = new_table(TT_MB_DEFAULT);
    cr_assert_eq(tt_size_mb(tt), TT_MB_DEFAULT);
    tt_free(tt);
}

Test(tt, resize_keeps_table_usable) {
    TTable *tt = new_table(2);
    cr_assert_eq(tt_size_mb(tt), 2);
    cr_assert(tt_resize(tt, 64));
    cr_assert_eq(tt_size_mb(tt), 64);
    TTHit hit;
    store(tt, 0xFEDCBA9876543210ULL, move_make(SQ_B1, SQ_A1 + 16), 6, BOUND_LOWER);
    cr_assert(probe(tt, 0xFEDCBA9876543210ULL, &hit));
    cr_assert_eq(hit.depth, 6);
    cr_assert_eq(tt_hashfull(tt), 0, "a lone entry far from the sample");
    cr_assert(tt_resize(tt, 3));
    cr_assert_eq(tt_size_mb(tt), 2);
    store(tt, bucket_key(1), MOVE_NONE, 6, BOUND_LOWER);
    cr_assert(probe(tt, bucket_key(1), &hit));
    cr_assert_eq(hit.bound, BOUND_LOWER);
    tt_free(tt);
}

Test(tt, extreme_depths_round_trip) {
    TTable *tt = new_table(SMALL_MB);
    TTHit hit;
    tt_store(tt, bucket_key(1), 2, MOVE_NONE, -35, -35, -7, BOUND_UPPER);
    cr_assert(tt_probe(tt, bucket_key(1), 2, &hit));
    cr_assert_eq(hit.depth, -7);
    cr_assert_eq(hit.score, -35);
    cr_assert_eq(hit.bound, BOUND_UPPER);
    tt_store(tt, bucket_key(2), 2, MOVE_NONE, 10, 10, 127, BOUND_EXACT);
    cr_assert(tt_probe(tt, bucket_key(2), 2, &hit));
    cr_assert_eq(hit.depth, 127);
    tt_prefetch(tt, bucket_key(2)); // only a hint, but must be safe to call
    tt_free(tt);
}

// ------------------------------------------------------------ threads

// Two threads store and probe keys crowded into four buckets at once. Each
// key always stores the same data (a function of the key), so any hit whose
// data does not belong to its key is a torn entry: half of one write and
// half of another. There must be none.
enum { HAMMER_KEYS = 64, HAMMER_ROUNDS = 300000, HAMMER_BUCKETS = 4 };

typedef struct Hammer {
    TTable *tt;
    Key keys[HAMMER_KEYS];
    uint64_t seed;
    long hits, torn;
} Hammer;

static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// What key k always stores.
static Move hammer_move(Key k) { return (Move)(1 + mix64(k) % 65000); }
static int hammer_score(Key k) { return (int)(mix64(k + 1) % 4000) - 2000; }
static int hammer_eval(Key k) { return (int)(mix64(k + 2) % 4000) - 2000; }
static int hammer_depth(Key k) { return (int)(mix64(k + 3) % 30); }
static Bound hammer_bound(Key k) { return (Bound)(1 + mix64(k + 4) % 3); }

static void *hammer(void *arg) {
    Hammer *h = arg;
    uint64_t r = h->seed;
    for (int i = 0; i < HAMMER_ROUNDS; i++) {
        r = mix64(r + 0x9E3779B97F4A7C15ULL);
        Key k = h->keys[r % HAMMER_KEYS];
        if (r & (1ULL << 40)) {
            tt_store(h->tt, k, 0, hammer_move(k), hammer_score(k), hammer_eval(k),
                     hammer_depth(k), hammer_bound(k));
        } else {
            TTHit hit;
            if (!tt_probe(h->tt, k, 0, &hit))
                continue;
            h->hits++;
            if (hit.move != hammer_move(k) || hit.score != hammer_score(k) ||
                hit.eval != hammer_eval(k) || hit.depth != hammer_depth(k) ||
                hit.bound != hammer_bound(k))
                h->torn++;
        }
    }
    return NULL;
}

Test(tt, concurrent_writers_never_yield_a_torn_entry) {
    TTable *tt = new_table(SMALL_MB);
    Hammer h[2];
    memset(h, 0, sizeof h);
    for (int t = 0; t < 2; t++) {
        h[t].tt = tt;
        h[t].seed = 1234567 + (uint64_t)t * 7654321;
        // Random keys (as Zobrist keys are) whose low bits pick one of a few buckets.
        for (int i = 0; i < HAMMER_KEYS; i++)
            h[t].keys[i] = (mix64((uint64_t)i + 99) & ~(Key)0xFFFFF) | (Key)(i % HAMMER_BUCKETS);
    }
    pthread_t th[2];
    for (int t = 0; t < 2; t++)
        cr_assert_eq(pthread_create(&th[t], NULL, hammer, &h[t]), 0);
    for (int t = 0; t < 2; t++)
        pthread_join(th[t], NULL);
    cr_expect_gt(h[0].hits + h[1].hits, 0, "the probes found something");
    cr_expect_eq(h[0].torn + h[1].torn, 0, "%ld torn entries read", h[0].torn + h[1].torn);
    tt_free(tt);
}
