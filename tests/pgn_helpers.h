// SPDX-License-Identifier: GPL-3.0-or-later
// A game read from PGN text, the failure reported as an assertion, for the
// suites that review or report on games. Header-only, static inline.
#ifndef TESTS_PGN_HELPERS_H
#define TESTS_PGN_HELPERS_H

#include <criterion/criterion.h>

#include "src/pgn/pgn.h"

// The first game of text (the caller frees it with pgn_game_free).
static inline PgnGame *test_read_game(const char *text) {
    PgnReader *r = pgn_reader_from_string(text, "test");
    cr_assert_not_null(r);
    PgnGame *g = pgn_game_new();
    cr_assert_not_null(g);
    PgnError e;
    int rc = pgn_reader_next(r, g, &e);
    cr_assert_eq(rc, 1, "%s:%d:%d: %s", e.file, e.line, e.column, e.message);
    pgn_reader_close(r);
    return g;
}

#endif
