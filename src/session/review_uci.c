// SPDX-License-Identifier: GPL-3.0-or-later
// The session's external UCI engine as the review's evaluator (review.h):
// a second instance of it, so that the review thread never shares the
// game's engine, searching each position with `go` and the review's limits.
// The client checks every move the engine names against the position (a PV
// stops at the first illegal move, an illegal bestmove is a failure), and
// review.c checks them again.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "src/session/session_int.h"

enum {
    START_MS = 5000,     // for uciok and readyok, as `engine CMD` waits
    SLACK_MS = 5000,     // past the movetime before the search is stopped
    STOP_WAIT_MS = 3000, // for the bestmove after stop
    DEPTH_WAIT_MS = 600000,
    ARGS_MAX = 32,
};

struct ReviewUci {
    UciClient *client;
    char error[UCI_ERROR_MAX];
};

// Options the review sets itself (full strength, one line, analysis), so
// the user's values of them are not copied from the game's engine.
static bool review_owns(const char *name) {
    static const char *const names[] = { "UCI_AnalyseMode", "UCI_LimitStrength", "UCI_Elo",
                                         "Skill Level",     "MultiPV",           "Ponder" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcasecmp(name, names[i]))
            return true;
    return false;
}

static void set_if_declared(UciClient *c, const char *name, const char *value) {
    char err[256];
    if (uci_client_find_option(c, name))
        (void)uci_client_set_option(c, name, value, true, err, sizeof err);
}

ReviewUci *review_uci_start(const Think *t, char *err, size_t errsz) {
    if (!t->uci || t->uci_argc <= 0 || t->uci_argc >= ARGS_MAX) {
        snprintf(err, errsz, "no external engine command");
        return NULL;
    }
    ReviewUci *u = calloc(1, sizeof *u);
    if (!u) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    char args[sizeof t->uci_args];
    memcpy(args, t->uci_args, sizeof args);
    char *argv[ARGS_MAX];
    char *p = args;
    for (int i = 0; i < t->uci_argc; i++) {
        argv[i] = p;
        p += strlen(p) + 1;
    }
    argv[t->uci_argc] = NULL;
    u->client = uci_client_start(argv, START_MS, err, errsz);
    if (!u->client) {
        free(u);
        return NULL;
    }
    // What the user set (and Hash and Threads from patzer.conf, which the
    // game's instance got when it started): every value that is not the
    // default. A value the first instance took is valid here too.
    for (int i = 0; i < uci_client_option_count(t->uci); i++) {
        const UciOption *o = uci_client_option(t->uci, i);
        if (o->type == UCI_BUTTON || review_owns(o->name) || !strcmp(o->value, o->def))
            continue;
        char why[256];
        (void)uci_client_set_option(u->client, o->name, o->value, false, why, sizeof why);
    }
    set_if_declared(u->client, "UCI_LimitStrength", "false");
    set_if_declared(u->client, "MultiPV", "1");
    set_if_declared(u->client, "UCI_AnalyseMode", "true");
    return u;
}

void review_uci_free(ReviewUci *u) {
    if (!u)
        return;
    uci_client_free(u->client);
    free(u);
}

void review_uci_stop(ReviewUci *u) {
    uci_client_stop(u->client);
}

const char *review_uci_name(const ReviewUci *u) {
    return uci_client_name(u->client);
}

void review_uci_error(ReviewUci *u, char *buf, size_t bufsz) {
    snprintf(buf, bufsz, "%s", u->error);
}

static void fail(ReviewUci *u) {
    uci_client_error(u->client, u->error, sizeof u->error);
    if (!u->error[0])
        snprintf(u->error, sizeof u->error, "engine '%s' failed", uci_client_name(u->client));
}

static bool uci_begin(void *ctx) {
    ReviewUci *u = ctx;
    if (uci_client_new_game(u->client, START_MS))
        return true;
    if (!uci_client_alive(u->client))
        fail(u);
    else
        snprintf(u->error, sizeof u->error, "engine '%s' did not answer isready",
                 uci_client_name(u->client));
    return false;
}

static bool uci_search(void *ctx, int worker, const Line *l, const SearchLimits *limits,
                       int multipv, ReviewSearch *out) {
    (void)worker; // one instance: one search at a time
    ReviewUci *u = ctx;
    // UCI has no null move: a game with one (from a PGN) is sent from the
    // position after the last one.
    Board base = l->start, cur = l->start;
    int from = 0;
    for (int i = 0; i < l->ply; i++) {
        if (l->moves[i] == MOVE_NULL) {
            Undo undo;
            board_make_null(&cur, &undo);
            base = cur;
            from = i + 1;
        } else {
            board_play(&cur, l->moves[i]);
        }
    }
    EngineResult *res = malloc(sizeof *res);
    if (!res) {
        snprintf(u->error, sizeof u->error, "out of memory");
        return false;
    }
    int wait = limits->movetime > 0 ? (int)limits->movetime + SLACK_MS : DEPTH_WAIT_MS;
    if (!uci_client_search(u->client, &base, l->moves + from, l->ply - from, limits, multipv, wait,
                           STOP_WAIT_MS, res)) {
        free(res);
        fail(u);
        return false;
    }
    review_search_from_result(res, out);
    free(res);
    return true;
}

ReviewEvaluator review_uci_evaluator(ReviewUci *u) {
    return (ReviewEvaluator){ .search = uci_search, .begin = uci_begin, .ctx = u };
}
