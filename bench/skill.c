// SPDX-License-Identifier: GPL-3.0-or-later
// bench/skill: the table of the strength levels' cost and quality, for tuning
// the level table (tests/test_skill.c asserts the orderings it relies on).
//
//   bench/skill [POSITIONS [SEEDS]]      (defaults: 20 bench positions, 2 seeds)
//
// For every level below full strength: the average nodes searched per move,
// and the centipawns each move loses against a full-strength search to
// REF_DEPTH (average, median and worst). Slow: minutes. Built only by
// "make bench-skill"; never installed.
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/bench.h"
#include "engine/engine.h"
#include "engine/fen.h"
#include "engine/search.h"
#include "engine/skill.h"
#include "engine/tt.h"

enum { REF_DEPTH = 8, MATE_CLAMP = 2000, DEFAULT_POSITIONS = 20, DEFAULT_SEEDS = 2 };

typedef struct Bench {
    TTable *tt;
    Searcher *searcher;
    atomic_bool stop;
} Bench;

// One search of b from a clean table: level (0: full strength) with the
// generator seeded by seed, to depth (0: the level's own), only searchmove
// when given.
static SearchResult run(Bench *bn, const Board *b, int level, uint64_t seed, int depth,
                        Move searchmove) {
    tt_clear(bn->tt);
    search_clear(bn->searcher);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = depth;
    if (searchmove) {
        limits.searchmoves[0] = searchmove;
        limits.searchmoves_count = 1;
    }
    uint64_t rng = seed;
    SearchParams params = { .multipv = 1, .contempt_percent = 100, .level = level, .rng = &rng };
    SearchResult r;
    search_run(bn->searcher, b, NULL, 0, &limits, &params, NULL, NULL, &r);
    return r;
}

static int clamp(int v) {
    return v > MATE_CLAMP ? MATE_CLAMP : v < -MATE_CLAMP ? -MATE_CLAMP : v;
}

// What m loses against the best move at REF_DEPTH (centipawns, >= 0).
static int loss_of(Bench *bn, const Board *b, Move m) {
    int best = clamp(run(bn, b, 0, 1, REF_DEPTH, MOVE_NONE).score);
    int mine = clamp(run(bn, b, 0, 1, REF_DEPTH, m).score);
    return best > mine ? best - mine : 0;
}

static int compare_int(const void *a, const void *b) {
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

int main(int argc, char **argv) {
    int positions = argc > 1 ? atoi(argv[1]) : DEFAULT_POSITIONS;
    int seeds = argc > 2 ? atoi(argv[2]) : DEFAULT_SEEDS;
    if (positions < 1 || positions > bench_position_count() || seeds < 1) {
        fprintf(stderr, "usage: bench/skill [POSITIONS (1-%d) [SEEDS]]\n", bench_position_count());
        return 2;
    }
    board_init_tables();
    Bench bn;
    atomic_init(&bn.stop, false);
    bn.tt = tt_new(16);
    bn.searcher = bn.tt ? search_new(bn.tt, &bn.stop) : NULL;
    int *losses = malloc(sizeof *losses * (size_t)(positions * seeds));
    Board *b = malloc(sizeof *b);
    if (!bn.searcher || !losses || !b) {
        fputs("bench/skill: out of memory\n", stderr);
        return 1;
    }
    printf("%d positions x %d seeds, losses against depth %d\n", positions, seeds, REF_DEPTH);
    for (int level = 1; level < ENGINE_LEVEL_MAX; level++) {
        double nodes = 0, sum = 0;
        int n = 0;
        for (int p = 0; p < positions; p++) {
            char err[160];
            if (!board_set_fen(b, bench_position(p), err, sizeof err)) {
                fprintf(stderr, "bench/skill: bench position %d: %s\n", p, err);
                return 1;
            }
            for (int k = 0; k < seeds; k++) {
                SearchResult r = run(&bn, b, level, 77 + (uint64_t)(p * seeds + k), 0, MOVE_NONE);
                losses[n] = loss_of(&bn, b, r.best);
                nodes += (double)r.nodes;
                sum += losses[n++];
            }
        }
        qsort(losses, (size_t)n, sizeof *losses, compare_int);
        printf("level %2d  elo %4d  nodes %9.0f  loss: average %6.1f  median %4d  worst %4d\n",
               level, engine_level_elo(level), nodes / n, sum / n, losses[n / 2], losses[n - 1]);
        fflush(stdout);
    }
    free(b);
    free(losses);
    search_free(bn.searcher);
    tt_free(bn.tt);
    return 0;
}
