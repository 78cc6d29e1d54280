// SPDX-License-Identifier: GPL-3.0-or-later
// Scalar types shared by the whole engine: squares, colours, pieces, moves and
// the limits every other module sizes its arrays by.
#ifndef ENGINE_TYPES_H
#define ENGINE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t Bitboard;
typedef uint64_t Key;

enum { MAX_MOVES = 256, MAX_PLY = 128 };

// Scores in centipawns. Mate in n plies from the root scores VALUE_MATE - n;
// every evaluation stays strictly inside +-VALUE_EVAL_MAX so the two never mix.
enum {
    VALUE_DRAW = 0,
    VALUE_EVAL_MAX = 20000,
    VALUE_MATE = 32000,
    VALUE_INFINITE = 32001,
    VALUE_NONE = 32002,
    VALUE_MATE_IN_MAX = VALUE_MATE - MAX_PLY,
    VALUE_MATED_IN_MAX = -VALUE_MATE_IN_MAX,
};

// Squares run a1=0, b1=1 ... h8=63; SQ_NONE marks "no square".
typedef int Square;
enum { SQ_A1 = 0, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
       SQ_A8 = 56, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
       SQ_NB = 64, SQ_NONE = 64 };

typedef enum { WHITE = 0, BLACK = 1, COLOR_NB = 2 } Color;

typedef enum {
    PAWN = 0, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB, NO_PIECE_TYPE = PIECE_TYPE_NB
} PieceType;

// A piece is its type and colour packed as type * 2 + colour, so that the
// colour is the low bit and the type a shift away.
typedef enum {
    W_PAWN = 0, B_PAWN, W_KNIGHT, B_KNIGHT, W_BISHOP, B_BISHOP,
    W_ROOK, B_ROOK, W_QUEEN, B_QUEEN, W_KING, B_KING, PIECE_NB, NO_PIECE = PIECE_NB
} Piece;

// Castling rights, one bit each.
enum { CASTLE_WK = 1, CASTLE_WQ = 2, CASTLE_BK = 4, CASTLE_BQ = 8, CASTLE_ALL = 15 };

static inline Piece make_piece(Color c, PieceType t) { return (Piece)(t * 2 + c); }
static inline PieceType piece_type(Piece p) { return (PieceType)(p >> 1); }
static inline Color piece_color(Piece p) { return (Color)(p & 1); }
static inline int square_file(Square s) { return s & 7; }
static inline int square_rank(Square s) { return s >> 3; }
static inline Square make_square(int file, int rank) { return rank * 8 + file; }
// The same square seen from Black's side of the board (a1 <-> a8).
static inline Square square_mirror(Square s) { return s ^ 56; }
// A rank counted from the given side: rank 0 is White's first rank or Black's eighth.
static inline int relative_rank(Color c, Square s) { return c == WHITE ? s >> 3 : 7 - (s >> 3); }

// A move in 16 bits:
//   bits  0-5   origin square
//   bits  6-11  destination square (castling: the king's destination, e1g1,
//               which in Chess960 may be its own square or the rook's)
//   bits 12-13  promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen
//   bits 14-15  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
// MOVE_NONE (a1a1) and MOVE_NULL (b1b1) can never be real moves.
typedef uint16_t Move;
enum { MOVE_NONE = 0, MOVE_NULL = 65 };
enum { MOVE_NORMAL = 0, MOVE_PROMOTION = 1, MOVE_EN_PASSANT = 2, MOVE_CASTLING = 3 };

static inline Move move_make(Square from, Square to) { return (Move)(from | (to << 6)); }
static inline Move move_make_kind(Square from, Square to, int kind) {
    return (Move)(from | (to << 6) | (kind << 14));
}
static inline Move move_make_promotion(Square from, Square to, PieceType promo) {
    return (Move)(from | (to << 6) | ((promo - KNIGHT) << 12) | (MOVE_PROMOTION << 14));
}
static inline Square move_from(Move m) { return m & 63; }
static inline Square move_to(Move m) { return (m >> 6) & 63; }
static inline int move_kind(Move m) { return m >> 14; }
static inline PieceType move_promotion(Move m) { return (PieceType)(((m >> 12) & 3) + KNIGHT); }
static inline bool move_is_promotion(Move m) { return move_kind(m) == MOVE_PROMOTION; }

#endif
