// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the Criterion suites: where the test data is, boards from
// FEN and moves from text with the failure reported as an assertion, and a
// seeded random generator for reproducible random games. Header-only (each
// suite is one program); every helper is static inline, so a suite pays only
// for what it uses.
#ifndef TESTS_HELPERS_H
#define TESTS_HELPERS_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/board.h"
#include "engine/fen.h"
#include "engine/movegen.h"
#include "engine/notation.h"

// "make check" passes the data directory in $TEST_DATADIR and as a define;
// run by hand from the source tree, tests/data is found relative to it.
#ifndef TEST_DATADIR
#define TEST_DATADIR "tests/data"
#endif

static inline const char *test_data_dir(void) {
    const char *env = getenv("TEST_DATADIR");
    return env && *env ? env : TEST_DATADIR;
}

// The path of a file under the data directory ("perftsuite.epd", "pgn/x.pgn").
static inline void test_data_path(const char *name, char *buf, size_t bufsz) {
    int n = snprintf(buf, bufsz, "%s/%s", test_data_dir(), name);
    cr_assert(n > 0 && (size_t)n < bufsz, "data path too long: %s/%s", test_data_dir(), name);
}

// The mkstemp/mkdtemp template "$TMPDIR/prefix-XXXXXX" (/tmp without TMPDIR): the six
// X's are what those calls replace with a unique name.
static inline void test_temp_template(char *buf, size_t bufsz, const char *prefix) {
    const char *tmp = getenv("TMPDIR");
    int n = snprintf(buf, bufsz, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
    cr_assert(n > 0 && (size_t)n < bufsz, "temporary path too long for %s", prefix);
}

// Creates a fresh temporary directory and writes its path into buf.
static inline void test_temp_dir(char *buf, size_t bufsz, const char *prefix) {
    test_temp_template(buf, bufsz, prefix);
    cr_assert_not_null(mkdtemp(buf), "cannot create a directory like %s", buf);
}

// Removes a directory made by test_temp_dir, with what it holds.
static inline void test_remove_dir(const char *dir) {
    char cmd[600];
    int n = snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert(n > 0 && (size_t)n < sizeof cmd, "directory name too long: %s", dir);
    cr_expect_eq(system(cmd), 0, "cannot remove %s", dir);
}

// Creates a fresh empty temporary file, writes its path into buf and returns its descriptor.
static inline int test_temp_file(char *buf, size_t bufsz, const char *prefix) {
    test_temp_template(buf, bufsz, prefix);
    int fd = mkstemp(buf);
    cr_assert_geq(fd, 0, "cannot create a file like %s", buf);
    return fd;
}

// Sets b from fen; a FEN the board refuses fails the test with the reason.
static inline void test_board_from_fen(Board *b, const char *fen) {
    char err[160] = "";
    cr_assert(board_set_fen(b, fen, err, sizeof err), "rejected FEN \"%s\": %s", fen, err);
}

// A square from its name ("e4"); a bad name fails the test.
static inline Square test_square(const char *name) {
    Square s = square_from_name(name);
    cr_assert_neq(s, SQ_NONE, "bad square name '%.2s'", name);
    return s;
}

// The legal move with this UCI text ("e2e4", "e7e8q"), or MOVE_NONE.
static inline Move test_find_move(const Board *b, const char *uci) {
    Move m = MOVE_NONE;
    return notation_parse_uci(b, uci, &m) == NOTATION_OK ? m : MOVE_NONE;
}

// The legal move with this UCI text; an illegal one fails the test.
static inline Move test_uci_move(const Board *b, const char *uci) {
    Move m = test_find_move(b, uci);
    cr_assert_neq(m, MOVE_NONE, "'%s' is not legal here", uci);
    return m;
}

// The legal move written in SAN or coordinates ("Nf3", "e1g1"); a move that
// is not legal and unique fails the test with the parser's reason.
static inline Move test_san_move(const Board *b, const char *text) {
    Move m = MOVE_NONE;
    char err[160] = "";
    cr_assert_eq(notation_parse_move(b, text, &m, err, sizeof err), NOTATION_OK, "%s: %s", text,
                 err);
    return m;
}

// Whether en passant is among the legal moves of b.
static inline bool test_has_ep_move(const Board *b) {
    MoveList list;
    movegen_legal(b, &list);
    for (int i = 0; i < list.count; i++)
        if (move_kind(list.moves[i]) == MOVE_EN_PASSANT)
            return true;
    return false;
}

// SplitMix64 over a caller-owned state: the same seed, the same sequence.
static inline uint64_t test_rng_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

#endif
