// SPDX-License-Identifier: GPL-3.0-or-later
// The game list of a PGN file (src/pgn/gamelist.h): every game listed, the
// count and the broken games as the reader has them, dates, the filter and
// the row layout for a width.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/pgn/gamelist.h"
#include "src/pgn/pgn.h"
#include "tests/helpers.h"

static char dir[256], path[300];

static void setup(void) {
    test_temp_dir(dir, sizeof dir, "patzer-gamelist");
    snprintf(path, sizeof path, "%s/games.pgn", dir);
}

static void teardown(void) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(gamelist, .init = setup, .fini = teardown, .timeout = 60);

static void write_text(const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    cr_assert_geq(fputs(text, f), 0);
    cr_assert_eq(fclose(f), 0);
}

// n games, White "White N", Black "Black N", Event "Event N".
static void write_games(int n) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    for (int i = 1; i <= n; i++)
        fprintf(f,
                "[Event \"Event %d\"]\n[Date \"2024.01.%02d\"]\n[White \"White %d\"]\n"
                "[Black \"Black %d\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n",
                i, i % 28 + 1, i, i);
    cr_assert_eq(fclose(f), 0);
}

static GameList *read_list(void) {
    char err[512];
    GameList *l = gamelist_read(path, NULL, NULL, err, sizeof err);
    cr_assert_not_null(l, "%s", err);
    return l;
}

// The number of games the building reader finds, and how many are broken.
static int reader_count(const char *file, int *broken) {
    char err[512];
    PgnReader *r = pgn_reader_open(file, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    PgnGame *g = pgn_game_new();
    PgnError e;
    int n = 0, got;
    *broken = 0;
    while ((got = pgn_reader_next(r, g, &e)) != 0) {
        n++;
        *broken += got < 0;
    }
    pgn_game_free(g);
    pgn_reader_close(r);
    return n;
}

Test(gamelist, every_game_of_a_long_file_is_listed) {
    write_games(250);
    GameList *l = read_list();
    cr_expect_eq(gamelist_total(l), 250);
    cr_expect_eq(gamelist_count(l), 250);
    char row[256];
    gamelist_row(l, 249, 80, row, sizeof row);
    cr_expect(strstr(row, "250") == row, "%s", row);
    cr_expect(strstr(row, "White 250") && strstr(row, "Black 250") && strstr(row, "Event 250"),
              "%s", row);
    cr_expect_eq(gamelist_number(l, 249), 250);
    cr_expect_eq(gamelist_number(l, 250), 0, "no such row");
    gamelist_free(l);
}

// The count and the broken games are the reader's, in every test file.
Test(gamelist, counts_and_broken_games_as_the_reader) {
    static const char *const files[] = {"broken_comment.pgn",    "broken_illegal.pgn",
                                        "broken_tag.pgn",        "broken_variation.pgn",
                                        "cli_illegal.pgn",       "bom_crlf.pgn",
                                        "annotated.pgn",         "null_moves.pgn",
                                        "semicolon.pgn",         "setup.pgn"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char file[512], err[512];
        snprintf(file, sizeof file, "%s/pgn/%s", TEST_DATADIR, files[i]);
        int broken;
        int n = reader_count(file, &broken);
        GameList *l = gamelist_read(file, NULL, NULL, err, sizeof err);
        cr_assert_not_null(l, "%s", err);
        cr_expect_eq(gamelist_total(l), n, "%s", files[i]);
        int listed_broken = 0;
        GameListFields fl;
        for (int g = 1; gamelist_fields(l, g, &fl); g++)
            listed_broken += !strcmp(fl.result, "?");
        cr_expect_eq(listed_broken, broken, "%s", files[i]);
        gamelist_free(l);
    }
}

// A broken game whose skipped text holds what looks like more games: the
// list has the reader's games, as the list's tags come from the reader.
Test(gamelist, the_reader_decides_where_games_end) {
    write_text("[White \"A\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n1. d4 d5 0-1\n\n"
               "[White \"B\"]\n\n1. c4 *\n");
    int broken;
    int n = reader_count(path, &broken);
    GameList *l = read_list();
    cr_expect_eq(gamelist_total(l), n);
    GameListFields f;
    cr_assert(gamelist_fields(l, n, &f));
    cr_expect_str_eq(f.white, "B");
    cr_assert(gamelist_fields(l, 1, &f));
    cr_expect_str_eq(f.result, "?");
    gamelist_free(l);
}

Test(gamelist, the_date_is_date_else_utcdate) {
    write_text("[White \"A\"]\n[Date \"????.??.??\"]\n[UTCDate \"2024.03.05\"]\n\n1. e4 *\n\n"
               "[White \"B\"]\n[UTCDate \"2023.01.02\"]\n\n1. e4 *\n\n"
               "[White \"C\"]\n[Date \"2020.??.??\"]\n[UTCDate \"2020.06.07\"]\n\n1. e4 *\n\n"
               "[White \"D\"]\n[Date \"????.??.??\"]\n\n1. e4 *\n");
    GameList *l = read_list();
    GameListFields f;
    cr_assert(gamelist_fields(l, 1, &f));
    cr_expect_str_eq(f.date, "2024.03.05");
    cr_assert(gamelist_fields(l, 2, &f));
    cr_expect_str_eq(f.date, "2023.01.02");
    cr_assert(gamelist_fields(l, 3, &f));
    cr_expect_str_eq(f.date, "2020", "the known part of Date comes first");
    cr_assert(gamelist_fields(l, 4, &f));
    cr_expect_str_eq(f.date, "", "an unknown date is blank");
    char row[256];
    gamelist_row(l, 1, 80, row, sizeof row);
    cr_expect(strstr(row, "2023.01.02"), "%s", row);
    gamelist_free(l);
}

static const char *const long_names =
    "[Event \"Tata Steel Masters Wijk aan Zee 2023\"]\n"
    "[White \"Nepomniachtchi, Ian Alexandrovich\"]\n"
    "[Black \"Vachier-Lagrave, Maxime\"]\n[Date \"2023.01.15\"]\n[ECO \"C67\"]\n\n"
    "1. e4 e5 1/2-1/2\n\n"
    "[Event \"Club\"]\n[White \"Li\"]\n[Black \"Wu\"]\n\n1. d4 1-0\n";

Test(gamelist, long_names_are_whole_when_the_width_holds_them) {
    write_text(long_names);
    GameList *l = read_list();
    char row[512];
    gamelist_row(l, 0, 160, row, sizeof row);
    cr_expect(strstr(row, "Nepomniachtchi, Ian Alexandrovich"), "%s", row);
    cr_expect(strstr(row, "Vachier-Lagrave, Maxime"), "%s", row);
    cr_expect(strstr(row, "Tata Steel Masters Wijk aan Zee 2023"), "%s", row);
    cr_expect(strstr(row, "C67") && strstr(row, "2023.01.15") && strstr(row, "1/2-1/2"), "%s",
              row);
    // Black's column is as wide as its longest name: the result follows it.
    cr_expect(strstr(row, "Vachier-Lagrave, Maxime  1/2-1/2"), "%s", row);
    cr_expect_leq(strlen(row), 160);
    gamelist_free(l);
}

Test(gamelist, a_narrow_width_is_shared_and_filled) {
    write_text(long_names);
    GameList *l = read_list();
    char row[512];
    gamelist_row(l, 0, 80, row, sizeof row);
    cr_expect_eq(strlen(row), 80, "the row fills the width: '%s'", row);
    cr_expect(strstr(row, "Nepomniachtchi") && strstr(row, "Vachier-Lagrave"), "%s", row);
    // Room for the shortest whole (Black), the rest shared by the others.
    gamelist_row(l, 0, 110, row, sizeof row);
    cr_expect_eq(strlen(row), 110, "'%s'", row);
    cr_expect(strstr(row, "Vachier-Lagrave, Maxime  1/2-1/2"), "%s", row);
    gamelist_row(l, 1, 80, row, sizeof row);
    cr_expect(strstr(row, "Li") && strstr(row, "Club"), "%s", row);
    cr_expect_leq(strlen(row), 80);
    gamelist_free(l);
}

Test(gamelist, the_filter_maps_its_rows_to_the_games) {
    write_games(120);
    GameList *l = read_list();
    cr_assert(gamelist_filter(l, "white 11"));
    // White 11, 110..119.
    cr_expect_eq(gamelist_count(l), 11);
    cr_expect_eq(gamelist_number(l, 0), 11);
    cr_expect_eq(gamelist_number(l, 10), 119);
    char row[256];
    gamelist_row(l, 10, 80, row, sizeof row);
    cr_expect(strstr(row, "White 119"), "%s", row);
    cr_assert(gamelist_filter(l, "EVENT 120"));
    cr_expect_eq(gamelist_count(l), 1);
    cr_expect_eq(gamelist_number(l, 0), 120);
    cr_assert(gamelist_filter(l, "2024.01.05"), "the date is matched too");
    cr_expect_gt(gamelist_count(l), 0);
    cr_assert(gamelist_filter(l, "nobody"));
    cr_expect_eq(gamelist_count(l), 0);
    cr_assert(gamelist_filter(l, NULL));
    cr_expect_eq(gamelist_count(l), 120);
    gamelist_free(l);
}

Test(gamelist, a_changed_file_is_noticed) {
    write_games(3);
    GameList *l = read_list();
    cr_expect(gamelist_unchanged(l));
    write_games(4);
    cr_expect_not(gamelist_unchanged(l), "another size");
    gamelist_free(l);
}

Test(gamelist, an_unreadable_file_says_why) {
    char err[512] = "";
    cr_expect_null(gamelist_read("/nonexistent/games.pgn", NULL, NULL, err, sizeof err));
    cr_expect(strstr(err, "/nonexistent/games.pgn"), "%s", err);
}
