// SPDX-License-Identifier: GPL-3.0-or-later
// patzer.conf: the board-view keys (theme, pieces, bell, user themes with
// #rrggbb colours) and config_write_key, which keeps the user's other lines
// and comments when a command stores a choice.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/helpers.h"
#include "src/term/config.h"
#include "src/util/paths.h"

static char dir[256], path[300];

static void setup(void) {
    test_temp_dir(dir, sizeof dir, "patzer-config");
    snprintf(path, sizeof path, "%s/patzer.conf", dir);
}

static void teardown(void) {
    remove(path);
    rmdir(dir);
}

TestSuite(config, .init = setup, .fini = teardown);

static void write_file(const char *text) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_back(void) {
    char err[256];
    size_t len;
    char *text = paths_read_file(path, 1 << 20, &len, err, sizeof err);
    cr_assert_not_null(text, "%s", err);
    return text;
}

static char problems[1024];

static void collect(const char *text, void *ctx) {
    (void)ctx;
    snprintf(problems + strlen(problems), sizeof problems - strlen(problems), "%s\n", text);
}

Test(config, look_keys) {
    Config c;
    config_defaults(&c);
    char err[256];
    cr_assert_eq(c.theme[0], '\0');
    cr_assert_not(c.bell);
    cr_assert(config_set(&c, "theme", "paper", err, sizeof err));
    cr_assert_str_eq(c.theme, "paper");
    cr_assert(config_set(&c, "pieces", "Outline", err, sizeof err));
    cr_assert_str_eq(c.pieces, "outline");
    cr_assert_not(config_set(&c, "pieces", "wood", err, sizeof err));
    cr_assert_not_null(strstr(err, "filled, outline or letters"), "%s", err);
    cr_assert(config_set(&c, "bell", "on", err, sizeof err));
    cr_assert(c.bell);
    cr_assert_not(config_set(&c, "bell", "loud", err, sizeof err));
    cr_assert(config_set(&c, "theme.mine", "light=#eeeed2 dark=#769656", err, sizeof err));
    cr_assert(config_set(&c, "theme.mine", "dark=22", err, sizeof err), "redefined, not added");
    cr_assert_eq(c.user_theme_count, 1);
    cr_assert_eq(c.user_themes[0].square[0][0], 22);
    cr_assert_not(config_set(&c, "theme.bad", "dark=#12345", err, sizeof err));
}

// '#' starts a comment, except in a colour after '=', a blank or a comma.
Test(config, colours_are_not_comments) {
    write_file("# my theme\n"
               "theme.mine = light=#eeeed2 dark=#769656 # green like the club's\n"
               "theme = mine#no space before this comment\n"
               "bell = on\n");
    Config c;
    config_defaults(&c);
    problems[0] = '\0';
    cr_assert_eq(config_load(&c, path, collect, NULL), 0, "%s", problems);
    cr_assert_eq(c.user_theme_count, 1);
    cr_assert_eq(c.user_themes[0].square[0][1], UI_RGB | 0xeeeed2);
    cr_assert_eq(c.user_themes[0].square[0][0], UI_RGB | 0x769656);
    cr_assert_str_eq(c.theme, "mine");
    cr_assert(c.bell);
}

Test(config, bad_theme_line_is_reported_with_its_line) {
    write_file("level = 3\ntheme.x = light=#gg0000\n");
    Config c;
    config_defaults(&c);
    problems[0] = '\0';
    cr_assert_eq(config_load(&c, path, collect, NULL), 1);
    cr_assert_not_null(strstr(problems, "patzer.conf:2: theme x: no colour for light"), "%s",
                       problems);
}

Test(config, write_key_keeps_the_rest) {
    write_file("# patzer settings\n"
               "level = 3   # a comment that stays\n"
               "theme = green\n"
               "\n"
               "theme.mine = light=#ffffff dark=#005f00\n"
               "theme = blue\n"
               "name = Anna");
    char err[256];
    cr_assert(config_write_key(path, "theme", "mine", err, sizeof err), "%s", err);
    cr_assert(config_write_key(path, "bell", "on", err, sizeof err), "%s", err);
    cr_assert(config_write_key(path, "pieces", "letters", err, sizeof err), "%s", err);
    cr_assert(config_write_key(path, "pieces", "outline", err, sizeof err), "%s", err);
    char *text = read_back();
    cr_assert_str_eq(text, "# patzer settings\n"
                           "level = 3   # a comment that stays\n"
                           "theme = mine\n"
                           "\n"
                           "theme.mine = light=#ffffff dark=#005f00\n"
                           "name = Anna\n"
                           "bell = on\n"
                           "pieces = outline\n");
    free(text);
    // And it reads back.
    Config c;
    config_defaults(&c);
    cr_assert_eq(config_load(&c, path, NULL, NULL), 0);
    cr_assert_str_eq(c.theme, "mine");
    cr_assert_str_eq(c.pieces, "outline");
    cr_assert(c.bell);
    cr_assert_eq(c.session.settings.level, 3);
    cr_assert_str_eq(c.name, "Anna");
}

Test(config, write_key_creates_the_file) {
    char err[256];
    cr_assert(config_write_key(path, "bell", "off", err, sizeof err), "%s", err);
    char *text = read_back();
    cr_assert_str_eq(text, "bell = off\n");
    free(text);
}

Test(config, write_key_fails_cleanly) {
    char err[256] = "";
    cr_assert_not(config_write_key("/nonexistent-dir/patzer.conf", "bell", "on", err, sizeof err));
    cr_assert_neq(err[0], '\0');
}

Test(config, threads_key) {
    Config c;
    config_defaults(&c);
    char err[256] = "";
    cr_expect_eq(c.session.threads, 0, "every core unless told");
    cr_assert(config_set(&c, "threads", "2", err, sizeof err), "%s", err);
    cr_expect_eq(c.session.threads, 2);
    cr_assert(config_set(&c, "threads", "0", err, sizeof err), "%s", err);
    cr_expect_eq(c.session.threads, 0);
    cr_expect_not(config_set(&c, "threads", "257", err, sizeof err));
    cr_expect(strstr(err, "threads") != NULL, "%s", err);
    cr_expect_not(config_set(&c, "threads", "many", err, sizeof err));
    cr_expect_eq(c.session.threads, 0, "a bad value changes nothing");
}

// -e, elo = N and the elo command share one range: what the levels play.
Test(config, elo_key_has_the_range_of_the_levels) {
    Config c;
    config_defaults(&c);
    char err[256] = "";
    cr_assert(config_set(&c, "elo", "810", err, sizeof err), "%s", err);
    cr_expect_eq(c.session.settings.level, 1);
    cr_assert(config_set(&c, "elo", "2580", err, sizeof err), "%s", err);
    cr_expect_eq(c.session.settings.level, 20);
    cr_expect_not(config_set(&c, "elo", "4000", err, sizeof err));
    cr_expect_str_eq(err, "elo must be a number from 810 to 2580, not '4000'");
    cr_expect_not(config_set(&c, "elo", "600", err, sizeof err));
    cr_expect_str_eq(err, "elo must be a number from 810 to 2580, not '600'");
}
