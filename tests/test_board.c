// SPDX-License-Identifier: GPL-3.0-or-later
// The position: make/unmake, null moves, Zobrist keys, the Line history and
// its compaction, draw and game-end queries, and board_gives_check. FEN
// parsing and printing are in test_fen.c.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/line.h"
#include "tests/board_helpers.h"

// The position alone: a Board but for the move that led to it.
#define POSITION_SIZE offsetof(Board, last_move)

static PerftFens suite;
static Board board, other, saved;
// A game with its history, for repetitions and taking moves back.
static Line game;

static void setup(void) {
    test_board_setup(&suite);
}

// The random games' generator state, seeded per test so every run plays the same games.
static uint64_t rng_state;

static bool make_random(Board *b, Undo *u) {
    return test_make_random(b, u, &rng_state);
}

// Plays a random legal move for good; false when there is none.
static bool play_random(Board *b) {
    Undo u;
    return make_random(b, &u);
}

// Starts the global game at fen.
static void set_game(const char *fen) {
    Board start;
    test_board_from_fen(&start, fen);
    line_init(&game, &start);
}

// Plays space-separated coordinate moves in the global game.
static void play_game(const char *moves) {
    char text[8];
    const char *p = moves;
    int n;
    while (sscanf(p, "%7s%n", text, &n) == 1) {
        line_play(&game, test_legal_move(&game.board, text));
        p += n;
    }
}

static bool repetition_draw(int plies_since_root) {
    return board_is_repetition_draw(&game.board, game.keys, game.ply, plies_since_root);
}

// ------------------------------------------------------------------ make / unmake

// Every move of the suite's positions made and unmade. board_key_after (the search's
// prefetch) must give the key the move makes, but for what it leaves out: castling rights
// that change, a new en passant square, the pawn taken en passant.
Test(makemove, every_move_of_suite_positions_unmakes, .init = setup) {
    static MoveList list;
    long predicted = 0, left_out = 0;
    for (int i = 0; i < suite.count; i++) {
        test_board_from_fen(&board, suite.fen[i]);
        saved = board;
        movegen_legal(&board, &list);
        for (int j = 0; j < list.count; j++) {
            Move m = list.moves[j];
            Piece captured = board_captured_piece(&board, m);
            cr_expect_eq(board_is_capture(&board, m), captured != NO_PIECE);
            Key after = board_key_after(&board, m);
            Undo u;
            board_make_move(&board, m, &u);
            if (board.castling == saved.castling && board.ep == SQ_NONE &&
                move_kind(m) != MOVE_EN_PASSANT) {
                cr_expect_eq(after, board.key, "\"%s\" move %#06x: key after", suite.fen[i], m);
                predicted++;
            } else {
                left_out++;
            }
            cr_expect_eq(board_last_move(&board), m);
            cr_expect_eq(u.captured, captured, "\"%s\" move %#06x", suite.fen[i], m);
            cr_expect_eq(u.key, saved.key);
            cr_expect_neq(board.key, saved.key, "\"%s\" move %#06x: key unchanged", suite.fen[i],
                          m);
            test_expect_consistent(&board, suite.fen[i]);
            board_unmake_move(&board, &u);
            cr_expect(test_same_board(&board, &saved), "\"%s\": move %#06x not undone",
                      suite.fen[i], m);
        }
    }
    // The suite's positions are rich in what the key after leaves out (castling rights
    // stand in most), yet most moves are predicted.
    cr_expect_gt(predicted, left_out, "%ld predicted, %ld left out", predicted, left_out);
}

// Random playouts of up to 200 plies, then unmade all the way back; the state
// at every ply must come back exactly.
Test(makemove, long_playouts_unmake_to_the_start, .init = setup) {
    enum { PLIES = 200 };
    static Board states[PLIES + 1];
    static Undo undo[PLIES];
    rng_state = 7;
    for (int g = 0; g < 40; g++) {
        test_board_from_fen(&board, g % 3 ? suite.fen[(g * 13) % suite.count] : BOARD_START_FEN);
        int plies = 0;
        states[0] = board;
        while (plies < PLIES && make_random(&board, &undo[plies])) {
            plies++;
            states[plies] = board;
        }
        while (plies > 0) {
            board_unmake_move(&board, &undo[--plies]);
            cr_expect(test_same_board(&board, &states[plies]),
                      "game %d: state at ply %d not restored", g, plies);
        }
    }
}

// ------------------------------------------------------------------ keys

Test(keys, incremental_equals_computed, .init = setup) {
    rng_state = 99;
    long checked = 0;
    for (int g = 0; g < 50; g++) {
        test_board_from_fen(&board, g % 2 ? BOARD_START_FEN : suite.fen[(g * 5) % suite.count]);
        for (int ply = 0; ply < 300 && play_random(&board); ply++) {
            cr_expect_eq(board.key, board_compute_key(&board), "game %d ply %d: key", g, ply);
            cr_expect_eq(board.pawn_key, board_compute_pawn_key(&board), "game %d ply %d: pawn key",
                         g, ply);
            checked++;
        }
    }
    cr_expect_gt(checked, 5000);
}

Test(keys, transpositions, .init = setup) {
    test_board_from_fen(&board, BOARD_START_FEN);
    test_board_from_fen(&other, BOARD_START_FEN);
    test_play_moves(&board, "g1f3 g8f6 b1c3 b8c6");
    test_play_moves(&other, "b1c3 b8c6 g1f3 g8f6");
    cr_expect_eq(board.key, other.key);
    cr_expect_eq(board.pawn_key, other.pawn_key);

    // e2e4 then d2d4, or the other way round: no en-passant capture either
    // way, so the keys agree.
    test_board_from_fen(&board, BOARD_START_FEN);
    test_board_from_fen(&other, BOARD_START_FEN);
    test_play_moves(&board, "e2e4 e7e6 d2d4");
    test_play_moves(&other, "d2d4 e7e6 e2e4");
    cr_expect_eq(board.key, other.key);
    cr_expect_eq(board.pawn_key, other.pawn_key);

    // The same placement with and without castling rights differs.
    test_board_from_fen(&board, BOARD_START_FEN);
    test_play_moves(&board, "g1f3 g8f6 h1g1 h8g8 g1h1 g8h8");
    test_board_from_fen(&other, BOARD_START_FEN);
    cr_expect_neq(board.key, other.key);
    test_board_from_fen(&other, "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w Qq - 6 4");
    cr_expect(memcmp(&board, &other, POSITION_SIZE) == 0);
    cr_expect_eq(board.key, other.key);
    test_board_from_fen(&other, "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 6 4");
    cr_expect_neq(board.key, other.key);
    // Pawn keys ignore castling rights and pieces other than pawns and kings.
    test_board_from_fen(&other, BOARD_START_FEN);
    cr_expect_eq(board.pawn_key, other.pawn_key);

    // The side to move is in the key.
    test_board_from_fen(&board, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    test_board_from_fen(&other, "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    cr_expect_neq(board.key, other.key);
    cr_expect_eq(board.pawn_key, other.pawn_key);
}

Test(keys, en_passant_in_the_key_only_when_capturable, .init = setup) {
    // A capture is possible: the square is part of the position.
    test_board_from_fen(&board, BOARD_START_FEN);
    test_play_moves(&board, "e2e4 g8f6 e4e5 d7d5");
    cr_expect_eq(board.ep, square_from_name("d6"));
    test_board_from_fen(&other, "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    cr_expect(memcmp(&board, &other, POSITION_SIZE) == 0);
    cr_expect_eq(board.key, other.key);
    test_board_from_fen(&other, "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    cr_expect_neq(board.key, other.key);
    // No capture possible: the square is dropped and the keys agree.
    test_board_from_fen(&board, BOARD_START_FEN);
    test_play_moves(&board, "e2e4");
    cr_expect_eq(board.ep, SQ_NONE);
    test_board_from_fen(&other, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    cr_expect_eq(board.key, other.key);
    test_board_from_fen(&other, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    cr_expect_eq(board.key, other.key);
}

// ------------------------------------------------------------------ null move, history

Test(nullmove, make_unmake_restores, .init = setup) {
    static const char *const fens[] = {
        BOARD_START_FEN,
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 7 30",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        test_board_from_fen(&board, fens[i]);
        saved = board;
        Undo null, u;
        board_make_null(&board, &null);
        cr_expect_eq(board.side, !saved.side);
        cr_expect_eq(board.ep, SQ_NONE);
        cr_expect_eq(board_last_move(&board), MOVE_NULL);
        cr_expect_eq(board.halfmove, saved.halfmove + 1);
        cr_expect_eq(board.key, board_compute_key(&board));
        cr_expect_eq(board.pawn_key, saved.pawn_key);
        test_expect_consistent(&board, fens[i]);
        // Moves can be made and unmade on top of it.
        cr_expect(make_random(&board, &u));
        board_unmake_move(&board, &u);
        board_unmake_null(&board, &null);
        cr_expect(test_same_board(&board, &saved), "\"%s\": null move not undone", fens[i]);
    }
    // Interleaved with real moves in a playout.
    enum { PLIES = 100 };
    static Undo undo[PLIES];
    rng_state = 5;
    test_board_from_fen(&board, BOARD_START_FEN);
    saved = board;
    int nulls = 0, plies = 0;
    for (; plies < PLIES; plies++) {
        if (!board_in_check(&board) && plies % 3 == 0) {
            board_make_null(&board, &undo[plies]);
            nulls++;
        } else if (!make_random(&board, &undo[plies])) {
            break;
        }
        cr_expect_eq(board.key, board_compute_key(&board));
    }
    while (plies > 0) {
        const Undo *u = &undo[--plies];
        if (u->move == MOVE_NULL)
            board_unmake_null(&board, u);
        else
            board_unmake_move(&board, u);
    }
    cr_expect_gt(nulls, 10);
    cr_expect(test_same_board(&board, &saved));
}

// The history lives with the caller: a Board is small and copied freely.
Test(board, small_and_without_history, .init = setup) {
    cr_expect_lt(sizeof(Board), 1024, "sizeof(Board) is %zu", sizeof(Board));
    cr_expect_leq(sizeof(Undo), 48, "sizeof(Undo) is %zu", sizeof(Undo));
    // A copy is a full, independent position.
    test_board_from_fen(&board, BOARD_START_FEN);
    Board copy = board;
    test_play_moves(&copy, "e2e4 e7e5");
    test_expect_consistent(&copy, "copy");
    test_board_from_fen(&other, BOARD_START_FEN);
    cr_expect(test_same_board(&board, &other));
}

Test(line, compaction_keeps_keys_and_repetitions, .init = setup) {
    static const char *const cycle[4] = { "g1f3", "g8f6", "f3g1", "f6g8" };
    set_game(BOARD_START_FEN);
    Key start = game.board.key;
    int max_ply = 0;
    for (int ply = 1; ply <= 3 * LINE_MAX + 2; ply++) {
        play_game(cycle[(ply - 1) % 4]);
        cr_assert_leq(game.ply, LINE_MAX);
        cr_assert_gt(game.ply, 0);
        max_ply = game.ply > max_ply ? game.ply : max_ply;
        cr_expect_eq(game.board.key, board_compute_key(&game.board), "ply %d", ply);
        cr_expect_eq(game.board.halfmove, ply);
        if (ply % 4 == 0) {
            // The start position again, seen every four plies back within
            // the history still held.
            cr_expect_eq(game.board.key, start);
            int window = game.ply < game.board.halfmove ? game.ply : game.board.halfmove;
            cr_expect_eq(line_repetitions(&game), window / 4, "ply %d (held %d)", ply, game.ply);
            cr_expect(repetition_draw(0) == (window / 4 >= 2));
        }
    }
    cr_expect_eq(max_ply, LINE_MAX);
    cr_expect_eq(game.board.fullmove, 1 + (3 * LINE_MAX + 2) / 2);
    // The start folded forward: replaying the held moves gives the position.
    Board replayed = game.start;
    for (int i = 0; i < game.ply; i++) {
        cr_expect_eq(replayed.key, game.keys[i]);
        board_play(&replayed, game.moves[i]);
    }
    cr_expect(test_same_board(&replayed, &game.board));
    // The moves still held can be taken back, down to the folded start.
    int keep = game.ply;
    for (int i = 0; i < keep; i++) {
        cr_expect(line_undo(&game));
        cr_expect_eq(game.board.key, board_compute_key(&game.board));
        if (game.ply % 4 == 0)
            cr_expect_eq(game.board.key, start);
    }
    cr_expect_eq(game.ply, 0);
    cr_expect(test_same_board(&game.board, &game.start));
    cr_expect_not(line_undo(&game));
}

// A PGN null move in a line is a pass: the side to move changes, the key
// history goes on, and undo takes it back like a move.
Test(line, null_move_is_a_pass, .init = setup) {
    set_game(BOARD_START_FEN);
    play_game("g1f3");
    Board before = game.board;
    line_play(&game, MOVE_NULL);
    cr_expect_eq(game.board.side, WHITE);
    cr_expect_eq(board_last_move(&game.board), MOVE_NULL);
    cr_expect_eq(game.keys[1], before.key);
    test_expect_consistent(&game.board, "after a null move");
    play_game("f3g1");
    line_play(&game, MOVE_NULL);
    // The start position again, with White to move: a repetition.
    cr_expect_eq(line_repetitions(&game), 1);
    cr_assert(line_undo(&game));
    cr_assert(line_undo(&game));
    cr_assert(line_undo(&game));
    cr_expect(test_same_board(&game.board, &before));
}

Test(line, undo_restores_each_position, .init = setup) {
    enum { PLIES = 120 };
    static Board states[PLIES + 1];
    rng_state = 11;
    set_game(suite.fen[3]);
    states[0] = game.board;
    int plies = 0;
    static MoveList list;
    for (; plies < PLIES; plies++) {
        movegen_legal(&game.board, &list);
        if (list.count == 0)
            break;
        line_play(&game, list.moves[test_rng_next(&rng_state) % (uint64_t)list.count]);
        states[plies + 1] = game.board;
        cr_expect_eq(game.keys[plies], states[plies].key);
    }
    while (plies > 0) {
        cr_assert(line_undo(&game));
        plies--;
        cr_expect(test_same_board(&game.board, &states[plies]), "ply %d not restored", plies);
    }
}

// ------------------------------------------------------------------ draws and game end

Test(draw, repetitions_count, .init = setup) {
    set_game(BOARD_START_FEN);
    cr_expect_eq(line_repetitions(&game), 0);
    play_game("g1f3");
    cr_expect_eq(line_repetitions(&game), 0);
    play_game("g8f6 f3g1 f6g8");
    cr_expect_eq(line_repetitions(&game), 1);
    play_game("g1f3");
    cr_expect_eq(line_repetitions(&game), 1);
    play_game("g8f6 f3g1");
    cr_expect_eq(line_repetitions(&game), 1);
    play_game("f6g8");
    cr_expect_eq(line_repetitions(&game), 2);

    // An irreversible move closes the window.
    play_game("e2e4 e7e5");
    cr_expect_eq(line_repetitions(&game), 0);
    play_game("g1f3 g8f6 f3g1 f6g8");
    cr_expect_eq(line_repetitions(&game), 1);
}

Test(draw, repetition_draw_semantics, .init = setup) {
    set_game(BOARD_START_FEN);
    play_game("g1f3 g8f6 f3g1 f6g8");
    // Once before, 4 plies back: a draw only when that was inside the search.
    cr_expect_not(repetition_draw(0));
    cr_expect_not(repetition_draw(3));
    cr_expect(repetition_draw(4));
    cr_expect(repetition_draw(100));
    play_game("g1f3 g8f6 f3g1 f6g8");
    // Twice before: a draw whatever the root.
    cr_expect(repetition_draw(0));
    cr_expect(repetition_draw(1));
    // Not a repetition at all: never a draw.
    play_game("b1c3");
    cr_expect_eq(line_repetitions(&game), 0);
    cr_expect_not(repetition_draw(0));
    cr_expect_not(repetition_draw(100));
    // Positions reached with the other side to move (2 plies back) never count.
    set_game("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    play_game("e1d1 e8d8");
    cr_expect_eq(line_repetitions(&game), 0);
    cr_expect_not(repetition_draw(100));
}

Test(draw, en_passant_square_and_repetition, .init = setup) {
    // 1.e4 leaves no capturable en-passant square: the position after it
    // repeats with the same position reached by knight moves.
    set_game(BOARD_START_FEN);
    play_game("e2e4 b8c6 g1f3 c6b8 f3g1");
    cr_expect_eq(line_repetitions(&game), 1);
    // A capturable en-passant square makes a different position.
    set_game(BOARD_START_FEN);
    play_game("e2e4 g8f6 e4e5 d7d5");
    cr_expect_neq(game.board.ep, SQ_NONE);
    play_game("g1f3 b8c6 f3g1 c6b8");
    cr_expect_eq(line_repetitions(&game), 0);
    play_game("g1f3 b8c6 f3g1 c6b8");
    cr_expect_eq(line_repetitions(&game), 1);
}

static bool insufficient(const char *fen) {
    test_board_from_fen(&board, fen);
    return board_insufficient_material(&board);
}

Test(draw, insufficient_material, .init = setup) {
    cr_expect(insufficient("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));         // KvK
    cr_expect(insufficient("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"));        // KNvK
    cr_expect(insufficient("4k3/8/8/8/8/8/8/4KB2 w - - 0 1"));        // KBvK
    cr_expect(insufficient("4kn2/8/8/8/8/8/8/4K3 b - - 0 1"));        // KvKN
    cr_expect(insufficient("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"));      // KBvKB, both dark
    cr_expect(insufficient("2b1k3/8/8/8/8/8/8/3BK3 w - - 0 1"));      // KBvKB, both light
    cr_expect_not(insufficient("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1")); // KBvKB, opposite
    cr_expect(insufficient("4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1"));     // KBBvK, same colour
    cr_expect_not(insufficient("4k3/8/8/8/8/8/8/2BBK3 w - - 0 1"));   // KBBvK, both colours
    cr_expect_not(insufficient("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1"));   // KNNvK
    cr_expect_not(insufficient("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1"));   // KNvKN
    cr_expect_not(insufficient("4kn2/8/8/8/8/8/8/4KB2 w - - 0 1"));   // KBvKN
    cr_expect_not(insufficient("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));   // KPvK
    cr_expect_not(insufficient("4k3/8/8/8/8/8/8/4K2R w - - 0 1"));    // KRvK
    cr_expect_not(insufficient("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"));    // KQvK
    cr_expect_not(insufficient(BOARD_START_FEN));
}

Test(draw, mate_and_stalemate, .init = setup) {
    test_board_from_fen(&board, BOARD_START_FEN);
    cr_expect_not(movegen_is_checkmate(&board));
    cr_expect_not(movegen_is_stalemate(&board));
    test_play_moves(&board, "f2f3 e7e5 g2g4");
    cr_expect_not(movegen_is_checkmate(&board));
    test_play_moves(&board, "d8h4");
    cr_expect(board_in_check(&board));
    cr_expect(movegen_is_checkmate(&board));
    cr_expect_not(movegen_is_stalemate(&board));

    test_board_from_fen(&board, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    cr_expect(movegen_is_stalemate(&board));
    cr_expect_not(movegen_is_checkmate(&board));
    // Check with an escape is neither.
    test_board_from_fen(&board, "7k/8/6K1/8/8/8/8/7R b - - 0 1");
    cr_expect(board_in_check(&board));
    cr_expect_not(movegen_is_checkmate(&board));
    cr_expect_not(movegen_is_stalemate(&board));
    // Back-rank mate, and a king and pawn stalemate.
    test_board_from_fen(&board, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    cr_expect(movegen_is_checkmate(&board));
    test_board_from_fen(&board, "k7/P7/1K6/8/8/8/8/8 b - - 0 1");
    cr_expect(movegen_is_stalemate(&board));
}

// ------------------------------------------------------------------ attacks, checks

static void check_gives_check(Board *b, const char *fen) {
    MoveList list;
    movegen_legal(b, &list);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        bool predicted = board_gives_check(b, m);
        Undo u;
        board_make_move(b, m, &u);
        bool actual = board_in_check(b);
        board_unmake_move(b, &u);
        if (predicted != actual) {
            char now[FEN_MAX];
            board_to_fen(b, now, sizeof now);
            cr_expect_eq(predicted, actual, "from \"%s\" at \"%s\": move %#06x gives check %d", fen,
                         now, m, predicted);
        }
    }
}

Test(attacks, gives_check_agrees_with_making_the_move, .init = setup) {
    static MoveList root;
    for (int i = 0; i < suite.count; i++) {
        test_board_from_fen(&board, suite.fen[i]);
        check_gives_check(&board, suite.fen[i]);
        movegen_legal(&board, &root);
        for (int j = 0; j < root.count; j++) {
            Undo u;
            board_make_move(&board, root.moves[j], &u);
            check_gives_check(&board, suite.fen[i]);
            board_unmake_move(&board, &u);
        }
    }
}

// Random playouts reach discovered checks, checks by castling, promotion and
// en passant far more often than the suite's first two plies do.
Test(attacks, gives_check_along_random_playouts, .init = setup) {
    rng_state = 31337;
    for (int g = 0; g < 60; g++) {
        test_board_from_fen(&board, g % 2 ? BOARD_START_FEN : suite.fen[(g * 17) % suite.count]);
        for (int ply = 0; ply < 150; ply++) {
            check_gives_check(&board, "random playout");
            if (!play_random(&board))
                break;
        }
    }
}

Test(attacks, gives_check_special_cases, .init = setup) {
    static const struct {
        const char *fen, *move;
        bool check;
    } cases[] = {
        { "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1", "e2c3", true },  // discovered by a rook
        { "7k/8/8/8/8/8/1N6/B5K1 w - - 0 1", "b2d3", true },    // discovered by a bishop
        { "4k3/8/8/8/8/8/4K3/4R3 w - - 0 1", "e2d3", true },    // discovered by a king step
        { "4k3/8/8/8/8/8/4K3/4R3 w - - 0 1", "e2e3", false },   // the king stays on the line
        { "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", false },  // castling, no check
        { "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", true },   // the castled rook checks
        { "5k2/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", true },   // on either side
        { "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", true },   // promotion to a queen checks
        { "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", false },  // to a knight does not
        { "8/1P6/2k5/8/8/8/8/4K3 w - - 0 1", "b7b8n", true },   // here it does
        { "8/8/8/k1pP3R/8/8/8/4K3 w - c6 0 1", "d5c6", true },  // en passant opens the rank
        { "8/1k6/8/2pP4/8/8/8/4K3 w - c6 0 1", "d5c6", true },  // the capturing pawn checks
        { "8/8/8/3k4/2pP4/8/8/4K3 b - d3 0 1", "c4d3", false }, // en passant, no check
        { "8/8/8/8/2pP4/8/4K3/6k1 b - d3 0 1", "c4d3", true },  // black's pawn checks
        { "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "f1b5", true },
        { "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "f1c4", false },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_board_from_fen(&board, cases[i].fen);
        Move m = test_find_move(&board, cases[i].move);
        cr_assert_neq(m, MOVE_NONE, "%s not legal in \"%s\"", cases[i].move, cases[i].fen);
        cr_expect_eq(board_gives_check(&board, m), cases[i].check, "\"%s\" %s", cases[i].fen,
                     cases[i].move);
        board_play(&board, m);
        cr_expect_eq(board_in_check(&board), cases[i].check, "\"%s\" %s (made)", cases[i].fen,
                     cases[i].move);
    }
}

Test(attacks, checkers_and_attacked_squares, .init = setup) {
    test_board_from_fen(&board, "4k3/8/3N4/1B6/8/8/8/4K2R b - - 0 1");
    cr_expect_eq(board.checkers,
                 bb_square(square_from_name("d6")) | bb_square(square_from_name("b5")));
    cr_expect(board_square_attacked(&board, square_from_name("e8"), WHITE));
    cr_expect(board_square_attacked(&board, square_from_name("h8"), WHITE));
    cr_expect_not(board_square_attacked(&board, square_from_name("a8"), WHITE));
    cr_expect(board_square_attacked(&board, square_from_name("d7"), BLACK));
    Bitboard att = board_attackers_to(&board, square_from_name("c4"), board_occupied(&board));
    cr_expect_eq(att, bb_square(square_from_name("b5")) | bb_square(square_from_name("d6")));
}

Test(squares, names, .init = setup) {
    char name[3];
    square_name(SQ_A1, name);
    cr_expect_str_eq(name, "a1");
    square_name(SQ_H8, name);
    cr_expect_str_eq(name, "h8");
    square_name(SQ_NONE, name);
    cr_expect_str_eq(name, "-");
    for (Square s = 0; s < SQ_NB; s++) {
        square_name(s, name);
        cr_expect_eq(square_from_name(name), s);
    }
    cr_expect_eq(square_from_name("i1"), SQ_NONE);
    cr_expect_eq(square_from_name("a9"), SQ_NONE);
    cr_expect_eq(square_from_name("a"), SQ_NONE);
    cr_expect_eq(square_from_name(""), SQ_NONE);
    cr_expect_eq(square_from_name(NULL), SQ_NONE);
}
