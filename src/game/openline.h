// SPDX-License-Identifier: GPL-3.0-or-later
// The opening lines file (data/openings.txt), read in one place for its two
// users: the opening names (openings.c: the position each line reaches and
// its comment) and the book builder (mkbook: every position along every line
// and the move played there).
//
// The format: one opening per line, SAN moves from the start position (move
// numbers "1." and "1..." allowed, a result such as "1-0" ends the moves),
// then a comment from a '#' that starts a word ("Qh4#" is a move) to the end
// of the line. Blank and comment-only lines have no moves.
#ifndef SRC_GAME_OPENLINE_H
#define SRC_GAME_OPENLINE_H

#include <stdbool.h>

#include "engine/board.h"

// What the reader calls; any callback may be NULL. A callback returning
// false stops the reading (out of memory).
typedef struct OpenLineVisitor {
    // Each move of a line, with the position before it.
    bool (*move)(void *ctx, const Board *before, Move m);
    // A line with moves, all played: the position after the last one, and
    // the comment's text after the '#' (NULL when there is none).
    bool (*line)(void *ctx, const Board *after, const char *comment, long lineno);
    // A move that cannot be played (unparseable, illegal or ambiguous): ply
    // moves of the line were played before it; the rest of the line is
    // skipped and line is not called for it.
    void (*error)(void *ctx, long lineno, int ply, const char *move, const char *why);
    void *ctx;
} OpenLineVisitor;

// Reads a whole file's text, which it cuts in place into lines and words;
// a UTF-8 byte order mark is skipped. Needs board_init_tables. False when a
// callback stopped it.
bool openline_read(char *text, const OpenLineVisitor *v);

#endif
