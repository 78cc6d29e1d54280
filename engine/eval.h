// SPDX-License-Identifier: GPL-3.0-or-later
// Static evaluation: a hand-written, tapered (middlegame/endgame) score in
// centipawns from the side to move's point of view. Colour-symmetric: the
// colour-mirrored position evaluates to the same score for its side to move.
// Pawn-structure terms are cached in a per-thread pawn hash table.
#ifndef ENGINE_EVAL_H
#define ENGINE_EVAL_H

#include "engine/board.h"

typedef struct PawnCache PawnCache;

// A pawn hash table owned by one search thread. NULL when out of memory.
PawnCache *eval_pawn_cache_new(void);
void eval_pawn_cache_free(PawnCache *pc);
void eval_pawn_cache_clear(PawnCache *pc);

// The evaluation of b for the side to move, strictly inside +-VALUE_EVAL_MAX.
// pc may be NULL (no caching). Never called when the side to move is in
// check by the search, but must still return a sane value then.
int eval_evaluate(const Board *b, PawnCache *pc);

// Game phase from the non-pawn material: EVAL_PHASE_MAX with all pieces on
// the board (opening), 0 with none (pawn ending).
enum { EVAL_PHASE_MAX = 24 };
int eval_phase(const Board *b);

// Middlegame material value of a piece type in centipawns (king 0), for
// move ordering, SEE and pruning margins.
int eval_piece_value(PieceType t);

// Terms of the last evaluation for display and debugging: fills names and
// white-relative middlegame/endgame pairs; returns the number of terms.
typedef struct EvalTerm {
    const char *name;
    int mg, eg;
} EvalTerm;
enum { EVAL_TERMS_MAX = 16 };
int eval_explain(const Board *b, EvalTerm *terms, int max);

#endif
