// SPDX-License-Identifier: GPL-3.0-or-later
// Time management: budgets from the clock, and the soft limit rescaled by
// the best move's stability, its share of the nodes and a falling score.
#include <criterion/criterion.h>

#include "engine/timeman.h"

// A clock of `left` ms (increment `inc`) for White, with the default
// 50 ms Move Overhead; the search starts at time 0.
static TimeManager clock_tm(int64_t left, int64_t inc) {
    SearchLimits limits;
    search_limits_init(&limits);
    limits.time[WHITE] = limits.time[BLACK] = left;
    limits.inc[WHITE] = limits.inc[BLACK] = inc;
    TimeManager tm;
    timeman_init(&tm, &limits, WHITE, 50, 0);
    return tm;
}

static int64_t soft_after(int64_t left, int64_t inc, int stability, double share, int drop) {
    TimeManager tm = clock_tm(left, inc);
    timeman_update(&tm, stability, share, drop);
    return tm.soft_ms;
}

Test(timeman, stable_best_move_with_high_share_stops_earlier) {
    int64_t settled = soft_after(60000, 600, 8, 0.95, 0);
    int64_t unsettled = soft_after(60000, 600, 0, 0.25, 0);
    cr_assert_lt(settled, unsettled, "settled %lld ms, unsettled %lld ms", (long long)settled,
                 (long long)unsettled);
    TimeManager tm = clock_tm(60000, 600);
    cr_assert_lt(settled, tm.base_soft_ms, "a settled move spends less than the base budget");
    cr_assert_gt(unsettled, tm.base_soft_ms, "an unsettled one spends more");
    // And the stop comes earlier in the clock, not only in the number.
    TimeManager a = clock_tm(60000, 600), b = clock_tm(60000, 600);
    timeman_update(&a, 8, 0.95, 0);
    timeman_update(&b, 0, 0.25, 0);
    int64_t t = 1;
    while (timeman_can_start_iteration(&a, t))
        t++;
    cr_assert(timeman_can_start_iteration(&b, t), "the unsettled search still goes on at %lld ms",
              (long long)t);
}

Test(timeman, each_factor_moves_the_soft_limit_the_right_way) {
    // More stable iterations: never more time, down to a floor.
    int64_t prev = soft_after(60000, 0, 0, 0.5, 0);
    for (int k = 1; k < 30; k++) {
        int64_t cur = soft_after(60000, 0, k, 0.5, 0);
        cr_assert_leq(cur, prev, "stability %d", k);
        prev = cur;
    }
    cr_assert_eq(soft_after(60000, 0, 30, 0.5, 0), soft_after(60000, 0, 1000, 0.5, 0),
                 "stability has a floor");
    // A larger share for the best move: never more time, down to a floor.
    prev = soft_after(60000, 0, 2, 0.0, 0);
    for (int i = 1; i <= 20; i++) {
        int64_t cur = soft_after(60000, 0, 2, i / 20.0, 0);
        cr_assert_leq(cur, prev, "share %d/20", i);
        prev = cur;
    }
    cr_assert_eq(soft_after(60000, 0, 2, 0.99, 0), soft_after(60000, 0, 2, 1.0, 0),
                 "node share has a floor");
    // A falling score: more time, up to a cap of 100 cp.
    int64_t flat = soft_after(60000, 0, 3, 0.6, 0);
    int64_t dropped = soft_after(60000, 0, 3, 0.6, 60);
    cr_assert_gt(dropped, flat);
    cr_assert_eq(soft_after(60000, 0, 3, 0.6, 100), soft_after(60000, 0, 3, 0.6, 900),
                 "the drop counts up to 100 cp");
    cr_assert_eq(soft_after(60000, 0, 3, 0.6, -50), flat, "a rising score counts as no drop");
}

Test(timeman, soft_limit_never_exceeds_the_hard_limit) {
    static const int64_t clocks[] = {30, 200, 900, 1500, 5000, 60000, 600000};
    static const int64_t incs[] = {0, 100, 2000};
    for (size_t c = 0; c < sizeof clocks / sizeof *clocks; c++) {
        for (size_t i = 0; i < sizeof incs / sizeof *incs; i++) {
            for (int stability = 0; stability <= 12; stability += 3) {
                for (int share = 0; share <= 4; share++) {
                    for (int drop = 0; drop <= 400; drop += 100) {
                        TimeManager tm = clock_tm(clocks[c], incs[i]);
                        int64_t hard = tm.hard_ms;
                        timeman_update(&tm, stability, share / 4.0, drop);
                        cr_assert_leq(tm.soft_ms, hard, "clock %lld inc %lld",
                                      (long long)clocks[c], (long long)incs[i]);
                        cr_assert_eq(tm.hard_ms, hard, "the hard limit does not move");
                        cr_assert_geq(tm.soft_ms, TIME_MIN_MS);
                        // Under a second left, at most an eighth of it.
                        if (clocks[c] < 1000)
                            cr_assert_leq(tm.hard_ms, clocks[c] / 8 > TIME_MIN_MS
                                                          ? clocks[c] / 8
                                                          : TIME_MIN_MS);
                        cr_assert_lt(tm.hard_ms, clocks[c] > 50 ? clocks[c] - 49 : 3,
                                     "the Move Overhead is kept");
                    }
                }
            }
        }
    }
}

Test(timeman, movetime_and_no_clock_are_left_alone) {
    SearchLimits limits;
    search_limits_init(&limits);
    limits.movetime = 1000;
    TimeManager tm;
    timeman_init(&tm, &limits, WHITE, 50, 0);
    TimeManager before = tm;
    timeman_update(&tm, 0, 0.1, 100);
    cr_assert_eq(tm.soft_ms, before.soft_ms);
    cr_assert_eq(tm.hard_ms, 950);
    cr_assert(timeman_can_start_iteration(&tm, 900), "movetime uses all of its time");
    cr_assert(timeman_hard_expired(&tm, 950));

    search_limits_init(&limits);
    limits.depth = 10;
    timeman_init(&tm, &limits, BLACK, 50, 0);
    timeman_update(&tm, 0, 0.0, 100);
    cr_assert_eq(tm.soft_ms, 0, "no clock: no soft limit");
    cr_assert_eq(tm.hard_ms, 0, "no clock: no hard limit");
    cr_assert(timeman_can_start_iteration(&tm, 1000000));
    cr_assert_not(timeman_hard_expired(&tm, 1000000));
}

Test(timeman, hard_limit_stops_and_soft_limit_stops_new_iterations) {
    TimeManager tm = clock_tm(10000, 0);
    timeman_update(&tm, 10, 1.0, 0);
    cr_assert(timeman_can_start_iteration(&tm, 0));
    cr_assert_not(timeman_can_start_iteration(&tm, tm.soft_ms));
    cr_assert_not(timeman_hard_expired(&tm, tm.hard_ms - 1));
    cr_assert(timeman_hard_expired(&tm, tm.hard_ms));
}
