// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for src/game/game.c: moves from text and from the engine, input errors that
// change nothing, every game ending, undo/redo with exact clocks, and limits.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"
#include "src/game/game.h"
#include "src/pgn/read.h"
#include "src/pgn/write.h"

static Game *game;

static void setup(void) {
    board_init_tables();
    game = NULL;
}

static void teardown(void) {
    game_free(game);
}

TestSuite(game, .init = setup, .fini = teardown);

static TimeControl tc_of(const char *text) {
    TimeControl tc;
    char err[160] = "";
    cr_assert(timecontrol_parse(text, &tc, err, sizeof err), "%s", err);
    return tc;
}

// A new game in `game`; fen NULL for the start position.
static Game *start(PlayerKind white, PlayerKind black, const char *tc, const char *fen) {
    GameSettings s;
    game_settings_default(&s);
    s.players[WHITE] = white;
    s.players[BLACK] = black;
    s.tc = tc_of(tc);
    if (fen)
        snprintf(s.start_fen, sizeof s.start_fen, "%s", fen);
    char err[160] = "";
    game = game_new(&s, err, sizeof err);
    cr_assert_not_null(game, "%s", err);
    return game;
}

static void play(Game *g, const char *text, int64_t now) {
    char err[256] = "";
    GameStatus st = game_play_text(g, text, now, err, sizeof err);
    cr_assert_eq(st, GAME_OK, "'%s' refused (%d): %s", text, (int)st, err);
}

// Plays a move given as text for whichever side is to move.
static void engine_play(Game *g, const char *text, int score, int depth, int64_t now) {
    Board b = *game_board(g);
    Move m = MOVE_NONE;
    char err[256] = "";
    cr_assert_eq(notation_parse_move(&b, text, &m, err, sizeof err), NOTATION_OK, "%s", err);
    cr_assert_eq(game_play_move(g, m, score, depth, now), GAME_OK, "'%s'", text);
}

static Move move_of(Game *g, const char *text) {
    Board b = *game_board(g);
    Move m = MOVE_NONE;
    char err[256] = "";
    cr_assert_eq(notation_parse_move(&b, text, &m, err, sizeof err), NOTATION_OK, "%s", err);
    return m;
}

static void assert_fen(const Game *g, const char *expected) {
    char fen[FEN_MAX];
    game_fen(g, fen, sizeof fen);
    cr_assert_str_eq(fen, expected);
}

// One shuffle of both knights out and back (four plies).
static void shuffle(Game *g, int64_t now) {
    play(g, "Nf3", now);
    play(g, "Nf6", now);
    play(g, "Ng1", now);
    play(g, "Ng8", now);
}

// ------------------------------------------------------------------ basics

Test(game, settings_default) {
    GameSettings s;
    game_settings_default(&s);
    cr_assert_eq(s.players[WHITE], PLAYER_HUMAN);
    cr_assert_eq(s.players[BLACK], PLAYER_ENGINE);
    cr_assert_eq(s.level, 10);
    cr_assert_str_eq(s.start_fen, "");
    cr_assert_str_eq(s.names[WHITE], "");
    cr_assert_str_eq(s.names[BLACK], "");
    char buf[TC_TEXT_MAX];
    timecontrol_format(&s.tc, buf, sizeof buf);
    cr_assert_str_eq(buf, "5+3");
}

Test(game, new_game_state) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", NULL);
    assert_fen(g, BOARD_START_FEN);
    cr_assert_eq(game_ply_count(g), 0);
    cr_assert_eq(game_turn(g), WHITE);
    cr_assert_eq(game_start_side(g), WHITE);
    cr_assert_eq(game_start_fullmove(g), 1);
    cr_assert_eq(game_result(g), RESULT_NONE);
    cr_assert_str_eq(game_result_text(g), "*");
    cr_assert_str_eq(game_end_text(g), "");
    cr_assert_not(game_engine_to_move(g));
    cr_assert_null(game_move(g, 0));
    cr_assert_eq(game_clock(g)->remaining_ms[WHITE], 300000);
    cr_assert_not(game_clock(g)->running);
}

Test(game, bad_start_fen) {
    GameSettings s;
    game_settings_default(&s);
    snprintf(s.start_fen, sizeof s.start_fen, "not a fen");
    char err[160] = "";
    cr_assert_null(game_new(&s, err, sizeof err));
    cr_assert_neq(err[0], '\0');
}

Test(game, start_fen_black_to_move) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+0",
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    cr_assert_eq(game_start_side(g), BLACK);
    game_start_clock(g, 0);
    cr_assert_eq(game_clock(g)->turn, BLACK);
    play(g, "c5", 4000);
    cr_assert_eq(game_move(g, 0)->clock_ms[BLACK], 296000);
    cr_assert_eq(game_move(g, 0)->clock_ms[WHITE], 300000);
    cr_assert_eq(game_turn(g), WHITE);
}

Test(game, human_move_then_engine_move) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", NULL);
    unsigned gen = game_generation(g);
    game_start_clock(g, 0);
    play(g, "e4", 10000);
    cr_assert_eq(game_ply_count(g), 1);
    cr_assert_eq(game_generation(g), gen + 1);
    cr_assert_str_eq(game_move(g, 0)->san, "e4");
    cr_assert_eq(game_move(g, 0)->score, VALUE_NONE);
    cr_assert_eq(game_move(g, 0)->clock_ms[WHITE], 293000);
    cr_assert_eq(game_move(g, 0)->clock_ms[BLACK], 300000);
    cr_assert(game_engine_to_move(g));

    char err[256] = "";
    cr_assert_eq(game_play_text(g, "e5", 12000, err, sizeof err), GAME_ERR_NOT_YOUR_TURN);
    cr_assert_neq(err[0], '\0');
    cr_assert_eq(game_ply_count(g), 1);

    engine_play(g, "e5", 25, 9, 15000);
    cr_assert_eq(game_ply_count(g), 2);
    cr_assert_eq(game_generation(g), gen + 2);
    const GameMove *gm = game_move(g, 1);
    cr_assert_str_eq(gm->san, "e5");
    cr_assert_eq(gm->score, 25);
    cr_assert_eq(gm->depth, 9);
    cr_assert_eq(gm->clock_ms[WHITE], 293000);
    cr_assert_eq(gm->clock_ms[BLACK], 298000);
    cr_assert_not(game_engine_to_move(g));
    assert_fen(g, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
}

Test(game, first_move_starts_the_clock) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", NULL);
    play(g, "d4", 70000);
    // No time charged: the clock started with the move.
    cr_assert_eq(game_move(g, 0)->clock_ms[WHITE], 303000);
    cr_assert(game_clock(g)->running);
    cr_assert_eq(game_clock(g)->turn, BLACK);
    cr_assert_eq(clock_remaining(game_clock(g), BLACK, 75000), 295000);
}

Test(game, engine_move_must_be_legal) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", NULL);
    unsigned gen = game_generation(g);
    cr_assert_eq(game_play_move(g, move_make(SQ_E1, SQ_E8), 0, 0, 0), GAME_ERR_ILLEGAL);
    cr_assert_eq(game_play_move(g, MOVE_NONE, 0, 0, 0), GAME_ERR_ILLEGAL);
    cr_assert_eq(game_ply_count(g), 0);
    cr_assert_eq(game_generation(g), gen);
    // The engine may also play for a human side (scripted moves).
    Move d4 = move_make(make_square(3, 1), make_square(3, 3));
    cr_assert_eq(game_play_move(g, d4, 0, 0, 0), GAME_OK);
    cr_assert_str_eq(game_move(g, 0)->san, "d4");
}

static void assert_refused(Game *g, const char *text, GameStatus expected, const char *why) {
    char before[FEN_MAX], after[FEN_MAX], err[256] = "";
    game_fen(g, before, sizeof before);
    int plies = game_ply_count(g);
    unsigned gen = game_generation(g);
    Clock clock = *game_clock(g);
    cr_assert_eq(game_play_text(g, text, 5000, err, sizeof err), expected, "'%s': %s", text, err);
    cr_assert(strstr(err, why), "'%s': message '%s' lacks '%s'", text, err, why);
    game_fen(g, after, sizeof after);
    cr_assert_str_eq(after, before);
    cr_assert_eq(game_ply_count(g), plies);
    cr_assert_eq(game_generation(g), gen);
    cr_assert_eq(memcmp(&clock, game_clock(g), sizeof clock), 0);
}

Test(game, bad_input_changes_nothing) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", "4k3/8/8/8/8/8/8/1N3N1K w - - 0 1");
    assert_refused(g, "hello", GAME_ERR_PARSE, "is not a move");
    assert_refused(g, "Qd2", GAME_ERR_ILLEGAL, "illegal move");
    assert_refused(g, "Nd2", GAME_ERR_AMBIGUOUS, "Nbd2");
    assert_refused(g, "Nd2", GAME_ERR_AMBIGUOUS, "Nfd2");
    play(g, "Nbd2", 6000);
    cr_assert_str_eq(game_move(g, 0)->san, "Nbd2");
}

Test(game, not_your_turn) {
    Game *g = start(PLAYER_ENGINE, PLAYER_HUMAN, "5+3", NULL);
    cr_assert(game_engine_to_move(g));
    assert_refused(g, "e4", GAME_ERR_NOT_YOUR_TURN, "not your turn");
}

// ------------------------------------------------------------------ endings

Test(game, fools_mate) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", NULL);
    game_start_clock(g, 0);
    play(g, "f3", 1000);
    play(g, "e5", 2000);
    play(g, "g4", 3000);
    play(g, "Qh4", 4000);
    cr_assert_str_eq(game_move(g, 3)->san, "Qh4#");
    cr_assert(game_is_over(g));
    cr_assert_eq(game_end(g), END_CHECKMATE);
    cr_assert_eq(game_result(g), RESULT_BLACK_WINS);
    cr_assert_str_eq(game_end_text(g), "Black mates");
    cr_assert_str_eq(game_result_text(g), "0-1");
    cr_assert_not(game_clock(g)->running);
    cr_assert_eq(clock_remaining(game_clock(g), WHITE, 99000), 304000);
    assert_refused(g, "a3", GAME_ERR_GAME_OVER, "the game is over (Black mates)");
    cr_assert_eq(game_play_move(g, move_make(SQ_A1 + 8, SQ_A1 + 16), 0, 0, 5000),
                 GAME_ERR_GAME_OVER);
    cr_assert_not(game_tick(g, 1000000));
}

Test(game, stalemate) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    play(g, "Qf7", 1000);
    cr_assert_eq(game_end(g), END_STALEMATE);
    cr_assert_eq(game_result(g), RESULT_DRAW);
    cr_assert_str_eq(game_end_text(g), "Draw by stalemate");
    cr_assert_str_eq(game_result_text(g), "1/2-1/2");
}

Test(game, insufficient_material_after_capture) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", "4k3/8/8/8/8/8/4r3/4K1N1 w - - 0 1");
    play(g, "Kxe2", 1000);
    cr_assert_eq(game_end(g), END_INSUFFICIENT_MATERIAL);
    cr_assert_eq(game_result(g), RESULT_DRAW);
    cr_assert_str_eq(game_end_text(g), "Draw by insufficient material");
    cr_assert_not(game_engine_to_move(g));
}

Test(game, fivefold_repetition) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", NULL);
    for (int i = 0; i < 3; i++)
        shuffle(g, 1000);
    play(g, "Nf3", 1000);
    play(g, "Nf6", 1000);
    play(g, "Ng1", 1000);
    cr_assert_not(game_is_over(g)); // threefold and fourfold need a claim
    play(g, "Ng8", 1000);
    cr_assert_eq(game_ply_count(g), 16);
    cr_assert_eq(game_end(g), END_FIVEFOLD_REPETITION);
    cr_assert_eq(game_result(g), RESULT_DRAW);
    cr_assert_str_eq(game_end_text(g), "Draw by fivefold repetition");
}

Test(game, seventy_five_move_rule) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", "4k3/8/8/8/8/8/8/R3K3 w - - 149 100");
    cr_assert_not(game_is_over(g));
    play(g, "Ra2", 1000);
    cr_assert_eq(game_end(g), END_SEVENTY_FIVE_MOVES);
    cr_assert_eq(game_result(g), RESULT_DRAW);
    cr_assert_str_eq(game_end_text(g), "Draw by the seventy-five-move rule");
}

Test(game, mate_beats_seventy_five_move_rule) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", "k7/8/1K6/8/8/8/8/7R w - - 149 100");
    play(g, "Rh8", 1000);
    cr_assert_eq(game_end(g), END_CHECKMATE);
    cr_assert_eq(game_result(g), RESULT_WHITE_WINS);
    cr_assert_str_eq(game_end_text(g), "White mates");
    cr_assert_str_eq(game_result_text(g), "1-0");
}

Test(game, claim_threefold_now) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", NULL);
    char err[256] = "";
    shuffle(g, 1000);
    cr_assert_eq(game_claim_draw(g, MOVE_NONE, 1000, err, sizeof err), GAME_ERR_NOTHING);
    cr_assert_str_eq(err, "no draw to claim: the position has occurred 2 times and 2 moves have "
                          "passed without a capture or pawn move");
    cr_assert_not(game_is_over(g));
    shuffle(g, 1000);
    cr_assert_not(game_engine_should_claim(g, -30, 0)); // no engine plays here
    cr_assert_eq(game_claim_draw(g, MOVE_NONE, 1000, err, sizeof err), GAME_OK);
    cr_assert_eq(game_end(g), END_THREEFOLD_REPETITION);
    cr_assert_eq(game_result(g), RESULT_DRAW);
    cr_assert_str_eq(game_end_text(g), "Draw by threefold repetition (claimed)");
    cr_assert_eq(game_ply_count(g), 8);
}

Test(game, claim_threefold_with_move) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", NULL);
    char err[256] = "";
    shuffle(g, 1000);
    play(g, "Nf3", 1000);
    play(g, "Nf6", 1000);
    play(g, "Ng1", 1000);
    cr_assert_eq(game_claim_draw(g, MOVE_NONE, 1000, err, sizeof err), GAME_ERR_NOTHING);
    cr_assert_eq(game_claim_draw(g, move_of(g, "Nc6"), 1000, err, sizeof err), GAME_ERR_NOTHING);
    cr_assert_str_eq(err, "no draw to claim: after Nc6 the position will have occurred 1 time "
                          "and 4 moves have passed without a capture or pawn move");
    cr_assert_eq(game_ply_count(g), 7);
    cr_assert_eq(game_claim_draw(g, move_of(g, "Ng8"), 1000, err, sizeof err), GAME_OK);
    cr_assert_eq(game_ply_count(g), 8);
    cr_assert_str_eq(game_move(g, 7)->san, "Ng8");
    cr_assert_eq(game_end(g), END_THREEFOLD_REPETITION);
}

Test(game, claim_fifty_moves) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", "4k3/8/8/8/8/8/P7/R3K3 w - - 99 80");
    char err[256] = "";
    cr_assert_eq(game_claim_draw(g, MOVE_NONE, 1000, err, sizeof err), GAME_ERR_NOTHING);
    cr_assert_str_eq(err, "no draw to claim: the position has occurred 1 time and 49 moves have "
                          "passed without a capture or pawn move");
    cr_assert_eq(game_claim_draw(g, move_of(g, "a3"), 1000, err, sizeof err), GAME_ERR_NOTHING);
    cr_assert_str_eq(err, "no draw to claim: after a3 the position will have occurred 1 time "
                          "and 0 moves have passed without a capture or pawn move");
    cr_assert_eq(game_claim_draw(g, move_of(g, "Kd2"), 1000, err, sizeof err), GAME_OK);
    cr_assert_eq(game_end(g), END_FIFTY_MOVES);
    cr_assert_eq(game_ply_count(g), 1);
    cr_assert_str_eq(game_end_text(g), "Draw by the fifty-move rule (claimed)");
    cr_assert_eq(game_claim_draw(g, MOVE_NONE, 1000, err, sizeof err), GAME_ERR_GAME_OVER);
}

Test(game, claim_fifty_moves_now) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", "4k3/8/8/8/8/8/P7/R3K3 b - - 100 80");
    char err[256] = "";
    cr_assert(game_engine_should_claim(g, -30, 20));
    cr_assert_not(game_engine_should_claim(g, -10, 20));
    cr_assert_eq(game_claim_draw(g, MOVE_NONE, 1000, err, sizeof err), GAME_OK);
    cr_assert_eq(game_end(g), END_FIFTY_MOVES);
    cr_assert_eq(game_ply_count(g), 0);
    cr_assert_not(game_engine_should_claim(g, -30, 20));
}

Test(game, claim_with_illegal_move) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", NULL);
    char err[256] = "";
    cr_assert_eq(game_claim_draw(g, move_make(SQ_A1, SQ_H8), 1000, err, sizeof err),
                 GAME_ERR_ILLEGAL);
    cr_assert_not(game_is_over(g));
}

Test(game, resignation) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", NULL);
    game_start_clock(g, 0);
    cr_assert_eq(game_resign(g, WHITE, 5000), GAME_OK);
    cr_assert_eq(game_end(g), END_RESIGNATION);
    cr_assert_eq(game_result(g), RESULT_BLACK_WINS);
    cr_assert_str_eq(game_end_text(g), "White resigns");
    cr_assert_str_eq(game_result_text(g), "0-1");
    cr_assert_not(game_clock(g)->running);
    cr_assert_eq(game_clock(g)->remaining_ms[WHITE], 295000);
    cr_assert_eq(game_resign(g, BLACK, 6000), GAME_ERR_GAME_OVER);
    cr_assert_str_eq(game_end_text(g), "White resigns");
}

Test(game, black_resigns) {
    Game *g = start(PLAYER_ENGINE, PLAYER_HUMAN, "5+3", NULL);
    cr_assert_eq(game_resign(g, BLACK, 0), GAME_OK);
    cr_assert_str_eq(game_end_text(g), "Black resigns");
    cr_assert_str_eq(game_result_text(g), "1-0");
}

// A finished game read back from its record ends as it ended, including the
// endings the board does not show; the ones it shows are not taken from a file.
Test(game, restore_end_from_a_record) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", NULL);
    game_start_clock(g, 0);
    play(g, "e4", 1000);
    cr_assert(game_restore_end(g, END_RESIGNATION, WHITE, 2000));
    cr_assert_eq(game_result(g), RESULT_BLACK_WINS);
    cr_assert_str_eq(game_end_text(g), "White resigns");
    cr_assert_not(game_clock(g)->running);
    cr_assert_not(game_restore_end(g, END_AGREEMENT, WHITE, 3000), "over already");
    cr_assert_eq(game_end(g), END_RESIGNATION);
    game_free(g);
    static const struct {
        GameEnd end;
        Color side;
        GameResult result;
        const char *text;
    } cases[] = {
        {END_TIME_FORFEIT, BLACK, RESULT_WHITE_WINS, "White wins on time"},
        {END_TIME_DRAW, WHITE, RESULT_DRAW, "Draw: White's flag fell but Black cannot mate"},
        {END_AGREEMENT, BLACK, RESULT_DRAW, "Draw agreed"},
        {END_THREEFOLD_REPETITION, WHITE, RESULT_DRAW, "Draw by threefold repetition (claimed)"},
        {END_FIFTY_MOVES, BLACK, RESULT_DRAW, "Draw by the fifty-move rule (claimed)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", NULL);
        cr_assert(game_restore_end(g, cases[i].end, cases[i].side, 0), "case %zu", i);
        cr_expect_eq(game_result(g), cases[i].result, "case %zu", i);
        cr_expect_str_eq(game_end_text(g), cases[i].text);
        game_free(g);
    }
    game = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", NULL);
    cr_assert_not(game_restore_end(game, END_CHECKMATE, WHITE, 0));
    cr_assert_not(game_restore_end(game, END_STALEMATE, WHITE, 0));
    cr_assert_not(game_restore_end(game, END_NONE, WHITE, 0));
    cr_assert_not(game_is_over(game));
}

Test(game, draw_offer) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", NULL);
    cr_assert_not(game_offer_draw(g, -20, 20, 0)); // not worse by more than the contempt
    cr_assert_not(game_offer_draw(g, 150, 20, 0));
    cr_assert_not(game_is_over(g));
    cr_assert(game_offer_draw(g, -21, 20, 0));
    cr_assert_eq(game_end(g), END_AGREEMENT);
    cr_assert_eq(game_result(g), RESULT_DRAW);
    cr_assert_str_eq(game_end_text(g), "Draw agreed");
    cr_assert_not(game_offer_draw(g, -500, 20, 0));
}

Test(game, draw_offer_needs_an_engine) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", NULL);
    cr_assert_not(game_offer_draw(g, -500, 0, 0));
    cr_assert_not(game_is_over(g));
    game_agree_draw(g, 0);
    cr_assert_eq(game_end(g), END_AGREEMENT);
    cr_assert_str_eq(game_result_text(g), "1/2-1/2");
}

// ------------------------------------------------------------------ time

Test(game, flag_fall_forfeit) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "0:10", NULL);
    game_start_clock(g, 0);
    cr_assert_not(game_tick(g, 9999));
    cr_assert_not(game_is_over(g));
    cr_assert(game_tick(g, 10000));
    cr_assert_eq(game_end(g), END_TIME_FORFEIT);
    cr_assert_eq(game_result(g), RESULT_BLACK_WINS);
    cr_assert_str_eq(game_end_text(g), "Black wins on time");
    cr_assert_not(game_tick(g, 11000)); // already over
    cr_assert_not(game_clock(g)->running);
}

Test(game, flag_fall_on_a_move) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "0:10", NULL);
    game_start_clock(g, 0);
    char err[256] = "";
    cr_assert_eq(game_play_text(g, "e4", 10500, err, sizeof err), GAME_ERR_GAME_OVER);
    cr_assert_str_eq(err, "White's flag fell before the move was completed");
    cr_assert_eq(game_ply_count(g), 0);
    assert_fen(g, BOARD_START_FEN);
    cr_assert_eq(game_end(g), END_TIME_FORFEIT);
    cr_assert_str_eq(game_result_text(g), "0-1");
}

// When a GUI keeps the time (xboard), a fallen flag is its call: the game
// goes on and the clocks keep counting.
Test(game, gui_referees_time) {
    GameSettings s;
    game_settings_default(&s);
    s.players[WHITE] = s.players[BLACK] = PLAYER_HUMAN;
    s.tc = tc_of("0:10");
    s.gui_referees_time = true;
    char err[256] = "";
    game = game_new(&s, err, sizeof err);
    cr_assert_not_null(game, "%s", err);
    game_start_clock(game, 0);
    cr_assert_not(game_tick(game, 20000));
    cr_assert_eq(game_play_text(game, "e4", 20000, err, sizeof err), GAME_OK, "%s", err);
    cr_assert_not(game_is_over(game));
    cr_assert(game_clock(game)->running);
    cr_assert_eq(game_clock(game)->turn, BLACK);
    play(game, "e5", 21000);
    cr_assert_eq(game_ply_count(game), 2);
    cr_assert_eq(clock_remaining(game_clock(game), BLACK, 21000), 9000);
}

Test(game, flag_fall_draw_lone_king) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "0:10", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    game_start_clock(g, 0);
    cr_assert(game_tick(g, 20000));
    cr_assert_eq(game_end(g), END_TIME_DRAW);
    cr_assert_eq(game_result(g), RESULT_DRAW);
    cr_assert_str_eq(game_end_text(g), "Draw: White's flag fell but Black cannot mate");
}

Test(game, flag_fall_draw_king_and_minor) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "0:10", "4k2r/8/8/8/8/8/8/2B1K3 w - - 0 1");
    play(g, "Bd2", 0);
    cr_assert(game_tick(g, 10000));
    cr_assert_eq(game_end(g), END_TIME_DRAW);
    cr_assert_str_eq(game_end_text(g), "Draw: Black's flag fell but White cannot mate");
    cr_assert_eq(game_result(g), RESULT_DRAW);
}

Test(game, flag_fall_two_knights_can_mate) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "0:10", "4knn1/8/8/8/8/8/8/R3K3 w - - 0 1");
    game_start_clock(g, 0);
    cr_assert(game_tick(g, 10000));
    cr_assert_eq(game_end(g), END_TIME_FORFEIT);
    cr_assert_eq(game_result(g), RESULT_BLACK_WINS);
}

Test(game, untimed_never_falls) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "none", NULL);
    game_start_clock(g, 0);
    cr_assert_not(game_tick(g, 1000000000));
    play(g, "e4", 1000000000);
    cr_assert_eq(game_ply_count(g), 1);
    cr_assert_not(game_is_over(g));
    SearchLimits limits;
    game_search_limits(g, 1000000000, &limits);
    cr_assert_eq(limits.movetime, 2000);
    cr_assert_eq(limits.time[WHITE], -1);
    cr_assert_eq(limits.time[BLACK], -1);
    game_set_level(g, 20);
    game_search_limits(g, 1000000000, &limits);
    cr_assert_eq(limits.movetime, 3000);
}

Test(game, pause_stops_the_clock) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+0", NULL);
    game_start_clock(g, 0);
    game_pause(g, 10000);
    cr_assert_not(game_clock(g)->running);
    cr_assert_not(game_tick(g, 900000)); // a paused clock does not fall
    cr_assert_eq(clock_remaining(game_clock(g), WHITE, 500000), 290000);
    game_start_clock(g, 600000);
    cr_assert_eq(clock_remaining(game_clock(g), WHITE, 605000), 285000);
    game_pause(g, 605000);
    play(g, "e4", 700000); // the move restarts the clock: no time charged
    cr_assert_eq(game_move(g, 0)->clock_ms[WHITE], 285000);
    cr_assert(game_clock(g)->running);
}

// ------------------------------------------------------------------ undo/redo

// Plays e4 e5 Nf3 Nc6 with known times against the engine (5+3).
static Game *four_plies(void) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", NULL);
    game_start_clock(g, 0);
    play(g, "e4", 10000);               // White 300 - 10 + 3 = 293 s
    engine_play(g, "e5", 10, 5, 15000); // Black 300 - 5 + 3 = 298 s
    play(g, "Nf3", 25000);              // White 293 - 10 + 3 = 286 s
    engine_play(g, "Nc6", 0, 5, 40000); // Black 298 - 15 + 3 = 286 s
    return g;
}

Test(game, undo_redo_exact_clocks) {
    Game *g = four_plies();
    cr_assert_eq(game_clock(g)->remaining_ms[WHITE], 286000);
    cr_assert_eq(game_clock(g)->remaining_ms[BLACK], 286000);
    unsigned gen = game_generation(g);

    cr_assert_eq(game_undo(g, 50000), GAME_OK);
    cr_assert_eq(game_ply_count(g), 2);
    cr_assert_eq(game_redo_available(g), 2);
    cr_assert_neq(game_generation(g), gen);
    assert_fen(g, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    const Clock *c = game_clock(g);
    cr_assert_eq(c->remaining_ms[WHITE], 293000);
    cr_assert_eq(c->remaining_ms[BLACK], 298000);
    cr_assert(c->running);
    cr_assert_eq(c->turn, WHITE);
    cr_assert_eq(clock_remaining(c, WHITE, 51000), 292000);

    cr_assert_eq(game_undo(g, 52000), GAME_OK);
    cr_assert_eq(game_ply_count(g), 0);
    cr_assert_eq(game_redo_available(g), 4);
    cr_assert_eq(c->remaining_ms[WHITE], 300000);
    cr_assert_eq(c->remaining_ms[BLACK], 300000);
    cr_assert(c->running);
    assert_fen(g, BOARD_START_FEN);
    cr_assert_eq(game_undo(g, 53000), GAME_ERR_NOTHING);

    gen = game_generation(g);
    cr_assert_eq(game_redo(g, 60000), GAME_OK);
    cr_assert_eq(game_generation(g), gen + 1);
    cr_assert_eq(game_ply_count(g), 2);
    cr_assert_eq(c->remaining_ms[WHITE], 293000);
    cr_assert_eq(c->remaining_ms[BLACK], 298000);
    cr_assert_eq(clock_remaining(c, WHITE, 61000), 292000);
    cr_assert_eq(game_redo(g, 62000), GAME_OK);
    cr_assert_eq(game_ply_count(g), 4);
    cr_assert_eq(game_redo_available(g), 0);
    cr_assert_eq(c->remaining_ms[WHITE], 286000);
    cr_assert_eq(c->remaining_ms[BLACK], 286000);
    cr_assert_str_eq(game_move(g, 3)->san, "Nc6");
    cr_assert_eq(game_redo(g, 63000), GAME_ERR_NOTHING);
    assert_fen(g, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
}

Test(game, undo_before_engine_reply) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", NULL);
    game_start_clock(g, 0);
    play(g, "e4", 10000);
    cr_assert_eq(game_undo(g, 12000), GAME_OK);
    cr_assert_eq(game_ply_count(g), 0);
    cr_assert_eq(game_turn(g), WHITE);
    cr_assert_eq(game_clock(g)->remaining_ms[WHITE], 300000);
    cr_assert_eq(game_clock(g)->remaining_ms[BLACK], 300000);
    cr_assert_eq(game_clock(g)->turn, WHITE);
}

Test(game, new_move_drops_redo_tail) {
    Game *g = four_plies();
    cr_assert_eq(game_undo(g, 50000), GAME_OK);
    cr_assert_eq(game_redo_available(g), 2);
    play(g, "Bc4", 51000);
    cr_assert_eq(game_redo_available(g), 0);
    cr_assert_eq(game_ply_count(g), 3);
    cr_assert_eq(game_redo(g, 52000), GAME_ERR_NOTHING);
    // 293 s from the restored clock, one second used, 3 s increment.
    cr_assert_eq(game_move(g, 2)->clock_ms[WHITE], 295000);
}

Test(game, undo_without_human_move) {
    Game *g = start(PLAYER_ENGINE, PLAYER_HUMAN, "5+3", NULL);
    engine_play(g, "e4", 0, 1, 0);
    cr_assert_eq(game_undo(g, 1000), GAME_ERR_NOTHING);
    cr_assert_eq(game_ply_count(g), 1);
    play(g, "c5", 2000);
    engine_play(g, "Nf3", 0, 1, 3000);
    cr_assert_eq(game_undo(g, 4000), GAME_OK);
    cr_assert_eq(game_ply_count(g), 1);
    cr_assert_eq(game_turn(g), BLACK);
}

Test(game, undo_one_ply_between_humans) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "5+3", NULL);
    play(g, "e4", 0);
    play(g, "e5", 1000);
    cr_assert_eq(game_undo(g, 2000), GAME_OK);
    cr_assert_eq(game_ply_count(g), 1);
    cr_assert_eq(game_redo_available(g), 1);
    cr_assert_eq(game_redo(g, 3000), GAME_OK);
    cr_assert_eq(game_ply_count(g), 2);
}

Test(game, undo_after_mate) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", NULL);
    game_start_clock(g, 0);
    play(g, "f3", 1000);
    engine_play(g, "e5", 0, 1, 2000);
    play(g, "g4", 3000);
    engine_play(g, "Qh4", VALUE_MATE, 1, 4000);
    cr_assert_eq(game_end(g), END_CHECKMATE);
    cr_assert_eq(game_undo(g, 10000), GAME_OK);
    cr_assert_eq(game_ply_count(g), 2);
    cr_assert_eq(game_result(g), RESULT_NONE);
    cr_assert_eq(game_end(g), END_NONE);
    cr_assert_str_eq(game_end_text(g), "");
    cr_assert_str_eq(game_result_text(g), "*");
    cr_assert(game_clock(g)->running);
    cr_assert_eq(game_clock(g)->remaining_ms[WHITE], 302000);
    cr_assert_eq(game_clock(g)->remaining_ms[BLACK], 302000);
    // Redo brings the mate back.
    cr_assert_eq(game_redo(g, 11000), GAME_OK);
    cr_assert_eq(game_ply_count(g), 4);
    cr_assert_eq(game_end(g), END_CHECKMATE);
    cr_assert_str_eq(game_end_text(g), "Black mates");
    cr_assert_not(game_clock(g)->running);
}

Test(game, undo_after_time_loss) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "0:10+5", NULL);
    game_start_clock(g, 0);
    play(g, "e4", 4000); // White 11 s
    play(g, "e5", 6000); // Black 13 s
    cr_assert(game_tick(g, 17000));
    cr_assert_eq(game_end(g), END_TIME_FORFEIT);
    cr_assert_eq(game_undo(g, 20000), GAME_OK);
    cr_assert_eq(game_ply_count(g), 1);
    cr_assert_not(game_is_over(g));
    cr_assert_eq(game_clock(g)->remaining_ms[WHITE], 11000);
    cr_assert_eq(game_clock(g)->remaining_ms[BLACK], 10000);
    cr_assert_not(game_clock(g)->flagged[WHITE]);
    cr_assert_eq(clock_remaining(game_clock(g), BLACK, 21000), 9000);
}

// ------------------------------------------------------------------ engine

Test(game, search_limits_from_clocks) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "40/90+30, 30+30", NULL);
    game_start_clock(g, 0);
    play(g, "e4", 60000);
    SearchLimits limits;
    game_search_limits(g, 70000, &limits);
    cr_assert_eq(limits.time[WHITE], 90 * 60000 - 60000 + 30000);
    cr_assert_eq(limits.time[BLACK], 90 * 60000 - 10000);
    cr_assert_eq(limits.inc[WHITE], 30000);
    cr_assert_eq(limits.inc[BLACK], 30000);
    cr_assert_eq(limits.movestogo, 40);
    cr_assert_eq(limits.movetime, 0);
    cr_assert_eq(limits.depth, 0);
}

Test(game, search_limits_sudden_death) {
    Game *g = four_plies();
    SearchLimits limits;
    game_search_limits(g, 45000, &limits);
    cr_assert_eq(limits.time[WHITE], 281000);
    cr_assert_eq(limits.time[BLACK], 286000);
    cr_assert_eq(limits.inc[WHITE], 3000);
    cr_assert_eq(limits.movestogo, 0);
}

// ------------------------------------------------------------------ settings and FEN

Test(game, set_fen) {
    Game *g = four_plies();
    unsigned gen = game_generation(g);
    char err[160] = "";
    cr_assert_not(game_set_fen(g, "8/8/8 w - - 0 1", 41000, err, sizeof err));
    cr_assert_neq(err[0], '\0');
    cr_assert_eq(game_ply_count(g), 4);
    cr_assert_eq(game_generation(g), gen);

    const char *fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40";
    cr_assert(game_set_fen(g, fen, 45000, err, sizeof err), "%s", err);
    assert_fen(g, fen);
    cr_assert_eq(game_ply_count(g), 0);
    cr_assert_eq(game_redo_available(g), 0);
    cr_assert_eq(game_generation(g), gen + 1);
    cr_assert_eq(game_start_side(g), BLACK);
    cr_assert_eq(game_start_fullmove(g), 40);
    cr_assert_str_eq(game_settings(g)->start_fen, fen);
    // Clocks are kept: White had 281 s used to 45 s; Black's now runs.
    const Clock *c = game_clock(g);
    cr_assert_eq(c->remaining_ms[WHITE], 281000);
    cr_assert_eq(c->remaining_ms[BLACK], 286000);
    cr_assert_eq(c->turn, BLACK);
    cr_assert(c->running);
    cr_assert(game_engine_to_move(g));
}

Test(game, reset_and_generation) {
    Game *g = four_plies();
    unsigned gen = game_generation(g);
    GameSettings s;
    game_settings_default(&s);
    snprintf(s.start_fen, sizeof s.start_fen, "bad");
    char err[160] = "";
    cr_assert_not(game_reset(g, &s, err, sizeof err));
    cr_assert_eq(game_ply_count(g), 4);
    cr_assert_eq(game_generation(g), gen);
    s.start_fen[0] = '\0';
    s.level = 99;
    s.players[WHITE] = PLAYER_ENGINE;
    cr_assert(game_reset(g, &s, err, sizeof err));
    cr_assert_eq(game_ply_count(g), 0);
    cr_assert_eq(game_generation(g), gen + 1);
    cr_assert_eq(game_settings(g)->level, LEVEL_MAX);
    cr_assert_eq(game_player(g, WHITE), PLAYER_ENGINE);
    cr_assert(game_engine_to_move(g));
}

Test(game, players_and_level) {
    Game *g = start(PLAYER_HUMAN, PLAYER_ENGINE, "5+3", NULL);
    game_set_players(g, PLAYER_ENGINE, PLAYER_HUMAN);
    cr_assert_eq(game_player(g, WHITE), PLAYER_ENGINE);
    cr_assert_eq(game_player(g, BLACK), PLAYER_HUMAN);
    cr_assert(game_engine_to_move(g));
    game_set_level(g, 0);
    cr_assert_eq(game_settings(g)->level, LEVEL_MIN);
    game_set_level(g, 7);
    cr_assert_eq(game_settings(g)->level, 7);
}

Test(game, set_time_control_fresh_clocks) {
    Game *g = four_plies();
    TimeControl tc = tc_of("10+0");
    game_set_time_control(g, &tc, 50000);
    const Clock *c = game_clock(g);
    cr_assert_eq(c->remaining_ms[WHITE], 600000);
    cr_assert_eq(c->remaining_ms[BLACK], 600000);
    cr_assert(c->running);
    cr_assert_eq(c->turn, WHITE);
    cr_assert_eq(clock_remaining(c, WHITE, 55000), 595000);
    char buf[TC_TEXT_MAX];
    timecontrol_format(&game_settings(g)->tc, buf, sizeof buf);
    cr_assert_str_eq(buf, "10");
    // Undo under the new control brings back its fresh times.
    cr_assert_eq(game_undo(g, 60000), GAME_OK);
    cr_assert_eq(c->remaining_ms[WHITE], 600000);
    cr_assert_eq(c->remaining_ms[BLACK], 600000);
}

// The player's comments and NAGs, in the game's document: kept per move,
// copied with the game, dropped with the redo tail a new move replaces, kept
// by undo and redo.
Test(game, comments_and_nags) {
    Game *g = start(PLAYER_HUMAN, PLAYER_HUMAN, "none", NULL);
    cr_expect_not(game_set_comment(g, 0, "no move yet"));
    cr_expect_null(game_node(g, 0));
    play(g, "e4", 0);
    play(g, "e5", 0);
    cr_assert(game_set_comment(g, 0, "  King's pawn"));
    cr_expect_str_eq(game_node(g, 0)->comment, "King's pawn");
    cr_assert(game_set_nag(g, 1, 5));
    cr_expect_not(game_set_nag(g, 1, 256));
    cr_expect_not(game_set_nag(g, 2, 1));
    cr_assert(game_set_comment(g, 1, "reply"));
    Game *copy = game_clone(g);
    cr_assert_not_null(copy);
    cr_assert(game_set_comment(g, 0, "changed"));
    cr_expect_str_eq(game_node(copy, 0)->comment, "King's pawn", "the copy has its own");
    cr_expect_eq(game_node(copy, 1)->nag_count, 1);
    cr_expect_eq(game_node(copy, 1)->nags[0], 5);
    game_free(copy);
    cr_assert_eq(game_undo(g, 0), GAME_OK);
    cr_assert_eq(game_redo(g, 0), GAME_OK);
    cr_expect_str_eq(game_node(g, 1)->comment, "reply", "redo keeps it");
    cr_assert_eq(game_undo(g, 0), GAME_OK);
    play(g, "c5", 0); // replaces e5 and its comment
    cr_expect_null(game_node(g, 1)->comment);
    cr_expect_eq(game_node(g, 1)->nag_count, 0);
    cr_assert(game_set_comment(g, 1, "   "));
    cr_expect_null(game_node(g, 1)->comment, "a blank comment is none");
    cr_assert(game_set_comment(g, 1, "Sicilian"));
    char err[160];
    cr_assert(game_set_fen(g, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, err, sizeof err));
    cr_expect_eq(game_ply_count(g), 0); // (leak checks run under valgrind.sh)
}

// ------------------------------------------------------------------ Chess960

// A Chess960 game from a numbered start, castling both ways (the king and
// rook swap squares, and a king takes its rook), written as PGN with its
// Variant, SetUp and FEN tags and read back to the same final position.
Test(game, chess960_round_trip) {
    GameSettings s;
    game_settings_default(&s);
    s.players[WHITE] = s.players[BLACK] = PLAYER_HUMAN;
    s.tc = tc_of("none");
    s.chess960 = true;
    s.chess960_number = 3; // BQNNRKRB
    char err[256] = "";
    game = game_new(&s, err, sizeof err);
    cr_assert_not_null(game, "%s", err);
    cr_assert_str_eq(game_variant(game), "Chess960 #3");
    assert_fen(game, "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1");
    cr_assert(game_board(game)->chess960);
    const char *moves[] = { "O-O", "Nb6", "a3", "Ne6", "h3", "f8e8" };
    for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++)
        play(game, moves[i], 0);
    const char *final = "bqkr2rb/pppppppp/1n2n3/8/8/P6P/1PPPPPP1/BQNNRRKB w - - 1 4";
    assert_fen(game, final); // as Stockfish 15.1 has it after f1g1 c8b6 a2a3 d8e6 h2h3 f8e8
    PgnGame *doc = game_document(game);
    cr_assert_not_null(doc);
    size_t len = 0;
    char *text = pgn_write_string(doc, &len);
    pgn_game_free(doc);
    cr_assert_not_null(text);
    cr_assert(strstr(text, "[Variant \"Chess960\"]"), "%s", text);
    cr_assert(strstr(text, "[SetUp \"1\"]"), "%s", text);
    cr_assert(strstr(text, "[FEN \"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1\"]"),
              "%s", text);
    cr_assert(strstr(text, "1. O-O Nb6 2. a3 Ne6 3. h3 O-O-O"), "%s", text);
    // Read back, also under the older tag name.
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            char *tag = strstr(text, "Chess960\"]");
            cr_assert_not_null(tag);
            char *renamed = malloc(len + 8);
            cr_assert_not_null(renamed);
            snprintf(renamed, len + 8, "%.*sFischerandom%s", (int)(tag - text), text, tag + 8);
            free(text);
            text = renamed;
        }
        PgnReader *r = pgn_reader_from_string(text, "chess960");
        cr_assert_not_null(r);
        PgnGame *back = pgn_game_new();
        PgnError perr;
        cr_assert_eq(pgn_reader_next(r, back, &perr), 1, "%s", perr.message);
        pgn_reader_close(r);
        GameSettings t;
        game_settings_default(&t);
        Game *again = game_new(&t, err, sizeof err);
        cr_assert_not_null(again);
        cr_assert(game_take_document(again, back, 0, err, sizeof err), "%s", err);
        assert_fen(again, final);
        cr_assert_str_eq(game_variant(again), "Chess960 #3");
        game_free(again);
    }
    free(text);
}

// The classical start as Chess960 #518: the same FEN, but a Chess960 game
// (the tag says so, and the book stays out of it); a random start is one of 960.
Test(game, chess960_classical_and_random) {
    GameSettings s;
    game_settings_default(&s);
    s.chess960 = true;
    s.chess960_number = 518;
    char err[256] = "";
    game = game_new(&s, err, sizeof err);
    cr_assert_not_null(game, "%s", err);
    assert_fen(game, BOARD_START_FEN);
    cr_assert_str_eq(game_variant(game), "Chess960 #518");
    cr_assert(game_board(game)->chess960);
    game_free(game);
    s.chess960_number = -1;
    game = game_new(&s, err, sizeof err);
    cr_assert_not_null(game, "%s", err);
    int n = game_settings(game)->chess960_number;
    cr_assert(n >= 0 && n < 960, "drew #%d", n);
    char name[32];
    snprintf(name, sizeof name, "Chess960 #%d", n);
    cr_assert_str_eq(game_variant(game), name);
    // Standard chess has no variant.
    game_free(game);
    game_settings_default(&s);
    game = game_new(&s, err, sizeof err);
    cr_assert_null(game_variant(game));
}
