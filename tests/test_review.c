// SPDX-License-Identifier: GPL-3.0-or-later
// Game review: the judging thresholds, score text, engine reviews of games
// with unambiguous blunders (walking into mate, a hanging queen), the
// annotation written into the game, and the PGN building functions it uses
// (NAGs, comments, variations) through a write and read round trip.
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/fen.h"
#include "src/game/review.h"
#include "src/game/theory.h"
#include "src/pgn/pgn.h"
#include "src/util/netfile.h"
#include "tests/helpers.h"
#include "tests/pgn_helpers.h"

// The first game of the fixture walks into Scholar's mate (3...Nf6?? 4.Qxf7#),
// the second leaves the queen to a bishop (2.Qg4?? Bxg4).
static const char SCHOLAR[] = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
static const char HANGING[] = "1. e4 d5 2. Qg4 Bxg4 3. f3 Bh5 0-1\n";

static Move parse(const Board *at, const char *san) {
    Board *b = malloc(sizeof *b);
    cr_assert_not_null(b);
    memcpy(b, at, sizeof *b);
    Move m;
    char err[256];
    cr_assert_eq(notation_parse_move(b, san, &m, err, sizeof err), NOTATION_OK, "%s: %s", san, err);
    free(b);
    return m;
}

static Engine *new_engine(void) {
    Engine *e = engine_new();
    cr_assert_not_null(e);
    return e;
}

// Short searches keep the test fast; the depth cap keeps them repeatable.
// A fixed depth, not a movetime: the same marks on a loaded or sanitized build.
static const ReviewOptions QUICK = { .depth = 10 };

static ReviewPly *review(Engine *e, const PgnGame *g, const ReviewOptions *opt) {
    int n = pgn_mainline_length(g);
    ReviewPly *plies = calloc((size_t)n, sizeof *plies);
    cr_assert_not_null(plies);
    cr_assert_eq(review_game(e, g, opt, plies), n);
    return plies;
}

// ---------------------------------------------------------------- judging

// review_judge on lichess's own scale (a pawn is 100), whatever REVIEW_WC_PAWN is.
static int judge100(int best, int played, int *loss, int *loss_wc) {
    return review_judge_scaled(best, played, 100, loss, loss_wc);
}

// Winning chances lost, in tenths of a point of win% (lichess's formula,
// centipawns capped at 1000): 5.0 for ?!, 10.0 for ?, 15.0 for ??.
Test(review, judge_thresholds) {
    int loss = -1, wc = -1;
    cr_expect_eq(judge100(30, 20, &loss, &wc), 0);
    cr_expect_eq(loss, 10);
    cr_expect_lt(wc, 20);
    cr_expect_eq(judge100(30, 60, &loss, &wc), 0, "a better score than the best is no loss");
    cr_expect_eq(loss, 0);
    cr_expect_eq(wc, 0);
    cr_expect_eq(judge100(30, -20, NULL, &wc), 0);
    cr_expect_eq(wc, 46);
    cr_expect_eq(judge100(30, -30, &loss, NULL), REVIEW_NAG_INACCURACY);
    cr_expect_eq(loss, 60);
    cr_expect_eq(judge100(30, -70, NULL, NULL), REVIEW_NAG_INACCURACY);
    cr_expect_eq(judge100(30, -90, NULL, NULL), REVIEW_NAG_MISTAKE);
    cr_expect_eq(judge100(30, -130, NULL, NULL), REVIEW_NAG_MISTAKE);
    cr_expect_eq(judge100(30, -150, NULL, NULL), REVIEW_NAG_BLUNDER);
    cr_expect_eq(judge100(-100, -900, NULL, NULL), REVIEW_NAG_BLUNDER);
    // The cap of 1000 is reached at 2,000 of a scale whose pawn is 100: beyond
    // the knee at 500 a centipawn counts 35% of one (REVIEW_KNEE_*).
    double even = review_win_percent_scaled(0, 100), won = review_win_percent_scaled(2000, 100);
    cr_expect(even > 49.99 && even < 50.01, "%f", even);
    cr_expect(won > 97 && won < 98, "%f", won);
    cr_expect_eq(review_win_percent_scaled(5000, 100), won, "capped at 1000");
    cr_expect_lt(review_win_percent_scaled(1000, 100), won);
}

// lichess's curve itself, for the scale's knee below.
static double lichess_win(double cp) {
    cp = cp > 1000 ? 1000 : cp < -1000 ? -1000 : cp;
    return 50.0 + 50.0 * (2.0 / (1.0 + exp(-0.00368208 * cp)) - 1.0);
}

// Up to REVIEW_KNEE_CP (500 on lichess's scale) a score is converted in
// proportion; beyond, each centipawn counts REVIEW_KNEE_PERCENT (35%) of one,
// on both sides and whatever the scale.
Test(review, judge_knee) {
    cr_expect_eq(REVIEW_KNEE_CP, 500);
    cr_expect_eq(REVIEW_KNEE_PERCENT, 35);
    cr_expect_float_eq(review_win_percent_scaled(400, 100), lichess_win(400), 1e-9);
    cr_expect_float_eq(review_win_percent_scaled(500, 100), lichess_win(500), 1e-9);
    cr_expect_float_eq(review_win_percent_scaled(700, 100), lichess_win(570), 1e-9);
    cr_expect_float_eq(review_win_percent_scaled(-1100, 100), lichess_win(-710), 1e-9);
    cr_expect_float_eq(review_win_percent_scaled(1400, 200), lichess_win(570), 1e-9,
                       "the knee is on lichess's scale: 1000 of a scale twice as large");
    cr_expect_float_eq(review_win_percent_scaled(640, 80), lichess_win(605), 1e-9);
    // A side lost by 4 pawns that "loses" 4 more: a mistake by the straight
    // line, an inaccuracy by the knee; the same 4 pawns from 0 stay a blunder.
    cr_expect_gt(lichess_win(-400) - lichess_win(-800), 10.0);
    cr_expect_eq(judge100(-400, -800, NULL, NULL), REVIEW_NAG_INACCURACY);
    cr_expect_eq(judge100(800, 400, NULL, NULL), REVIEW_NAG_INACCURACY);
    cr_expect_eq(judge100(0, -400, NULL, NULL), REVIEW_NAG_BLUNDER);
}

// The same centipawns weigh less as a position is more decided.
Test(review, judge_decided_positions) {
    cr_expect_eq(judge100(0, -100, NULL, NULL), REVIEW_NAG_INACCURACY, "balanced");
    cr_expect_eq(judge100(400, 300, NULL, NULL), REVIEW_NAG_INACCURACY);
    cr_expect_eq(judge100(800, 700, NULL, NULL), 0, "won either way");
    cr_expect_eq(judge100(2000, 1200, NULL, NULL), 0, "beyond the cap");
    cr_expect_eq(judge100(1500, 600, NULL, NULL), REVIEW_NAG_INACCURACY, "less won");
    cr_expect_eq(judge100(-600, -1400, NULL, NULL), REVIEW_NAG_INACCURACY, "more lost");
    cr_expect_eq(judge100(700, 200, NULL, NULL), REVIEW_NAG_BLUNDER, "winning no more");
    cr_expect_eq(judge100(-300, -700, NULL, NULL), REVIEW_NAG_MISTAKE, "now lost");
}

// patzer's scores are converted to lichess's scale before its curve:
// wc_pawn of them weigh what 100 weigh there, the cap scales with them, and
// a value out of range means the default.
Test(review, judge_scale) {
    cr_expect_eq(review_win_percent_scaled(300, 200), review_win_percent_scaled(150, 100));
    cr_expect_eq(review_win_percent_scaled(-300, 150), review_win_percent_scaled(-200, 100));
    cr_expect_eq(review_win_percent_scaled(2000, 200), review_win_percent_scaled(1000, 100),
                 "the cap is 1000 on lichess's scale, 2000 of a scale twice as large");
    cr_expect_lt(review_win_percent_scaled(1900, 200), review_win_percent_scaled(2000, 200));
    cr_expect_eq(review_win_percent(250), review_win_percent_scaled(250, REVIEW_WC_PAWN));
    cr_expect_eq(review_win_percent_scaled(250, 0), review_win_percent(250), "0: the default");
    cr_expect_eq(review_win_percent_scaled(250, 5000), review_win_percent(250));
    // Twice the scale: the same loss needs twice the centipawns.
    cr_expect_eq(judge100(30, -130, NULL, NULL), REVIEW_NAG_MISTAKE);
    cr_expect_eq(review_judge_scaled(30, -130, 200, NULL, NULL), REVIEW_NAG_INACCURACY);
    cr_expect_eq(review_judge_scaled(60, -260, 200, NULL, NULL), REVIEW_NAG_MISTAKE);
    int wc100, wc200;
    (void)judge100(100, -100, NULL, &wc100);
    (void)review_judge_scaled(200, -200, 200, NULL, &wc200);
    cr_expect_eq(wc100, wc200);
    cr_expect_eq(review_judge(30, -130, NULL, NULL),
                 review_judge_scaled(30, -130, REVIEW_WC_PAWN, NULL, NULL));
    // The mates' thresholds scale too: a mate given up for 700 is a mistake
    // on lichess's scale, a blunder where 700 is worth less than 500 there.
    int m3 = REVIEW_MATE - 3;
    cr_expect_eq(judge100(m3, 700, NULL, NULL), REVIEW_NAG_MISTAKE);
    cr_expect_eq(review_judge_scaled(m3, 700, 200, NULL, NULL), REVIEW_NAG_BLUNDER);
    cr_expect_eq(review_judge_scaled(-700, -(REVIEW_MATE - 2), 200, NULL, NULL),
                 REVIEW_NAG_BLUNDER);
    cr_expect_eq(review_judge_scaled(-1500, -(REVIEW_MATE - 2), 200, NULL, NULL),
                 REVIEW_NAG_MISTAKE);
}

Test(review, judge_mates) {
    int m3 = REVIEW_MATE - 3;
    cr_expect_eq(judge100(m3, 100, NULL, NULL), REVIEW_NAG_BLUNDER, "mate given up");
    cr_expect_eq(judge100(m3, 700, NULL, NULL), REVIEW_NAG_MISTAKE);
    cr_expect_eq(judge100(m3, 1500, NULL, NULL), REVIEW_NAG_INACCURACY);
    cr_expect_eq(judge100(m3, REVIEW_MATE - 6, NULL, NULL), 0, "a slower mate");
    cr_expect_eq(judge100(0, -(REVIEW_MATE - 1), NULL, NULL), REVIEW_NAG_BLUNDER, "into a mate");
    cr_expect_eq(judge100(-700, -(REVIEW_MATE - 2), NULL, NULL), REVIEW_NAG_MISTAKE);
    cr_expect_eq(judge100(-1500, -(REVIEW_MATE - 2), NULL, NULL), REVIEW_NAG_INACCURACY);
    cr_expect_eq(judge100(-(REVIEW_MATE - 5), -(REVIEW_MATE - 1), NULL, NULL), 0, "mated anyway");
    int loss;
    cr_expect_eq(judge100(m3, -(REVIEW_MATE - 2), &loss, NULL), REVIEW_NAG_BLUNDER);
    cr_expect_eq(loss, 2 * REVIEW_LOSS_CAP);
}

Test(review, format_score) {
    char buf[32];
    review_format_score(35, buf, sizeof buf);
    cr_expect_str_eq(buf, "+0.35");
    review_format_score(-120, buf, sizeof buf);
    cr_expect_str_eq(buf, "-1.20");
    review_format_score(0, buf, sizeof buf);
    cr_expect_str_eq(buf, "0.00");
    review_format_score(REVIEW_MATE - 3, buf, sizeof buf);
    cr_expect_str_eq(buf, "#3");
    review_format_score(-(REVIEW_MATE - 2), buf, sizeof buf);
    cr_expect_str_eq(buf, "#-2");
    review_format_score(REVIEW_MATE, buf, sizeof buf);
    cr_expect_str_eq(buf, "#0");
    cr_expect_str_eq(review_nag_word(REVIEW_NAG_BLUNDER), "Blunder");
    cr_expect_str_eq(review_nag_word(REVIEW_NAG_MISTAKE), "Mistake");
    cr_expect_str_eq(review_nag_word(REVIEW_NAG_INACCURACY), "Inaccuracy");
    cr_expect_null(review_nag_word(0));
}

// ---------------------------------------------------------------- engine reviews

Test(review, walking_into_mate_is_a_blunder) {
    Engine *e = new_engine();
    PgnGame *g = test_read_game(SCHOLAR);
    ReviewPly *p = review(e, g, &QUICK);

    // 3...Nf6?? allows mate in one.
    cr_expect_eq(p[5].nag, REVIEW_NAG_BLUNDER);
    cr_expect_eq(p[5].mate_white, 1);
    cr_expect_eq(p[5].score_white, REVIEW_MATE - 1);
    cr_expect_neq(p[5].best, p[5].played);
    cr_expect_gt(p[5].best_line_len, 0);
    cr_expect_eq(p[5].best_line[0], p[5].best);
    cr_expect_gt(p[5].best_score_white, -REVIEW_DECIDED_CP, "Black was not lost before");
    cr_expect_eq(p[5].loss, REVIEW_LOSS_CAP - p[5].best_score_white, "Black's view");
    // 4.Qxf7# is the engine's own move and mates.
    cr_expect_eq(p[6].nag, 0);
    cr_expect_eq(p[6].best, p[6].played);
    cr_expect_eq(p[6].score_white, REVIEW_MATE);
    cr_expect_eq(p[6].best_mate_white, 1);
    cr_expect_eq(p[6].loss, 0);
    // Sound opening moves are not marked, and the scores are near level.
    for (int i = 0; i < 2; i++) {
        cr_expect_eq(p[i].nag, 0, "ply %d", i);
        cr_expect_lt(abs(p[i].score_white), 150, "ply %d: %d", i, p[i].score_white);
    }
    free(p);
    pgn_game_free(g);
    engine_free(e);
}

Test(review, hanging_queen_is_a_blunder) {
    Engine *e = new_engine();
    PgnGame *g = test_read_game(HANGING);
    ReviewPly *p = review(e, g, &QUICK);

    cr_expect_eq(p[2].nag, REVIEW_NAG_BLUNDER, "2.Qg4?? gets %d", p[2].nag);
    cr_expect_lt(p[2].score_white, -REVIEW_DECIDED_CP, "Black wins after it: %d", p[2].score_white);
    cr_expect_gt(p[2].best_score_white, -100);
    cr_expect_geq(p[2].loss_wc, REVIEW_BLUNDER_WC);
    cr_expect_gt(p[2].loss, 300, "a queen in centipawns");
    cr_expect_eq(p[2].mate_white, 0);
    // 2...Bxg4 takes it: the engine's move, still winning for Black.
    cr_expect_eq(p[3].nag, 0);
    cr_expect_eq(p[3].played, p[3].best);
    cr_expect_lt(p[3].score_white, -REVIEW_DECIDED_CP);
    // Black's best score before 2...Bxg4 is Black's advantage too.
    cr_expect_lt(p[3].best_score_white, -REVIEW_DECIDED_CP);
    for (int i = 3; i < 6; i++)
        cr_expect_eq(p[i].nag, 0, "ply %d: decided and still decided", i);
    free(p);
    pgn_game_free(g);
    engine_free(e);
}

Test(review, annotation_marks_and_variation) {
    Engine *e = new_engine();
    PgnGame *g = test_read_game(SCHOLAR);
    ReviewPly *p = review(e, g, &QUICK);
    cr_assert(review_annotate(g, p, pgn_mainline_length(g)));

    const PgnNode *n = pgn_mainline_node(g, 5);
    cr_assert_eq(n->nag_count, 1);
    cr_expect_eq(n->nags[0], REVIEW_NAG_BLUNDER);
    cr_assert_not_null(n->comment);
    // A sentence from White's view: before and after, and the better move.
    cr_expect(strncmp(n->comment, "Blunder (", 9) == 0, "%s", n->comment);
    cr_expect(strstr(n->comment, " to #1). Better was 3... "), "%s", n->comment);
    cr_assert_not_null(n->variation);
    cr_expect_eq(n->variation->move, p[5].best);
    cr_expect_eq(n->variation->ply, 5);
    cr_assert_not_null(n->variation->comment);
    char eval[32];
    review_format_score(p[5].best_score_white, eval, sizeof eval);
    cr_expect_str_eq(n->variation->comment, eval);
    // Unmarked moves get their evaluation only; the mate none.
    const PgnNode *first = pgn_mainline_node(g, 0);
    cr_expect_eq(first->nag_count, 0);
    cr_expect_null(first->variation);
    review_format_score(p[0].score_white, eval, sizeof eval);
    cr_expect_str_eq(first->comment, eval);
    cr_expect_null(pgn_mainline_node(g, 6)->comment);

    // The written game reads back the same.
    char *text = pgn_write_string(g, NULL);
    cr_assert_not_null(text);
    cr_expect_not_null(strstr(text, "Nf6 $4 {Blunder ("), "%s", text);
    PgnGame *back = test_read_game(text);
    const PgnNode *m = pgn_mainline_node(back, 5);
    cr_expect_eq(m->nag_count, 1);
    cr_expect_str_eq(m->comment, n->comment);
    cr_assert_not_null(m->variation);
    cr_expect_eq(m->variation->move, p[5].best);
    char *again = pgn_write_string(back, NULL);
    cr_assert_not_null(again);
    cr_expect_str_eq(again, text);
    free(again);
    free(text);
    pgn_game_free(back);
    free(p);
    pgn_game_free(g);
    engine_free(e);
}

static bool count_progress(int done, int total, void *ctx) {
    int *calls = ctx;
    cr_expect_eq(done, calls[0], "progress in order");
    cr_expect_eq(total, 7);
    calls[0]++;
    return done < calls[1];
}

Test(review, progress_and_stop) {
    Engine *e = new_engine();
    PgnGame *g = test_read_game(SCHOLAR);
    int calls[2] = { 0, 100 };
    ReviewOptions opt = { .depth = 3, .progress = count_progress, .ctx = calls };
    ReviewPly plies[7];
    cr_expect_eq(review_game(e, g, &opt, plies), 7);
    cr_expect_eq(calls[0], 8, "once before and once per move");
    calls[0] = 0;
    calls[1] = 2;
    cr_expect_eq(review_game(e, g, &opt, plies), 2, "stopped after two moves");
    ReviewOptions none = { 0 };
    cr_expect_eq(review_game(e, g, &none, plies), -1, "no limit");
    pgn_game_free(g);
    engine_free(e);
}

Test(review, passes_null_moves) {
    Engine *e = new_engine();
    PgnGame *g = test_read_game("1. e4 d5 2. e5 f5 3. -- Nc6 (3... Kf7) 4. d4 1-0");
    ReviewOptions opt = { .depth = 2 };
    ReviewPly *p = review(e, g, &opt);
    cr_expect_eq(p[4].played, MOVE_NULL);
    cr_expect_eq(p[4].nag, 0, "a null move is not judged");
    cr_expect_eq(p[5].played, pgn_mainline_move(g, 5));
    cr_assert(review_annotate(g, p, pgn_mainline_length(g)));
    cr_expect_str_eq(pgn_mainline_san(g, 4), "--");
    free(p);
    pgn_game_free(g);
    engine_free(e);
}

// ---------------------------------------------------------------- other evaluators

// An evaluator that plays a scripted engine: it says White mates in 2 at
// every position, its best move is e4 with an illegal second move in the
// PV, and it fails at search fail_at (-1: never).
typedef struct Fake {
    int searches, begun, ended, fail_at;
    int last_ply;
} Fake;

static bool fake_begin(void *ctx) {
    ((Fake *)ctx)->begun++;
    return true;
}

static void fake_end(void *ctx) {
    ((Fake *)ctx)->ended++;
}

static bool fake_search(void *ctx, int worker, const Line *l, const SearchLimits *limits,
                        int multipv, ReviewSearch *out) {
    Fake *f = ctx;
    cr_expect_eq(worker, 0, "one worker unless the evaluator has more");
    cr_expect_eq(multipv, 1, "the quick pass asks one line");
    cr_expect_eq(limits->movetime, 25, "the review's limit is passed on");
    if (f->searches++ == f->fail_at)
        return false;
    f->last_ply = l->ply;
    Board b = l->board;
    out->line_count = 1;
    out->lines[0].mate = b.side == WHITE ? 2 : -2;
    out->depth = 7;
    Move m = MOVE_NONE;
    for (const char *const *san = (const char *const[]){ "e4", "Nf3", "Nf6", "Nc6", NULL }; *san;
         san++) {
        char err[64];
        if (notation_parse_move(&b, *san, &m, err, sizeof err) == NOTATION_OK)
            break;
    }
    out->best = m;
    out->lines[0].pv[0] = m;
    out->lines[0].pv[1] = m; // the same move again: not legal after it
    out->lines[0].pv_length = 2;
    return true;
}

Test(review, another_evaluator_is_used_and_checked) {
    PgnGame *g = test_read_game("1. e4 e5 2. Nf3 *\n");
    Fake f = { .fail_at = -1 };
    ReviewEvaluator ev = { .search = fake_search, .begin = fake_begin, .end = fake_end, .ctx = &f };
    ReviewOptions opt = { .movetime_ms = 25 };
    ReviewPly p[3];
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 3);
    cr_expect_eq(f.searches, 4, "one search per position");
    cr_expect_eq(f.begun, 1);
    cr_expect_eq(f.ended, 1);
    cr_expect_eq(f.last_ply, 3, "the game's moves come with the position");
    cr_expect_eq(p[0].best_mate_white, 2, "the score is turned to White's view");
    cr_expect_eq(p[0].best_score_white, REVIEW_MATE - 2);
    cr_expect_eq(p[0].score_white, REVIEW_MATE - 2, "Black to move and mated: White's view");
    cr_expect_eq(p[0].mate_white, 2);
    cr_expect_eq(p[0].best_line_len, 1, "the line stops at its illegal move");
    cr_expect_eq(p[0].depth, 7);

    f = (Fake){ .fail_at = 2 };
    cr_expect_eq(review_game_with(&ev, g, &opt, p), -1, "a failed search ends the review");
    cr_expect_eq(f.searches, 3);
    cr_expect_eq(f.ended, 1, "end is called after a failure too");
    pgn_game_free(g);
}

Test(review, engine_options_restored) {
    Engine *e = new_engine();
    char err[128], buf[32];
    cr_assert(engine_set_option(e, "UCI_LimitStrength", "true", err, sizeof err), "%s", err);
    cr_assert(engine_set_option(e, "UCI_Elo", "1234", err, sizeof err), "%s", err);
    PgnGame *g = test_read_game(HANGING);
    ReviewOptions opt = { .depth = 2 };
    ReviewPly plies[6];
    cr_expect_eq(review_game(e, g, &opt, plies), 6);
    cr_assert(engine_get_option(e, "UCI_LimitStrength", buf, sizeof buf));
    cr_expect_str_eq(buf, "true");
    cr_assert(engine_get_option(e, "UCI_Elo", buf, sizeof buf));
    cr_expect_str_eq(buf, "1234");
    cr_assert(engine_get_option(e, "UCI_AnalyseMode", buf, sizeof buf));
    cr_expect_str_eq(buf, "false");
    pgn_game_free(g);
    engine_free(e);
}

Test(review, empty_game) {
    Engine *e = new_engine();
    PgnGame *g = test_read_game("[Event \"none\"]\n\n*\n");
    ReviewPly plies[1];
    cr_expect_eq(review_game(e, g, &QUICK, plies), 0);
    cr_expect(review_annotate(g, plies, 0));
    pgn_game_free(g);
    engine_free(e);
}

// ---------------------------------------------------------------- PGN building

Test(review, pgn_building_round_trip) {
    PgnGame *g = test_read_game("1. e4 {kept} e5 2. Nf3 Nc6 *\n");
    Board b;
    cr_assert(pgn_position_at(g, 1, &b));
    Move alt[3] = { parse(&b, "c5"), MOVE_NONE, MOVE_NONE };
    board_play(&b, alt[0]);
    alt[1] = parse(&b, "Nf3");
    board_play(&b, alt[1]);
    alt[2] = parse(&b, "d6");

    cr_expect(pgn_mainline_add_nag(g, 1, 6));
    cr_expect(pgn_mainline_add_nag(g, 1, 6), "the same NAG twice is one");
    cr_expect(pgn_mainline_add_nag(g, 1, 18));
    cr_expect(pgn_mainline_append_comment(g, 0, "  +0.30 \n more "));
    cr_expect(pgn_mainline_append_comment(g, 1, "first"));
    cr_expect(pgn_mainline_append_comment(g, 1, "second"));
    cr_expect(pgn_mainline_append_comment(g, 1, "   "), "blank text changes nothing");
    cr_expect(pgn_mainline_add_variation(g, 1, alt, 3, " sharp\n"));
    cr_expect(pgn_mainline_add_variation(g, 1, alt, 1, NULL));

    // Failures change nothing.
    cr_expect_not(pgn_mainline_add_nag(g, 4, 1));
    cr_expect_not(pgn_mainline_add_nag(g, -1, 1));
    cr_expect_not(pgn_mainline_add_nag(g, 0, 0));
    cr_expect_not(pgn_mainline_add_nag(g, 0, 256));
    cr_expect_not(pgn_mainline_append_comment(g, 4, "x"));
    cr_expect_not(pgn_mainline_add_variation(g, 0, alt, 3, NULL), "c5 is not White's");
    cr_expect_not(pgn_mainline_add_variation(g, 1, alt + 1, 2, NULL), "nor Nf3 Black's");
    cr_expect_not(pgn_mainline_add_variation(g, 1, alt, 0, NULL));
    cr_expect_not(pgn_mainline_add_variation(g, 9, alt, 1, NULL));
    cr_expect_null(pgn_mainline_node(g, 0)->variation);

    char *text = pgn_write_string(g, NULL);
    cr_assert_not_null(text);
    char *flat = strdup(text);
    cr_assert_not_null(flat);
    for (char *c = flat; *c; c++)
        if (*c == '\n')
            *c = ' ';
    cr_expect_not_null(strstr(flat, "1. e4 {kept +0.30 more} 1... e5 $6 $18 {first second} "
                                    "(1... c5 {sharp} 2. Nf3 d6) (1... c5) 2. Nf3 Nc6 *"),
                       "%s", text);
    free(flat);
    PgnGame *back = test_read_game(text);
    const PgnNode *n = pgn_mainline_node(back, 1);
    cr_expect_eq(n->nag_count, 2);
    cr_expect_str_eq(n->comment, "first second");
    cr_assert_not_null(n->variation);
    cr_expect_str_eq(n->variation->san, "c5");
    cr_expect_eq(n->variation->ply, 1);
    cr_expect_str_eq(n->variation->comment, "sharp");
    cr_assert_not_null(n->variation->next);
    cr_expect_eq(n->variation->next->ply, 2);
    cr_assert_not_null(n->variation->next_variation);
    cr_expect_null(n->variation->next_variation->next);
    char *again = pgn_write_string(back, NULL);
    cr_assert_not_null(again);
    cr_expect_str_eq(again, text);
    free(again);
    free(text);
    pgn_game_free(back);
    pgn_game_free(g);
}

Test(review, nag_list_full) {
    PgnGame *g = test_read_game("1. e4 *\n");
    for (int i = 1; i <= PGN_MAX_NAGS; i++)
        cr_expect(pgn_mainline_add_nag(g, 0, 10 + i));
    cr_expect_not(pgn_mainline_add_nag(g, 0, 1));
    cr_expect(pgn_mainline_add_nag(g, 0, 11), "already there");
    cr_expect_eq(pgn_mainline_node(g, 0)->nag_count, PGN_MAX_NAGS);
    pgn_game_free(g);
}

Test(review, fixture_file_reads) {
    char err[256], path[1024];
    snprintf(path, sizeof path, "%s/pgn/review_blunders.pgn", test_data_dir());
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    PgnGame *g = pgn_game_new();
    cr_assert_not_null(g);
    PgnError e;
    cr_expect_eq(pgn_reader_next(r, g, &e), 1);
    cr_expect_eq(pgn_mainline_length(g), 7);
    cr_expect_eq(pgn_reader_next(r, g, &e), 1);
    cr_expect_eq(pgn_mainline_length(g), 6);
    cr_expect_eq(pgn_reader_next(r, g, &e), 0);
    pgn_game_free(g);
    pgn_reader_close(r);
}

#ifndef TEST_OPENINGS
#define TEST_OPENINGS "data/openings.txt"
#endif

// Theory is no error: the moves the caller names theory are never marked,
// whatever the search thinks of them.
Test(review, theory_is_never_marked) {
    Engine *e = new_engine();
    PgnGame *g = test_read_game(HANGING);
    ReviewOptions opt = QUICK;
    opt.book_plies = 3; // as if 2. Qg4 were in a book
    ReviewPly *p = review(e, g, &opt);
    cr_expect(p[2].theory);
    cr_expect_eq(p[2].nag, 0, "2. Qg4 is theory here");
    cr_expect_gt(p[2].loss_wc, REVIEW_BLUNDER_WC, "though it loses the queen");
    cr_expect_not(p[3].theory);
    free(p);
    pgn_game_free(g);
    engine_free(e);
}

// The moves that reach named opening lines are theory, up to the first that
// does not; a game from a set-up position has none.
Test(review, theory_follows_the_named_lines) {
    char err[256] = "";
    Openings *o = openings_load(TEST_OPENINGS, err, sizeof err);
    cr_assert_not_null(o, "%s", err);
    PgnGame *g = test_read_game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. g4 Nf6 *\n");
    cr_expect_eq(theory_plies(g, o, NULL), 6, "the Ruy Lopez up to 3... a6");
    pgn_game_free(g);
    g = test_read_game("[SetUp \"1\"]\n[FEN \"" BOARD_START_FEN "\"]\n\n1. h4 *\n");
    cr_expect_eq(theory_plies(g, o, NULL), 1,
                 "the standard position, given as a FEN: 1. h4 is named");
    pgn_game_free(g);
    g = test_read_game("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *\n");
    cr_expect_eq(theory_plies(g, o, NULL), 0, "a set-up position has no theory");
    pgn_game_free(g);
    openings_free(o);
}

// ---------------------------------------------------------------- checked marks

// A real game with several mistakes (lichess.org/LDMb6LzZ, two players
// rated about 900: bench/data/review_games.pgn).
static const char AMATEUR[] =
    "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Qe2 Qxe2+ 5. Bxe2 e6 6. Nf3 Bc5 7. d4 Bb4 "
    "8. Bb5+ c6 9. Ba4 b5 10. Bxb5 cxb5 11. O-O Bxc3 12. bxc3 Nf6 13. Bg5 O-O 14. Rfe1 "
    "Ng4 15. h3 Nh6 16. Be7 Re8 17. Bd6 Nd7 18. Ne5 Nxe5 19. dxe5 Nf5 20. Rad1 Bb7 "
    "21. Be7 Rxe7 22. Rd8+ 1-0\n";

static ReviewOptions defaults(void) {
    ReviewOptions opt;
    review_options_default(&opt);
    return opt;
}

// The limits of the quick pass's searches, as an evaluator sees them.
typedef struct QuickLimits {
    int searches;
    uint64_t nodes;
    int64_t movetime;
    int depth;
} QuickLimits;

static bool record_search(void *ctx, int worker, const Line *l, const SearchLimits *limits,
                          int multipv, ReviewSearch *out) {
    (void)worker;
    (void)l;
    QuickLimits *q = ctx;
    q->searches++;
    q->nodes = limits->nodes;
    q->movetime = limits->movetime;
    q->depth = limits->depth;
    cr_expect_eq(multipv, 1);
    memset(out, 0, sizeof *out); // found nothing: nothing to check
    return true;
}

// By default the quick pass searches 400,000 nodes a position: at 200,000
// it found 0.64 of Stockfish's mistakes on the 26 benchmark games, at
// 400,000 0.70, more precisely (bench/results/2026-11-27-review-judge-5.md).
Test(review, the_quick_pass_searches_400000_nodes_by_default) {
    PgnGame *g = test_read_game("1. e4 e5 *\n");
    QuickLimits q = { 0 };
    ReviewEvaluator ev = { .search = record_search, .ctx = &q };
    ReviewOptions opt = defaults();
    ReviewPly p[2];
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(q.searches, 3, "every position once");
    cr_expect_eq(q.nodes, 400000);
    cr_expect_eq(q.movetime, 0);
    cr_expect_eq(q.depth, 0);
    cr_expect_eq(opt.verify_nodes, 1000000, "a check searches 1,000,000");
    pgn_game_free(g);
}

// At the default settings a blunder is marked, by the check, with a better
// move that the check scored better than the move played.
Test(review, a_blunder_is_marked_with_a_better_move_that_verifies) {
    Engine *e = new_engine();
    PgnGame *g = test_read_game(HANGING);
    ReviewOptions opt = defaults();
    ReviewPly *p = review(e, g, &opt);
    const ReviewPly *q = &p[2]; // 2. Qg4??
    cr_expect_eq(q->nag, REVIEW_NAG_BLUNDER);
    cr_expect(q->checked, "the mark comes from the check");
    Board b;
    cr_assert(pgn_position_at(g, 2, &b));
    cr_expect(movegen_is_legal(&b, q->best));
    cr_expect_neq(q->best, q->played);
    cr_expect_eq(q->best_line[0], q->best);
    cr_expect_gt(q->best_score_white, q->score_white, "White's better move scores better");
    cr_expect_geq(q->loss_wc, REVIEW_BLUNDER_WC);
    cr_expect(review_is_mistake(q));
    free(p);
    pgn_game_free(g);
    engine_free(e);
}

// The check never looks at theory, so it cannot mark it either.
Test(review, a_book_move_is_never_marked_by_the_check) {
    Engine *e = new_engine();
    PgnGame *g = test_read_game(HANGING);
    ReviewOptions opt = defaults();
    opt.book_plies = 3;
    ReviewPly *p = review(e, g, &opt);
    cr_expect_eq(p[2].nag, 0);
    cr_expect_not(p[2].checked);
    cr_expect_not(review_is_mistake(&p[2]));
    free(p);
    pgn_game_free(g);
    engine_free(e);
}

Test(review, marks_are_the_same_from_run_to_run) {
    Engine *e = new_engine();
    cr_assert(engine_set_option(e, "Hash", "1", NULL, 0));
    PgnGame *g = test_read_game(AMATEUR);
    ReviewOptions opt = { .nodes = 20000, .verify_nodes = 80000, .threads = 2 };
    ReviewPly *a = review(e, g, &opt);
    char hash[16];
    cr_assert(engine_get_option(e, "Hash", hash, sizeof hash));
    cr_expect_str_eq(hash, "1", "the caller's table as it was");
    opt.threads = 3;
    ReviewPly *b = review(e, g, &opt);
    int n = pgn_mainline_length(g), marks = 0;
    for (int i = 0; i < n; i++) {
        cr_expect_eq(a[i].nag, b[i].nag, "ply %d", i);
        cr_expect_eq(a[i].best, b[i].best, "ply %d", i);
        cr_expect_eq(a[i].score_white, b[i].score_white, "ply %d", i);
        cr_expect_eq(a[i].checked, b[i].checked, "ply %d", i);
        marks += a[i].nag != 0;
    }
    cr_expect_gt(marks, 2, "a game with mistakes to compare");
    free(a);
    free(b);
    // The second opinion by the built-in net: the same marks too, whichever
    // engine searched with which evaluation, and the caller's engine is left
    // hand-crafted.
    opt = (ReviewOptions){
        .nodes = 20000, .verify_nodes = 80000, .threads = 2, .confirm = true, .second_net = true
    };
    a = review(e, g, &opt);
    cr_expect_null(engine_net(e));
    opt.threads = 3;
    b = review(e, g, &opt);
    for (int i = 0; i < n; i++) {
        cr_expect_eq(a[i].nag, b[i].nag, "ply %d", i);
        cr_expect_eq(a[i].score_white, b[i].score_white, "ply %d", i);
    }
    free(a);
    free(b);
    pgn_game_free(g);
    engine_free(e);
}

// The built-in net parsed once by the caller (patzer annotate, for many
// games) gives the review that parses its own, and stays the caller's.
Test(review, a_built_in_net_given_is_the_one_parsed_each_time) {
    Engine *e = new_engine();
    PgnGame *g = test_read_game(AMATEUR);
    char err[256];
    NnueNet *net = netfile_builtin(err, sizeof err);
    cr_assert_not_null(net, "%s", err);
    ReviewOptions opt = {
        .nodes = 20000, .verify_nodes = 80000, .threads = 2, .confirm = true, .second_net = true
    };
    ReviewPly *a = review(e, g, &opt);
    opt.builtin_net = net;
    ReviewPly *b = review(e, g, &opt);
    ReviewPly *c = review(e, g, &opt); // not freed by the first review that used it
    int n = pgn_mainline_length(g), marks = 0;
    for (int i = 0; i < n; i++) {
        cr_expect_eq(a[i].nag, b[i].nag, "ply %d", i);
        cr_expect_eq(a[i].loss_wc, b[i].loss_wc, "ply %d", i);
        cr_expect_eq(b[i].nag, c[i].nag, "ply %d", i);
        marks += b[i].checked;
    }
    cr_expect_gt(marks, 2, "moves the second opinion was asked about");
    cr_expect_null(engine_net(e), "the caller's engine left hand-crafted");
    // And it is the net given that is asked: one that sees every position
    // level drops every mark that is no mate.
    NnueNet *flat = nnue_net_new();
    cr_assert_not_null(flat);
    memcpy(flat, net, sizeof *net);
    memset(flat->out_w, 0, sizeof flat->out_w);
    memset(flat->out_b, 0, sizeof flat->out_b);
    opt.builtin_net = flat;
    free(c);
    c = review(e, g, &opt);
    int kept = 0, before = 0;
    for (int i = 0; i < n; i++) {
        before += b[i].nag != 0;
        kept += c[i].nag != 0 && c[i].mate_white == 0 && c[i].best_mate_white == 0;
    }
    cr_expect_gt(before, 0);
    cr_expect_eq(kept, 0, "a level net finds no move worse than another");
    nnue_net_free(flat);
    free(a);
    free(b);
    free(c);
    nnue_net_free(net);
    pgn_game_free(g);
    engine_free(e);
}
