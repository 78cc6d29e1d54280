// SPDX-License-Identifier: GPL-3.0-or-later
// A Line is a board with the moves that led to it from a set-up position and
// the keys of the positions on the way: what a game record, a PGN replay, a
// protocol or a test keeps to find repetitions, name openings, take moves back
// and hand the history to the search (engine_set_position(e, &l->board,
// l->keys, l->ply)). About 10 KB: embed it in the owner's struct.
#ifndef ENGINE_LINE_H
#define ENGINE_LINE_H

#include "engine/board.h"

// Plies held; beyond it the oldest half is folded into the start position
// (only positions since the last irreversible move matter for repetitions).
enum { LINE_MAX = 1024 };

typedef struct Line {
    Board start;          // the position before moves[0]
    Board board;          // the current position
    int ply;              // moves held
    Key keys[LINE_MAX];   // keys[i]: the key of the position before moves[i]
    Move moves[LINE_MAX];
} Line;

// Starts a line at b with no moves.
void line_init(Line *l, const Board *b);
// Plays a legal move, or passes for MOVE_NULL (a PGN null move; never while
// in check).
void line_play(Line *l, Move m);
// Takes the last move back (by replaying from the start); false when none is held.
bool line_undo(Line *l);
// How many times the current position occurred before in the line.
static inline int line_repetitions(const Line *l) {
    return board_repetitions(&l->board, l->keys, l->ply);
}

#endif
