// SPDX-License-Identifier: GPL-3.0-or-later
// Per-move time budgets from the clock.
//
// timeman_init gives a base budget (the clock over the moves to go, plus
// three quarters of the increment) and a hard limit (a multiple of it, capped by a share
// of the clock, with the overhead and low-time margins taken off). The search
// stops at once at the hard limit and starts no iteration after a share of
// the soft limit. After each iteration, timeman_update sets
//
//   soft = base * stability factor * node-share factor * score-drop factor,
//
// capped by the hard limit:
//   - stability: 1.3 when the best move just changed, 0.06 less for each
//     iteration it has stayed the same, down to 0.85: a settled move is
//     unlikely to change with one more iteration;
//   - node share: 0.5 + 2.0 * (1 - share of the nodes the best move took),
//     at least 0.55: when the best move needs few nodes its rivals are
//     refuted quickly, and when they take most of the work one may be close
//     to overtaking it;
//   - score drop: 1 + drop / 200 with the drop capped at 100 cp, so up to
//     1.5: a falling score means trouble the next iteration may solve.
// Only the soft limit moves, so fixed-depth and fixed-node searches (bench)
// are unaffected, and movetime keeps its exact budget.
#include "engine/timeman.h"

// Moves we plan for when the time control does not say: fewer than a game
// usually has left, since the increment and the moves that stop early (a
// settled best move) give back what the early moves spend.
enum { DEFAULT_MOVES_TO_GO = 28, MAX_MOVES_TO_GO = 50 };
// The hard limit may reach this multiple of the base budget...
static const double HARD_FACTOR = 4.0;
// ...but never more than this share of the time left.
static const double HARD_SHARE_OF_CLOCK = 0.4;
// An iteration is not started after this share of the soft limit: the next
// one usually costs more than all before it together.
static const double START_SHARE = 0.55;
// Below this much time on the clock a stall of the machine (another process,
// the GUI) costs more than depth gains: moves get at most an eighth of it.
enum { LOW_TIME_MS = 1000, LOW_TIME_DIVISOR = 8 };
// The soft-limit factors of timeman_update (see the top of the file).
static const double STABILITY_BASE = 1.3;
static const double STABILITY_STEP = 0.06;
static const double STABILITY_FLOOR = 0.85;
static const double NODE_SHARE_OFFSET = 0.5;
static const double NODE_SHARE_SLOPE = 2.0;
static const double NODE_SHARE_FLOOR = 0.55;
enum { SCORE_DROP_CAP = 100 };
static const double SCORE_DROP_PER_UNIT = 200.0; // cp of drop per +100% of time

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

void timeman_init(TimeManager *tm, const SearchLimits *limits, Color us, int64_t overhead_ms,
                  int64_t now_ms) {
    tm->start_ms = now_ms;
    tm->soft_ms = tm->hard_ms = tm->base_soft_ms = 0;
    tm->fixed = false;
    if (limits->infinite)
        return;
    if (limits->movetime > 0) {
        int64_t t = max64(limits->movetime - overhead_ms, TIME_MIN_MS);
        tm->soft_ms = tm->hard_ms = tm->base_soft_ms = t;
        tm->fixed = true;
        return;
    }
    int64_t left = limits->time[us];
    if (left < 0)
        return; // no clock: depth, nodes or infinite
    int64_t inc = max64(limits->inc[us], 0);
    // A sudden-death clock is planned as if DEFAULT_MOVES_TO_GO moves were left; a
    // moves-to-go clock (40 moves in 90 minutes) as it says, up to MAX_MOVES_TO_GO.
    int mtg = limits->movestogo <= 0                  ? DEFAULT_MOVES_TO_GO
              : limits->movestogo > MAX_MOVES_TO_GO ? MAX_MOVES_TO_GO
                                                    : limits->movestogo;
    // What may be spent on this move without risking the flag.
    int64_t usable = max64(left - overhead_ms, TIME_MIN_MS);
    if (limits->movestogo == 1)
        usable = max64(left - overhead_ms - 10, TIME_MIN_MS);
    int64_t base = left / mtg + inc * 3 / 4;
    base = min64(base, usable);
    base = max64(base, TIME_MIN_MS);
    int64_t hard = (int64_t)((double)base * HARD_FACTOR);
    hard = min64(hard, max64((int64_t)((double)left * HARD_SHARE_OF_CLOCK), base));
    hard = min64(hard, usable);
    if (left < LOW_TIME_MS) {
        hard = min64(hard, left / LOW_TIME_DIVISOR);
        base = min64(base, hard);
    }
    base = max64(base, TIME_MIN_MS);
    tm->base_soft_ms = tm->soft_ms = base;
    tm->hard_ms = max64(hard, TIME_MIN_MS);
}

static double max_d(double a, double b) { return a > b ? a : b; }

void timeman_update(TimeManager *tm, int stability, double best_node_share, int score_drop) {
    if (!tm->base_soft_ms || tm->fixed)
        return;
    if (stability < 0)
        stability = 0;
    double stable_factor = max_d(STABILITY_FLOOR, STABILITY_BASE - STABILITY_STEP * stability);
    double share = best_node_share < 0 ? 0 : best_node_share > 1 ? 1 : best_node_share;
    double node_factor = max_d(NODE_SHARE_FLOOR, NODE_SHARE_OFFSET + NODE_SHARE_SLOPE * (1 - share));
    int drop = score_drop < 0 ? 0 : score_drop > SCORE_DROP_CAP ? SCORE_DROP_CAP : score_drop;
    double drop_factor = 1.0 + (double)drop / SCORE_DROP_PER_UNIT;
    double soft = (double)tm->base_soft_ms * stable_factor * node_factor * drop_factor;
    int64_t soft_ms = soft >= (double)tm->hard_ms ? tm->hard_ms : (int64_t)soft;
    tm->soft_ms = max64(soft_ms, TIME_MIN_MS);
}

bool timeman_can_start_iteration(const TimeManager *tm, int64_t now_ms) {
    if (!tm->soft_ms || tm->fixed)
        return !timeman_hard_expired(tm, now_ms);
    return (double)(now_ms - tm->start_ms) < (double)tm->soft_ms * START_SHARE;
}

bool timeman_hard_expired(const TimeManager *tm, int64_t now_ms) {
    return tm->hard_ms && now_ms - tm->start_ms >= tm->hard_ms;
}
