// SPDX-License-Identifier: GPL-3.0-or-later
// The transposition table: a power-of-two array of 64-byte buckets, each
// holding several entries. Within a bucket, most slots are depth-preferred (a
// new result replaces the entry of least value: shallow, or left from an
// older search generation) and one slot is always replaced, so recent
// shallow results are kept too. Mate scores are stored relative to the node
// and converted back with the ply on probe, so they stay right wherever the
// position is met again. Search threads share one table without locks:
// tt_probe and tt_store may run on any number of threads at once, and a slot
// torn by two concurrent writes reads as a miss, never as a wrong entry. The
// other functions (new, free, resize, clear, new_search) must run while no
// search thread uses the table.
#ifndef ENGINE_TT_H
#define ENGINE_TT_H

#include "engine/types.h"

typedef enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 } Bound;

typedef struct TTable TTable;

// What a probe finds. score and eval are VALUE_NONE when not stored.
typedef struct TTHit {
    Move move;
    int score; // already adjusted to the probing ply
    int eval;  // static evaluation, VALUE_NONE if unknown
    int depth;
    Bound bound;
} TTHit;

enum { TT_MB_MIN = 1, TT_MB_MAX = 65536, TT_MB_DEFAULT = 16 };

// A table of (about) mb megabytes, rounded down to a power of two buckets.
// NULL when the memory cannot be had. The memory is reserved, not touched:
// resident memory grows only as the search writes to the table.
TTable *tt_new(size_t mb);
void tt_free(TTable *tt);
// Changes the size; on failure keeps the old table and returns false.
bool tt_resize(TTable *tt, size_t mb);
size_t tt_size_mb(const TTable *tt);
// Empties the table; after a search, by swapping in fresh pages rather than
// writing zeros over every one (a table never stored to costs nothing).
void tt_clear(TTable *tt);
// Starts a new search generation, so that entries of older searches age.
void tt_new_search(TTable *tt);
// Looks the key up; true with *hit filled when found. ply converts mates.
bool tt_probe(TTable *tt, Key key, int ply, TTHit *hit);
// Stores a result. depth may be negative (quiescence) down to -7.
void tt_store(TTable *tt, Key key, int ply, Move move, int score, int eval, int depth, Bound bound);
// Permille of sampled entries used by the current generation.
int tt_hashfull(const TTable *tt);
// Hints the CPU to fetch the bucket of key.
void tt_prefetch(const TTable *tt, Key key);

#endif
