// SPDX-License-Identifier: GPL-3.0-or-later
// The tunable evaluation weights: every middlegame/endgame pair of engine/eval.c, in one
// table. Its values live in the generated file engine/eval_weights.c, which tools/tune
// rewrites from training data (docs/training.md). All are added up
// linearly except the king danger block at the end, which eval.c squares (see
// EVAL_DANGER_MG_DIVISOR); the drawish-ending scaling keeps hand-set constants in eval.c.
// Also the trace of one evaluation for the tuner (builds with EVAL_TRACE only).
#ifndef ENGINE_EVAL_WEIGHTS_H
#define ENGINE_EVAL_WEIGHTS_H

#include <stddef.h>

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
    X(king_shelter, 2, 8)                    /* own pawn in front: king's file, next files */   \
    X(king_storm, 2, 8)                      /* enemy pawn coming: free, blocked by ours */     \
    X(king_open_file, 1, 1)                  /* a file by the king without any pawn */          \
    X(passed_enemy_king, 1, 8)               /* per step of their king from the stop square */  \
    X(passed_own_king, 1, 8)                 /* per step of our king from the stop square */    \
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
    X(tempo, 1, 1)                           /* the side to move */                             \
    X(king_danger_attacker, 1, 4)            /* danger: zone attacker, knight to queen */       \
    X(king_danger_zone_hit, 1, 1)            /* ... per zone square an attacker hits */         \
    X(king_danger_safe_check, 1, 4)          /* ... a safe check, knight to queen */            \
    X(king_danger_weak_square, 1, 1)         /* ... zone square defended by the king only */    \
    X(king_danger_no_queen, 1, 1)            /* ... the attacker has no queen */                \
    X(king_danger_base, 1, 1)                /* ... once per attack */
// clang-format on

typedef struct EvalWeights {
#define EVAL_WEIGHT_FIELD(name, rows, cols) Score name[rows][cols];
    EVAL_WEIGHTS(EVAL_WEIGHT_FIELD)
#undef EVAL_WEIGHT_FIELD
} EvalWeights;

// The weights as one flat array of pairs, in declaration order; the king danger block is
// the last EVAL_DANGER_COUNT of them.
enum {
    EVAL_WEIGHT_COUNT = sizeof(EvalWeights) / sizeof(Score),
    EVAL_DANGER_FIRST = offsetof(EvalWeights, king_danger_attacker) / sizeof(Score),
    EVAL_DANGER_COUNT = EVAL_WEIGHT_COUNT - EVAL_DANGER_FIRST,
};

// King danger: an attack on a king (at least two attackers, and a queen or enough material)
// adds up its king_danger_* features times their weights into a middlegame and an endgame
// danger d (each at least 0). The king's side loses d * d / EVAL_DANGER_MG_DIVISOR in the
// middlegame, so that one attacker more in a strong attack costs far more than in a weak
// one, and d / EVAL_DANGER_EG_DIVISOR in the endgame, where mates are rare. The divisors only
// set the weights' resolution.
enum { EVAL_DANGER_MG_DIVISOR = 1024, EVAL_DANGER_EG_DIVISOR = 16 };

// The weights the engine plays with (engine/eval_weights.c).
extern const EvalWeights eval_weights;

// What one evaluation is made of, for the tuner: its white-relative middlegame and endgame
// sums are sum(coef[i] * weight[i]) minus White's king danger plus Black's, blended by
// phase, scaled by scale / 64 and clamped to give eval.
typedef struct EvalTrace {
    int16_t coef[EVAL_WEIGHT_COUNT]; // White's uses of the linear weights minus Black's
    // The king danger features of the attack on c's king (all 0 when there is none), in
    // the order of the weights from EVAL_DANGER_FIRST.
    int16_t danger[COLOR_NB][EVAL_DANGER_COUNT];
    int phase; // 0..EVAL_PHASE_MAX
    int scale; // drawish-ending factor out of 64
    int eval;  // the evaluation, White's point of view
} EvalTrace;

// Evaluates b (no pawn cache) and fills *t. Defined only when eval.c is compiled with
// EVAL_TRACE (the tuner and its tests); the engine's build has no tracing cost.
void eval_trace(const Board *b, EvalTrace *t);

#endif
