// SPDX-License-Identifier: GPL-3.0-or-later
// The transposition table: 64-byte buckets of four 16-byte entries, three kept
// by depth and age and one always replaced; mate scores stored node-relative.
// The buckets are anonymous pages: the kernel hands them out zeroed on first
// touch, so a new or cleared table costs nothing until the search writes to it.
// MAP_ANONYMOUS is not in POSIX.1-2008, which the build otherwise asks for.
#define _DEFAULT_SOURCE
#include "engine/tt.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum {
    BUCKET_BYTES = 64,
    BUCKET_SLOTS = 4,
    // Slots 0..ALWAYS_SLOT-1 are depth-preferred; ALWAYS_SLOT takes whatever they refuse.
    ALWAYS_SLOT = BUCKET_SLOTS - 1,
    TT_DEPTH_MIN = -7,
    TT_DEPTH_MAX = 127,
    // The generation shares a byte with the bound: 6 bits of generation, 2 of bound.
    BOUND_BITS = 2,
    BOUND_MASK = (1 << BOUND_BITS) - 1,
    GEN_MASK = 63,
    // One search generation of age costs as much as this many plies of depth.
    AGE_DEPTH_COST = 8,
    // A same-generation exact entry is kept against non-exact results more than
    // this many plies shallower: they would only blur a better answer.
    EXACT_KEEP_MARGIN = 2,
    HASHFULL_SAMPLE_BUCKETS = 250,
    PERMILLE = 1000,
};

#define MB_SHIFT 20

// depth_code is depth - TT_DEPTH_MIN + 1, so that 0 marks an empty slot; this
// leaves BOUND_NONE free for entries that only carry a static evaluation.
// TTEntry is the decoded view of a slot; the table holds Slots.
typedef struct TTEntry {
    Key key;
    Move move;
    int16_t score;
    int16_t eval;
    uint8_t depth_code;
    uint8_t gen_bound;
} TTEntry;

// Several search threads read and write the table without locks. A slot is
// two 64-bit words written one after the other: the packed data, and the key
// xor the data. A reader that meets a slot half written by another thread (or
// written by two at once) gets a key that matches nothing it looks for, so a
// torn entry is never used: it is just a miss. Relaxed atomics make each word
// whole (no data race) and cost nothing over plain moves on common CPUs.
typedef struct Slot {
    _Atomic uint64_t keyx; // key ^ data
    _Atomic uint64_t data; // move | score << 16 | eval << 32 | depth_code << 48 | gen_bound << 56
} Slot;

typedef struct Bucket {
    _Alignas(BUCKET_BYTES) Slot slot[BUCKET_SLOTS];
} Bucket;

_Static_assert(sizeof(Slot) == 16, "a TT slot must stay 16 bytes");
_Static_assert(sizeof(Move) == 2, "a move must fit 16 bits of a slot");
_Static_assert(sizeof(Bucket) == BUCKET_BYTES, "a bucket must fill one cache line");
_Static_assert(VALUE_MATE + MAX_PLY <= INT16_MAX, "node-relative mates must fit 16 bits");
_Static_assert(VALUE_NONE <= INT16_MAX, "VALUE_NONE must fit 16 bits");
_Static_assert(TT_DEPTH_MAX - TT_DEPTH_MIN + 1 <= UINT8_MAX, "depth must fit its byte");

struct TTable {
    Bucket *buckets; // bucket count * BUCKET_BYTES of mapped pages
    size_t mask;     // bucket count - 1; the count is a power of two
    // Changed only between searches, while no search thread runs.
    uint8_t generation;
    // Something was stored since the pages were last fresh. Set by any thread.
    atomic_bool dirty;
};

static uint64_t pack_data(const TTEntry *e) {
    return (uint64_t)e->move | (uint64_t)(uint16_t)e->score << 16 |
           (uint64_t)(uint16_t)e->eval << 32 | (uint64_t)e->depth_code << 48 |
           (uint64_t)e->gen_bound << 56;
}

// Reads slot s whole into *e (key included, as the slot claims it).
static void slot_read(const Slot *s, TTEntry *e) {
    uint64_t data = atomic_load_explicit(&s->data, memory_order_relaxed);
    uint64_t keyx = atomic_load_explicit(&s->keyx, memory_order_relaxed);
    e->key = keyx ^ data;
    e->move = (Move)(data & 0xFFFF);
    e->score = (int16_t)(uint16_t)(data >> 16);
    e->eval = (int16_t)(uint16_t)(data >> 32);
    e->depth_code = (uint8_t)(data >> 48);
    e->gen_bound = (uint8_t)(data >> 56);
}

static void slot_write(Slot *s, const TTEntry *e) {
    uint64_t data = pack_data(e);
    atomic_store_explicit(&s->data, data, memory_order_relaxed);
    atomic_store_explicit(&s->keyx, e->key ^ data, memory_order_relaxed);
}

static bool entry_used(const TTEntry *e) {
    return e->depth_code != 0;
}

static int entry_depth(const TTEntry *e) {
    return (int)e->depth_code - 1 + TT_DEPTH_MIN;
}

static Bound entry_bound(const TTEntry *e) {
    return (Bound)(e->gen_bound & BOUND_MASK);
}

static uint8_t entry_generation(const TTEntry *e) {
    return (uint8_t)(e->gen_bound >> BOUND_BITS);
}

static uint8_t pack_gen_bound(uint8_t generation, Bound bound) {
    return (uint8_t)(((unsigned)generation << BOUND_BITS) | ((unsigned)bound & BOUND_MASK));
}

// Searches since the entry was last written or found, modulo the counter's wrap.
static int entry_age(const TTable *tt, const TTEntry *e) {
    return (tt->generation - entry_generation(e)) & GEN_MASK;
}

// How much an entry is worth keeping: deep and recent is worth more.
static int entry_worth(const TTable *tt, const TTEntry *e) {
    if (!entry_used(e))
        return INT_MIN;
    return entry_depth(e) - AGE_DEPTH_COST * entry_age(tt, e);
}

// Mates are stored as distance from this node rather than from the root, so
// the same entry is right when the position is reached at another ply.
static int score_to_tt(int score, int ply) {
    if (score == VALUE_NONE)
        return score;
    if (score >= VALUE_MATE_IN_MAX)
        return score + ply;
    if (score <= VALUE_MATED_IN_MAX)
        return score - ply;
    return score;
}

static int score_from_tt(int score, int ply) {
    if (score == VALUE_NONE)
        return score;
    if (score >= VALUE_MATE_IN_MAX)
        return score - ply;
    if (score <= VALUE_MATED_IN_MAX)
        return score + ply;
    return score;
}

static int clamp_int(int v, int lo, int hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

// The bucket count for a request of mb megabytes: the largest power of two
// that fits, with mb clamped to the API's range and to what size_t can address.
static size_t bucket_count_for(size_t mb) {
    if (mb < TT_MB_MIN)
        mb = TT_MB_MIN;
    if (mb > TT_MB_MAX)
        mb = TT_MB_MAX;
    if (mb > (SIZE_MAX >> MB_SHIFT))
        mb = SIZE_MAX >> MB_SHIFT;
    size_t wanted = (mb << MB_SHIFT) / BUCKET_BYTES;
    size_t count = 1;
    while (count <= wanted / 2)
        count *= 2;
    return count;
}

// Fresh zero pages, page-aligned (so bucket-aligned); none is resident until touched.
// At `at` (replacing what is mapped there) or anywhere (at NULL); NULL on failure.
// Huge pages where the kernel offers them: a fresh table faults in 2 MB at a time
// rather than 4 KB, and each 4 KB page would be faulted twice (a read maps the shared
// zero page, the first write copies it and flushes the other threads' TLBs: with two
// threads that made a fresh table's faults cost more than the search). Only advice.
static void *map_fresh(void *at, size_t bytes) {
    int flags = MAP_PRIVATE | MAP_ANONYMOUS | (at ? MAP_FIXED : 0);
    void *p = mmap(at, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE); // a refusal only costs speed
#endif
    return p;
}

// count * BUCKET_BYTES cannot overflow: bucket_count_for kept the bytes in size_t.
static Bucket *bucket_alloc(size_t count) { return map_fresh(NULL, count * BUCKET_BYTES); }

static void bucket_release(Bucket *b, size_t count) {
    if (b)
        munmap(b, count * BUCKET_BYTES);
}

static Bucket *bucket_of(const TTable *tt, Key key) {
    return &tt->buckets[key & tt->mask];
}

TTable *tt_new(size_t mb) {
    TTable *tt = malloc(sizeof *tt);
    if (!tt)
        return NULL;
    size_t count = bucket_count_for(mb);
    tt->buckets = bucket_alloc(count);
    if (!tt->buckets) {
        free(tt);
        return NULL;
    }
    tt->mask = count - 1;
    tt->generation = 0;
    atomic_init(&tt->dirty, false);
    return tt;
}

void tt_free(TTable *tt) {
    if (!tt)
        return;
    bucket_release(tt->buckets, tt->mask + 1);
    free(tt);
}

bool tt_resize(TTable *tt, size_t mb) {
    size_t count = bucket_count_for(mb);
    Bucket *b = bucket_alloc(count);
    if (!b)
        return false;
    bucket_release(tt->buckets, tt->mask + 1);
    tt->buckets = b;
    tt->mask = count - 1;
    tt->generation = 0;
    atomic_store(&tt->dirty, false);
    return true;
}

size_t tt_size_mb(const TTable *tt) {
    return ((tt->mask + 1) * BUCKET_BYTES) >> MB_SHIFT;
}

void tt_clear(TTable *tt) {
    tt->generation = 0;
    if (!atomic_load(&tt->dirty))
        return;
    // Mapping fresh pages over the old ones drops them at once; the search then
    // faults in only what it uses, instead of the clear writing every page.
    size_t bytes = (tt->mask + 1) * BUCKET_BYTES;
    if (!map_fresh(tt->buckets, bytes))
        memset(tt->buckets, 0, bytes); // the old mapping is still in place
    atomic_store(&tt->dirty, false);
}

void tt_new_search(TTable *tt) {
    tt->generation = (uint8_t)((tt->generation + 1) & GEN_MASK);
}

bool tt_probe(TTable *tt, Key key, int ply, TTHit *hit) {
    Bucket *b = bucket_of(tt, key);
    for (int i = 0; i < BUCKET_SLOTS; i++) {
        TTEntry e;
        slot_read(&b->slot[i], &e);
        if (!entry_used(&e) || e.key != key)
            continue;
        // Being found again means the entry matters to this search: keep it young.
        uint8_t gen_bound = pack_gen_bound(tt->generation, entry_bound(&e));
        if (gen_bound != e.gen_bound) {
            e.gen_bound = gen_bound;
            slot_write(&b->slot[i], &e);
        }
        hit->move = e.move;
        hit->score = score_from_tt(e.score, ply);
        hit->eval = e.eval;
        hit->depth = entry_depth(&e);
        hit->bound = entry_bound(&e);
        return true;
    }
    return false;
}

// Whether a new result for the key of e should leave e's score alone: a
// boundless store (just an evaluation) never erases a real score.
static bool keep_existing(const TTable *tt, const TTEntry *e, int depth, Bound bound) {
    if (bound == BOUND_NONE)
        return entry_bound(e) != BOUND_NONE;
    return entry_bound(e) == BOUND_EXACT && bound != BOUND_EXACT && entry_age(tt, e) == 0 &&
           depth + EXACT_KEEP_MARGIN < entry_depth(e);
}

void tt_store(TTable *tt, Key key, int ply, Move move, int score, int eval, int depth,
              Bound bound) {
    Bucket *b = bucket_of(tt, key);
    depth = clamp_int(depth, TT_DEPTH_MIN, TT_DEPTH_MAX);
    if (!atomic_load_explicit(&tt->dirty, memory_order_relaxed))
        atomic_store_explicit(&tt->dirty, true, memory_order_relaxed);

    // The decision is made on a snapshot of the bucket; other threads may write
    // it meanwhile, and then one of the two writes wins, which is harmless.
    TTEntry slot[BUCKET_SLOTS];
    for (int i = 0; i < BUCKET_SLOTS; i++)
        slot_read(&b->slot[i], &slot[i]);

    int found = -1;
    for (int i = 0; i < BUCKET_SLOTS; i++) {
        if (entry_used(&slot[i]) && slot[i].key == key) {
            found = i;
            break;
        }
    }
    TTEntry *e = found >= 0 ? &slot[found] : NULL;

    if (e && keep_existing(tt, e, depth, bound)) {
        bool changed = false;
        if (e->move == MOVE_NONE && move != MOVE_NONE) {
            e->move = move;
            changed = true;
        }
        if (e->eval == VALUE_NONE && eval != VALUE_NONE) {
            e->eval = (int16_t)eval;
            changed = true;
        }
        if (changed)
            slot_write(&b->slot[found], e);
        return;
    }

    // What the old entry knew that the new result may lack.
    Move old_move = e ? e->move : MOVE_NONE;
    int old_eval = e ? e->eval : VALUE_NONE;

    // A new key, or one held only by the always-replace slot, competes for a
    // depth-preferred slot; failing that it goes (or stays) in the always-replace one.
    int target = found;
    if (found < 0 || found == ALWAYS_SLOT) {
        int victim = 0;
        for (int i = 1; i < ALWAYS_SLOT; i++)
            if (entry_worth(tt, &slot[i]) < entry_worth(tt, &slot[victim]))
                victim = i;
        if (depth >= entry_worth(tt, &slot[victim])) {
            if (found >= 0) {
                // The key moves up; no stale duplicate.
                TTEntry empty = {0};
                slot_write(&b->slot[found], &empty);
            }
            target = victim;
        } else {
            target = ALWAYS_SLOT;
        }
    }

    TTEntry n = {
        .key = key,
        .move = move != MOVE_NONE ? move : old_move,
        .score = (int16_t)score_to_tt(score, clamp_int(ply, 0, MAX_PLY)),
        .eval = (int16_t)(eval != VALUE_NONE ? eval : old_eval),
        .depth_code = (uint8_t)(depth - TT_DEPTH_MIN + 1),
        .gen_bound = pack_gen_bound(tt->generation, bound),
    };
    slot_write(&b->slot[target], &n);
}

int tt_hashfull(const TTable *tt) {
    size_t buckets = tt->mask + 1;
    if (buckets > HASHFULL_SAMPLE_BUCKETS)
        buckets = HASHFULL_SAMPLE_BUCKETS;
    size_t used = 0;
    for (size_t i = 0; i < buckets; i++)
        for (int s = 0; s < BUCKET_SLOTS; s++) {
            TTEntry e;
            slot_read(&tt->buckets[i].slot[s], &e);
            if (entry_used(&e) && entry_generation(&e) == tt->generation)
                used++;
        }
    return (int)(used * PERMILLE / (buckets * BUCKET_SLOTS));
}

void tt_prefetch(const TTable *tt, Key key) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(bucket_of(tt, key));
#else
    (void)tt;
    (void)key;
#endif
}
