// SPDX-License-Identifier: GPL-3.0-or-later
// The search's history tables: lookups and the updates after a cutoff.
#include "engine/history.h"

#include <stdlib.h>
#include <string.h>

// The largest reward (or penalty) one cutoff gives.
static const int HISTORY_BONUS_MAX = 1400;
// A search of depth d weighs min(d + 1, CORRECTION_WEIGHT_MAX) in
// CORRECTION_WEIGHT_SCALE of the running mean.
enum { CORRECTION_WEIGHT_MAX = 16, CORRECTION_WEIGHT_SCALE = 256 };

void history_clear(Histories *h) { memset(h, 0, sizeof *h); }

void history_age(Histories *h) {
    for (int c = 0; c < COLOR_NB; c++)
        for (int f = 0; f < SQ_NB; f++)
            for (int t = 0; t < SQ_NB; t++)
                h->butterfly[c][f][t] /= 2;
}

int16_t *history_cont_row(Histories *h, Piece piece, Square to) { return &h->cont[piece][to][0][0]; }

Move history_counter(const Histories *h, Piece piece, Square to) { return h->counter[piece][to]; }

void history_set_counter(Histories *h, Piece piece, Square to, Move reply) {
    h->counter[piece][to] = reply;
}

int history_quiet_score(const Histories *h, const Board *b, Move m, const ContRows *cont) {
    Square from = move_from(m), to = move_to(m);
    int score = h->butterfly[b->side][from][to];
    if (!cont)
        return score;
    int idx = b->squares[from] * SQ_NB + to;
    for (int i = 0; i < CONT_PLIES; i++)
        if (cont->row[i])
            score += cont->row[i][idx];
    return score;
}

// A promotion without capture counts as taking a pawn.
static PieceType captured_type(const Board *b, Move m) {
    Piece victim = board_captured_piece(b, m);
    return victim == NO_PIECE ? PAWN : piece_type(victim);
}

static int16_t *capture_entry(Histories *h, const Board *b, Move m) {
    return &h->capture[b->squares[move_from(m)]][move_to(m)][captured_type(b, m)];
}

int history_capture_score(const Histories *h, const Board *b, Move m) {
    return h->capture[b->squares[move_from(m)]][move_to(m)][captured_type(b, m)];
}

void history_add_killer(Move killers[2], Move m) {
    if (killers[0] != m) {
        killers[1] = killers[0];
        killers[0] = m;
    }
}

// Gravity: the bonus shrinks as the entry nears the bound on its side, so
// entries stay within +-HISTORY_MAX and recent results weigh more.
static void update_entry(int16_t *entry, int bonus) {
    int v = *entry;
    v += bonus - v * abs(bonus) / HISTORY_MAX;
    *entry = (int16_t)v;
}

static int depth_bonus(int depth) {
    int bonus = depth * depth * 16 + 32 * depth;
    return bonus > HISTORY_BONUS_MAX ? HISTORY_BONUS_MAX : bonus;
}

void history_update_quiets(Histories *h, const Board *b, Move best, const Move *quiets,
                           int nquiets, int depth, const ContRows *cont) {
    int bonus = depth_bonus(depth);
    for (int i = -1; i < nquiets; i++) {
        Move m = i < 0 ? best : quiets[i];
        int delta = i < 0 ? bonus : -bonus;
        Square from = move_from(m), to = move_to(m);
        int idx = b->squares[from] * SQ_NB + to;
        update_entry(&h->butterfly[b->side][from][to], delta);
        for (int k = 0; cont && k < CONT_PLIES; k++)
            if (cont->row[k])
                update_entry(&cont->row[k][idx], delta);
    }
}

void history_update_captures(Histories *h, const Board *b, Move best, const Move *noisy,
                             int nnoisy, int depth) {
    int bonus = depth_bonus(depth);
    if (board_is_capture(b, best) || move_is_promotion(best))
        update_entry(capture_entry(h, b, best), bonus);
    for (int i = 0; i < nnoisy; i++)
        update_entry(capture_entry(h, b, noisy[i]), -bonus);
}

static size_t correction_slot(const Board *b) {
    return (size_t)(b->pawn_key & (CORRECTION_SIZE - 1));
}

int history_corrected_eval(const Histories *h, const Board *b, int raw) {
    int v = raw + h->correction[b->side][correction_slot(b)] / CORRECTION_GRAIN;
    return v >= VALUE_MATE_IN_MAX ? VALUE_MATE_IN_MAX - 1
           : v <= VALUE_MATED_IN_MAX ? VALUE_MATED_IN_MAX + 1
                                     : v;
}

void history_update_correction(Histories *h, const Board *b, int depth, int diff) {
    int32_t *e = &h->correction[b->side][correction_slot(b)];
    int weight = depth + 1 < CORRECTION_WEIGHT_MAX ? depth + 1 : CORRECTION_WEIGHT_MAX;
    int32_t v = (*e * (CORRECTION_WEIGHT_SCALE - weight) + diff * CORRECTION_GRAIN * weight) /
                CORRECTION_WEIGHT_SCALE;
    const int32_t limit = CORRECTION_MAX_CP * CORRECTION_GRAIN;
    *e = v > limit ? limit : v < -limit ? -limit : v;
}
