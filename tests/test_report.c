// SPDX-License-Identifier: GPL-3.0-or-later
// The game report: winning chances, accuracy per side, marks, the deciding
// moments (the biggest swings, told in game order), the text with its graph,
// and a report made from a real engine review of Scholar's mate.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/fen.h"
#include "engine/notation.h"
#include "src/game/report.h"
#include "src/pgn/pgn.h"
#include "tests/pgn_helpers.h"

static const char SCHOLAR[] = "[White \"Alice\"]\n[Black \"Bob\"]\n\n"
                              "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

// A ply where the mover played the engine's move: no loss.
static ReviewPly good(int score_white) {
    return (ReviewPly){
        .played = 1, .best = 1, .score_white = score_white, .best_score_white = score_white
    };
}

// A ply where the mover went from `before` to `after` (White's view).
static ReviewPly bad(int before, int after, int nag, Color mover) {
    int loss = mover == WHITE ? before - after : after - before;
    return (ReviewPly){ .played = 1,
                        .best = 2,
                        .score_white = after,
                        .best_score_white = before,
                        .loss = loss,
                        .nag = nag };
}

Test(report, winning_chances_are_a_symmetric_monotone_curve) {
    cr_expect_float_eq(report_win_percent(0), 50.0, 1e-9);
    cr_expect_float_eq(report_win_percent(300) + report_win_percent(-300), 100.0, 1e-9);
    cr_expect_gt(report_win_percent(100), report_win_percent(50));
    // The review's own curve: patzer's scale, a pawn of REVIEW_WC_PAWN.
    cr_expect_float_eq(report_win_percent(100), review_win_percent(100), 1e-9);
    cr_expect_float_eq(report_win_percent(-700), review_win_percent(-700), 1e-9);
    cr_expect_gt(report_win_percent(REVIEW_WC_PAWN), 55.0);
    cr_expect_lt(report_win_percent(REVIEW_WC_PAWN), 60.0);
    // A mate is as decided as the curve goes, not beyond 100.
    cr_expect_leq(report_win_percent(REVIEW_MATE), 100.0);
    cr_expect_float_eq(report_win_percent(REVIEW_MATE), report_win_percent(5000), 1e-9);
}

Test(report, a_game_of_engine_moves_is_perfect) {
    ReviewPly p[6];
    for (int i = 0; i < 6; i++)
        p[i] = good(20 * i);
    GameReport r;
    report_build(p, 6, WHITE, &r);
    cr_expect_eq(r.moves[WHITE], 3);
    cr_expect_eq(r.moves[BLACK], 3);
    cr_expect_float_eq(r.accuracy[WHITE], 100.0, 0.01);
    cr_expect_float_eq(r.accuracy[BLACK], 100.0, 0.01);
    cr_expect_eq(r.moment_count, 0);
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < 3; k++)
            cr_expect_eq(r.marks[c][k], 0);
}

Test(report, marks_and_accuracy_go_to_the_side_that_moved) {
    ReviewPly p[6] = {
        good(30),  good(30),  bad(30, -80, REVIEW_NAG_MISTAKE, WHITE),  // White's second move
        good(-80), good(-80), bad(-80, 400, REVIEW_NAG_BLUNDER, BLACK), // Black's third move
    };
    GameReport r;
    report_build(p, 6, WHITE, &r);
    cr_expect_eq(r.marks[WHITE][1], 1);
    cr_expect_eq(r.marks[BLACK][2], 1);
    cr_expect_eq(r.marks[WHITE][2] + r.marks[BLACK][1], 0);
    cr_expect_lt(r.accuracy[WHITE], 100.0);
    cr_expect_lt(r.accuracy[BLACK], r.accuracy[WHITE], "the blunder costs more");
    cr_expect_eq(r.moment_count, 2);
    cr_expect_eq(r.moments[0], 2);
    cr_expect_eq(r.moments[1], 5);
}

Test(report, a_game_starting_with_black_counts_black_first) {
    ReviewPly p[3] = { bad(0, 300, REVIEW_NAG_BLUNDER, BLACK), good(300), good(300) };
    GameReport r;
    report_build(p, 3, BLACK, &r);
    cr_expect_eq(r.moves[BLACK], 2);
    cr_expect_eq(r.moves[WHITE], 1);
    cr_expect_eq(r.marks[BLACK][2], 1);
    cr_expect_float_eq(r.accuracy[WHITE], 100.0, 0.01);
}

Test(report, only_the_three_biggest_swings_are_kept_in_game_order) {
    // Swings of growing size for White at plies 0, 2, 4, 6, 8; one small slip at 10.
    ReviewPly p[12];
    int before = 600;
    for (int i = 0; i < 12; i += 2) {
        int drop = i == 10 ? 5 : 60 + 60 * i;
        p[i] = bad(before, before - drop, i == 10 ? 0 : REVIEW_NAG_MISTAKE, WHITE);
        before -= drop;
        p[i + 1] = good(before);
    }
    GameReport r;
    report_build(p, 12, WHITE, &r);
    cr_expect_eq(r.moment_count, 3);
    // The winning chances lost are largest where the score crosses zero.
    for (int i = 1; i < r.moment_count; i++)
        cr_expect_lt(r.moments[i - 1], r.moments[i], "game order");
    for (int i = 0; i < r.moment_count; i++)
        cr_expect_neq(r.moments[i], 10, "a 5 cp slip is no moment");
}

Test(report, the_text_tells_players_accuracy_graph_and_moments) {
    PgnGame *g = test_read_game(SCHOLAR);
    int n = pgn_mainline_length(g);
    cr_assert_eq(n, 7);
    Board b;
    cr_assert(board_set_fen(&b, pgn_start_fen(g), NULL, 0));
    ReviewPly p[7];
    for (int i = 0; i < n; i++) {
        p[i] = good(i < 5 ? 30 : REVIEW_MATE - 1);
        p[i].played = p[i].best = pgn_mainline_move(g, i);
    }
    // 3...Nf6?? (ply 5) allowed mate; 3...g6 was better.
    Move g6;
    Board before = b;
    for (int i = 0; i < 5; i++)
        board_play(&before, pgn_mainline_move(g, i));
    char err[128];
    cr_assert_eq(notation_parse_move(&before, "g6", &g6, err, sizeof err), NOTATION_OK);
    p[5] = bad(30, REVIEW_MATE - 1, REVIEW_NAG_BLUNDER, BLACK);
    p[5].played = pgn_mainline_move(g, 5);
    p[5].best = g6;
    p[5].best_line[0] = g6;
    p[5].best_line_len = 1;
    p[6].score_white = REVIEW_MATE;

    GameReport r;
    report_build(p, n, WHITE, &r);
    char *text = report_format(&r, p, g, "C20 King's Pawn Game", NULL);
    cr_assert_not_null(text);
    cr_expect(strncmp(text, "Game report\n", 12) == 0, "%s", text);
    cr_expect(strstr(text, "Alice - Bob  1-0") != NULL, "%s", text);
    cr_expect(strstr(text, "Opening: C20 King's Pawn Game") != NULL, "%s", text);
    cr_expect(strstr(text, "White: accuracy 100% over 4 moves; 0 inaccuracies") != NULL, "%s",
              text);
    cr_expect(strstr(text, "1 blunder (?\?)") != NULL, "%s", text);
    cr_expect(strstr(text, "1. 3... Nf6?? (+0.30 to #") != NULL, "%s", text);
    cr_expect(strstr(text, "Better was g6: 3... g6\n") != NULL, "%s", text);
    cr_expect(strstr(text, "White |") && strstr(text, "  50% +") && strstr(text, "Black |"), "%s",
              text);
    free(text);
    pgn_game_free(g);
}

Test(report, a_real_review_of_scholars_mate_finds_the_blunder, .timeout = 120) {
    PgnGame *g = test_read_game(SCHOLAR);
    int n = pgn_mainline_length(g);
    ReviewPly *p = calloc((size_t)n, sizeof *p);
    cr_assert_not_null(p);
    Engine *e = engine_new();
    cr_assert_not_null(e);
    ReviewOptions opt = { .depth = 10 };
    cr_assert_eq(review_game(e, g, &opt, p), n);
    GameReport r;
    report_build(p, n, WHITE, &r);
    cr_expect_eq(r.marks[BLACK][2], 1, "3...Nf6 is the one blunder");
    cr_assert_geq(r.moment_count, 1);
    bool found = false;
    for (int i = 0; i < r.moment_count; i++)
        found |= r.moments[i] == 5;
    cr_expect(found, "3...Nf6 is a deciding moment");
    char *text = report_format(&r, p, g, NULL, NULL);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "3... Nf6??") != NULL, "%s", text);
    cr_expect(strstr(text, "Opening:") == NULL, "%s", text);
    cr_expect(strstr(text, "Reviewed by") == NULL, "%s", text);
    free(text);
    text = report_format(&r, p, g, NULL, "Stockfish 15.1");
    cr_assert_not_null(text);
    cr_expect(strstr(text, "\nReviewed by Stockfish 15.1\n") != NULL, "%s", text);
    free(text);
    engine_free(e);
    free(p);
    pgn_game_free(g);
}
