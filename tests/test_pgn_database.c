// SPDX-License-Identifier: GPL-3.0-or-later
// PGN files as databases (src/pgn/database.h): each game's bytes in its
// file, a game written back in its place with every other byte kept, games
// added, files replaced, and writes refused when the file changed since.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "src/pgn/database.h"
#include "src/pgn/pgn.h"
#include "tests/helpers.h"

static char dir[256];

static void setup(void) {
    test_temp_dir(dir, sizeof dir, "patzer-pgndb");
}

static void teardown(void) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(pgn_database, .init = setup, .fini = teardown, .timeout = 60);

static char *slurp(const char *path, size_t *len) {
    char err[256];
    char *text = paths_read_file(path, 1 << 26, len, err, sizeof err);
    cr_assert_not_null(text, "%s", err);
    return text;
}

// A copy of data file `name` in the test's directory, as `as`.
static void copy_data(const char *name, const char *as, char *path, size_t pathsz) {
    char src[512];
    test_data_path(name, src, sizeof src);
    size_t len;
    char *text = slurp(src, &len);
    snprintf(path, pathsz, "%s/%s", dir, as);
    char err[256];
    cr_assert(paths_write_atomic(path, text, len, err, sizeof err), "%s", err);
    free(text);
}

enum { MAX_GAMES = 512 };

typedef struct Spans {
    int count;
    long long start[MAX_GAMES], end[MAX_GAMES];
} Spans;

// Every game of the file read with its source; the spans in order.
static void read_spans(const char *path, Spans *sp) {
    char err[256];
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    PgnGame *g = pgn_game_new();
    PgnError perr;
    int rc;
    sp->count = 0;
    while ((rc = pgn_reader_next(r, g, &perr)) != 0) {
        cr_assert_eq(rc, 1, "%s:%d:%d: %s", perr.file, perr.line, perr.column, perr.message);
        const PgnSource *src = pgn_source(g);
        cr_assert_str_eq(src->path, path);
        cr_assert_eq(src->number, sp->count + 1);
        cr_assert(!pgn_modified(g), "a game as read is unchanged");
        cr_assert_lt(sp->count, MAX_GAMES);
        sp->start[sp->count] = src->start;
        sp->end[sp->count] = src->end;
        sp->count++;
    }
    pgn_game_free(g);
    pgn_reader_close(r);
}

// Game `number` (1-based) of a file, with its source.
static PgnGame *read_game(const char *path, int number) {
    char err[256];
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    PgnGame *g = pgn_game_new();
    PgnError perr;
    for (int i = 1; i <= number; i++)
        cr_assert_eq(pgn_reader_next(r, g, &perr), 1, "game %d of %s", i, path);
    pgn_reader_close(r);
    return g;
}

// The games of a file tile it: each starts where the one before ends.
static void expect_tiles(const char *path, int games) {
    Spans sp;
    read_spans(path, &sp);
    cr_assert_eq(sp.count, games, "%s: %d games", path, sp.count);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    for (int i = 0; i < sp.count; i++) {
        cr_expect_lt(sp.start[i], sp.end[i], "game %d", i + 1);
        if (i > 0)
            cr_expect_eq(sp.start[i], sp.end[i - 1], "game %d starts where %d ends", i + 1, i);
    }
    cr_expect_eq(sp.end[sp.count - 1], (long long)st.st_size, "the last game ends the file");
}

Test(pgn_database, the_games_of_a_file_tile_it) {
    char path[512];
    copy_data("pgn/canonical.pgn", "canonical.pgn", path, sizeof path);
    expect_tiles(path, 10);
    copy_data("explore/lines.pgn", "lines.pgn", path, sizeof path);
    expect_tiles(path, 200);
    copy_data("coach/blunders.pgn", "blunders.pgn", path, sizeof path);
    expect_tiles(path, 5);
}

Test(pgn_database, a_byte_order_mark_is_before_the_first_game) {
    char path[512];
    copy_data("pgn/bom_crlf.pgn", "bom.pgn", path, sizeof path);
    Spans sp;
    read_spans(path, &sp);
    cr_assert_geq(sp.count, 1);
    cr_expect_eq(sp.start[0], 3, "the first game starts after the mark");
}

// Writes game `number` back after adding a comment to its first move (or
// to its start when it has none), and checks that every other byte of the
// file stayed, and the game reads back with the comment.
static void edit_and_write_back(const char *path, int number) {
    size_t before_len;
    char *before = slurp(path, &before_len);
    Spans sp;
    read_spans(path, &sp);
    PgnGame *g = read_game(path, number);
    const PgnNode *first = pgn_first(g);
    if (first)
        cr_assert(pgn_node_set_comment(g, first, "edited here"));
    else
        cr_assert(pgn_set_lead_comment(g, "edited here"));
    cr_assert(pgn_modified(g));
    char err[512];
    cr_assert(pgn_db_write_back(g, NULL, err, sizeof err), "%s", err);
    cr_expect(!pgn_modified(g), "written: no changes left");
    size_t after_len;
    char *after = slurp(path, &after_len);
    size_t start = (size_t)sp.start[number - 1], end = (size_t)sp.end[number - 1];
    size_t tail = before_len - end;
    cr_assert_geq(after_len, start + tail);
    cr_expect_eq(memcmp(before, after, start), 0, "the games before %d are as they were", number);
    cr_expect_eq(memcmp(before + end, after + after_len - tail, tail), 0,
                 "the games after %d are as they were", number);
    // The game's new place is its source now, and holds the edited game.
    const PgnSource *src = pgn_source(g);
    cr_expect_eq(src->start, (long long)start);
    cr_expect_eq(src->end, (long long)(after_len - tail));
    PgnGame *again = read_game(path, number);
    const PgnNode *f2 = pgn_first(again);
    const char *comment = f2 ? f2->comment : pgn_lead_comment(again);
    cr_expect(comment && strstr(comment, "edited here"), "game %d has its comment", number);
    cr_expect_eq(pgn_mainline_length(again), pgn_mainline_length(g));
    Spans now;
    read_spans(path, &now);
    cr_expect_eq(now.count, sp.count, "still %d games", sp.count);
    pgn_game_free(again);
    pgn_game_free(g);
    free(before);
    free(after);
}

Test(pgn_database, a_game_written_back_leaves_the_others_byte_for_byte) {
    char path[512];
    copy_data("pgn/canonical.pgn", "canonical.pgn", path, sizeof path);
    for (int n = 1; n <= 10; n++)
        edit_and_write_back(path, n);
    copy_data("pgn/bom_crlf.pgn", "bom.pgn", path, sizeof path);
    Spans sp;
    read_spans(path, &sp);
    for (int n = 1; n <= sp.count; n++)
        edit_and_write_back(path, n);
}

Test(pgn_database, every_game_of_a_collection_round_trips) {
    char path[512];
    copy_data("explore/lines.pgn", "lines.pgn", path, sizeof path);
    for (int n = 1; n <= 200; n += 13)
        edit_and_write_back(path, n);
    edit_and_write_back(path, 200);
}

Test(pgn_database, a_second_write_back_finds_the_game_in_its_new_place) {
    char path[512];
    copy_data("pgn/canonical.pgn", "canonical.pgn", path, sizeof path);
    PgnGame *g = read_game(path, 2);
    char err[512];
    for (int i = 0; i < 3; i++) {
        char text[32];
        snprintf(text, sizeof text, "pass %d", i);
        cr_assert(pgn_node_set_comment(g, pgn_first(g), text));
        cr_assert(pgn_db_write_back(g, NULL, err, sizeof err), "pass %d: %s", i, err);
    }
    pgn_game_free(g);
    PgnGame *again = read_game(path, 2);
    cr_expect_str_eq(pgn_first(again)->comment, "pass 2");
    pgn_game_free(again);
    expect_tiles(path, 10);
}

Test(pgn_database, a_file_changed_since_it_was_read_is_not_written) {
    char path[512];
    copy_data("pgn/canonical.pgn", "canonical.pgn", path, sizeof path);
    PgnGame *g = read_game(path, 3);
    cr_assert(pgn_set_lead_comment(g, "mine"));
    FILE *f = fopen(path, "a");
    cr_assert_not_null(f);
    fputs("\n[Event \"added by someone else\"]\n\n1. e4 *\n", f);
    fclose(f);
    size_t len_before;
    char *before = slurp(path, &len_before);
    char err[512] = "";
    cr_expect(!pgn_db_write_back(g, NULL, err, sizeof err));
    cr_expect(strstr(err, "changed on disk"), "says why: %s", err);
    size_t len_after;
    char *after = slurp(path, &len_after);
    cr_expect(len_after == len_before && !memcmp(before, after, len_before), "untouched");
    free(before);
    free(after);
    pgn_game_free(g);
}

Test(pgn_database, a_game_of_no_file_is_not_written_back) {
    PgnGame *g = pgn_game_new();
    char err[512] = "";
    cr_expect(!pgn_db_write_back(g, NULL, err, sizeof err));
    cr_expect(strstr(err, "no file"), "%s", err);
    pgn_game_free(g);
}

static PgnGame *short_game(const char *event) {
    PgnGame *g = pgn_game_new();
    cr_assert(pgn_set_tag(g, "Event", event));
    Board b;
    board_set_start(&b);
    Move m = test_san_move(&b, "e4");
    cr_assert(pgn_append_move(g, m, NULL, -1, NULL));
    pgn_set_result(g, "*");
    return g;
}

Test(pgn_database, append_adds_a_game_and_keeps_the_file) {
    char path[512];
    copy_data("pgn/canonical.pgn", "canonical.pgn", path, sizeof path);
    size_t len_before;
    char *before = slurp(path, &len_before);
    PgnGame *g = short_game("Added");
    int number = 0;
    char err[512];
    cr_assert(pgn_db_append(g, path, &number, NULL, err, sizeof err), "%s", err);
    cr_expect_eq(number, 11);
    cr_expect_eq(pgn_source(g)->number, 11);
    size_t len_after;
    char *after = slurp(path, &len_after);
    cr_expect_eq(memcmp(before, after, len_before), 0, "the ten games are as they were");
    expect_tiles(path, 11);
    // It can be written back in its new place.
    cr_assert(pgn_set_tag(g, "Event", "Added and edited"));
    cr_assert(pgn_db_write_back(g, NULL, err, sizeof err), "%s", err);
    PgnGame *again = read_game(path, 11);
    cr_expect_str_eq(pgn_tag(again, "Event"), "Added and edited");
    pgn_game_free(again);
    pgn_game_free(g);
    free(before);
    free(after);
}

Test(pgn_database, append_to_a_file_without_a_final_line_end) {
    char path[512];
    snprintf(path, sizeof path, "%s/bare.pgn", dir);
    const char *text = "[Event \"x\"]\n\n1. d4 d5 *";
    char err[512];
    cr_assert(paths_write_atomic(path, text, strlen(text), err, sizeof err));
    PgnGame *g = short_game("Second");
    int number = 0;
    cr_assert(pgn_db_append(g, path, &number, NULL, err, sizeof err), "%s", err);
    cr_expect_eq(number, 2);
    expect_tiles(path, 2);
    size_t len;
    char *all = slurp(path, &len);
    cr_expect_eq(strncmp(all, text, strlen(text)), 0);
    free(all);
    pgn_game_free(g);
}

Test(pgn_database, append_creates_a_missing_file_and_count_says_zero) {
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/new.pgn", dir);
    cr_expect_eq(pgn_db_count(path, err, sizeof err), 0);
    PgnGame *g = short_game("First");
    int number = 0;
    cr_assert(pgn_db_append(g, path, &number, NULL, err, sizeof err), "%s", err);
    cr_expect_eq(number, 1);
    cr_expect_eq(pgn_db_count(path, err, sizeof err), 1);
    pgn_game_free(g);
}

Test(pgn_database, replace_file_keeps_only_the_game_and_the_permissions) {
    char path[512], err[512];
    copy_data("pgn/canonical.pgn", "canonical.pgn", path, sizeof path);
    cr_assert_eq(chmod(path, 0600), 0);
    PgnGame *g = short_game("Alone");
    cr_assert(pgn_db_replace_file(g, path, NULL, err, sizeof err), "%s", err);
    cr_expect_eq(pgn_db_count(path, err, sizeof err), 1);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_mode & 0777, 0600, "mode %o", (unsigned)(st.st_mode & 0777));
    pgn_game_free(g);
}

// A file written on Windows keeps its CR LF line ends: a game written back
// or added among them does not leave the file with mixed ones.
Test(pgn_database, a_crlf_file_keeps_crlf_line_ends) {
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/crlf.pgn", dir);
    const char *text = "[Event \"a\"]\r\n[Result \"*\"]\r\n\r\n1. e4 e5 *\r\n\r\n"
                       "[Event \"b\"]\r\n[Result \"*\"]\r\n\r\n1. d4 d5 *\r\n";
    cr_assert(paths_write_atomic(path, text, strlen(text), err, sizeof err), "%s", err);
    PgnGame *g = read_game(path, 1);
    cr_assert(pgn_set_lead_comment(g, "edited"));
    cr_assert(pgn_db_write_back(g, NULL, err, sizeof err), "%s", err);
    PgnGame *added = short_game("Added");
    int number = 0;
    cr_assert(pgn_db_append(added, path, &number, NULL, err, sizeof err), "%s", err);
    cr_expect_eq(number, 3);
    size_t len;
    char *now = slurp(path, &len);
    for (size_t i = 0; i < len; i++)
        if (now[i] == '\n')
            cr_expect(i > 0 && now[i - 1] == '\r', "a bare LF at byte %zu of %zu", i, len);
    cr_expect(!strstr(now, "\r\n\r\n\r\n"), "one blank line between games");
    expect_tiles(path, 3);
    free(now);
    pgn_game_free(added);
    pgn_game_free(g);
}

// save to a name that is no file (a FIFO here; /dev/null for root) is
// refused at once: neither read (it would block, or read without end) nor
// replaced by a file.
Test(pgn_database, a_save_to_a_fifo_or_device_is_refused) {
    char path[512], err[512] = "";
    snprintf(path, sizeof path, "%s/fifo", dir);
    cr_assert_eq(mkfifo(path, 0600), 0);
    PgnGame *g = short_game("Nowhere");
    cr_expect(!pgn_db_replace_file(g, path, NULL, err, sizeof err));
    cr_expect(strstr(err, "not a regular file"), "%s", err);
    int number = 0;
    cr_expect(!pgn_db_append(g, path, &number, NULL, err, sizeof err));
    cr_expect(strstr(err, "not a regular file"), "%s", err);
    struct stat st;
    cr_assert_eq(lstat(path, &st), 0);
    cr_expect(S_ISFIFO(st.st_mode), "still a FIFO");
    pgn_game_free(g);
}

// A database made read-only (chmod a-w) to keep it as it is was replaced by
// a save all the same (the rename needs only the directory's permission):
// the file is refused, with the reason, and stays as it was. The check is on
// the mode, so that it holds for root too.
Test(pgn_database, a_save_to_a_read_only_file_is_refused) {
    char path[512], err[512] = "";
    copy_data("pgn/canonical.pgn", "canonical.pgn", path, sizeof path);
    cr_assert_eq(chmod(path, 0444), 0);
    size_t len_before;
    char *before = slurp(path, &len_before);
    PgnGame *g = short_game("Kept out");
    int number = 0;
    cr_expect(!pgn_db_append(g, path, &number, NULL, err, sizeof err));
    cr_expect(strstr(err, "the file is read-only"), "%s", err);
    cr_expect(!pgn_db_replace_file(g, path, NULL, err, sizeof err));
    cr_expect(strstr(err, "the file is read-only"), "%s", err);
    size_t len_after;
    char *after = slurp(path, &len_after);
    cr_expect(len_after == len_before && memcmp(before, after, len_before) == 0,
              "the file is as it was");
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_expect_eq(st.st_mode & 07777, 0444);
    free(before);
    free(after);
    pgn_game_free(g);
}

// save /proc/version said "cannot create a temporary file ... No such file or
// directory": true, but /proc is the kernel's, where no file can be saved.
Test(pgn_database, a_save_to_a_kernel_file_says_what_it_is) {
    if (access("/proc/version", R_OK) != 0)
        cr_skip_test("no /proc here");
    char err[512] = "";
    PgnGame *g = short_game("Nowhere");
    int number = 0;
    cr_expect(!pgn_db_append(g, "/proc/version", &number, NULL, err, sizeof err));
    cr_expect(strstr(err, "cannot write /proc/version: it is in the kernel's proc file system"),
              "%s", err);
    cr_expect(!pgn_db_replace_file(g, "/proc/new.pgn", NULL, err, sizeof err));
    cr_expect(strstr(err, "cannot write /proc/new.pgn: it is in the kernel's proc file system"),
              "%s", err);
    pgn_game_free(g);
}

// A database kept elsewhere and linked to (a synced folder, dotfiles): a
// save writes the file the link names and the link stays a link.
Test(pgn_database, a_save_through_a_symbolic_link_writes_its_target) {
    char path[512], link[600], err[512];
    copy_data("pgn/canonical.pgn", "canonical.pgn", path, sizeof path);
    snprintf(link, sizeof link, "%s/link.pgn", dir);
    cr_assert_eq(symlink("canonical.pgn", link), 0); // relative, as ln -s makes it
    PgnGame *g = short_game("Through the link");
    int number = 0;
    cr_assert(pgn_db_append(g, link, &number, NULL, err, sizeof err), "%s", err);
    struct stat st;
    cr_assert_eq(lstat(link, &st), 0);
    cr_expect(S_ISLNK(st.st_mode), "the link is still a link");
    cr_expect_eq(pgn_db_count(path, err, sizeof err), 11, "the game is in the linked file");
    cr_assert(pgn_set_tag(g, "Event", "Edited through the link"));
    cr_assert(pgn_db_write_back(g, NULL, err, sizeof err), "%s", err);
    cr_assert_eq(lstat(link, &st), 0);
    cr_expect(S_ISLNK(st.st_mode), "still a link after a write back");
    PgnGame *again = read_game(path, 11);
    cr_expect_str_eq(pgn_tag(again, "Event"), "Edited through the link");
    pgn_game_free(again);
    pgn_game_free(g);
}

Test(pgn_database, a_failed_write_leaves_the_file) {
    char path[512], err[512] = "";
    copy_data("pgn/canonical.pgn", "canonical.pgn", path, sizeof path);
    PgnGame *g = read_game(path, 1);
    cr_assert(pgn_set_lead_comment(g, "lost?"));
    // The game's file is now a path under a regular file: no write can succeed.
    PgnSource src = *pgn_source(g);
    snprintf(src.path, sizeof src.path, "%s/nowhere", path);
    pgn_set_source(g, &src);
    cr_expect(!pgn_db_write_back(g, NULL, err, sizeof err));
    cr_expect(err[0], "says why");
    cr_expect(pgn_modified(g), "still to be saved");
    int number;
    cr_expect(!pgn_db_append(g, src.path, &number, NULL, err, sizeof err));
    expect_tiles(path, 10);
    pgn_game_free(g);
}

Test(pgn_database, same_file_sees_through_spellings) {
    char path[512], other[600];
    copy_data("pgn/canonical.pgn", "canonical.pgn", path, sizeof path);
    snprintf(other, sizeof other, "%s/./canonical.pgn", dir);
    cr_expect(pgn_db_same_file(path, other));
    snprintf(other, sizeof other, "%s/missing.pgn", dir);
    cr_expect(!pgn_db_same_file(path, other));
}

Test(pgn_database, other_games_held_follow_a_write) {
    char path[512], err[512];
    copy_data("pgn/canonical.pgn", "canonical.pgn", path, sizeof path);
    PgnGame *g3 = read_game(path, 3), *g7 = read_game(path, 7), *g1 = read_game(path, 1);
    cr_assert(pgn_set_lead_comment(g3, "a long comment that moves every game after this one"));
    PgnFileChange change;
    cr_assert(pgn_db_write_back(g3, &change, err, sizeof err), "%s", err);
    pgn_db_follow(g7, &change);
    pgn_db_follow(g1, &change);
    cr_assert(pgn_set_lead_comment(g7, "seven"));
    cr_assert(pgn_db_write_back(g7, &change, err, sizeof err), "game 7 after game 3: %s", err);
    pgn_db_follow(g1, &change);
    cr_assert(pgn_set_lead_comment(g1, "one"));
    int number;
    PgnGame *extra = short_game("Extra");
    cr_assert(pgn_db_append(extra, path, &number, &change, err, sizeof err), "%s", err);
    pgn_db_follow(g1, &change);
    cr_assert(pgn_db_write_back(g1, &change, err, sizeof err), "game 1 after both: %s", err);
    expect_tiles(path, 11);
    const char *want[] = {"one", "a long comment", "seven"};
    int numbers[] = {1, 3, 7};
    for (int i = 0; i < 3; i++) {
        PgnGame *again = read_game(path, numbers[i]);
        const PgnNode *f = pgn_first(again);
        const char *c = f ? f->pre : pgn_lead_comment(again);
        cr_expect(c && strstr(c, want[i]), "game %d: %s", numbers[i], c ? c : "(none)");
        pgn_game_free(again);
    }
    cr_assert(pgn_db_replace_file(extra, path, &change, err, sizeof err));
    pgn_db_follow(g1, &change);
    cr_expect_str_eq(pgn_source(g1)->path, "", "a file written anew has none of its old games");
    pgn_game_free(extra);
    pgn_game_free(g1);
    pgn_game_free(g3);
    pgn_game_free(g7);
}
