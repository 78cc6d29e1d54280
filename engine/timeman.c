// SPDX-License-Identifier: GPL-3.0-or-later
// Per-move time budgets from the clock.
#include "engine/timeman.h"

// Moves we plan for when the time control does not say.
enum { DEFAULT_MOVES_TO_GO = 40 };
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
    int mtg = limits->movestogo > 0 && limits->movestogo < DEFAULT_MOVES_TO_GO
                  ? limits->movestogo
                  : DEFAULT_MOVES_TO_GO;
    // What may be spent on this move without risking the flag.
    int64_t usable = max64(left - overhead_ms, TIME_MIN_MS);
    if (limits->movestogo == 1)
        usable = max64(left - overhead_ms - 10, TIME_MIN_MS);
    int64_t base = left / mtg + inc / 2;
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

void timeman_update(TimeManager *tm, int changes, int score_drop) {
    if (!tm->base_soft_ms || tm->fixed)
        return;
    double scale = 1.0 + 0.3 * changes;
    if (score_drop > 0)
        scale *= 1.0 + (score_drop > 100 ? 100 : score_drop) / 100.0;
    if (changes == 0 && score_drop <= 0)
        scale = 0.8;
    int64_t soft = (int64_t)((double)tm->base_soft_ms * scale);
    tm->soft_ms = min64(soft, tm->hard_ms);
}

bool timeman_can_start_iteration(const TimeManager *tm, int64_t now_ms) {
    if (!tm->soft_ms || tm->fixed)
        return !timeman_hard_expired(tm, now_ms);
    return (double)(now_ms - tm->start_ms) < (double)tm->soft_ms * START_SHARE;
}

bool timeman_hard_expired(const TimeManager *tm, int64_t now_ms) {
    return tm->hard_ms && now_ms - tm->start_ms >= tm->hard_ms;
}
