// SPDX-License-Identifier: GPL-3.0-or-later
// The move picker's order: every legal move exactly once, captures before quiet moves,
// and among quiet moves of equal history a piece attacked by a cheaper one moved out
// first and a piece moved into such an attack last.
#include <criterion/criterion.h>
#include <stdlib.h>

#include "engine/movegen.h"
#include "engine/movepick.h"
#include "engine/notation.h"
#include "tests/helpers.h"

static Histories *h;

static void setup(void) {
    board_init_tables();
    h = calloc(1, sizeof *h);
    cr_assert_not_null(h);
}

static void teardown(void) { free(h); }

TestSuite(movepick, .init = setup, .fini = teardown);

// The moves of fen in the picker's order (no hash move, killers or counter-move).
static int picked(const char *fen, Board *b, Move *out) {
    test_board_from_fen(b, fen);
    MovePicker mp;
    movepick_init(&mp, b, h, MOVE_NONE, NULL, MOVE_NONE, NULL);
    int n = 0;
    Move m;
    while ((m = movepick_next(&mp, false)) != MOVE_NONE)
        out[n++] = m;
    return n;
}

static int index_of(const Move *moves, int n, Move m) {
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return i;
    return -1;
}

Test(movepick, every_legal_move_once_captures_first) {
    Board b;
    Move moves[MAX_MOVES];
    int n = picked("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &b, moves);
    cr_expect_eq(n, movegen_count(&b), "Kiwipete: %d picked", n);
    for (int i = 0; i < n; i++)
        cr_expect_eq(index_of(moves, n, moves[i]), i, "move %d picked twice", i);
    // Winning and equal captures come before every quiet move.
    int first_quiet = 0;
    while (first_quiet < n && board_is_capture(&b, moves[first_quiet]))
        first_quiet++;
    cr_expect_eq(moves[0], test_san_move(&b, "Bxa6"), "the bishop takes the bishop first");
    cr_expect_gt(first_quiet, 0);
}

Test(movepick, an_attacked_knight_moves_first_and_a_bishop_into_a_pawn_last) {
    // The knight on e4 is attacked by the pawn on d5; d4 and f4 are attacked by e5.
    Board b;
    Move moves[MAX_MOVES];
    int n = picked("6k1/8/8/3pp3/4N3/8/P7/2B3K1 w - - 0 1", &b, moves);
    cr_assert_eq(n, movegen_count(&b));
    int last_knight = -1, first_other = n;
    for (int i = 0; i < n; i++) {
        PieceType pt = piece_type(board_piece_on(&b, move_from(moves[i])));
        if (pt == KNIGHT)
            last_knight = i;
        else if (i < first_other)
            first_other = i;
    }
    cr_expect_lt(last_knight, first_other, "every knight move before any other quiet move");
    cr_expect_eq(index_of(moves, n, test_san_move(&b, "Bf4")), n - 1,
                 "the bishop into the pawn's attack last");
}
