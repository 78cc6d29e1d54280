// SPDX-License-Identifier: GPL-3.0-or-later
// The opening explorer's view of one position: the moves played from it in
// the indexed games (games, White/draw/Black shares, average rating) and the
// opening book's moves and weights, one row per legal move, as a table.
#ifndef SRC_EXPLORE_EXPLORER_H
#define SRC_EXPLORE_EXPLORER_H

#include "engine/book.h"
#include "engine/notation.h"
#include "src/explore/index.h"

typedef struct ExplorerRow {
    Move move;
    char san[MOVE_TEXT_MAX];
    long long games, white, draws, black; // results as in IndexMove
    long long rating_sum, rated;
    unsigned book_weight; // 0: not a book move
} ExplorerRow;

typedef struct Explorer {
    ExplorerRow rows[MAX_MOVES]; // most games first, then the heaviest book moves
    int count;
    long long games;             // the games that reached the position (sum of the rows)
    unsigned long book_total;    // sum of the book weights
} Explorer;

// The moves from b in the n indexes (any may be NULL) and the book (NULL:
// none). Moves of the index that are not legal in b (a key collision) are left out.
void explorer_collect(Explorer *e, const Board *b, ExploreIndex *const *indexes, int n,
                      const Book *book);

// The table as text: the title line (first, as a document's), a line naming
// what was searched (sources, e.g. "12 games in games.pgn"), the column
// heads, one row per move starting with its SAN, and a closing hint.
// Always NUL-terminated; cut short when buf is too small.
void explorer_format(const Explorer *e, const char *title, const char *sources, char *buf,
                     size_t bufsz);

// The row a line of that table is (its SAN followed by a blank), -1 when
// none: a click on a row plays its move.
int explorer_row_at(const Explorer *e, const char *line);

#endif
