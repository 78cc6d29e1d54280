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
    k ^= zobrist_castling[b->castling];
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
        } else if (p > NO_PIECE || !bb_has(b->pieces[piece_type(p)] & b->colors[piece_color(p)], s)) {
            return errmsg_set(err, errsz, "mailbox and bitboards disagree on square %d", s);
        }
    }
    for (Color c = WHITE; c <= BLACK; c++)
        if (bb_count(board_pieces(b, c, KING)) != 1)
            return errmsg_set(err, errsz, "side %d has %d kings", c, bb_count(board_pieces(b, c, KING)));
    if (b->pieces[PAWN] & (BB_RANK_1 | BB_RANK_8))
        return errmsg_set(err, errsz, "pawn on the first or last rank");
    if (b->key != board_compute_key(b))
        return errmsg_set(err, errsz, "incremental key differs from the computed key");
    if (b->pawn_key != board_compute_pawn_key(b))
        return errmsg_set(err, errsz, "incremental pawn key differs from the computed one");
    Bitboard checkers = board_attackers_to(b, board_king(b, b->side), board_occupied(b)) &
                        b->colors[!b->side];
    if (checkers != b->checkers)
        return errmsg_set(err, errsz, "checkers field is stale");
    if (board_attackers_to(b, board_king(b, !b->side), board_occupied(b)) & b->colors[b->side])
        return errmsg_set(err, errsz, "the side not to move is in check");
    static const struct { int right; Square king, rook; Color c; } rights[4] = {
        {CASTLE_WK, SQ_E1, SQ_H1, WHITE}, {CASTLE_WQ, SQ_E1, SQ_A1, WHITE},
        {CASTLE_BK, SQ_E8, SQ_H8, BLACK}, {CASTLE_BQ, SQ_E8, SQ_A8, BLACK}};
    for (int i = 0; i < 4; i++)
        if ((b->castling & rights[i].right) &&
            (b->squares[rights[i].king] != make_piece(rights[i].c, KING) ||
             b->squares[rights[i].rook] != make_piece(rights[i].c, ROOK)))
            return errmsg_set(err, errsz, "castling right without king and rook in place");
    if (b->ep != SQ_NONE && square_rank(b->ep) != (b->side == WHITE ? 5 : 2))
        return errmsg_set(err, errsz, "en-passant square on the wrong rank");
    return true;
}
