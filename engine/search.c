// SPDX-License-Identifier: GPL-3.0-or-later
// The search below the root: principal variation alpha-beta search with
// quiescence (search_root.c drives it, iteration by iteration).
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movepick.h"
#include "engine/search_internal.h"
#include "engine/see.h"

// Margins in centipawns, one set per evaluation (search_internal.h).
#define HAND_CRAFTED_MARGINS                                                           \
    {                                                                                  \
        .rfp = 75, .razor = 250, .nmp_eval_per_ply = 200, .futility_base = 90,         \
        .futility_per_depth = 95, .see_quiet = -60, .see_noisy = -20, .qs_delta = 180, \
        .probcut = 100, .aspiration = 18,                                              \
    }
const SearchMargins search_margins_hand = HAND_CRAFTED_MARGINS;
// The same for the net: narrower margins lost to them (-32 +- 25 at 20,000 nodes), wider
// ones were level (bench/results/2026-11-27-net-margins.md).
const SearchMargins search_margins_net = HAND_CRAFTED_MARGINS;

// Depth limits of the steps, named so they can be tuned.
static const int RFP_MAX_DEPTH = 8;
static const int RAZOR_MAX_DEPTH = 3;
static const int NMP_MIN_DEPTH = 3;
static const int FUTILITY_MAX_DEPTH = 6;
enum { LMP_MAX_DEPTH = 8 };
static const int SEE_MAX_DEPTH = 7;
static const int IIR_MIN_DEPTH = 4;
static const int PROBCUT_MIN_DEPTH = 5;
static const int HISTORY_PRUNE_MAX_DEPTH = 3;
static const int HISTORY_PRUNE_PER_DEPTH = 1500;
static const int SINGULAR_MIN_DEPTH = 8;
static const int SINGULAR_TT_DEPTH_MARGIN = 3;
static const int DOUBLE_EXTENSION_MARGIN = 20;
enum { DOUBLE_EXTENSIONS_MAX = 6 };

static int lmr_table[64][64];
static int lmp_table[2][LMP_MAX_DEPTH + 1];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void init_tables(void) {
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            lmr_table[d][m] = (int)(0.8 + log(d) * log(m) / 2.3);
    for (int d = 0; d <= LMP_MAX_DEPTH; d++) {
        lmp_table[0][d] = (3 + d * d) / 2;
        lmp_table[1][d] = 3 + d * d;
    }
}

void search_init_tables(void) { pthread_once(&tables_once, init_tables); }

// --------------------------------------------------------------- helpers

static inline int mated_in(int ply) { return -VALUE_MATE + ply; }
static inline int mate_in(int ply) { return VALUE_MATE - ply; }

// Draws score the contempt against the side that was to move at the root:
// it prefers playing on unless it is worse by more than the contempt.
static inline int draw_score(const Searcher *s, int ply) {
    return (ply & 1) ? s->contempt : -s->contempt;
}

static bool has_non_pawn_material(const Board *b, Color c) {
    return (b->colors[c] & ~(b->pieces[PAWN] | b->pieces[KING])) != 0;
}

static bool is_draw(const Searcher *s, int ply) {
    const Board *b = &s->board;
    if (b->halfmove >= 100 && (!b->checkers || movegen_count(b) > 0))
        return true;
    return board_is_repetition_draw(b, s->keys, s->root_keys + ply, ply) ||
           board_insufficient_material(b);
}

// The continuation row of the move made at ply, or NULL for none.
static int16_t *cont_row(Searcher *s, int ply) {
    StackEntry *e = stack_at(s, ply);
    if (ply < 0 || e->move == MOVE_NONE || e->move == MOVE_NULL)
        return NULL;
    return history_cont_row(&s->hist, e->piece, move_to(e->move));
}

// The continuation rows of the moves before ply (history.h).
static ContRows cont_rows(Searcher *s, int ply) {
    return (ContRows){{cont_row(s, ply - 1), cont_row(s, ply - 2), cont_row(s, ply - 4)}};
}

// A quiet move cut off at ply: it becomes a killer and the counter-move to
// the previous move, and the histories learn from it and the quiet moves
// tried before it.
static void update_quiet_stats(Searcher *s, int ply, Move best, const Move *quiets, int nquiets,
                               int depth) {
    StackEntry *ss = stack_at(s, ply);
    history_add_killer(ss->killers, best);
    StackEntry *prev = stack_at(s, ply - 1);
    if (ply > 0 && prev->move != MOVE_NONE && prev->move != MOVE_NULL)
        history_set_counter(&s->hist, prev->piece, move_to(prev->move), best);
    ContRows cont = cont_rows(s, ply);
    history_update_quiets(&s->hist, &s->board, best, quiets, nquiets, depth, &cont);
}

static void update_pv(StackEntry *ss, Move m, const StackEntry *child) {
    ss->pv[0] = m;
    int n = child->pv_length;
    if (n > MAX_PLY - 1)
        n = MAX_PLY - 1;
    memcpy(ss->pv + 1, child->pv, (size_t)n * sizeof(Move));
    ss->pv_length = n + 1;
}

// Starts a node: counts it, tracks the selective depth and empties its PV.
// True when the search has to stop.
static inline bool enter_node(Searcher *s, int ply) {
    stack_at(s, ply)->pv_length = 0;
    s->nodes++;
    if (ply > s->seldepth)
        s->seldepth = ply;
    return search_should_stop(s);
}

// True when a table entry's bound settles the node's value for [alpha, beta].
static inline bool tt_bound_decides(const TTHit *hit, int alpha, int beta) {
    return hit->score != VALUE_NONE &&
           (hit->bound == BOUND_EXACT || (hit->bound == BOUND_LOWER && hit->score >= beta) ||
            (hit->bound == BOUND_UPPER && hit->score <= alpha));
}

// The static evaluation, sharpened by the table's score when its bound says
// the true value lies beyond it.
static inline int refined_eval(int static_eval, bool tt_found, const TTHit *hit) {
    if (tt_found && hit->score != VALUE_NONE &&
        (hit->bound & (hit->score > static_eval ? BOUND_LOWER : BOUND_UPPER)))
        return hit->score;
    return static_eval;
}

// The static evaluation of the position at ply: the net's when there is one.
static inline int evaluate(Searcher *s, int ply) {
    if (s->net)
        return nnue_stack_evaluate(s->nnue, s->net, &s->board, ply);
    return eval_evaluate(&s->board, s->pawns);
}

// --------------------------------------------------------------- quiescence

static int qsearch(Searcher *s, int alpha, int beta, int ply) {
    Board *b = &s->board;
    StackEntry *ss = stack_at(s, ply);
    bool pv_node = beta - alpha > 1;
    if (enter_node(s, ply))
        return 0;
    if (is_draw(s, ply))
        return draw_score(s, ply);
    bool in_check = b->checkers != 0;
    if (ply >= MAX_PLY - 1)
        return in_check ? 0 : evaluate(s, ply);

    // Step 1. Transposition table.
    TTHit hit;
    bool tt_found = tt_probe(s->tt, b->key, ply, &hit);
    Move tt_move = tt_found ? hit.move : MOVE_NONE;
    if (tt_found && !pv_node && tt_bound_decides(&hit, alpha, beta))
        return hit.score;

    // Step 2. Stand pat: outside check, the side to move may decline to capture.
    int best = -VALUE_INFINITE, static_eval = VALUE_NONE, raw_eval = VALUE_NONE;
    if (!in_check) {
        raw_eval = tt_found && hit.eval != VALUE_NONE ? hit.eval : evaluate(s, ply);
        static_eval = history_corrected_eval(&s->hist, b, raw_eval);
        best = refined_eval(static_eval, tt_found, &hit);
        if (best >= beta) {
            if (!tt_found)
                tt_store(s->tt, b->key, ply, MOVE_NONE, best, raw_eval, -1, BOUND_LOWER);
            return best;
        }
        if (best > alpha)
            alpha = best;
    }

    // Step 3. Captures and promotions (all evasions when in check).
    MovePicker mp;
    movepick_init_qsearch(&mp, b, &s->hist, tt_move);
    Move m, best_move = MOVE_NONE;
    int moves = 0;
    int old_alpha = alpha;
    while ((m = movepick_next(&mp, false)) != MOVE_NONE) {
        moves++;
        if (!in_check) {
            // Delta pruning: even winning the piece cannot lift the score to alpha.
            Piece victim = board_captured_piece(b, m);
            int gain = victim == NO_PIECE ? 0 : eval_piece_value(piece_type(victim));
            if (!move_is_promotion(m) && static_eval + gain + s->margins->qs_delta <= alpha)
                continue;
            if (!see_ge(b, m, 0))
                continue;
        }
        search_make_move(s, ply, m);
        int score = -qsearch(s, -beta, -alpha, ply + 1);
        board_unmake_move(b, &ss->undo);
        if (s->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                if (pv_node)
                    update_pv(ss, m, stack_at(s, ply + 1));
                if (score >= beta)
                    break;
            }
        }
    }
    if (in_check && moves == 0)
        return mated_in(ply);

    Bound bound = best >= beta ? BOUND_LOWER : (alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER);
    tt_store(s->tt, b->key, ply, best_move, best, raw_eval, in_check ? 0 : -1, bound);
    return best;
}

// --------------------------------------------------------------- main search

int search_node(Searcher *s, int alpha, int beta, int depth, int ply, bool cut_node) {
    if (depth <= 0)
        return qsearch(s, alpha, beta, ply);

    Board *b = &s->board;
    const SearchMargins *mg = s->margins;
    StackEntry *ss = stack_at(s, ply);
    bool pv_node = beta - alpha > 1;
    if (enter_node(s, ply))
        return 0;

    // Step 1. Draws, the horizon of the stack, and mate distance pruning.
    if (is_draw(s, ply))
        return draw_score(s, ply);
    bool in_check = b->checkers != 0;
    if (ply >= MAX_PLY - 1)
        return in_check ? 0 : evaluate(s, ply);
    alpha = alpha > mated_in(ply) ? alpha : mated_in(ply);
    beta = beta < mate_in(ply + 1) ? beta : mate_in(ply + 1);
    if (alpha >= beta)
        return alpha;

    // Step 2. Transposition table: cut off in non-PV nodes when deep enough.
    // A singular-extension search of this position (one move left out) may
    // not use the entry of the full search, nor overwrite it.
    Move excluded = ss->excluded;
    TTHit hit;
    bool tt_found = tt_probe(s->tt, b->key, ply, &hit);
    Move tt_move = tt_found ? hit.move : MOVE_NONE;
    if (tt_found && !excluded && !pv_node && hit.depth >= depth &&
        tt_bound_decides(&hit, alpha, beta)) {
        if (tt_move && hit.score >= beta && !board_is_capture(b, tt_move) &&
            !move_is_promotion(tt_move) && movegen_is_legal(b, tt_move) &&
            ss->killers[0] != tt_move)
            history_add_killer(ss->killers, tt_move);
        return hit.score;
    }

    // Step 3. Static evaluation, refined by the table's bound when it agrees.
    int static_eval, eval, raw_eval;
    if (in_check) {
        static_eval = eval = raw_eval = VALUE_NONE;
    } else {
        raw_eval = tt_found && hit.eval != VALUE_NONE ? hit.eval : evaluate(s, ply);
        static_eval = history_corrected_eval(&s->hist, b, raw_eval);
        eval = refined_eval(static_eval, tt_found, &hit);
        if (!tt_found)
            tt_store(s->tt, b->key, ply, MOVE_NONE, VALUE_NONE, raw_eval, -7, BOUND_NONE);
    }
    ss->static_eval = static_eval;
    int prev2 = stack_at(s, ply - 2)->static_eval;
    bool improving = !in_check && ply >= 2 && prev2 != VALUE_NONE && static_eval > prev2;
    stack_at(s, ply + 1)->killers[0] = stack_at(s, ply + 1)->killers[1] = MOVE_NONE;
    stack_at(s, ply + 1)->double_extensions = ss->double_extensions;

    if (!pv_node && !in_check && !excluded) {
        // Step 4. Reverse futility: far above beta at low depth, assume a cutoff.
        if (depth <= RFP_MAX_DEPTH && eval - mg->rfp * (depth - improving) >= beta &&
            eval < VALUE_MATE_IN_MAX)
            return eval;

        // Step 5. Razoring: hopeless at low depth, verify with quiescence.
        if (depth <= RAZOR_MAX_DEPTH && eval + mg->razor * depth <= alpha) {
            int score = qsearch(s, alpha, alpha + 1, ply);
            if (score <= alpha)
                return score;
        }

        // Step 6. Null move: if passing still beats beta, a real move will
        // too. Not after a null move, and not with only king and pawns, where
        // zugzwang makes passing a real advantage.
        if (depth >= NMP_MIN_DEPTH && eval >= beta && static_eval >= beta &&
            stack_at(s, ply - 1)->move != MOVE_NULL && has_non_pawn_material(b, b->side)) {
            // Reduce more the deeper the node and the further eval is above beta.
            int per_ply = mg->nmp_eval_per_ply;
            int r = 3 + depth / 6 + ((eval - beta) / per_ply < 3 ? (eval - beta) / per_ply : 3);
            search_make_null(s, ply);
            int score = -search_node(s, -beta, -beta + 1, depth - r - 1, ply + 1, !cut_node);
            board_unmake_null(b, &ss->undo);
            if (s->stopped)
                return 0;
            if (score >= beta)
                return score >= VALUE_MATE_IN_MAX ? beta : score;
        }

        // Step 6b. ProbCut: a capture that beats beta by a margin in a
        // shallow search almost surely beats beta at full depth.
        int probcut_beta = beta + mg->probcut;
        if (depth >= PROBCUT_MIN_DEPTH && abs(beta) < VALUE_MATE_IN_MAX &&
            !(tt_found && hit.depth >= depth - 3 && hit.score != VALUE_NONE &&
              hit.score < probcut_beta)) {
            MovePicker pc;
            movepick_init_qsearch(&pc, b, &s->hist, tt_move);
            Move cm;
            while ((cm = movepick_next(&pc, false)) != MOVE_NONE) {
                if (cm == excluded || !see_ge(b, cm, probcut_beta - static_eval))
                    continue;
                search_make_move(s, ply, cm);
                int score = -qsearch(s, -probcut_beta, -probcut_beta + 1, ply + 1);
                if (score >= probcut_beta)
                    score = -search_node(s, -probcut_beta, -probcut_beta + 1, depth - 4, ply + 1,
                                    !cut_node);
                board_unmake_move(b, &ss->undo);
                if (s->stopped)
                    return 0;
                if (score >= probcut_beta) {
                    tt_store(s->tt, b->key, ply, cm, score, raw_eval, depth - 3, BOUND_LOWER);
                    return score;
                }
            }
        }
    }

    // Step 7. Internal iterative reduction: without a hash move this node is
    // probably not important enough for its full depth.
    if (!tt_move && depth >= IIR_MIN_DEPTH && (pv_node || cut_node))
        depth--;

    // Step 8. The move loop.
    StackEntry *prev = stack_at(s, ply - 1);
    Move counter = ply > 0 && prev->move != MOVE_NONE && prev->move != MOVE_NULL
                       ? history_counter(&s->hist, prev->piece, move_to(prev->move))
                       : MOVE_NONE;
    ContRows cont = cont_rows(s, ply);
    MovePicker mp;
    movepick_init(&mp, b, &s->hist, tt_move, ss->killers, counter, &cont);

    Move quiets[64], noisy[32];
    int nquiets = 0, nnoisy = 0, moves = 0;
    int best = -VALUE_INFINITE, old_alpha = alpha;
    Move best_move = MOVE_NONE, m;
    bool skip_quiets = false;

    while ((m = movepick_next(&mp, skip_quiets)) != MOVE_NONE) {
        if (m == excluded)
            continue;
        bool quiet = !board_is_capture(b, m) && !move_is_promotion(m);
        int hist_score = quiet ? history_quiet_score(&s->hist, b, m, &cont) : 0;

        // Step 9. Shallow pruning of moves unlikely to matter, once a move
        // has secured us from being mated.
        if (ply > 0 && best > VALUE_MATED_IN_MAX && has_non_pawn_material(b, b->side)) {
            if (quiet && depth <= LMP_MAX_DEPTH && moves >= lmp_table[improving][depth]) {
                skip_quiets = true;
                continue;
            }
            // Quiet moves the histories say fail here are not worth a look.
            if (quiet && depth <= HISTORY_PRUNE_MAX_DEPTH &&
                hist_score < -HISTORY_PRUNE_PER_DEPTH * depth)
                continue;
            if (quiet && !in_check && depth <= FUTILITY_MAX_DEPTH &&
                static_eval + mg->futility_base + mg->futility_per_depth * depth <= alpha &&
                hist_score < 4096) {
                skip_quiets = true;
                continue;
            }
            if (depth <= SEE_MAX_DEPTH &&
                !see_ge(b, m, quiet ? mg->see_quiet * depth : mg->see_noisy * depth * depth))
                continue;
        }

        // Step 10. Singular extension: when the hash move is the only good
        // one (every other move fails low against a bound a little below its
        // score, at half depth), search it deeper. When even the others beat
        // beta, this node fails high anyway (multi-cut); when the hash move
        // only probably beats beta, it is searched a little less.
        int extension = 0;
        if (m == tt_move && !excluded && ply > 0 && depth >= SINGULAR_MIN_DEPTH &&
            ply < 2 * s->root_depth && hit.depth >= depth - SINGULAR_TT_DEPTH_MARGIN &&
            (hit.bound & BOUND_LOWER) && hit.score != VALUE_NONE &&
            abs(hit.score) < VALUE_MATE_IN_MAX) {
            int singular_beta = hit.score - depth;
            ss->excluded = m;
            int score = search_node(s, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
            ss->excluded = MOVE_NONE;
            if (s->stopped)
                return 0;
            if (score < singular_beta) {
                extension = 1;
                if (!pv_node && score < singular_beta - DOUBLE_EXTENSION_MARGIN &&
                    ss->double_extensions < DOUBLE_EXTENSIONS_MAX)
                    extension = 2;
            } else if (singular_beta >= beta) {
                return singular_beta;
            } else if (hit.score >= beta) {
                extension = -1;
            }
        }
        stack_at(s, ply + 1)->double_extensions = ss->double_extensions + (extension == 2);

        search_make_move(s, ply, m);
        moves++;
        bool gives_check = b->checkers != 0;
        // Step 11. Check extension, bounded so that checks cannot run away.
        if (!extension && gives_check && ply < 2 * s->root_depth)
            extension = 1;
        int new_depth = depth - 1 + extension;
        int score;

        // Step 12. Late move reductions for quiet moves and losing captures.
        if (depth >= 3 && moves > 1 + pv_node && (quiet || movepick_in_bad_stage(&mp))) {
            int r = lmr_table[depth < 64 ? depth : 63][moves < 64 ? moves : 63];
            r += !pv_node;
            r += cut_node;
            r -= improving;
            r -= gives_check;
            if (quiet) {
                r -= m == mp.killers[0] || m == mp.killers[1] || m == mp.counter;
                r -= hist_score / 6000;
            }
            int reduced = new_depth - r;
            if (reduced > new_depth)
                reduced = new_depth;
            if (reduced < 1)
                reduced = 1;
            score = -search_node(s, -alpha - 1, -alpha, reduced, ply + 1, true);
            if (score > alpha && reduced < new_depth)
                score = -search_node(s, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
        } else if (!pv_node || moves > 1) {
            score = -search_node(s, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
        } else {
            score = alpha + 1; // forces the full-window search below
        }
        if (pv_node && (moves == 1 || (score > alpha && score < beta)))
            score = -search_node(s, -beta, -alpha, new_depth, ply + 1, false);
        board_unmake_move(b, &ss->undo);
        if (s->stopped)
            return 0;

        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                if (pv_node)
                    update_pv(ss, m, stack_at(s, ply + 1));
                if (score >= beta)
                    break;
            }
        }
        if (quiet && nquiets < 64)
            quiets[nquiets++] = m;
        else if (!quiet && nnoisy < 32)
            noisy[nnoisy++] = m;
    }

    // Step 13. No legal move: mate or stalemate (or, leaving one move out,
    // no other move: that one is singular).
    if (moves == 0 && best == -VALUE_INFINITE && !excluded)
        return in_check ? mated_in(ply) : draw_score(s, ply);
    if (moves == 0)
        return alpha; // every move was pruned or left out

    if (best >= beta) {
        if (!board_is_capture(b, best_move) && !move_is_promotion(best_move))
            update_quiet_stats(s, ply, best_move, quiets, nquiets, depth);
        history_update_captures(&s->hist, b, best_move, noisy, nnoisy, depth);
    }

    if (excluded)
        return best;
    Bound bound = best >= beta ? BOUND_LOWER : (alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER);
    // Learn how far off the static evaluation was, where the search's bound
    // says which way and a quiet best move leaves the material as it was.
    if (!in_check && (best_move == MOVE_NONE || (!board_is_capture(b, best_move) &&
                                                 !move_is_promotion(best_move))) &&
        !(bound == BOUND_LOWER && best <= static_eval) &&
        !(bound == BOUND_UPPER && best >= static_eval) && abs(best) < VALUE_MATE_IN_MAX)
        history_update_correction(&s->hist, b, depth, best - raw_eval);
    tt_store(s->tt, b->key, ply, best_move, best, raw_eval, depth, bound);
    return best;
}

