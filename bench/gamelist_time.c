// SPDX-License-Identifier: GPL-3.0-or-later
// bench/gamelist_time: times the game list on a PGN file for bench/gamelist.sh.
//
//   bench/gamelist_time FILE.pgn [RUNS [WIDTH [FILTER]]]
//                                 (defaults: 5 runs, 120 columns, "garcia")
//
// Each run, as the session and the pager do it: reads the list (load) and
// lays out the first screen (30 rows); filters it with FILTER and lays out
// its first screen; clears the filter; jumps to the end (End: the last 30
// rows); and scrolls through the whole list a page at a time (every row laid
// out once). Then opening the last game, as `game N` does: from where the
// list says it starts, and (once, for comparison) reading from the top of
// the file as patzer did before. Prints the median of each, in ms.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/pgn/gamelist.h"
#include "src/pgn/database.h"
#include "src/pgn/model.h"

enum { SCREEN_ROWS = 30, MAX_RUNS = 99 };

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Lays out rows [first, first + n) and returns a checksum, so that the work
// cannot be left out.
static unsigned screen_rows(const GameList *l, int first, int n, int width) {
    unsigned sum = 0;
    char row[1024];
    for (int i = first; i < first + n && i < gamelist_count(l); i++) {
        gamelist_row(l, i, width, row, sizeof row);
        sum += (unsigned)strlen(row);
    }
    return sum;
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 5) {
        fprintf(stderr, "usage: gamelist_time FILE.pgn [RUNS [WIDTH [FILTER]]]\n");
        return 2;
    }
    const char *path = argv[1];
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    int width = argc > 3 ? atoi(argv[3]) : 120;
    const char *filter = argc > 4 ? argv[4] : "garcia";
    if (runs < 1 || runs > MAX_RUNS || width < 20) {
        fprintf(stderr, "gamelist_time: RUNS 1..%d, WIDTH at least 20\n", MAX_RUNS);
        return 2;
    }
    double load[MAX_RUNS], filt[MAX_RUNS], end[MAX_RUNS], scroll[MAX_RUNS];
    int games = 0, matches = 0;
    unsigned sum = 0;
    for (int r = 0; r < runs; r++) {
        char err[512];
        double t0 = now_ms();
        GameList *l = gamelist_read(path, NULL, NULL, err, sizeof err);
        if (!l) {
            fprintf(stderr, "gamelist_time: %s\n", err);
            return 1;
        }
        sum += screen_rows(l, 0, SCREEN_ROWS, width);
        double t1 = now_ms();
        if (!gamelist_filter(l, filter)) {
            fprintf(stderr, "gamelist_time: out of memory\n");
            gamelist_free(l);
            return 1;
        }
        sum += screen_rows(l, 0, SCREEN_ROWS, width);
        matches = gamelist_count(l);
        double t2 = now_ms();
        if (!gamelist_filter(l, NULL)) {
            fprintf(stderr, "gamelist_time: out of memory\n");
            gamelist_free(l);
            return 1;
        }
        games = gamelist_count(l);
        double t3 = now_ms();
        sum += screen_rows(l, games > SCREEN_ROWS ? games - SCREEN_ROWS : 0, SCREEN_ROWS, width);
        double t4 = now_ms();
        for (int top = 0; top < games; top += SCREEN_ROWS)
            sum += screen_rows(l, top, SCREEN_ROWS, width);
        double t5 = now_ms();
        load[r] = t1 - t0;
        filt[r] = t2 - t1;
        end[r] = t4 - t3;
        scroll[r] = t5 - t4;
        gamelist_free(l);
    }
    // Opening the last game: from its place, and from the top of the file.
    char err[512];
    GameList *l = gamelist_read(path, NULL, NULL, err, sizeof err);
    if (!l) {
        fprintf(stderr, "gamelist_time: %s\n", err);
        return 1;
    }
    double open[MAX_RUNS];
    PgnPlace place = {0, 0};
    (void)gamelist_place(l, games, &place.start, &place.line);
    for (int r = 0; r < runs; r++) {
        double t0 = now_ms();
        PgnGame *g = pgn_db_read_game(path, games, &place, err, sizeof err);
        open[r] = now_ms() - t0;
        if (!g) {
            fprintf(stderr, "gamelist_time: %s\n", err);
            return 1;
        }
        pgn_game_free(g);
    }
    double t0 = now_ms();
    PgnGame *g = pgn_db_read_game(path, games, NULL, err, sizeof err);
    double from_top = now_ms() - t0;
    pgn_game_free(g);
    gamelist_free(l);
    printf("games                      %d\n", games);
    printf("load + first screen        %.1f ms (median of %d)\n", median(load, runs), runs);
    printf("filter '%s' (%d games)   %.2f ms\n", filter, matches, median(filt, runs));
    printf("End (last screen)          %.3f ms\n", median(end, runs));
    printf("scroll to the end, page by page (%d pages)  %.1f ms, %.4f ms a page\n",
           (games + SCREEN_ROWS - 1) / SCREEN_ROWS, median(scroll, runs),
           median(scroll, runs) / ((games + SCREEN_ROWS - 1) / SCREEN_ROWS + 1e-9));
    printf("open the last game (game %d) from its place  %.2f ms\n", games, median(open, runs));
    printf("before: the same read from the top of the file (one run)  %.1f ms\n", from_top);
    printf("checksum %u\n", sum);
    return 0;
}
