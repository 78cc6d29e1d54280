// SPDX-License-Identifier: GPL-3.0-or-later
// The position: FEN parsing and printing, make/unmake, null moves, Zobrist keys,
// the Line history and its compaction, draw and game-end queries, and
// board_gives_check.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fen.h"
#include "engine/line.h"
#include "engine/movegen.h"
#include "tests/helpers.h"

enum { SUITE_MAX = 160, LINE_MAX_LEN = 512, FEN_LEN = 128 };

// The position alone: a Board but for the move that led to it.
#define POSITION_SIZE offsetof(Board, last_move)

static char suite_fens[SUITE_MAX][FEN_LEN];
static int suite_size;
static Board board, other, saved;
// A game with its history, for repetitions and taking moves back.
static Line game;

// The FEN of each suite line: the text before the first " ;".
static void load_suite(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/perftsuite.epd", test_data_dir());
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    char text[LINE_MAX_LEN];
    suite_size = 0;
    while (fgets(text, sizeof text, f)) {
        char *semi = strstr(text, " ;");
        if (!semi)
            continue;
        *semi = '\0';
        cr_assert_lt(suite_size, SUITE_MAX);
        cr_assert_lt(strlen(text), (size_t)FEN_LEN);
        strcpy(suite_fens[suite_size++], text);
    }
    fclose(f);
    cr_assert_gt(suite_size, 100, "only %d suite positions", suite_size);
}

static void setup(void) {
    board_init_tables();
    load_suite();
}

static bool same_state(const Board *a, const Board *b) {
    return memcmp(a, b, sizeof *a) == 0;
}

// The random games' generator state, seeded per test so every run plays the same games.
static uint64_t rng_state;

// Makes a random legal move, filling *u; false when there is none.
static bool make_random(Board *b, Undo *u) {
    static MoveList list;
    movegen_legal(b, &list);
    if (list.count == 0)
        return false;
    board_make_move(b, list.moves[test_rng_next(&rng_state) % (uint64_t)list.count], u);
    return true;
}

// Plays a random legal move for good; false when there is none.
static bool play_random(Board *b) {
    Undo u;
    return make_random(b, &u);
}

// The legal move written in coordinates, or a failed test.
static Move legal_move(const Board *b, const char *text) {
    Move m = test_find_move(b, text);
    char fen[FEN_MAX];
    board_to_fen(b, fen, sizeof fen);
    cr_assert_neq(m, MOVE_NONE, "%s is not legal in \"%s\"", text, fen);
    return m;
}

// Plays space-separated coordinate moves.
static void play(Board *b, const char *moves) {
    char text[8];
    const char *p = moves;
    int n;
    while (sscanf(p, "%7s%n", text, &n) == 1) {
        board_play(b, legal_move(b, text));
        p += n;
    }
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
        line_play(&game, legal_move(&game.board, text));
        p += n;
    }
}

static bool repetition_draw(int plies_since_root) {
    return board_is_repetition_draw(&game.board, game.keys, game.ply, plies_since_root);
}

static void expect_consistent(const Board *b, const char *context) {
    char err[128] = "";
    char fen[FEN_MAX];
    bool ok = board_check(b, err, sizeof err);
    if (!ok) {
        board_to_fen(b, fen, sizeof fen);
        cr_expect(ok, "%s: \"%s\": %s", context, fen, err);
    }
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
    char out[FEN_MAX], bare[FEN_LEN];
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
    cr_expect(same_state(&board, &other), "\"%s\": reparsed \"%s\" differs", fen, out);
    expect_consistent(&board, fen);
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
    for (int i = 0; i < suite_size; i++)
        check_round_trip(suite_fens[i]);
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
        test_board_from_fen(&board, suite_fens[(g * 11) % suite_size]);
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
    expect_consistent(&board, "start");
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
    play(&board, "e2e4 c7c5 g1f3");
    saved = board;
    for (size_t i = 0; i < sizeof bad_fens / sizeof bad_fens[0]; i++) {
        char err[128];
        board_set_fen(&board, bad_fens[i].fen, err, sizeof err);
        cr_expect(memcmp(&board, &saved, sizeof board) == 0, "\"%s\" changed the board",
                  bad_fens[i].fen);
    }
    // And the board still works.
    expect_consistent(&board, "after rejected FENs");
    play(&board, "b8c6");
}

// ------------------------------------------------------------------ make / unmake

Test(makemove, every_move_of_suite_positions_unmakes, .init = setup) {
    static MoveList list;
    for (int i = 0; i < suite_size; i++) {
        test_board_from_fen(&board, suite_fens[i]);
        saved = board;
        movegen_legal(&board, &list);
        for (int j = 0; j < list.count; j++) {
            Move m = list.moves[j];
            Piece captured = board_captured_piece(&board, m);
            cr_expect_eq(board_is_capture(&board, m), captured != NO_PIECE);
            Undo u;
            board_make_move(&board, m, &u);
            cr_expect_eq(board_last_move(&board), m);
            cr_expect_eq(u.captured, captured, "\"%s\" move %#06x", suite_fens[i], m);
            cr_expect_eq(u.key, saved.key);
            cr_expect_neq(board.key, saved.key, "\"%s\" move %#06x: key unchanged", suite_fens[i],
                          m);
            expect_consistent(&board, suite_fens[i]);
            board_unmake_move(&board, &u);
            cr_expect(same_state(&board, &saved), "\"%s\": move %#06x not undone", suite_fens[i],
                      m);
        }
    }
}

// Random playouts of up to 200 plies, then unmade all the way back; the state
// at every ply must come back exactly.
Test(makemove, long_playouts_unmake_to_the_start, .init = setup) {
    enum { PLIES = 200 };
    static Board states[PLIES + 1];
    static Undo undo[PLIES];
    rng_state = 7;
    for (int g = 0; g < 40; g++) {
        test_board_from_fen(&board, g % 3 ? suite_fens[(g * 13) % suite_size] : BOARD_START_FEN);
        int plies = 0;
        states[0] = board;
        while (plies < PLIES && make_random(&board, &undo[plies])) {
            plies++;
            states[plies] = board;
        }
        while (plies > 0) {
            board_unmake_move(&board, &undo[--plies]);
            cr_expect(same_state(&board, &states[plies]), "game %d: state at ply %d not restored",
                      g, plies);
        }
    }
}

// ------------------------------------------------------------------ keys

Test(keys, incremental_equals_computed, .init = setup) {
    rng_state = 99;
    long checked = 0;
    for (int g = 0; g < 50; g++) {
        test_board_from_fen(&board, g % 2 ? BOARD_START_FEN : suite_fens[(g * 5) % suite_size]);
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
    play(&board, "g1f3 g8f6 b1c3 b8c6");
    play(&other, "b1c3 b8c6 g1f3 g8f6");
    cr_expect_eq(board.key, other.key);
    cr_expect_eq(board.pawn_key, other.pawn_key);

    // e2e4 then d2d4, or the other way round: no en-passant capture either
    // way, so the keys agree.
    test_board_from_fen(&board, BOARD_START_FEN);
    test_board_from_fen(&other, BOARD_START_FEN);
    play(&board, "e2e4 e7e6 d2d4");
    play(&other, "d2d4 e7e6 e2e4");
    cr_expect_eq(board.key, other.key);
    cr_expect_eq(board.pawn_key, other.pawn_key);

    // The same placement with and without castling rights differs.
    test_board_from_fen(&board, BOARD_START_FEN);
    play(&board, "g1f3 g8f6 h1g1 h8g8 g1h1 g8h8");
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
    play(&board, "e2e4 g8f6 e4e5 d7d5");
    cr_expect_eq(board.ep, square_from_name("d6"));
    test_board_from_fen(&other, "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    cr_expect(memcmp(&board, &other, POSITION_SIZE) == 0);
    cr_expect_eq(board.key, other.key);
    test_board_from_fen(&other, "rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    cr_expect_neq(board.key, other.key);
    // No capture possible: the square is dropped and the keys agree.
    test_board_from_fen(&board, BOARD_START_FEN);
    play(&board, "e2e4");
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
        expect_consistent(&board, fens[i]);
        // Moves can be made and unmade on top of it.
        cr_expect(make_random(&board, &u));
        board_unmake_move(&board, &u);
        board_unmake_null(&board, &null);
        cr_expect(same_state(&board, &saved), "\"%s\": null move not undone", fens[i]);
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
    cr_expect(same_state(&board, &saved));
}

// The history lives with the caller: a Board is small and copied freely.
Test(board, small_and_without_history, .init = setup) {
    cr_expect_lt(sizeof(Board), 1024, "sizeof(Board) is %zu", sizeof(Board));
    cr_expect_leq(sizeof(Undo), 48, "sizeof(Undo) is %zu", sizeof(Undo));
    // A copy is a full, independent position.
    test_board_from_fen(&board, BOARD_START_FEN);
    Board copy = board;
    play(&copy, "e2e4 e7e5");
    expect_consistent(&copy, "copy");
    test_board_from_fen(&other, BOARD_START_FEN);
    cr_expect(same_state(&board, &other));
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
    cr_expect(same_state(&replayed, &game.board));
    // The moves still held can be taken back, down to the folded start.
    int keep = game.ply;
    for (int i = 0; i < keep; i++) {
        cr_expect(line_undo(&game));
        cr_expect_eq(game.board.key, board_compute_key(&game.board));
        if (game.ply % 4 == 0)
            cr_expect_eq(game.board.key, start);
    }
    cr_expect_eq(game.ply, 0);
    cr_expect(same_state(&game.board, &game.start));
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
    expect_consistent(&game.board, "after a null move");
    play_game("f3g1");
    line_play(&game, MOVE_NULL);
    // The start position again, with White to move: a repetition.
    cr_expect_eq(line_repetitions(&game), 1);
    cr_assert(line_undo(&game));
    cr_assert(line_undo(&game));
    cr_assert(line_undo(&game));
    cr_expect(same_state(&game.board, &before));
}

Test(line, undo_restores_each_position, .init = setup) {
    enum { PLIES = 120 };
    static Board states[PLIES + 1];
    rng_state = 11;
    set_game(suite_fens[3]);
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
        cr_expect(same_state(&game.board, &states[plies]), "ply %d not restored", plies);
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
    play(&board, "f2f3 e7e5 g2g4");
    cr_expect_not(movegen_is_checkmate(&board));
    play(&board, "d8h4");
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
    for (int i = 0; i < suite_size; i++) {
        test_board_from_fen(&board, suite_fens[i]);
        check_gives_check(&board, suite_fens[i]);
        movegen_legal(&board, &root);
        for (int j = 0; j < root.count; j++) {
            Undo u;
            board_make_move(&board, root.moves[j], &u);
            check_gives_check(&board, suite_fens[i]);
            board_unmake_move(&board, &u);
        }
    }
}

// Random playouts reach discovered checks, checks by castling, promotion and
// en passant far more often than the suite's first two plies do.
Test(attacks, gives_check_along_random_playouts, .init = setup) {
    rng_state = 31337;
    for (int g = 0; g < 60; g++) {
        test_board_from_fen(&board, g % 2 ? BOARD_START_FEN : suite_fens[(g * 17) % suite_size]);
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
