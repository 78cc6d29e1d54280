// SPDX-License-Identifier: GPL-3.0-or-later
// Static exchange evaluation by the swap algorithm with a threshold, which
// lets it stop as soon as the outcome relative to the threshold is known.
#include "engine/see.h"

static const int see_values[PIECE_TYPE_NB] = {100, 325, 325, 500, 975, 20000};

int see_piece_value(PieceType t) { return see_values[t]; }

bool see_ge(const Board *b, Move m, int threshold) {
    int kind = move_kind(m);
    if (kind == MOVE_CASTLING)
        return threshold <= 0;
    Square from = move_from(m), to = move_to(m);
    int swap;
    if (kind == MOVE_EN_PASSANT)
        swap = see_values[PAWN] - threshold;
    else
        swap = (b->squares[to] == NO_PIECE ? 0 : see_values[piece_type(b->squares[to])]) - threshold;
    if (kind == MOVE_PROMOTION)
        swap += see_values[move_promotion(m)] - see_values[PAWN];
    if (swap < 0)
        return false;
    // Now assume the opponent recaptures the moving piece.
    PieceType moved = kind == MOVE_PROMOTION ? move_promotion(m) : piece_type(b->squares[from]);
    swap = see_values[moved] - swap;
    if (swap <= 0)
        return true;

    Bitboard occ = board_occupied(b) ^ bb_square(from);
    if (kind == MOVE_EN_PASSANT)
        occ ^= bb_square(to + (b->side == WHITE ? -8 : 8));
    occ |= bb_square(to);
    Bitboard attackers = board_attackers_to(b, to, occ) & occ;
    Bitboard diag = b->pieces[BISHOP] | b->pieces[QUEEN];
    Bitboard orth = b->pieces[ROOK] | b->pieces[QUEEN];
    Color stm = b->side;
    bool result = true;

    for (;;) {
        stm = !stm;
        attackers &= occ;
        Bitboard mine = attackers & b->colors[stm];
        if (!mine)
            break;
        result = !result;
        PieceType pt = PAWN;
        while (!(mine & b->pieces[pt]))
            pt++;
        if (pt == KING) {
            // The king may only take last: if the other side still has an
            // attacker, the capture is illegal and the side to move loses.
            return (attackers & b->colors[!stm]) ? !result : result;
        }
        Bitboard one = mine & b->pieces[pt];
        occ ^= one & -one;
        if (pt == PAWN || pt == BISHOP || pt == QUEEN)
            attackers |= attacks_bishop(to, occ) & diag;
        if (pt == ROOK || pt == QUEEN)
            attackers |= attacks_rook(to, occ) & orth;
        swap = see_values[pt] - swap;
        if (swap < result)
            break;
    }
    return result;
}
