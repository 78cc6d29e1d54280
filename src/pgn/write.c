// SPDX-License-Identifier: GPL-3.0-or-later
// The PGN export format, through the model's public API only.
#include "src/pgn/write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/util/paths.h"
#include "src/util/strbuf.h"

enum { LINE_LIMIT = 79 }; // export lines stay under 80 columns

typedef struct Out {
    StrBuf text;
    int col;   // length of the current line
    int opens; // "(" marks waiting for the next unit
} Out;

static void out_bytes(Out *o, const char *s, size_t n) {
    strbuf_add(&o->text, s, n);
}

static void out_str(Out *o, const char *s) {
    out_bytes(o, s, strlen(s));
}

static void out_newline(Out *o) {
    out_bytes(o, "\n", 1);
    o->col = 0;
}

// One unbreakable unit of move text: pending "(" marks, prefix (e.g. "{"),
// word and suffix, preceded by a space or a line break.
static void out_word(Out *o, const char *pre, const char *w, size_t wn, const char *suf) {
    size_t np = strlen(pre), ns = strlen(suf), n = (size_t)o->opens + np + wn + ns;
    if (o->col > 0 && (size_t)o->col + 1 + n > LINE_LIMIT)
        out_newline(o);
    char lead = o->opens ? '(' : np ? pre[0] : wn ? w[0] : '\0';
    // A '%' in the first column would make the line an escape line.
    if (o->col > 0 || lead == '%') {
        out_bytes(o, " ", 1);
        o->col++;
    }
    for (; o->opens > 0; o->opens--)
        out_bytes(o, "(", 1);
    out_bytes(o, pre, np);
    out_bytes(o, w, wn);
    out_bytes(o, suf, ns);
    o->col += (int)n;
}

// Text glued to the previous unit (a closing parenthesis).
static void out_glued(Out *o, const char *s) {
    size_t n = strlen(s);
    if ((size_t)o->col + n > LINE_LIMIT)
        out_newline(o);
    out_bytes(o, s, n);
    o->col += (int)n;
}

static void format_clock(long long ms, char *buf, size_t bufsz) {
    long long h = ms / 3600000, m = ms / 60000 % 60, s = ms / 1000 % 60, f = ms % 1000;
    if (f == 0)
        snprintf(buf, bufsz, "[%%clk %lld:%02lld:%02lld]", h, m, s);
    else if (f % 100 == 0)
        snprintf(buf, bufsz, "[%%clk %lld:%02lld:%02lld.%lld]", h, m, s, f / 100);
    else if (f % 10 == 0)
        snprintf(buf, bufsz, "[%%clk %lld:%02lld:%02lld.%02lld]", h, m, s, f / 10);
    else
        snprintf(buf, bufsz, "[%%clk %lld:%02lld:%02lld.%03lld]", h, m, s, f);
}

// A comment, with an optional clock command first. Brace comments wrap at
// word boundaries; text containing '}' can only be a ';' comment, which
// runs to the end of its line.
static void out_comment(Out *o, const char *text, long long clock_ms) {
    char clk[64] = "";
    if (clock_ms >= 0)
        format_clock(clock_ms, clk, sizeof clk);
    if (!text)
        text = "";
    if (strchr(text, '}')) {
        size_t n = strlen(text), nc = strlen(clk);
        if (o->col > 0 && (size_t)o->col + 2 + (size_t)o->opens + nc + 1 + n > LINE_LIMIT)
            out_newline(o);
        out_word(o, nc ? "; " : ";", clk, nc, "");
        if (n) {
            out_bytes(o, " ", 1);
            out_bytes(o, text, n);
        }
        out_newline(o);
        return;
    }
    // Word by word; the first unit gets '{', the last '}'.
    bool first = true;
    if (*clk) {
        // The clock is one unit so that it never breaks across lines.
        out_word(o, "{", clk, strlen(clk), *text ? "" : "}");
        first = false;
    }
    const char *p = text;
    while (*p == ' ')
        p++;
    while (*p) {
        const char *e = strchr(p, ' ');
        if (!e)
            e = p + strlen(p);
        const char *q = e;
        while (*q == ' ')
            q++;
        out_word(o, first ? "{" : "", p, (size_t)(e - p), *q ? "" : "}");
        first = false;
        p = q;
    }
    if (first)
        out_word(o, "{", "", 0, "}"); // an empty comment
}

typedef struct MoveNumbering {
    int fullmove;
    int black; // 1 when the start position has Black to move
} MoveNumbering;

static void out_move_number(Out *o, const MoveNumbering *mn, int ply, bool force) {
    int t = mn->black + ply;
    char buf[32];
    if (t % 2 == 0)
        snprintf(buf, sizeof buf, "%d.", mn->fullmove + t / 2);
    else if (force)
        snprintf(buf, sizeof buf, "%d...", mn->fullmove + t / 2);
    else
        return;
    out_word(o, "", buf, strlen(buf), "");
}

// A line of moves from n on, with its variations.
static void out_line(Out *o, const MoveNumbering *mn, const PgnNode *n) {
    bool need_number = true;
    for (; n; n = n->next) {
        if (n->pre) {
            out_comment(o, n->pre, -1);
            need_number = true;
        }
        out_move_number(o, mn, n->ply, need_number);
        out_word(o, "", n->san, strlen(n->san), "");
        for (int i = 0; i < n->nag_count; i++) {
            char buf[8];
            snprintf(buf, sizeof buf, "$%d", n->nags[i]);
            out_word(o, "", buf, strlen(buf), "");
        }
        need_number = false;
        if (n->comment || n->clock_ms >= 0) {
            out_comment(o, n->comment, n->clock_ms);
            need_number = true;
        }
        for (const PgnNode *v = n->variation; v; v = v->next_variation) {
            o->opens++; // glued to the variation's first unit: "(1. d4"
            out_line(o, mn, v);
            out_glued(o, ")");
            need_number = true;
        }
        if (n->trail && !n->next) {
            out_comment(o, n->trail, -1);
            need_number = true;
        }
    }
}

char *pgn_write_string(const PgnGame *g, size_t *len) {
    static const char *const roster[7] = { "Event", "Site",  "Date",  "Round",
                                           "White", "Black", "Result" };
    static const char *const defaults[7] = { "?", "?", "????.??.??", "?", "?", "?", NULL };
    Out o = { 0 };
    for (int pass = 0; pass < 2; pass++) {
        int count = pass == 0 ? 7 : pgn_tag_count(g);
        for (int i = 0; i < count; i++) {
            const char *name, *value;
            if (pass == 0) {
                name = roster[i];
                value = pgn_tag(g, name);
                if (!value)
                    value = defaults[i] ? defaults[i] : pgn_result(g);
            } else {
                name = pgn_tag_name(g, i);
                value = pgn_tag_value(g, i);
                bool in_roster = false;
                for (int k = 0; k < 7; k++)
                    in_roster |= !strcmp(name, roster[k]);
                if (in_roster)
                    continue;
            }
            out_str(&o, "[");
            out_str(&o, name);
            out_str(&o, " \"");
            for (const char *p = value; *p; p++) {
                if (*p == '"' || *p == '\\')
                    out_bytes(&o, "\\", 1);
                out_bytes(&o, p, 1);
            }
            out_str(&o, "\"]\n");
        }
    }
    out_newline(&o);

    Board start;
    MoveNumbering mn = { 1, 0 };
    if (board_set_fen(&start, pgn_start_fen(g), NULL, 0)) {
        mn.fullmove = start.fullmove;
        mn.black = start.side == BLACK;
    }
    if (pgn_lead_comment(g))
        out_comment(&o, pgn_lead_comment(g), -1);
    out_line(&o, &mn, pgn_first(g));
    out_word(&o, "", pgn_result(g), strlen(pgn_result(g)), "");
    out_newline(&o);
    out_newline(&o);
    return strbuf_take(&o.text, len);
}

bool pgn_save(const char *path, const PgnGame *const *games, int n, char *err, size_t errsz) {
    StrBuf all = { 0 };
    for (int i = 0; i < n && !all.failed; i++) {
        size_t len;
        char *s = pgn_write_string(games[i], &len);
        if (!s) {
            all.failed = true;
            break;
        }
        strbuf_add(&all, s, len);
        free(s);
    }
    size_t len;
    char *text = strbuf_take(&all, &len); // "" for zero games: an empty file
    if (!text) {
        snprintf(err, errsz, "cannot write %s: out of memory", path);
        return false;
    }
    bool ok = paths_write_atomic(path, text, len, err, errsz);
    free(text);
    return ok;
}
