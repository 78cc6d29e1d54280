// SPDX-License-Identifier: GPL-3.0-or-later
// Lazy SMP: searches on several threads return legal moves, honour stop,
// node limits (summed over the threads), MultiPV and ponderhit, report from
// one thread only, and one thread stays exactly the single-threaded search.
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine/bench.h"
#include "engine/engine.h"
#include "engine/fen.h"
#include "engine/line.h"
#include "engine/movegen.h"
#include "tests/engine_capture.h"
#include "tests/helpers.h"

static const char *const MIDDLEGAME =
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

static Engine *engine_with_threads(int threads) {
    Engine *e = engine_new();
    cr_assert_not_null(e);
    char value[16], err[256] = "";
    snprintf(value, sizeof value, "%d", threads);
    cr_assert(engine_set_option(e, "Threads", value, err, sizeof err), "%s", err);
    return e;
}

static void set_fen(Engine *e, Board *b, const char *fen) {
    board_init_tables();
    test_board_from_fen(b, fen);
    engine_set_position(e, b, NULL, 0);
}

static Capture run(Engine *e, const SearchLimits *limits) {
    Capture c;
    memset(&c, 0, sizeof c);
    EngineCallbacks cb = {capture_on_info, capture_on_bestmove, &c};
    engine_go(e, limits, &cb);
    engine_wait(e);
    return c;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

Test(smp, threads_option_range) {
    Engine *e = engine_new();
    char err[256] = "", buf[16];
    cr_expect(engine_set_option(e, "Threads", "1", err, sizeof err), "%s", err);
    cr_expect(engine_set_option(e, "Threads", "256", err, sizeof err), "%s", err);
    cr_assert(engine_get_option(e, "Threads", buf, sizeof buf));
    cr_expect_str_eq(buf, "256");
    cr_expect_not(engine_set_option(e, "Threads", "0", err, sizeof err));
    cr_expect_not(engine_set_option(e, "Threads", "257", err, sizeof err));
    cr_expect(strstr(err, "1..256") != NULL, "%s", err);
    engine_free(e);
}

Test(smp, threaded_depth_search_returns_a_legal_move) {
    for (int threads = 2; threads <= 4; threads += 2) {
        Engine *e = engine_with_threads(threads);
        Board b;
        set_fen(e, &b, MIDDLEGAME);
        SearchLimits limits;
        search_limits_init(&limits);
        limits.depth = 9;
        Capture c = run(e, &limits);
        cr_expect_eq(c.bestmoves, 1, "exactly one bestmove with %d threads", threads);
        cr_expect(movegen_is_legal(&b, c.best), "%d threads: illegal best move", threads);
        cr_expect_eq(c.last.depth, 9, "the main thread reports its last depth");
        cr_expect_eq(c.max_depth, 9, "helpers do not report deeper lines");
        cr_expect_not(c.info_out_of_order, "one thread reports, in order");
        // Several threads search more nodes than the main one reported.
        cr_expect_gt(c.last.nodes, 0);
        engine_free(e);
    }
}

Test(smp, finds_a_mate_on_two_threads) {
    Engine *e = engine_with_threads(2);
    Board b;
    set_fen(e, &b, "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1");
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = 8;
    Capture c = run(e, &limits);
    cr_expect_eq(c.last.mate, 3, "mate in 3, not %d", c.last.mate);
    cr_expect(movegen_is_legal(&b, c.best));
    engine_free(e);
}

Test(smp, infinite_search_stops_on_stop) {
    Engine *e = engine_with_threads(3);
    Board b;
    set_fen(e, &b, BOARD_START_FEN);
    Capture c;
    memset(&c, 0, sizeof c);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.infinite = true;
    EngineCallbacks cb = {capture_on_info, capture_on_bestmove, &c};
    engine_go(e, &limits, &cb);
    sleep_ms(100);
    cr_expect_eq(c.bestmoves, 0, "no bestmove before stop in infinite mode");
    engine_stop(e);
    engine_wait(e); // hangs (and the test times out) if a helper does not stop
    cr_expect_eq(c.bestmoves, 1);
    cr_expect(movegen_is_legal(&b, c.best));
    cr_expect_not(engine_is_searching(e));
    engine_free(e);
}

Test(smp, ponderhit_then_clock_ends_the_search) {
    Engine *e = engine_with_threads(2);
    Board b;
    set_fen(e, &b, MIDDLEGAME);
    Capture c;
    memset(&c, 0, sizeof c);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.ponder = true;
    limits.time[WHITE] = limits.time[BLACK] = 300;
    EngineCallbacks cb = {capture_on_info, capture_on_bestmove, &c};
    engine_go(e, &limits, &cb);
    sleep_ms(50);
    cr_expect_eq(c.bestmoves, 0, "no bestmove while pondering");
    engine_ponderhit(e);
    engine_wait(e); // the clock, now running, ends the search without a stop
    cr_expect_eq(c.bestmoves, 1);
    cr_expect(movegen_is_legal(&b, c.best));
    engine_free(e);
}

Test(smp, multipv_on_two_threads_reports_distinct_lines) {
    Engine *e = engine_with_threads(2);
    cr_assert(engine_set_option(e, "MultiPV", "3", NULL, 0));
    Board b;
    set_fen(e, &b, BOARD_START_FEN);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = 7;
    Capture c = run(e, &limits);
    cr_expect_eq(c.bestmoves, 1);
    cr_expect(movegen_is_legal(&b, c.best));
    cr_expect_eq(c.infos % 3, 0, "three lines per depth, not %d infos", c.infos);
    engine_free(e);
}

// The searcher directly: the node limit holds for the sum over the threads,
// within what each thread may search between two polls of the shared count.
Test(smp, node_limit_counts_every_thread) {
    board_init_tables();
    atomic_bool stop;
    atomic_init(&stop, false);
    TTable *tt = tt_new(8);
    cr_assert_not_null(tt);
    Searcher *s = search_new(tt, &stop);
    cr_assert_not_null(s);
    enum { THREADS = 3, LIMIT = 60000, POLL = 256 };
    cr_assert_eq(search_set_threads(s, THREADS), THREADS);
    cr_expect_eq(search_threads(s), THREADS);
    Board b;
    test_board_from_fen(&b, MIDDLEGAME);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.nodes = LIMIT;
    SearchParams params = {.multipv = 1, .contempt_percent = 100};
    SearchResult r;
    search_run(s, &b, NULL, 0, &limits, &params, NULL, NULL, &r);
    cr_expect(movegen_is_legal(&b, r.best));
    cr_expect_geq(r.nodes, (uint64_t)LIMIT - (uint64_t)THREADS * 2 * POLL,
                  "the search stopped early: %llu nodes", (unsigned long long)r.nodes);
    cr_expect_leq(r.nodes, (uint64_t)LIMIT + (uint64_t)THREADS * 4 * POLL,
                  "%llu nodes for a limit of %d", (unsigned long long)r.nodes, LIMIT);
    search_free(s);
    tt_free(tt);
}

// One thread after several is the single-threaded search again: the same
// nodes and move as a searcher that never had helpers (same fresh state).
Test(smp, one_thread_again_is_deterministic) {
    board_init_tables();
    atomic_bool stop;
    atomic_init(&stop, false);
    Board b;
    test_board_from_fen(&b, MIDDLEGAME);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = 8;
    SearchParams params = {.multipv = 1, .contempt_percent = 100};
    SearchResult ref, again;

    TTable *tt = tt_new(8);
    Searcher *s = search_new(tt, &stop);
    cr_assert(s);
    search_run(s, &b, NULL, 0, &limits, &params, NULL, NULL, &ref);

    cr_assert_eq(search_set_threads(s, 2), 2);
    SearchResult two;
    search_run(s, &b, NULL, 0, &limits, &params, NULL, NULL, &two);
    cr_expect(movegen_is_legal(&b, two.best));
    cr_assert_eq(search_set_threads(s, 1), 1);
    tt_clear(tt);
    search_clear(s);
    search_run(s, &b, NULL, 0, &limits, &params, NULL, NULL, &again);
    cr_expect_eq(again.nodes, ref.nodes);
    cr_expect_eq(again.best, ref.best);
    cr_expect_eq(again.score, ref.score);
    search_free(s);
    tt_free(tt);
}
