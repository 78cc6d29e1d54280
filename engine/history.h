// SPDX-License-Identifier: GPL-3.0-or-later
// What the search learns from its cutoffs, to order and prune moves and to
// correct the static evaluation:
//   - butterfly history: quiet moves by side, origin and destination;
//   - continuation history: quiet moves by the moves one, two and four plies
//     before (a "row" is the part of the table that follows one earlier move);
//   - capture history: captures and promotions by piece, destination and
//     the type captured;
//   - counter-moves: the quiet move that last refuted a given move;
//   - killers: the two last quiet moves that cut off at a ply (they live in
//     the search stack, the history module only updates them);
//   - correction history: per side and pawn structure, a running mean of how
//     far searches found the static evaluation off.
// Scores are kept within +-HISTORY_MAX by a gravity update that pulls an
// entry back the closer it is to the bound.
#ifndef ENGINE_HISTORY_H
#define ENGINE_HISTORY_H

#include "engine/board.h"

enum { HISTORY_MAX = 16384 };
// Correction entries hold centipawns times CORRECTION_GRAIN, for
// CORRECTION_SIZE pawn structures per side, and correct by at most
// CORRECTION_MAX_CP.
enum { CORRECTION_SIZE = 16384, CORRECTION_GRAIN = 256, CORRECTION_MAX_CP = 96 };

typedef struct Histories {
    int16_t butterfly[COLOR_NB][SQ_NB][SQ_NB];     // [side][from][to]
    Move counter[PIECE_NB][SQ_NB];                  // reply to [piece][to]
    int16_t cont[PIECE_NB][SQ_NB][PIECE_NB][SQ_NB]; // [prev piece][prev to][piece][to]
    int16_t capture[PIECE_NB][SQ_NB][PIECE_TYPE_NB]; // [piece][to][captured type]
    int32_t correction[COLOR_NB][CORRECTION_SIZE];  // [side][pawn key slot]
} Histories;

// Forgets everything (a new game).
void history_clear(Histories *h);
// Halves the butterfly history, between moves, so that old lessons fade.
void history_age(Histories *h);

// The continuation rows a quiet move is scored and rewarded by: those of the
// moves 1, 2 and 4 plies before it (NULL where there is none). The one four plies
// back is our own move before last: plans of two moves, a reply-independent pairing.
enum { CONT_PLIES = 3 };
typedef struct ContRows {
    int16_t *row[CONT_PLIES];
} ContRows;

// The continuation row following `piece` moved to `to` (NULL for no move).
int16_t *history_cont_row(Histories *h, Piece piece, Square to);
// The counter-move recorded against `piece` moved to `to`, and recording one.
Move history_counter(const Histories *h, Piece piece, Square to);
void history_set_counter(Histories *h, Piece piece, Square to, Move reply);

// Quiet-move score: butterfly plus the continuation rows given (cont may be NULL).
int history_quiet_score(const Histories *h, const Board *b, Move m, const ContRows *cont);
// The capture-history score of a capture or promotion (a promotion without
// capture counts as taking a pawn, so it has an entry too).
int history_capture_score(const Histories *h, const Board *b, Move m);

// Puts m first among a ply's two killers, unless it is there already.
void history_add_killer(Move killers[2], Move m);

// A cutoff at `depth` by the quiet move `best`: rewards it, punishes the
// nquiets quiet moves tried before it, in the butterfly table and in the
// continuation rows of cont (NULL: none).
void history_update_quiets(Histories *h, const Board *b, Move best, const Move *quiets,
                           int nquiets, int depth, const ContRows *cont);
// A cutoff at `depth`: rewards `best` if it is a capture or promotion, and
// punishes the nnoisy captures and promotions tried before it.
void history_update_captures(Histories *h, const Board *b, Move best, const Move *noisy,
                             int nnoisy, int depth);

// The evaluation raw of position b corrected by what searches found in its
// pawn structure, kept clear of the mate range.
int history_corrected_eval(const Histories *h, const Board *b, int raw);
// A search of depth `depth` found b's value `diff` centipawns away from its
// static evaluation; the weight of the lesson grows with the depth.
void history_update_correction(Histories *h, const Board *b, int depth, int diff);

#endif
