// SPDX-License-Identifier: GPL-3.0-or-later
// The standard Polyglot Random64 key table, private to the book code: 768 piece-square keys,
// then castling, en-passant file and side-to-move keys.
#ifndef ENGINE_POLYGLOT_KEYS_H
#define ENGINE_POLYGLOT_KEYS_H

#include <stdint.h>

enum {
    POLYGLOT_PIECE = 0,    // + 64 * kind + square; kind = 2 * type + (white ? 1 : 0)
    POLYGLOT_CASTLE = 768, // + 0 white short, 1 white long, 2 black short, 3 black long
    POLYGLOT_EP = 772,     // + file of the en-passant square
    POLYGLOT_TURN = 780,   // XORed in when White is to move
    POLYGLOT_RANDOM_NB = 781,
};

extern const uint64_t polyglot_random64[POLYGLOT_RANDOM_NB];

#endif
