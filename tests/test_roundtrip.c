// SPDX-License-Identifier: GPL-3.0-or-later
// Round trips through the session (issue 21): for every game of a file,
// `game N` and `save` without a change leave the file byte for byte as it
// was; then a comment on the game's last move and `save` change only that
// game's bytes (every other game's compared through the reader's spans, and
// the bytes no game claims), and the game reads back as it was with that
// comment (its whole tree, tags and result written out and compared).
//
// make check runs it on the PGN files of tests/data. bench/roundtrip.sh runs
// it on other files: PATZER_ROUNDTRIP_FILES=A.pgn:B.pgn (then only those),
// PATZER_ROUNDTRIP_EDIT=K (edit every K-th game; default every one). It says
// per file how many games were saved unchanged, edited, refused and how many
// the writer gives back byte for byte as they were written (a figure, not a
// check: other programs lay out PGN differently).
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/pgn/database.h"
#include "src/pgn/pgn.h"
#include "src/session/session.h"
#include "src/util/paths.h"
#include "tests/helpers.h"
#include "tests/pgn_split.h"
#include "tests/session_helpers.h"

// Sends one line with the log emptied first.
static void send_line(Session *s, SessionLog *log, const char *line) {
    test_session_log_clear(log);
    session_handle_line(s, line, 1000);
}

static void say(Session *s, SessionLog *log, const char *fmt, long n) {
    char line[64];
    snprintf(line, sizeof line, fmt, n);
    send_line(s, log, line);
}

static Session *open_session(const char *dir, SessionLog *log) {
    SessionOptions o;
    memset(&o, 0, sizeof o);
    game_settings_default(&o.settings);
    o.settings.players[WHITE] = o.settings.players[BLACK] = PLAYER_HUMAN;
    o.hash_mb = 1;
    o.threads = 1;
    o.pace_ms = -1;
    snprintf(o.autosave_path, sizeof o.autosave_path, "%s/autosave.pgn", dir);
    snprintf(o.archive_path, sizeof o.archive_path, "%s/archive.pgn", dir);
    log->ignore = SESSION_LOG_STATUS_ONLY;
    return test_session_open(&o, log, 1000);
}

// Game n of the file at path (1-based), NULL when it does not read.
static PgnGame *game_of(const char *path, int n) {
    char err[512];
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    PgnGame *g = pgn_game_new();
    int rc = 0;
    for (int i = 1; i <= n; i++)
        rc = pgn_reader_next(r, g, NULL);
    pgn_reader_close(r);
    if (rc != 1) {
        pgn_game_free(g);
        return NULL;
    }
    return g;
}

static char *written(const PgnGame *g) {
    size_t len;
    char *text = pgn_write_string(g, &len);
    cr_assert_not_null(text);
    return text;
}

// Game bytes without the blank lines after them (a span ends where the next
// game starts).
static size_t trimmed(const char *text, size_t len) {
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--;
    return len;
}

typedef struct Tally {
    int games, broken, unchanged, edited, refused, skipped, rewritten_same;
} Tally;

static void roundtrip(const char *source, int every) {
    char dir[256], copy[320], err[512];
    test_temp_dir(dir, sizeof dir, "patzer-roundtrip");
    snprintf(copy, sizeof copy, "%s/db.pgn", dir);
    size_t orig_len;
    char *orig = paths_read_file(source, PGN_DB_MAX_BYTES, &orig_len, err, sizeof err);
    cr_assert_not_null(orig, "%s", err);
    cr_assert(paths_write_atomic(copy, orig, orig_len, err, sizeof err), "%s", err);

    Split before;
    split_read(copy, &before, source);
    Tally t = {.games = before.count};
    SessionLog log = { 0 };
    Session *s = open_session(dir, &log);
    char line[400];
    snprintf(line, sizeof line, "load %s", copy);
    send_line(s, &log, line);

    // Saved without a change: the file is as it was, every game of it.
    for (int n = 1; n <= before.count; n++) {
        if (!before.game[n - 1]) {
            t.broken++;
            continue;
        }
        say(s, &log, "game %ld", n);
        char opened[32];
        snprintf(opened, sizeof opened, "Game %d:", n);
        cr_assert(strstr(log.text, opened), "%s: game %d does not open: %s", source, n, log.text);
        say(s, &log, "save", 0);
        cr_assert(strstr(log.text, "has no changes to save"), "%s game %d: %s", source, n,
                  log.text);
        t.unchanged++;
    }
    size_t now_len;
    char *now = paths_read_file(copy, PGN_DB_MAX_BYTES, &now_len, err, sizeof err);
    cr_assert_not_null(now, "%s", err);
    cr_assert(now_len == orig_len && !memcmp(now, orig, orig_len),
              "%s: saving its games unchanged changed the file", source);
    free(now);

    // The writer's text of each game against the file's: how many match.
    for (int n = 1; n <= before.count; n++) {
        if (!before.game[n - 1])
            continue;
        PgnGame *g = game_of(copy, n);
        cr_assert_not_null(g);
        char *text = written(g);
        size_t a = trimmed(text, strlen(text)), b = trimmed(before.game[n - 1], before.len[n - 1]);
        t.rewritten_same += a == b && !memcmp(text, before.game[n - 1], a);
        free(text);
        pgn_game_free(g);
    }

    // One comment, one save: only that game changes, and it reads back so.
    for (int n = 1; n <= before.count; n += every) {
        if (!before.game[n - 1])
            continue;
        PgnGame *want = game_of(copy, n);
        cr_assert_not_null(want, "%s game %d", source, n);
        char note[64];
        snprintf(note, sizeof note, "round trip %d", n);
        int plies = pgn_mainline_length(want);
        bool ok = plies > 0 ? pgn_node_set_comment(want, pgn_mainline_node(want, plies - 1), note)
                            : pgn_set_lead_comment(want, note);
        cr_assert(ok);
        say(s, &log, "game %ld", n);
        say(s, &log, "last", 0);
        snprintf(line, sizeof line, "comment %s", note);
        send_line(s, &log, line);
        say(s, &log, "save", 0);
        Split after;
        split_read(copy, &after, source);
        cr_assert_eq(after.count, before.count, "%s: %d games after saving game %d, %d before",
                     source, after.count, n, before.count);
        if (strstr(log.text, "Not saved:")) {
            // Refused (a game sharing a line with another): nothing written.
            cr_assert(strstr(log.text, "shares a line"), "%s game %d: %s", source, n, log.text);
            for (int i = 0; i < before.count; i++)
                cr_assert(split_same(&after, &before, i), "%s: game %d changed, refused %d",
                          source, i + 1, n);
            t.refused++;
        } else {
            cr_assert(strstr(log.text, "back to"), "%s game %d: %s", source, n, log.text);
            for (int i = 0; i < before.count; i++)
                cr_assert(i == n - 1 || split_same(&after, &before, i),
                          "%s: saving game %d changed game %d:\n%.*s\n----\n%.*s", source, n,
                          i + 1, (int)before.len[i], before.game[i] ? before.game[i] : "",
                          (int)after.len[i], after.game[i] ? after.game[i] : "");
            cr_assert(after.rest_len == before.rest_len &&
                          !memcmp(after.rest, before.rest, before.rest_len),
                      "%s: saving game %d changed the bytes between games", source, n);
            PgnGame *got = game_of(copy, n);
            cr_assert_not_null(got, "%s: game %d does not read back", source, n);
            cr_assert_eq(pgn_mainline_length(got), plies, "%s game %d", source, n);
            for (int ply = 0; ply < plies; ply++)
                cr_assert_str_eq(pgn_mainline_san(got, ply), pgn_mainline_san(want, ply),
                                 "%s game %d ply %d", source, n, ply);
            char *a = written(want), *b = written(got);
            cr_assert_str_eq(b, a, "%s: game %d read back differs", source, n);
            free(a);
            free(b);
            pgn_game_free(got);
            t.edited++;
        }
        pgn_game_free(want);
        split_free(&before);
        before = after;
    }
    t.skipped = before.count - t.broken - t.edited - t.refused;
    fprintf(stderr,
            "%s: %d games (%d broken): %d saved unchanged, file identical; %d edited, only that "
            "game changed; %d refused (sharing a line); %d not edited; %d of %d written back by "
            "the writer byte for byte as they were\n",
            source, t.games, t.broken, t.unchanged, t.edited, t.refused, t.skipped,
            t.rewritten_same, t.games - t.broken);
    session_free(s, 2000);
    split_free(&before);
    free(orig);
    test_remove_dir(dir);
}

TestSuite(roundtrip);

Test(roundtrip, every_game_of_the_test_files) {
    const char *files = getenv("PATZER_ROUNDTRIP_FILES");
    const char *every_text = getenv("PATZER_ROUNDTRIP_EDIT");
    int every = every_text && atoi(every_text) > 0 ? atoi(every_text) : 1;
    if (files && *files) {
        char *list = strdup(files), *save = NULL;
        for (char *f = strtok_r(list, ":", &save); f; f = strtok_r(NULL, ":", &save))
            roundtrip(f, every);
        free(list);
        return;
    }
    static const char *const data[] = {
        "explore/lines.pgn",       "pgn/canonical.pgn",    "pgn/annotated.pgn",
        "pgn/setup.pgn",           "pgn/bom_crlf.pgn",     "pgn/semicolon.pgn",
        "pgn/null_moves.pgn",      "pgn/cli_games.pgn",    "pgn/cli_more.pgn",
        "pgn/cli_bom_crlf.pgn",    "pgn/review_blunders.pgn", "pgn/broken_illegal.pgn",
        "pgn/broken_comment.pgn",  "pgn/broken_variation.pgn", "pgn/broken_tag.pgn",
        "pgn/cli_illegal.pgn",     "coach/blunders.pgn",
    };
    for (size_t i = 0; i < sizeof data / sizeof data[0]; i++) {
        char path[512];
        test_data_path(data[i], path, sizeof path);
        roundtrip(path, every);
    }
}
