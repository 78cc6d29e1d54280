// SPDX-License-Identifier: GPL-3.0-or-later
// Random whole sessions over a copy of a multi-game file (issue 21): load,
// game N, goto, moves (variations in a browsed game), comment, nag, save,
// save FILE, play on, undo, resign, new, a flag fall, quit and restart, in a
// seeded random order. After every step:
// - no game of a file changed but the one the session said it saved (each
//   game's bytes compared through the reader's spans, and the bytes no game
//   claims), and a file's game count grows only by the `save FILE` appends
//   said, by one each;
// - the archive holds exactly the games that ended (their moves and result,
//   in order) and the unfinished ones a new game replaced: none twice,
//   whatever the undo, quit and restart around them.
// Time is fake, both sides are played here (no engine move is waited for).
//
// make check runs a few short sessions from fixed seeds; make soak-save
// (tests/random_session.sh) runs many long ones. Environment:
// PATZER_RANDOM_SEED=N (the first seed), PATZER_RANDOM_SESSIONS=N (how many
// seeds, one after the other), PATZER_RANDOM_STEPS=N (steps a session). A
// failure names its seed and step, and the last lines sent.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/movegen.h"
#include "src/pgn/pgn.h"
#include "src/session/session.h"
#include "src/util/paths.h"
#include "tests/helpers.h"
#include "tests/pgn_split.h"
#include "tests/session_helpers.h"

// ------------------------------------------------------------------ the run

enum { HISTORY = 40, MAX_ARCHIVED = 512 };

typedef struct Run {
    uint64_t seed, rng;
    int step;
    char history[HISTORY][600]; // the last lines sent, for a failure's report
    int sent;
} Run;

// What the steps did, said after each session: that saves, appends and
// archived games did happen.
typedef struct Counts {
    int back, added, created, replaced, refused, unchanged, played_on, archived, restarts;
} Counts;

static Run run;
static Counts counts;
static char dir[256], db[320], other[320], autosave[320], archive[320];

static void sent(const char *line) {
    snprintf(run.history[run.sent % HISTORY], sizeof run.history[0], "%.500s", line);
    run.sent++;
}

// The seed, the step and the last lines, for a failure's message.
static const char *context(void) {
    static char buf[HISTORY * 64 + 256];
    int n = snprintf(buf, sizeof buf,
                     "seed %llu, step %d (again: PATZER_RANDOM_SEED=%llu PATZER_RANDOM_SESSIONS=1);"
                     " the last lines:",
                     (unsigned long long)run.seed, run.step, (unsigned long long)run.seed);
    int first = run.sent > HISTORY ? run.sent - HISTORY : 0;
    for (int i = first; i < run.sent && n > 0 && (size_t)n < sizeof buf; i++)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "\n  %s",
                      run.history[i % HISTORY]);
    return buf;
}

static unsigned pick(unsigned n) { return n ? (unsigned)(test_rng_next(&run.rng) % n) : 0; }

static long env_long(const char *name, long fallback) {
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : fallback;
}

// ------------------------------------------------------------------ files as the reader sees them

// A number in the message log after `prefix` + "%d" + `mid` + path.
static int said_number(const SessionLog *log, size_t from, const char *prefix, const char *mid,
                       const char *path) {
    int found = 0;
    for (const char *p = log->text + from; (p = strstr(p, prefix)); p++) {
        int n = atoi(p + strlen(prefix));
        const char *q = p + strlen(prefix);
        while (*q >= '0' && *q <= '9')
            q++;
        if (strncmp(q, mid, strlen(mid)) == 0 && strncmp(q + strlen(mid), path, strlen(path)) == 0)
            found = n;
    }
    return found;
}

static bool said(const SessionLog *log, size_t from, const char *text) {
    return strstr(log->text + from, text) != NULL;
}

// Checks the file at path against what it was (was), by the messages of
// the step (from `from` in log); then was becomes the file as it is.
static void check_file(const char *path, Split *was, const SessionLog *log, size_t from) {
    Split now;
    split_read(path, &now, context());
    char msg[400];
    snprintf(msg, sizeof msg, "Saved to %s.", path);
    bool created = said(log, from, msg);
    snprintf(msg, sizeof msg, "Replaced %s with this game.", path);
    bool replaced = said(log, from, msg);
    int back = said_number(log, from, "Saved game ", " back to ", path);
    int added = said_number(log, from, "Added as game ", " of ", path);
    if (created || replaced) {
        cr_assert(now.exists && now.count == 1, "%s written anew holds %d games: %s", path,
                  now.count, context());
        cr_assert(created ? !was->exists : true, "Saved to an existing file %s: %s", path,
                  context());
    } else {
        cr_assert_eq(now.exists, was->exists, "%s appeared or went: %s", path, context());
        cr_assert_eq(now.count, was->count + (added ? 1 : 0),
                     "%s holds %d games, had %d (%s): %s", path, now.count, was->count,
                     added ? "one added" : "none added", context());
        if (added)
            cr_assert_eq(added, now.count, "added as game %d of %d: %s", added, now.count,
                         context());
        for (int i = 0; i < was->count; i++) {
            if (i + 1 == back)
                continue;
            // An append puts a blank line after the last game where there was none:
            // that line is in the last game's bytes now.
            bool grew = added && i == was->count - 1 && was->game[i] && now.game[i] &&
                        now.len[i] > was->len[i] && now.len[i] <= was->len[i] + 2 &&
                        !memcmp(now.game[i], was->game[i], was->len[i]) &&
                        strspn(now.game[i] + was->len[i], "\n") == now.len[i] - was->len[i];
            cr_assert(grew || split_same(&now, was, i),
                      "game %d of %s changed (the step saved %s; it said:\n%s): was %zu "
                      "bytes\n%.*s\nnow %zu bytes\n%.*s\n%s",
                      i + 1, path, back ? "another" : "none", log->text + from,
                      was->game[i] ? was->len[i] : 0, (int)(was->game[i] ? was->len[i] : 0),
                      was->game[i] ? was->game[i] : "", now.game[i] ? now.len[i] : 0,
                      (int)(now.game[i] ? now.len[i] : 0), now.game[i] ? now.game[i] : "",
                      context());
        }
        if (back)
            cr_assert_not_null(now.game[back - 1], "game %d of %s does not read back: %s", back,
                               path, context());
        if (added)
            cr_assert_not_null(now.game[added - 1], "game %d of %s does not read back: %s",
                               added, path, context());
        // The bytes no game claims: an append may add a blank line before its game.
        size_t keep = was->rest_len;
        cr_assert(now.rest_len >= keep && now.rest_len <= keep + (added ? 2 : 0) &&
                      (keep == 0 || memcmp(now.rest, was->rest, keep) == 0),
                  "the bytes between the games of %s changed: %s", path, context());
    }
    split_free(was);
    *was = now;
}

// ------------------------------------------------------------------ the live game and the archive

enum { SIG_MAX = 8192 };

// A game as the archive check knows it: its main line and result.
typedef struct Sig {
    int plies;
    bool over;
    char text[SIG_MAX];
} Sig;

static void live_sig(const Session *s, Sig *sig) {
    const Game *g = session_live_game(s);
    sig->plies = game_ply_count(g);
    sig->over = game_is_over(g);
    size_t n = 0;
    for (int i = 0; i < sig->plies && n + 16 < sizeof sig->text; i++)
        n += (size_t)snprintf(sig->text + n, sizeof sig->text - n, "%s ", game_move(g, i)->san);
    snprintf(sig->text + n, sizeof sig->text - n, "%s", sig->over ? game_result_text(g) : "*");
}

typedef struct Archive {
    int count;
    char *sig[MAX_ARCHIVED];
} Archive;

static void archive_add(Archive *a, const Sig *sig) {
    cr_assert_lt(a->count, MAX_ARCHIVED);
    a->sig[a->count++] = strdup(sig->text);
}

// A game the archive should get: one without moves is not kept.
static void expect_archived(Archive *a, const Sig *sig) {
    if (sig->plies > 0)
        archive_add(a, sig);
}

static void archive_free(Archive *a) {
    for (int i = 0; i < a->count; i++)
        free(a->sig[i]);
    a->count = 0;
}

static char *archive_list(const Archive *a) {
    static char buf[1 << 15];
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < a->count && n + 100 < sizeof buf; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "\n  %d: %.80s", i + 1, a->sig[i]);
    return buf;
}

// The archive file read: each game's main line and result.
static void archive_read(Archive *a) {
    memset(a, 0, sizeof *a);
    char err[512];
    if (access(archive, F_OK) != 0)
        return;
    PgnReader *r = pgn_reader_open(archive, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    PgnGame *g = pgn_game_new();
    int rc;
    while ((rc = pgn_reader_next(r, g, NULL)) != 0) {
        cr_assert_eq(rc, 1, "the archive has a game that does not read: %s", context());
        Sig sig = {0};
        size_t n = 0;
        for (int i = 0; i < pgn_mainline_length(g) && n + 16 < sizeof sig.text; i++)
            n += (size_t)snprintf(sig.text + n, sizeof sig.text - n, "%s ",
                                  pgn_mainline_san(g, i));
        snprintf(sig.text + n, sizeof sig.text - n, "%s", pgn_result(g));
        archive_add(a, &sig);
    }
    pgn_game_free(g);
    pgn_reader_close(r);
}

static void check_archive(const Archive *want) {
    Archive got;
    archive_read(&got);
    bool same = got.count == want->count;
    for (int i = 0; same && i < got.count; i++)
        same = !strcmp(got.sig[i], want->sig[i]);
    if (!same) {
        char wanted[1 << 15];
        snprintf(wanted, sizeof wanted, "%s", archive_list(want));
        cr_assert_fail("the archive holds %d games, %d expected:%s\nexpected:%s\n%s", got.count,
                       want->count, archive_list(&got), wanted, context());
    }
    archive_free(&got);
}

// ------------------------------------------------------------------ the session

typedef struct World {
    Session *s;
    SessionLog log;
    int64_t now;
    Split db, other;
    Archive archive; // what the archive should hold
    char loaded[320]; // the file `load` listed last ("" none)
    int loaded_count;
} World;

static void open_session(World *w) {
    SessionOptions o;
    memset(&o, 0, sizeof o);
    game_settings_default(&o.settings);
    o.settings.players[WHITE] = o.settings.players[BLACK] = PLAYER_HUMAN;
    o.settings.level = 1;
    o.hash_mb = 1;
    o.threads = 1;
    o.pace_ms = -1;
    snprintf(o.autosave_path, sizeof o.autosave_path, "%s", autosave);
    snprintf(o.archive_path, sizeof o.archive_path, "%s", archive);
    SessionHooks hooks = { test_session_log, NULL, NULL, &w->log };
    char err[256];
    test_session_log_clear(&w->log);
    w->log.ignore = SESSION_LOG_STATUS_ONLY; // lists, help and analysis: not what is checked
    w->s = session_new(&o, &hooks, w->now, err, sizeof err);
    cr_assert_not_null(w->s, "%s: %s", err, context());
    w->loaded[0] = '\0'; // a new session has no file listed
}

static void send(World *w, const char *line) {
    sent(line);
    session_handle_line(w->s, line, w->now);
}

// A random legal move of the position shown, in SAN ("" when none).
static void random_move(World *w, char *san) {
    const Board *b = session_display_board(w->s);
    MoveList list;
    movegen_legal(b, &list);
    san[0] = '\0';
    if (list.count)
        notation_to_san(b, list.moves[pick((unsigned)list.count)], san);
}

static const char *const comments[] = {
    "a note", "better was Nf3", "with {braces} inside", "a % sign; and a semicolon",
    "  spaced   out  ", "\"quoted\"", "[%clk 0:01:00] a clock in a comment", "",
};
static const char *const nags[] = {"!", "?", "!!", "??", "!?", "?!", "$10", "$0"};

// Ends the session (final writes) and starts another on the same files; the
// question about an unfinished game is answered at random.
static void restart(World *w, const Sig *before) {
    sent("(restart)");
    session_save_all(w->s, w->now);
    session_free(w->s, w->now);
    w->now += 1000;
    open_session(w);
    bool offered = before->plies > 0 && !before->over;
    cr_assert_eq(session_asking(w->s), offered, "resume %s: %s",
                 offered ? "not asked" : "asked for a finished or empty game", context());
    if (!offered)
        return;
    static const char *const answers[] = {"y", "n", "yes", "new", "e4", "quit"};
    const char *answer = answers[pick(6)];
    send(w, answer);
    if (!strcmp(answer, "quit")) { // not an answer: the game waits in the autosave
        cr_assert(session_quit_requested(w->s), "%s", context());
        restart(w, before);
        return;
    }
    if (answer[0] != 'y')
        expect_archived(&w->archive, before); // anything but yes archives it, unfinished
}

// One random step.
static void step(World *w) {
    Session *s = w->s;
    char line[700], san[MOVE_TEXT_MAX];
    Sig before;
    live_sig(s, &before);
    test_session_log_clear(&w->log);
    size_t from = 0;
    w->now += 200 + (int64_t)pick(3000);
    bool restarted = false;
    unsigned r = pick(100);
    if (r < 6) {
        bool o = w->other.exists && pick(3) == 0;
        snprintf(line, sizeof line, "load %s", o ? other : db);
        send(w, line);
        snprintf(w->loaded, sizeof w->loaded, "%s", o ? other : db);
        w->loaded_count = o ? w->other.count : w->db.count;
    } else if (r < 16) {
        int n = w->loaded[0] ? 1 + (int)pick((unsigned)w->loaded_count + 1) : (int)pick(3);
        if (pick(8) == 0)
            n = 0; // your game
        snprintf(line, sizeof line, "game %d", n);
        send(w, line);
    } else if (r < 24) {
        static const char *const nav[] = {"prev", "next", "first", "last", "var 1", "up",
                                          "back"};
        if (pick(2))
            snprintf(line, sizeof line, "goto %u", pick(40));
        else
            snprintf(line, sizeof line, "%s", nav[pick(7)]);
        send(w, line);
    } else if (r < 50) {
        int moves = 1 + (int)pick(4);
        for (int i = 0; i < moves; i++) {
            random_move(w, san);
            if (san[0])
                send(w, san);
        }
    } else if (r < 56) {
        snprintf(line, sizeof line, "comment %s", comments[pick(8)]);
        send(w, line);
    } else if (r < 60) {
        snprintf(line, sizeof line, "nag %s", nags[pick(8)]);
        send(w, line);
    } else if (r < 70) {
        switch (pick(6)) {
        case 0:
        case 1:
        case 2: send(w, "save"); break;
        case 3: snprintf(line, sizeof line, "save %s", db), send(w, line); break;
        case 4: snprintf(line, sizeof line, "save %s", other), send(w, line); break;
        default: snprintf(line, sizeof line, "save %s replace", other), send(w, line); break;
        }
    } else if (r < 75) {
        static const char *const on[] = {"play both", "play white", "play black", "new here"};
        send(w, on[pick(4)]);
        if (session_mode(s) == SESSION_PLAY)
            send(w, "play both"); // both sides played here: no engine move
    } else if (r < 81) {
        send(w, pick(3) ? "undo" : "redo");
    } else if (r < 84) {
        send(w, "resign");
    } else if (r < 87) {
        send(w, "new");
        send(w, "play both");
    } else if (r < 89) {
        sent("(time passes: 10 minutes)");
        w->now += 600000;
        session_poll(s, w->now); // a running clock falls
    } else if (r < 92) {
        send(w, "analyze");
        send(w, "back");
    } else if (r < 96) {
        send(w, "quit");
        if (!session_quit_requested(s) && pick(2))
            send(w, "quit"); // the second quit leaves without the changes
        if (session_quit_requested(s)) {
            restart(w, &before);
            restarted = true;
        }
    } else {
        restart(w, &before);
        restarted = true;
    }
    if (session_asking(w->s))
        send(w, "n"); // a question about replacing a file: never here (no screen)

    // The files: only the games said saved changed.
    check_file(db, &w->db, &w->log, restarted ? 0 : from);
    check_file(other, &w->other, &w->log, restarted ? 0 : from);
    if (!strcmp(w->loaded, db))
        w->loaded_count = w->db.count;
    else if (w->loaded[0])
        w->loaded_count = w->other.count;

    counts.back += said(&w->log, 0, " back to ");
    counts.added += said(&w->log, 0, "Added as game ");
    counts.created += said(&w->log, 0, "Saved to ");
    counts.replaced += said(&w->log, 0, "Replaced ");
    counts.refused += said(&w->log, 0, "Not saved");
    counts.unchanged += said(&w->log, 0, "has no changes to save");
    counts.played_on += said(&w->log, 0, "Your game now plays on");
    counts.restarts += restarted;

    // The archive: what ended, and what a new game replaced unfinished.
    Sig after;
    live_sig(w->s, &after);
    if (!restarted) {
        bool replaced = said(&w->log, from, "New game.") || said(&w->log, from, "New game: ") ||
                        said(&w->log, from, "Your game now plays on");
        if (replaced && before.plies > 0 && !before.over)
            expect_archived(&w->archive, &before);
        if (after.over && (replaced || !before.over))
            expect_archived(&w->archive, &after);
    } else if (after.over) {
        cr_assert_fail("a restart began with a finished game: %s", context());
    }
    check_archive(&w->archive);
    cr_assert_not(strstr(w->log.text + (restarted ? 0 : from), "out of memory"), "%s", context());
}

static void one_session(uint64_t seed, int steps, const char *data) {
    memset(&run, 0, sizeof run);
    memset(&counts, 0, sizeof counts);
    run.seed = run.rng = seed;
    test_temp_dir(dir, sizeof dir, "patzer-random-session");
    snprintf(db, sizeof db, "%s/db.pgn", dir);
    snprintf(other, sizeof other, "%s/other.pgn", dir);
    snprintf(autosave, sizeof autosave, "%s/autosave.pgn", dir);
    snprintf(archive, sizeof archive, "%s/archive.pgn", dir);
    char src[512], err[256];
    test_data_path(data, src, sizeof src);
    size_t len;
    char *text = paths_read_file(src, 1 << 24, &len, err, sizeof err);
    cr_assert_not_null(text, "%s", err);
    cr_assert(paths_write_atomic(db, text, len, err, sizeof err), "%s", err);
    free(text);

    World *w = calloc(1, sizeof *w);
    cr_assert_not_null(w);
    w->now = 1000;
    split_read(db, &w->db, context());
    split_read(other, &w->other, context());
    open_session(w);
    for (run.step = 1; run.step <= steps; run.step++)
        step(w);
    session_free(w->s, w->now);
    fprintf(stderr,
            "seed %llu, %d steps on %s: %d saved back, %d added, %d created, %d replaced, "
            "%d refused, %d unchanged, %d played on, %d restarts, %d games archived\n",
            (unsigned long long)seed, steps, data, counts.back, counts.added, counts.created,
            counts.replaced, counts.refused, counts.unchanged, counts.played_on, counts.restarts,
            w->archive.count);
    split_free(&w->db);
    split_free(&w->other);
    archive_free(&w->archive);
    free(w);
    test_remove_dir(dir);
}

// Seeds from PATZER_RANDOM_SEED on (default first), PATZER_RANDOM_SESSIONS
// of them (default count), each of PATZER_RANDOM_STEPS steps (default steps).
static void sessions(uint64_t first, long count, long steps, const char *data) {
    uint64_t seed = (uint64_t)env_long("PATZER_RANDOM_SEED", (long)first);
    count = env_long("PATZER_RANDOM_SESSIONS", count);
    steps = env_long("PATZER_RANDOM_STEPS", steps);
    for (long i = 0; i < count; i++)
        one_session(seed + (uint64_t)i, (int)steps, data);
}

TestSuite(random_session);

// The 200 games of the explorer's test file: long games, plain.
Test(random_session, a_file_of_200_games) {
    sessions(1, 3, 150, "explore/lines.pgn");
}

// Ten tricky games: escapes, nesting, a position, CRLF, an empty game.
Test(random_session, a_file_of_tricky_games) {
    sessions(1001, 3, 150, "pgn/canonical.pgn");
}
