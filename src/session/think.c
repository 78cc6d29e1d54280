// SPDX-License-Identifier: GPL-3.0-or-later
// The session's link to its engine: starting and cancelling requests, and
// turning the engine's infos into the thinking shown (PVs in SAN, White's view).
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "src/session/session_int.h"

static void on_info(const SearchInfo *info, void *ctx) {
    Think *t = ctx;
    Event ev = {.kind = EV_INFO, .request = t->request, .info = *info};
    eventq_push(t->events, &ev);
}

static void on_bestmove(Move best, Move ponder, void *ctx) {
    Think *t = ctx;
    Event ev = {.kind = EV_BESTMOVE, .request = t->request, .best = best, .ponder = ponder};
    eventq_push(t->events, &ev);
}

// Stops any search and forgets it: its reply will be dropped as stale.
void think_cancel(Think *t) {
    if (!t->busy)
        return;
    engine_stop(t->engine);
    engine_wait(t->engine);
    t->request++;
    t->busy = false;
    t->kind = REQ_NONE;
    t->thinking.active = false;
}

void think_set_threads(Think *t, int threads) {
    if (threads <= 0) {
        // The game has the machine to itself: every core searches.
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (int)(cores < SEARCH_THREADS_MAX ? cores : SEARCH_THREADS_MAX) : 1;
    }
    char text[16];
    snprintf(text, sizeof text, "%d", threads);
    engine_set_option(t->engine, "Threads", text, NULL, 0);
}

void think_start(Think *t, const Game *g, RequestKind kind, const SearchLimits *limits,
                 int level, int lines) {
    think_cancel(t);
    engine_set_level(t->engine, level);
    t->lines = kind == REQ_ANALYSIS ? lines : 1;
    char text[8];
    snprintf(text, sizeof text, "%d", t->lines);
    engine_set_option(t->engine, "MultiPV", text, NULL, 0);
    engine_set_option(t->engine, "UCI_AnalyseMode", kind == REQ_ANALYSIS ? "true" : "false",
                      NULL, 0);
    memcpy(&t->root, game_board(g), sizeof t->root);
    engine_set_position(t->engine, game_board(g), game_keys(g), game_ply_count(g));
    t->request++;
    t->kind = kind;
    t->gen = game_generation(g);
    t->busy = true;
    t->done_depth = 0;
    if (kind == REQ_MOVE || kind == REQ_ANALYSIS) {
        memset(&t->thinking, 0, sizeof t->thinking);
        t->thinking.active = true;
        t->thinking.analysing = kind == REQ_ANALYSIS;
    }
    EngineCallbacks cb = {on_info, on_bestmove, t};
    engine_go(t->engine, limits, &cb);
}

// The PV as numbered SAN from the position the search started from.
static void pv_to_san(const Board *root, const SearchInfo *info, char *out, size_t outsz) {
    notation_line(root, info->pv, info->pv_length, out, outsz);
}

bool think_info(Think *t, const SearchInfo *info) {
    if (t->kind == REQ_MOVE && info->multipv == 1 && info->bound == BOUND_EXACT)
        t->engine_score = info->mate ? (info->mate > 0 ? VALUE_MATE : -VALUE_MATE) : info->score;
    if (t->kind != REQ_MOVE && t->kind != REQ_ANALYSIS)
        return false;
    bool white = t->root.side == WHITE;
    int score_white = white ? info->score : -info->score;
    int mate_white = white ? info->mate : -info->mate;
    SessionThinking *th = &t->thinking;
    if (t->kind == REQ_ANALYSIS && info->multipv >= 1 && info->multipv <= SESSION_MAX_LINES) {
        SessionLine *l = &th->lines[info->multipv - 1];
        l->depth = info->depth;
        l->score_white = score_white;
        l->mate_white = mate_white;
        pv_to_san(&t->root, info, l->pv_san, sizeof l->pv_san);
        if (info->multipv > th->line_count || info->multipv == 1)
            th->line_count = info->multipv;
    }
    if (info->multipv == 1) {
        th->shown = true;
        th->depth = info->depth;
        th->seldepth = info->seldepth;
        th->score_white = score_white;
        th->mate_white = mate_white;
        th->nodes = info->nodes;
        th->nps = info->nps;
        pv_to_san(&t->root, info, th->pv_san, sizeof th->pv_san);
    }
    // A depth is complete when its last line arrives exact (fewer lines when
    // the position has fewer legal moves).
    int want = t->lines;
    int legal = movegen_count(&t->root);
    if (legal < want)
        want = legal;
    if (t->kind != REQ_ANALYSIS || info->bound != BOUND_EXACT || info->multipv != want ||
        info->depth <= t->done_depth)
        return false;
    t->done_depth = info->depth;
    return true;
}

static void format_score(int score, int mate, char *buf, size_t bufsz) {
    if (mate)
        snprintf(buf, bufsz, "#%d", mate);
    else
        snprintf(buf, bufsz, "%+.2f", score / 100.0);
}

static void format_nodes(unsigned long long n, char *buf, size_t bufsz) {
    if (n >= 10000000ULL)
        snprintf(buf, bufsz, "%.0fM", n / 1e6);
    else if (n >= 1000000ULL)
        snprintf(buf, bufsz, "%.1fM", n / 1e6);
    else if (n >= 10000ULL)
        snprintf(buf, bufsz, "%.0fk", n / 1e3);
    else
        snprintf(buf, bufsz, "%llu", n);
}

void think_format(const Think *t, const char *prefix, char *buf, size_t bufsz) {
    const SessionThinking *th = &t->thinking;
    char nodes[16];
    format_nodes(th->nodes, nodes, sizeof nodes);
    size_t len = 0;
    buf[0] = '\0';
    int count = th->line_count > 0 ? th->line_count : 1;
    for (int i = 0; i < count && len < bufsz; i++) {
        const SessionLine *l = &th->lines[i];
        bool from_lines = th->line_count > 0;
        char score[16], line[24] = "";
        format_score(from_lines ? l->score_white : th->score_white,
                     from_lines ? l->mate_white : th->mate_white, score, sizeof score);
        if (count > 1)
            snprintf(line, sizeof line, " line %d", i + 1);
        int n = snprintf(buf + len, bufsz - len, "%s%sdepth %d%s score %s nodes %s  %s",
                         i ? "\n" : "", prefix, from_lines ? l->depth : th->depth, line, score,
                         nodes, from_lines ? l->pv_san : th->pv_san);
        if (n < 0)
            break;
        len += (size_t)n;
    }
}
