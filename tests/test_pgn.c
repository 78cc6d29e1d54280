// SPDX-License-Identifier: GPL-3.0-or-later
// PGN reader and writer: tags, comments, NAGs, variations, clocks, positions,
// exact round trips, error positions and recovery, atomic saves.
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/fen.h"
#include "engine/movegen.h"
#include "src/pgn/pgn.h"
#include "src/session/replay.h"
#include "tests/helpers.h"

static void data_path(const char *name, char *buf, size_t bufsz) {
    snprintf(buf, bufsz, "%s/pgn/%s", test_data_dir(), name);
}

static char *slurp(const char *path) {
    char err[256];
    size_t len;
    char *s = paths_read_file(path, 16 << 20, &len, err, sizeof err);
    cr_assert_not_null(s, "%s", err);
    return s;
}

// Every game of a file; errors are counted, not collected.
typedef struct Games {
    PgnGame *g[32];
    int n, errors;
    PgnError err[8];
} Games;

static void read_reader(PgnReader *r, Games *out) {
    memset(out, 0, sizeof *out);
    for (;;) {
        PgnGame *g = pgn_game_new();
        cr_assert_not_null(g);
        PgnError e;
        int rc = pgn_reader_next(r, g, &e);
        if (rc == 0) {
            pgn_game_free(g);
            break;
        }
        if (rc < 0) {
            if (out->errors < 8)
                out->err[out->errors] = e;
            out->errors++;
            pgn_game_free(g);
            continue;
        }
        cr_assert_lt(out->n, 32);
        out->g[out->n++] = g;
    }
    pgn_reader_close(r);
}

static void read_file(const char *name, Games *out) {
    char path[PATH_MAX_LEN], err[256];
    data_path(name, path, sizeof path);
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    read_reader(r, out);
}

static void read_text(const char *text, Games *out) {
    PgnReader *r = pgn_reader_from_string(text, "text.pgn");
    cr_assert_not_null(r);
    read_reader(r, out);
}

static void free_games(Games *gs) {
    for (int i = 0; i < gs->n; i++)
        pgn_game_free(gs->g[i]);
    gs->n = 0;
}

// The text of all games, as pgn_save would write it.
static char *write_all(const Games *gs) {
    size_t total = 0;
    char *all = calloc(1, 1);
    cr_assert_not_null(all);
    for (int i = 0; i < gs->n; i++) {
        size_t len;
        char *s = pgn_write_string(gs->g[i], &len);
        cr_assert_not_null(s);
        char *grown = realloc(all, total + len + 1);
        cr_assert_not_null(grown);
        all = grown;
        memcpy(all + total, s, len + 1);
        total += len;
        free(s);
    }
    return all;
}

static bool same_str(const char *a, const char *b) {
    return (!a && !b) || (a && b && !strcmp(a, b));
}

// Structural equality of two move trees.
static void assert_same_line(const PgnNode *a, const PgnNode *b) {
    for (; a || b; a = a->next, b = b->next) {
        cr_assert(a && b, "lines of different length");
        cr_assert_eq(a->move, b->move);
        cr_assert_str_eq(a->san, b->san);
        cr_assert_eq(a->ply, b->ply);
        cr_assert_eq(a->clock_ms, b->clock_ms, "%s: clock %lld vs %lld", a->san, a->clock_ms,
                     b->clock_ms);
        cr_assert(same_str(a->pre, b->pre), "%s: pre '%s' vs '%s'", a->san, a->pre, b->pre);
        cr_assert(same_str(a->comment, b->comment), "%s: comment '%s' vs '%s'", a->san, a->comment,
                  b->comment);
        cr_assert(same_str(a->trail, b->trail), "%s: trail", a->san);
        cr_assert_eq(a->nag_count, b->nag_count, "%s: NAGs", a->san);
        cr_assert_eq(memcmp(a->nags, b->nags, (size_t)a->nag_count), 0);
        const PgnNode *va = a->variation, *vb = b->variation;
        for (; va || vb; va = va->next_variation, vb = vb->next_variation) {
            cr_assert(va && vb, "%s: different number of variations", a->san);
            assert_same_line(va, vb);
        }
    }
}

// b was read back from what the writer made of a: the same tags, except that
// the writer fills in the seven tag roster.
static void assert_same_game(const PgnGame *a, const PgnGame *b) {
    static const char *const roster[] = { "Event", "Site",  "Date",  "Round",
                                          "White", "Black", "Result" };
    for (int i = 0; i < pgn_tag_count(a); i++) {
        const char *name = pgn_tag_name(a, i);
        cr_assert(same_str(pgn_tag(b, name), pgn_tag_value(a, i)), "tag %s", name);
    }
    for (int i = 0; i < pgn_tag_count(b); i++) {
        const char *name = pgn_tag_name(b, i);
        bool in_roster = false;
        for (int k = 0; k < 7; k++)
            in_roster |= !strcmp(name, roster[k]);
        cr_assert(pgn_tag(a, name) || in_roster, "tag %s appeared", name);
    }
    cr_assert_str_eq(pgn_result(a), pgn_result(b));
    cr_assert_str_eq(pgn_start_fen(a), pgn_start_fen(b));
    cr_assert(same_str(pgn_lead_comment(a), pgn_lead_comment(b)));
    assert_same_line(pgn_first(a), pgn_first(b));
}

// read(write(read(x))) has the same games as read(x).
static void assert_stable(const char *name) {
    Games a, b;
    read_file(name, &a);
    cr_assert_eq(a.errors, 0, "%s: %s", name, a.err[0].message);
    char *text = write_all(&a);
    read_text(text, &b);
    cr_assert_eq(b.errors, 0, "%s rewritten: %s", name, b.err[0].message);
    cr_assert_eq(a.n, b.n);
    for (int i = 0; i < a.n; i++)
        assert_same_game(a.g[i], b.g[i]);
    free(text);
    free_games(&a);
    free_games(&b);
}

static void assert_lines_short(const char *text) {
    int line = 1, col = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            line++;
            col = 0;
            continue;
        }
        col++;
        cr_assert_lt(col, 80, "line %d is %d columns or longer", line, col);
    }
}

static const PgnNode *nth(const PgnNode *n, int k) {
    while (n && k-- > 0)
        n = n->next;
    cr_assert_not_null(n);
    return n;
}

// ------------------------------------------------------------------ reading

Test(pgn_read, tags_unescaped_and_in_order) {
    Games gs;
    read_file("annotated.pgn", &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    cr_assert_eq(gs.n, 3);
    PgnGame *g = gs.g[0];
    cr_assert_str_eq(pgn_tag(g, "Event"), "Tricky \"quoted\" event");
    cr_assert_str_eq(pgn_tag(g, "Site"), "C:\\chess\\club");
    cr_assert_str_eq(pgn_tag(g, "TimeControl"), "300+3");
    cr_assert_str_eq(pgn_tag_name(g, 0), "Event");
    cr_assert_str_eq(pgn_tag_name(g, 8), "TimeControl");
    cr_assert_null(pgn_tag(g, "Annotator"));
    cr_assert_str_eq(pgn_result(g), "1-0");
    cr_assert_str_eq(pgn_result(gs.g[1]), "0-1");
    cr_assert_str_eq(pgn_result(gs.g[2]), "*");
    free_games(&gs);
}

Test(pgn_read, comments_nags_and_variations) {
    Games gs;
    read_file("annotated.pgn", &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    PgnGame *g = gs.g[0];
    cr_assert_eq(pgn_mainline_length(g), 21);
    const PgnNode *e4 = pgn_first(g);
    cr_assert_str_eq(e4->pre, "A lead comment before the first move.");
    cr_assert_str_eq(e4->san, "e4");
    cr_assert_eq(e4->nag_count, 1);
    cr_assert_eq(e4->nags[0], 1); // "!"
    // 2... Nc6 (2... d6 3. d4 (3. Bc4 Be7) 3... exd4 $10)
    const PgnNode *nc6 = nth(e4, 3);
    cr_assert_str_eq(nc6->san, "Nc6");
    const PgnNode *d6 = nc6->variation;
    cr_assert_not_null(d6);
    cr_assert_null(d6->next_variation);
    cr_assert_str_eq(d6->san, "d6");
    cr_assert_eq(d6->ply, 3);
    cr_assert_str_eq(d6->next->san, "d4");
    cr_assert_str_eq(d6->next->variation->san, "Bc4");
    cr_assert_str_eq(d6->next->variation->next->san, "Be7");
    cr_assert_str_eq(d6->next->next->san, "exd4");
    cr_assert_eq(d6->next->next->nags[0], 10);
    const PgnNode *a6 = nth(e4, 5);
    cr_assert_eq(a6->nags[0], 6); // "?!"
    cr_assert_str_eq(a6->comment, "a rest-of-line comment");
    cr_assert_str_eq(pgn_mainline_comment(g, 9), "A quiet multi-line comment");
    cr_assert_eq(nth(e4, 15)->nags[0], 5);   // O-O!?
    cr_assert_eq(nth(e4, 16)->nags[0], 14);  // h3 $14
    cr_assert_eq(nth(e4, 17)->nags[0], 4);   // Nb8??
    cr_assert_eq(nth(e4, 18)->nags[0], 3);   // d4 !! (a separate token)
    cr_assert_eq(nth(e4, 19)->nag_count, 2); // Nbd7 $2 $18
    cr_assert_eq(nth(e4, 19)->nags[1], 18);
    cr_assert_str_eq(pgn_mainline_san(g, 20), "Nbd2");
    cr_assert_null(pgn_mainline_san(g, 21));
    free_games(&gs);
}

Test(pgn_read, nested_variations_and_comment_placement) {
    Games gs;
    read_file("annotated.pgn", &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    PgnGame *g = gs.g[1];
    cr_assert_eq(pgn_mainline_length(g), 4);
    const PgnNode *g4 = pgn_mainline_node(g, 2);
    const PgnNode *e4 = g4->variation;
    cr_assert_str_eq(e4->san, "e4");
    cr_assert_str_eq(e4->comment, "solid");
    // Two alternatives to 2. e4; the comment between them opens the second.
    const PgnNode *kf2 = e4->variation, *e3 = kf2->next_variation;
    cr_assert_str_eq(kf2->san, "Kf2");
    cr_assert_str_eq(kf2->next->san, "Qh4+");
    cr_assert_str_eq(kf2->next->next->san, "g3");
    cr_assert_str_eq(e3->san, "e3");
    cr_assert_str_eq(e3->pre, "between");
    cr_assert_eq(e3->clock_ms, 291000);
    cr_assert_str_eq(e3->comment, "also");
    cr_assert_str_eq(e3->next->san, "Qh4+"); // canonical SAN: it is check
    const PgnNode *nc6 = e4->next;
    cr_assert_str_eq(nc6->pre, "before Nc6");
    cr_assert_str_eq(nc6->trail, "trailing");
    cr_assert_str_eq(nc6->variation->san, "Nf6");
    cr_assert_eq(nc6->variation->nags[0], 5);
    cr_assert_str_eq(nc6->variation->variation->san, "d5");
    cr_assert_str_eq(pgn_mainline_san(g, 3), "Qh4#");
    cr_assert_str_eq(pgn_mainline_comment(g, 3), "Fool's mate");
    free_games(&gs);
}

Test(pgn_read, clock_comments) {
    Games gs;
    read_file("annotated.pgn", &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    PgnGame *g = gs.g[1];
    cr_assert_eq(pgn_mainline_clock(g, 0), 300000);
    cr_assert_null(pgn_mainline_comment(g, 0)); // it carried only the clock
    cr_assert_eq(pgn_mainline_clock(g, 1), 298500);
    cr_assert_str_eq(pgn_mainline_comment(g, 1), "[%eval 0.9]");
    cr_assert_eq(pgn_mainline_clock(g, 2), 290000);
    cr_assert_eq(pgn_mainline_clock(g, 3), -1);
    cr_assert_eq(pgn_mainline_clock(g, 99), -1);
    free_games(&gs);
}

Test(pgn_read, game_without_moves_keeps_its_comment) {
    Games gs;
    read_file("annotated.pgn", &gs);
    PgnGame *g = gs.g[2];
    cr_assert_eq(pgn_mainline_length(g), 0);
    cr_assert_null(pgn_first(g));
    cr_assert_str_eq(pgn_lead_comment(g), "No moves were played.");
    free_games(&gs);
}

Test(pgn_read, semicolon_comment_with_brace_and_empty_comment) {
    Games gs;
    read_file("semicolon.pgn", &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    cr_assert_str_eq(pgn_result(gs.g[0]), "1/2-1/2");
    cr_assert_str_eq(pgn_mainline_comment(gs.g[0], 3), "he said } and left");
    cr_assert_str_eq(pgn_mainline_comment(gs.g[0], 4), "");
    free_games(&gs);
}

Test(pgn_read, game_from_a_position) {
    Games gs;
    read_file("setup.pgn", &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    PgnGame *g = gs.g[0];
    cr_assert_str_eq(pgn_start_fen(g), "r3k2r/1P6/8/8/8/8/6p1/R3K2R b KQkq - 0 30");
    cr_assert_eq(pgn_mainline_length(g), 9);
    cr_assert_str_eq(pgn_mainline_san(g, 0), "O-O");
    cr_assert_str_eq(pgn_mainline_san(g, 1), "bxa8=Q");
    cr_assert_str_eq(pgn_mainline_san(g, 3), "O-O-O");
    cr_assert_str_eq(pgn_mainline_san(g, 4), "g1=Q");
    cr_assert_str_eq(pgn_mainline_san(g, 5), "Rdxg1+");
    Board b;
    char fen[FEN_MAX];
    cr_assert(pgn_position_at(g, 9, &b));
    board_to_fen(&b, fen, sizeof fen);
    cr_assert_str_eq(fen, "r7/7R/4k3/8/8/8/8/2K3R1 w - - 3 35");
    cr_assert(!pgn_position_at(g, 10, &b));
    free_games(&gs);
}

Test(pgn_read, bom_and_crlf) {
    Games gs;
    read_file("bom_crlf.pgn", &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    cr_assert_eq(gs.n, 2);
    cr_assert_str_eq(pgn_tag(gs.g[0], "Event"), "BOM and CRLF");
    cr_assert_str_eq(pgn_mainline_comment(gs.g[0], 5), "oops again");
    cr_assert_str_eq(pgn_mainline_san(gs.g[0], 6), "Qxf7#");
    cr_assert_str_eq(pgn_result(gs.g[0]), "1-0");
    cr_assert_eq(pgn_mainline_length(gs.g[1]), 4);
    free_games(&gs);

    // Columns on a CRLF line and after a BOM count from the first character.
    read_text("\xEF\xBB\xBF"
              "1. e4 e5 2. Ke3 *\r\n",
              &gs);
    cr_assert_eq(gs.errors, 1);
    cr_assert_eq(gs.err[0].line, 1);
    cr_assert_eq(gs.err[0].column, 13);
    free_games(&gs);
}

Test(pgn_read, lenient_move_text) {
    Games gs;
    // No tags, move numbers glued to moves, 0-0, redundant disambiguation,
    // missing check marks, a NAG in a variation, no result at the end.
    read_text("1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 4.0-0 Ngf6 5.d3 d6 6.Bg5 h6 7.Bxf6 Qxf6 (7...gxf6 $6)\n"
              "8.Nc3\n",
              &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    cr_assert_eq(gs.n, 1);
    cr_assert_eq(pgn_mainline_length(gs.g[0]), 15);
    cr_assert_str_eq(pgn_mainline_san(gs.g[0], 6), "O-O");
    cr_assert_str_eq(pgn_mainline_san(gs.g[0], 7), "Nf6");
    cr_assert_str_eq(pgn_result(gs.g[0]), "*");
    free_games(&gs);
}

Test(pgn_read, all_results_and_tag_result_without_marker) {
    Games gs;
    read_text("1. e4 1-0\n1. d4 0-1 1. c4 1/2-1/2 1. f4 *\n[Result \"0-1\"]\n\n1. g3\n", &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    cr_assert_eq(gs.n, 5);
    cr_assert_str_eq(pgn_result(gs.g[0]), "1-0");
    cr_assert_str_eq(pgn_result(gs.g[1]), "0-1");
    cr_assert_str_eq(pgn_result(gs.g[2]), "1/2-1/2");
    cr_assert_str_eq(pgn_result(gs.g[3]), "*");
    cr_assert_str_eq(pgn_mainline_san(gs.g[3], 0), "f4");
    cr_assert_str_eq(pgn_result(gs.g[4]), "0-1");
    free_games(&gs);
}

Test(pgn_read, long_lines_and_chunk_boundaries) {
    // A comment longer than the 64 KB read buffer, then many games written
    // to a file so that tokens straddle buffer refills.
    size_t big = 200000;
    char *text = malloc(big + 64);
    cr_assert_not_null(text);
    strcpy(text, "1. e4 {");
    size_t n = strlen(text);
    for (size_t i = 0; i < big; i++)
        text[n++] = i % 7 == 6 ? ' ' : 'x';
    strcpy(text + n, "} e5 *\n");
    Games gs;
    read_text(text, &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    cr_assert_eq(strlen(pgn_mainline_comment(gs.g[0], 0)), big);
    free_games(&gs);

    char path[] = "/tmp/test_pgn_chunksXXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    char *canon = NULL;
    {
        char p[PATH_MAX_LEN];
        data_path("canonical.pgn", p, sizeof p);
        canon = slurp(p);
    }
    for (int i = 0; i < 40; i++)
        cr_assert_eq(fputs(canon, f) >= 0, true);
    cr_assert_eq(fclose(f), 0);
    char err[256];
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    PgnGame *g = pgn_game_new();
    PgnError e;
    int games = 0, rc;
    size_t written = 0;
    while ((rc = pgn_reader_next(r, g, &e)) != 0) {
        cr_assert_eq(rc, 1, "%s:%d:%d: %s", e.file, e.line, e.column, e.message);
        size_t len;
        char *s = pgn_write_string(g, &len);
        cr_assert_not_null(s);
        cr_assert_eq(memcmp(s, canon + written, len), 0, "game %d differs", games + 1);
        written = (written + len) % strlen(canon);
        free(s);
        games++;
    }
    cr_assert_eq(games, 40 * 10);
    pgn_reader_close(r);
    pgn_game_free(g);
    unlink(path);
    free(canon);
    free(text);
}

// ------------------------------------------------------------------ errors

Test(pgn_errors, illegal_move_in_game_2_of_3) {
    Games gs;
    read_file("broken_illegal.pgn", &gs);
    cr_assert_eq(gs.n, 2);
    cr_assert_eq(gs.errors, 1);
    cr_assert_str_eq(pgn_tag(gs.g[0], "Event"), "g1");
    cr_assert_str_eq(pgn_tag(gs.g[1], "Event"), "g3");
    cr_assert_eq(pgn_mainline_length(gs.g[1]), 4);
    PgnError *e = &gs.err[0];
    cr_assert(strstr(e->file, "broken_illegal.pgn"));
    cr_assert_eq(e->line, 9);
    cr_assert_eq(e->column, 24);
    cr_assert_eq(e->game_number, 2);
    cr_assert_str_eq(e->message,
                     "game 2: illegal move 'Nf5' at move 3 (White), position: "
                     "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3: "
                     "no knight can reach f5");
    free_games(&gs);
}

Test(pgn_errors, unclosed_comment) {
    Games gs;
    read_file("broken_comment.pgn", &gs);
    cr_assert_eq(gs.n, 2);
    cr_assert_eq(gs.errors, 1);
    cr_assert_str_eq(pgn_tag(gs.g[1], "Event"), "g3");
    cr_assert_eq(gs.err[0].line, 9);
    cr_assert_eq(gs.err[0].column, 7);
    cr_assert(strstr(gs.err[0].message, "game 2: unclosed comment"), "%s", gs.err[0].message);
    free_games(&gs);

    read_text("1. e4 e5 {never closed\n", &gs);
    cr_assert_eq(gs.errors, 1);
    cr_assert_eq(gs.err[0].line, 1);
    cr_assert_eq(gs.err[0].column, 10);
    free_games(&gs);
}

Test(pgn_errors, unclosed_variation) {
    Games gs;
    read_file("broken_variation.pgn", &gs);
    cr_assert_eq(gs.n, 2);
    cr_assert_eq(gs.errors, 2);
    cr_assert_str_eq(pgn_tag(gs.g[1], "Event"), "g3");
    cr_assert_eq(gs.err[0].line, 9);
    cr_assert_eq(gs.err[0].column, 17);
    cr_assert_eq(gs.err[0].game_number, 2);
    cr_assert(strstr(gs.err[0].message, "unclosed variation"));
    cr_assert_eq(gs.err[1].line, 20); // at the end of input
    cr_assert_eq(gs.err[1].column, 7);
    cr_assert_eq(gs.err[1].game_number, 4);
    free_games(&gs);
}

Test(pgn_errors, bad_tag) {
    Games gs;
    read_file("broken_tag.pgn", &gs);
    cr_assert_eq(gs.n, 2);
    cr_assert_eq(gs.errors, 1);
    cr_assert_str_eq(pgn_tag(gs.g[0], "Event"), "g1");
    cr_assert_str_eq(pgn_tag(gs.g[1], "Event"), "g3");
    cr_assert_eq(gs.err[0].line, 7);
    cr_assert_eq(gs.err[0].column, 13);
    cr_assert(strstr(gs.err[0].message, "game 2: bad tag"), "%s", gs.err[0].message);
    free_games(&gs);
}

// One malformed input and where its error must be reported.
typedef struct BadCase {
    const char *text;
    int line, column;
    const char *contains;
} BadCase;

Test(pgn_errors, positions_of_other_errors) {
    static const BadCase cases[] = {
        { "1. e4 $300 *\n", 1, 7, "bad NAG" },
        { "1. e4 e5 ) *\n", 1, 10, "')' without" },
        { "$1 1. e4 *\n", 1, 1, "annotation before any move" },
        { "1. e4 ( ) *\n", 1, 7, "empty variation" },
        { "( 1. e4 ) *\n", 1, 1, "must follow the move" },
        { "1. e4 e5 2. Nf3 &\n", 1, 17, "unexpected character '&'" },
        { "1. e4 e5!!! *\n", 1, 9, "bad annotation" },
        { "[Event \"x\"]\n[Bad\n\n1. e4 *\n", 2, 5, "expected '\"'" },
        { "[Event \"x\" junk]\n\n1. e4 *\n", 1, 12, "expected ']'" },
        { "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n", 2, 1, "bad FEN tag" },
        { "1. d4 d5 2. Nf3 Nf6 3. Nd2 *\n", 1, 24, "ambiguous move 'Nd2'" },
        { "1. d4 d5 2. Nf3 Nf6 3. Nd2 *\n", 1, 24, "could be Nbd2, Nfd2" },
        { "\n\n   1. e4 e5 2. Zz9 *\n", 3, 16, "unreadable move 'Zz9'" },
        { "1. e4 e5 2. Nf3 (2. Nc3 Nc6 (2... Nf6 3. Kd2)) Nc6 *", 1, 42, "no king can reach d2" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Games gs;
        read_text(cases[i].text, &gs);
        cr_assert_eq(gs.errors, 1, "case %zu: %d errors", i, gs.errors);
        cr_assert_eq(gs.err[0].line, cases[i].line, "case %zu: line %d", i, gs.err[0].line);
        cr_assert_eq(gs.err[0].column, cases[i].column, "case %zu: column %d (%s)", i,
                     gs.err[0].column, gs.err[0].message);
        cr_assert(strstr(gs.err[0].message, cases[i].contains), "case %zu: %s", i,
                  gs.err[0].message);
        cr_assert_str_eq(gs.err[0].file, "text.pgn");
        free_games(&gs);
    }
}

Test(pgn_errors, missing_file_and_read_error) {
    char err[256] = "";
    cr_assert_null(pgn_reader_open("/nonexistent/dir/x.pgn", err, sizeof err));
    cr_assert(strstr(err, "/nonexistent/dir/x.pgn"), "%s", err);
    // A directory opens but cannot be read.
    PgnReader *r = pgn_reader_open("/tmp", err, sizeof err);
    if (!r)
        return; // some systems refuse to open a directory at all
    PgnGame *g = pgn_game_new();
    PgnError e;
    cr_assert_eq(pgn_reader_next(r, g, &e), -1);
    cr_assert(strstr(e.message, "read error"), "%s", e.message);
    cr_assert_eq(pgn_reader_next(r, g, &e), 0);
    pgn_reader_close(r);
    pgn_game_free(g);
}

// ------------------------------------------------------------------ validation path

Test(pgn_validate, agrees_with_the_tree_reader) {
    static const char *files[] = { "annotated.pgn",      "setup.pgn",
                                   "bom_crlf.pgn",       "canonical.pgn",
                                   "semicolon.pgn",      "broken_illegal.pgn",
                                   "broken_comment.pgn", "broken_variation.pgn",
                                   "broken_tag.pgn" };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[PATH_MAX_LEN], err[256];
        data_path(files[f], path, sizeof path);
        PgnReader *tree = pgn_reader_open(path, err, sizeof err);
        PgnReader *fast = pgn_reader_open(path, err, sizeof err);
        cr_assert(tree && fast, "%s", err);
        PgnGame *g = pgn_game_new();
        for (;;) {
            PgnError e1, e2;
            PgnSummary s;
            int rc1 = pgn_reader_next(tree, g, &e1);
            int rc2 = pgn_reader_validate(fast, &s, &e2);
            cr_assert_eq(rc1, rc2, "%s", files[f]);
            if (rc1 == 0)
                break;
            if (rc1 < 0) {
                cr_assert_eq(e1.line, e2.line);
                cr_assert_eq(e1.column, e2.column);
                cr_assert_str_eq(e1.message, e2.message);
                continue;
            }
            cr_assert_eq(s.plies, pgn_mainline_length(g));
            cr_assert_str_eq(s.result, pgn_result(g));
            Board b;
            char fen[FEN_MAX];
            cr_assert(pgn_position_at(g, s.plies, &b));
            board_to_fen(&b, fen, sizeof fen);
            cr_assert_str_eq(s.final_fen, fen, "%s game %d", files[f], s.game_number);
        }
        pgn_game_free(g);
        pgn_reader_close(tree);
        pgn_reader_close(fast);
    }
}

Test(pgn_validate, checks_variation_moves) {
    PgnReader *r = pgn_reader_from_string("1. e4 e5 (1... Nf6 2. Ke3) 2. Nf3 *\n", "v.pgn");
    cr_assert_not_null(r);
    PgnSummary s;
    PgnError e;
    cr_assert_eq(pgn_reader_validate(r, &s, &e), -1);
    cr_assert_eq(e.column, 23);
    cr_assert(strstr(e.message, "illegal move 'Ke3' at move 2 (White)"), "%s", e.message);
    cr_assert_eq(pgn_reader_validate(r, &s, &e), 0);
    pgn_reader_close(r);
}

// ------------------------------------------------------------------ writing

Test(pgn_write, canonical_file_round_trips_exactly) {
    char path[PATH_MAX_LEN];
    data_path("canonical.pgn", path, sizeof path);
    char *orig = slurp(path);
    Games gs;
    read_file("canonical.pgn", &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    cr_assert_eq(gs.n, 10);
    char *again = write_all(&gs);
    cr_assert_str_eq(again, orig);
    assert_lines_short(again);
    free(again);
    free(orig);
    free_games(&gs);
}

Test(pgn_write, hand_written_files_are_stable) {
    assert_stable("annotated.pgn");
    assert_stable("setup.pgn");
    assert_stable("bom_crlf.pgn");
    assert_stable("semicolon.pgn");
}

Test(pgn_write, seven_tag_roster_first_then_others) {
    PgnGame *g = pgn_game_new();
    cr_assert(pgn_set_tag(g, "ECO", "B01"));
    cr_assert(pgn_set_tag(g, "White", "Me"));
    cr_assert(pgn_set_tag(g, "TimeControl", "60+1"));
    cr_assert(pgn_set_tag(g, "White", "Me \"again\" \\o/"));
    cr_assert(!pgn_set_tag(g, "Bad Name", "x"));
    cr_assert(!pgn_set_tag(g, "Note", "two\nlines"));
    char err[160];
    cr_assert(pgn_set_start_fen(g, "4k3/8/8/8/8/8/4P3/4K3 b - - 5 40", err, sizeof err), "%s", err);
    Move m;
    Board b;
    cr_assert(pgn_position_at(g, 0, &b));
    cr_assert_eq(notation_parse_move(&b, "Kd7", &m, err, sizeof err), NOTATION_OK);
    cr_assert(pgn_append_move(g, m, NULL, -1, NULL));
    pgn_set_result(g, "1/2-1/2");
    cr_assert(!pgn_set_start_fen(g, BOARD_START_FEN, err, sizeof err)); // has moves now
    size_t len;
    char *s = pgn_write_string(g, &len);
    cr_assert_not_null(s);
    cr_assert_eq(strlen(s), len);
    cr_assert_str_eq(s, "[Event \"?\"]\n"
                        "[Site \"?\"]\n"
                        "[Date \"????.??.??\"]\n"
                        "[Round \"?\"]\n"
                        "[White \"Me \\\"again\\\" \\\\o/\"]\n"
                        "[Black \"?\"]\n"
                        "[Result \"1/2-1/2\"]\n"
                        "[ECO \"B01\"]\n"
                        "[TimeControl \"60+1\"]\n"
                        "[SetUp \"1\"]\n"
                        "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 5 40\"]\n"
                        "\n"
                        "40... Kd7 1/2-1/2\n"
                        "\n");
    free(s);
    pgn_game_free(g);
}

Test(pgn_write, appended_moves_clocks_and_comments_round_trip) {
    PgnGame *g = pgn_game_new();
    static const char *const moves[] = { "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6" };
    static const long long clocks[] = { 180000, 179500, 3723400, 61230, 5, 0, -1, 1000 };
    static const char *const comments[] = { NULL, "Sicilian",     NULL, "{braces}",
                                            NULL, "100%\n sure ", NULL, "" };
    Board b;
    board_set_start(&b);
    char err[160];
    for (int i = 0; i < 8; i++) {
        Move m;
        cr_assert_eq(notation_parse_move(&b, moves[i], &m, err, sizeof err), NOTATION_OK);
        // The braces cannot stay in a brace comment; the text is kept anyway.
        const char *c = i == 3 ? "braces" : comments[i];
        cr_assert(pgn_append_move(g, m, NULL, clocks[i], c));
        board_play(&b, m);
    }
    cr_assert(!pgn_append_move(g, move_make(SQ_A1, SQ_H8), NULL, -1, NULL));
    cr_assert_eq(pgn_mainline_length(g), 8);
    cr_assert_str_eq(pgn_mainline_san(g, 5), "cxd4");
    char *s = pgn_write_string(g, NULL);
    cr_assert_not_null(s);
    cr_assert(strstr(s, "1. e4 {[%clk 0:03:00]} 1... c5 {[%clk 0:02:59.5] Sicilian} 2. Nf3\n"
                        "{[%clk 1:02:03.4]} 2... d6 {[%clk 0:01:01.23] braces}"),
              "%s", s);
    cr_assert(strstr(s, "{[%clk 0:00:00.005]}"), "%s", s);
    cr_assert_str_eq(pgn_mainline_comment(g, 5), "100% sure"); // blanks are normalised
    cr_assert_null(pgn_mainline_comment(g, 7));                // "" is no comment
    Games gs;
    read_text(s, &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
    for (int i = 0; i < 8; i++) {
        cr_assert_eq(pgn_mainline_clock(gs.g[0], i), clocks[i], "ply %d", i);
        cr_assert_eq(pgn_mainline_move(gs.g[0], i), pgn_mainline_move(g, i));
    }
    assert_same_game(g, gs.g[0]);
    free_games(&gs);
    free(s);
    pgn_game_free(g);
}

Test(pgn_write, random_games_round_trip_and_wrap) {
    PgnGame *g = pgn_game_new();
    unsigned long long seed = 20240115;
    for (int game = 0; game < 30; game++) {
        pgn_game_clear(g);
        Board b;
        board_set_start(&b);
        int plies = 20 + game * 7;
        long long clk = 600000;
        for (int p = 0; p < plies; p++) {
            MoveList list;
            movegen_legal(&b, &list);
            if (list.count == 0)
                break;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            Move m = list.moves[(seed >> 33) % (unsigned)list.count];
            clk -= (long long)((seed >> 20) % 5000);
            const char *comment = p % 11 == 5 ? "a comment that is long enough to need wrapping "
                                                "somewhere along the way, %100 sure"
                                              : NULL;
            cr_assert(pgn_append_move(g, m, NULL, p % 3 ? clk : -1, comment));
            board_play(&b, m);
        }
        pgn_set_result(g, game % 2 ? "*" : "1/2-1/2");
        size_t len;
        char *s = pgn_write_string(g, &len);
        cr_assert_not_null(s);
        assert_lines_short(s);
        for (const char *p = s; (p = strchr(p, '\n')) != NULL; p++)
            cr_assert_neq(p[1], '%', "a line starts with %%");
        Games gs;
        read_text(s, &gs);
        cr_assert_eq(gs.errors, 0, "%s", gs.err[0].message);
        assert_same_game(g, gs.g[0]);
        char *again = pgn_write_string(gs.g[0], NULL);
        cr_assert_str_eq(again, s);
        free(again);
        free(s);
        free_games(&gs);
    }
    pgn_game_free(g);
}

Test(pgn_write, accepted_by_pgn_extract) {
    const char *tool = access("/usr/games/pgn-extract", X_OK) == 0 ? "/usr/games/pgn-extract"
                       : access("/usr/bin/pgn-extract", X_OK) == 0 ? "/usr/bin/pgn-extract"
                                                                   : NULL;
    if (!tool)
        cr_skip_test("pgn-extract is not installed");
    // Everything the writer produced, except the ';' comment, which
    // pgn-extract does not support although the standard allows it.
    static const char *files[] = { "annotated.pgn", "setup.pgn", "bom_crlf.pgn" };
    char path[] = "/tmp/test_pgn_extractXXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        Games gs;
        read_file(files[i], &gs);
        char *s = write_all(&gs);
        cr_assert(fputs(s, f) >= 0);
        free(s);
        free_games(&gs);
    }
    cr_assert_eq(fclose(f), 0);
    char cmd[PATH_MAX_LEN + 128], errpath[PATH_MAX_LEN];
    snprintf(errpath, sizeof errpath, "%s.err", path);
    snprintf(cmd, sizeof cmd, "%s -r -s --quiet %s >/dev/null 2>%s", tool, path, errpath);
    cr_assert_eq(system(cmd), 0);
    char *out = slurp(errpath);
    cr_assert_str_eq(out, "", "pgn-extract complained:\n%s", out);
    free(out);
    unlink(path);
    unlink(errpath);
}

// ------------------------------------------------------------------ saving

static PgnGame *sample_game(void) {
    PgnGame *g = pgn_game_new();
    cr_assert_not_null(g);
    Board b;
    board_set_start(&b);
    for (int i = 0; i < 60; i++) {
        MoveList list;
        movegen_legal(&b, &list);
        Move m = list.moves[(i * 7) % list.count];
        cr_assert(pgn_append_move(g, m, NULL, 100000 - i * 1000, "padding padding padding"));
        board_play(&b, m);
    }
    return g;
}

static int count_entries(const char *dir) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

Test(pgn_save, writes_all_games) {
    char dir[] = "/tmp/test_pgn_saveXXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[PATH_MAX_LEN], err[256];
    snprintf(path, sizeof path, "%s/games.pgn", dir);
    PgnGame *g = sample_game();
    const PgnGame *games[2] = { g, g };
    cr_assert(pgn_save(path, games, 2, err, sizeof err), "%s", err);
    char *text = slurp(path);
    char *one = pgn_write_string(g, NULL);
    cr_assert_eq(strlen(text), 2 * strlen(one));
    Games gs;
    read_text(text, &gs);
    cr_assert_eq(gs.n, 2);
    free_games(&gs);
    free(one);
    free(text);
    pgn_game_free(g);
    cr_assert_eq(count_entries(dir), 1);
    unlink(path);
    rmdir(dir);
}

Test(pgn_save, unwritable_path_is_reported) {
    PgnGame *g = pgn_game_new();
    const PgnGame *games[1] = { g };
    char err[256] = "";
    cr_assert(!pgn_save("/nonexistent/dir/games.pgn", games, 1, err, sizeof err));
    cr_assert(strstr(err, "/nonexistent/dir/games.pgn"), "%s", err);
    cr_assert_eq(access("/nonexistent/dir/games.pgn", F_OK), -1);
    pgn_game_free(g);
}

// A full disk, simulated with a file size limit: the write fails part way
// and the old file must survive untouched, with no temporary left behind.
Test(pgn_save, full_disk_keeps_the_old_file) {
    char dir[] = "/tmp/test_pgn_fullXXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[PATH_MAX_LEN], err[256] = "";
    snprintf(path, sizeof path, "%s/games.pgn", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    cr_assert(fputs("old content\n", f) >= 0);
    cr_assert_eq(fclose(f), 0);

    signal(SIGXFSZ, SIG_IGN); // write() then fails with EFBIG instead of killing us
    struct rlimit lim = { 1000, 1000 };
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    PgnGame *g = sample_game();
    const PgnGame *games[1] = { g };
    bool ok = pgn_save(path, games, 1, err, sizeof err);
    cr_assert(!ok);
    cr_assert(strstr(err, "games.pgn"), "%s", err);
    char *text = slurp(path);
    cr_assert_str_eq(text, "old content\n");
    free(text);
    cr_assert_eq(count_entries(dir), 1, "a temporary file was left behind");
    pgn_game_free(g);
    unlink(path);
    rmdir(dir);
}

// ------------------------------------------------------------------ game model

Test(pgn_game, clear_and_accessors) {
    PgnGame *g = pgn_game_new();
    cr_assert_str_eq(pgn_result(g), "*");
    cr_assert_str_eq(pgn_start_fen(g), BOARD_START_FEN);
    cr_assert(pgn_set_tag(g, "Result", "1-0"));
    cr_assert_str_eq(pgn_result(g), "1-0");
    pgn_set_result(g, "bogus");
    cr_assert_str_eq(pgn_result(g), "1-0");
    Board b;
    board_set_start(&b);
    Move m;
    char err[160];
    cr_assert_eq(notation_parse_move(&b, "e4", &m, err, sizeof err), NOTATION_OK);
    cr_assert(pgn_append_move(g, m, "e4", 5000, "first"));
    cr_assert_eq(pgn_mainline_move(g, 0), m);
    cr_assert_eq(pgn_mainline_move(g, 1), MOVE_NONE);
    cr_assert_eq(pgn_mainline_move(g, -1), MOVE_NONE);
    cr_assert_str_eq(pgn_mainline_comment(g, 0), "first");
    pgn_game_clear(g);
    cr_assert_eq(pgn_mainline_length(g), 0);
    cr_assert_eq(pgn_tag_count(g), 0);
    cr_assert_str_eq(pgn_result(g), "*");
    cr_assert(pgn_set_start_fen(g, "8/8/8/8/8/8/8/8 w - - 0 1", err, sizeof err) == false);
    cr_assert(pgn_set_start_fen(g, BOARD_START_FEN, err, sizeof err));
    cr_assert_null(pgn_tag(g, "FEN")); // the standard position needs no tags
    pgn_game_free(g);
    pgn_game_free(NULL);
}

// ------------------------------------------------------------------ clone

// Every node and string of a's tree lives somewhere else in b.
static void assert_shares_nothing(const PgnNode *a, const PgnNode *b) {
    for (; a && b; a = a->next, b = b->next) {
        cr_assert_neq(a, b);
        cr_assert(!a->pre || a->pre != b->pre);
        cr_assert(!a->comment || a->comment != b->comment);
        cr_assert(!a->trail || a->trail != b->trail);
        for (const PgnNode *va = a->variation, *vb = b->variation; va && vb;
             va = va->next_variation, vb = vb->next_variation)
            assert_shares_nothing(va, vb);
    }
}

Test(pgn_game, clone_is_deep_and_independent) {
    static const char *files[] = { "annotated.pgn", "setup.pgn", "canonical.pgn" };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        Games gs;
        read_file(files[f], &gs);
        cr_assert_eq(gs.errors, 0);
        for (int i = 0; i < gs.n; i++) {
            PgnGame *g = gs.g[i];
            PgnGame *c = pgn_game_clone(g);
            cr_assert_not_null(c);
            assert_same_game(g, c);
            assert_shares_nothing(pgn_first(g), pgn_first(c));
            cr_assert_eq(pgn_mainline_length(c), pgn_mainline_length(g));
            for (int p = 0; p < pgn_mainline_length(g); p++)
                cr_assert_eq(pgn_mainline_move(c, p), pgn_mainline_move(g, p));
            char *before = pgn_write_string(g, NULL);
            char *copied = pgn_write_string(c, NULL);
            cr_assert_str_eq(copied, before);
            // Changing or freeing the original leaves the clone as it was.
            if (pgn_mainline_length(g) > 0) {
                cr_assert(pgn_mainline_append_comment(g, 0, "changed"));
                cr_assert(pgn_mainline_add_nag(g, 0, 4));
            }
            cr_assert(pgn_set_tag(g, "Event", "changed"));
            pgn_game_free(g);
            gs.g[i] = NULL;
            char *after = pgn_write_string(c, NULL);
            cr_assert_str_eq(after, before);
            // The clone goes on from the end of its main line.
            Board end;
            cr_assert(pgn_position_at(c, pgn_mainline_length(c), &end));
            MoveList list;
            movegen_legal(&end, &list);
            if (list.count > 0)
                cr_assert(pgn_append_move(c, list.moves[0], NULL, -1, NULL));
            free(before);
            free(copied);
            free(after);
            pgn_game_free(c);
        }
    }
}

Test(pgn_game, clone_of_an_empty_game) {
    PgnGame *g = pgn_game_new();
    cr_assert_not_null(g);
    PgnGame *c = pgn_game_clone(g);
    cr_assert_not_null(c);
    cr_assert_eq(pgn_mainline_length(c), 0);
    cr_assert_null(pgn_first(c));
    cr_assert_str_eq(pgn_result(c), "*");
    pgn_game_free(g);
    pgn_game_free(c);
}

// ------------------------------------------------------------------ null moves

static char *fen_at(const PgnGame *g, int ply) {
    static char fen[FEN_MAX];
    Board *b = malloc(sizeof *b);
    cr_assert_not_null(b);
    cr_assert(pgn_position_at(g, ply, b));
    board_to_fen(b, fen, sizeof fen);
    free(b);
    return fen;
}

Test(pgn_null, both_forms_in_main_line_and_variations) {
    Games gs;
    read_file("null_moves.pgn", &gs);
    cr_assert_eq(gs.n, 2);
    cr_assert_eq(gs.errors, 1); // game 3: a null move in check
    const PgnGame *g = gs.g[0];
    cr_assert_eq(pgn_mainline_length(g), 10);
    // "4. Z0" and "5. --" in the main line, both kept as "--".
    for (int ply = 6; ply <= 8; ply += 2) {
        cr_assert_eq(pgn_mainline_move(g, ply), MOVE_NULL);
        cr_assert_str_eq(pgn_mainline_san(g, ply), "--");
    }
    // "(2. -- {...} Nc6 3. Nf3)": a variation that starts with a null move.
    const PgnNode *v = pgn_mainline_node(g, 2)->variation;
    cr_assert_not_null(v);
    cr_assert_eq(v->move, MOVE_NULL);
    cr_assert_str_eq(v->san, "--");
    cr_assert_str_eq(v->comment, "What does Black do?");
    cr_assert_str_eq(v->next->san, "Nc6");
    cr_assert_str_eq(v->next->next->san, "Nf3");
    // A null move nested in a variation of a variation.
    const PgnGame *g2 = gs.g[1];
    const PgnNode *kf7 = pgn_mainline_node(g2, 5)->variation;
    cr_assert_str_eq(kf7->san, "Kf7");
    cr_assert_eq(kf7->next->move, MOVE_NULL);
    cr_assert_str_eq(kf7->next->variation->san, "d4");
    cr_assert_str_eq(kf7->next->next->san, "Ke6");
    free_games(&gs);
}

Test(pgn_null, passes_the_turn_and_clears_en_passant) {
    Games gs;
    read_file("null_moves.pgn", &gs);
    const PgnGame *g = gs.g[1];
    // After 2... f5 White could take en passant; after 3. -- it is Black's
    // move and the chance is gone.
    cr_assert_str_eq(fen_at(g, 4), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    cr_assert_str_eq(fen_at(g, 5), "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3");
    cr_assert_str_eq(fen_at(g, 7),
                     "r1bqkbnr/ppp1p1pp/2n5/3pPp2/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 4");
    free_games(&gs);
}

Test(pgn_null, in_check_is_an_error_with_its_position) {
    Games gs;
    read_file("null_moves.pgn", &gs);
    cr_assert_eq(gs.errors, 1);
    cr_assert_eq(gs.err[0].line, 31);
    cr_assert_eq(gs.err[0].column, 18);
    cr_assert_str_eq(gs.err[0].message, "game 3: null move '--' at move 2 (Black) while in check");
    free_games(&gs);
}

Test(pgn_null, round_trip_keeps_tree_and_text) {
    Games a, b;
    read_file("null_moves.pgn", &a);
    char *text = write_all(&a);
    static const char *const written[] = { "(2.\n-- {What does Black do?} 2... Nc6 3. Nf3)",
                                           "4. -- (4. Ba4 Nf6)", "5. -- d5 *" };
    for (int i = 0; i < 3; i++)
        cr_assert_not_null(strstr(text, written[i]), "no '%s' in\n%s", written[i], text);
    cr_assert_not_null(strstr(text,
                              "\n1. e4 d5 2. e5 f5 3. -- Nc6 (3... Kf7 4. -- (4. d4) 4... Ke6) "
                              "4. d4 1-0\n"),
                       "%s", text);
    read_text(text, &b);
    cr_assert_eq(b.errors, 0, "%s", b.err[0].message);
    cr_assert_eq(b.n, a.n);
    for (int i = 0; i < a.n; i++)
        assert_same_game(a.g[i], b.g[i]);
    char *again = write_all(&b);
    cr_assert_str_eq(again, text);
    // The clone keeps them too.
    PgnGame *c = pgn_game_clone(a.g[0]);
    char *cloned = pgn_write_string(c, NULL);
    char *orig = pgn_write_string(a.g[0], NULL);
    cr_assert_str_eq(cloned, orig);
    free(cloned);
    free(orig);
    pgn_game_free(c);
    free(again);
    free(text);
    free_games(&a);
    free_games(&b);
}

Test(pgn_null, validation_agrees_and_no_one_plays_a_null_move) {
    char path[PATH_MAX_LEN], err[256];
    data_path("null_moves.pgn", path, sizeof path);
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    PgnSummary s;
    cr_assert_eq(pgn_reader_validate(r, &s, NULL), 1);
    cr_assert_eq(s.plies, 10);
    cr_assert_str_eq(s.final_fen,
                     "r1bqkb1r/1pp2ppp/p1n2n2/1B1pp3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 6");
    cr_assert_eq(pgn_reader_validate(r, &s, NULL), 1);
    cr_assert_eq(pgn_reader_validate(r, &s, NULL), -1);
    cr_assert_eq(pgn_reader_validate(r, &s, NULL), 0);
    pgn_reader_close(r);

    PgnGame *g = pgn_game_new();
    Board *b = malloc(sizeof *b);
    cr_assert(g && b);
    board_set_start(b);
    cr_assert_not(pgn_append_move(g, MOVE_NULL, NULL, -1, NULL));
    cr_assert_null(pgn_add_move_after(g, NULL, MOVE_NULL, b));
    cr_assert_eq(pgn_mainline_length(g), 0);
    free(b);
    pgn_game_free(g);
}

Test(pgn_null, accepted_by_pgn_extract) {
    const char *tool = access("/usr/games/pgn-extract", X_OK) == 0 ? "/usr/games/pgn-extract"
                       : access("/usr/bin/pgn-extract", X_OK) == 0 ? "/usr/bin/pgn-extract"
                                                                   : NULL;
    if (!tool)
        cr_skip_test("pgn-extract is not installed");
    Games gs;
    read_file("null_moves.pgn", &gs);
    char *ours = write_all(&gs);
    char path[] = "/tmp/test_pgn_nullXXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert(f && fputs(ours, f) >= 0);
    cr_assert_eq(fclose(f), 0);
    // pgn-extract reads null moves in the main line only when told to.
    char cmd[PATH_MAX_LEN * 3], outpath[PATH_MAX_LEN], errpath[PATH_MAX_LEN];
    snprintf(outpath, sizeof outpath, "%s.out", path);
    snprintf(errpath, sizeof errpath, "%s.err", path);
    snprintf(cmd, sizeof cmd, "%s --allownullmoves -s --quiet %s >%s 2>%s", tool, path, outpath,
             errpath);
    cr_assert_eq(system(cmd), 0);
    char *errs = slurp(errpath), *theirs = slurp(outpath);
    cr_assert_str_eq(errs, "", "pgn-extract complained:\n%s", errs);
    // The same move text, whatever the line breaks and the blanks in braces.
    char *a = ours, *b = theirs;
    for (;;) {
        while (*a == ' ' || *a == '\n')
            a++;
        while (*b == ' ' || *b == '\n')
            b++;
        if (!*a || !*b)
            break;
        cr_assert_eq(*a, *b, "ours: ...%.40s\ntheirs: ...%.40s", a, b);
        a++;
        b++;
    }
    cr_assert(!*a && !*b, "ours: ...%.40s\ntheirs: ...%.40s", a, b);
    free(errs);
    free(theirs);
    free(ours);
    unlink(path);
    unlink(outpath);
    unlink(errpath);
    free_games(&gs);
}

// Navigation in a loaded game (src/session/replay.c) across null moves.
static const char *replay_fen(const Replay *r, int ply) {
    static char fen[FEN_MAX];
    Board *b = malloc(sizeof *b);
    cr_assert_not_null(b);
    cr_assert(replay_position(r, ply, b));
    board_to_fen(b, fen, sizeof fen);
    free(b);
    return fen;
}

static Move move_in(const char *fen, const char *san) {
    Board *b = malloc(sizeof *b);
    cr_assert_not_null(b);
    cr_assert(board_set_fen(b, fen, NULL, 0));
    Move m = MOVE_NONE;
    char err[160];
    cr_assert_eq(notation_parse_move(b, san, &m, err, sizeof err), NOTATION_OK, "%s", err);
    free(b);
    return m;
}

Test(pgn_replay, navigation_across_null_moves) {
    char path[PATH_MAX_LEN], err[512];
    data_path("null_moves.pgn", path, sizeof path);
    Replay *r = replay_open(path, 2, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    cr_assert_eq(replay_line_length(r), 7);
    // Stepping over "3. --": the side to move flips and en passant is gone.
    cr_assert(replay_set_cursor(r, 4));
    cr_assert_eq(replay_segment_start(r), 0);
    cr_assert_str_eq(replay_fen(r, 4),
                     "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    cr_assert(replay_set_cursor(r, 5));
    cr_assert_eq(replay_line_node(r, 4)->move, MOVE_NULL);
    cr_assert_eq(replay_segment_start(r), 5);
    const char *after_null = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQkq - 1 3";
    cr_assert_str_eq(replay_fen(r, 5), after_null);
    // The game on the board starts there, since a game holds no null move.
    GameSettings base, shown;
    game_settings_default(&base);
    replay_settings(r, &base, &shown);
    cr_assert_str_eq(shown.start_fen, after_null);
    cr_assert(replay_set_cursor(r, 7));
    cr_assert_eq(replay_segment_start(r), 5);
    cr_assert(replay_set_cursor(r, 2));
    replay_settings(r, &base, &shown);
    cr_assert_str_eq(shown.start_fen, "");

    // Into the variation "3... Kf7 4. -- (4. d4) 4... Ke6" and its null move.
    cr_assert(replay_set_cursor(r, 5));
    cr_assert_eq(replay_variation_count(r), 1);
    cr_assert(replay_enter_variation(r, 1));
    cr_assert_str_eq(replay_line_node(r, 5)->san, "Kf7");
    cr_assert(replay_set_cursor(r, 7));
    cr_assert_eq(replay_line_node(r, 6)->move, MOVE_NULL);
    cr_assert_eq(replay_segment_start(r), 7);
    cr_assert_str_eq(replay_line_node(r, 7)->san, "Ke6");
    cr_assert_str_eq(replay_fen(r, 7), "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR b KQ - 3 4");

    // A move played on the board after the null move follows the line from
    // there: an existing move is found, a new one becomes a variation.
    Move ke6 = move_in(replay_fen(r, 7), "Ke6");
    cr_assert(replay_follow(r, &ke6, 1));
    cr_assert_eq(replay_cursor(r), 8);
    cr_assert_str_eq(replay_line_node(r, 7)->san, "Ke6");
    cr_assert(replay_set_cursor(r, 7));
    Move kg6 = move_in(replay_fen(r, 7), "Kg6");
    cr_assert(replay_follow(r, &kg6, 1));
    cr_assert_eq(replay_cursor(r), 8);
    cr_assert_str_eq(replay_line_node(r, 7)->san, "Kg6");
    cr_assert_str_eq(replay_line_node(r, 6)->next->san, "Ke6");
    cr_assert_str_eq(replay_line_node(r, 6)->next->variation->san, "Kg6");

    // Out of the new variation, then back to the main line at the branch point.
    cr_assert(replay_leave_variation(r));
    cr_assert_eq(replay_cursor(r), 7);
    cr_assert_str_eq(replay_line_node(r, 7)->san, "Ke6");
    cr_assert(replay_leave_variation(r));
    cr_assert_eq(replay_cursor(r), 5);
    cr_assert_str_eq(replay_line_node(r, 5)->san, "Nc6");
    replay_free(r);
}

// Long UTF-8 names from the tags are cut between characters, never inside
// one, when the game list and the game's settings take them.
Test(pgn_replay, long_utf8_names_are_cut_between_characters) {
    char path[] = "/tmp/test_pgn_namesXXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    fputs("[White \"", f);
    for (int i = 0; i < 40; i++)
        fputs("\xC2\xBD", f); // "½": the 47-byte limit falls inside one
    fputs("\"]\n[Black \"J\xC3\xBCrgen\"]\n\n1. e4 *\n", f);
    cr_assert_eq(fclose(f), 0);

    GameListEntry e;
    int matches, total;
    char err[256];
    cr_assert_eq(replay_list(path, NULL, &e, 1, &matches, &total, err, sizeof err), 1, "%s", err);
    cr_assert_eq(strlen(e.white), 46);
    cr_assert_str_eq(e.black, "J\xC3\xBCrgen");
    Replay *r = replay_open(path, 1, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    GameSettings base, shown;
    game_settings_default(&base);
    replay_settings(r, &base, &shown);
    cr_assert_eq(strlen(shown.names[WHITE]), 46);
    cr_assert_eq(memcmp(shown.names[WHITE], e.white, 46), 0);
    replay_free(r);
    unlink(path);
}

// Editing a tree: comments, NAGs and the opening comment, written back.
Test(pgn, setters_edit_comments_and_nags) {
    Games gs;
    read_text("[Result \"*\"]\n\n1. e4 $14 e5 (1... c5 {Sicilian}) 2. Nf3 *\n", &gs);
    cr_assert_eq(gs.n, 1);
    PgnGame *g = gs.g[0];
    const PgnNode *e4 = pgn_first(g), *c5 = e4->next->variation;
    cr_assert(pgn_node_set_nag(g, e4, 6));
    cr_assert(pgn_node_set_nag(g, e4, 2)); // an assessment replaces ?!
    cr_expect_eq(e4->nag_count, 2);
    cr_expect_eq(e4->nags[0], 2, "the assessment first");
    cr_expect_eq(e4->nags[1], 14, "the position NAG kept");
    cr_assert(pgn_node_set_nag(g, e4, 2));
    cr_expect_eq(e4->nag_count, 2, "the same NAG again changes nothing");
    cr_expect_not(pgn_node_set_nag(g, e4, 256));
    cr_assert(pgn_node_set_comment(g, c5, "  Najdorf   to come "));
    cr_expect_str_eq(c5->comment, "Najdorf to come");
    cr_assert(pgn_node_set_comment(g, e4->next, "The reply"));
    cr_assert(pgn_set_lead_comment(g, "Before it all"));
    char *text = write_all(&gs);
    for (char *p = text; *p; p++)
        if (*p == '\n')
            *p = ' '; // the writer wraps lines
    cr_expect(strstr(text, "{Before it all} 1. e4 $2 $14 e5 {The reply} (1... c5 {Najdorf to "
                           "come}) 2. Nf3 *"),
              "%s", text);
    free(text);
    cr_assert(pgn_node_set_comment(g, c5, "   "));
    cr_expect_null(c5->comment, "a blank comment removes it");
    cr_assert(pgn_node_set_comment(g, e4->next, NULL));
    cr_expect_null(e4->next->comment);
    cr_assert(pgn_node_set_nag(g, e4, 0));
    cr_expect_eq(e4->nag_count, 0, "0 clears them");
    cr_assert(pgn_set_lead_comment(g, NULL));
    cr_expect_null(e4->pre);
    free_games(&gs);
    // A game without moves keeps its comment as the lead comment.
    read_text("[Result \"*\"]\n\n*\n", &gs);
    cr_assert(pgn_set_lead_comment(gs.g[0], "Nothing yet"));
    cr_expect_str_eq(pgn_lead_comment(gs.g[0]), "Nothing yet");
    free_games(&gs);
}

// The explorer's fast path: the main line's first moves, the start position
// and the ratings, with every move still checked.
Test(pgn_read, mainline_moves_start_and_ratings) {
    PgnReader *r = pgn_reader_from_string(
        "[WhiteElo \"2100\"]\n[BlackElo \"-\"]\n[Result \"1-0\"]\n\n"
        "1. e4 (1. d4 d5) e5 2. Nf3 Nc6 3. Bb5 1-0\n\n"
        "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n\n"
        "1. e4 e5 2. Qh5 Ke7 3. Qxe5+ Kxe5 *\n",
        "mainline");
    cr_assert_not_null(r);
    Move moves[3];
    PgnMainline line = { .moves = moves, .max = 3 };
    PgnSummary sum;
    PgnError err;
    cr_assert_eq(pgn_reader_mainline(r, &sum, &line, &err), 1);
    cr_expect_eq(line.count, 3, "the first 3 of 5 moves");
    cr_expect_eq(line.elo[WHITE], 2100);
    cr_expect_eq(line.elo[BLACK], 0, "not a number");
    cr_expect_str_eq(sum.result, "1-0");
    cr_expect_eq(sum.plies, 5);
    Board start;
    board_set_start(&start);
    cr_expect_eq(line.start.key, start.key);
    cr_expect_eq(moves[0], test_uci_move(&start, "e2e4"), "the main line, not the variation");

    cr_assert_eq(pgn_reader_mainline(r, &sum, &line, &err), 1);
    cr_expect_eq(line.count, 2);
    cr_expect_eq(line.elo[WHITE], 0, "ratings are per game");
    char fen[FEN_MAX];
    board_to_fen(&line.start, fen, sizeof fen);
    cr_expect_str_eq(fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");

    cr_expect_eq(pgn_reader_mainline(r, &sum, &line, &err), -1, "an illegal move is found");
    cr_expect_eq(pgn_reader_mainline(r, &sum, &line, &err), 0);
    pgn_reader_close(r);
}
