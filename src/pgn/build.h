// SPDX-License-Identifier: GPL-3.0-or-later
// Inside src/pgn only: the tree builder, the visitor of the reader that
// makes a PgnGame (tags, start position, the tree of moves with their NAGs,
// comments and clocks) of what the reader meets. pgn_reader_next uses it;
// callers outside src/pgn use that.
#ifndef SRC_PGN_BUILD_H
#define SRC_PGN_BUILD_H

#include "src/pgn/model.h"
#include "src/pgn/read.h"

// One line of the game being built: the main line (depth 0) or a variation.
typedef struct PgnBuildLine {
    PgnNode *parent;     // the move this line is an alternative to
    PgnNode *last;       // its last move so far
    const char *pending; // a comment waiting for the line's next move
    bool var_since_last; // a variation was closed after the last move
} PgnBuildLine;

typedef struct PgnBuilder {
    PgnGame *game;
    int depth;
    PgnBuildLine lines[PGN_MAX_DEPTH + 1];
    char why[64]; // a failure's reason
} PgnBuilder;

// Makes v a visitor that builds into g (which should be empty), with b
// (owned by the caller, alive while the game is read) as its state.
void pgn_builder_init(PgnBuilder *b, PgnGame *g, PgnVisitor *v);

#endif
