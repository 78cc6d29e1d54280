// SPDX-License-Identifier: GPL-3.0-or-later
// The UCI client's line parsers: what an external engine says, read
// defensively (any line may be garbled or cut short), and the go line.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "src/protocol/uci_client.h"
#include "src/util/text.h"

enum { TOKENS_MAX = 512 };

// Splits a copy of line into words (in place); returns how many.
static int split(char *copy, char **words, int max) {
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(copy, " \t\r\n", &save); w && n < max;
         w = strtok_r(NULL, " \t\r\n", &save))
        words[n++] = w;
    return n;
}

// Joins words[from..to) with single spaces into buf.
static void join(char **words, int from, int to, char *buf, size_t bufsz) {
    size_t len = 0;
    buf[0] = '\0';
    for (int i = from; i < to && len < bufsz; i++) {
        int n = snprintf(buf + len, bufsz - len, "%s%s", i > from ? " " : "", words[i]);
        if (n < 0)
            break;
        len += (size_t)n;
    }
}

static bool is_option_keyword(const char *w) {
    return !strcmp(w, "default") || !strcmp(w, "min") || !strcmp(w, "max") || !strcmp(w, "var");
}

bool uci_parse_option(const char *line, UciOption *opt) {
    char copy[1024];
    char *w[TOKENS_MAX];
    snprintf(copy, sizeof copy, "%s", line);
    int n = split(copy, w, TOKENS_MAX);
    if (n < 5 || strcmp(w[0], "option") || strcmp(w[1], "name"))
        return false;
    // The name runs up to the word "type" (names may hold spaces).
    int type_at = 2;
    while (type_at < n && strcmp(w[type_at], "type"))
        type_at++;
    if (type_at == 2 || type_at + 1 >= n)
        return false;
    memset(opt, 0, sizeof *opt);
    join(w, 2, type_at, opt->name, sizeof opt->name);
    static const char *const types[] = { "spin", "check", "combo", "button", "string" };
    int t = 0;
    while (t < 5 && strcmp(w[type_at + 1], types[t]))
        t++;
    if (t == 5)
        return false;
    opt->type = (UciOptionType)t;
    size_t vars_len = 0;
    for (int i = type_at + 2; i < n;) {
        const char *key = w[i++];
        int end = i;
        while (end < n && !is_option_keyword(w[end]))
            end++;
        char value[UCI_OPTION_VALUE_MAX];
        join(w, i, end, value, sizeof value);
        int64_t v;
        if (!strcmp(key, "default")) {
            snprintf(opt->def, sizeof opt->def, "%s", value);
            if (!strcmp(opt->def, "<empty>"))
                opt->def[0] = '\0';
        } else if (!strcmp(key, "min") && text_parse_i64(value, -2147483647LL, 2147483647LL, &v)) {
            opt->min = (int)v;
        } else if (!strcmp(key, "max") && text_parse_i64(value, -2147483647LL, 2147483647LL, &v)) {
            opt->max = (int)v;
        } else if (!strcmp(key, "var") && value[0] && vars_len < sizeof opt->vars) {
            int k = snprintf(opt->vars + vars_len, sizeof opt->vars - vars_len, "%s%s",
                             vars_len ? "\t" : "", value);
            if (k > 0)
                vars_len += (size_t)k;
        }
        i = end;
    }
    snprintf(opt->value, sizeof opt->value, "%s", opt->def);
    return true;
}

bool uci_parse_info(const char *line, const Board *root, SearchInfo *info) {
    char copy[4096];
    char *w[TOKENS_MAX];
    snprintf(copy, sizeof copy, "%s", line);
    int n = split(copy, w, TOKENS_MAX);
    if (n < 1 || strcmp(w[0], "info"))
        return false;
    memset(info, 0, sizeof *info);
    info->multipv = 1;
    info->bound = BOUND_EXACT;
    bool scored = false;
    for (int i = 1; i < n; i++) {
        const char *key = w[i];
        const char *next = i + 1 < n ? w[i + 1] : NULL;
        int64_t v;
        if (!strcmp(key, "string"))
            break; // free text to the end of the line
        if (!strcmp(key, "pv")) {
            Board b = *root;
            for (i++; i < n && info->pv_length < MAX_PLY; i++) {
                Move m;
                if (notation_parse_uci(&b, w[i], &m) != NOTATION_OK)
                    break;
                info->pv[info->pv_length++] = m;
                board_play(&b, m);
            }
            break; // pv is the last field
        }
        if (!strcmp(key, "score")) {
            for (i++; i < n; i++) {
                if (!strcmp(w[i], "cp") && i + 1 < n &&
                    text_parse_i64(w[i + 1], -VALUE_MATE_IN_MAX + 1, VALUE_MATE_IN_MAX - 1, &v)) {
                    info->score = (int)v;
                    info->mate = 0;
                    scored = true;
                    i++;
                } else if (!strcmp(w[i], "mate") && i + 1 < n &&
                           text_parse_i64(w[i + 1], -MAX_PLY / 2, MAX_PLY / 2, &v)) {
                    // Mate in N moves is 2N-1 plies; mated in N, 2N plies.
                    info->mate = (int)v;
                    info->score =
                        v > 0 ? VALUE_MATE - (int)(2 * v - 1) : -VALUE_MATE - (int)(2 * v);
                    scored = true;
                    i++;
                } else if (!strcmp(w[i], "lowerbound")) {
                    info->bound = BOUND_LOWER;
                } else if (!strcmp(w[i], "upperbound")) {
                    info->bound = BOUND_UPPER;
                } else {
                    break;
                }
            }
            i--; // the for loop steps over the word that ended the score
            continue;
        }
        if (!next)
            break;
        if (!strcmp(key, "depth") && text_parse_i64(next, 0, 1000, &v))
            info->depth = (int)v;
        else if (!strcmp(key, "seldepth") && text_parse_i64(next, 0, 1000, &v))
            info->seldepth = (int)v;
        else if (!strcmp(key, "multipv") && text_parse_i64(next, 1, 500, &v))
            info->multipv = (int)v;
        else if (!strcmp(key, "nodes") && text_parse_i64(next, 0, 1LL << 62, &v))
            info->nodes = (uint64_t)v;
        else if (!strcmp(key, "nps") && text_parse_i64(next, 0, 1LL << 62, &v))
            info->nps = (uint64_t)v;
        else if (!strcmp(key, "hashfull") && text_parse_i64(next, 0, 1000, &v))
            info->hashfull = (int)v;
        else if (!strcmp(key, "time") && text_parse_i64(next, 0, 1LL << 62, &v))
            info->time_ms = v;
        else
            continue; // a word we do not know: look at the next
        i++;
    }
    return scored;
}

UciBest uci_parse_bestmove(const char *line, const Board *root, Move *best, Move *ponder,
                           char *text, size_t textsz) {
    char copy[512];
    char *w[8];
    snprintf(copy, sizeof copy, "%s", line);
    int n = split(copy, w, 8);
    *best = *ponder = MOVE_NONE;
    if (textsz)
        text[0] = '\0';
    if (n < 1 || strcmp(w[0], "bestmove"))
        return UCI_BEST_NOT;
    if (n < 2)
        return UCI_BEST_GARBLED;
    snprintf(text, textsz, "%s", w[1]);
    if (!strcmp(w[1], "(none)") || !strcmp(w[1], "0000") || !strcmp(w[1], "none"))
        return UCI_BEST_NONE;
    if (notation_parse_uci(root, w[1], best) != NOTATION_OK) {
        *best = MOVE_NONE;
        return UCI_BEST_ILLEGAL;
    }
    if (n >= 4 && !strcmp(w[2], "ponder")) {
        Board b = *root;
        board_play(&b, *best);
        if (notation_parse_uci(&b, w[3], ponder) != NOTATION_OK)
            *ponder = MOVE_NONE;
    }
    return UCI_BEST_MOVE;
}

void uci_format_go(const SearchLimits *l, char *buf, size_t bufsz) {
    size_t len = 0;
#define ADD(...)                                                                  \
    do {                                                                          \
        int k_ = snprintf(buf + len, len < bufsz ? bufsz - len : 0, __VA_ARGS__); \
        if (k_ > 0)                                                               \
            len += (size_t)k_;                                                    \
    } while (0)
    if (bufsz == 0)
        return;
    buf[0] = '\0';
    ADD("go");
    if (l->infinite)
        ADD(" infinite");
    if (l->time[WHITE] >= 0 && l->time[BLACK] >= 0)
        ADD(" wtime %lld btime %lld winc %lld binc %lld", (long long)l->time[WHITE],
            (long long)l->time[BLACK], (long long)l->inc[WHITE], (long long)l->inc[BLACK]);
    if (l->movestogo > 0)
        ADD(" movestogo %d", l->movestogo);
    if (l->movetime > 0)
        ADD(" movetime %lld", (long long)l->movetime);
    if (l->depth > 0)
        ADD(" depth %d", l->depth);
    if (l->nodes > 0)
        ADD(" nodes %llu", (unsigned long long)l->nodes);
    if (l->mate > 0)
        ADD(" mate %d", l->mate);
    if (len == 2) // no limit at all: a search until stopped
        ADD(" infinite");
    // Last: UCI reads every word after it as a move.
    for (int i = 0; i < l->searchmoves_count && i < MAX_MOVES; i++) {
        char move[MOVE_TEXT_MAX];
        notation_to_uci(l->searchmoves[i], move);
        ADD("%s %s", i == 0 ? " searchmoves" : "", move);
    }
#undef ADD
}

static bool word_in_list(const char *list, char *value, size_t valuesz) {
    const char *p = list;
    while (*p) {
        size_t k = strcspn(p, "\t");
        if (k == strlen(value) && !strncasecmp(p, value, k)) {
            snprintf(value, valuesz, "%.*s", (int)k, p);
            return true;
        }
        p += k;
        if (*p)
            p++;
    }
    return false;
}

bool uci_option_check(const UciOption *opt, char *value, size_t valuesz, char *err, size_t errsz) {
    int64_t v;
    switch (opt->type) {
    case UCI_SPIN:
        if (text_parse_i64(value, opt->min, opt->max, &v))
            return true;
        snprintf(err, errsz, "%s takes a number from %d to %d, not '%.40s'", opt->name, opt->min,
                 opt->max, value);
        return false;
    case UCI_CHECK:
        if (!strcasecmp(value, "true") || !strcasecmp(value, "on") || !strcmp(value, "1")) {
            snprintf(value, valuesz, "true");
            return true;
        }
        if (!strcasecmp(value, "false") || !strcasecmp(value, "off") || !strcmp(value, "0")) {
            snprintf(value, valuesz, "false");
            return true;
        }
        snprintf(err, errsz, "%s takes true or false, not '%.40s'", opt->name, value);
        return false;
    case UCI_COMBO:
        if (word_in_list(opt->vars, value, valuesz))
            return true;
        snprintf(err, errsz, "%s takes one of the engine's values, not '%.40s'", opt->name, value);
        return false;
    case UCI_BUTTON: value[0] = '\0'; return true;
    case UCI_STRING: return true;
    }
    return false;
}
