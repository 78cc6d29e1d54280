// SPDX-License-Identifier: GPL-3.0-or-later
// Precomputed attack tables: leapers by table, sliders by PEXT where the CPU
// has BMI2 and by magic multiplication otherwise, plus the between/line masks
// that legal move generation uses for checks and pins. The tables are filled
// once by attacks_init() and never change afterwards.
#ifndef ENGINE_ATTACKS_H
#define ENGINE_ATTACKS_H

#include "engine/bitboard.h"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

// One slider lookup: the relevant-occupancy mask, the table slice, and (for
// magic lookups) the multiplier and shift.
typedef struct SliderEntry {
    Bitboard mask;
    Bitboard magic;
    Bitboard *table;
    unsigned shift;
} SliderEntry;

// Fills every table. Idempotent and safe to call from several threads.
void attacks_init(void);

// Read-only after attacks_init(); accessed through the inline helpers below.
extern Bitboard attacks_knight_table[SQ_NB];
extern Bitboard attacks_king_table[SQ_NB];
extern Bitboard attacks_pawn_table[COLOR_NB][SQ_NB];
extern Bitboard attacks_between_table[SQ_NB][SQ_NB];
extern Bitboard attacks_line_table[SQ_NB][SQ_NB];
extern SliderEntry attacks_bishop_entries[SQ_NB];
extern SliderEntry attacks_rook_entries[SQ_NB];

static inline unsigned slider_index(const SliderEntry *e, Bitboard occ) {
#if defined(__BMI2__)
    return (unsigned)_pext_u64(occ, e->mask);
#else
    return (unsigned)(((occ & e->mask) * e->magic) >> e->shift);
#endif
}

static inline Bitboard attacks_knight(Square s) { return attacks_knight_table[s]; }
static inline Bitboard attacks_king(Square s) { return attacks_king_table[s]; }
static inline Bitboard attacks_pawn(Color c, Square s) { return attacks_pawn_table[c][s]; }
static inline Bitboard attacks_bishop(Square s, Bitboard occ) {
    const SliderEntry *e = &attacks_bishop_entries[s];
    return e->table[slider_index(e, occ)];
}
static inline Bitboard attacks_rook(Square s, Bitboard occ) {
    const SliderEntry *e = &attacks_rook_entries[s];
    return e->table[slider_index(e, occ)];
}
static inline Bitboard attacks_queen(Square s, Bitboard occ) {
    return attacks_bishop(s, occ) | attacks_rook(s, occ);
}
// Attacks of a non-pawn piece type from s.
static inline Bitboard attacks_piece(PieceType t, Square s, Bitboard occ) {
    switch (t) {
    case KNIGHT: return attacks_knight(s);
    case BISHOP: return attacks_bishop(s, occ);
    case ROOK: return attacks_rook(s, occ);
    case QUEEN: return attacks_queen(s, occ);
    case KING: return attacks_king(s);
    default: return 0;
    }
}
// Squares strictly between a and b when they share a line, else empty.
static inline Bitboard attacks_between(Square a, Square b) { return attacks_between_table[a][b]; }
// The whole line (edge to edge) through a and b when they share one, else empty.
static inline Bitboard attacks_line(Square a, Square b) { return attacks_line_table[a][b]; }

#endif
