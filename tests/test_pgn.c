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
#include "tests/helpers.h"
#include "tests/pgn_helpers.h"

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

// A visitor of the reader hears each event in the order of the input: the
// one reader knows no consumer.
typedef struct Heard {
    char text[1024];
    size_t len;
} Heard;

static void heard(Heard *h, const char *s) {
    int n = snprintf(h->text + h->len, sizeof h->text - h->len, "%s%s", h->len ? " " : "", s);
    if (n > 0 && h->len + (size_t)n < sizeof h->text)
        h->len += (size_t)n;
}

static const char *hear_tag(void *ctx, const char *name, const char *value) {
    char s[64];
    snprintf(s, sizeof s, "[%s=%s]", name, value);
    heard(ctx, s);
    return NULL;
}

static void hear_start(void *ctx, const Board *start) {
    heard(ctx, start->side == WHITE ? "start:w" : "start:b");
}

static const char *hear_move(void *ctx, const Board *before, Move m, int depth, int ply) {
    char san[MOVE_TEXT_MAX], s[64];
    notation_to_san(before, m, san);
    snprintf(s, sizeof s, "%s@%d/%d", san, depth, ply);
    heard(ctx, s);
    return NULL;
}

static const char *hear_nag(void *ctx, int nag) {
    char s[16];
    snprintf(s, sizeof s, "$%d", nag);
    heard(ctx, s);
    return NULL;
}

static const char *hear_comment(void *ctx, char *text, size_t len) {
    char s[64];
    snprintf(s, sizeof s, "{%.*s}", (int)len, text);
    heard(ctx, s);
    return NULL;
}

static void hear_variation(void *ctx, bool open) {
    heard(ctx, open ? "(" : ")");
}

static void hear_end(void *ctx, const char *result, const Board *final) {
    char s[32];
    snprintf(s, sizeof s, "end:%s:%u", result, (unsigned) final->fullmove);
    heard(ctx, s);
}

Test(pgn_read, a_visitor_hears_every_event_in_order) {
    PgnReader *r = pgn_reader_from_string("[White \"A\"]\n[Result \"1-0\"]\n\n"
                                          "1. e4 {best} e5!? (1... c5 $14 2. Nf3) 2. Nf3 ; rest\n"
                                          "1-0\n\n1. d4 *\n",
                                          "v.pgn");
    cr_assert_not_null(r);
    Heard h = { 0 };
    PgnVisitor v = { .tag = hear_tag,
                     .start = hear_start,
                     .move = hear_move,
                     .nag = hear_nag,
                     .comment = hear_comment,
                     .variation = hear_variation,
                     .end = hear_end,
                     .ctx = &h };
    cr_assert_eq(pgn_reader_visit(r, &v, NULL), 1);
    cr_expect_str_eq(h.text, "[White=A] [Result=1-0] start:w e4@0/0 {best} e5@0/1 $5 ( c5@1/1 "
                             "$14 Nf3@1/2 ) Nf3@0/2 {rest} end:1-0:2");
    // Without a comment callback the text is not collected; the moves are
    // heard all the same.
    h = (Heard){ 0 };
    v.comment = NULL;
    cr_assert_eq(pgn_reader_visit(r, &v, NULL), 1);
    cr_expect_str_eq(h.text, "start:w d4@0/0 end:*:1");
    cr_expect_eq(pgn_reader_visit(r, &v, NULL), 0);
    pgn_reader_close(r);
}

// A visitor's failure is the game's error, at the place it was met.
static const char *refuse_knights(void *ctx, const Board *before, Move m, int depth, int ply) {
    (void)ctx, (void)depth, (void)ply;
    return piece_type(board_piece_on(before, move_from(m))) == KNIGHT ? "no knights here" : NULL;
}

Test(pgn_read, a_visitor_failure_is_the_game_error) {
    PgnReader *r =
        pgn_reader_from_string("1. e4 e5\n2. Nf3 *\n\n[Event \"next\"]\n\n1. d4 *\n", "k.pgn");
    cr_assert_not_null(r);
    PgnVisitor v = { .move = refuse_knights };
    PgnError e;
    cr_assert_eq(pgn_reader_visit(r, &v, &e), -1);
    cr_expect_eq(e.line, 2);
    cr_expect_eq(e.column, 4);
    cr_expect(strstr(e.message, "game 1: no knights here"), "%s", e.message);
    cr_expect_eq(pgn_reader_visit(r, &v, &e), 1, "the next game is read");
    pgn_reader_close(r);
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

    char path[256];
    int fd = test_temp_file(path, sizeof path, "test_pgn_chunks");
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
        { "1. e4 e5 2. Nf3 \xff *\n", 1, 17, "unexpected byte 0xFF" }, // not a raw byte
        // A byte inside a move (a zero-width space pasted from a web page, a
        // NUL) is named where it is, not the piece of the move before it.
        { "1. e4 e5 2. N\xe2\x80\x8b" "f3 *\n", 1, 14, "unexpected byte 0xE2" },
        { "1. e4 e5 2. Nf3\x01 *\n", 1, 16, "unexpected byte 0x01" },
        { "1. e4\te5\r\n2. Nf3\tNc6\f3. Zz9 *\r\n", 2, 15, "unreadable move 'Zz9'" },
        { "1. e4 e5!!! *\n", 1, 9, "bad annotation" },
        { "[Event \"x\"]\n[Bad\n\n1. e4 *\n", 2, 5, "expected '\"'" },
        { "[Event \"x\" junk]\n\n1. e4 *\n", 1, 12, "expected ']'" },
        // A byte of a non-ASCII letter in a tag's name is named.
        { "[Ev\xc3\xa9nement \"x\"]\n\n1. e4 *\n", 1, 4, "bad tag: unexpected byte 0xC3" },
        { "[\x01" "Event \"x\"]\n\n1. e4 *\n", 1, 2, "bad tag: unexpected byte 0x01" },
        { "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n", 2, 1, "bad FEN tag" },
        { "1. d4 d5 2. Nf3 Nf6 3. Nd2 *\n", 1, 24, "ambiguous move 'Nd2'" },
        { "1. d4 d5 2. Nf3 Nf6 3. Nd2 *\n", 1, 24, "could be Nbd2, Nfd2" },
        { "\n\n   1. e4 e5 2. Zz9 *\n", 3, 16, "unreadable move 'Zz9'" },
        { "1. e4 e5 2. Nf3 (2. Nc3 Nc6 (2... Nf6 3. Kd2)) Nc6 *", 1, 42, "no king can reach d2" },
        // Read as chess: a drop was an "unreadable move 'P'", an atomic game
        // a chess game never played.
        { "[Event \"x\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n", 2, 1,
          "a game of the variant 'Crazyhouse': patzer reads chess and Chess960 only" },
        { "[Variant \"King of the Hill\"]\n\n1. e4 *\n", 1, 1, "variant 'King of the Hill'" },
        { "[Variant \"atomic\"]\n\n*\n", 1, 1, "variant 'atomic'" },
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

// The names tools give chess itself (and Chess960) are no variant to refuse.
Test(pgn_errors, chess_under_its_other_names_is_read) {
    Games gs;
    read_text("[Variant \"Standard\"]\n\n1. e4 *\n\n"
              "[Variant \"From Position\"]\n[SetUp \"1\"]\n"
              "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O *\n\n"
              "[Variant \"Chess960\"]\n[SetUp \"1\"]\n"
              "[FEN \"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1\"]\n\n1. O-O-O *\n\n"
              "[Variant \"normal\"]\n\n1. d4 *\n",
              &gs);
    cr_assert_eq(gs.errors, 0, "%s", gs.errors ? gs.err[0].message : "");
    cr_assert_eq(gs.n, 4);
    free_games(&gs);
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
    char path[256];
    int fd = test_temp_file(path, sizeof path, "test_pgn_extract");
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
    char cmd[3 * PATH_MAX_LEN], errpath[PATH_MAX_LEN];
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
    char dir[256];
    test_temp_dir(dir, sizeof dir, "test_pgn_save");
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
    char dir[256];
    test_temp_dir(dir, sizeof dir, "test_pgn_full");
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

// ------------------------------------------------------------------ main line

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
