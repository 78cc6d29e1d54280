// SPDX-License-Identifier: GPL-3.0-or-later
// The fixture of the suites that drive whole sessions headless with files of
// their own (test_session, test_session_archive): a test directory with the
// autosave, the archive and a two-game PGN file; level-1 options; the suites'
// short names for the helpers of session_helpers.h; and the small waits and
// readers they share. Header-only: each suite has its own copy of the state.
#ifndef TESTS_SESSION_FIXTURE_H
#define TESTS_SESSION_FIXTURE_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "src/session/session.h"
#include "tests/helpers.h"
#include "tests/session_helpers.h"

// The suites' short names for the shared helpers.
typedef SessionLog Log;
static inline bool has(const Log *log, const char *text) {
    return test_said(log, text);
}
static inline void run(Session *s, int64_t now, const char *const *lines) {
    test_session_run(s, now, lines);
}
static inline bool wait_until(Session *s, int64_t now, bool (*done)(const Session *)) {
    return test_session_wait(s, now, done);
}
static inline void nap_ms(long ms) {
    test_nap_ms(ms);
}

static char dir[256];
static char autosave[300], archive[300], pgn_path[300];

static const char *const two_games =
    "[Event \"Club\"]\n[White \"Alpha\"]\n[Black \"Beta\"]\n[Result \"1-0\"]\n\n"
    "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n"
    "[Event \"Club\"]\n[White \"Gamma\"]\n[Black \"Delta\"]\n[Result \"*\"]\n\n"
    "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. g3 *\n";

static inline void setup(void) {
    test_temp_dir(dir, sizeof dir, "patzer-session");
    snprintf(autosave, sizeof autosave, "%s/autosave.pgn", dir);
    snprintf(archive, sizeof archive, "%s/games.pgn", dir);
    snprintf(pgn_path, sizeof pgn_path, "%s/two.pgn", dir);
    FILE *f = fopen(pgn_path, "w");
    cr_assert_not_null(f);
    fputs(two_games, f);
    fclose(f);
}

static inline void teardown(void) {
    test_remove_dir(dir);
}

static inline SessionOptions options(void) {
    SessionOptions o = test_session_options(dir, "games.pgn");
    o.settings.level = 1;
    return o;
}

static inline Session *open_session(const SessionOptions *o, Log *log) {
    return test_session_open(o, log, 1000);
}

static char *read_all(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static inline void status(const Session *s, char *buf, size_t bufsz) {
    session_status(s, buf, bufsz);
}

// Waits' conditions: a review over, the engine idle.
static inline bool review_over(const Session *s) {
    return session_mode(s) != SESSION_REVIEW;
}

// How many times what occurs in text.
static inline int count_of(const char *text, const char *what) {
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

static inline bool engine_idle(const Session *s) {
    return !session_engine_busy(s);
}

static inline Square sq(const char *name) {
    return square_from_name(name);
}

// The last MSG_TEXT a session sent (the game list's rows), kept by the
// keep_text hook, which also logs to ctx when it is a SessionLog.
static char last_text[8192];
static inline void keep_text(MessageKind kind, const char *text, void *ctx) {
    if (kind == MSG_TEXT)
        snprintf(last_text, sizeof last_text, "%s", text);
    if (ctx)
        test_session_log(kind, text, ctx);
}

#endif
