// SPDX-License-Identifier: GPL-3.0-or-later
// bench/save_time: how long `save` of one edited game of a big PGN file
// takes, and that it changed only that game (bench/save.sh runs it).
//
//   bench/save_time FILE [RUNS [GAME]]     (defaults: 5 runs, the middle game)
//
// FILE is changed (give it a copy). In one session (no autosave, no archive), as the commands would be
// typed: `load FILE`, `game GAME`; then RUNS times a new comment on the last
// move and `save`, each save timed alone. Prints the median and the range of
// the saves, the load and the game's opening once, and the file's games
// before and after compared through the reader's spans: how many differ
// (1 expected) and which.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/pgn/database.h"
#include "src/pgn/pgn.h"
#include "src/session/session.h"
#include "src/util/paths.h"

static char said[4096];

static void on_message(MessageKind kind, const char *text, void *ctx) {
    (void)ctx;
    if (kind == MSG_INFO || kind == MSG_ERROR)
        snprintf(said, sizeof said, "%s%s", kind == MSG_ERROR ? "Error: " : "", text);
}

static double ms_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// Each game's bytes (start, end) in the file as it is now.
typedef struct Spans {
    char *text;
    size_t len;
    int count;
    long long *start, *end;
} Spans;

static int spans_read(const char *path, Spans *sp) {
    char err[512];
    memset(sp, 0, sizeof *sp);
    sp->text = paths_read_file(path, PGN_DB_MAX_BYTES, &sp->len, err, sizeof err);
    PgnReader *r = sp->text ? pgn_reader_open(path, err, sizeof err) : NULL;
    if (!r) {
        fprintf(stderr, "save_time: %s\n", err);
        return -1;
    }
    int max = 0, rc;
    PgnSummary sum;
    while ((rc = pgn_reader_validate(r, &sum, NULL)) != 0) {
        if (sp->count == max) {
            max = max ? 2 * max : 1024;
            sp->start = realloc(sp->start, (size_t)max * sizeof *sp->start);
            sp->end = realloc(sp->end, (size_t)max * sizeof *sp->end);
            if (!sp->start || !sp->end)
                return -1;
        }
        int i = sp->count++;
        sp->start[i] = sp->end[i] = -1;
        if (rc > 0)
            pgn_reader_span(r, &sp->start[i], &sp->end[i]);
    }
    pgn_reader_close(r);
    return 0;
}

static void spans_free(Spans *sp) {
    free(sp->text);
    free(sp->start);
    free(sp->end);
}

// How many games differ between a and b (a different count counts them
// all); the first one's number in *first.
static int differing(const Spans *a, const Spans *b, int *first) {
    *first = 0;
    if (a->count != b->count)
        return a->count > b->count ? a->count : b->count;
    int n = 0;
    for (int i = 0; i < a->count; i++) {
        long long la = a->end[i] - a->start[i], lb = b->end[i] - b->start[i];
        bool same = la == lb && (a->start[i] < 0 ? b->start[i] < 0
                                                 : !memcmp(a->text + a->start[i],
                                                           b->text + b->start[i], (size_t)la));
        if (!same && !n++)
            *first = i + 1;
    }
    return n;
}

static bool run(Session *s, const char *line, const char *want, double *ms) {
    said[0] = '\0';
    double t0 = ms_now();
    session_handle_line(s, line, 1000);
    if (ms)
        *ms = ms_now() - t0;
    if (!strstr(said, want)) {
        fprintf(stderr, "save_time: '%s' said '%s', not '%s'\n", line, said, want);
        return false;
    }
    return true;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [RUNS [GAME]]\n", argv[0]);
        return 2;
    }
    const char *path = argv[1];
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    char err[512];
    int total = pgn_db_count(path, err, sizeof err);
    if (total <= 0 || runs < 1) {
        fprintf(stderr, "save_time: %s: %s\n", path, total < 0 ? err : "no game");
        return 2;
    }
    int number = argc > 3 ? atoi(argv[3]) : (total + 1) / 2;
    Spans before;
    if (spans_read(path, &before))
        return 1;

    SessionOptions o;
    memset(&o, 0, sizeof o);
    game_settings_default(&o.settings);
    o.settings.players[BLACK] = PLAYER_HUMAN;
    o.hash_mb = 1;
    o.threads = 1;
    o.pace_ms = -1;
    SessionHooks hooks = {on_message, NULL, NULL, NULL};
    Session *s = session_new(&o, &hooks, 1000, err, sizeof err);
    if (!s) {
        fprintf(stderr, "save_time: %s\n", err);
        return 1;
    }
    char line[4200];
    double load_ms, open_ms;
    snprintf(line, sizeof line, "load %s", path);
    if (!run(s, line, "", &load_ms))
        return 1;
    snprintf(line, sizeof line, "game %d", number);
    char want[32];
    snprintf(want, sizeof want, "Game %d:", number);
    if (!run(s, line, want, &open_ms))
        return 1;
    double *ms = calloc((size_t)runs, sizeof *ms);
    int first_diff = -1, first_which = 0;
    for (int i = 0; i < runs; i++) {
        snprintf(line, sizeof line, "comment saved %d times", i + 1);
        if (!run(s, line, "", NULL) || !run(s, "save", "back to", &ms[i]))
            return 1;
        if (i == 0) { // the first save against the file before it
            Spans after;
            if (spans_read(path, &after))
                return 1;
            first_diff = differing(&before, &after, &first_which);
            spans_free(&after);
        }
    }
    Spans after;
    if (spans_read(path, &after))
        return 1;
    int which, diff = differing(&before, &after, &which);
    qsort(ms, (size_t)runs, sizeof *ms, by_value);
    double median = runs % 2 ? ms[runs / 2] : (ms[runs / 2 - 1] + ms[runs / 2]) / 2;
    printf("file: %d games, %zu bytes; game %d edited\n", total, before.len, number);
    printf("load (the list read): %.1f ms; game %d opened: %.1f ms\n", load_ms, number, open_ms);
    printf("save: median %.1f ms of %d runs (min %.1f, max %.1f)\n", median, runs, ms[0],
           ms[runs - 1]);
    printf("games differing after the first save: %d (game %d); after %d saves: %d (game %d); "
           "games %d before, %d after; %zu bytes before, %zu after\n",
           first_diff, first_which, runs, diff, which, before.count, after.count, before.len,
           after.len);
    session_free(s, 2000);
    spans_free(&before);
    spans_free(&after);
    free(ms);
    return diff == 1 && first_diff == 1 && which == number && first_which == number ? 0 : 1;
}
