// SPDX-License-Identifier: GPL-3.0-or-later
// The message log: the ring of the last 100 status messages (order, the
// oldest dropped, numbering, the text `messages` shows), and in a session:
// which messages it keeps, the `messages` command, help as a whole text and
// a game's long opening comment as a text to read.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/helpers.h"
#include "src/util/msglog.h"
#include "src/session/session.h"

static MsgLog log_;

static void teardown_log(void) { msglog_free(&log_); }

TestSuite(msglog, .fini = teardown_log);

Test(msglog, starts_empty) {
    cr_assert_eq(msglog_count(&log_), 0);
    cr_assert_null(msglog_get(&log_, 0));
    char *text = msglog_format(&log_);
    cr_assert_not_null(text);
    cr_assert_str_eq(text, "No messages yet.");
    free(text);
}

Test(msglog, keeps_messages_in_order) {
    msglog_add(&log_, false, "New game.");
    msglog_add(&log_, true, "'foo' is not a move");
    msglog_add(&log_, false, "Level 3 (about 900 Elo)");
    cr_assert_eq(msglog_count(&log_), 3);
    cr_assert_str_eq(msglog_get(&log_, 0)->text, "New game.");
    cr_assert_not(msglog_get(&log_, 0)->error);
    cr_assert_str_eq(msglog_get(&log_, 1)->text, "'foo' is not a move");
    cr_assert(msglog_get(&log_, 1)->error);
    cr_assert_eq(msglog_get(&log_, 2)->number, 3);
    cr_assert_null(msglog_get(&log_, 3));
    cr_assert_null(msglog_get(&log_, -1));
    char *text = msglog_format(&log_);
    cr_assert_not_null(text);
    cr_assert_str_eq(text, "   1  New game.\n"
                           "   2  Error: 'foo' is not a move\n"
                           "   3  Level 3 (about 900 Elo)");
    free(text);
}

Test(msglog, the_101st_message_drops_the_first) {
    char text[32];
    for (int i = 1; i <= 101; i++) {
        snprintf(text, sizeof text, "message %d", i);
        msglog_add(&log_, i % 2 == 0, text);
    }
    cr_assert_eq(msglog_count(&log_), MSGLOG_MAX);
    cr_assert_eq(MSGLOG_MAX, 100);
    // Oldest first: 2 to 101, each with its own number and kind.
    for (int i = 0; i < 100; i++) {
        const MsgLogEntry *e = msglog_get(&log_, i);
        snprintf(text, sizeof text, "message %d", i + 2);
        cr_assert_str_eq(e->text, text);
        cr_assert_eq(e->number, (unsigned long)i + 2);
        cr_assert_eq(e->error, (i + 2) % 2 == 0);
    }
    char *all = msglog_format(&log_);
    cr_assert_not_null(all);
    cr_assert_null(strstr(all, "message 1\n"), "the first is gone");
    cr_assert(strncmp(all, "   2  Error: message 2\n", 23) == 0, "%.40s", all);
    size_t n = strlen(all);
    cr_assert(n > 11 && !strcmp(all + n - 11, "message 101"), "%s", all + n - 20);
    free(all);
    // Round and round: still the newest 100.
    for (int i = 102; i <= 350; i++) {
        snprintf(text, sizeof text, "message %d", i);
        msglog_add(&log_, false, text);
    }
    cr_assert_eq(msglog_count(&log_), 100);
    cr_assert_str_eq(msglog_get(&log_, 0)->text, "message 251");
    cr_assert_str_eq(msglog_get(&log_, 99)->text, "message 350");
}

Test(msglog, lines_of_a_message_stay_together) {
    msglog_add(&log_, true, "first line\nsecond line");
    char *text = msglog_format(&log_);
    cr_assert_not_null(text);
    cr_assert_str_eq(text, "   1  Error: first line\n      second line");
    free(text);
}

// ------------------------------------------------------------ in a session

enum { TEXT_MAX = 1 << 16 };

typedef struct Seen {
    char last[MSG_ASIDE + 1][TEXT_MAX]; // the last text of each MessageKind
    int count[MSG_ASIDE + 1];
} Seen;

static Seen seen;
static char dir[256], pgn_path[300];

static void on_message(MessageKind kind, const char *text, void *ctx) {
    Seen *s = ctx;
    cr_assert_leq((int)kind, (int)MSG_ASIDE);
    snprintf(s->last[kind], sizeof s->last[kind], "%s", text);
    s->count[kind]++;
}

static void setup_session(void) {
    memset(&seen, 0, sizeof seen);
    test_temp_dir(dir, sizeof dir, "patzer-msglog");
    snprintf(pgn_path, sizeof pgn_path, "%s/commented.pgn", dir);
}

static void teardown_session(void) {
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_expect_eq(system(cmd), 0);
}

TestSuite(messages, .init = setup_session, .fini = teardown_session, .timeout = 60);

static Session *open_session(void) {
    SessionOptions o;
    memset(&o, 0, sizeof o);
    game_settings_default(&o.settings);
    o.settings.tc.untimed = true;
    o.settings.players[WHITE] = o.settings.players[BLACK] = PLAYER_HUMAN;
    o.hash_mb = 4;
    o.pace_ms = -1;
    SessionHooks hooks = {on_message, NULL, NULL, &seen};
    char err[256];
    Session *s = session_new(&o, &hooks, 1000, err, sizeof err);
    cr_assert_not_null(s, "%s", err);
    return s;
}

Test(messages, the_command_lists_status_messages_oldest_first) {
    Session *s = open_session();
    session_handle_line(s, "foo", 1000);
    session_handle_line(s, "level 99", 1000);
    session_handle_line(s, "help", 1000);  // texts to read are not status messages
    session_message(s, MSG_INFO, "Theme green (kept in patzer.conf)"); // the front end's own
    session_handle_line(s, "messages", 1000);
    cr_assert_eq(seen.count[MSG_LOG], 1);
    const char *log = seen.last[MSG_LOG];
    const char *foo = strstr(log, "Error: 'foo' is not a move");
    const char *level = strstr(log, "Error: level must be a whole number from 1 to 20");
    const char *theme = strstr(log, "Theme green");
    cr_assert(foo && level && theme, "%s", log);
    cr_assert(foo < level && level < theme, "oldest first:\n%s", log);
    cr_assert_null(strstr(log, "help [COMMAND]"), "%s", log);
    // `messages` itself adds nothing: asked twice, the log is the same.
    char first[TEXT_MAX];
    snprintf(first, sizeof first, "%s", log);
    session_handle_line(s, "msgs", 1000);
    cr_assert_str_eq(seen.last[MSG_LOG], first);
    session_free(s, 1000);
}

Test(messages, help_is_one_whole_text) {
    Session *s = open_session();
    session_handle_line(s, "help", 1000);
    cr_assert_eq(seen.count[MSG_HELP], 1);
    const char *help = seen.last[MSG_HELP];
    // Every command of the table, the first and the last included.
    cr_assert_not_null(strstr(help, "new [white|black]"), "%s", help);
    cr_assert_not_null(strstr(help, "messages"), "%s", help);
    cr_assert_not_null(strstr(help, "help [COMMAND]"), "%s", help);
    cr_assert_not_null(strstr(help, "Anything else is taken as a move"), "%s", help);
    session_handle_line(s, "help messages", 1000);
    cr_assert_not_null(strstr(seen.last[MSG_HELP], "last 100"), "%s", seen.last[MSG_HELP]);
    session_free(s, 1000);
}

static void write_pgn(const char *comment) {
    FILE *f = fopen(pgn_path, "w");
    cr_assert_not_null(f);
    fprintf(f, "[Event \"Club\"]\n[White \"Alpha\"]\n[Black \"Beta\"]\n[Result \"1-0\"]\n\n"
               "{%s} 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
            comment);
    fclose(f);
}

// Not asked for: an aside (a screen shows it beside the board, so it never
// takes the next command), not a text that opens a pager.
Test(messages, a_long_opening_comment_is_an_aside) {
    const char *comment =
        "This game was played in the club championship of 1911 in a small town by the "
        "sea; both players were in their eighties and had known each other for sixty years.";
    write_pgn(comment);
    Session *s = open_session();
    char line[400];
    snprintf(line, sizeof line, "load %s", pgn_path);
    session_handle_line(s, line, 1000);
    cr_assert_eq(session_mode(s), SESSION_BROWSE);
    cr_assert_eq(seen.count[MSG_TEXT], 0);
    cr_assert_eq(seen.count[MSG_ASIDE], 1);
    const char *text = seen.last[MSG_ASIDE];
    // The first line is the title, then the whole comment.
    cr_assert(strncmp(text, "Game 1: Alpha - Beta", 20) == 0, "%s", text);
    cr_assert_not_null(strstr(text, "\n\nThis game was played"), "%s", text);
    cr_assert_not_null(strstr(text, "sixty years."), "%s", text);
    session_free(s, 1000);
}

Test(messages, a_short_opening_comment_goes_with_the_game) {
    write_pgn("A miniature.");
    Session *s = open_session();
    char line[400];
    snprintf(line, sizeof line, "load %s", pgn_path);
    session_handle_line(s, line, 1000);
    cr_assert_eq(seen.count[MSG_TEXT], 0);
    cr_assert_not_null(strstr(seen.last[MSG_INFO], "Game 1: Alpha - Beta"), "%s", seen.last[MSG_INFO]);
    cr_assert_not_null(strstr(seen.last[MSG_INFO], "{A miniature.}"), "%s", seen.last[MSG_INFO]);
    session_free(s, 1000);
}
