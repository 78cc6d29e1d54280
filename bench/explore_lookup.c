// SPDX-License-Identifier: GPL-3.0-or-later
// bench/explore_lookup: times the opening explorer's lookups for bench/explore.sh.
//
//   bench/explore_lookup FILE.pgn [LOOKUPS [SEED]]   (defaults: 2000 lookups, seed 1)
//
// Opens FILE's index (which must be up to date: `patzer` with `index FILE`
// builds it) and times the open (the records' hash is checked then), then
// walks down the tree of indexed positions from the start: at each position
// the explorer's table is collected (index lookup, the legal moves matched,
// SAN, sorting; the book as the session uses it) and formatted, then one of
// its moves is played at random in proportion to its games, back to the
// start after 16 plies or at a position no game went on from. Prints the
// open time and the median, 90th percentile and largest lookup in ms, then
// the start position's (every game's first move: the longest run of
// records): its first lookup, on pages not read yet, and the median of 101.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/fen.h"
#include "src/explore/explorer.h"
#include "src/util/paths.h"

enum { WALK_PLIES = 16, TEXT_MAX = 64 * 1024 };

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static uint64_t next(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s FILE.pgn [LOOKUPS [SEED]]\n", argv[0]);
        return 2;
    }
    int lookups = argc > 2 ? atoi(argv[2]) : 2000;
    uint64_t rng = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    if (lookups < 1 || rng == 0) {
        fprintf(stderr, "LOOKUPS and SEED must be positive\n");
        return 2;
    }
    board_init_tables();
    paths_set_argv0(argv[0]);
    char ixpath[PATH_MAX_LEN], err[1024], bookpath[PATH_MAX_LEN];
    if (!index_path_for(argv[1], ixpath, sizeof ixpath, false)) {
        fprintf(stderr, "no index path for %s\n", argv[1]);
        return 1;
    }
    double t0 = now_ms();
    ExploreIndex *ix = index_open(argv[1], ixpath, err, sizeof err);
    double open_ms = now_ms() - t0;
    if (!ix) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    paths_find_book(argv[0], bookpath, sizeof bookpath);
    Book *book = bookpath[0] ? book_open(bookpath, err, sizeof err) : NULL;
    double *times = malloc((size_t)lookups * sizeof *times);
    char *text = malloc(TEXT_MAX);
    Explorer *e = malloc(sizeof *e);
    if (!times || !text || !e)
        return 1;
    Board b;
    board_set_start(&b);
    int ply = 0;
    long long rows = 0;
    for (int i = 0; i < lookups; i++) {
        double start = now_ms();
        explorer_collect(e, &b, &ix, 1, book);
        explorer_format(e, "Opening explorer", "bench", text, TEXT_MAX);
        times[i] = now_ms() - start;
        rows += e->count;
        long long pick = e->games > 0 ? (long long)(next(&rng) % (uint64_t)e->games) : -1;
        Move m = MOVE_NONE;
        for (int k = 0; k < e->count && pick >= 0; k++) {
            pick -= e->rows[k].games;
            if (pick < 0)
                m = e->rows[k].move;
        }
        if (m == MOVE_NONE || ++ply >= WALK_PLIES) {
            board_set_start(&b);
            ply = 0;
        } else {
            board_play(&b, m);
        }
    }
    double first = times[0]; // the start position, on pages not touched yet
    qsort(times, (size_t)lookups, sizeof *times, cmp_double);
    // The position with the most games (all of them): the longest run of records.
    enum { START_RUNS = 101 };
    double start_times[START_RUNS];
    board_set_start(&b);
    for (int i = 0; i < START_RUNS; i++) {
        double start = now_ms();
        explorer_collect(e, &b, &ix, 1, book);
        explorer_format(e, "Opening explorer", "bench", text, TEXT_MAX);
        start_times[i] = now_ms() - start;
    }
    qsort(start_times, START_RUNS, sizeof *start_times, cmp_double);
    printf("index: %s (%lld games, %lld positions), opened and checked in %.1f ms\n", ixpath,
           index_games(ix), index_positions(ix), open_ms);
    printf("lookups: %d (walks of up to %d plies, %.1f rows each on average)\n", lookups,
           WALK_PLIES, (double)rows / lookups);
    printf("lookup ms: median %.3f, p90 %.3f, max %.3f\n", times[lookups / 2],
           times[lookups * 9 / 10], times[lookups - 1]);
    printf("start position (%lld games): first lookup %.3f ms, then median %.3f ms\n", e->games,
           first, start_times[START_RUNS / 2]);
    free(times);
    free(text);
    free(e);
    book_close(book);
    index_close(ix);
    return 0;
}
