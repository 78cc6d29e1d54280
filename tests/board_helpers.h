// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the position's suites (test_board, test_fen): their
// set-up and the FENs of the shared perft suite, random legal play from a
// seeded generator, moves written in coordinates, comparing boards, and the
// board's own consistency check as an expectation. Header-only, static
// inline, like helpers.h.
#ifndef TESTS_BOARD_HELPERS_H
#define TESTS_BOARD_HELPERS_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine/fen.h"
#include "engine/movegen.h"
#include "tests/helpers.h"

enum { PERFT_FENS_MAX = 160, PERFT_FEN_LEN = 128, PERFT_LINE_LEN = 512 };

// The positions of ../shared/data/perftsuite.epd, without their counts.
typedef struct PerftFens {
    char fen[PERFT_FENS_MAX][PERFT_FEN_LEN];
    int count;
} PerftFens;

// Loads each suite line's FEN (the text before its first " ;"), or fails the test.
static inline void test_load_perft_fens(PerftFens *suite) {
    char path[1024];
    snprintf(path, sizeof path, "%s/perftsuite.epd", test_data_dir());
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    char text[PERFT_LINE_LEN];
    suite->count = 0;
    while (fgets(text, sizeof text, f)) {
        char *semi = strstr(text, " ;");
        if (!semi)
            continue;
        *semi = '\0';
        cr_assert_lt(suite->count, PERFT_FENS_MAX);
        cr_assert_lt(strlen(text), (size_t)PERFT_FEN_LEN);
        strcpy(suite->fen[suite->count++], text);
    }
    fclose(f);
    cr_assert_gt(suite->count, 100, "only %d suite positions", suite->count);
}

// The set-up of the position's suites: the board's tables and the suite's FENs.
static inline void test_board_setup(PerftFens *suite) {
    board_init_tables();
    test_load_perft_fens(suite);
}

// Whether two boards are the same, byte for byte (history fields included).
static inline bool test_same_board(const Board *a, const Board *b) {
    return memcmp(a, b, sizeof *a) == 0;
}

// Makes a random legal move drawn from *rng, filling *u; false when there is none.
static inline bool test_make_random(Board *b, Undo *u, uint64_t *rng) {
    MoveList list;
    movegen_legal(b, &list);
    if (list.count == 0)
        return false;
    board_make_move(b, list.moves[test_rng_next(rng) % (uint64_t)list.count], u);
    return true;
}

// The legal move written in coordinates, or a failed test.
static inline Move test_legal_move(const Board *b, const char *text) {
    Move m = test_find_move(b, text);
    char fen[FEN_MAX];
    board_to_fen(b, fen, sizeof fen);
    cr_assert_neq(m, MOVE_NONE, "%s is not legal in \"%s\"", text, fen);
    return m;
}

// Plays space-separated coordinate moves.
static inline void test_play_moves(Board *b, const char *moves) {
    char text[8];
    const char *p = moves;
    int n;
    while (sscanf(p, "%7s%n", text, &n) == 1) {
        board_play(b, test_legal_move(b, text));
        p += n;
    }
}

// An expectation that the board's invariants hold, naming the position.
static inline void test_expect_consistent(const Board *b, const char *context) {
    char err[128] = "";
    char fen[FEN_MAX];
    bool ok = board_check(b, err, sizeof err);
    if (!ok) {
        board_to_fen(b, fen, sizeof fen);
        cr_expect(ok, "%s: \"%s\": %s", context, fen, err);
    }
}

#endif
