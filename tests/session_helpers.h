// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the suites that drive whole sessions headless
// (test_session, test_save, test_random_session, test_roundtrip): the
// messages said, kept as text; the options of a test session (no clock, a
// small hash, no pacing, its files in a test directory); opening one with
// the failure as an assertion; sending lines at a fake time; and waiting,
// in real time, for the engine. Header-only, static inline, like helpers.h.
#ifndef TESTS_SESSION_HELPERS_H
#define TESTS_SESSION_HELPERS_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "src/session/session.h"

// What a session said: each message a line, errors prefixed "Error: ".
// Kinds whose bit (1u << kind) is in ignore are not kept; a log that is full
// keeps its first messages.
typedef struct SessionLog {
    char text[1 << 16];
    size_t len;
    int errors;      // how many MSG_ERROR, kept or not
    unsigned ignore; // MessageKind bits
} SessionLog;

// The message hook: ctx is the SessionLog.
static inline void test_session_log(MessageKind kind, const char *text, void *ctx) {
    SessionLog *log = ctx;
    if (kind == MSG_ERROR)
        log->errors++;
    if (log->ignore & (1u << kind))
        return;
    int n = snprintf(log->text + log->len, sizeof log->text - log->len, "%s%s\n",
                     kind == MSG_ERROR ? "Error: " : "", text);
    if (n > 0 && log->len + (size_t)n < sizeof log->text)
        log->len += (size_t)n;
}

// Only the status messages (MSG_INFO, MSG_ERROR): lists, help and analysis
// are not what most checks read.
#define SESSION_LOG_STATUS_ONLY (~((1u << MSG_INFO) | (1u << MSG_ERROR)))

// Empties the log (its filter stays).
static inline void test_session_log_clear(SessionLog *log) {
    log->len = 0;
    log->text[0] = '\0';
}

// Whether the log holds the text.
static inline bool test_said(const SessionLog *log, const char *text) {
    return strstr(log->text, text) != NULL;
}

// The options of a test session: default settings without a clock, a 4 MB
// hash, no pause between the engine's moves, and the autosave and archive
// at dir/autosave.pgn and dir/<archive_name>.
static inline SessionOptions test_session_options(const char *dir, const char *archive_name) {
    SessionOptions o;
    memset(&o, 0, sizeof o);
    game_settings_default(&o.settings);
    o.settings.tc.untimed = true;
    o.hash_mb = 4;
    o.pace_ms = -1;
    int a = snprintf(o.autosave_path, sizeof o.autosave_path, "%s/autosave.pgn", dir);
    int b = snprintf(o.archive_path, sizeof o.archive_path, "%s/%s", dir, archive_name);
    cr_assert(a > 0 && (size_t)a < sizeof o.autosave_path && b > 0 &&
                  (size_t)b < sizeof o.archive_path,
              "test directory name too long: %s", dir);
    return o;
}

// A session with the options whose messages go to log, at fake time now.
static inline Session *test_session_open(const SessionOptions *o, SessionLog *log, int64_t now) {
    SessionHooks hooks = { test_session_log, NULL, NULL, log };
    char err[256];
    Session *s = session_new(o, &hooks, now, err, sizeof err);
    cr_assert_not_null(s, "%s", err);
    return s;
}

// Sends the lines (up to a NULL) one by one at fake time now.
static inline void test_session_run(Session *s, int64_t now, const char *const *lines) {
    for (; *lines; lines++)
        session_handle_line(s, *lines, now);
}

static inline void test_nap_ms(long ms) {
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

// Polls the session at fake time now, real time passing for the engine,
// until done(s) or 2 minutes; false on timeout.
static inline bool test_session_wait(Session *s, int64_t now, bool (*done)(const Session *)) {
    // A ceiling, not a time limit: it ends as soon as done holds, and a review at its
    // default budget takes tens of seconds in a sanitizer build on a loaded machine.
    for (int i = 0; i < 12000; i++) {
        session_poll(s, now);
        if (done(s))
            return true;
        test_nap_ms(10);
    }
    return false;
}

#endif
