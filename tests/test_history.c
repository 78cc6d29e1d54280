// SPDX-License-Identifier: GPL-3.0-or-later
// The search's history tables: what a quiet move's score is made of, what a cutoff
// rewards and punishes, the bounds the gravity update keeps, and the evaluation
// correction's running mean and its limit.
#include <criterion/criterion.h>
#include <stdlib.h>

#include "engine/fen.h"
#include "engine/history.h"
#include "tests/helpers.h"

// Squares by name (file a-h, rank 1-8).
#define SQ(name) make_square((name)[0] - 'a', (name)[1] - '1')

static Histories *h;
static Board board;

static void setup(void) {
    board_init_tables();
    h = malloc(sizeof *h);
    cr_assert_not_null(h);
    history_clear(h);
    test_board_from_fen(&board, BOARD_START_FEN);
}

static void teardown(void) { free(h); }

// The row entry of m (from board) in a continuation row.
static int16_t *entry_of(int16_t *row, Move m) {
    return &row[board.squares[move_from(m)] * SQ_NB + move_to(m)];
}

TestSuite(history, .init = setup, .fini = teardown);

Test(history, a_quiet_score_sums_butterfly_and_each_row_given) {
    Move nf3 = test_san_move(&board, "Nf3");
    int16_t *r1 = history_cont_row(h, W_PAWN, SQ("e4"));
    int16_t *r2 = history_cont_row(h, B_PAWN, SQ("e5"));
    int16_t *r4 = history_cont_row(h, W_KNIGHT, SQ("c3"));
    h->butterfly[WHITE][SQ_G1][SQ("f3")] = 100;
    *entry_of(r1, nf3) = 20;
    *entry_of(r2, nf3) = -5;
    *entry_of(r4, nf3) = 7;
    ContRows all = {{r1, r2, r4}};
    cr_expect_eq(history_quiet_score(h, &board, nf3, &all), 122);
    // A missing move (the start of the game, a null move) has no row.
    ContRows some = {{r1, NULL, r4}};
    cr_expect_eq(history_quiet_score(h, &board, nf3, &some), 127);
    cr_expect_eq(history_quiet_score(h, &board, nf3, NULL), 100);
}

Test(history, a_cutoff_rewards_the_best_move_and_punishes_those_tried_before) {
    Move best = test_san_move(&board, "Nf3");
    Move tried[2] = {test_san_move(&board, "a3"), test_san_move(&board, "h3")};
    int16_t *r1 = history_cont_row(h, B_PAWN, SQ("e5"));
    int16_t *r4 = history_cont_row(h, W_PAWN, SQ("e4"));
    ContRows cont = {{r1, NULL, r4}};
    history_update_quiets(h, &board, best, tried, 2, 6, &cont);
    cr_expect_gt(h->butterfly[WHITE][SQ_G1][SQ("f3")], 0);
    cr_expect_gt(*entry_of(r1, best), 0);
    cr_expect_gt(*entry_of(r4, best), 0, "the row four plies back learns too");
    for (int i = 0; i < 2; i++) {
        cr_expect_lt(*entry_of(r1, tried[i]), 0);
        cr_expect_lt(*entry_of(r4, tried[i]), 0);
    }
    // The same reward in every table the move is scored by.
    cr_expect_eq(*entry_of(r1, best), *entry_of(r4, best));
    cr_expect_eq(history_quiet_score(h, &board, best, &cont), 3 * *entry_of(r1, best));
}

Test(history, deeper_cutoffs_teach_more_and_gravity_keeps_the_bounds) {
    Move m = test_san_move(&board, "d4");
    int16_t *row = history_cont_row(h, B_KNIGHT, SQ("f6"));
    ContRows cont = {{row, NULL, NULL}};
    history_update_quiets(h, &board, m, NULL, 0, 2, &cont);
    int shallow = *entry_of(row, m);
    history_clear(h);
    history_update_quiets(h, &board, m, NULL, 0, 8, &cont);
    cr_expect_gt(*entry_of(row, m), shallow);
    for (int i = 0; i < 1000; i++)
        history_update_quiets(h, &board, m, NULL, 0, 20, &cont);
    cr_expect_leq(*entry_of(row, m), HISTORY_MAX);
    cr_expect_gt(*entry_of(row, m), HISTORY_MAX * 9 / 10, "it nears the bound");
    Move other = test_san_move(&board, "c4");
    for (int i = 0; i < 1000; i++)
        history_update_quiets(h, &board, other, &m, 1, 20, &cont);
    cr_expect_geq(*entry_of(row, m), -HISTORY_MAX);
    cr_expect_lt(*entry_of(row, m), 0, "a move punished often enough turns negative");
}

Test(history, the_correction_follows_what_searches_found_up_to_its_limit) {
    cr_expect_eq(history_corrected_eval(h, &board, 30), 30, "nothing learnt: nothing changed");
    for (int i = 0; i < 200; i++)
        history_update_correction(h, &board, 10, 40);
    int corrected = history_corrected_eval(h, &board, 30);
    cr_expect(corrected > 60 && corrected <= 70, "30 + about 40: %d", corrected);
    for (int i = 0; i < 200; i++)
        history_update_correction(h, &board, 10, 1000);
    cr_expect_eq(history_corrected_eval(h, &board, 30), 30 + CORRECTION_MAX_CP);
    // Another pawn structure has learnt nothing.
    Board other;
    test_board_from_fen(&other, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    cr_expect_eq(history_corrected_eval(h, &other, 30), 30);
}
