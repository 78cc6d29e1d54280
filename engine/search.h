// SPDX-License-Identifier: GPL-3.0-or-later
// The search: iterative deepening with aspiration windows over a principal
// variation alpha-beta search with quiescence, a transposition table,
// null-move pruning, futility pruning and late-move reductions. It runs on
// the caller's thread (the engine facade gives it one), reports through
// callbacks and stops when its limits say so or the stop flag is raised.
#ifndef ENGINE_SEARCH_H
#define ENGINE_SEARCH_H

#include <stdatomic.h>

#include "engine/board.h"
#include "engine/tt.h"

// What bounds one search. Zero (or false) means "not set"; with nothing set
// the search runs until stopped.
typedef struct SearchLimits {
    int64_t time[COLOR_NB]; // ms on each clock, -1 when there is no clock
    int64_t inc[COLOR_NB];  // ms added per move
    int movestogo;          // moves to the next time control, 0 for sudden death
    int64_t movetime;       // exact ms for this move
    int depth;
    uint64_t nodes;
    int mate;               // look for a mate in this many moves
    bool infinite;          // until stopped (analysis)
    bool ponder;            // searching on the opponent's time until ponderhit
    Move searchmoves[MAX_MOVES];
    int searchmoves_count;
} SearchLimits;

void search_limits_init(SearchLimits *limits);

// One line of thinking, sent after each completed iteration (and each
// MultiPV line), and when a search ends.
typedef struct SearchInfo {
    int depth, seldepth;
    int multipv;       // 1-based line number
    int score;         // centipawns from the side to move's view, or a mate score
    int mate;          // 0, or mate in N moves (negative: getting mated)
    Bound bound;       // BOUND_EXACT, or LOWER/UPPER for a fail-high/low report
    uint64_t nodes;
    uint64_t nps;
    int hashfull;      // permille
    int64_t time_ms;
    Move pv[MAX_PLY];
    int pv_length;
} SearchInfo;

typedef void (*SearchInfoFn)(const SearchInfo *info, void *ctx);

// Settings of one search that are not limits.
typedef struct SearchParams {
    int multipv;          // lines to report, 1..MAX_MULTIPV
    int contempt_percent; // scales the phase-dependent contempt; 0 disables
    bool analysis;        // contempt 0, report every line
    int64_t move_overhead;
    // Strength level (engine/skill.h): 1..SKILL_LEVEL_MAX-1 weaken the
    // search; 0 or SKILL_LEVEL_MAX is full strength, exactly unweakened.
    int level;
    uint64_t *rng;        // random state for a weakened search's choice (NULL: fixed seed)
    // The network to evaluate with (engine/nnue.h), NULL for the hand-crafted
    // evaluation. Read-only and shared by the threads; the caller keeps it alive.
    const struct NnueNet *net;
} SearchParams;

enum { MAX_MULTIPV = 8 };

typedef struct SearchResult {
    Move best;
    Move ponder;
    int score;
    int depth;
    uint64_t nodes;
    // Weakened searches: the chosen line's place among the candidate lines
    // (0: the best), or -1 for a move outside them (only to avoid a mate in
    // one). Always 0 at full strength.
    int rank;
} SearchResult;

typedef struct Searcher Searcher;

enum { SEARCH_THREADS_MAX = 256 };

// A searcher owns its history tables and pawn cache; it uses the table tt
// and polls *stop. NULL when out of memory.
Searcher *search_new(TTable *tt, atomic_bool *stop);
void search_free(Searcher *s);
// Lazy SMP: search_run searches on `threads` threads (1..SEARCH_THREADS_MAX),
// the caller's and threads-1 helpers, each with its own board, stack,
// histories and pawn cache, all sharing the table. The helpers search the
// same root at staggered depths, only for the table; the caller's thread
// alone reports, keeps the clock and the limits and gives the result, and
// stops and joins the helpers before search_run returns. Node counts are
// summed over the threads. One thread is exactly the single-threaded search.
// Must not be called during a search. Returns the threads now in use
// (fewer than asked when memory ran out).
int search_set_threads(Searcher *s, int threads);
int search_threads(const Searcher *s);
// Forgets what was learnt (history, killers, pawn cache), for a new game.
void search_clear(Searcher *s);
// Raises the ponder flag off: the clock starts now (UCI ponderhit).
void search_ponderhit(Searcher *s);
// Searches b and fills *result. Blocks. keys holds the keys of the nkeys
// positions of the game before b, oldest first (a Line's keys; NULL and 0 for
// none), so that repetitions of them are seen; they are copied.
void search_run(Searcher *s, const Board *b, const Key *keys, int nkeys,
                const SearchLimits *limits, const SearchParams *params, SearchInfoFn on_info,
                void *ctx, SearchResult *result);

// The contempt in centipawns the search gives draws in position b with the
// Contempt option at percent (100 = the defaults: 50 cp in the opening,
// 25 in the middlegame, 0 in the ending).
int search_contempt_cp(const Board *b, int percent);

// Milliseconds of a monotonic clock.
int64_t search_now_ms(void);

#endif
