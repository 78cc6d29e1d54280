// SPDX-License-Identifier: GPL-3.0-or-later
// Making and unmaking moves: incremental bitboards, mailbox and keys. The
// caller owns the undo record of each ply. Also board_gives_check, which
// answers the rare move kinds by making the move.
#include <assert.h>

#include "engine/board.h"
#include "engine/zobrist.h"

static inline void put_piece(Board *b, Piece p, Square s) {
    Bitboard bb = bb_square(s);
    b->pieces[piece_type(p)] |= bb;
    b->colors[piece_color(p)] |= bb;
    b->squares[s] = (uint8_t)p;
}

static inline void remove_piece(Board *b, Piece p, Square s) {
    Bitboard bb = bb_square(s);
    b->pieces[piece_type(p)] ^= bb;
    b->colors[piece_color(p)] ^= bb;
    b->squares[s] = NO_PIECE;
}

static inline void move_piece(Board *b, Piece p, Square from, Square to) {
    Bitboard bb = bb_square(from) | bb_square(to);
    b->pieces[piece_type(p)] ^= bb;
    b->colors[piece_color(p)] ^= bb;
    b->squares[from] = NO_PIECE;
    b->squares[to] = (uint8_t)p;
}

// Castling lifts the king and the rook before putting them down: in Chess960
// either may land where the other stood, or stay where it is.
static inline void castle_pieces(Board *b, Color us, Square kfrom, Square kto, Square rfrom,
                                 Square rto) {
    Piece king = make_piece(us, KING), rook = make_piece(us, ROOK);
    remove_piece(b, king, kfrom);
    remove_piece(b, rook, rfrom);
    put_piece(b, king, kto);
    put_piece(b, rook, rto);
}

// After a double push, the en-passant square counts only if the opponent can
// really capture there: a pawn beside it whose capture is legal.
static bool ep_capture_legal(const Board *b, Square ep) {
    Color us = b->side, them = !us;
    Bitboard capturers = attacks_pawn(them, ep) & board_pieces(b, us, PAWN);
    if (!capturers)
        return false;
    Square ksq = board_king(b, us);
    Square victim = ep + (us == WHITE ? -8 : 8);
    Bitboard occ_base = board_occupied(b) ^ bb_square(victim) ^ bb_square(ep);
    Bitboard diag = b->pieces[BISHOP] | b->pieces[QUEEN];
    Bitboard orth = b->pieces[ROOK] | b->pieces[QUEEN];
    while (capturers) {
        Square from = bb_pop(&capturers);
        Bitboard occ = occ_base ^ bb_square(from);
        Bitboard attackers = (attacks_bishop(ksq, occ) & diag) | (attacks_rook(ksq, occ) & orth) |
                             (attacks_knight(ksq) & b->pieces[KNIGHT]) |
                             (attacks_pawn(us, ksq) & b->pieces[PAWN] & ~bb_square(victim));
        if (!(attackers & b->colors[them]))
            return true;
    }
    return false;
}

Key board_key_after(const Board *b, Move m) {
    Square from = move_from(m), to = move_to(m);
    Piece piece = (Piece)b->squares[from], captured = (Piece)b->squares[to];
    Key key = b->key ^ zobrist_side ^ zobrist_piece[piece][from] ^ zobrist_piece[piece][to];
    if (captured != NO_PIECE && move_kind(m) != MOVE_CASTLING)
        key ^= zobrist_piece[captured][to];
    if (move_kind(m) == MOVE_PROMOTION)
        key ^= zobrist_piece[piece][to] ^ zobrist_piece[make_piece(b->side, move_promotion(m))][to];
    if (b->ep != SQ_NONE)
        key ^= zobrist_ep_file[square_file(b->ep)];
    return key;
}

void board_make_move(Board *b, Move m, Undo *u) {
    u->key = b->key;
    u->pawn_key = b->pawn_key;
    u->checkers = b->checkers;
    u->move = m;
    u->last_move = b->last_move;
    u->castling = b->castling;
    u->ep = b->ep;
    u->halfmove = b->halfmove;

    Color us = b->side, them = !us;
    Square from = move_from(m), to = move_to(m);
    Piece piece = (Piece)b->squares[from];
    Piece captured = (Piece)b->squares[to];
    int kind = move_kind(m);
    Key key = b->key ^ zobrist_side;

    if (b->ep != SQ_NONE) {
        key ^= zobrist_ep_file[square_file(b->ep)];
        b->ep = SQ_NONE;
    }
    b->halfmove++;
    if (us == BLACK)
        b->fullmove++;

    if (kind == MOVE_CASTLING) {
        int i = castle_index_of(m);
        Square rfrom = b->castle_rook[i], rto = castle_rook_to(i);
        Piece rook = make_piece(us, ROOK);
        castle_pieces(b, us, from, to, rfrom, rto);
        key ^= zobrist_piece[piece][from] ^ zobrist_piece[piece][to] ^ zobrist_piece[rook][rfrom] ^
               zobrist_piece[rook][rto];
        b->pawn_key ^= zobrist_piece[piece][from] ^ zobrist_piece[piece][to];
        captured = NO_PIECE;
    } else {
        if (kind == MOVE_EN_PASSANT) {
            Square victim = to + (us == WHITE ? -8 : 8);
            captured = make_piece(them, PAWN);
            remove_piece(b, captured, victim);
            key ^= zobrist_piece[captured][victim];
            b->pawn_key ^= zobrist_piece[captured][victim];
        } else if (captured != NO_PIECE) {
            remove_piece(b, captured, to);
            key ^= zobrist_piece[captured][to];
            if (piece_type(captured) == PAWN)
                b->pawn_key ^= zobrist_piece[captured][to];
        }
        if (captured != NO_PIECE)
            b->halfmove = 0;

        move_piece(b, piece, from, to);
        key ^= zobrist_piece[piece][from] ^ zobrist_piece[piece][to];

        PieceType pt = piece_type(piece);
        if (pt == PAWN) {
            b->halfmove = 0;
            b->pawn_key ^= zobrist_piece[piece][from];
            if (kind == MOVE_PROMOTION) {
                Piece promo = make_piece(us, move_promotion(m));
                remove_piece(b, piece, to);
                put_piece(b, promo, to);
                key ^= zobrist_piece[piece][to] ^ zobrist_piece[promo][to];
            } else {
                b->pawn_key ^= zobrist_piece[piece][to];
                if ((to ^ from) == 16) {
                    Square ep = (from + to) / 2;
                    b->side = them; // the test below looks from the capturer's side
                    if (ep_capture_legal(b, ep)) {
                        b->ep = (uint8_t)ep;
                        key ^= zobrist_ep_file[square_file(ep)];
                    }
                }
            }
        } else if (pt == KING) {
            b->pawn_key ^= zobrist_piece[piece][from] ^ zobrist_piece[piece][to];
        }
    }

    uint8_t rights = b->castling & ~(b->castle_clear[from] | b->castle_clear[to]);
    if (rights != b->castling) {
        key ^= zobrist_castling_key(b->castle_rook, b->castling ^ rights);
        b->castling = rights;
    }

    u->captured = (uint8_t)captured;
    b->last_move = m;
    b->side = them;
    b->key = key;
    b->checkers = board_attackers_to(b, board_king(b, them), board_occupied(b)) & b->colors[us];
    assert(board_is_consistent(b));
}

void board_unmake_move(Board *b, const Undo *u) {
    Move m = u->move;
    Color them = b->side, us = !them;
    Square from = move_from(m), to = move_to(m);
    int kind = move_kind(m);

    if (kind == MOVE_CASTLING) {
        int i = castle_index_of(m);
        castle_pieces(b, us, to, from, castle_rook_to(i), b->castle_rook[i]);
    } else {
        Piece piece = (Piece)b->squares[to];
        if (kind == MOVE_PROMOTION) {
            remove_piece(b, piece, to);
            piece = make_piece(us, PAWN);
            put_piece(b, piece, to);
        }
        move_piece(b, piece, to, from);
        Piece captured = (Piece)u->captured;
        if (captured != NO_PIECE) {
            Square victim = kind == MOVE_EN_PASSANT ? to + (us == WHITE ? -8 : 8) : to;
            put_piece(b, captured, victim);
        }
    }

    b->side = us;
    b->key = u->key;
    b->pawn_key = u->pawn_key;
    b->checkers = u->checkers;
    b->castling = u->castling;
    b->ep = u->ep;
    b->halfmove = u->halfmove;
    b->last_move = u->last_move;
    if (us == BLACK)
        b->fullmove--;
    assert(board_is_consistent(b));
}

void board_make_null(Board *b, Undo *u) {
    assert(!b->checkers);
    u->key = b->key;
    u->pawn_key = b->pawn_key;
    u->checkers = b->checkers;
    u->move = MOVE_NULL;
    u->last_move = b->last_move;
    u->captured = NO_PIECE;
    u->castling = b->castling;
    u->ep = b->ep;
    u->halfmove = b->halfmove;

    b->key ^= zobrist_side;
    if (b->ep != SQ_NONE) {
        b->key ^= zobrist_ep_file[square_file(b->ep)];
        b->ep = SQ_NONE;
    }
    b->halfmove++;
    if (b->side == BLACK)
        b->fullmove++;
    b->side = !b->side;
    b->last_move = MOVE_NULL;
    assert(board_is_consistent(b));
}

void board_unmake_null(Board *b, const Undo *u) {
    b->side = !b->side;
    if (b->side == BLACK)
        b->fullmove--;
    b->key = u->key;
    b->pawn_key = u->pawn_key;
    b->checkers = u->checkers;
    b->ep = u->ep;
    b->halfmove = u->halfmove;
    b->castling = u->castling;
    b->last_move = u->last_move;
}

bool board_gives_check(const Board *b, Move m) {
    // Rare kinds are answered by making the move; the common case by looking
    // at direct attacks from the destination and discovered lines.
    int kind = move_kind(m);
    if (kind != MOVE_NORMAL) {
        Board after = *b;
        Undo u;
        board_make_move(&after, m, &u);
        return after.checkers != 0;
    }
    Color us = b->side;
    Square from = move_from(m), to = move_to(m);
    Square ksq = board_king(b, !us);
    PieceType pt = piece_type(b->squares[from]);
    Bitboard occ = (board_occupied(b) ^ bb_square(from)) | bb_square(to);
    if (pt == PAWN ? bb_has(attacks_pawn(us, to), ksq)
                   : pt != KING && bb_has(attacks_piece(pt, to, occ), ksq))
        return true;
    Bitboard own = b->colors[us] ^ bb_square(from);
    Bitboard sliders = ((attacks_bishop(ksq, occ) & (b->pieces[BISHOP] | b->pieces[QUEEN])) |
                        (attacks_rook(ksq, occ) & (b->pieces[ROOK] | b->pieces[QUEEN]))) &
                       own;
    return sliders != 0;
}
