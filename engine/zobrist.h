// SPDX-License-Identifier: GPL-3.0-or-later
// Zobrist hashing keys, drawn once from a fixed-seed generator so that keys,
// hash-table behaviour and bench signatures are the same on every run.
#ifndef ENGINE_ZOBRIST_H
#define ENGINE_ZOBRIST_H

#include "engine/types.h"

void zobrist_init(void);

extern Key zobrist_piece[PIECE_NB][SQ_NB];
// Castling right i with its rook on file f; the standard files (h for the
// kingside, a for the queenside) have the keys standard chess always had.
extern Key zobrist_castling[4][8];
extern Key zobrist_ep_file[8];
extern Key zobrist_side;

// The key of the castling rights in `rights`, their rooks on rook[i].
static inline Key zobrist_castling_key(const uint8_t rook[4], unsigned rights) {
    Key k = 0;
    while (rights) {
        int i = __builtin_ctz(rights);
        rights &= rights - 1;
        k ^= zobrist_castling[i][rook[i] & 7];
    }
    return k;
}

#endif
