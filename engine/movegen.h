// SPDX-License-Identifier: GPL-3.0-or-later
// Legal move generation. Checks, pins, en-passant discovered checks and
// castling through attacked squares are resolved during generation, so every
// move produced is legal. The search generates noisy moves (captures and
// promotions) and quiet moves in separate stages.
#ifndef ENGINE_MOVEGEN_H
#define ENGINE_MOVEGEN_H

#include "engine/board.h"

typedef struct MoveList {
    Move moves[MAX_MOVES];
    int count;
} MoveList;

// All legal moves.
void movegen_legal(const Board *b, MoveList *list);
// Legal captures (en passant included) and promotions (all four pieces).
void movegen_noisy(const Board *b, MoveList *list);
// Legal moves that neither capture nor promote, castling included.
void movegen_quiet(const Board *b, MoveList *list);
// The number of legal moves, counted without listing them.
int movegen_count(const Board *b);
// True when m is a legal move in b; any 16-bit value is accepted, so hash and
// killer moves can be checked before use.
bool movegen_is_legal(const Board *b, Move m);
// True when the side to move has no legal move and is in check / not in check.
bool movegen_is_checkmate(const Board *b);
bool movegen_is_stalemate(const Board *b);
// True when m is in the list.
bool movelist_contains(const MoveList *list, Move m);

#endif
