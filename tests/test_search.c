// SPDX-License-Identifier: GPL-3.0-or-later
// Search tests through the engine facade: mates found with the right
// distance, draws scored as draws, contempt, limits and reproducibility.
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine/bench.h"
#include "engine/engine.h"
#include "engine/line.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/timeman.h"
#include "tests/engine_capture.h"
#include "tests/helpers.h"

// The game: a position with the moves that led to it, for repetitions.
static Line line;

// Sets up fen followed by the moves (SAN, space separated) on the global line.
static void setup(const char *fen, const char *moves) {
    board_init_tables();
    Board start;
    test_board_from_fen(&start, fen);
    line_init(&line, &start);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves ? moves : "");
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        line_play(&line, test_san_move(&line.board, tok));
}

static Capture search_depth(Engine *e, int depth) {
    Capture c;
    memset(&c, 0, sizeof c);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = depth;
    EngineCallbacks cb = { capture_on_info, capture_on_bestmove, &c };
    engine_set_position(e, &line.board, line.keys, line.ply);
    engine_go(e, &limits, &cb);
    engine_wait(e);
    cr_assert_eq(c.bestmoves, 1, "exactly one bestmove per search");
    return c;
}

static const struct {
    const char *fen;
    int mate;         // moves, positive: the side to move mates
    const char *move; // the only mating move, or NULL when several work
} mates[] = {
    { "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "d1d8" },
    { "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, "h5f7" },
    { "k7/8/1K6/8/8/8/8/7R w - - 0 1", 1, "h1h8" },
    { "1r6/8/8/8/8/8/5k1K/8 b - - 0 1", 1, "b8h8" },
    { "7k/8/5K2/8/8/8/8/6R1 w - - 0 1", 2, NULL },
    { "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, NULL },
    { "6k1/6pp/8/8/8/8/1Q6/K6R w - - 0 1", 4, NULL },
};

Test(search, finds_mates_with_the_right_distance) {
    Engine *e = engine_new();
    cr_assert_not_null(e);
    for (size_t i = 0; i < sizeof mates / sizeof mates[0]; i++) {
        setup(mates[i].fen, NULL);
        engine_new_game(e);
        Capture c = search_depth(e, 4 * mates[i].mate + 6);
        cr_expect_eq(c.last.mate, mates[i].mate, "%s: mate %d, expected %d", mates[i].fen,
                     c.last.mate, mates[i].mate);
        cr_expect_geq(c.last.score, VALUE_MATE_IN_MAX, "%s: score %d", mates[i].fen, c.last.score);
        char uci[MOVE_TEXT_MAX];
        notation_to_uci(c.best, uci);
        if (mates[i].move)
            cr_expect_str_eq(uci, mates[i].move, "%s", mates[i].fen);
        cr_expect(movegen_is_legal(&line.board, c.best));
    }
    engine_free(e);
}

Test(search, getting_mated_is_negative_mate) {
    Engine *e = engine_new();
    // Black's only move is Kb8, and Rh8# follows.
    setup("k7/8/1K6/8/8/8/8/7R b - - 0 1", NULL);
    cr_assert_eq(movegen_count(&line.board), 1);
    // Depth 8: late-move pruning may drop the quiet Rh8 at the shallowest
    // depths (trying late quiet checks in PV nodes cost -38 +/- 45 Elo).
    Capture c = search_depth(e, 8);
    cr_expect_eq(c.last.mate, -1, "mate %d", c.last.mate);
    cr_expect_leq(c.last.score, VALUE_MATED_IN_MAX);
    engine_free(e);
}

Test(search, stalemate_is_a_draw) {
    Engine *e = engine_new();
    // White mates; the tempting Qf6/Qg6-style moves that stalemate are avoided.
    setup("7k/5Q2/6K1/8/8/8/8/8 w - - 0 1", NULL);
    Capture c = search_depth(e, 6);
    cr_expect_geq(c.last.score, VALUE_MATE_IN_MAX, "white should mate, not stalemate");
    line_play(&line, c.best);
    cr_expect(!movegen_is_stalemate(&line.board));
    // A stalemated side has no move to report.
    setup("7k/8/6QK/8/8/8/8/8 b - - 0 1", NULL);
    cr_assert(movegen_is_stalemate(&line.board));
    c = search_depth(e, 4);
    cr_expect_eq(c.best, MOVE_NONE);
    // The only move stalemates the opponent: scored as a draw, 0 without contempt.
    setup("k7/2K5/8/8/8/8/8/1Q6 w - - 0 1", NULL);
    engine_set_option(e, "Contempt", "0", NULL, 0);
    engine_set_option(e, "UCI_AnalyseMode", "true", NULL, 0);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = 4;
    Move stalemating;
    cr_assert_eq(notation_parse_move(&line.board, "Qb6", &stalemating, NULL, 0), NOTATION_OK);
    limits.searchmoves[0] = stalemating;
    limits.searchmoves_count = 1;
    Capture d;
    memset(&d, 0, sizeof d);
    EngineCallbacks cb = { capture_on_info, capture_on_bestmove, &d };
    engine_set_position(e, &line.board, line.keys, line.ply);
    engine_go(e, &limits, &cb);
    engine_wait(e);
    cr_expect_eq(d.best, stalemating);
    cr_expect_eq(d.last.score, 0, "stalemate scored %d", d.last.score);
    engine_free(e);
}

// Searches only `move` (SAN) in the current position and returns the score.
static int score_of_move(Engine *e, const char *san, int depth) {
    Move m;
    cr_assert_eq(notation_parse_move(&line.board, san, &m, NULL, 0), NOTATION_OK);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = depth;
    limits.searchmoves[0] = m;
    limits.searchmoves_count = 1;
    Capture c;
    memset(&c, 0, sizeof c);
    EngineCallbacks cb = { capture_on_info, capture_on_bestmove, &c };
    engine_set_position(e, &line.board, line.keys, line.ply);
    engine_go(e, &limits, &cb);
    engine_wait(e);
    cr_assert_eq(c.best, m);
    return c.last.score;
}

Test(search, repetition_in_history_scores_as_draw_with_contempt) {
    Engine *e = engine_new();
    // Knights out and back: Black's Ng8 now makes the start position occur
    // for the third time.
    setup(BOARD_START_FEN, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    Move back;
    cr_assert_eq(notation_parse_move(&line.board, "Ng8", &back, NULL, 0), NOTATION_OK);
    line_play(&line, back);
    cr_assert_eq(line_repetitions(&line), 2);
    cr_assert(line_undo(&line));

    engine_set_option(e, "Contempt", "0", NULL, 0);
    cr_expect_eq(score_of_move(e, "Ng8", 6), 0);
    // Full contempt in the opening is 50 cp: the draw is worth -50 to the
    // side to move, which prefers to play on.
    engine_set_option(e, "Contempt", "100", NULL, 0);
    cr_expect_eq(score_of_move(e, "Ng8", 6), -50);
    Capture c = search_depth(e, 6);
    char uci[MOVE_TEXT_MAX];
    notation_to_uci(c.best, uci);
    cr_expect_neq(c.best, back, "with contempt the engine avoids the repetition (%s)", uci);
    // Analysis mode has no contempt.
    engine_set_option(e, "UCI_AnalyseMode", "true", NULL, 0);
    cr_expect_eq(score_of_move(e, "Ng8", 6), 0);
    engine_free(e);
}

Test(search, contempt_changes_the_choice_between_repeating_and_playing_on) {
    // Black, a little worse after White's extra tempo, can repeat the
    // position for the third time with Nc6. Without contempt the draw (0)
    // beats playing on; with the default contempt (50 cp in the opening) the
    // draw is worth -50 and Black plays on.
    setup(BOARD_START_FEN, "Nc3 Nc6 Nb1 Nb8 Nc3 Nc6 Nb1 Nb8 Nc3");
    Move repeat;
    cr_assert_eq(notation_parse_move(&line.board, "Nc6", &repeat, NULL, 0), NOTATION_OK);
    Engine *e = engine_new();
    engine_set_option(e, "Contempt", "0", NULL, 0);
    Capture c = search_depth(e, 10);
    cr_expect_eq(c.best, repeat, "without contempt the repetition is chosen");
    cr_expect_eq(c.last.score, 0);
    engine_new_game(e);
    engine_set_option(e, "Contempt", "100", NULL, 0);
    c = search_depth(e, 10);
    cr_expect_neq(c.best, repeat, "with contempt the engine plays on");
    cr_expect_gt(c.last.score, -50);
    engine_free(e);
}

Test(search, depth_and_nodes_limits) {
    Engine *e = engine_new();
    setup(BOARD_START_FEN, NULL);
    Capture c = search_depth(e, 5);
    cr_expect_eq(c.last.depth, 5);
    cr_expect(movegen_is_legal(&line.board, c.best));

    memset(&c, 0, sizeof c);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.nodes = 20000;
    EngineCallbacks cb = { capture_on_info, capture_on_bestmove, &c };
    engine_go(e, &limits, &cb);
    engine_wait(e);
    cr_expect_eq(c.bestmoves, 1);
    cr_expect(movegen_is_legal(&line.board, c.best));
    cr_expect_leq(c.last.nodes, 20000);
    engine_free(e);
}

Test(search, infinite_waits_for_stop) {
    Engine *e = engine_new();
    setup(BOARD_START_FEN, NULL);
    Capture c;
    memset(&c, 0, sizeof c);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.infinite = true;
    EngineCallbacks cb = { capture_on_info, capture_on_bestmove, &c };
    engine_set_position(e, &line.board, line.keys, line.ply);
    engine_go(e, &limits, &cb);
    struct timespec ts = { 0, 100 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    cr_expect_eq(c.bestmoves, 0, "no bestmove before stop in infinite mode");
    engine_stop(e);
    engine_wait(e);
    cr_expect_eq(c.bestmoves, 1);
    cr_expect(movegen_is_legal(&line.board, c.best));
    engine_free(e);
}

Test(search, time_limit_is_kept) {
    Engine *e = engine_new();
    setup("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", NULL);
    Capture c;
    memset(&c, 0, sizeof c);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.time[WHITE] = 1000;
    limits.time[BLACK] = 1000;
    limits.inc[WHITE] = limits.inc[BLACK] = 10;
    EngineCallbacks cb = { capture_on_info, capture_on_bestmove, &c };
    engine_set_position(e, &line.board, line.keys, line.ply);
    engine_go(e, &limits, &cb);
    engine_wait(e);
    cr_expect(movegen_is_legal(&line.board, c.best));
    engine_free(e);
    // What the search may spend, from the time manager (no wall clock here:
    // the time a move takes is measured by bench/latency.sh).
    TimeManager tm;
    timeman_init(&tm, &limits, WHITE, 0, 0);
    cr_expect_gt(tm.hard_ms, 0);
    cr_expect_leq(tm.hard_ms, 400, "may spend %lld ms of a 1 s clock on one move",
                  (long long)tm.hard_ms);
}

// The engine makes its table when the Hash option or the first search asks for
// it, and reads the book when a search first wants a move from it.
Test(search, hash_and_book_are_made_when_needed) {
    Engine *e = engine_new();
    cr_assert_not_null(e);
    char buf[64], err[256] = "";
    engine_new_game(e); // nothing to clear yet
    cr_assert(engine_set_option(e, "Clear Hash", "", err, sizeof err), "%s", err);
    cr_assert(engine_set_option(e, "Hash", "32", err, sizeof err), "%s", err);
    cr_assert(engine_get_option(e, "Hash", buf, sizeof buf));
    cr_expect_str_eq(buf, "32");
    cr_expect_not(engine_set_option(e, "BookFile", "/nonexistent/book.bin", err, sizeof err));
    cr_expect(strstr(err, "/nonexistent/book.bin") != NULL, "%s", err);
    setup("8/8/8/8/8/8/8/K6k w - - 0 1", NULL);
    Capture c = search_depth(e, 3);
    cr_expect_neq(c.best, MOVE_NONE);
    cr_assert(engine_set_option(e, "Hash", "8", err, sizeof err), "%s", err);
    c = search_depth(e, 3);
    cr_expect_neq(c.best, MOVE_NONE);
    engine_free(e);
}

Test(search, bench_is_reproducible) {
    BenchRunner *r = bench_runner_new();
    cr_assert_not_null(r);
    for (int i = 0; i < bench_position_count(); i += 7) {
        BenchResult a, b;
        cr_assert(bench_run_position(r, i, 7, &a));
        cr_assert(bench_run_position(r, i, 7, &b));
        cr_expect_eq(a.nodes, b.nodes, "position %d: %llu then %llu nodes", i,
                     (unsigned long long)a.nodes, (unsigned long long)b.nodes);
        cr_expect_eq(a.best, b.best);
    }
    bench_runner_free(r);
}

// ------------------------------------------------------------ blocking search

// engine_search: the lines of one complete iteration, searchmoves kept to,
// the engine's own options untouched, and the same result every time from
// an empty table with a node limit.
Test(search, blocking_search_lines_and_options) {
    Engine *e = engine_new();
    cr_assert_not_null(e);
    char err[128], buf[32];
    cr_assert(engine_set_option(e, "UCI_LimitStrength", "true", err, sizeof err), "%s", err);
    cr_assert(engine_set_option(e, "MultiPV", "3", err, sizeof err), "%s", err);
    setup(BOARD_START_FEN, "e4 e5 Qh5 Nc6 Bc4");
    engine_set_position(e, &line.board, line.keys, line.ply);

    EngineQuery q;
    engine_query_init(&q);
    q.limits.depth = 6;
    q.multipv = 2;
    Move nf6 = MOVE_NONE, g6 = MOVE_NONE;
    cr_assert_eq(notation_parse_uci(&line.board, "g8f6", &nf6), NOTATION_OK);
    cr_assert_eq(notation_parse_uci(&line.board, "g7g6", &g6), NOTATION_OK);
    q.limits.searchmoves[0] = nf6;
    q.limits.searchmoves[1] = g6;
    q.limits.searchmoves_count = 2;
    EngineResult *r = malloc(sizeof *r);
    cr_assert_not_null(r);
    cr_assert(engine_search(e, &q, r));
    cr_expect_eq(r->depth, 6);
    cr_assert_eq(r->line_count, 2, "both moves scored in the same iteration");
    cr_expect_eq(r->lines[0].pv[0], g6);
    cr_expect_eq(r->lines[1].pv[0], nf6);
    cr_expect_eq(r->lines[1].mate, -1, "3... Nf6 walks into mate");
    cr_expect_eq(r->best, g6);
    cr_expect_eq(r->score, r->lines[0].score);

    cr_assert(engine_get_option(e, "UCI_LimitStrength", buf, sizeof buf));
    cr_expect_str_eq(buf, "true", "the engine's strength is restored");
    cr_assert(engine_get_option(e, "MultiPV", buf, sizeof buf));
    cr_expect_str_eq(buf, "3");
    cr_assert(engine_get_option(e, "UCI_AnalyseMode", buf, sizeof buf));
    cr_expect_str_eq(buf, "false");

    // A node limit from an empty table: the same search twice.
    engine_query_init(&q);
    q.limits.nodes = 30000;
    q.new_game = true;
    EngineResult *again = malloc(sizeof *again);
    cr_assert_not_null(again);
    cr_assert(engine_search(e, &q, r));
    cr_assert(engine_search(e, &q, again));
    cr_expect_eq(r->best, again->best);
    cr_expect_eq(r->score, again->score);
    cr_expect_eq(r->depth, again->depth);
    cr_expect_eq(r->nodes, again->nodes);
    free(again);
    free(r);
    engine_free(e);
}

Test(search, blocking_search_without_moves) {
    Engine *e = engine_new();
    cr_assert_not_null(e);
    setup("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", NULL); // stalemate
    engine_set_position(e, &line.board, line.keys, line.ply);
    EngineQuery q;
    engine_query_init(&q);
    q.limits.depth = 3;
    EngineResult r;
    cr_expect_not(engine_search(e, &q, &r));
    cr_expect_eq(r.best, MOVE_NONE);
    cr_expect_eq(r.line_count, 0);
    engine_free(e);
}
