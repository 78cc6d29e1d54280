// SPDX-License-Identifier: GPL-3.0-or-later
// Legal move generation by check and pin masks. One generator body serves
// every stage; the stage is a compile-time constant in each caller, so the
// compiler specialises it. Counting uses the same masks with popcounts.
#include "engine/movegen.h"

enum { GEN_NOISY = 1, GEN_QUIET = 2, GEN_ALL = 3 };

#define ALWAYS_INLINE inline __attribute__((always_inline))

// What every generator needs to know about the side to move's situation.
typedef struct Situation {
    Color us, them;
    Square ksq;
    Bitboard occ, own, enemy;
    Bitboard checkmask; // destinations that resolve a single check (all when not in check)
    Bitboard pinned;    // our pieces pinned to our king
    Bitboard danger;    // squares the enemy attacks with our king removed
} Situation;

static ALWAYS_INLINE Bitboard pinned_pieces(const Board *b, Color us, Square ksq, Bitboard occ) {
    Color them = !us;
    Bitboard snipers = ((attacks_rook(ksq, 0) & (b->pieces[ROOK] | b->pieces[QUEEN])) |
                        (attacks_bishop(ksq, 0) & (b->pieces[BISHOP] | b->pieces[QUEEN]))) &
                       b->colors[them];
    Bitboard pinned = 0;
    while (snipers) {
        Bitboard between = attacks_between(ksq, bb_pop(&snipers)) & occ;
        if (between && !bb_several(between))
            pinned |= between;
    }
    return pinned & b->colors[us];
}

static ALWAYS_INLINE Bitboard danger_map(const Board *b, Color them, Bitboard occ) {
    Bitboard mine = b->colors[them];
    Bitboard att = bb_pawn_attacks(them, b->pieces[PAWN] & mine);
    Bitboard bb = b->pieces[KNIGHT] & mine;
    while (bb)
        att |= attacks_knight(bb_pop(&bb));
    bb = (b->pieces[BISHOP] | b->pieces[QUEEN]) & mine;
    while (bb)
        att |= attacks_bishop(bb_pop(&bb), occ);
    bb = (b->pieces[ROOK] | b->pieces[QUEEN]) & mine;
    while (bb)
        att |= attacks_rook(bb_pop(&bb), occ);
    return att | attacks_king(bb_lsb(b->pieces[KING] & mine));
}

static ALWAYS_INLINE void situation(const Board *b, Situation *s) {
    s->us = b->side;
    s->them = !b->side;
    s->ksq = board_king(b, s->us);
    s->occ = board_occupied(b);
    s->own = b->colors[s->us];
    s->enemy = b->colors[s->them];
    s->danger = danger_map(b, s->them, s->occ ^ bb_square(s->ksq));
    if (b->checkers)
        s->checkmask = bb_several(b->checkers)
                           ? 0
                           : attacks_between(s->ksq, bb_lsb(b->checkers)) | b->checkers;
    else
        s->checkmask = ~0ULL;
    s->pinned = pinned_pieces(b, s->us, s->ksq, s->occ);
}

// True when capturing en passant from `from` leaves our king safe.
static ALWAYS_INLINE bool ep_is_legal(const Board *b, const Situation *s, Square from) {
    Square to = b->ep;
    Square victim = to + (s->us == WHITE ? -8 : 8);
    Bitboard occ = (s->occ ^ bb_square(from) ^ bb_square(victim)) | bb_square(to);
    Bitboard attackers = (attacks_bishop(s->ksq, occ) & (b->pieces[BISHOP] | b->pieces[QUEEN])) |
                         (attacks_rook(s->ksq, occ) & (b->pieces[ROOK] | b->pieces[QUEEN])) |
                         (attacks_knight(s->ksq) & b->pieces[KNIGHT]) |
                         (attacks_pawn(s->us, s->ksq) & b->pieces[PAWN] & ~bb_square(victim));
    return !(attackers & s->enemy);
}

// Castling by right i (castle_index), by the Chess960 rule, which standard
// chess obeys too: the squares the king and the rook cross or land on are
// empty but for those two, the king is not in check and crosses or lands on
// no attacked square. The danger map sees the rook still on its square, so a
// rook that stood between the king's destination and an enemy rook or queen
// on the rank is looked at again (never for a rook in the corner).
// Whether castling by right i would uncover the king's destination to an
// enemy rook or queen on the rank; out of line, so that the generators keep
// only the common tests.
static __attribute__((noinline)) bool castle_uncovers(const Board *b, const Situation *s, int i) {
    Square kto = castle_king_to(i);
    Bitboard occ = (s->occ ^ bb_square(s->ksq) ^ bb_square(b->castle_rook[i])) | bb_square(kto) |
                   bb_square(castle_rook_to(i));
    return (attacks_rook(kto, occ) & s->enemy & (b->pieces[ROOK] | b->pieces[QUEEN])) != 0;
}

// The caller has checked that the king is not in check.
static ALWAYS_INLINE bool can_castle(const Board *b, const Situation *s, int i) {
    if (!(b->castling & (1 << i)) || (b->castle_path[i] & s->occ) ||
        (b->castle_kpath[i] & s->danger))
        return false;
    return !(b->castle_xray & (1 << i)) || !castle_uncovers(b, s, i);
}

static ALWAYS_INLINE Move *add_targets(Move *out, Square from, Bitboard targets) {
    while (targets)
        *out++ = move_make(from, bb_pop(&targets));
    return out;
}

static ALWAYS_INLINE Move *add_promotions(Move *out, Square from, Square to, int kind) {
    if (kind & GEN_NOISY) {
        *out++ = move_make_promotion(from, to, QUEEN);
        *out++ = move_make_promotion(from, to, ROOK);
        *out++ = move_make_promotion(from, to, BISHOP);
        *out++ = move_make_promotion(from, to, KNIGHT);
    }
    return out;
}

// Adds the pawn moves whose destinations are in `to_set`, each coming from
// destination minus `delta`.
static ALWAYS_INLINE Move *add_pawn_set(Move *out, Bitboard to_set, int delta, Bitboard promo_rank,
                                        int kind) {
    Bitboard promos = to_set & promo_rank;
    Bitboard plain = to_set & ~promo_rank;
    while (promos) {
        Square to = bb_pop(&promos);
        out = add_promotions(out, to - delta, to, kind);
    }
    while (plain) {
        Square to = bb_pop(&plain);
        *out++ = move_make(to - delta, to);
    }
    return out;
}

static ALWAYS_INLINE Move *gen_pawns(const Board *b, const Situation *s, Move *out, int kind) {
    Color us = s->us;
    Bitboard pawns = board_pieces(b, us, PAWN);
    Bitboard free_pawns = pawns & ~s->pinned;
    Bitboard empty = ~s->occ;
    Bitboard promo_rank = us == WHITE ? BB_RANK_8 : BB_RANK_1;
    Bitboard rank3 = us == WHITE ? BB_RANK_3 : BB_RANK_6;
    int up = us == WHITE ? 8 : -8;
    int up_left = us == WHITE ? 7 : -9;  // towards the a-file
    int up_right = us == WHITE ? 9 : -7; // towards the h-file

    Bitboard push1 = bb_forward(us, free_pawns) & empty;
    Bitboard push2 = bb_forward(us, push1 & rank3) & empty;
    Bitboard capl =
        (us == WHITE ? (free_pawns & ~BB_FILE_A) << 7 : (free_pawns & ~BB_FILE_A) >> 9) & s->enemy &
        s->checkmask;
    Bitboard capr =
        (us == WHITE ? (free_pawns & ~BB_FILE_H) << 9 : (free_pawns & ~BB_FILE_H) >> 7) & s->enemy &
        s->checkmask;
    push1 &= s->checkmask;
    push2 &= s->checkmask;

    if (kind & GEN_NOISY) {
        out = add_pawn_set(out, capl, up_left, promo_rank, kind);
        out = add_pawn_set(out, capr, up_right, promo_rank, kind);
        out = add_pawn_set(out, push1 & promo_rank, up, promo_rank, kind);
    }
    if (kind & GEN_QUIET) {
        out = add_pawn_set(out, push1 & ~promo_rank, up, promo_rank, kind);
        out = add_pawn_set(out, push2, 2 * up, promo_rank, kind);
    }

    // Pinned pawns move only along the pin line.
    Bitboard pinned_pawns = pawns & s->pinned;
    while (pinned_pawns) {
        Square from = bb_pop(&pinned_pawns);
        Bitboard allowed = attacks_line(s->ksq, from) & s->checkmask;
        Bitboard one = bb_forward(us, bb_square(from)) & empty;
        Bitboard two = bb_forward(us, one & rank3) & empty;
        Bitboard caps = attacks_pawn(us, from) & s->enemy & allowed;
        Bitboard pushes = (one | two) & allowed;
        Bitboard targets = 0;
        if (kind & GEN_NOISY)
            targets |= caps | (pushes & promo_rank);
        if (kind & GEN_QUIET)
            targets |= pushes & ~promo_rank;
        while (targets) {
            Square to = bb_pop(&targets);
            if (bb_has(promo_rank, to))
                out = add_promotions(out, from, to, kind);
            else
                *out++ = move_make(from, to);
        }
    }

    if ((kind & GEN_NOISY) && b->ep != SQ_NONE) {
        Bitboard capturers = attacks_pawn(s->them, b->ep) & pawns;
        while (capturers) {
            Square from = bb_pop(&capturers);
            if (ep_is_legal(b, s, from))
                *out++ = move_make_kind(from, b->ep, MOVE_EN_PASSANT);
        }
    }
    return out;
}

static ALWAYS_INLINE void generate(const Board *b, MoveList *list, int kind) {
    Situation s;
    situation(b, &s);
    Move *out = list->moves;
    Bitboard target_mask = 0;
    if (kind & GEN_NOISY)
        target_mask |= s.enemy;
    if (kind & GEN_QUIET)
        target_mask |= ~s.occ;

    out = add_targets(out, s.ksq, attacks_king(s.ksq) & ~s.danger & target_mask);
    if (!bb_several(b->checkers)) {
        if ((kind & GEN_QUIET) && !b->checkers) {
            int i = castle_index(s.us, true);
            if (can_castle(b, &s, i))
                *out++ = move_make_kind(s.ksq, castle_king_to(i), MOVE_CASTLING);
            if (can_castle(b, &s, i + 1))
                *out++ = move_make_kind(s.ksq, castle_king_to(i + 1), MOVE_CASTLING);
        }
        out = gen_pawns(b, &s, out, kind);
        Bitboard mask = target_mask & s.checkmask;
        Bitboard bb = board_pieces(b, s.us, KNIGHT) & ~s.pinned;
        while (bb) {
            Square from = bb_pop(&bb);
            out = add_targets(out, from, attacks_knight(from) & mask);
        }
        bb = s.own & (b->pieces[BISHOP] | b->pieces[ROOK] | b->pieces[QUEEN]);
        while (bb) {
            Square from = bb_pop(&bb);
            Bitboard targets = attacks_piece(piece_type(b->squares[from]), from, s.occ) & mask;
            if (bb_has(s.pinned, from))
                targets &= attacks_line(s.ksq, from);
            out = add_targets(out, from, targets);
        }
    }
    list->count = (int)(out - list->moves);
}

void movegen_legal(const Board *b, MoveList *list) {
    generate(b, list, GEN_ALL);
}
void movegen_noisy(const Board *b, MoveList *list) {
    generate(b, list, GEN_NOISY);
}
void movegen_quiet(const Board *b, MoveList *list) {
    generate(b, list, GEN_QUIET);
}

int movegen_count(const Board *b) {
    Situation s;
    situation(b, &s);
    int n = bb_count(attacks_king(s.ksq) & ~s.danger & ~s.own);
    if (bb_several(b->checkers))
        return n;
    Color us = s.us;
    Bitboard mask = ~s.own & s.checkmask;

    if (!b->checkers && (b->castling & (us == WHITE ? CASTLE_WK | CASTLE_WQ : CASTLE_BK | CASTLE_BQ)))
        n += can_castle(b, &s, castle_index(us, true)) + can_castle(b, &s, castle_index(us, false));

    Bitboard pawns = board_pieces(b, us, PAWN);
    Bitboard free_pawns = pawns & ~s.pinned;
    Bitboard empty = ~s.occ;
    Bitboard promo_rank = us == WHITE ? BB_RANK_8 : BB_RANK_1;
    Bitboard rank3 = us == WHITE ? BB_RANK_3 : BB_RANK_6;
    Bitboard push1 = bb_forward(us, free_pawns) & empty;
    Bitboard push2 = bb_forward(us, push1 & rank3) & empty & s.checkmask;
    push1 &= s.checkmask;
    Bitboard capl =
        (us == WHITE ? (free_pawns & ~BB_FILE_A) << 7 : (free_pawns & ~BB_FILE_A) >> 9) & s.enemy &
        s.checkmask;
    Bitboard capr =
        (us == WHITE ? (free_pawns & ~BB_FILE_H) << 9 : (free_pawns & ~BB_FILE_H) >> 7) & s.enemy &
        s.checkmask;
    n += bb_count(push1) + bb_count(push2) + bb_count(capl) + bb_count(capr);
    n += 3 *
         (bb_count(push1 & promo_rank) + bb_count(capl & promo_rank) + bb_count(capr & promo_rank));

    Bitboard pinned_pawns = pawns & s.pinned;
    while (pinned_pawns) {
        Square from = bb_pop(&pinned_pawns);
        Bitboard allowed = attacks_line(s.ksq, from) & s.checkmask;
        Bitboard one = bb_forward(us, bb_square(from)) & empty;
        Bitboard two = bb_forward(us, one & rank3) & empty;
        Bitboard targets = (((one | two)) | (attacks_pawn(us, from) & s.enemy)) & allowed;
        n += bb_count(targets) + 3 * bb_count(targets & promo_rank);
    }
    if (b->ep != SQ_NONE) {
        Bitboard capturers = attacks_pawn(s.them, b->ep) & pawns;
        while (capturers)
            n += ep_is_legal(b, &s, bb_pop(&capturers));
    }

    Bitboard bb = board_pieces(b, us, KNIGHT) & ~s.pinned;
    while (bb)
        n += bb_count(attacks_knight(bb_pop(&bb)) & mask);
    bb = s.own & (b->pieces[BISHOP] | b->pieces[QUEEN]);
    while (bb) {
        Square from = bb_pop(&bb);
        Bitboard targets = attacks_bishop(from, s.occ) & mask;
        if (bb_has(s.pinned, from))
            targets &= attacks_line(s.ksq, from);
        n += bb_count(targets);
    }
    bb = s.own & (b->pieces[ROOK] | b->pieces[QUEEN]);
    while (bb) {
        Square from = bb_pop(&bb);
        Bitboard targets = attacks_rook(from, s.occ) & mask;
        if (bb_has(s.pinned, from))
            targets &= attacks_line(s.ksq, from);
        n += bb_count(targets);
    }
    return n;
}

bool movelist_contains(const MoveList *list, Move m) {
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m)
            return true;
    return false;
}

// Pseudo-legality of an arbitrary 16-bit value, then the same check and pin
// rules the generator applies.
bool movegen_is_legal(const Board *b, Move m) {
    Square from = move_from(m), to = move_to(m);
    if (m == MOVE_NONE || m == MOVE_NULL)
        return false;
    // Only promotions carry a promotion piece: any other bits there make a
    // value the generator never produces.
    if (move_kind(m) != MOVE_PROMOTION && (m >> 12) & 3)
        return false;
    Color us = b->side;
    Piece piece = (Piece)b->squares[from];
    if (piece == NO_PIECE || piece_color(piece) != us)
        return false;
    PieceType pt = piece_type(piece);
    int kind = move_kind(m);
    // Before the tests below: a Chess960 king may castle onto its own
    // square or its rook's.
    if (kind == MOVE_CASTLING) {
        if (pt != KING || relative_rank(us, to) != 0 || relative_rank(us, from) != 0 ||
            (square_file(to) != 6 && square_file(to) != 2))
            return false;
        Situation s;
        situation(b, &s);
        return !b->checkers && can_castle(b, &s, castle_index_of(m));
    }
    Bitboard own = b->colors[us];
    if (from == to || bb_has(own, to))
        return false;
    Bitboard occ = board_occupied(b);
    Bitboard promo_rank = us == WHITE ? BB_RANK_8 : BB_RANK_1;

    if (kind == MOVE_EN_PASSANT) {
        if (pt != PAWN || to != b->ep || !bb_has(attacks_pawn(us, from), to))
            return false;
        Situation s;
        situation(b, &s);
        return ep_is_legal(b, &s, from);
    }
    if (pt == PAWN) {
        if (bb_has(promo_rank, to) != (kind == MOVE_PROMOTION))
            return false;
        Bitboard one = bb_forward(us, bb_square(from)) & ~occ;
        Bitboard two = bb_forward(us, one & (us == WHITE ? BB_RANK_3 : BB_RANK_6)) & ~occ;
        Bitboard caps = attacks_pawn(us, from) & b->colors[!us];
        if (!bb_has(one | two | caps, to))
            return false;
    } else {
        if (kind != MOVE_NORMAL || !bb_has(attacks_piece(pt, from, occ), to))
            return false;
    }

    Square ksq = board_king(b, us);
    if (pt == KING)
        return !(board_attackers_to(b, to, occ ^ bb_square(from)) & b->colors[!us]);
    if (b->checkers) {
        if (bb_several(b->checkers))
            return false;
        if (!bb_has(attacks_between(ksq, bb_lsb(b->checkers)) | b->checkers, to))
            return false;
    }
    if (bb_has(pinned_pieces(b, us, ksq, occ), from))
        return bb_has(attacks_line(ksq, from), to);
    return true;
}

bool movegen_is_checkmate(const Board *b) {
    return b->checkers && movegen_count(b) == 0;
}
bool movegen_is_stalemate(const Board *b) {
    return !b->checkers && movegen_count(b) == 0;
}
