// SPDX-License-Identifier: GPL-3.0-or-later
// Opening names: loading the shipped data, lookups along a game's history, transpositions,
// skipped lines, and finding the file.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/line.h"
#include "engine/notation.h"
#include "src/game/openings.h"
#include "tests/helpers.h"

#ifndef TEST_OPENINGS
#define TEST_OPENINGS "data/openings.txt"
#endif

static Openings *load_shipped(void) {
    char err[256] = "";
    Openings *o = openings_load(TEST_OPENINGS, err, sizeof err);
    cr_assert_not_null(o, "%s", err);
    return o;
}

// A line on the heap with the SAN moves played from the start.
static Line *play(const char *const *moves) {
    board_init_tables();
    Line *b = malloc(sizeof *b);
    cr_assert_not_null(b);
    Board start;
    board_set_start(&start);
    line_init(b, &start);
    for (int i = 0; moves[i]; i++)
        line_play(b, test_san_move(&b->board, moves[i]));
    return b;
}

static void write_temp(const char *text, char *path, size_t pathsz) {
    int fd = test_temp_file(path, pathsz, "patzer-openings");
    size_t len = strlen(text);
    cr_assert_eq(write(fd, text, len), (ssize_t)len);
    close(fd);
}

static Openings *load_text(const char *text) {
    char path[64], err[256] = "";
    write_temp(text, path, sizeof path);
    Openings *o = openings_load(path, err, sizeof err);
    unlink(path);
    cr_assert_not_null(o, "%s", err);
    return o;
}

static void expect(const Openings *o, const Line *b, const char *eco, const char *name) {
    char e[8], n[256], full[300];
    const char *s = openings_lookup(o, &b->board, b->keys, b->ply, e, sizeof e, n, sizeof n);
    cr_assert_not_null(s, "expected %s %s, got no name", eco, name);
    snprintf(full, sizeof full, "%s%s%s", eco, *eco ? " " : "", name);
    cr_expect_str_eq(s, full);
    cr_expect_str_eq(e, eco);
    cr_expect_str_eq(n, name);
}

Test(openings, loads_every_shipped_line) {
    Openings *o = load_shipped();
    cr_expect_eq(openings_errors(o), 0, "%s", openings_first_error(o));
    cr_expect_str_eq(openings_first_error(o), "");
    cr_expect_gt(openings_count(o), 3000);
    cr_expect_leq(openings_count(o), 3791);
    openings_free(o);
}

Test(openings, italian_game) {
    Openings *o = load_shipped();
    Line *b = play((const char *[]){ "e4", "e5", "Nf3", "Nc6", "Bc4", NULL });
    expect(o, b, "C50", "Italian Game");
    free(b);
    openings_free(o);
}

Test(openings, deepest_named_position_after_leaving_the_book) {
    Openings *o = load_shipped();
    // 3...a6 4.a3 h6 5.h3 is in no line: the name stays that of 3.Bc4.
    Line *b =
        play((const char *[]){ "e4", "e5", "Nf3", "Nc6", "Bc4", "a6", "a3", "h6", "h3", NULL });
    expect(o, b, "C50", "Italian Game");
    free(b);

    // A named position deep in the game is found behind later unnamed ones.
    b = play(
        (const char *[]){ "d4", "Nf6", "c4", "e6", "Nc3", "Bb4", "Qd3", "a6", "a3", "h6", NULL });
    expect(o, b, "E20", "Nimzo-Indian Defense: Mikenas Attack");
    free(b);
    openings_free(o);
}

Test(openings, transposition_finds_the_position) {
    Openings *o = load_shipped();
    // The file has 1.d4 Nf6 2.c4 e6 3.Nc3 Bb4; here it comes through the English.
    Line *b = play((const char *[]){ "c4", "e6", "Nc3", "Nf6", "d4", "Bb4", NULL });
    expect(o, b, "E20", "Nimzo-Indian Defense");
    free(b);
    openings_free(o);
}

Test(openings, positions_without_a_name) {
    Openings *o = load_shipped();
    Line *b = play((const char *[]){ NULL });
    char eco[8] = "x", name[64] = "x";
    cr_expect_null(
        openings_lookup(o, &b->board, b->keys, b->ply, eco, sizeof eco, name, sizeof name));
    cr_expect_str_eq(eco, "");
    cr_expect_str_eq(name, "");

    test_board_from_fen(&b->board,
                        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 4 9");
    cr_expect_null(openings_lookup(o, &b->board, b->keys, b->ply, NULL, 0, NULL, 0));
    free(b);
    openings_free(o);
}

Test(openings, fen_of_a_named_position) {
    Openings *o = load_shipped();
    Line *b = play((const char *[]){ NULL });
    test_board_from_fen(&b->board,
                        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3");
    expect(o, b, "C50", "Italian Game");
    free(b);
    openings_free(o);
}

Test(openings, outputs_are_optional_and_truncated) {
    Openings *o = load_shipped();
    Line *b = play((const char *[]){ "e4", "e5", "Nf3", "Nc6", "Bc4", NULL });
    cr_expect_str_eq(openings_lookup(o, &b->board, b->keys, b->ply, NULL, 0, NULL, 0),
                     "C50 Italian Game");
    char eco[3], name[8];
    openings_lookup(o, &b->board, b->keys, b->ply, eco, sizeof eco, name, sizeof name);
    cr_expect_str_eq(eco, "C5");
    cr_expect_str_eq(name, "Italian");
    free(b);
    openings_free(o);
}

Test(openings, missing_file) {
    char err[256] = "";
    cr_expect_null(openings_load("/nonexistent/openings.txt", err, sizeof err));
    cr_expect(strstr(err, "/nonexistent/openings.txt") != NULL, "%s", err);
}

Test(openings, broken_lines_are_skipped_and_counted) {
    Openings *o = load_text("# a header\n"
                            "\n"
                            "1. e4 e5 2. Nf3 Nc6 3. Bc4  # C50 Italian Game\n"
                            "1. e4 e5 2. Nf9 Nc6  # C40 Broken\n"
                            "1. d4 d5 2. Ke2 Ke7 3. Ke3 Kd6 4. Kd2 Kd7 5. Ke1 Ke8 6. O-O  # X\n"
                            "1. e4 c5  #   \n"
                            "1.d4 d5  # D00 Queen's Pawn Game\r\n"
                            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#  # C20 Scholar's Mate\n");
    cr_expect_eq(openings_count(o), 3);
    cr_expect_eq(openings_errors(o), 3);
    const char *first = openings_first_error(o);
    cr_expect(strstr(first, "line 4") && strstr(first, "move 2") && strstr(first, "Nf9"), "%s",
              first);

    Line *b = play((const char *[]){ "d4", "d5", NULL });
    expect(o, b, "D00", "Queen's Pawn Game");
    free(b);
    b = play((const char *[]){ "e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7", NULL });
    expect(o, b, "C20", "Scholar's Mate");
    free(b);
    b = play((const char *[]){ "e4", "c5", NULL });
    cr_expect_null(openings_lookup(o, &b->board, b->keys, b->ply, NULL, 0, NULL, 0));
    free(b);
    openings_free(o);
}

Test(openings, first_listed_line_keeps_a_transposed_position) {
    Openings *o = load_text("1. Nf3 d5 2. d4  # D02 First\n"
                            "1. d4 d5 2. Nf3  # D02 Second\n"
                            "1. e4  # A name without a code\n");
    cr_expect_eq(openings_count(o), 2);
    cr_expect_eq(openings_errors(o), 0);
    Line *b = play((const char *[]){ "d4", "d5", "Nf3", NULL });
    expect(o, b, "D02", "First");
    free(b);
    b = play((const char *[]){ "e4", NULL });
    expect(o, b, "", "A name without a code");
    free(b);
    openings_free(o);
}

Test(openings, empty_file) {
    Openings *o = load_text("");
    cr_expect_eq(openings_count(o), 0);
    cr_expect_eq(openings_errors(o), 0);
    Line *b = play((const char *[]){ "e4", NULL });
    cr_expect_null(openings_lookup(o, &b->board, b->keys, b->ply, NULL, 0, NULL, 0));
    free(b);
    openings_free(o);
}

Test(openings, open_reads_the_file_at_the_first_query) {
    char path[64];
    write_temp("", path, sizeof path);
    Openings *o = openings_open(path);
    cr_assert_not_null(o);
    // Written after openings_open: the names are there only if it read nothing yet.
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("1. e4 e5 2. Nf3 Nc6 3. Bc4  # C50 Italian Game\n", f);
    cr_assert_eq(fclose(f), 0);

    Line *b = play((const char *[]){ NULL });
    cr_expect_null(openings_lookup(o, &b->board, b->keys, b->ply, NULL, 0, NULL, 0),
                   "the start position has no name");
    free(b);
    b = play((const char *[]){ "e4", "e5", "Nf3", "Nc6", "Bc4", NULL });
    expect(o, b, "C50", "Italian Game");
    free(b);
    cr_expect_eq(openings_count(o), 1);
    unlink(path);
    openings_free(o);
}

Test(openings, open_matches_load_on_the_shipped_file) {
    Openings *eager = load_shipped();
    Openings *lazy = openings_open(TEST_OPENINGS);
    cr_assert_not_null(lazy);
    Line *b = play((const char *[]){ "e4", "c5", "Nf3", "d6", "d4", "cxd4", NULL });
    const char *a = openings_lookup(eager, &b->board, b->keys, b->ply, NULL, 0, NULL, 0);
    const char *z = openings_lookup(lazy, &b->board, b->keys, b->ply, NULL, 0, NULL, 0);
    cr_assert(a && z);
    cr_expect_str_eq(z, a);
    free(b);
    cr_expect_eq(openings_count(lazy), openings_count(eager));
    cr_expect_eq(openings_errors(lazy), openings_errors(eager));
    openings_free(lazy);
    openings_free(eager);
}

Test(openings, open_of_a_missing_file_names_nothing) {
    Openings *o = openings_open("/nonexistent/openings.txt");
    cr_assert_not_null(o);
    Line *b = play((const char *[]){ "e4", NULL });
    cr_expect_null(openings_lookup(o, &b->board, b->keys, b->ply, NULL, 0, NULL, 0));
    cr_expect_eq(openings_count(o), 0);
    free(b);
    openings_free(o);
}

Test(openings, find_path) {
    char buf[4096];
    setenv("PATZER_OPENINGS", "/somewhere/names.txt", 1);
    cr_expect(openings_find_path(NULL, buf, sizeof buf));
    cr_expect_str_eq(buf, "/somewhere/names.txt");
    unsetenv("PATZER_OPENINGS");

    // argv0 in a src/ directory next to data/openings.txt, as in a build tree.
    char dir[256];
    test_temp_dir(dir, sizeof dir, "patzer-openings-dir");
    char path[512], argv0[512];
    snprintf(path, sizeof path, "%s/src", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/data", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/data/openings.txt", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fclose(f);
    snprintf(argv0, sizeof argv0, "%s/src/patzer", dir);
    cr_expect(openings_find_path(argv0, buf, sizeof buf));
    cr_expect(strstr(buf, "/src/../data/openings.txt") != NULL, "%s", buf);
    cr_expect_eq(access(buf, R_OK), 0);
    unlink(path);
    snprintf(path, sizeof path, "%s/data", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/src", dir);
    rmdir(path);
    rmdir(dir);
}
