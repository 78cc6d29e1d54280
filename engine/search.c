// SPDX-License-Identifier: GPL-3.0-or-later
// Iterative deepening, principal variation search and quiescence.
#include "engine/search.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/eval.h"
#include "engine/line.h"
#include "engine/movepick.h"
#include "engine/see.h"
#include "engine/skill.h"
#include "engine/timeman.h"

// Step margins and limits, named so they can be tuned.
static const int ASPIRATION_DELTA = 18;
static const int ASPIRATION_MIN_DEPTH = 5;
static const int RFP_MAX_DEPTH = 8;
static const int RFP_MARGIN = 75;
static const int RAZOR_MAX_DEPTH = 3;
static const int RAZOR_MARGIN = 250;
static const int NMP_MIN_DEPTH = 3;
static const int FUTILITY_MAX_DEPTH = 6;
static const int FUTILITY_BASE = 90;
static const int FUTILITY_PER_DEPTH = 95;
enum { LMP_MAX_DEPTH = 8 };
static const int SEE_QUIET_MARGIN = -60;
static const int SEE_NOISY_MARGIN = -20;
static const int SEE_MAX_DEPTH = 7;
static const int QS_DELTA_MARGIN = 180;
static const int IIR_MIN_DEPTH = 4;
static const int PROBCUT_MIN_DEPTH = 5;
static const int PROBCUT_MARGIN = 100;
static const int HISTORY_PRUNE_MAX_DEPTH = 3;
static const int HISTORY_PRUNE_PER_DEPTH = 1500;
static const int HISTORY_BONUS_MAX = 1400;
static const int SINGULAR_MIN_DEPTH = 8;
static const int SINGULAR_TT_DEPTH_MARGIN = 3;
static const int DOUBLE_EXTENSION_MARGIN = 20;
enum { DOUBLE_EXTENSIONS_MAX = 6 };
// Contempt in centipawns at the two ends of the game; in between it falls
// linearly with the phase (about 25 in a typical middlegame).
static const int CONTEMPT_OPENING = 50;
static const int CONTEMPT_OPENING_PHASE = 20;
static const int CONTEMPT_ENDING_PHASE = 6;

enum { STACK_OFFSET = 4 };
// Correction history: a running mean, per side and pawn structure, of how far
// searches found the static evaluation off. Entries hold centipawns times
// CORRECTION_GRAIN; a search of depth d weighs min(d + 1, 16) in 256.
enum { CORRECTION_SIZE = 16384, CORRECTION_GRAIN = 256, CORRECTION_MAX_CP = 96 };

// How often (in nodes) the clock and the stop flag are polled, at most; and,
// when several threads share a node limit, at most this often so that the
// sum over the threads stays close to the limit.
enum { CHECK_EVERY_MAX = 65536, CHECK_EVERY_SHARED_NODES = 256 };

typedef struct StackEntry {
    Move move;          // move made from this ply's position
    Piece piece;        // the piece that made it
    int static_eval;
    Move killers[2];
    Move excluded;      // the move a singular-extension search leaves out
    int double_extensions; // along the path to this ply, to bound them
    Move pv[MAX_PLY + 1];
    int pv_length;
    Undo undo;          // of the move (or null move) made from this ply
} StackEntry;

typedef struct RootMove {
    Move move;
    int score;          // -VALUE_INFINITE until searched in the current pass
    int prev_score;
    int seldepth;
    Move pv[MAX_PLY];
    int pv_length;
} RootMove;

struct Searcher {
    TTable *tt;
    atomic_bool *stop;
    atomic_bool pondering;
    atomic_bool ponderhit_pending;
    PawnCache *pawns;
    Histories hist;
    int32_t correction[COLOR_NB][CORRECTION_SIZE];
    Board board;
    StackEntry stack[MAX_PLY + STACK_OFFSET + 2];
    // Keys of the positions before the current one, for repetitions: the
    // game's (root_keys of them, passed to search_run), then one per ply of
    // the search stack.
    Key keys[LINE_MAX + MAX_PLY + 1];
    int root_keys;

    SearchLimits limits;
    SearchParams params;
    TimeManager tm;
    SearchInfoFn on_info;
    void *ctx;

    uint64_t nodes;
    uint64_t check_every, next_check;
    int64_t last_check_ms;
    int seldepth;
    bool stopped;
    int contempt;
    RootMove roots[MAX_MOVES];
    int root_count;
    int pv_index;
    int root_depth;
    Color root_side;
    // Weakened searches: the candidate lines of the last completed iteration.
    RootMove skill_lines[MAX_MULTIPV];
    int skill_count;
    uint64_t check_cap; // largest check_every

    // Lazy SMP. The main searcher (id 0) owns the helpers; each helper has
    // its own board, stack, histories and pawn cache, shares the table, and
    // searches the same root on its own thread while the main one searches.
    // Helpers poll helpers_stop (their stop points to it), which the main
    // searcher raises when it is done, before it joins them.
    int id;
    Searcher **helpers;
    int nhelpers;
    int helpers_running; // helpers started by the current search_run
    atomic_bool helpers_stop;
    // The node count as of the last poll, for sums taken on other threads.
    _Atomic uint64_t shared_nodes;
    // A node limit shared by the threads: each stops when the sum of what all
    // have published reaches it, so that none overshoots by more than a poll
    // interval however the threads are scheduled. 0: none.
    Searcher *pool; // the main searcher (itself for the main one)
    uint64_t pool_node_limit;
    // A helper's job and thread (main: unused).
    pthread_t thread;
    bool thread_started;
    Board job_board;
    const Key *job_keys; // the caller's, stable while search_run runs
    int job_nkeys;
    SearchLimits job_limits;
    SearchParams job_params;
};

// The generator state of weakened searches given no state of their own.
static const uint64_t SKILL_FIXED_SEED = 0x5DEECE66DULL;

static int lmr_table[64][64];
static int lmp_table[2][LMP_MAX_DEPTH + 1];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

int64_t search_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void search_limits_init(SearchLimits *limits) {
    memset(limits, 0, sizeof *limits);
    limits->time[WHITE] = limits->time[BLACK] = -1;
}

static void init_tables(void) {
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            lmr_table[d][m] = (int)(0.8 + log(d) * log(m) / 2.3);
    for (int d = 0; d <= LMP_MAX_DEPTH; d++) {
        lmp_table[0][d] = (3 + d * d) / 2;
        lmp_table[1][d] = 3 + d * d;
    }
}

Searcher *search_new(TTable *tt, atomic_bool *stop) {
    board_init_tables();
    Searcher *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->pawns = eval_pawn_cache_new();
    if (!s->pawns) {
        free(s);
        return NULL;
    }
    s->tt = tt;
    s->stop = stop;
    s->check_cap = CHECK_EVERY_MAX;
    s->pool = s;
    atomic_init(&s->pondering, false);
    atomic_init(&s->ponderhit_pending, false);
    atomic_init(&s->helpers_stop, false);
    atomic_init(&s->shared_nodes, 0);
    pthread_once(&tables_once, init_tables);
    return s;
}

void search_free(Searcher *s) {
    if (!s)
        return;
    search_set_threads(s, 1);
    free(s->helpers);
    eval_pawn_cache_free(s->pawns);
    free(s);
}

int search_set_threads(Searcher *s, int threads) {
    if (threads < 1)
        threads = 1;
    if (threads > SEARCH_THREADS_MAX)
        threads = SEARCH_THREADS_MAX;
    int want = threads - 1;
    while (s->nhelpers > want)
        search_free(s->helpers[--s->nhelpers]);
    if (want > s->nhelpers) {
        Searcher **h = realloc(s->helpers, (size_t)want * sizeof *h);
        if (!h)
            return s->nhelpers + 1;
        s->helpers = h;
        while (s->nhelpers < want) {
            Searcher *helper = search_new(s->tt, &s->helpers_stop);
            if (!helper)
                break; // out of memory: search with the threads there are
            helper->id = s->nhelpers + 1;
            s->helpers[s->nhelpers++] = helper;
        }
    }
    return s->nhelpers + 1;
}

int search_threads(const Searcher *s) { return s->nhelpers + 1; }

void search_clear(Searcher *s) {
    memset(&s->hist, 0, sizeof s->hist);
    memset(s->correction, 0, sizeof s->correction);
    eval_pawn_cache_clear(s->pawns);
    for (int i = 0; i < s->nhelpers; i++)
        search_clear(s->helpers[i]);
}

void search_ponderhit(Searcher *s) { atomic_store(&s->ponderhit_pending, true); }

// --------------------------------------------------------------- helpers

static inline StackEntry *stack_at(Searcher *s, int ply) { return &s->stack[ply + STACK_OFFSET]; }

static inline int mated_in(int ply) { return -VALUE_MATE + ply; }
static inline int mate_in(int ply) { return VALUE_MATE - ply; }

// Draws score the contempt against the side that was to move at the root:
// it prefers playing on unless it is worse by more than the contempt.
static inline int draw_score(const Searcher *s, int ply) {
    return (ply & 1) ? s->contempt : -s->contempt;
}

int search_contempt_cp(const Board *b, int percent) {
    int phase = eval_phase(b);
    int c;
    if (phase >= CONTEMPT_OPENING_PHASE)
        c = CONTEMPT_OPENING;
    else if (phase <= CONTEMPT_ENDING_PHASE)
        c = 0;
    else
        c = CONTEMPT_OPENING * (phase - CONTEMPT_ENDING_PHASE) /
            (CONTEMPT_OPENING_PHASE - CONTEMPT_ENDING_PHASE);
    return c * percent / 100;
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

// Polls the stop flag and the clock every check_every nodes, adapting the
// interval so that a check happens roughly every millisecond.
// The nodes of all threads, for the main searcher: its own count and what
// its helpers last published (a poll interval behind at most).
static uint64_t total_nodes(const Searcher *s) {
    uint64_t n = s->nodes;
    for (int i = 0; i < s->helpers_running; i++)
        n += atomic_load_explicit(&s->helpers[i]->shared_nodes, memory_order_relaxed);
    return n;
}

// The nodes all threads of a pool have published; safe on any of them.
static uint64_t pool_nodes(const Searcher *pool) {
    uint64_t n = atomic_load_explicit(&pool->shared_nodes, memory_order_relaxed);
    for (int i = 0; i < pool->nhelpers; i++)
        n += atomic_load_explicit(&pool->helpers[i]->shared_nodes, memory_order_relaxed);
    return n;
}

static bool check_stop(Searcher *s) {
    if (s->stopped)
        return true;
    if (s->limits.nodes && s->nodes >= s->limits.nodes)
        return s->stopped = true;
    if (s->nodes < s->next_check)
        return false;
    int64_t now = search_now_ms();
    if (now - s->last_check_ms < 1 && s->check_every < s->check_cap)
        s->check_every *= 2;
    else if (now - s->last_check_ms > 2 && s->check_every > 64)
        s->check_every /= 2;
    if (s->check_every > s->check_cap)
        s->check_every = s->check_cap;
    s->last_check_ms = now;
    s->next_check = s->nodes + s->check_every;
    atomic_store_explicit(&s->shared_nodes, s->nodes, memory_order_relaxed);
    if (atomic_load(s->stop))
        return s->stopped = true;
    if (s->pool_node_limit && pool_nodes(s->pool) >= s->pool_node_limit)
        return s->stopped = true;
    if (atomic_load(&s->ponderhit_pending) && atomic_load(&s->pondering)) {
        // The ponder move was played: from now on the clock counts.
        atomic_store(&s->pondering, false);
        atomic_store(&s->ponderhit_pending, false);
        timeman_init(&s->tm, &s->limits, s->root_side, s->params.move_overhead, now);
    }
    if (!atomic_load(&s->pondering) && timeman_hard_expired(&s->tm, now))
        return s->stopped = true;
    return false;
}

static void update_history(int16_t *entry, int bonus) {
    int v = *entry;
    v += bonus - v * abs(bonus) / HISTORY_MAX;
    *entry = (int16_t)v;
}

static const int16_t *cont_row(Searcher *s, int ply) {
    StackEntry *e = stack_at(s, ply);
    if (ply < 0 || e->move == MOVE_NONE || e->move == MOVE_NULL)
        return NULL;
    return &s->hist.cont[e->piece][move_to(e->move)][0][0];
}

static void update_quiet_stats(Searcher *s, int ply, Move best, const Move *quiets, int nquiets,
                               int depth) {
    Board *b = &s->board;
    StackEntry *ss = stack_at(s, ply);
    int bonus = depth * depth * 16 + 32 * depth;
    if (bonus > HISTORY_BONUS_MAX)
        bonus = HISTORY_BONUS_MAX;
    if (ss->killers[0] != best) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = best;
    }
    StackEntry *prev = stack_at(s, ply - 1);
    if (ply > 0 && prev->move != MOVE_NONE && prev->move != MOVE_NULL)
        s->hist.counter[prev->piece][move_to(prev->move)] = best;

    int16_t *c1 = (int16_t *)cont_row(s, ply - 1);
    int16_t *c2 = (int16_t *)cont_row(s, ply - 2);
    for (int i = -1; i < nquiets; i++) {
        Move m = i < 0 ? best : quiets[i];
        int delta = i < 0 ? bonus : -bonus;
        Square from = move_from(m), to = move_to(m);
        int idx = b->squares[from] * SQ_NB + to;
        update_history(&s->hist.butterfly[b->side][from][to], delta);
        if (c1)
            update_history(&c1[idx], delta);
        if (c2)
            update_history(&c2[idx], delta);
    }
}

// A cutoff by a noisy move rewards it and punishes the noisy moves tried
// before it; any cutoff punishes the noisy moves that failed to give one.
static void update_capture_stats(Searcher *s, Move best, const Move *noisy, int nnoisy,
                                 int depth) {
    Board *b = &s->board;
    int bonus = depth * depth * 16 + 32 * depth;
    if (bonus > HISTORY_BONUS_MAX)
        bonus = HISTORY_BONUS_MAX;
    if (board_is_capture(b, best) || move_is_promotion(best))
        update_history(movepick_capture_entry(&s->hist, b, best), bonus);
    for (int i = 0; i < nnoisy; i++)
        update_history(movepick_capture_entry(&s->hist, b, noisy[i]), -bonus);
}

static void update_pv(StackEntry *ss, Move m, const StackEntry *child) {
    ss->pv[0] = m;
    int n = child->pv_length;
    if (n > MAX_PLY - 1)
        n = MAX_PLY - 1;
    memcpy(ss->pv + 1, child->pv, (size_t)n * sizeof(Move));
    ss->pv_length = n + 1;
}

static inline void make_move(Searcher *s, int ply, Move m) {
    StackEntry *ss = stack_at(s, ply);
    ss->move = m;
    ss->piece = (Piece)s->board.squares[move_from(m)];
    s->keys[s->root_keys + ply] = s->board.key;
    board_make_move(&s->board, m, &ss->undo);
    tt_prefetch(s->tt, s->board.key);
}

// Starts a node: counts it, tracks the selective depth and empties its PV.
// True when the search has to stop.
static inline bool enter_node(Searcher *s, int ply) {
    stack_at(s, ply)->pv_length = 0;
    s->nodes++;
    if (ply > s->seldepth)
        s->seldepth = ply;
    return check_stop(s);
}

// True when a table entry's bound settles the node's value for [alpha, beta].
static inline bool tt_bound_decides(const TTHit *hit, int alpha, int beta) {
    return hit->score != VALUE_NONE &&
           (hit->bound == BOUND_EXACT || (hit->bound == BOUND_LOWER && hit->score >= beta) ||
            (hit->bound == BOUND_UPPER && hit->score <= alpha));
}

static inline int32_t *correction_entry(Searcher *s) {
    const Board *b = &s->board;
    return &s->correction[b->side][b->pawn_key & (CORRECTION_SIZE - 1)];
}

// The evaluation corrected by what searches found in this pawn structure.
static inline int corrected_eval(Searcher *s, int raw) {
    int v = raw + *correction_entry(s) / CORRECTION_GRAIN;
    return v >= VALUE_MATE_IN_MAX ? VALUE_MATE_IN_MAX - 1
           : v <= VALUE_MATED_IN_MAX ? VALUE_MATED_IN_MAX + 1
                                     : v;
}

static void update_correction(Searcher *s, int depth, int diff) {
    int32_t *e = correction_entry(s);
    int weight = depth + 1 < 16 ? depth + 1 : 16;
    int32_t v = (*e * (256 - weight) + diff * CORRECTION_GRAIN * weight) / 256;
    const int32_t limit = CORRECTION_MAX_CP * CORRECTION_GRAIN;
    *e = v > limit ? limit : v < -limit ? -limit : v;
}

// The static evaluation, sharpened by the table's score when its bound says
// the true value lies beyond it.
static inline int refined_eval(int static_eval, bool tt_found, const TTHit *hit) {
    if (tt_found && hit->score != VALUE_NONE &&
        (hit->bound & (hit->score > static_eval ? BOUND_LOWER : BOUND_UPPER)))
        return hit->score;
    return static_eval;
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
        return in_check ? 0 : eval_evaluate(b, s->pawns);

    // Step 1. Transposition table.
    TTHit hit;
    bool tt_found = tt_probe(s->tt, b->key, ply, &hit);
    Move tt_move = tt_found ? hit.move : MOVE_NONE;
    if (tt_found && !pv_node && tt_bound_decides(&hit, alpha, beta))
        return hit.score;

    // Step 2. Stand pat: outside check, the side to move may decline to capture.
    int best = -VALUE_INFINITE, static_eval = VALUE_NONE, raw_eval = VALUE_NONE;
    if (!in_check) {
        raw_eval = tt_found && hit.eval != VALUE_NONE ? hit.eval : eval_evaluate(b, s->pawns);
        static_eval = corrected_eval(s, raw_eval);
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
            if (!move_is_promotion(m) && static_eval + gain + QS_DELTA_MARGIN <= alpha)
                continue;
            if (!see_ge(b, m, 0))
                continue;
        }
        make_move(s, ply, m);
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

static int search(Searcher *s, int alpha, int beta, int depth, int ply, bool cut_node) {
    if (depth <= 0)
        return qsearch(s, alpha, beta, ply);

    Board *b = &s->board;
    StackEntry *ss = stack_at(s, ply);
    bool pv_node = beta - alpha > 1;
    if (enter_node(s, ply))
        return 0;

    // Step 1. Draws, the horizon of the stack, and mate distance pruning.
    if (is_draw(s, ply))
        return draw_score(s, ply);
    bool in_check = b->checkers != 0;
    if (ply >= MAX_PLY - 1)
        return in_check ? 0 : eval_evaluate(b, s->pawns);
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
            ss->killers[0] != tt_move) {
            ss->killers[1] = ss->killers[0];
            ss->killers[0] = tt_move;
        }
        return hit.score;
    }

    // Step 3. Static evaluation, refined by the table's bound when it agrees.
    int static_eval, eval, raw_eval;
    if (in_check) {
        static_eval = eval = raw_eval = VALUE_NONE;
    } else {
        raw_eval = tt_found && hit.eval != VALUE_NONE ? hit.eval : eval_evaluate(b, s->pawns);
        static_eval = corrected_eval(s, raw_eval);
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
        if (depth <= RFP_MAX_DEPTH && eval - RFP_MARGIN * (depth - improving) >= beta &&
            eval < VALUE_MATE_IN_MAX)
            return eval;

        // Step 5. Razoring: hopeless at low depth, verify with quiescence.
        if (depth <= RAZOR_MAX_DEPTH && eval + RAZOR_MARGIN * depth <= alpha) {
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
            int r = 3 + depth / 6 + ((eval - beta) / 200 < 3 ? (eval - beta) / 200 : 3);
            ss->move = MOVE_NULL;
            ss->piece = NO_PIECE;
            s->keys[s->root_keys + ply] = b->key;
            board_make_null(b, &ss->undo);
            int score = -search(s, -beta, -beta + 1, depth - r - 1, ply + 1, !cut_node);
            board_unmake_null(b, &ss->undo);
            if (s->stopped)
                return 0;
            if (score >= beta)
                return score >= VALUE_MATE_IN_MAX ? beta : score;
        }

        // Step 6b. ProbCut: a capture that beats beta by a margin in a
        // shallow search almost surely beats beta at full depth.
        int probcut_beta = beta + PROBCUT_MARGIN;
        if (depth >= PROBCUT_MIN_DEPTH && abs(beta) < VALUE_MATE_IN_MAX &&
            !(tt_found && hit.depth >= depth - 3 && hit.score != VALUE_NONE &&
              hit.score < probcut_beta)) {
            MovePicker pc;
            movepick_init_qsearch(&pc, b, &s->hist, tt_move);
            Move cm;
            while ((cm = movepick_next(&pc, false)) != MOVE_NONE) {
                if (cm == excluded || !see_ge(b, cm, probcut_beta - static_eval))
                    continue;
                make_move(s, ply, cm);
                int score = -qsearch(s, -probcut_beta, -probcut_beta + 1, ply + 1);
                if (score >= probcut_beta)
                    score = -search(s, -probcut_beta, -probcut_beta + 1, depth - 4, ply + 1,
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
                       ? s->hist.counter[prev->piece][move_to(prev->move)]
                       : MOVE_NONE;
    const int16_t *c1 = cont_row(s, ply - 1), *c2 = cont_row(s, ply - 2);
    MovePicker mp;
    movepick_init(&mp, b, &s->hist, tt_move, ss->killers, counter, c1, c2);

    Move quiets[64], noisy[32];
    int nquiets = 0, nnoisy = 0, moves = 0;
    int best = -VALUE_INFINITE, old_alpha = alpha;
    Move best_move = MOVE_NONE, m;
    bool skip_quiets = false;

    while ((m = movepick_next(&mp, skip_quiets)) != MOVE_NONE) {
        if (m == excluded)
            continue;
        bool quiet = !board_is_capture(b, m) && !move_is_promotion(m);
        int hist_score = quiet ? movepick_quiet_score(&s->hist, b, m, c1, c2) : 0;

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
                static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha &&
                hist_score < 4096) {
                skip_quiets = true;
                continue;
            }
            if (depth <= SEE_MAX_DEPTH &&
                !see_ge(b, m, quiet ? SEE_QUIET_MARGIN * depth : SEE_NOISY_MARGIN * depth * depth))
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
            int score = search(s, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut_node);
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

        make_move(s, ply, m);
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
            score = -search(s, -alpha - 1, -alpha, reduced, ply + 1, true);
            if (score > alpha && reduced < new_depth)
                score = -search(s, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
        } else if (!pv_node || moves > 1) {
            score = -search(s, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
        } else {
            score = alpha + 1; // forces the full-window search below
        }
        if (pv_node && (moves == 1 || (score > alpha && score < beta)))
            score = -search(s, -beta, -alpha, new_depth, ply + 1, false);
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
        update_capture_stats(s, best_move, noisy, nnoisy, depth);
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
        update_correction(s, depth, best - raw_eval);
    tt_store(s->tt, b->key, ply, best_move, best, raw_eval, depth, bound);
    return best;
}

// --------------------------------------------------------------- root

static int search_root(Searcher *s, int alpha, int beta, int depth) {
    Board *b = &s->board;
    StackEntry *ss = stack_at(s, 0);
    int best = -VALUE_INFINITE;
    for (int i = s->pv_index; i < s->root_count; i++)
        s->roots[i].score = -VALUE_INFINITE;

    for (int i = s->pv_index; i < s->root_count; i++) {
        RootMove *rm = &s->roots[i];
        Move m = rm->move;
        s->seldepth = 0;
        make_move(s, 0, m);
        bool gives_check = b->checkers != 0;
        int new_depth = depth - 1 + gives_check;
        int score;
        if (i == s->pv_index) {
            score = -search(s, -beta, -alpha, new_depth, 1, false);
        } else {
            bool quiet = board_captured_piece(b, m) == NO_PIECE;
            int r = depth >= 3 && i >= s->pv_index + 3 && quiet && !gives_check ? 1 : 0;
            score = -search(s, -alpha - 1, -alpha, new_depth - r, 1, true);
            if (score > alpha && r)
                score = -search(s, -alpha - 1, -alpha, new_depth, 1, true);
            if (score > alpha && score < beta)
                score = -search(s, -beta, -alpha, new_depth, 1, false);
        }
        board_unmake_move(b, &ss->undo);
        if (s->stopped)
            break;
        if (i == s->pv_index || score > alpha) {
            rm->score = score;
            rm->seldepth = s->seldepth;
            StackEntry *child = stack_at(s, 1);
            rm->pv[0] = m;
            int n = child->pv_length < MAX_PLY - 1 ? child->pv_length : MAX_PLY - 1;
            memcpy(rm->pv + 1, child->pv, (size_t)n * sizeof(Move));
            rm->pv_length = n + 1;
        }
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (score >= beta)
                    break;
            }
        }
    }
    (void)ss;
    return best;
}

// Stable insertion sort by score, best first, of roots[from..count).
static void sort_roots(Searcher *s, int from) {
    for (int i = from + 1; i < s->root_count; i++) {
        RootMove tmp = s->roots[i];
        int j = i;
        while (j > from && s->roots[j - 1].score < tmp.score) {
            s->roots[j] = s->roots[j - 1];
            j--;
        }
        s->roots[j] = tmp;
    }
}

static void report_line(Searcher *s, int depth, int multipv, const RootMove *rm, Bound bound) {
    if (!s->on_info)
        return;
    SearchInfo info;
    memset(&info, 0, sizeof info);
    info.depth = depth;
    info.seldepth = rm->seldepth > depth ? rm->seldepth : depth;
    info.multipv = multipv;
    int score = rm->score == -VALUE_INFINITE ? rm->prev_score : rm->score;
    info.score = score;
    if (score >= VALUE_MATE_IN_MAX)
        info.mate = (VALUE_MATE - score + 1) / 2;
    else if (score <= VALUE_MATED_IN_MAX)
        info.mate = -(VALUE_MATE + score) / 2;
    info.bound = bound;
    info.nodes = total_nodes(s);
    info.time_ms = search_now_ms() - s->tm.start_ms;
    info.nps = info.time_ms > 0 ? info.nodes * 1000 / (uint64_t)info.time_ms : info.nodes * 1000;
    info.hashfull = tt_hashfull(s->tt);
    info.pv_length = rm->pv_length;
    memcpy(info.pv, rm->pv, (size_t)rm->pv_length * sizeof(Move));
    s->on_info(&info, s->ctx);
}

static void report(Searcher *s, int depth, int line, Bound bound) {
    report_line(s, depth, line + 1, &s->roots[line], bound);
}

// A weakened search's choice among its candidate lines (see skill.h). Sets
// *best_move and *best_score and returns the chosen line, or NULL when the
// move chosen lies outside the lines. *rank as in SearchResult.
static const RootMove *skill_choose(Searcher *s, const SkillLevel *skill, uint64_t *rng,
                                    Move *best_move, int *best_score, int *rank) {
    SkillLine lines[MAX_MULTIPV];
    Move others[MAX_MOVES];
    int nothers = 0;
    for (int i = 0; i < s->skill_count; i++) {
        lines[i].move = s->skill_lines[i].move;
        lines[i].score = s->skill_lines[i].score;
    }
    for (int i = 0; i < s->root_count; i++) {
        bool candidate = false;
        for (int j = 0; j < s->skill_count; j++)
            candidate |= s->skill_lines[j].move == s->roots[i].move;
        if (!candidate)
            others[nothers++] = s->roots[i].move;
    }
    uint64_t fixed = SKILL_FIXED_SEED;
    int pick =
        skill_pick(skill, &s->board, lines, s->skill_count, others, nothers, rng ? rng : &fixed);
    if (pick >= 0) {
        *best_move = lines[pick].move;
        *best_score = lines[pick].score;
        *rank = pick;
        return &s->skill_lines[pick];
    }
    *best_move = others[-1 - pick];
    *rank = -1;
    for (int i = 0; i < s->root_count; i++)
        if (s->roots[i].move == *best_move && s->roots[i].prev_score != -VALUE_INFINITE)
            *best_score = s->roots[i].prev_score;
    return NULL;
}

static void setup_roots(Searcher *s) {
    MoveList list;
    movegen_legal(&s->board, &list);
    s->root_count = 0;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (s->limits.searchmoves_count) {
            bool wanted = false;
            for (int j = 0; j < s->limits.searchmoves_count; j++)
                wanted |= s->limits.searchmoves[j] == m;
            if (!wanted)
                continue;
        }
        RootMove *rm = &s->roots[s->root_count++];
        rm->move = m;
        rm->score = rm->prev_score = -VALUE_INFINITE;
        rm->pv[0] = m;
        rm->pv_length = 1;
        rm->seldepth = 0;
    }
    // Hash move first, so that depth 1 starts from the best guess.
    TTHit hit;
    if (tt_probe(s->tt, s->board.key, 0, &hit) && hit.move) {
        for (int i = 1; i < s->root_count; i++) {
            if (s->roots[i].move == hit.move) {
                RootMove tmp = s->roots[i];
                memmove(&s->roots[1], &s->roots[0], (size_t)i * sizeof(RootMove));
                s->roots[0] = tmp;
                break;
            }
        }
    }
}

// --------------------------------------------------------------- threads

// Helper id skips some depths so that the threads spread over neighbouring
// iterations instead of all searching the same one: out of every `period`
// depths it skips one, at a place that depends on the id. Helper 1 searches
// the odd depths, 2 skips every third, 3 every fourth, 4 skips the odd ones
// from 3, and so on. Depth 1 is never skipped, so every helper has root scores.
static bool helper_skips(int id, int depth) {
    int period = 2 + (id - 1) % 3;
    int phase = (id - 1) / 3 % period;
    return depth > 1 && (depth + phase) % period == 0;
}

static void *helper_main(void *arg) {
    Searcher *h = arg;
    SearchResult ignored;
    search_run(h, &h->job_board, h->job_keys, h->job_nkeys, &h->job_limits, &h->job_params,
               NULL, NULL, &ignored);
    return NULL;
}

// Starts the helpers on the root of the main searcher's search. They get
// no clock (the main searcher keeps it and raises helpers_stop when done);
// a node limit is shared: every thread stops when the pool's sum reaches
// it. They do not report, nor search several lines.
static void start_helpers(Searcher *s, const Board *b, const Key *keys, int nkeys) {
    atomic_store(&s->helpers_stop, false);
    s->helpers_running = 0;
    if (s->limits.nodes) {
        s->check_cap = CHECK_EVERY_SHARED_NODES;
        s->pool_node_limit = s->limits.nodes;
    }
    // All counts are zero before any helper starts summing them.
    for (int i = 0; i < s->nhelpers; i++)
        atomic_store(&s->helpers[i]->shared_nodes, 0);
    for (int i = 0; i < s->nhelpers; i++) {
        Searcher *h = s->helpers[i];
        h->job_board = *b;
        h->job_keys = keys;
        h->job_nkeys = nkeys;
        h->job_limits = s->limits;
        h->job_limits.time[WHITE] = h->job_limits.time[BLACK] = -1;
        h->job_limits.inc[WHITE] = h->job_limits.inc[BLACK] = 0;
        h->job_limits.movestogo = 0;
        h->job_limits.movetime = 0;
        h->job_limits.nodes = 0;
        h->job_limits.ponder = false;
        h->job_params = s->params;
        h->job_params.multipv = 1;
        h->job_params.level = 0;
        h->job_params.rng = NULL;
        h->check_cap = s->check_cap;
        h->pool = s;
        h->pool_node_limit = s->pool_node_limit;
        if (pthread_create(&h->thread, NULL, helper_main, h) != 0)
            break; // no more threads to be had: search with those there are
        h->thread_started = true;
        s->helpers_running = i + 1;
    }
}

// Stops the helpers and waits for them; returns the nodes they searched.
static uint64_t stop_helpers(Searcher *s) {
    atomic_store(&s->helpers_stop, true);
    uint64_t nodes = 0;
    for (int i = 0; i < s->helpers_running; i++) {
        Searcher *h = s->helpers[i];
        if (h->thread_started) {
            pthread_join(h->thread, NULL);
            h->thread_started = false;
        }
        nodes += h->nodes;
    }
    s->helpers_running = 0;
    s->check_cap = CHECK_EVERY_MAX;
    s->pool_node_limit = 0;
    return nodes;
}

void search_run(Searcher *s, const Board *b, const Key *keys, int nkeys,
                const SearchLimits *limits, const SearchParams *params, SearchInfoFn on_info,
                void *ctx, SearchResult *result) {
    s->board = *b;
    // Only positions since the last irreversible move can repeat.
    int n = nkeys < b->halfmove ? nkeys : b->halfmove;
    n = n < LINE_MAX ? n : LINE_MAX;
    if (n > 0)
        memcpy(s->keys, keys + nkeys - n, (size_t)n * sizeof *keys);
    s->root_keys = n > 0 ? n : 0;
    s->limits = *limits;
    s->params = *params;
    s->on_info = on_info;
    s->ctx = ctx;
    s->nodes = 0;
    s->stopped = false;
    s->check_every = 1024;
    s->next_check = s->check_every;
    s->last_check_ms = search_now_ms();
    atomic_store(&s->pondering, limits->ponder);
    s->root_side = b->side;
    atomic_store(&s->ponderhit_pending, false);
    atomic_store_explicit(&s->shared_nodes, 0, memory_order_relaxed);
    timeman_init(&s->tm, limits, b->side, params->move_overhead, s->last_check_ms);
    s->contempt = params->analysis ? 0 : search_contempt_cp(b, params->contempt_percent);
    if (s->id == 0) // the main searcher's search is the generation; helpers join it
        tt_new_search(s->tt);
    for (int i = 0; i < MAX_PLY + STACK_OFFSET + 2; i++) {
        s->stack[i].move = MOVE_NONE;
        s->stack[i].piece = NO_PIECE;
        s->stack[i].static_eval = VALUE_NONE;
        s->stack[i].killers[0] = s->stack[i].killers[1] = MOVE_NONE;
        s->stack[i].excluded = MOVE_NONE;
        s->stack[i].double_extensions = 0;
        s->stack[i].pv_length = 0;
    }
    // Age the history between moves so that old lessons fade.
    for (int c = 0; c < COLOR_NB; c++)
        for (int f = 0; f < SQ_NB; f++)
            for (int t = 0; t < SQ_NB; t++)
                s->hist.butterfly[c][f][t] /= 2;

    setup_roots(s);
    memset(result, 0, sizeof *result);
    result->best = s->root_count ? s->roots[0].move : MOVE_NONE;
    if (s->root_count == 0)
        return;
    int multipv = params->multipv < 1 ? 1 : params->multipv;
    if (multipv > s->root_count)
        multipv = s->root_count;
    if (multipv > MAX_MULTIPV)
        multipv = MAX_MULTIPV;
    int max_depth = limits->depth > 0 && limits->depth < MAX_PLY - 1 ? limits->depth : MAX_PLY - 2;
    // A weakened search: shallower, more lines than it shows, a node budget.
    const SkillLevel *skill = skill_level(params->level);
    int shown = multipv;
    s->skill_count = 0;
    if (skill) {
        multipv = skill->lines > multipv ? skill->lines : multipv;
        multipv = multipv < s->root_count ? multipv : s->root_count;
        multipv = multipv < MAX_MULTIPV ? multipv : MAX_MULTIPV;
        max_depth = max_depth < skill->depth ? max_depth : skill->depth;
    }
    // A forced move needs no thought beyond a quick look for the ponder move.
    if (s->root_count == 1 && s->tm.soft_ms && !s->tm.fixed && !limits->ponder)
        s->tm.soft_ms = s->tm.base_soft_ms = s->tm.soft_ms < 20 ? s->tm.soft_ms : 20;
    // More threads; a weakened search keeps to one, so that a level plays alike anywhere.
    if (s->nhelpers > 0 && !skill)
        start_helpers(s, b, keys, nkeys);

    Move best_move = s->roots[0].move, prev_best = MOVE_NONE;
    int best_score = 0, completed = 0, changes = 0, prev_score = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        if (s->id > 0 && helper_skips(s->id, depth))
            continue;
        s->root_depth = depth;
        for (s->pv_index = 0; s->pv_index < multipv; s->pv_index++) {
            RootMove *cur = &s->roots[s->pv_index];
            int center = cur->score != -VALUE_INFINITE ? cur->score : cur->prev_score;
            for (int i = s->pv_index; i < s->root_count; i++)
                s->roots[i].prev_score = s->roots[i].score;
            int delta = ASPIRATION_DELTA, alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
            if (depth >= ASPIRATION_MIN_DEPTH && center > -VALUE_INFINITE) {
                alpha = center - delta > -VALUE_INFINITE ? center - delta : -VALUE_INFINITE;
                beta = center + delta < VALUE_INFINITE ? center + delta : VALUE_INFINITE;
            }
            for (;;) {
                int score = search_root(s, alpha, beta, depth);
                sort_roots(s, s->pv_index);
                if (s->stopped)
                    break;
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = score - delta > -VALUE_INFINITE ? score - delta : -VALUE_INFINITE;
                    if (search_now_ms() - s->tm.start_ms > 2000)
                        report(s, depth, s->pv_index, BOUND_UPPER);
                } else if (score >= beta) {
                    beta = score + delta < VALUE_INFINITE ? score + delta : VALUE_INFINITE;
                    if (search_now_ms() - s->tm.start_ms > 2000)
                        report(s, depth, s->pv_index, BOUND_LOWER);
                } else {
                    break;
                }
                delta += delta / 2;
            }
            sort_roots(s, 0);
            if (s->stopped)
                break;
        }
        if (s->stopped) {
            // A move fully searched in the interrupted iteration that beat the
            // previous best is trusted; otherwise keep the last full result.
            if (s->roots[0].score != -VALUE_INFINITE && s->roots[0].score > best_score - 1) {
                best_move = s->roots[0].move;
                best_score = s->roots[0].score;
            }
            break;
        }
        completed = depth;
        for (int line = 0; line < shown; line++)
            report(s, depth, line, BOUND_EXACT);
        best_move = s->roots[0].move;
        best_score = s->roots[0].score;
        if (skill) {
            // Keep the lines; after the first iteration the node budget
            // counts, and an iteration it cannot finish is not started.
            s->skill_count = multipv;
            memcpy(s->skill_lines, s->roots, (size_t)multipv * sizeof(RootMove));
            uint64_t budget =
                limits->nodes && limits->nodes < skill->nodes ? limits->nodes : skill->nodes;
            s->limits.nodes = budget;
            if (s->nodes * 2 >= budget)
                break;
        }

        // Stop on a limit reached, or adapt the time to the search's stability.
        if (limits->mate && best_score >= VALUE_MATE_IN_MAX &&
            (VALUE_MATE - best_score + 1) / 2 <= limits->mate)
            break;
        changes = (changes * 3) / 4 + (prev_best != MOVE_NONE && best_move != prev_best ? 4 : 0);
        prev_best = best_move;
        int drop = depth > 1 ? prev_score - best_score : 0;
        prev_score = best_score;
        timeman_update(&s->tm, changes / 4, drop > 0 ? drop : 0);
        if (!atomic_load(&s->pondering) && !timeman_can_start_iteration(&s->tm, search_now_ms()))
            break;
    }

    // All threads have stopped before the result is known.
    uint64_t helper_nodes = s->helpers_running ? stop_helpers(s) : 0;

    const RootMove *chosen = NULL;
    if (skill && s->skill_count > 0) {
        chosen = skill_choose(s, skill, params->rng, &best_move, &best_score, &result->rank);
        // The line played is the one to show last, when it is not the best.
        if (chosen && result->rank > 0)
            report_line(s, completed, 1, chosen, BOUND_EXACT);
    }

    result->best = best_move;
    result->score = best_score;
    result->depth = completed;
    result->nodes = s->nodes + helper_nodes;
    result->ponder = chosen && chosen->pv_length > 1 ? chosen->pv[1] : MOVE_NONE;
    for (int i = 0; i < s->root_count && result->ponder == MOVE_NONE; i++) {
        if (s->roots[i].move == best_move && s->roots[i].pv_length > 1) {
            result->ponder = s->roots[i].pv[1];
            break;
        }
    }
    if (result->ponder == MOVE_NONE) {
        Board after = s->board;
        board_play(&after, best_move);
        TTHit hit;
        if (tt_probe(s->tt, after.key, 1, &hit) && movegen_is_legal(&after, hit.move))
            result->ponder = hit.move;
    }
}
