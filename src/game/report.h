// SPDX-License-Identifier: GPL-3.0-or-later
// The game report made from a review (review.h): accuracy per side, the
// marked moves per side, an evaluation graph and the moments that decided the
// game, with the better move and the engine's line. No I/O: the session shows
// the text in the pager or prints it.
//
// Accuracy follows the idea of lichess's published formula: a score becomes
// a winning chance for the mover (report_win_percent), a move's accuracy
// falls exponentially with the winning chance it gave away, and a side's
// accuracy is the mean over its moves (100 for a side that only played the
// engine's moves).
#ifndef SRC_REPORT_H
#define SRC_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "src/game/review.h"

enum {
    REPORT_MOMENTS = 3,
    // A swing in winning chances this big (percent points) can decide a game.
    REPORT_MOMENT_MIN_DROP = 8,
    REPORT_GRAPH_ROWS = 7, // the zero line and three rows each side
    REPORT_GRAPH_COLS = 64,
};

typedef struct GameReport {
    int plies;                   // reviewed
    int moves[2];                // moves each side made (WHITE, BLACK)
    double accuracy[2];          // 0..100 per side, -1 when the side made no move
    int marks[2][3];             // inaccuracies, mistakes, blunders per side
    int moments[REPORT_MOMENTS]; // ply indices in game order
    int moment_count;
} GameReport;

// The mover's chance to win (0..100, a draw counting half) of a score on the
// review scale from the mover's view, as the review judges moves
// (review_win_percent: patzer's scale, lichess's curve); mates count as
// decided.
double report_win_percent(int score_mover);

// Builds the report of plies[0..n) of a game whose first move is first's.
void report_build(const ReviewPly *plies, int n, Color first, GameReport *out);

// The report as text for g (the game reviewed, before or after annotation:
// its main line is read), "Game report" on the first line, then the players
// and result, the opening when `opening` is not NULL, the engine that
// reviewed when `reviewer` is not NULL, accuracy and marks per side, the
// graph, and each moment with the better move and the engine's line in SAN.
// Returns a malloc'd string (NULL when out of memory).
char *report_format(const GameReport *r, const ReviewPly *plies, const PgnGame *g,
                    const char *opening, const char *reviewer);

#endif
