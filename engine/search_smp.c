// SPDX-License-Identifier: GPL-3.0-or-later
// The searcher's life cycle and Lazy SMP: helper searchers on their own
// threads search the same root as the main one, sharing only the table.
#include <stdlib.h>

#include "engine/search_internal.h"

Searcher *search_new(TTable *tt, atomic_bool *stop) {
    board_init_tables();
    Searcher *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->pawns = eval_pawn_cache_new();
    s->nnue = nnue_stack_new();
    if (!s->pawns || !s->nnue) {
        eval_pawn_cache_free(s->pawns);
        nnue_stack_free(s->nnue);
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
    search_init_tables();
    return s;
}

void search_free(Searcher *s) {
    if (!s)
        return;
    search_set_threads(s, 1);
    free(s->helpers);
    eval_pawn_cache_free(s->pawns);
    nnue_stack_free(s->nnue);
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
    history_clear(&s->hist);
    eval_pawn_cache_clear(s->pawns);
    for (int i = 0; i < s->nhelpers; i++)
        search_clear(s->helpers[i]);
}

// The nodes of all threads, for the main searcher: its own count and what
// its helpers last published (a poll interval behind at most).
uint64_t search_total_nodes(const Searcher *s) {
    uint64_t n = s->nodes;
    for (int i = 0; i < s->helpers_running; i++)
        n += atomic_load_explicit(&s->helpers[i]->shared_nodes, memory_order_relaxed);
    return n;
}

// The nodes all threads of a pool have published; safe on any of them.
uint64_t search_pool_nodes(const Searcher *pool) {
    uint64_t n = atomic_load_explicit(&pool->shared_nodes, memory_order_relaxed);
    for (int i = 0; i < pool->nhelpers; i++)
        n += atomic_load_explicit(&pool->helpers[i]->shared_nodes, memory_order_relaxed);
    return n;
}

// Helper id skips some depths so that the threads spread over neighbouring
// iterations instead of all searching the same one: out of every `period`
// depths it skips one, at a place that depends on the id. Helper 1 searches
// the odd depths, 2 skips every third, 3 every fourth, 4 skips the odd ones
// from 3, and so on. Depth 1 is never skipped, so every helper has root scores.
bool search_helper_skips(int id, int depth) {
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
void search_start_helpers(Searcher *s, const Board *b, const Key *keys, int nkeys) {
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
uint64_t search_stop_helpers(Searcher *s) {
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

