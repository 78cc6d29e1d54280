// SPDX-License-Identifier: GPL-3.0-or-later
// FEN: parsing and printing, round trips over the perft suite, real positions
// and random play, the reasons given for invalid FENs, and placement-only
// input. The rest of the position's tests are in test_board.c.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/board_helpers.h"

// The position alone: a Board but for the move that led to it.
#define POSITION_SIZE offsetof(Board, last_move)

static PerftFens suite;
static Board board, other, saved;

static void setup(void) {
    test_board_setup(&suite);
}

// The random games' generator state, seeded per test so every run plays the same games.
static uint64_t rng_state;

// Plays a random legal move for good; false when there is none.
static bool play_random(Board *b) {
    Undo u;
    return test_make_random(b, &u, &rng_state);
}

// ------------------------------------------------------------------ FEN round trips

// The FEN with its en-passant field replaced by "-".
// (Fields separated by single blanks, as in the suite.)
static void without_ep(const char *fen, char *out, size_t outsz) {
    const char *start = fen;
    for (int i = 0; i < 3; i++) {
        start = strchr(start, ' ');
        cr_assert_not_null(start, "\"%s\" has too few fields", fen);
        start++;
    }
    const char *end = strchr(start, ' ');
    cr_assert_not_null(end, "\"%s\" has too few fields", fen);
    snprintf(out, outsz, "%.*s-%s", (int)(start - fen), fen, end);
}

// Round trip of one FEN. The en-passant square survives exactly when a legal
// en-passant capture uses it.
static void check_round_trip(const char *fen) {
    char out[FEN_MAX], bare[PERFT_FEN_LEN];
    test_board_from_fen(&board, fen);
    board_to_fen(&board, out, sizeof out);
    without_ep(fen, bare, sizeof bare);
    if (board.ep != SQ_NONE) {
        cr_expect_str_eq(out, fen);
        cr_expect(test_has_ep_move(&board), "\"%s\": en-passant square kept without a capture",
                  fen);
    } else {
        cr_expect_str_eq(out, bare);
        // If the FEN named a square, forcing it back must not create a capture.
        char name[3] = { 0 };
        if (sscanf(fen, "%*s %*s %*s %2s", name) == 1 && name[0] != '-') {
            other = board;
            other.ep = (uint8_t)square_from_name(name);
            cr_expect_not(test_has_ep_move(&other), "\"%s\": legal en-passant square dropped", fen);
        }
    }
    // Parsing the output gives the same position and key.
    test_board_from_fen(&other, out);
    cr_expect(test_same_board(&board, &other), "\"%s\": reparsed \"%s\" differs", fen, out);
    test_expect_consistent(&board, fen);
}

static const char *const real_fens[] = {
    BOARD_START_FEN,
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkb1r/pppp1ppp/5n2/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4",
    "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 0 7",
    "2r3k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 12 40",
    "8/8/4k3/8/2pP4/8/4K3/8 b - d3 0 50",
    "8/8/8/8/8/8/8/K6k w - - 99 200",
    "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 20",
    "4k3/8/8/8/8/8/8/R3K3 w Q - 10000 10000",
    "rnbqkbnr/1ppppppp/8/p7/8/8/PPPPPPPP/RNBQKBNR w KQkq a6 0 2",
};

Test(fen, round_trip_suite, .init = setup) {
    for (int i = 0; i < suite.count; i++)
        check_round_trip(suite.fen[i]);
}

Test(fen, round_trip_real_positions, .init = setup) {
    for (size_t i = 0; i < sizeof real_fens / sizeof real_fens[0]; i++)
        check_round_trip(real_fens[i]);
    // "a6" names a square no pawn can take on: dropped.
    test_board_from_fen(&board, real_fens[12]);
    cr_expect_eq(board.ep, SQ_NONE);
    test_board_from_fen(&board, real_fens[3]);
    cr_expect_eq(board.ep, square_from_name("f6"));
}

// Positions reached by play print a FEN that parses back to the same state.
Test(fen, round_trip_random_playouts, .init = setup) {
    rng_state = 2024;
    char out[FEN_MAX], again[FEN_MAX];
    for (int g = 0; g < 20; g++) {
        test_board_from_fen(&board, suite.fen[(g * 11) % suite.count]);
        for (int ply = 0; ply < 120 && play_random(&board); ply++) {
            board_to_fen(&board, out, sizeof out);
            test_board_from_fen(&other, out);
            cr_expect(memcmp(&board, &other, POSITION_SIZE) == 0, "reparsed \"%s\" differs", out);
            board_to_fen(&other, again, sizeof again);
            cr_expect_str_eq(again, out);
        }
    }
}

Test(fen, four_fields_default_counters, .init = setup) {
    char out[FEN_MAX];
    test_board_from_fen(&board, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -");
    board_to_fen(&board, out, sizeof out);
    cr_expect_str_eq(out, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    cr_expect_eq(board.halfmove, 0);
    cr_expect_eq(board.fullmove, 1);
    test_board_from_fen(&board, "4k3/8/8/8/8/8/8/4K2R w K -");
    board_to_fen(&board, out, sizeof out);
    cr_expect_str_eq(out, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    // Castling letters in any order print in KQkq order.
    test_board_from_fen(&board, "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1");
    board_to_fen(&board, out, sizeof out);
    cr_expect_str_eq(out, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

// What the parser accepts on purpose although the FEN grammar is stricter;
// man/patzer.6 (FEN) lists the same cases.
Test(fen, lenient_on_purpose, .init = setup) {
    char out[FEN_MAX];
    // Runs of blanks or tabs between fields, and blanks around the FEN.
    test_board_from_fen(&board, "\t4k3/8/8/8/8/8/8/4K3 \t w - -  7 40 \n");
    board_to_fen(&board, out, sizeof out);
    cr_expect_str_eq(out, "4k3/8/8/8/8/8/8/4K3 w - - 7 40");
    // Leading zeros in the clocks.
    test_board_from_fen(&board, "4k3/8/8/8/8/8/8/4K3 w - - 007 012");
    cr_expect_eq(board.halfmove, 7);
    cr_expect_eq(board.fullmove, 12);
    // An en-passant square after a double push that no pawn can take on is
    // dropped, as is one given with a non-zero halfmove clock.
    test_board_from_fen(&board, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 3 1");
    cr_expect_eq(board.ep, SQ_NONE);
    test_board_from_fen(&board, "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 5 3");
    cr_expect_eq(board.ep, square_from_name("d6"));
}

Test(fen, start_position, .init = setup) {
    char out[FEN_MAX];
    board_set_start(&board);
    board_to_fen(&board, out, sizeof out);
    cr_expect_str_eq(out, BOARD_START_FEN);
    cr_expect_eq(board_last_move(&board), MOVE_NONE);
    cr_expect_eq(board.side, WHITE);
    cr_expect_eq(board.castling, CASTLE_ALL);
    cr_expect_eq(board_king(&board, WHITE), SQ_E1);
    cr_expect_eq(board_king(&board, BLACK), SQ_E8);
    cr_expect_eq(board_piece_on(&board, SQ_D8), B_QUEEN);
    cr_expect_eq(board_piece_on(&board, SQ_E1 + 16), NO_PIECE);
    test_expect_consistent(&board, "start");
    // A short buffer gets a terminated prefix.
    char small[10];
    board_to_fen(&board, small, sizeof small);
    cr_expect_str_eq(small, "rnbqkbnr/");
}

// ------------------------------------------------------------------ invalid FENs

typedef struct BadFen {
    const char *fen;
    const char *message; // a substring of the error
} BadFen;

static const BadFen bad_fens[] = {
    { "8/8/8 w -", "expected 6 fields, got 3" },
    { "", "expected 6 fields, got 0" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "expected 6 fields, got 5" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", "expected 6 fields, got 7" },
    { "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unexpected character 'x'" },
    { "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unexpected character '9'" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", "more than 8 ranks" },
    { "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "rank 7 has more than 8 squares" },
    { "rnbqkbnr/pppppppp/8/8/8/5P3/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "rank 3 has more than 8 squares" },
    // Digits: 1 to 8, one per run of empty squares.
    { "rnbqkbnr/pppppppp/17/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6: two digits in a row" },
    { "rnbqkbnr/pppppppp/8/8/8/44/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 3: two digits in a row" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN11 w KQkq - 0 1", "rank 1: two digits in a row" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB1R1 w KQkq - 0 1",
      "rank 1 has more than 8 squares" },
    { "rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "unexpected character '0'" },
    { "rnbqkbnr/pppppppp/8//8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "rank 5 has 0 squares, expected 8" },
    { "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "rank 7 has 7 squares, expected 8" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
      "rank 1 has 7 squares, expected 8" },
    { "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks, expected 8" },
    { "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks" },
    { "8/8/8/8/8/8/8/4K3 w - - 0 1", "no black king" },
    { "4k3/8/8/8/8/8/8/8 w - - 0 1", "no white king" },
    { "4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "2 white kings" },
    { "4k1k1/8/8/8/8/8/8/4K3 w - - 0 1", "2 black kings" },
    { "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on rank 8" },
    { "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "pawn on rank 1" },
    { "4k3/8/8/P7/PPPPPPPP/8/8/4K3 w - - 0 1", "9 white pawns" },
    { "4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "9 black pawns" },
    { "QQQQk3/QQQQ4/Q7/8/8/8/PPPPPPP1/4K3 b - - 0 1", "17 white pieces" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
      "side to move 'x' must be 'w' or 'b'" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", "side to move 'white'" },
    { "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
      "castling: 'K' but no white rook on the kingside of the king on e1" },
    { "4k3/8/8/8/8/8/8/4K3 w Q - 0 1",
      "castling: 'Q' but no white rook on the queenside of the king on e1" },
    { "4k3/8/8/8/8/8/8/4K3 w k - 0 1",
      "castling: 'k' but no black rook on the kingside of the king on e8" },
    { "4k3/8/8/8/8/8/8/4K3 w q - 0 1",
      "castling: 'q' but no black rook on the queenside of the king on e8" },
    { "4k3/8/8/8/8/8/8/R6K w K - 0 1",
      "castling: 'K' but no white rook on the kingside of the king on h1" },
    { "4k3/8/8/8/8/8/3K4/7R w K - 0 1", "castling: 'K' but the white king is not on rank 1" },
    { "r7/7k/8/8/8/8/8/4K3 w q - 0 1", "castling: 'q' but the black king is not on rank 8" },
    // Shredder-FEN and X-FEN file letters name the rook's file.
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w GAha - 0 1",
      "castling: 'G' but no white rook on g1" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAhb - 0 1",
      "castling: 'b' but no black rook on b8" },
    { "4k3/8/8/8/8/8/8/4K2R w HK - 0 1", "castling: 'K' given twice" },
    { "4k3/8/8/8/8/8/8/R3K2R w AQ - 0 1", "castling: 'Q' given twice" },
    { "r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", "castling: unexpected character 'X'" },
    { "r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", "castling: 'K' given twice" },
    { "r3k2r/8/8/8/8/8/8/R3K2R w -K - 0 1", "castling: unexpected character '-'" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
      "en passant square e3 impossible" },
    { "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
      "en passant square e4 impossible" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
      "en passant square e3 impossible" },
    { "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1",
      "en passant square e3 impossible" },
    // The en-passant square: "-" or a square on rank 3 (Black to move) or 6.
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e5 0 1",
      "en passant square e5 impossible: not on rank 3 or 6" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq a1 0 1",
      "en passant square a1 impossible: not on rank 3 or 6" },
    { "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq d6 0 1",
      "en passant square d6 impossible with black to move" },
    { "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
      "en passant square e3 impossible with white to move" },
    { "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq E3 0 1",
      "en passant: 'E3' is not a square" },
    { "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -- 0 1",
      "en passant: '--' is not a square" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
      "en passant: 'z9' is not a square" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e33 0 1",
      "en passant: 'e33' is not a square" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1",
      "en passant: 'e' is not a square" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
      "halfmove clock 'x' is not a number" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
      "halfmove clock '-1' is not a number" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3x 1",
      "halfmove clock '3x' is not a number" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one",
      "fullmove number 'one' is not a number" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -5",
      "fullmove number '-5' is not a number" },
    // Clocks: non-negative decimal integers, nothing else.
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +1 1",
      "halfmove clock '+1' is not a number" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1.5 1",
      "halfmove clock '1.5' is not a number" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0x10",
      "fullmove number '0x10' is not a number" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999999999999 1",
      "halfmove clock 99999999999999999999999 out of range" },
    // Castling: "-" alone, or letters from KQkq and the files.
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K- - 0 1",
      "castling: unexpected character '-'" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQiq - 0 1",
      "castling: unexpected character 'i'" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w -- - 0 1",
      "castling: unexpected character '-'" },
    // Nothing after the sixth field (an EPD operation makes a seventh).
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 bm e4;",
      "expected 6 fields, got 8" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
      "fullmove number 0 out of range" },
    { "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 10001 1",
      "halfmove clock 10001 out of range" },
    { "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "side not to move is in check" },
    { "4k3/8/3N4/1B6/8/8/8/4RK2 b - - 0 1", "side to move is in check by 3 pieces" },
    { "4k3/8/8/3pP3/8/8/8/r3K3 w - d6 0 1", "en passant square d6 impossible with this check" },
};

Test(fen, invalid_fens_rejected_with_reason, .init = setup) {
    for (size_t i = 0; i < sizeof bad_fens / sizeof bad_fens[0]; i++) {
        char err[256] = "";
        bool ok = board_set_fen(&board, bad_fens[i].fen, err, sizeof err);
        cr_expect_not(ok, "accepted \"%s\"", bad_fens[i].fen);
        cr_expect(strstr(err, bad_fens[i].message) != NULL,
                  "\"%s\": error \"%s\" does not contain \"%s\"", bad_fens[i].fen, err,
                  bad_fens[i].message);
    }
}

Test(fen, odd_inputs, .init = setup) {
    char err[128] = "";
    cr_expect_not(board_set_fen(&board, NULL, err, sizeof err));
    cr_expect(strstr(err, "empty FEN") != NULL, "error \"%s\"", err);
    char longer[256];
    memset(longer, 'p', 200);
    strcpy(longer + 200, " w - - 0 1");
    cr_expect_not(board_set_fen(&board, longer, err, sizeof err));
    cr_expect(strstr(err, "too long") != NULL, "error \"%s\"", err);
    // No error buffer, or a tiny one, is fine.
    cr_expect_not(board_set_fen(&board, "8/8/8 w -", NULL, 0));
    char tiny[4] = "xyz";
    cr_expect_not(board_set_fen(&board, "8/8/8 w -", tiny, sizeof tiny));
    cr_expect_str_eq(tiny, "exp");
    // Extra blanks between fields are accepted.
    test_board_from_fen(&board, "  4k3/8/8/8/8/8/8/4K3   w  -  -  0  1  ");
}

Test(fen, rejected_fen_leaves_board_unchanged, .init = setup) {
    test_board_from_fen(&board, BOARD_START_FEN);
    test_play_moves(&board, "e2e4 c7c5 g1f3");
    saved = board;
    for (size_t i = 0; i < sizeof bad_fens / sizeof bad_fens[0]; i++) {
        char err[128];
        board_set_fen(&board, bad_fens[i].fen, err, sizeof err);
        cr_expect(memcmp(&board, &saved, sizeof board) == 0, "\"%s\" changed the board",
                  bad_fens[i].fen);
    }
    // And the board still works.
    test_expect_consistent(&board, "after rejected FENs");
    test_play_moves(&board, "b8c6");
}

// ---------------------------------------------------- placement-only FEN

static void placement_gives(const char *placement, const char *fen, const char *castling) {
    Board b;
    char rights[8] = "?", err[160] = "", out[FEN_MAX];
    cr_assert(fen_is_placement_only(placement), "%s", placement);
    cr_assert(board_set_placement(&b, placement, rights, sizeof rights, err, sizeof err),
              "'%s' rejected: %s", placement, err);
    board_to_fen(&b, out, sizeof out);
    cr_assert_str_eq(out, fen);
    cr_assert_str_eq(rights, castling);
}

Test(fen, placement_only_start, .init = setup) {
    placement_gives("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", BOARD_START_FEN, "KQkq");
    placement_gives("  rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR\n",
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", "KQkq");
}

// A right only for a king and a rook on their home squares.
Test(fen, placement_only_castling_inferred, .init = setup) {
    // The h1 rook has gone: no K. The black king has moved: neither k nor q.
    placement_gives("r6r/8/4k3/8/8/8/8/R3K3", "r6r/8/4k3/8/8/8/8/R3K3 w Q - 0 1", "Q");
    // The white king is off e1: no white rights at all.
    placement_gives("r3k2r/8/8/8/8/8/8/R4K1R", "r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1", "kq");
    // A rook of the wrong colour on the corner gives nothing.
    placement_gives("Rn2k2r/8/8/8/8/8/8/rN2K2R", "Rn2k2r/8/8/8/8/8/8/rN2K2R w Kk - 0 1", "Kk");
    placement_gives("4k3/8/8/8/8/8/8/4K3", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "-");
}

Test(fen, placement_only_errors, .init = setup) {
    Board b;
    board_set_start(&b);
    Board before = b;
    char rights[8] = "", err[160] = "";
    cr_assert_not(board_set_placement(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN", rights,
                                      sizeof rights, err, sizeof err));
    cr_assert_str_eq(err, "board: rank 1 has 7 squares, expected 8");
    cr_assert_not(board_set_placement(&b, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", rights, sizeof rights,
                                      err, sizeof err));
    cr_assert(strstr(err, "placement-only"), "%s", err);
    // White to move while the black king is in check: refused, not guessed.
    cr_assert_not(
        board_set_placement(&b, "4k3/4R3/8/8/8/8/8/4K3", rights, sizeof rights, err, sizeof err));
    cr_assert_str_eq(err, "side not to move is in check");
    cr_assert(memcmp(&b, &before, sizeof b) == 0, "a refused placement changed the board");
    // The strict parser stays strict.
    cr_assert_not(
        board_set_fen(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", err, sizeof err));
    cr_assert_not(fen_is_placement_only("hello"));
    cr_assert_not(fen_is_placement_only(BOARD_START_FEN));
    cr_assert_not(fen_is_placement_only(""));
}

// Issue 22 item 7: text pasted with a character beyond ASCII (a dash for "-",
// a no-break space, a letter) names the character and its field, not a count
// of fields.
Test(fen, a_character_beyond_ascii_is_named_with_its_field, .init = setup) {
    Board b;
    char err[256];
    cr_assert_not(board_set_fen(&b, "\xc3\xa9", err, sizeof err));
    cr_expect(strstr(err, "placement field (field 1): cannot read '\xc3\xa9' (U+00E9"), "%s", err);
    cr_assert_not(
        board_set_fen(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq \xe2\x80\x93 0 1",
                      err, sizeof err));
    cr_expect(strstr(err, "en passant field (field 4): cannot read '\xe2\x80\x93' (U+2013"), "%s",
              err);
    cr_assert_not(board_set_fen(&b, "8/8/8/8/8/8/8/8 w - - 0 1\xff", err, sizeof err));
    cr_expect(strstr(err, "cannot read byte 0xFF"), "%s", err);
}
