// SPDX-License-Identifier: GPL-3.0-or-later
// What the three parts of the search share, and no other module may use
// (engine/search.h is the public API):
//   search.c       the alpha-beta search and quiescence below the root;
//   search_root.c  iterative deepening, aspiration windows, the root moves
//                  and MultiPV, reporting, the clock and the stop checks;
//   search_smp.c   the searcher's life cycle and the Lazy SMP helper threads.
#ifndef ENGINE_SEARCH_INTERNAL_H
#define ENGINE_SEARCH_INTERNAL_H

#include <pthread.h>

#include "engine/eval.h"
#include "engine/history.h"
#include "engine/line.h"
#include "engine/nnue.h"
#include "engine/search.h"
#include "engine/timeman.h"

// The stack has room below ply 0, so that looking a few plies back from the
// root needs no test.
enum { STACK_OFFSET = 4 };

// How often (in nodes) the clock and the stop flag are polled, at most; and,
// when several threads share a node limit, at most this often so that the
// sum over the threads stays close to the limit.
enum { CHECK_EVERY_MAX = 65536, CHECK_EVERY_SHARED_NODES = 256 };

// The margins of the search that are measured in centipawns of its evaluation.
// The net and the hand-crafted evaluation differ in scale and in how far a static
// score strays from a searched one, so each has its own set (search.c).
typedef struct SearchMargins {
    int rfp;                // reverse futility, per ply of depth
    int razor;              // razoring, per ply of depth
    int nmp_eval_per_ply;   // null move: a ply more reduction per this much above beta
    int futility_base;      // futility of quiet moves: base ...
    int futility_per_depth; // ... plus this per ply of depth
    int see_quiet;          // SEE pruning of a quiet move, per ply of depth (negative)
    int see_noisy;          // SEE pruning of a capture, per depth squared (negative)
    int qs_delta;           // quiescence delta pruning
    int probcut;            // ProbCut's beta above beta
    int aspiration;         // the first half-width of an aspiration window
} SearchMargins;

extern const SearchMargins search_margins_hand, search_margins_net;

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
    uint64_t nodes;     // this thread's nodes under the move, over the whole search
} RootMove;

struct Searcher {
    TTable *tt;
    atomic_bool *stop;
    atomic_bool pondering;
    atomic_bool ponderhit_pending;
    PawnCache *pawns;
    Histories hist;
    Board board;
    StackEntry stack[MAX_PLY + STACK_OFFSET + 2];
    // The network the search evaluates with (params.net, shared and read-only; NULL: the
    // hand-crafted evaluation), and this thread's accumulators, one per ply of the stack
    // (ply 0 the root; allocated apart for their 64-byte alignment).
    const NnueNet *net;
    NnueStack *nnue;
    const SearchMargins *margins; // &search_margins_net with a net, else _hand
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

static inline StackEntry *stack_at(Searcher *s, int ply) { return &s->stack[ply + STACK_OFFSET]; }

// Makes m from the position at ply, recording it on the stack, the position's
// key for repetitions and, with a net, what the move changes for the child's
// accumulator (computed only when the child is evaluated).
static inline void search_make_move(Searcher *s, int ply, Move m) {
    StackEntry *ss = stack_at(s, ply);
    ss->move = m;
    ss->piece = (Piece)s->board.squares[move_from(m)];
    s->keys[s->root_keys + ply] = s->board.key;
    // The child's bucket is fetched while the move is made (its key is known before).
    tt_prefetch(s->tt, board_key_after(&s->board, m));
    if (s->net)
        nnue_stack_push(s->nnue, ply, &s->board, m);
    board_make_move(&s->board, m, &ss->undo);
}

// Passes the turn at ply (null-move pruning): the child's accumulator is the parent's.
static inline void search_make_null(Searcher *s, int ply) {
    StackEntry *ss = stack_at(s, ply);
    ss->move = MOVE_NULL;
    ss->piece = NO_PIECE;
    s->keys[s->root_keys + ply] = s->board.key;
    if (s->net)
        nnue_stack_push_null(s->nnue, ply, &s->board);
    board_make_null(&s->board, &ss->undo);
    tt_prefetch(s->tt, s->board.key);
}

// --- search.c

// Builds the reduction tables once (thread-safe).
void search_init_tables(void);
// The alpha-beta search of the position at ply (> 0) to depth; quiescence
// at depth <= 0. cut_node: expected to fail high.
int search_node(Searcher *s, int alpha, int beta, int depth, int ply, bool cut_node);

// --- search_root.c

// Polls the stop flags, the clock and the shared node limit (see
// search_should_stop); true when the search has to stop.
bool search_poll(Searcher *s);

// True when the search has to stop. Cheap on most nodes: the flags and the
// clock are polled every check_every nodes only, an interval that adapts so
// that a poll happens about every millisecond.
static inline bool search_should_stop(Searcher *s) {
    if (s->stopped)
        return true;
    if (s->limits.nodes && s->nodes >= s->limits.nodes)
        return s->stopped = true;
    if (s->nodes < s->next_check)
        return false;
    return search_poll(s);
}

// --- search_smp.c

// Helper id skips some depths so that the threads spread over neighbouring
// iterations (depth 1 is never skipped).
bool search_helper_skips(int id, int depth);
// Starts the main searcher's helpers on the root b (keys as for search_run).
void search_start_helpers(Searcher *s, const Board *b, const Key *keys, int nkeys);
// Stops the helpers and waits for them; returns the nodes they searched.
uint64_t search_stop_helpers(Searcher *s);
// The nodes of all threads, for the main searcher: its own count and what
// its helpers last published (a poll interval behind at most).
uint64_t search_total_nodes(const Searcher *s);
// The nodes all threads of a pool have published; safe on any of them.
uint64_t search_pool_nodes(const Searcher *pool);

#endif
