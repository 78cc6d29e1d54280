// SPDX-License-Identifier: GPL-3.0-or-later
// Fills the Zobrist tables from a splitmix64 stream with a fixed seed.
#include "engine/zobrist.h"

#include <pthread.h>

Key zobrist_piece[PIECE_NB][SQ_NB];
Key zobrist_castling[4][8];
Key zobrist_ep_file[8];
Key zobrist_side;

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void fill(void) {
    uint64_t state = 0x70617A7A6572ULL; // "patzer"
    for (int p = 0; p < PIECE_NB; p++)
        for (int s = 0; s < SQ_NB; s++)
            zobrist_piece[p][s] = splitmix64(&state);
    // Each castling right gets a key; a set of rights is the XOR of its members,
    // so that losing one right is a single XOR of the difference. The keys of
    // the standard rook files come first in the stream, so that standard
    // chess keeps its keys (and the bench its node counts).
    for (int i = 0; i < 4; i++)
        zobrist_castling[i][i & 1 ? 0 : 7] = splitmix64(&state);
    for (int f = 0; f < 8; f++)
        zobrist_ep_file[f] = splitmix64(&state);
    zobrist_side = splitmix64(&state);
    // Chess960 rook files, drawn after every standard key.
    for (int i = 0; i < 4; i++)
        for (int f = 0; f < 8; f++)
            if (f != (i & 1 ? 0 : 7))
                zobrist_castling[i][f] = splitmix64(&state);
}

void zobrist_init(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, fill);
}
