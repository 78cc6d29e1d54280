// SPDX-License-Identifier: GPL-3.0-or-later
// The traced evaluation (engine/eval.c built with EVAL_TRACE, as the tuner uses it): on
// thousands of positions, the linear weights times the traced coefficients and the king
// dangers from the traced features, blended and scaled, give exactly the evaluation, which is
// the engine's.
#include <criterion/criterion.h>
#include <stdlib.h>

#include "engine/eval.h"
#include "engine/eval_weights.h"
#include "engine/fen.h"
#include "engine/movegen.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static uint64_t next(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

// The white-relative evaluation rebuilt from the trace, with the engine's integer steps.
static int rebuild(const EvalTrace *t) {
    const Score *w = &eval_weights.piece_value[0][0];
    long mg = 0, eg = 0;
    for (int i = 0; i < EVAL_WEIGHT_COUNT; i++) {
        mg += (long)t->coef[i] * w[i].mg;
        eg += (long)t->coef[i] * w[i].eg;
    }
    for (Color c = WHITE; c <= BLACK; c++) {
        long dm = 0, de = 0;
        for (int i = 0; i < EVAL_DANGER_COUNT; i++) {
            dm += (long)t->danger[c][i] * w[EVAL_DANGER_FIRST + i].mg;
            de += (long)t->danger[c][i] * w[EVAL_DANGER_FIRST + i].eg;
        }
        dm = dm > 0 ? dm : 0;
        de = de > 0 ? de : 0;
        long sign = c == WHITE ? 1 : -1;
        mg -= sign * (dm * dm / EVAL_DANGER_MG_DIVISOR);
        eg -= sign * (de / EVAL_DANGER_EG_DIVISOR);
    }
    int v = (int)((mg * t->phase + eg * (EVAL_PHASE_MAX - t->phase)) / EVAL_PHASE_MAX);
    v = v * t->scale / 64;
    if (v > VALUE_EVAL_MAX - 1)
        v = VALUE_EVAL_MAX - 1;
    if (v < -(VALUE_EVAL_MAX - 1))
        v = -(VALUE_EVAL_MAX - 1);
    return v;
}

Test(eval_trace, coefficients_rebuild_the_evaluation) {
    board_init_tables();
    Board *b = malloc(sizeof *b);
    EvalTrace *t = malloc(sizeof *t);
    cr_assert(b && t);
    int positions = 0, used = 0, attacks = 0;
    for (int game = 0; game < 150; game++) {
        board_set_start(b);
        for (int ply = 0; ply < 160; ply++) {
            eval_trace(b, t);
            int engine = eval_evaluate(b, NULL);
            cr_assert_eq(t->eval, b->side == WHITE ? engine : -engine);
            cr_assert_eq(rebuild(t), t->eval, "game %d ply %d", game, ply);
            for (int i = 0; i < EVAL_WEIGHT_COUNT; i++)
                used += t->coef[i] != 0;
            // The danger weights are traced as features only, never as linear uses.
            for (int i = EVAL_DANGER_FIRST; i < EVAL_WEIGHT_COUNT; i++)
                cr_assert_eq(t->coef[i], 0);
            attacks += (t->danger[WHITE][EVAL_DANGER_COUNT - 1] != 0) +
                       (t->danger[BLACK][EVAL_DANGER_COUNT - 1] != 0);
            positions++;
            MoveList list;
            movegen_legal(b, &list);
            if (list.count == 0)
                break;
            board_play(b, list.moves[next() % (uint64_t)list.count]);
        }
    }
    cr_assert_gt(positions, 10000);
    cr_assert_gt(used, positions * 20, "the trace should record the weights the evaluation uses");
    cr_assert_gt(attacks, 100, "the positions should have king attacks (%d)", attacks);
    free(t);
    free(b);
}
