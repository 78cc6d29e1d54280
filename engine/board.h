// SPDX-License-Identifier: GPL-3.0-or-later
// The position: bitboards by piece type and colour with a square-indexed
// mailbox alongside, the incremental Zobrist keys, make/unmake (makemove.c),
// attack and check queries, draw queries and the full consistency check.
//
// The board layer knows squares and pieces only: FEN text is in fen.h, move
// generation (and so mate and stalemate) in movegen.h. A Board holds no
// history: make fills an Undo record that the caller owns (the search's
// per-ply stack, a Line for a game) and unmake takes it back; repetition
// queries read the keys of earlier positions from the caller.
#ifndef ENGINE_BOARD_H
#define ENGINE_BOARD_H

#include "engine/attacks.h"

// What unmake needs to restore a ply: the caller keeps it between make and
// unmake (Stockfish's StateInfo, without the chaining).
typedef struct Undo {
    Key key;
    Key pawn_key;
    Bitboard checkers;
    Move move;
    Move last_move;   // the board's last_move before this ply
    uint8_t captured; // Piece, NO_PIECE when nothing was taken
    uint8_t castling;
    uint8_t ep; // Square or SQ_NONE
    uint16_t halfmove;
} Undo;

// A position, a couple of hundred bytes: copy it freely.
typedef struct Board {
    Bitboard pieces[PIECE_TYPE_NB]; // by type, both colours
    Bitboard colors[COLOR_NB];
    uint8_t squares[SQ_NB]; // Piece or NO_PIECE
    Color side;
    uint8_t castling; // CASTLE_* bits
    // En-passant target square, set only when a legal en-passant capture
    // exists, so that equal positions have equal keys.
    uint8_t ep;
    uint16_t halfmove; // plies since the last capture or pawn move
    uint16_t fullmove;
    Key key;
    Key pawn_key;      // pawns and kings only, for the pawn hash
    Bitboard checkers; // pieces giving check to the side to move
    // Not part of the position (equal positions may differ here): the move
    // that led to it, MOVE_NONE after a set-up, for display and for the
    // book's en-passant rule.
    Move last_move;
    // Castling as Chess960 defines it, standard chess being one of its 960
    // starts. Set up with the rights (board_setup_castling) and constant for
    // the game, so make/unmake only read them. Right i is bit i of castling
    // (CASTLE_WK = bit 0 ... CASTLE_BQ = bit 3).
    bool chess960;               // a Chess960 game: castling written as king takes rook
    uint8_t castle_rook[4];      // the rook's home square for right i
    uint8_t castle_xray;         // rights whose rook may shield the king's destination
    uint8_t castle_clear[SQ_NB]; // rights lost when a move leaves or reaches the square
    Bitboard castle_path[4];     // must be empty, the king and that rook excepted
    Bitboard castle_kpath[4];    // the king crosses or lands on: must not be attacked
} Board;

// Fills the static tables (attacks, Zobrist). Idempotent and thread-safe;
// every other board_ function assumes it has run.
void board_init_tables(void);

// Fills the castle_ fields from b->castling, b->castle_rook and the kings'
// squares: call after setting the rights (the FEN reader does).
void board_setup_castling(Board *b);
// The index (0-3) of the castling right of colour c on one side.
static inline int castle_index(Color c, bool kingside) {
    return c * 2 + !kingside;
}
// Where the king and the rook of right i end: g1/f1, c1/d1 and the same on rank 8.
static inline Square castle_king_to(int i) {
    return (i & 1 ? SQ_C1 : SQ_G1) ^ (i & 2 ? 56 : 0);
}
static inline Square castle_rook_to(int i) {
    return (i & 1 ? SQ_D1 : SQ_F1) ^ (i & 2 ? 56 : 0);
}
// The right a castling move (king from its square to g or c) uses.
static inline int castle_index_of(Move m) {
    return castle_index(square_rank(move_to(m)) ? BLACK : WHITE, square_file(move_to(m)) == 6);
}

// Makes a legal move (see movegen_is_legal), filling *u for the unmake.
void board_make_move(Board *b, Move m, Undo *u);
// Takes back the move recorded in u, which must be the last one made on b.
void board_unmake_move(Board *b, const Undo *u);
// The key of the position after m, but for what few moves change besides the piece that
// moves, what it takes and the side to move: the rook of a castling, castling rights the
// move takes away, a new en passant square, the pawn taken en passant. Enough to fetch
// the table's bucket into the cache before the move is made; board_make_move computes the
// exact key.
Key board_key_after(const Board *b, Move m);
// Passes the turn (for null-move pruning); never while in check.
void board_make_null(Board *b, Undo *u);
void board_unmake_null(Board *b, const Undo *u);
// Makes a legal move for good, when no unmake will follow.
static inline void board_play(Board *b, Move m) {
    Undo u;
    board_make_move(b, m, &u);
}

static inline Piece board_piece_on(const Board *b, Square s) {
    return (Piece)b->squares[s];
}
static inline Bitboard board_occupied(const Board *b) {
    return b->colors[WHITE] | b->colors[BLACK];
}
static inline Bitboard board_pieces(const Board *b, Color c, PieceType t) {
    return b->pieces[t] & b->colors[c];
}
static inline Square board_king(const Board *b, Color c) {
    return bb_lsb(b->pieces[KING] & b->colors[c]);
}
static inline bool board_in_check(const Board *b) {
    return b->checkers != 0;
}
// The move that led to the current position, MOVE_NONE after a set-up.
static inline Move board_last_move(const Board *b) {
    return b->last_move;
}

// Pieces of both colours that attack s, given the occupancy occ.
Bitboard board_attackers_to(const Board *b, Square s, Bitboard occ);
bool board_square_attacked(const Board *b, Square s, Color by);
// True when the move captures something (en passant included).
bool board_is_capture(const Board *b, Move m);
// The piece the move captures (the pawn for en passant), NO_PIECE if none.
Piece board_captured_piece(const Board *b, Move m);
// True when the move gives check (computed without making it).
bool board_gives_check(const Board *b, Move m);

// Key computed from scratch; equals b->key when the board is consistent.
Key board_compute_key(const Board *b);
Key board_compute_pawn_key(const Board *b);

// Repetitions are counted against keys held by the caller: keys[0..n-1] are
// the keys of the positions before b, oldest first, keys[n-1] the one just
// before the last move (a Line's keys, or the search's stack chained to them).
//
// How many times the current position occurred before (same pieces, side to
// move, castling rights and capturable en-passant square).
int board_repetitions(const Board *b, const Key *keys, int n);
// True when the position occurred before since the search root (the last
// plies_since_root keys), or at least twice before in all: the test the
// search uses to score a draw.
bool board_is_repetition_draw(const Board *b, const Key *keys, int n, int plies_since_root);
// Neither side can mate by any sequence of legal moves: K v K, K+minor v K,
// and positions whose only other pieces are bishops on one square colour.
bool board_insufficient_material(const Board *b);
// Full consistency check of every redundant field (mailbox against bitboards,
// kings, keys, checkers, counters). Returns false and writes the reason.
bool board_check(const Board *b, char *err, size_t errsz);
static inline bool board_is_consistent(const Board *b) {
    return board_check(b, NULL, 0);
}

// Square names: "e4". square_from_name returns SQ_NONE on bad input.
void square_name(Square s, char out[3]);
Square square_from_name(const char *s);

#endif
