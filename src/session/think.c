// SPDX-License-Identifier: GPL-3.0-or-later
// The session's link to its engine: starting and cancelling requests, and
// turning the engine's infos into the thinking shown (PVs in SAN, White's view).
// A request goes to the built-in engine or, after `engine CMD`, to the
// external UCI engine (uci_client); both post the same events. Each request
// is kept whole (start position, moves, limits, level) so that the built-in
// engine can answer it when the external one fails.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/session/session_int.h"

static void on_info(const SearchInfo *info, void *ctx) {
    Think *t = ctx;
    Event ev = { .kind = EV_INFO, .request = t->request, .info = *info };
    eventq_push(t->events, &ev);
}

static void on_bestmove(Move best, Move ponder, void *ctx) {
    Think *t = ctx;
    Event ev = { .kind = EV_BESTMOVE, .request = t->request, .best = best, .ponder = ponder };
    eventq_push(t->events, &ev);
}

static void on_failure(void *ctx) {
    Think *t = ctx;
    Event ev = { .kind = EV_ENGINE_FAILED, .request = t->request };
    eventq_push(t->events, &ev);
}

enum { UCI_STOP_WAIT_MS = 3000 };

// Stops any search and forgets it: its reply will be dropped as stale.
void think_cancel(Think *t) {
    if (!t->busy)
        return;
    engine_stop(t->engine);
    engine_wait(t->engine);
    if (t->uci) {
        uci_client_stop(t->uci);
        if (!uci_client_wait(t->uci, UCI_STOP_WAIT_MS)) {
            char why[UCI_ERROR_MAX];
            uci_client_error(t->uci, why, sizeof why);
            session_say(t->session, MSG_ERROR, "%s; back to the built-in engine.", why);
            think_drop_uci(t);
        }
    }
    t->request++;
    t->busy = false;
    t->kind = REQ_NONE;
    t->thinking.active = false;
}

void think_stop(Think *t) {
    engine_stop(t->engine);
    if (t->uci)
        uci_client_stop(t->uci);
}

void think_new_game(Think *t) {
    engine_new_game(t->engine);
    if (t->uci && !uci_client_new_game(t->uci, UCI_STOP_WAIT_MS)) {
        session_say(t->session, MSG_ERROR,
                    "Engine '%s' did not answer isready; back to the built-in engine.",
                    t->uci_command);
        think_drop_uci(t);
    }
}

// Options the session sets are within their ranges: no error to report.
static void set_number(Engine *e, const char *option, int value) {
    char text[16];
    snprintf(text, sizeof text, "%d", value);
    (void)engine_set_option(e, option, text, NULL, 0);
}

void think_set_threads(Think *t, int threads) {
    if (threads <= 0) {
        // The game has the machine to itself: every core searches.
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? (int)(cores < SEARCH_THREADS_MAX ? cores : SEARCH_THREADS_MAX) : 1;
    }
    set_number(t->engine, "Threads", threads);
}

void think_set_contempt(Think *t, int percent) {
    set_number(t->engine, "Contempt", percent);
}

int think_contempt_cp(const Think *t, const Board *b) {
    char text[16];
    int percent = THINK_CONTEMPT_PERCENT;
    if (engine_get_option(t->engine, "Contempt", text, sizeof text))
        percent = atoi(text);
    return search_contempt_cp(b, percent);
}

// The built-in engine searches the request stored in t.
static void start_builtin(Think *t) {
    engine_set_level(t->engine, t->level);
    set_number(t->engine, "MultiPV", t->lines);
    engine_set_option(t->engine, "UCI_AnalyseMode", t->kind == REQ_ANALYSIS ? "true" : "false",
                      NULL, 0);
    engine_set_position(t->engine, &t->root, t->keys, t->plies);
    EngineCallbacks cb = { on_info, on_bestmove, t };
    engine_go(t->engine, &t->limits, &cb);
}

// The strength limit of the external engine for a level: UCI_Elo from the
// built-in engine's level table, clamped to the engine's range.
static void uci_strength(Think *t, int level) {
    char err[256];
    const UciOption *elo = uci_client_find_option(t->uci, "UCI_Elo");
    bool limit = level < ENGINE_LEVEL_MAX;
    if (uci_client_find_option(t->uci, "UCI_LimitStrength"))
        uci_client_set_option(t->uci, "UCI_LimitStrength", limit && elo ? "true" : "false", true,
                              err, sizeof err);
    if (!limit)
        return;
    if (!elo || elo->type != UCI_SPIN) {
        if (!t->elo_said)
            session_say(t->session, MSG_INFO,
                        "%s has no UCI_Elo option: it plays at full strength whatever the level.",
                        uci_client_name(t->uci));
        t->elo_said = true;
        return;
    }
    int want = engine_level_elo(level);
    int v = want < elo->min ? elo->min : want > elo->max ? elo->max : want;
    if (v != want && !t->elo_said) {
        session_say(t->session, MSG_INFO,
                    "%s plays at UCI_Elo %d to %d: level %d (about %d Elo) "
                    "is played at %d.",
                    uci_client_name(t->uci), elo->min, elo->max, level, want, v);
        t->elo_said = true;
    }
    char text[16];
    snprintf(text, sizeof text, "%d", v);
    uci_client_set_option(t->uci, "UCI_Elo", text, true, err, sizeof err);
}

// The external engine searches the request stored in t; false when it is gone.
static bool start_uci(Think *t) {
    char err[256];
    uci_strength(t, t->level);
    const UciOption *multipv = uci_client_find_option(t->uci, "MultiPV");
    if (multipv && multipv->type == UCI_SPIN) {
        int lines = t->lines > multipv->max ? multipv->max : t->lines;
        t->lines = lines < 1 ? 1 : lines;
        char text[16];
        snprintf(text, sizeof text, "%d", t->lines);
        uci_client_set_option(t->uci, "MultiPV", text, true, err, sizeof err);
    } else {
        t->lines = 1;
    }
    if (uci_client_find_option(t->uci, "UCI_AnalyseMode"))
        uci_client_set_option(t->uci, "UCI_AnalyseMode", t->kind == REQ_ANALYSIS ? "true" : "false",
                              true, err, sizeof err);
    UciCallbacks cb = { on_info, on_bestmove, on_failure, t };
    return uci_client_go(t->uci, &t->start, t->moves, t->plies, &t->limits, &cb);
}

void think_start(Think *t, const Game *g, RequestKind kind, const SearchLimits *limits, int level,
                 int lines) {
    think_cancel(t);
    t->lines = kind == REQ_ANALYSIS ? lines : 1;
    memcpy(&t->root, game_board(g), sizeof t->root);
    t->start = *game_start_board(g);
    t->plies = game_ply_count(g);
    memcpy(t->keys, game_keys(g), (size_t)t->plies * sizeof t->keys[0]);
    for (int i = 0; i < t->plies; i++)
        t->moves[i] = game_move(g, i)->move;
    t->limits = *limits;
    t->level = level;
    t->request++;
    t->kind = kind;
    t->gen = game_generation(g);
    t->busy = true;
    t->done_depth = 0;
    t->fallback = false;
    if (kind == REQ_MOVE || kind == REQ_ANALYSIS) {
        memset(&t->thinking, 0, sizeof t->thinking);
        t->thinking.active = true;
        t->thinking.analysing = kind == REQ_ANALYSIS;
    }
    if (t->uci && !start_uci(t)) {
        char why[UCI_ERROR_MAX];
        uci_client_error(t->uci, why, sizeof why);
        session_say(t->session, MSG_ERROR, "%s; back to the built-in engine.", why);
        think_drop_uci(t);
        t->lines = kind == REQ_ANALYSIS ? lines : 1;
    }
    if (!t->uci)
        start_builtin(t);
}

void think_failed(Think *t) {
    if (!t->busy || !t->uci)
        return;
    char why[UCI_ERROR_MAX];
    uci_client_error(t->uci, why, sizeof why);
    if (!uci_client_alive(t->uci)) {
        session_say(t->session, MSG_ERROR, "%s; back to the built-in engine.", why);
        think_drop_uci(t);
    } else {
        session_say(t->session, MSG_ERROR, "%s; the built-in engine %s instead.", why,
                    t->kind == REQ_ANALYSIS ? "analyses" : "plays this move");
    }
    t->fallback = true;
    start_builtin(t); // the same request: its reply is not stale
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
        // Lines only grow within a request: a new depth's first line does not
        // hide the others of the depth before (an analysis stopped between
        // them keeps them all, each with its depth).
        if (info->multipv > th->line_count)
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
        th->best = info->pv_length > 0 ? info->pv[0] : MOVE_NONE;
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

void think_drop_uci(Think *t) {
    uci_client_free(t->uci);
    t->uci = NULL;
    t->uci_command[0] = '\0';
    t->uci_argc = 0;
}

void think_free(Think *t) {
    think_cancel(t);
    think_drop_uci(t);
    if (t->engine)
        netfile_release(&t->net, t->engine);
    engine_free(t->engine);
    t->engine = NULL;
}
