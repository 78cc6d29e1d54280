// SPDX-License-Identifier: GPL-3.0-or-later
// Perft: counts the leaf nodes of the legal move tree to a fixed depth, the
// standard correctness test (and speed test) of move generation. The last
// ply is counted in bulk, without making the moves.
#ifndef ENGINE_PERFT_H
#define ENGINE_PERFT_H

#include "engine/movegen.h"

typedef struct PerftDivide {
    Move moves[MAX_MOVES];
    uint64_t counts[MAX_MOVES];
    int count;
    uint64_t total;
} PerftDivide;

// Leaf count at depth (depth 0 counts the position itself). b is restored.
uint64_t perft(Board *b, int depth);
// The count below each root move, in generation order, and the total.
void perft_divide(Board *b, int depth, PerftDivide *out);

#endif
