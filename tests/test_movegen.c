// SPDX-License-Identifier: GPL-3.0-or-later
// movegen_is_legal against the generated legal list (listed moves, every 16-bit
// value, moves from other positions), and pins, en passant and castling cases.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"
#include "tests/helpers.h"

enum { SUITE_MAX = 160, LINE_MAX_LEN = 512, FEN_LEN = 128, REPORT_MAX = 8 };

static char suite_fens[SUITE_MAX][FEN_LEN];
static int suite_size;
static Board board; // the position each test works on

// The FEN of each suite line: the text before the first " ;".
static void load_suite(void) {
    char path[1024];
    test_data_path("perftsuite.epd", path, sizeof path);
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

// The random generator state, seeded per test so that every run tests the same values.
static uint64_t rng_state;
// Set membership of 16-bit moves, stamped so that it needs no clearing.
static uint32_t in_list[65536];
static uint32_t stamp;

static void mark_list(const MoveList *list) {
    stamp++;
    for (int i = 0; i < list->count; i++)
        in_list[list->moves[i]] = stamp;
}

static void move_text(Move m, char out[16]) {
    char from[3], to[3];
    square_name(move_from(m), from);
    square_name(move_to(m), to);
    snprintf(out, 16, "%s%s/k%d/p%d", from, to, move_kind(m), (m >> 12) & 3);
}

// Compares movegen_is_legal(b, m) with list membership; reports the first
// few disagreements of a test and counts them all.
static int mismatches;

static void check_value(const Board *b, Move m) {
    bool expected = in_list[m] == stamp;
    bool got = movegen_is_legal(b, m);
    if (got == expected)
        return;
    if (mismatches++ < REPORT_MAX) {
        char fen[FEN_MAX], text[16];
        board_to_fen(b, fen, sizeof fen);
        move_text(m, text);
        cr_expect_eq(got, expected, "\"%s\": movegen_is_legal(%#06x = %s) is %d, listed %d", fen, m,
                     text, got, expected);
    }
}

// ------------------------------------------------------------------ agreement

Test(is_legal, listed_moves_are_legal, .init = setup) {
    static MoveList list, child;
    for (int i = 0; i < suite_size; i++) {
        test_board_from_fen(&board, suite_fens[i]);
        movegen_legal(&board, &list);
        for (int j = 0; j < list.count; j++) {
            cr_expect(movegen_is_legal(&board, list.moves[j]), "\"%s\": listed move %#06x",
                      suite_fens[i], list.moves[j]);
            Undo u;
            board_make_move(&board, list.moves[j], &u);
            movegen_legal(&board, &child);
            for (int k = 0; k < child.count; k++)
                cr_expect(movegen_is_legal(&board, child.moves[k]),
                          "\"%s\" after %#06x: listed move %#06x", suite_fens[i], list.moves[j],
                          child.moves[k]);
            board_unmake_move(&board, &u);
        }
    }
}

// Every 16-bit value in every suite position: legal exactly when listed.
Test(is_legal, every_value_in_suite_positions, .init = setup, .timeout = 300) {
    static MoveList list;
    mismatches = 0;
    for (int i = 0; i < suite_size; i++) {
        test_board_from_fen(&board, suite_fens[i]);
        movegen_legal(&board, &list);
        mark_list(&list);
        for (uint32_t v = 0; v < 65536; v++)
            check_value(&board, (Move)v);
    }
    cr_expect_eq(mismatches, 0, "%d disagreements in all", mismatches);
}

// Listed moves with every other kind and promotion bits: only the listed
// encoding is legal.
Test(is_legal, listed_moves_with_other_flag_bits, .init = setup) {
    static MoveList list;
    mismatches = 0;
    for (int i = 0; i < suite_size; i++) {
        test_board_from_fen(&board, suite_fens[i]);
        movegen_legal(&board, &list);
        mark_list(&list);
        for (int j = 0; j < list.count; j++)
            for (unsigned flags = 0; flags < 16; flags++)
                check_value(&board, (Move)((list.moves[j] & 0x0FFF) | (flags << 12)));
    }
    cr_expect_eq(mismatches, 0, "%d disagreements in all", mismatches);
}

// Random playouts: positions along them, tested with random 16-bit values and
// with every move met in any playout (legal somewhere else).
Test(is_legal, random_values_and_foreign_moves, .init = setup, .timeout = 300) {
    enum { GAMES = 60, PLIES = 160, SAMPLE_EVERY = 3, RANDOM_VALUES = 2000 };
    static MoveList list;
    static bool seen[65536];
    static Move pool[65536];
    int pool_size = 0;
    memset(seen, 0, sizeof seen);
    rng_state = 12345;

    // First pass: collect moves that are legal somewhere.
    for (int g = 0; g < GAMES; g++) {
        test_board_from_fen(&board, g % 2 ? BOARD_START_FEN : suite_fens[g % suite_size]);
        for (int ply = 0; ply < PLIES; ply++) {
            movegen_legal(&board, &list);
            if (list.count == 0)
                break;
            for (int j = 0; j < list.count; j++)
                if (!seen[list.moves[j]]) {
                    seen[list.moves[j]] = true;
                    pool[pool_size++] = list.moves[j];
                }
            board_play(&board, list.moves[test_rng_next(&rng_state) % (uint64_t)list.count]);
        }
    }
    cr_expect_gt(pool_size, 1000, "only %d distinct moves collected", pool_size);

    // Second pass, other games: test the pool and random values.
    mismatches = 0;
    int positions = 0;
    rng_state = 67890;
    for (int g = 0; g < GAMES; g++) {
        test_board_from_fen(&board, g % 2 ? suite_fens[(g * 7) % suite_size] : BOARD_START_FEN);
        for (int ply = 0; ply < PLIES; ply++) {
            movegen_legal(&board, &list);
            if (list.count == 0)
                break;
            if (ply % SAMPLE_EVERY == 0) {
                mark_list(&list);
                for (int j = 0; j < pool_size; j++)
                    check_value(&board, pool[j]);
                for (int j = 0; j < RANDOM_VALUES; j++)
                    check_value(&board, (Move)test_rng_next(&rng_state));
                positions++;
            }
            board_play(&board, list.moves[test_rng_next(&rng_state) % (uint64_t)list.count]);
        }
    }
    cr_expect_gt(positions, 1000, "only %d positions sampled", positions);
    cr_expect_eq(mismatches, 0, "%d disagreements in all", mismatches);
}

Test(is_legal, special_values, .init = setup) {
    board_set_start(&board);
    cr_expect_not(movegen_is_legal(&board, MOVE_NONE));
    cr_expect_not(movegen_is_legal(&board, MOVE_NULL));
    cr_expect(movegen_is_legal(&board, move_make(SQ_E1 + 8, SQ_E1 + 24))); // e2e4
    cr_expect_not(
        movegen_is_legal(&board, move_make(SQ_E1 + 48, SQ_E1 + 32)));          // e7e5: not our move
    cr_expect_not(movegen_is_legal(&board, move_make(SQ_E1 + 8, SQ_E1 + 32))); // e2e5
    cr_expect_not(movegen_is_legal(&board, move_make(SQ_B1, SQ_D1 + 8)));      // Nd2: own piece
    cr_expect_not(movegen_is_legal(&board, move_make_kind(SQ_E1, SQ_G1, MOVE_CASTLING)));
}

// ------------------------------------------------------------------ edge positions

// The legal moves of the piece on `from`, as a bitboard of destinations.
static Bitboard destinations(const Board *b, Square from) {
    static MoveList list;
    movegen_legal(b, &list);
    Bitboard to = 0;
    for (int i = 0; i < list.count; i++)
        if (move_from(list.moves[i]) == from)
            to |= bb_square(move_to(list.moves[i]));
    return to;
}

static Bitboard squares(const char *names) {
    Bitboard bb = 0;
    for (const char *p = names; *p; p += 2) {
        char name[3] = { p[0], p[1], '\0' };
        bb |= bb_square(test_square(name));
        if (!p[2])
            break;
        p++; // the separating space
    }
    return bb;
}

static void expect_destinations(const char *fen, const char *from, const char *to) {
    test_board_from_fen(&board, fen);
    Bitboard got = destinations(&board, test_square(from)), want = to[0] ? squares(to) : 0;
    cr_expect_eq(got, want, "\"%s\": moves from %s are %#llx, expected {%s} = %#llx", fen, from,
                 (unsigned long long)got, to, (unsigned long long)want);
    // And movegen_is_legal agrees, square by square.
    for (Square s = 0; s < SQ_NB; s++) {
        Move m = move_make(test_square(from), s);
        if (piece_type(board_piece_on(&board, test_square(from))) == PAWN &&
            relative_rank(board.side, s) == 7)
            m = move_make_promotion(test_square(from), s, QUEEN);
        cr_expect_eq(movegen_is_legal(&board, m), bb_has(want, s), "\"%s\": %s to square %d", fen,
                     from, s);
    }
}

Test(edge, pinned_pieces_move_along_the_pin, .init = setup) {
    // Rook pinned on the file: up the file, capture included, never sideways.
    expect_destinations("4r1k1/8/8/8/8/8/4R3/4K3 w - - 0 1", "e2", "e3 e4 e5 e6 e7 e8");
    // Bishop pinned on the long diagonal.
    expect_destinations("6k1/8/8/3q4/8/8/6B1/7K w - - 0 1", "g2", "f3 e4 d5");
    // Bishop pinned on a file: no move at all.
    expect_destinations("4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1", "e2", "");
    // Knight pinned: no move.
    expect_destinations("4k3/8/8/b7/8/8/3N4/4K3 w - - 0 1", "d2", "");
    // Pawn pinned on a diagonal: only the capture of the pinner.
    expect_destinations("4k3/8/8/8/8/2b5/3P4/4K3 w - - 0 1", "d2", "c3");
    // Pawn pinned on its file: pushes only, one and two squares.
    expect_destinations("4r1k1/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2", "e3 e4");
    // Pawn pinned on the rank: nothing.
    expect_destinations("8/8/8/8/K2P3r/8/8/7k w - - 0 1", "d4", "");
    // Queen pinned on a diagonal keeps that diagonal.
    expect_destinations("7k/8/8/8/8/2b5/3Q4/4K3 w - - 0 1", "d2", "c3");
    // Black pawn pinned on a diagonal: only the promotion capture of the pinner.
    expect_destinations("8/k7/8/8/8/8/5p2/4R1BK b - - 0 1", "f2", "g1");
    // A pinned piece may not resolve a check either.
    expect_destinations("4k1q1/8/8/8/8/8/r2R2K1/8 w - - 0 1", "d2", "");
}

Test(edge, ep_discovered_check_on_the_rank, .init = setup) {
    // The FEN names c6, but bxc6 would open the rank to the rook: the square
    // is dropped and no en-passant move exists.
    test_board_from_fen(&board, "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
    cr_expect_eq(board.ep, SQ_NONE);
    cr_expect_not(test_has_ep_move(&board));
    Move bxc6 = move_make_kind(test_square("b5"), test_square("c6"), MOVE_EN_PASSANT);
    cr_expect_not(movegen_is_legal(&board, bxc6));

    // The same after the double push is really played.
    test_board_from_fen(&board, "8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1");
    board_play(&board, move_make(test_square("c7"), test_square("c5")));
    cr_expect_eq(board.ep, SQ_NONE);
    cr_expect_not(test_has_ep_move(&board));
    cr_expect_not(movegen_is_legal(&board, bxc6));

    // And the generator itself refuses it even with the square forced on.
    test_board_from_fen(&board, "8/8/8/KPp4r/8/8/8/4k3 w - - 0 1");
    board.ep = (uint8_t)test_square("c6");
    board.key = board_compute_key(&board);
    cr_expect_not(test_has_ep_move(&board));
    cr_expect_not(movegen_is_legal(&board, bxc6));
    cr_expect_eq(movegen_count(&board), 4);

    // Black, two pawns leaving the rank between king and queen.
    test_board_from_fen(&board, "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1");
    cr_expect_not(test_has_ep_move(&board));
    board.ep = (uint8_t)test_square("d3");
    board.key = board_compute_key(&board);
    cr_expect_not(test_has_ep_move(&board));
    cr_expect_not(movegen_is_legal(
        &board, move_make_kind(test_square("e4"), test_square("d3"), MOVE_EN_PASSANT)));
}

Test(edge, ep_legal_cases, .init = setup) {
    // Of two capturers, the one pinned on the other diagonal may not take.
    test_board_from_fen(&board, "6bk/8/8/1PpP4/2K5/8/8/8 w - c6 0 1");
    cr_expect_eq(board.ep, test_square("c6"));
    cr_expect(movegen_is_legal(
        &board, move_make_kind(test_square("b5"), test_square("c6"), MOVE_EN_PASSANT)));
    cr_expect_not(movegen_is_legal(
        &board, move_make_kind(test_square("d5"), test_square("c6"), MOVE_EN_PASSANT)));
    cr_expect_eq(destinations(&board, test_square("d5")), 0);
    cr_expect_eq(destinations(&board, test_square("b5")), squares("b6 c6"));

    // Capturing along the pin is fine.
    test_board_from_fen(&board, "1b6/8/8/3pP3/8/8/7K/k7 w - d6 0 1");
    cr_expect_eq(destinations(&board, test_square("e5")), squares("d6"));

    // The double-pushed pawn gives check; taking it en passant resolves it.
    test_board_from_fen(&board, "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    cr_expect(board_in_check(&board));
    Move exd3 = move_make_kind(test_square("e4"), test_square("d3"), MOVE_EN_PASSANT);
    cr_expect(movegen_is_legal(&board, exd3));
    cr_expect_eq(destinations(&board, test_square("e4")), squares("d3"));

    // En passant with the wrong kind bits is not legal, nor is a diagonal
    // pawn move to an empty square.
    cr_expect_not(movegen_is_legal(&board, move_make(test_square("e4"), test_square("d3"))));
    test_board_from_fen(&board, "8/8/8/2k5/3Pp3/8/8/4K3 b - - 0 1");
    cr_expect_not(movegen_is_legal(&board, exd3));
}

static bool castles(const char *fen, Square king_to) {
    test_board_from_fen(&board, fen);
    static MoveList list;
    movegen_legal(&board, &list);
    Square from = board_king(&board, board.side);
    Move m = move_make_kind(from, king_to, MOVE_CASTLING);
    bool listed = movelist_contains(&list, m);
    cr_expect_eq(movegen_is_legal(&board, m), listed, "\"%s\": is_legal disagrees with the list",
                 fen);
    // A two-square king step without the castling kind is never legal.
    cr_expect_not(movegen_is_legal(&board, move_make(from, king_to)));
    return listed;
}

Test(edge, castling, .init = setup) {
    const char *open = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    cr_expect(castles(open, SQ_G1));
    cr_expect(castles(open, SQ_C1));
    const char *open_b = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
    cr_expect(castles(open_b, SQ_G8));
    cr_expect(castles(open_b, SQ_C8));
    // Out of check: neither side.
    cr_expect_not(castles("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", SQ_G1));
    cr_expect_not(castles("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", SQ_C1));
    // Through check (f1, d1) and into check (g1, c1).
    cr_expect_not(castles("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", SQ_G1));
    cr_expect(castles("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", SQ_C1));
    cr_expect_not(castles("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1", SQ_C1));
    cr_expect(castles("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1", SQ_G1));
    cr_expect_not(castles("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", SQ_G1));
    cr_expect_not(castles("2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", SQ_C1));
    // Attacked by a pawn or a knight.
    cr_expect_not(castles("4k3/8/8/8/8/8/6p1/R3K2R w KQ - 0 1", SQ_G1));
    cr_expect_not(castles("4k3/8/8/8/8/4n3/8/R3K2R w KQ - 0 1", SQ_C1));
    // Black: g8 attacked by a rook or a bishop, d8 by a rook.
    cr_expect_not(castles("r3k2r/8/8/8/8/8/8/4K1R1 b kq - 0 1", SQ_G8));
    cr_expect(castles("r3k2r/8/8/8/8/8/8/4K1R1 b kq - 0 1", SQ_C8));
    cr_expect_not(castles("r3k2r/8/8/8/2B5/8/8/4K3 b kq - 0 1", SQ_G8));
    cr_expect_not(castles("r3k2r/8/8/8/8/8/8/3RK3 b kq - 0 1", SQ_C8));
    // The rook attacked, or b1 attacked: castling is still legal.
    cr_expect(castles("4k3/8/8/8/8/8/7r/R3K2R w KQ - 0 1", SQ_G1));
    cr_expect(castles("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", SQ_C1));
    cr_expect(castles("r3k2r/8/8/8/8/8/8/1R2K3 b kq - 0 1", SQ_C8));
    // Blocked paths, b1 included.
    cr_expect_not(castles("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", SQ_C1));
    cr_expect_not(castles("4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", SQ_G1));
    cr_expect_not(castles("4k3/8/8/8/8/8/8/R3KB1R w KQ - 0 1", SQ_G1));
    // No right, no castling.
    cr_expect_not(castles("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", SQ_G1));
    cr_expect_not(castles("4k3/8/8/8/8/8/8/R3K2R w K - 0 1", SQ_C1));
}

Test(edge, double_check_only_king_moves, .init = setup) {
    test_board_from_fen(&board, "4k3/8/8/8/8/5n2/3P4/R3K2r w Q - 0 1");
    cr_expect_eq(bb_count(board.checkers), 2);
    static MoveList list;
    movegen_legal(&board, &list);
    cr_expect_eq(list.count, 2);
    for (int i = 0; i < list.count; i++)
        cr_expect_eq(move_from(list.moves[i]), SQ_E1);
    cr_expect_not(movegen_is_legal(&board, move_make(test_square("d2"), test_square("d3"))));
    cr_expect_not(movegen_is_legal(&board, move_make(test_square("a1"), test_square("b1"))));
    cr_expect_not(movegen_is_legal(&board, move_make_kind(SQ_E1, SQ_C1, MOVE_CASTLING)));
}

Test(edge, single_check_blocks_and_captures, .init = setup) {
    // Rook check on the file: block on e2..e7 or capture; king steps.
    test_board_from_fen(&board, "4r1k1/8/8/8/8/8/8/B3K1N1 w - - 0 1");
    cr_expect(board_in_check(&board));
    cr_expect_eq(destinations(&board, test_square("a1")), squares("e5"));
    cr_expect_eq(destinations(&board, test_square("g1")), squares("e2"));
    cr_expect_eq(destinations(&board, test_square("e1")), squares("d1 d2 f1 f2"));
}
