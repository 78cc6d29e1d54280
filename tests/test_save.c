// SPDX-License-Identifier: GPL-3.0-or-later
// Whole sessions that save games into files holding others (issue 21): a
// game of a file written back in its place, games added to files, a file
// replaced only when asked, changes kept until saved, and playing on from a
// game of a file. Time is fake; no engine move is waited for.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/pgn/database.h"
#include "src/pgn/pgn.h"
#include "src/session/session.h"
#include "tests/helpers.h"
#include "tests/session_helpers.h"

static char dir[256], db[300], other[300];

static void setup(void) {
    test_temp_dir(dir, sizeof dir, "patzer-save");
    snprintf(db, sizeof db, "%s/db.pgn", dir);
    snprintf(other, sizeof other, "%s/other.pgn", dir);
    char src[512], err[256];
    test_data_path("explore/lines.pgn", src, sizeof src);
    size_t len;
    char *text = paths_read_file(src, 1 << 24, &len, err, sizeof err);
    cr_assert_not_null(text, "%s", err);
    cr_assert(paths_write_atomic(db, text, len, err, sizeof err), "%s", err);
    free(text);
}

static void teardown(void) {
    test_remove_dir(dir);
}

TestSuite(save, .init = setup, .fini = teardown, .timeout = 60);

static Session *open_session(SessionLog *log, bool confirm) {
    SessionOptions o = test_session_options(dir, "archive.pgn");
    o.settings.players[BLACK] = PLAYER_HUMAN; // no engine move unless a test asks
    o.confirm_replace = confirm;
    log->ignore = 1u << MSG_TEXT | 1u << MSG_HELP; // lists and help: not what these tests read
    return test_session_open(&o, log, 1000);
}

// A second patzer beside the first, in the same state directory, starting a
// game of its own rather than resuming the autosave.
static Session *open_second_session(SessionLog *log) {
    SessionOptions o = test_session_options(dir, "archive.pgn");
    o.settings.players[BLACK] = PLAYER_HUMAN;
    o.fresh = true;
    return test_session_open(&o, log, 1000);
}

static void line(Session *s, const char *fmt, const char *arg) {
    char text[600];
    snprintf(text, sizeof text, fmt, arg);
    session_handle_line(s, text, 1000);
}

static char *slurp(const char *path, size_t *len) {
    char err[256];
    char *text = paths_read_file(path, 1 << 24, len, err, sizeof err);
    cr_assert_not_null(text, "%s", err);
    return text;
}

// Game n of a file and its bytes there.
static PgnGame *game_of(const char *path, int n) {
    char err[256];
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    PgnGame *g = pgn_game_new();
    for (int i = 1; i <= n; i++)
        cr_assert_eq(pgn_reader_next(r, g, NULL), 1, "game %d of %s", i, path);
    pgn_reader_close(r);
    return g;
}

// Every game but `edited` has the bytes it had in `before`.
static void expect_others_unchanged(const char *before, size_t before_len, int edited) {
    size_t len;
    char *now = slurp(db, &len);
    PgnGame *g = game_of(db, edited);
    long long start = pgn_source(g)->start, end = pgn_source(g)->end;
    size_t tail_len = (size_t)(len - (size_t)end);
    cr_assert_leq(tail_len, before_len);
    cr_expect_eq(memcmp(now, before, (size_t)start), 0, "the games before %d", edited);
    cr_expect_eq(memcmp(now + end, before + before_len - tail_len, tail_len), 0,
                 "the games after %d", edited);
    char err[256];
    cr_expect_eq(pgn_db_count(db, err, sizeof err), 200, "still 200 games");
    pgn_game_free(g);
    free(now);
}

// The defect as reported: a variation in game 3 of a database, saved to the
// same file, left one game of 32.
Test(save, a_variation_saved_to_its_own_file_keeps_every_other_game) {
    SessionLog log = { 0 };
    Session *s = open_session(&log, false);
    size_t before_len;
    char *before = slurp(db, &before_len);
    line(s, "load %s", db);
    line(s, "%s", "game 3");
    line(s, "%s", "goto 2");
    line(s, "%s", "h6"); // beside 2... d5
    cr_expect(!test_said(&log, "Error"), "%s", log.text);
    line(s, "save %s", db);
    cr_expect(test_said(&log, "Saved game 3 back to"), "%s", log.text);
    expect_others_unchanged(before, before_len, 3);
    PgnGame *g = game_of(db, 3);
    bool found = false;
    for (int ply = 0; ply < pgn_mainline_length(g); ply++)
        for (const PgnNode *v = pgn_mainline_node(g, ply)->variation; v; v = v->next_variation)
            found |= strcmp(v->san, "h6") == 0;
    cr_expect(found, "game 3 has the variation 2... h6");
    pgn_game_free(g);
    free(before);
    session_free(s, 1000);
}

Test(save, save_alone_writes_back_only_a_changed_game) {
    SessionLog log = { 0 };
    Session *s = open_session(&log, false);
    size_t before_len;
    char *before = slurp(db, &before_len);
    line(s, "load %s", db);
    line(s, "%s", "game 150");
    line(s, "%s", "save");
    cr_expect(test_said(&log, "Game 150 of"), "%s", log.text);
    cr_expect(test_said(&log, "has no changes to save"), "%s", log.text);
    line(s, "%s", "comment a note on the last move");
    line(s, "%s", "save");
    cr_expect(test_said(&log, "Saved game 150 back"), "%s", log.text);
    expect_others_unchanged(before, before_len, 150);
    free(before);
    session_free(s, 1000);
}

Test(save, save_file_adds_the_game_to_another_file) {
    SessionLog log = { 0 };
    Session *s = open_session(&log, false);
    line(s, "load %s", db);
    line(s, "%s", "game 7");
    line(s, "save %s", other);
    cr_expect(test_said(&log, "Saved to"), "a new file: %s", log.text);
    line(s, "%s", "game 8");
    line(s, "save %s", other);
    cr_expect(test_said(&log, "Added as game 2 of"), "%s", log.text);
    char err[256];
    cr_expect_eq(pgn_db_count(other, err, sizeof err), 2);
    cr_expect_eq(pgn_db_count(db, err, sizeof err), 200, "the database is untouched");
    // Now it lives there too: save alone writes it back in the new file.
    line(s, "%s", "comment added later");
    line(s, "%s", "save");
    cr_expect(test_said(&log, "Saved game 2 back to"), "%s", log.text);
    PgnGame *g = game_of(other, 2);
    const PgnNode *last = pgn_mainline_node(g, pgn_mainline_length(g) - 1);
    cr_expect(last->comment && strstr(last->comment, "added later"));
    pgn_game_free(g);
    session_free(s, 1000);
}

Test(save, replace_asks_on_a_screen_and_no_keeps_the_file) {
    SessionLog log = { 0 };
    Session *s = open_session(&log, true);
    line(s, "load %s", db);
    line(s, "%s", "game 4");
    line(s, "save %s replace", db);
    cr_expect(test_said(&log, "holds 200 games: replace them all"), "%s", log.text);
    cr_expect(session_asking(s));
    line(s, "%s", "n");
    cr_expect(test_said(&log, "Not saved;"), "%s", log.text);
    char err[256];
    cr_expect_eq(pgn_db_count(db, err, sizeof err), 200);
    line(s, "save %s replace", db);
    line(s, "%s", "y");
    cr_expect(test_said(&log, "Replaced"), "%s", log.text);
    cr_expect_eq(pgn_db_count(db, err, sizeof err), 1);
    session_free(s, 1000);
}

Test(save, the_live_game_saved_once_is_saved_there_again) {
    SessionLog log = { 0 };
    Session *s = open_session(&log, false);
    line(s, "%s", "e4");
    line(s, "%s", "save");
    cr_expect(test_said(&log, "in no file yet"), "%s", log.text);
    line(s, "save %s", db);
    cr_expect(test_said(&log, "Added as game 201 of"), "%s", log.text);
    line(s, "%s", "e5");
    line(s, "%s", "save");
    cr_expect(test_said(&log, "Saved game 201 back to"), "%s", log.text);
    PgnGame *g = game_of(db, 201);
    cr_expect_eq(pgn_mainline_length(g), 2);
    pgn_game_free(g);
    session_free(s, 1000);
}

Test(save, changes_survive_an_analysis_and_other_games) {
    SessionLog log = { 0 };
    Session *s = open_session(&log, false);
    line(s, "load %s", db);
    line(s, "%s", "game 10");
    line(s, "%s", "comment ten");
    line(s, "%s", "game 11");
    line(s, "%s", "comment eleven");
    line(s, "%s", "game 10");
    cr_expect(test_said(&log, "with your changes not saved yet"), "%s", log.text);
    line(s, "%s", "save");
    line(s, "%s", "game 11");
    line(s, "%s", "save");
    cr_expect(test_said(&log, "Saved game 11 back"), "game 11 follows the write of 10: %s",
              log.text);
    const char *want[] = { "ten", "eleven" };
    for (int i = 0; i < 2; i++) {
        PgnGame *g = game_of(db, 10 + i);
        const PgnNode *last = pgn_mainline_node(g, pgn_mainline_length(g) - 1);
        cr_expect(last->comment && !strcmp(last->comment, want[i]), "game %d", 10 + i);
        pgn_game_free(g);
    }
    session_free(s, 1000);
}

Test(save, quit_warns_once_about_changes_not_saved) {
    SessionLog log = { 0 };
    Session *s = open_session(&log, false);
    line(s, "load %s", db);
    line(s, "%s", "game 12");
    line(s, "%s", "comment twelve");
    line(s, "%s", "back");
    line(s, "%s", "quit");
    cr_expect(!session_quit_requested(s));
    cr_expect(test_said(&log, "Changes to game 12 of"), "%s", log.text);
    line(s, "%s", "quit");
    cr_expect(session_quit_requested(s));
    session_free(s, 1000);
}

// Your own game saved to a file is saved: quit leaves at once and save alone
// has nothing to write, until a move changes it again.
Test(save, the_live_game_just_saved_has_no_changes_not_saved) {
    SessionLog log = { 0 };
    Session *s = open_session(&log, false);
    line(s, "%s", "e4");
    line(s, "save %s", other);
    cr_expect(test_said(&log, "Saved to"), "%s", log.text);
    line(s, "%s", "save");
    cr_expect(test_said(&log, "has no changes to save"), "%s", log.text);
    line(s, "%s", "e5");
    line(s, "%s", "quit");
    cr_expect(!session_quit_requested(s), "a move after the save is a change");
    cr_expect(test_said(&log, "Changes to game 1 of"), "%s", log.text);
    line(s, "%s", "save");
    cr_expect(test_said(&log, "Saved game 1 back to"), "%s", log.text);
    line(s, "%s", "quit");
    cr_expect(session_quit_requested(s), "%s", log.text);
    session_free(s, 1000);
}

// Two patzers at once share the autosave: one's move must not overwrite the
// unfinished game the other left there; that game goes to the archive.
Test(save, another_session_s_unfinished_game_in_the_autosave_is_archived) {
    SessionLog la = { 0 }, lb = { 0 };
    Session *a = open_session(&la, false);
    line(a, "%s", "e4");
    Session *b = open_second_session(&lb);
    line(b, "%s", "c4");
    line(b, "%s", "c5");
    session_free(b, 1000); // its unfinished game stays in the autosave
    line(a, "%s", "e5");
    cr_expect(test_said(&la, "Another patzer"), "%s", la.text);
    session_free(a, 1000);
    char path[400];
    snprintf(path, sizeof path, "%s/archive.pgn", dir);
    size_t len;
    char *archive = slurp(path, &len);
    cr_expect(strstr(archive, "1. c4 c5"), "the other session's game is archived: %s", archive);
    free(archive);
    snprintf(path, sizeof path, "%s/autosave.pgn", dir);
    char *autosave = slurp(path, &len);
    cr_expect(strstr(autosave, "1. e4 e5"), "%s", autosave);
    free(autosave);
}

Test(save, play_on_from_a_game_of_a_file) {
    SessionLog log = { 0 };
    Session *s = open_session(&log, false);
    line(s, "load %s", db);
    line(s, "%s", "game 3");
    line(s, "%s", "goto 2");
    const Game *shown = session_game(s);
    int plies = game_ply_count(shown);
    cr_assert_gt(plies, 0);
    Key key = game_board(shown)->key;
    line(s, "%s", "play both");
    cr_expect(test_said(&log, "Your game now plays on from"), "%s", log.text);
    cr_expect_eq(session_mode(s), SESSION_PLAY);
    const Game *live = session_live_game(s);
    cr_expect_eq(game_ply_count(live), plies, "the moves that led there");
    cr_expect_eq(game_board(live)->key, key, "the same position");
    cr_expect(!game_is_over(live));
    session_free(s, 1000);
}

static bool engine_moved(Session *s, int plies) {
    for (int i = 0; i < 3000; i++) {
        session_poll(s, 1000);
        if (game_ply_count(session_live_game(s)) >= plies)
            return true;
        test_nap_ms(10);
    }
    return false;
}

// Issue 21, defect 6: stepping back through your own game while it is on.
Test(save, you_look_back_through_your_game_while_it_goes_on) {
    SessionLog log = { 0 };
    Session *s = open_session(&log, false);
    line(s, "%s", "play white");
    line(s, "%s", "level 1");
    line(s, "%s", "e4");
    cr_assert(engine_moved(s, 2), "the engine answers");
    line(s, "%s", "Nf3");
    line(s, "%s", "prev"); // while the engine thinks about its second move
    cr_expect_eq(session_shown_ply(s), 2);
    char status[512];
    session_status(s, status, sizeof status);
    cr_expect(strstr(status, "Viewing 1..."), "%s", status);
    line(s, "%s", "first");
    Board start;
    board_set_start(&start);
    cr_expect_eq(session_display_board(s)->key, start.key, "the start position is shown");
    cr_assert(engine_moved(s, 4), "the engine plays on while you look back");
    cr_expect_eq(session_shown_ply(s), 0, "the view stays where you look");
    line(s, "%s", "d4");
    cr_expect(test_said(&log, "moves are played in your game"), "%s", log.text);
    cr_expect_eq(game_ply_count(session_live_game(s)), 4, "the move was not played");
    line(s, "%s", "goto 2");
    cr_expect_eq(session_shown_ply(s), 3, "after White's second move");
    line(s, "%s", "last");
    cr_expect_eq(session_shown_ply(s), 4);
    cr_expect_eq(session_display_board(s)->key, game_board(session_live_game(s))->key);
    line(s, "%s", "d4");
    cr_expect_eq(game_ply_count(session_live_game(s)), 5, "back at the game, moves play");
    session_free(s, 1000);
}

// A file with hard links loses them on a save (the write is a new file
// renamed into place, so that a failed save never leaves half a file): said
// once, at the save that does it.
Test(save, a_save_that_splits_hard_links_says_so) {
    char alias[400];
    snprintf(alias, sizeof alias, "%s/alias.pgn", dir);
    cr_assert_eq(link(db, alias), 0);
    SessionLog log = { 0 };
    Session *s = open_session(&log, false);
    line(s, "load %s", db);
    line(s, "%s", "game 1");
    line(s, "%s", "comment linked");
    line(s, "%s", "save");
    cr_expect(test_said(&log, "Saved game 1 back"), "%s", log.text);
    cr_expect(test_said(&log, "had 2 hard links"), "%s", log.text);
    test_session_log_clear(&log);
    line(s, "%s", "comment again");
    line(s, "%s", "save");
    cr_expect(test_said(&log, "Saved game 1 back"), "%s", log.text);
    cr_expect(!test_said(&log, "hard links"), "once: the file has one name now: %s", log.text);
    session_free(s, 1000);
    unlink(alias);
}

static int count_in(const char *text, const char *what) {
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

// Two sessions at once, each finding the other's game in the autosave and
// archiving it: the archive holds each game once, its last state, however
// often either was archived (before, every rescue added a copy, and the game's
// own end one more).
Test(save, a_game_archived_by_another_session_is_archived_once) {
    SessionLog la = { 0 }, lb = { 0 };
    Session *a = open_session(&la, false);
    line(a, "%s", "e4");
    Session *b = open_second_session(&lb);
    line(b, "%s", "c4");
    line(b, "%s", "c5");
    line(a, "%s", "e5");  // archives b's 1. c4 c5
    line(b, "%s", "Nc3"); // archives a's 1. e4 e5
    line(a, "%s", "Nf3"); // b's game again: in the place of its copy
    cr_expect(test_said(&la, "Another patzer"), "%s", la.text);
    line(b, "%s", "resign"); // b's game ends: archived, again in that place
    session_free(b, 1000);
    session_free(a, 1000);
    char path[400];
    snprintf(path, sizeof path, "%s/archive.pgn", dir);
    size_t len;
    char *archive = slurp(path, &len);
    cr_expect_eq(count_in(archive, "1. c4 c5"), 1, "%s", archive);
    cr_expect(strstr(archive, "1. c4 c5 2. Nc3 1-0"), "its last state: %s", archive);
    cr_expect_eq(count_in(archive, "1. e4 e5"), 1, "%s", archive);
    free(archive);
}
