// SPDX-License-Identifier: GPL-3.0-or-later
// The bench: a fixed set of varied positions searched to a fixed depth with
// a cleared table and fresh statistics before each, one thread. The total
// node count is a signature of the search: any change in the search or the
// evaluation changes it, a refactoring does not.
#ifndef ENGINE_BENCH_H
#define ENGINE_BENCH_H

#include "engine/nnue.h"

enum { BENCH_DEFAULT_DEPTH = 11 };

int bench_position_count(void);
const char *bench_position(int index);

typedef struct BenchResult {
    uint64_t nodes;
    Move best;
    int score;
    int64_t time_ms;
} BenchResult;

// Searches position index to depth with the given table size in MB; false
// only when memory could not be had.
typedef struct BenchRunner BenchRunner;
BenchRunner *bench_runner_new(void);
void bench_runner_free(BenchRunner *r);
// Searches on that many threads (1, the default, gives the signature; more
// measure the parallel speed and are not reproducible). Returns the threads
// to be used (fewer when memory ran out).
int bench_runner_set_threads(BenchRunner *r, int threads);
// Searches with the network net (kept alive by the caller), or with the hand-crafted
// evaluation for NULL, the default and the signature's.
void bench_runner_set_net(BenchRunner *r, const NnueNet *net);
bool bench_run_position(BenchRunner *r, int index, int depth, BenchResult *out);

#endif
