// SPDX-License-Identifier: GPL-3.0-or-later
// Perft with bulk counting at the frontier.
#include "engine/perft.h"

static uint64_t perft_rec(Board *b, int depth) {
    if (depth == 1)
        return (uint64_t)movegen_count(b);
    MoveList list;
    movegen_legal(b, &list);
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        Undo u;
        board_make_move(b, list.moves[i], &u);
        nodes += perft_rec(b, depth - 1);
        board_unmake_move(b, &u);
    }
    return nodes;
}

uint64_t perft(Board *b, int depth) {
    if (depth <= 0)
        return 1;
    return perft_rec(b, depth);
}

void perft_divide(Board *b, int depth, PerftDivide *out) {
    MoveList list;
    movegen_legal(b, &list);
    out->count = list.count;
    out->total = 0;
    for (int i = 0; i < list.count; i++) {
        out->moves[i] = list.moves[i];
        Undo u;
        board_make_move(b, list.moves[i], &u);
        out->counts[i] = depth <= 1 ? 1 : perft_rec(b, depth - 1);
        board_unmake_move(b, &u);
        out->total += out->counts[i];
    }
}
