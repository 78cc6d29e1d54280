// SPDX-License-Identifier: GPL-3.0-or-later
// The staged move picker.
#include "engine/movepick.h"

#include "engine/see.h"

enum {
    STAGE_TT,
    STAGE_GEN_NOISY,
    STAGE_GOOD_NOISY,
    STAGE_KILLER1,
    STAGE_KILLER2,
    STAGE_COUNTER,
    STAGE_GEN_QUIET,
    STAGE_QUIET,
    STAGE_BAD_NOISY,
    STAGE_DONE,
    // Quiescence outside check.
    STAGE_QS_TT,
    STAGE_QS_GEN,
    STAGE_QS_NOISY,
};

static const int victim_value[PIECE_TYPE_NB + 1] = {100, 320, 330, 500, 950, 0, 0};

void movepick_init(MovePicker *mp, const Board *b, const Histories *h, Move tt_move,
                   const Move killers[2], Move counter, const ContRows *cont) {
    mp->b = b;
    mp->h = h;
    mp->cont = cont ? *cont : (ContRows){0};
    mp->stage = STAGE_TT;
    mp->tt_move = movegen_is_legal(b, tt_move) ? tt_move : MOVE_NONE;
    mp->killers[0] = killers ? killers[0] : MOVE_NONE;
    mp->killers[1] = killers ? killers[1] : MOVE_NONE;
    mp->counter = counter;
    mp->bad_count = mp->bad_index = 0;
    mp->noisy_only = false;
    if (mp->tt_move == MOVE_NONE)
        mp->stage = STAGE_GEN_NOISY;
}

void movepick_init_qsearch(MovePicker *mp, const Board *b, const Histories *h, Move tt_move) {
    if (b->checkers) {
        static const Move none[2] = {MOVE_NONE, MOVE_NONE};
        movepick_init(mp, b, h, tt_move, none, MOVE_NONE, NULL);
        return;
    }
    mp->b = b;
    mp->h = h;
    mp->cont = (ContRows){0};
    mp->killers[0] = mp->killers[1] = mp->counter = MOVE_NONE;
    mp->bad_count = mp->bad_index = 0;
    mp->noisy_only = true;
    mp->tt_move = MOVE_NONE;
    if (tt_move != MOVE_NONE && movegen_is_legal(b, tt_move) &&
        (board_is_capture(b, tt_move) || move_is_promotion(tt_move)))
        mp->tt_move = tt_move;
    mp->stage = mp->tt_move ? STAGE_QS_TT : STAGE_QS_GEN;
}

static bool is_noisy(const Board *b, Move m) {
    return board_is_capture(b, m) || move_is_promotion(m);
}

// The victim's value first, then what captures of this kind have done
// before (the history moves a capture by up to about a pawn's worth).
static void score_noisy(MovePicker *mp) {
    const Board *b = mp->b;
    for (int i = 0; i < mp->list.count; i++) {
        Move m = mp->list.moves[i];
        Piece victim = board_captured_piece(b, m);
        int score = victim_value[victim == NO_PIECE ? PIECE_TYPE_NB : piece_type(victim)] * 16 +
                    history_capture_score(mp->h, b, m) / 8;
        if (move_is_promotion(m))
            score += move_promotion(m) == QUEEN ? 8000 : -8000;
        mp->scores[i] = score;
    }
}

// Squares the opponent attacks with a pawn, with a pawn or minor piece, and with
// anything up to a rook: where a piece of ours of more value stands in danger.
typedef struct Threats {
    Bitboard by_pawn, by_minor, by_rook;
} Threats;

static Bitboard attacks_of(const Board *b, Color c, PieceType t, Bitboard occ) {
    Bitboard att = 0, pieces = board_pieces(b, c, t);
    while (pieces)
        att |= attacks_piece(t, bb_pop(&pieces), occ);
    return att;
}

static Threats threats_against(const Board *b, Color us) {
    Color them = (Color)!us;
    Bitboard occ = board_occupied(b);
    Threats t;
    t.by_pawn = bb_pawn_attacks(them, board_pieces(b, them, PAWN));
    t.by_minor = t.by_pawn | attacks_of(b, them, KNIGHT, occ) | attacks_of(b, them, BISHOP, occ);
    t.by_rook = t.by_minor | attacks_of(b, them, ROOK, occ);
    return t;
}

// Where a piece of type pt is attacked by a cheaper one (pawns and kings: nowhere).
static Bitboard danger_for(const Threats *t, PieceType pt) {
    switch (pt) {
    case KNIGHT:
    case BISHOP:
        return t->by_pawn;
    case ROOK:
        return t->by_minor;
    case QUEEN:
        return t->by_rook;
    default:
        return 0;
    }
}

// The ordering bonus of a quiet move that takes a piece out of a cheaper piece's
// attack, and the penalty of one that puts it there, by the piece's type: about half
// to all of the room one history table has (+-HISTORY_MAX), so that a well-proven
// quiet move still comes first.
static const int THREAT_ESCAPE[PIECE_TYPE_NB] = {0, 8192, 8192, 12288, 16384, 0};

static void score_quiet(MovePicker *mp) {
    const Board *b = mp->b;
    Threats t = threats_against(b, b->side);
    for (int i = 0; i < mp->list.count; i++) {
        Move m = mp->list.moves[i];
        int score = history_quiet_score(mp->h, b, m, &mp->cont);
        PieceType pt = piece_type(board_piece_on(b, move_from(m)));
        Bitboard danger = danger_for(&t, pt);
        if (bb_has(danger, move_from(m)))
            score += THREAT_ESCAPE[pt];
        if (bb_has(danger, move_to(m)))
            score -= THREAT_ESCAPE[pt];
        mp->scores[i] = score;
    }
}

// Swaps the best remaining move to the front of the unpicked part and returns it.
static Move pick_best(MovePicker *mp) {
    int best = mp->index;
    for (int i = mp->index + 1; i < mp->list.count; i++)
        if (mp->scores[i] > mp->scores[best])
            best = i;
    Move m = mp->list.moves[best];
    int s = mp->scores[best];
    mp->list.moves[best] = mp->list.moves[mp->index];
    mp->scores[best] = mp->scores[mp->index];
    mp->list.moves[mp->index] = m;
    mp->scores[mp->index] = s;
    mp->index++;
    return m;
}

static bool is_special(const MovePicker *mp, Move m) {
    return m == mp->tt_move || m == mp->killers[0] || m == mp->killers[1] || m == mp->counter;
}

// A killer or counter-move is tried only if it is a legal quiet move here
// and was not tried already.
static bool usable_quiet(const MovePicker *mp, Move m, int upto) {
    if (m == MOVE_NONE || m == mp->tt_move)
        return false;
    if (upto >= 1 && m == mp->killers[0])
        return false;
    if (upto >= 2 && m == mp->killers[1])
        return false;
    return movegen_is_legal(mp->b, m) && !is_noisy(mp->b, m);
}

Move movepick_next(MovePicker *mp, bool skip_quiets) {
    for (;;) {
        switch (mp->stage) {
        case STAGE_TT:
            mp->stage = STAGE_GEN_NOISY;
            return mp->tt_move;

        case STAGE_GEN_NOISY:
            movegen_noisy(mp->b, &mp->list);
            score_noisy(mp);
            mp->index = 0;
            mp->stage = STAGE_GOOD_NOISY;
            break;

        case STAGE_GOOD_NOISY:
            while (mp->index < mp->list.count) {
                Move m = pick_best(mp);
                if (m == mp->tt_move)
                    continue;
                if (!see_ge(mp->b, m, 0)) {
                    mp->bad[mp->bad_count++] = m;
                    continue;
                }
                return m;
            }
            mp->stage = STAGE_KILLER1;
            break;

        case STAGE_KILLER1:
            mp->stage = STAGE_KILLER2;
            if (!skip_quiets && usable_quiet(mp, mp->killers[0], 0))
                return mp->killers[0];
            break;

        case STAGE_KILLER2:
            mp->stage = STAGE_COUNTER;
            if (!skip_quiets && usable_quiet(mp, mp->killers[1], 1))
                return mp->killers[1];
            break;

        case STAGE_COUNTER:
            mp->stage = STAGE_GEN_QUIET;
            if (!skip_quiets && usable_quiet(mp, mp->counter, 2))
                return mp->counter;
            break;

        case STAGE_GEN_QUIET:
            if (skip_quiets) {
                mp->stage = STAGE_BAD_NOISY;
                break;
            }
            movegen_quiet(mp->b, &mp->list);
            score_quiet(mp);
            mp->index = 0;
            mp->stage = STAGE_QUIET;
            break;

        case STAGE_QUIET:
            while (!skip_quiets && mp->index < mp->list.count) {
                Move m = pick_best(mp);
                if (!is_special(mp, m))
                    return m;
            }
            mp->stage = STAGE_BAD_NOISY;
            break;

        case STAGE_BAD_NOISY:
            if (mp->bad_index < mp->bad_count)
                return mp->bad[mp->bad_index++];
            mp->stage = STAGE_DONE;
            break;

        case STAGE_QS_TT:
            mp->stage = STAGE_QS_GEN;
            return mp->tt_move;

        case STAGE_QS_GEN:
            movegen_noisy(mp->b, &mp->list);
            score_noisy(mp);
            mp->index = 0;
            mp->stage = STAGE_QS_NOISY;
            break;

        case STAGE_QS_NOISY:
            while (mp->index < mp->list.count) {
                Move m = pick_best(mp);
                if (m != mp->tt_move)
                    return m;
            }
            mp->stage = STAGE_DONE;
            break;

        default:
            return MOVE_NONE;
        }
    }
}

bool movepick_in_bad_stage(const MovePicker *mp) { return mp->stage == STAGE_BAD_NOISY; }
