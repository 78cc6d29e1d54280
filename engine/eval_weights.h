// SPDX-License-Identifier: GPL-3.0-or-later
// The tunable evaluation weights: every middlegame/endgame pair that engine/eval.c adds up
// linearly, in one table. Its values live in the generated file engine/eval_weights.c, which
// tools/tune rewrites from training data (README, "Training data and tuning"); the
// non-linear parts of the evaluation (king danger, shelter, scaling) keep hand-set constants
// in eval.c. Also the trace of one evaluation for the tuner (builds with EVAL_TRACE only).
#ifndef ENGINE_EVAL_WEIGHTS_H
#define ENGINE_EVAL_WEIGHTS_H

#include "engine/board.h"

// A middlegame/endgame pair in centipawns.
typedef struct Score {
    int mg, eg;
} Score;

// Every weight as X(name, rows, columns); a single pair is 1 x 1. Pawn-structure and passed
// pawn rows are indexed by the pawn's rank from its own side (0 = first rank); piece-square
// tables are from White's point of view (a1 = 0, Black through square_mirror).
// clang-format off
#define EVAL_WEIGHTS(X)                                                                            \
    X(piece_value, 1, PIECE_TYPE_NB)         /* material; mg also for eval_piece_value */       \
    X(psqt, PIECE_TYPE_NB, SQ_NB)            /* piece-square tables */                          \
    X(mobility_knight, 1, 9)                 /* by squares reachable, not own, not pawn-hit */  \
    X(mobility_bishop, 1, 14)                                                                      \
    X(mobility_rook, 1, 15)                                                                        \
    X(mobility_queen, 1, 28)                                                                       \
    X(passed_pawn, 1, 8)                     /* passed pawn, cached part */                     \
    X(pawn_phalanx, 1, 8)                    /* a pawn beside it */                             \
    X(pawn_supported, 1, 8)                  /* defended by a pawn */                           \
    X(pawn_doubled, 1, 1)                                                                          \
    X(pawn_isolated, 1, 1)                                                                         \
    X(pawn_backward, 1, 1)                                                                         \
    X(pawn_weak_unopposed, 1, 1)             /* isolated or backward on a half-open file */     \
    X(passed_free_stop, 1, 8)                /* passed pawn: its stop square is empty */        \
    X(passed_safe_path, 1, 8)                /* ... the whole path empty and unattacked */      \
    X(passed_supported, 1, 8)                /* ... stop square covered or pawn defended */     \
    X(passed_unstoppable, 1, 1)              /* wins the race in a pawn ending */               \
    X(king_centralisation, 1, 4)             /* by distance to the centre squares */            \
    X(king_pawn_distance, 1, 8)              /* by distance to the nearest pawn */              \
    X(rook_open_file, 1, 1)                                                                        \
    X(rook_half_open_file, 1, 1)                                                                   \
    X(rook_on_seventh, 1, 1)                 /* cutting off the king or eating pawns */         \
    X(queen_on_seventh, 1, 1)                                                                      \
    X(bishop_pair, 1, 1)                                                                           \
    X(outpost, 1, 2)                         /* knight, bishop on a hole defended by a pawn */  \
    X(minor_behind_pawn, 1, 1)               /* knight or bishop shielded by a pawn */          \
    X(bishop_pawns_same_colour, 1, 1)        /* per own pawn on the bishop's squares */         \
    X(space, 1, 1)                           /* per safe square behind the centre pawns */      \
    X(threat_by_pawn, 1, 1)                  /* pawn attacks a piece */                         \
    X(threat_minor_on_major, 1, 1)           /* knight or bishop attacks rook or queen */       \
    X(threat_hanging, 1, 1)                  /* piece attacked and not defended */              \
    X(threat_minor_on_minor, 1, 1)           /* knight or bishop attacks knight or bishop */    \
    X(threat_rook_on_queen, 1, 1)                                                                  \
    X(threat_pawn_push, 1, 1)                /* a safe pawn push would attack a piece */        \
    X(undeveloped_minor, 1, 1)               /* minor piece at home in the opening */           \
    X(early_queen, 1, 1)                     /* per undeveloped minor, queen out */             \
    X(tempo, 1, 1)                           /* the side to move */
// clang-format on

typedef struct EvalWeights {
#define EVAL_WEIGHT_FIELD(name, rows, cols) Score name[rows][cols];
    EVAL_WEIGHTS(EVAL_WEIGHT_FIELD)
#undef EVAL_WEIGHT_FIELD
} EvalWeights;

// The weights as one flat array of pairs, in declaration order.
enum { EVAL_WEIGHT_COUNT = sizeof(EvalWeights) / sizeof(Score) };

// The weights the engine plays with (engine/eval_weights.c).
extern const EvalWeights eval_weights;

// What one evaluation is made of, for the tuner: its white-relative middlegame and endgame
// sums are sum(coef[i] * weight[i]) + fixed, blended by phase, scaled by scale / 64 and
// clamped to give eval.
typedef struct EvalTrace {
    int16_t coef[EVAL_WEIGHT_COUNT]; // White's uses of the weight minus Black's
    Score fixed;                     // the hand-set, non-linear terms
    int phase;                       // 0..EVAL_PHASE_MAX
    int scale;                       // drawish-ending factor out of 64
    int eval;                        // the evaluation, White's point of view
} EvalTrace;

// Evaluates b (no pawn cache) and fills *t. Defined only when eval.c is compiled with
// EVAL_TRACE (the tuner and its tests); the engine's build has no tracing cost.
void eval_trace(const Board *b, EvalTrace *t);

#endif
