// SPDX-License-Identifier: GPL-3.0-or-later
// Time management: turns the clock into a soft limit (after which no new
// iteration starts) and a hard limit (the search stops at once). After each
// iteration the soft limit is rescaled from the base budget: shorter when
// the best move has stayed the same and took most of the nodes, longer when
// it keeps changing, shares the nodes with rivals, or the score drops.
#ifndef ENGINE_TIMEMAN_H
#define ENGINE_TIMEMAN_H

#include "engine/search.h"

typedef struct TimeManager {
    int64_t start_ms;
    int64_t soft_ms;  // budget for starting new iterations, 0 when unlimited
    int64_t hard_ms;  // absolute stop, 0 when unlimited
    int64_t base_soft_ms;
    bool fixed;       // movetime: use all of it
} TimeManager;

// Smallest budget a move is given, so that at least a shallow search runs.
enum { TIME_MIN_MS = 2 };

void timeman_init(TimeManager *tm, const SearchLimits *limits, Color us, int64_t overhead_ms,
                  int64_t now_ms);
// Re-scales the soft limit after a completed iteration. `stability`: the
// iterations in a row (before this one) that ended with the same best move,
// 0 when it just changed; `best_node_share`: the part (0..1) of the search's
// nodes spent on the best move; `score_drop`: how far the score fell below
// that of earlier iterations (centipawns, 0 or less if it did not). The soft
// limit never exceeds the hard one; with movetime or no clock nothing changes.
void timeman_update(TimeManager *tm, int stability, double best_node_share, int score_drop);
// False when the next iteration should not start.
bool timeman_can_start_iteration(const TimeManager *tm, int64_t now_ms);
bool timeman_hard_expired(const TimeManager *tm, int64_t now_ms);

#endif
