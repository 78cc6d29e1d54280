// SPDX-License-Identifier: GPL-3.0-or-later
// Bitboard primitives: bit counting and scanning, square, file and rank masks,
// and shifts that do not wrap around the board's edges.
#ifndef ENGINE_BITBOARD_H
#define ENGINE_BITBOARD_H

#include "engine/types.h"


#define BB_FILE_A 0x0101010101010101ULL
#define BB_FILE_H (BB_FILE_A << 7)
#define BB_RANK_1 0xFFULL
#define BB_RANK_2 (BB_RANK_1 << 8)
#define BB_RANK_3 (BB_RANK_1 << 16)
#define BB_RANK_4 (BB_RANK_1 << 24)
#define BB_RANK_5 (BB_RANK_1 << 32)
#define BB_RANK_6 (BB_RANK_1 << 40)
#define BB_RANK_7 (BB_RANK_1 << 48)
#define BB_RANK_8 (BB_RANK_1 << 56)
#define BB_LIGHT_SQUARES 0x55AA55AA55AA55AAULL
#define BB_DARK_SQUARES 0xAA55AA55AA55AA55ULL

static inline Bitboard bb_square(Square s) { return 1ULL << s; }
static inline Bitboard bb_file(int file) { return BB_FILE_A << file; }
static inline Bitboard bb_rank(int rank) { return BB_RANK_1 << (8 * rank); }
static inline int bb_count(Bitboard b) { return __builtin_popcountll(b); }
static inline Square bb_lsb(Bitboard b) { return __builtin_ctzll(b); }
static inline Square bb_msb(Bitboard b) { return 63 ^ __builtin_clzll(b); }
static inline Square bb_pop(Bitboard *b) {
    Square s = bb_lsb(*b);
    *b &= *b - 1;
    return s;
}
static inline bool bb_several(Bitboard b) { return (b & (b - 1)) != 0; }
static inline bool bb_has(Bitboard b, Square s) { return (b >> s) & 1; }

static inline Bitboard bb_north(Bitboard b) { return b << 8; }
static inline Bitboard bb_south(Bitboard b) { return b >> 8; }
static inline Bitboard bb_east(Bitboard b) { return (b & ~BB_FILE_H) << 1; }
static inline Bitboard bb_west(Bitboard b) { return (b & ~BB_FILE_A) >> 1; }
// One step towards the opponent for the given side.
static inline Bitboard bb_forward(Color c, Bitboard b) { return c == WHITE ? b << 8 : b >> 8; }

// Squares attacked by all pawns of colour c in b.
static inline Bitboard bb_pawn_attacks(Color c, Bitboard b) {
    return c == WHITE ? ((b & ~BB_FILE_A) << 7) | ((b & ~BB_FILE_H) << 9)
                      : ((b & ~BB_FILE_A) >> 9) | ((b & ~BB_FILE_H) >> 7);
}

#endif
