// SPDX-License-Identifier: GPL-3.0-or-later
// What an engine search reports, caught by callbacks, for the Criterion suites
// that drive the engine (test_search, test_smp). Header-only, static inline.
#ifndef TESTS_ENGINE_CAPTURE_H
#define TESTS_ENGINE_CAPTURE_H

#include <stdbool.h>

#include "engine/engine.h"

typedef struct Capture {
    SearchInfo last;        // the last exact first line
    int infos;
    int max_depth;
    bool info_out_of_order; // an exact first line shallower than one before it
    Move best, ponder;
    int bestmoves;
} Capture;

static inline void capture_on_info(const SearchInfo *info, void *ctx) {
    Capture *c = ctx;
    if (info->multipv == 1 && info->bound == BOUND_EXACT) {
        if (info->depth < c->last.depth)
            c->info_out_of_order = true;
        c->last = *info;
    }
    if (info->depth > c->max_depth)
        c->max_depth = info->depth;
    c->infos++;
}

static inline void capture_on_bestmove(Move best, Move ponder, void *ctx) {
    Capture *c = ctx;
    c->best = best;
    c->ponder = ponder;
    c->bestmoves++;
}

#endif
