// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: the PGN reader (pgn_reader_from_string / pgn_reader_next and
// pgn_reader_validate) and, for every game read without error, the writer.
// Checked: every error has a message and a position; the validating reader
// agrees with the tree reader game by game (status, main-line length); a
// game written out reads back as one game with the same main line, and
// writing that again gives the same text.
#include "src/pgn/pgn.h"
#include "tests/fuzz/fuzz.h"

enum { MAX_GAMES = 256 };

static void check_round_trip(const PgnGame *g, PgnGame *scratch) {
    size_t len = 0;
    char *text = pgn_write_string(g, &len);
    if (!text)
        fuzz_fail("pgn_write_string failed");
    if (strlen(text) != len)
        fuzz_fail("pgn_write_string: length %zu but strlen %zu", len, strlen(text));
    PgnReader *r = pgn_reader_from_string(text, "written");
    if (!r)
        fuzz_fail("pgn_reader_from_string failed");
    PgnError e;
    int st = pgn_reader_next(r, scratch, &e);
    if (st != 1)
        fuzz_fail("a written game does not read back (status %d, %d:%d: %s):\n%s", st, e.line,
                  e.column, st < 0 ? e.message : "", text);
    if (pgn_mainline_length(scratch) != pgn_mainline_length(g))
        fuzz_fail("main line of %d plies reads back as %d:\n%s", pgn_mainline_length(g),
                  pgn_mainline_length(scratch), text);
    for (int i = 0; i < pgn_mainline_length(g); i++)
        if (pgn_mainline_move(g, i) != pgn_mainline_move(scratch, i))
            fuzz_fail("ply %d differs after a round trip:\n%s", i, text);
    size_t len2 = 0;
    char *text2 = pgn_write_string(scratch, &len2);
    if (!text2 || len2 != len || memcmp(text, text2, len) != 0)
        fuzz_fail("writing a game read back gives other text:\n%s\n----\n%s", text,
                  text2 ? text2 : "(null)");
    free(text2);
    free(text);
    pgn_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    board_init_tables();
    char *text = fuzz_string(data, size);
    PgnReader *r = pgn_reader_from_string(text, "fuzz");
    PgnReader *v = pgn_reader_from_string(text, "fuzz");
    PgnGame *g = pgn_game_new(), *scratch = pgn_game_new();
    if (!r || !v || !g || !scratch)
        abort();
    for (int n = 0; n < MAX_GAMES; n++) {
        PgnError e, ve;
        PgnSummary sum;
        memset(&e, 0, sizeof e);
        memset(&ve, 0, sizeof ve);
        int st = pgn_reader_next(r, g, &e);
        int vst = pgn_reader_validate(v, &sum, &ve);
        if (st != vst)
            fuzz_fail("game %d: pgn_reader_next says %d, pgn_reader_validate %d (%s / %s)", n + 1,
                      st, vst, st < 0 ? e.message : "", vst < 0 ? ve.message : "");
        if (st == 0)
            break;
        if (st < 0) {
            if (!e.message[0] || e.line < 1 || e.column < 1)
                fuzz_fail("game %d: error without a message or position (%d:%d '%s')", n + 1,
                          e.line, e.column, e.message);
            if (e.line != ve.line || e.column != ve.column || strcmp(e.message, ve.message) != 0)
                fuzz_fail("game %d: the readers disagree on the error: %d:%d %s / %d:%d %s",
                          n + 1, e.line, e.column, e.message, ve.line, ve.column, ve.message);
            continue;
        }
        if (sum.plies != pgn_mainline_length(g))
            fuzz_fail("game %d: %d plies, validate says %d", n + 1, pgn_mainline_length(g),
                      sum.plies);
        Board end;
        char fen[FEN_MAX];
        if (!pgn_position_at(g, pgn_mainline_length(g), &end))
            fuzz_fail("game %d: no position at the end of the main line", n + 1);
        board_to_fen(&end, fen, sizeof fen);
        if (strcmp(fen, sum.final_fen) != 0)
            fuzz_fail("game %d: final FEN %s, validate says %s", n + 1, fen, sum.final_fen);
        check_round_trip(g, scratch);
    }
    pgn_game_free(scratch);
    pgn_game_free(g);
    pgn_reader_close(v);
    pgn_reader_close(r);
    free(text);
    return 0;
}
