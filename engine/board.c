// SPDX-License-Identifier: GPL-3.0-or-later
// Board queries: attacks, keys, repetitions, material draws, and the
// consistency check used by debug builds. Nothing here makes moves,
// generates them or reads text.
#include "engine/board.h"

#include <stdio.h>
#include <string.h>

#include "engine/errmsg.h"
#include "engine/zobrist.h"

void board_init_tables(void) {
    attacks_init();
    zobrist_init();
}

void board_setup_castling(Board *b) {
    memset(b->castle_clear, 0, sizeof b->castle_clear);
    b->castle_xray = 0;
    for (int i = 0; i < 4; i++) {
        b->castle_path[i] = b->castle_kpath[i] = 0;
        if (!(b->castling & (1 << i)))
            continue;
        Color c = i & 2 ? BLACK : WHITE;
        Square k = board_king(b, c), r = b->castle_rook[i];
        Square kto = castle_king_to(i), rto = castle_rook_to(i);
        Bitboard kpath = k == kto ? 0 : attacks_between(k, kto) | bb_square(kto);
        Bitboard rpath = r == rto ? 0 : attacks_between(r, rto) | bb_square(rto);
        b->castle_kpath[i] = kpath;
        b->castle_path[i] = (kpath | rpath) & ~bb_square(k) & ~bb_square(r);
        // A rook off the corner may stand between the king's destination and
        // an enemy rook or queen on the rank, and uncover it by castling.
        if (square_file(r) != 0 && square_file(r) != 7)
            b->castle_xray |= (uint8_t)(1 << i);
        b->castle_clear[r] |= (uint8_t)(1 << i);
        b->castle_clear[k] |= (uint8_t)(c == WHITE ? CASTLE_WK | CASTLE_WQ : CASTLE_BK | CASTLE_BQ);
    }
}

Bitboard board_attackers_to(const Board *b, Square s, Bitboard occ) {
    return (attacks_pawn(WHITE, s) & b->pieces[PAWN] & b->colors[BLACK]) |
           (attacks_pawn(BLACK, s) & b->pieces[PAWN] & b->colors[WHITE]) |
           (attacks_knight(s) & b->pieces[KNIGHT]) |
           (attacks_bishop(s, occ) & (b->pieces[BISHOP] | b->pieces[QUEEN])) |
           (attacks_rook(s, occ) & (b->pieces[ROOK] | b->pieces[QUEEN])) |
           (attacks_king(s) & b->pieces[KING]);
}

bool board_square_attacked(const Board *b, Square s, Color by) {
    return (board_attackers_to(b, s, board_occupied(b)) & b->colors[by]) != 0;
}

bool board_is_capture(const Board *b, Move m) {
    return move_kind(m) == MOVE_EN_PASSANT ||
           (move_kind(m) != MOVE_CASTLING && b->squares[move_to(m)] != NO_PIECE);
}

Piece board_captured_piece(const Board *b, Move m) {
    if (move_kind(m) == MOVE_EN_PASSANT)
        return make_piece(!b->side, PAWN);
    if (move_kind(m) == MOVE_CASTLING)
        return NO_PIECE;
    return (Piece)b->squares[move_to(m)];
}

Key board_compute_key(const Board *b) {
    Key k = 0;
    for (Square s = 0; s < SQ_NB; s++)
        if (b->squares[s] != NO_PIECE)
            k ^= zobrist_piece[b->squares[s]][s];
    k ^= zobrist_castling_key(b->castle_rook, b->castling);
    if (b->ep != SQ_NONE)
        k ^= zobrist_ep_file[square_file(b->ep)];
    if (b->side == BLACK)
        k ^= zobrist_side;
    return k;
}

Key board_compute_pawn_key(const Board *b) {
    Key k = 0;
    Bitboard bb = b->pieces[PAWN] | b->pieces[KING];
    while (bb) {
        Square s = bb_pop(&bb);
        k ^= zobrist_piece[b->squares[s]][s];
    }
    return k;
}

// Earlier positions that can equal the current one: same side to move, and
// no irreversible move in between (the halfmove clock bounds the window).
static int repetition_window(const Board *b, int n) {
    return b->halfmove < n ? b->halfmove : n;
}

int board_repetitions(const Board *b, const Key *keys, int n) {
    int count = 0, window = repetition_window(b, n);
    for (int back = 4; back <= window; back += 2)
        if (keys[n - back] == b->key)
            count++;
    return count;
}

bool board_is_repetition_draw(const Board *b, const Key *keys, int n, int plies_since_root) {
    int count = 0, window = repetition_window(b, n);
    for (int back = 4; back <= window; back += 2) {
        if (keys[n - back] == b->key) {
            // A repetition inside the search tree is enough: the side that
            // could avoid it would have; one before the root must be the
            // second to make a threefold.
            if (back <= plies_since_root || ++count == 2)
                return true;
        }
    }
    return false;
}

bool board_insufficient_material(const Board *b) {
    if (b->pieces[PAWN] | b->pieces[ROOK] | b->pieces[QUEEN])
        return false;
    Bitboard minors = b->pieces[KNIGHT] | b->pieces[BISHOP];
    if (!bb_several(minors))
        return true; // K v K or K+minor v K
    if (b->pieces[KNIGHT])
        return false;
    // Only bishops: a draw when they all stand on squares of one colour.
    Bitboard bishops = b->pieces[BISHOP];
    return !(bishops & BB_LIGHT_SQUARES) || !(bishops & BB_DARK_SQUARES);
}

void square_name(Square s, char out[3]) {
    if (s < 0 || s >= SQ_NB) {
        out[0] = '-';
        out[1] = '\0';
        return;
    }
    out[0] = (char)('a' + square_file(s));
    out[1] = (char)('1' + square_rank(s));
    out[2] = '\0';
}

Square square_from_name(const char *s) {
    if (!s || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return SQ_NONE;
    return make_square(s[0] - 'a', s[1] - '1');
}

bool board_check(const Board *b, char *err, size_t errsz) {
    Bitboard seen = 0;
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        if (seen & b->pieces[t])
            return errmsg_set(err, errsz, "piece type bitboards overlap");
        seen |= b->pieces[t];
    }
    if (b->colors[WHITE] & b->colors[BLACK])
        return errmsg_set(err, errsz, "colour bitboards overlap");
    if (seen != board_occupied(b))
        return errmsg_set(err, errsz, "type and colour bitboards disagree");
    for (Square s = 0; s < SQ_NB; s++) {
        Piece p = (Piece)b->squares[s];
        if (p == NO_PIECE) {
            if (bb_has(seen, s))
                return errmsg_set(err, errsz, "mailbox empty but bitboard set on square %d", s);
        } else if (p > NO_PIECE ||
                   !bb_has(b->pieces[piece_type(p)] & b->colors[piece_color(p)], s)) {
            return errmsg_set(err, errsz, "mailbox and bitboards disagree on square %d", s);
        }
    }
    for (Color c = WHITE; c <= BLACK; c++)
        if (bb_count(board_pieces(b, c, KING)) != 1)
            return errmsg_set(err, errsz, "side %d has %d kings", c,
                              bb_count(board_pieces(b, c, KING)));
    if (b->pieces[PAWN] & (BB_RANK_1 | BB_RANK_8))
        return errmsg_set(err, errsz, "pawn on the first or last rank");
    if (b->key != board_compute_key(b))
        return errmsg_set(err, errsz, "incremental key differs from the computed key");
    if (b->pawn_key != board_compute_pawn_key(b))
        return errmsg_set(err, errsz, "incremental pawn key differs from the computed one");
    Bitboard checkers =
        board_attackers_to(b, board_king(b, b->side), board_occupied(b)) & b->colors[!b->side];
    if (checkers != b->checkers)
        return errmsg_set(err, errsz, "checkers field is stale");
    if (board_attackers_to(b, board_king(b, !b->side), board_occupied(b)) & b->colors[b->side])
        return errmsg_set(err, errsz, "the side not to move is in check");
    for (int i = 0; i < 4; i++) {
        if (!(b->castling & (1 << i)))
            continue;
        Color c = i & 2 ? BLACK : WHITE;
        Square k = board_king(b, c), r = b->castle_rook[i];
        bool kingside = !(i & 1);
        if (r >= SQ_NB || b->squares[r] != make_piece(c, ROOK) || relative_rank(c, k) != 0 ||
            square_rank(r) != square_rank(k) || (square_file(r) > square_file(k)) != kingside ||
            !(b->castle_clear[k] & (1 << i)) || !(b->castle_clear[r] & (1 << i)))
            return errmsg_set(err, errsz, "castling right without king and rook in place");
    }
    if (b->ep != SQ_NONE && square_rank(b->ep) != (b->side == WHITE ? 5 : 2))
        return errmsg_set(err, errsz, "en-passant square on the wrong rank");
    return true;
}
