// SPDX-License-Identifier: GPL-3.0-or-later
// Time management: turns the clock into a soft limit (after which no new
// iteration starts, stretched when the best move is unstable or the score
// drops) and a hard limit (the search stops at once).
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
// Re-scales the soft limit after an iteration: `changes` counts best-move
// changes over the last iterations, `score_drop` is how far the score fell
// since the previous iteration (centipawns, 0 if it rose).
void timeman_update(TimeManager *tm, int changes, int score_drop);
// False when the next iteration should not start.
bool timeman_can_start_iteration(const TimeManager *tm, int64_t now_ms);
bool timeman_hard_expired(const TimeManager *tm, int64_t now_ms);

#endif
