// SPDX-License-Identifier: GPL-3.0-or-later
// The search at the root: iterative deepening with aspiration windows over
// the root moves (several lines for MultiPV and weakened play), reporting,
// the clock and the stop checks. search.c searches below the root.
#include <string.h>
#include <time.h>

#include "engine/movegen.h"
#include "engine/search_internal.h"
#include "engine/skill.h"

static const int ASPIRATION_MIN_DEPTH = 5;
// Fail-high and fail-low reports are sent only after this long, when the
// wait for the next full line starts to feel long.
static const int64_t BOUND_REPORT_AFTER_MS = 2000;
// Scores of the last iterations kept to see whether the score is falling.
enum { TREND_SCORES = 4 };
// Contempt in centipawns at the two ends of the game; in between it falls
// linearly with the phase (about 25 in a typical middlegame).
static const int CONTEMPT_OPENING = 50;
static const int CONTEMPT_OPENING_PHASE = 20;
static const int CONTEMPT_ENDING_PHASE = 6;

// The generator state of weakened searches given no state of their own.
static const uint64_t SKILL_FIXED_SEED = 0x5DEECE66DULL;

int64_t search_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void search_limits_init(SearchLimits *limits) {
    memset(limits, 0, sizeof *limits);
    limits->time[WHITE] = limits->time[BLACK] = -1;
}

void search_ponderhit(Searcher *s) { atomic_store(&s->ponderhit_pending, true); }

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

// --------------------------------------------------------------- clock

// The slow path of search_should_stop: adapts the poll interval to about a
// millisecond, publishes the node count and checks the flags and limits.
bool search_poll(Searcher *s) {
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
    if (s->pool_node_limit && search_pool_nodes(s->pool) >= s->pool_node_limit)
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

// --------------------------------------------------------------- root moves

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
        uint64_t nodes_before = s->nodes;
        search_make_move(s, 0, m);
        bool gives_check = b->checkers != 0;
        int new_depth = depth - 1 + gives_check;
        int score;
        if (i == s->pv_index) {
            score = -search_node(s, -beta, -alpha, new_depth, 1, false);
        } else {
            bool quiet = board_captured_piece(b, m) == NO_PIECE;
            int r = depth >= 3 && i >= s->pv_index + 3 && quiet && !gives_check ? 1 : 0;
            score = -search_node(s, -alpha - 1, -alpha, new_depth - r, 1, true);
            if (score > alpha && r)
                score = -search_node(s, -alpha - 1, -alpha, new_depth, 1, true);
            if (score > alpha && score < beta)
                score = -search_node(s, -beta, -alpha, new_depth, 1, false);
        }
        board_unmake_move(b, &ss->undo);
        rm->nodes += s->nodes - nodes_before;
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
    info.nodes = search_total_nodes(s);
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
        rm->nodes = 0;
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

// Sets the searcher up for a new search of b (arguments as search_run's).
static void prepare(Searcher *s, const Board *b, const Key *keys, int nkeys,
                    const SearchLimits *limits, const SearchParams *params, SearchInfoFn on_info,
                    void *ctx) {
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
    s->net = params->net;
    s->margins = s->net ? &search_margins_net : &search_margins_hand;
    if (s->net)
        nnue_stack_reset(s->nnue, s->net, b);
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
    history_age(&s->hist);
}

// Searches the line pv_index at depth in a window around its last score,
// widened on each fail until the score lies inside it (or the search stops).
static void search_line(Searcher *s, int depth) {
    RootMove *cur = &s->roots[s->pv_index];
    int center = cur->score != -VALUE_INFINITE ? cur->score : cur->prev_score;
    for (int i = s->pv_index; i < s->root_count; i++)
        s->roots[i].prev_score = s->roots[i].score;
    int delta = s->margins->aspiration, alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
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
            if (search_now_ms() - s->tm.start_ms > BOUND_REPORT_AFTER_MS)
                report(s, depth, s->pv_index, BOUND_UPPER);
        } else if (score >= beta) {
            beta = score + delta < VALUE_INFINITE ? score + delta : VALUE_INFINITE;
            if (search_now_ms() - s->tm.start_ms > BOUND_REPORT_AFTER_MS)
                report(s, depth, s->pv_index, BOUND_LOWER);
        } else {
            break;
        }
        delta += delta / 2;
    }
}

// The move to ponder on after best: the chosen line's second move, else the
// best move's, else the table's move after it.
static Move ponder_move(Searcher *s, const RootMove *chosen, Move best_move) {
    Move ponder = chosen && chosen->pv_length > 1 ? chosen->pv[1] : MOVE_NONE;
    for (int i = 0; i < s->root_count && ponder == MOVE_NONE; i++) {
        if (s->roots[i].move == best_move && s->roots[i].pv_length > 1) {
            ponder = s->roots[i].pv[1];
            break;
        }
    }
    if (ponder == MOVE_NONE) {
        Board after = s->board;
        board_play(&after, best_move);
        TTHit hit;
        if (tt_probe(s->tt, after.key, 1, &hit) && movegen_is_legal(&after, hit.move))
            ponder = hit.move;
    }
    return ponder;
}

// What the clock learns from the completed iterations: how long the best
// move has held and whether the score is falling.
typedef struct Trend {
    Move best;     // of the last completed iteration
    int stability; // iterations in a row before it with the same best move
    int scores[TREND_SCORES]; // the last scores, newest at (count - 1) % TREND_SCORES
    int count;     // iterations recorded
} Trend;

// After a completed iteration with best move `best` scoring `score`: rescales
// the soft time limit by the best move's stability and node share, and by
// the score's fall below the previous iteration's or the one TREND_SCORES
// iterations back (whichever fall is larger: a slow slide counts as much as
// a sudden drop).
static void adapt_time(Searcher *s, Trend *t, Move best, int score) {
    t->stability = best == t->best ? t->stability + 1 : 0;
    t->best = best;
    int drop = 0;
    if (t->count > 0) {
        int prev = t->scores[(t->count - 1) % TREND_SCORES];
        int oldest = t->scores[t->count >= TREND_SCORES ? t->count % TREND_SCORES : 0];
        drop = prev - score > oldest - score ? prev - score : oldest - score;
    }
    t->scores[t->count % TREND_SCORES] = score;
    t->count++;
    // roots[0] is the best move after a completed iteration.
    double share = s->nodes ? (double)s->roots[0].nodes / (double)s->nodes : 1.0;
    timeman_update(&s->tm, t->stability, share, drop);
}

void search_run(Searcher *s, const Board *b, const Key *keys, int nkeys,
                const SearchLimits *limits, const SearchParams *params, SearchInfoFn on_info,
                void *ctx, SearchResult *result) {
    prepare(s, b, keys, nkeys, limits, params, on_info, ctx);
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
        search_start_helpers(s, b, keys, nkeys);

    Move best_move = s->roots[0].move;
    int best_score = 0, completed = 0;
    Trend trend = {MOVE_NONE, 0, {0}, 0};
    for (int depth = 1; depth <= max_depth; depth++) {
        if (s->id > 0 && search_helper_skips(s->id, depth))
            continue;
        s->root_depth = depth;
        for (s->pv_index = 0; s->pv_index < multipv; s->pv_index++) {
            search_line(s, depth);
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
        adapt_time(s, &trend, best_move, best_score);
        if (!atomic_load(&s->pondering) && !timeman_can_start_iteration(&s->tm, search_now_ms()))
            break;
    }

    // All threads have stopped before the result is known.
    uint64_t helper_nodes = s->helpers_running ? search_stop_helpers(s) : 0;

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
    result->ponder = ponder_move(s, chosen, best_move);
}
