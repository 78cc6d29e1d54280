// SPDX-License-Identifier: GPL-3.0-or-later
// A board with the moves and keys that led to it (see line.h).
#include "engine/line.h"

#include <string.h>

// A move for good, or a pass for MOVE_NULL.
static void play(Board *b, Move m) {
    Undo u;
    if (m == MOVE_NULL)
        board_make_null(b, &u);
    else
        board_make_move(b, m, &u);
}

void line_init(Line *l, const Board *b) {
    l->start = *b;
    l->board = *b;
    l->ply = 0;
}

// Folds the oldest half of the moves into the start position.
static void compact(Line *l) {
    int drop = LINE_MAX / 2;
    for (int i = 0; i < drop; i++)
        play(&l->start, l->moves[i]);
    l->ply -= drop;
    memmove(l->keys, l->keys + drop, (size_t)l->ply * sizeof l->keys[0]);
    memmove(l->moves, l->moves + drop, (size_t)l->ply * sizeof l->moves[0]);
}

void line_play(Line *l, Move m) {
    if (l->ply >= LINE_MAX)
        compact(l);
    l->keys[l->ply] = l->board.key;
    l->moves[l->ply++] = m;
    play(&l->board, m);
}

bool line_undo(Line *l) {
    if (l->ply == 0)
        return false;
    l->ply--;
    l->board = l->start;
    for (int i = 0; i < l->ply; i++)
        play(&l->board, l->moves[i]);
    return true;
}
