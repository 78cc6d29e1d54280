// SPDX-License-Identifier: GPL-3.0-or-later
// The end-of-game rules of src/game/outcome: the endings a position imposes,
// the draws the side to move may claim, their order, and their names.
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/line.h"
#include "src/game/outcome.h"
#include "tests/helpers.h"

// The game under test: a position with the moves that led to it, whose keys
// the repetition rules read.
static Line game;

static void setup(void) {
    board_init_tables();
}

static void start_at(const char *fen) {
    Board b;
    test_board_from_fen(&b, fen);
    line_init(&game, &b);
}

static void play(const char *moves) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        line_play(&game, test_uci_move(&game.board, tok));
}

static void expect_describe(const Outcome *o, const char *text) {
    char buf[OUTCOME_TEXT_MAX];
    outcome_describe(o, buf, sizeof buf);
    cr_expect_str_eq(buf, text);
}

// Four knight moves that bring the position back: one more repetition.
static const char *const SHUFFLE = "g1f3 g8f6 f3g1 f6g8";

Test(outcome, game_goes_on, .init = setup) {
    start_at(BOARD_START_FEN);
    Outcome o = outcome_with_claims(&game.board, game.keys, game.ply);
    cr_expect_eq(o.end, END_NONE);
    cr_expect_eq(o.result, RESULT_NONE);
    cr_expect_str_eq(outcome_result_text(o.result), "*");
    expect_describe(&o, "");
}

Test(outcome, checkmate_names_the_winner, .init = setup) {
    start_at(BOARD_START_FEN);
    play("f2f3 e7e5 g2g4 d8h4");
    Outcome o = outcome_forced(&game.board, game.keys, game.ply);
    cr_expect_eq(o.end, END_CHECKMATE);
    cr_expect_eq(o.result, RESULT_BLACK_WINS);
    cr_expect_eq(o.side, BLACK);
    cr_expect_str_eq(outcome_result_text(o.result), "0-1");
    expect_describe(&o, "Black mates");
}

Test(outcome, stalemate, .init = setup) {
    start_at("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    Outcome o = outcome_forced(&game.board, game.keys, game.ply);
    cr_expect_eq(o.end, END_STALEMATE);
    cr_expect_str_eq(outcome_result_text(o.result), "1/2-1/2");
    expect_describe(&o, "Draw by stalemate");
}

Test(outcome, insufficient_material, .init = setup) {
    start_at("k7/8/8/8/8/8/8/KN6 b - - 0 1");
    cr_expect_eq(outcome_forced(&game.board, game.keys, game.ply).end, END_INSUFFICIENT_MATERIAL);
    start_at("k7/8/8/8/8/8/8/KR6 b - - 0 1");
    cr_expect_eq(outcome_forced(&game.board, game.keys, game.ply).end, END_NONE, "a rook can mate");
}

Test(outcome, threefold_is_a_claim_fivefold_an_end, .init = setup) {
    start_at(BOARD_START_FEN);
    play(SHUFFLE);
    cr_expect_eq(outcome_claimable(&game.board, game.keys, game.ply), END_NONE,
                 "twice is not a repetition draw");
    play(SHUFFLE);
    cr_expect_eq(outcome_forced(&game.board, game.keys, game.ply).end, END_NONE);
    cr_expect_eq(outcome_claimable(&game.board, game.keys, game.ply), END_THREEFOLD_REPETITION);
    Outcome o = outcome_with_claims(&game.board, game.keys, game.ply);
    cr_expect_eq(o.end, END_THREEFOLD_REPETITION);
    cr_expect_eq(o.result, RESULT_DRAW);
    cr_expect_eq(o.side, WHITE, "claimed by the side to move");
    expect_describe(&o, "Draw by threefold repetition (claimed)");
    play(SHUFFLE);
    play(SHUFFLE);
    cr_expect_eq(outcome_forced(&game.board, game.keys, game.ply).end, END_FIVEFOLD_REPETITION);
}

Test(outcome, fifty_moves_claim_seventy_five_end, .init = setup) {
    start_at("k7/8/8/8/8/8/8/KR6 w - - 99 80");
    cr_expect_eq(outcome_claimable(&game.board, game.keys, game.ply), END_NONE);
    play("b1b2");
    cr_expect_eq(outcome_claimable(&game.board, game.keys, game.ply), END_FIFTY_MOVES);
    cr_expect_eq(outcome_forced(&game.board, game.keys, game.ply).end, END_NONE);
    start_at("k7/8/8/8/8/8/8/KR6 w - - 150 100");
    Outcome o = outcome_forced(&game.board, game.keys, game.ply);
    cr_expect_eq(o.end, END_SEVENTY_FIVE_MOVES);
    expect_describe(&o, "Draw by the seventy-five-move rule");
}

// A mate on the move that reaches the seventy-five-move limit stands.
Test(outcome, mate_comes_first, .init = setup) {
    start_at("7k/8/6K1/8/8/8/8/R7 w - - 149 100");
    play("a1a8");
    Outcome o = outcome_with_claims(&game.board, game.keys, game.ply);
    cr_expect_eq(o.end, END_CHECKMATE);
    cr_expect_eq(o.result, RESULT_WHITE_WINS);
    expect_describe(&o, "White mates");
}

Test(outcome, names_of_the_other_endings) {
    Outcome o = { .end = END_TIME_FORFEIT, .result = RESULT_BLACK_WINS, .side = WHITE };
    expect_describe(&o, "Black wins on time");
    o = (Outcome){ .end = END_RESIGNATION, .result = RESULT_WHITE_WINS, .side = BLACK };
    expect_describe(&o, "Black resigns");
    cr_expect_str_eq(outcome_result_text(RESULT_WHITE_WINS), "1-0");
}
