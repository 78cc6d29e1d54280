// SPDX-License-Identifier: GPL-3.0-or-later
// PGN games: the game model (tags, move tree in a per-game arena), the export
// writer with atomic saves, and the streaming import reader.
#include "src/pgn/pgn.h"

#include <errno.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"

// ===========================================================================
// Arena: bump allocation in blocks that are kept across resets.

enum { ARENA_BLOCK = 64 * 1024 };

typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t cap, used;
    alignas(max_align_t) unsigned char data[];
} ArenaBlock;

typedef struct Arena {
    ArenaBlock *first, *cur;
} Arena;

static void *arena_alloc(Arena *a, size_t n) {
    n = (n + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);
    for (;;) {
        ArenaBlock *b = a->cur;
        if (b && b->cap - b->used >= n) {
            void *p = b->data + b->used;
            b->used += n;
            return p;
        }
        // Reuse a kept block after a reset before allocating a new one.
        if (b && b->next && b->next->cap >= n) {
            a->cur = b->next;
            a->cur->used = 0;
            continue;
        }
        size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        ArenaBlock *nb = malloc(sizeof *nb + cap);
        if (!nb)
            return NULL;
        nb->cap = cap;
        nb->used = 0;
        if (b) {
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = a->first;
            a->first = nb;
        }
        a->cur = nb;
    }
}

static void arena_reset(Arena *a) {
    a->cur = a->first;
    if (a->cur)
        a->cur->used = 0;
}

static void arena_free(Arena *a) {
    ArenaBlock *b = a->first;
    while (b) {
        ArenaBlock *next = b->next;
        free(b);
        b = next;
    }
    a->first = a->cur = NULL;
}

static char *arena_strndup(Arena *a, const char *s, size_t n) {
    char *p = arena_alloc(a, n + 1);
    if (!p)
        return NULL;
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

// "a b" from two comments met in a row (either may be NULL).
static const char *arena_join(Arena *a, const char *x, const char *y) {
    if (!x)
        return y;
    if (!y)
        return x;
    if (!*x)
        return y;
    if (!*y)
        return x;
    size_t nx = strlen(x), ny = strlen(y);
    char *p = arena_alloc(a, nx + ny + 2);
    if (!p)
        return NULL;
    memcpy(p, x, nx);
    p[nx] = ' ';
    memcpy(p + nx + 1, y, ny + 1);
    return p;
}

// ===========================================================================
// Games

typedef struct Tag {
    const char *name, *value; // in the arena
} Tag;

struct PgnGame {
    Arena arena;
    Tag *tags;
    int ntags, tags_cap;
    PgnNode *first;
    const char *lead; // comment of a game without moves
    PgnNode **main;   // main line by ply
    int main_len, main_cap;
    char result[8];
    char start_fen[FEN_MAX];
    Board *tail; // position at the end of the main line
};

static bool valid_result(const char *r) {
    return r &&
           (!strcmp(r, "1-0") || !strcmp(r, "0-1") || !strcmp(r, "1/2-1/2") || !strcmp(r, "*"));
}

PgnGame *pgn_game_new(void) {
    board_init_tables();
    PgnGame *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->tail = malloc(sizeof *g->tail);
    if (!g->tail) {
        free(g);
        return NULL;
    }
    pgn_game_clear(g);
    return g;
}

void pgn_game_free(PgnGame *g) {
    if (!g)
        return;
    arena_free(&g->arena);
    free(g->tags);
    free(g->main);
    free(g->tail);
    free(g);
}

void pgn_game_clear(PgnGame *g) {
    arena_reset(&g->arena);
    g->ntags = 0;
    g->first = NULL;
    g->lead = NULL;
    g->main_len = 0;
    strcpy(g->result, "*");
    strcpy(g->start_fen, BOARD_START_FEN);
    board_set_start(g->tail);
}

static bool valid_tag_name(const char *s) {
    if (!s || !*s)
        return false;
    for (; *s; s++) {
        char c = *s;
        if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return false;
    }
    return true;
}

static int find_tag(const PgnGame *g, const char *name) {
    for (int i = 0; i < g->ntags; i++)
        if (!strcmp(g->tags[i].name, name))
            return i;
    return -1;
}

bool pgn_set_tag(PgnGame *g, const char *name, const char *value) {
    if (!valid_tag_name(name) || !value || strpbrk(value, "\r\n"))
        return false;
    const char *v = arena_strndup(&g->arena, value, strlen(value));
    if (!v)
        return false;
    int i = find_tag(g, name);
    if (i < 0) {
        if (g->ntags == g->tags_cap) {
            int cap = g->tags_cap ? g->tags_cap * 2 : 16;
            Tag *t = realloc(g->tags, (size_t)cap * sizeof *t);
            if (!t)
                return false;
            g->tags = t;
            g->tags_cap = cap;
        }
        const char *n = arena_strndup(&g->arena, name, strlen(name));
        if (!n)
            return false;
        i = g->ntags++;
        g->tags[i].name = n;
    }
    g->tags[i].value = v;
    if (!strcmp(name, "Result") && valid_result(value))
        strcpy(g->result, value);
    return true;
}

static void remove_tag(PgnGame *g, const char *name) {
    int i = find_tag(g, name);
    if (i < 0)
        return;
    memmove(&g->tags[i], &g->tags[i + 1], (size_t)(g->ntags - i - 1) * sizeof g->tags[0]);
    g->ntags--;
}

const char *pgn_tag(const PgnGame *g, const char *name) {
    int i = find_tag(g, name);
    return i < 0 ? NULL : g->tags[i].value;
}

int pgn_tag_count(const PgnGame *g) {
    return g->ntags;
}

const char *pgn_tag_name(const PgnGame *g, int i) {
    return i >= 0 && i < g->ntags ? g->tags[i].name : NULL;
}

const char *pgn_tag_value(const PgnGame *g, int i) {
    return i >= 0 && i < g->ntags ? g->tags[i].value : NULL;
}

bool pgn_set_start_fen(PgnGame *g, const char *fen, char *err, size_t errsz) {
    if (g->first || g->lead) {
        snprintf(err, errsz, "the start position cannot change once the game has moves");
        return false;
    }
    if (!board_set_fen(g->tail, fen, err, errsz))
        return false;
    board_to_fen(g->tail, g->start_fen, sizeof g->start_fen);
    if (!strcmp(g->start_fen, BOARD_START_FEN)) {
        remove_tag(g, "SetUp");
        remove_tag(g, "FEN");
        return true;
    }
    if (!pgn_set_tag(g, "SetUp", "1") || !pgn_set_tag(g, "FEN", g->start_fen)) {
        snprintf(err, errsz, "out of memory");
        return false;
    }
    return true;
}

const char *pgn_start_fen(const PgnGame *g) {
    return g->start_fen;
}
const char *pgn_result(const PgnGame *g) {
    return g->result;
}

void pgn_set_result(PgnGame *g, const char *result) {
    if (!valid_result(result))
        return;
    strcpy(g->result, result);
    // Failing here only means the old Result tag stays; the marker is set.
    (void)pgn_set_tag(g, "Result", result);
}

static PgnNode *new_node(PgnGame *g) {
    PgnNode *n = arena_alloc(&g->arena, sizeof *n);
    if (n) {
        memset(n, 0, sizeof *n);
        n->clock_ms = -1;
    }
    return n;
}

static bool push_main(PgnGame *g, PgnNode *n) {
    if (g->main_len == g->main_cap) {
        int cap = g->main_cap ? g->main_cap * 2 : 256;
        PgnNode **m = realloc(g->main, (size_t)cap * sizeof *m);
        if (!m)
            return false;
        g->main = m;
        g->main_cap = cap;
    }
    g->main[g->main_len++] = n;
    return true;
}

// A copy of s with blank runs (line ends too) folded into one space and
// trimmed, as the reader stores comments. NULL when out of memory.
static const char *normalised_comment(Arena *a, const char *s) {
    char *out = arena_alloc(a, strlen(s) + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    for (; *s; s++) {
        bool blank =
            *s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == '\f' || *s == '\v';
        if (!blank)
            out[n++] = *s;
        else if (n > 0 && out[n - 1] != ' ')
            out[n++] = ' ';
    }
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
    return out;
}

bool pgn_append_move(PgnGame *g, Move m, const char *san, long long clock_ms, const char *comment) {
    if (!movegen_is_legal(g->tail, m))
        return false;
    PgnNode *n = new_node(g);
    if (!n)
        return false;
    if (comment) {
        const char *c = normalised_comment(&g->arena, comment);
        if (!c)
            return false;
        n->comment = *c ? c : NULL; // a blank comment is none
    }
    n->move = m;
    n->ply = g->main_len;
    n->clock_ms = clock_ms < 0 ? -1 : clock_ms;
    if (san && *san && strlen(san) < sizeof n->san)
        strcpy(n->san, san);
    else
        notation_to_san(g->tail, m, n->san);
    if (!push_main(g, n))
        return false;
    if (n->ply == 0) {
        g->first = n;
        n->pre = g->lead; // a lead comment becomes the first move's
        g->lead = NULL;
    } else {
        g->main[n->ply - 1]->next = n;
    }
    board_play(g->tail, m);
    return true;
}

const PgnNode *pgn_add_move_after(PgnGame *g, const PgnNode *after, Move m, const Board *before) {
    // The nodes belong to g: the const of the caller's pointer is a view.
    PgnNode *prev = (PgnNode *)after;
    PgnNode *cont = prev ? prev->next : g->first;
    if (cont) {
        if (cont->move == m)
            return cont;
        for (PgnNode *v = cont->variation; v; v = v->next_variation)
            if (v->move == m)
                return v;
    }
    if (!movegen_is_legal(before, m))
        return NULL;
    bool main_tail = prev ? prev->ply == g->main_len - 1 && g->main[prev->ply] == prev
                          : g->main_len == 0;
    if (!cont && main_tail)
        return pgn_append_move(g, m, NULL, -1, NULL) ? g->main[g->main_len - 1] : NULL;
    PgnNode *n = new_node(g);
    if (!n)
        return NULL;
    n->move = m;
    n->ply = prev ? prev->ply + 1 : 0;
    n->clock_ms = -1;
    notation_to_san(before, m, n->san);
    if (!cont) {
        prev->next = n; // the end of a variation goes on
        return n;
    }
    PgnNode **slot = &cont->variation;
    while (*slot)
        slot = &(*slot)->next_variation;
    *slot = n;
    return n;
}

int pgn_mainline_length(const PgnGame *g) {
    return g->main_len;
}

const PgnNode *pgn_mainline_node(const PgnGame *g, int ply) {
    return ply >= 0 && ply < g->main_len ? g->main[ply] : NULL;
}

Move pgn_mainline_move(const PgnGame *g, int ply) {
    const PgnNode *n = pgn_mainline_node(g, ply);
    return n ? n->move : MOVE_NONE;
}

const char *pgn_mainline_san(const PgnGame *g, int ply) {
    const PgnNode *n = pgn_mainline_node(g, ply);
    return n ? n->san : NULL;
}

long long pgn_mainline_clock(const PgnGame *g, int ply) {
    const PgnNode *n = pgn_mainline_node(g, ply);
    return n ? n->clock_ms : -1;
}

const char *pgn_mainline_comment(const PgnGame *g, int ply) {
    const PgnNode *n = pgn_mainline_node(g, ply);
    return n ? n->comment : NULL;
}

const PgnNode *pgn_first(const PgnGame *g) {
    return g->first;
}
const char *pgn_lead_comment(const PgnGame *g) {
    return g->lead;
}

bool pgn_position_at(const PgnGame *g, int ply, Board *out) {
    if (ply < 0 || ply > g->main_len || !board_set_fen(out, g->start_fen, NULL, 0))
        return false;
    for (int i = 0; i < ply; i++)
        board_play(out, g->main[i]->move);
    return true;
}

bool pgn_mainline_add_nag(PgnGame *g, int ply, int nag) {
    if (ply < 0 || ply >= g->main_len || nag < 1 || nag > 255)
        return false;
    PgnNode *n = g->main[ply];
    for (int i = 0; i < n->nag_count; i++)
        if (n->nags[i] == nag)
            return true;
    if (n->nag_count >= PGN_MAX_NAGS)
        return false;
    n->nags[n->nag_count++] = (unsigned char)nag;
    return true;
}

bool pgn_mainline_append_comment(PgnGame *g, int ply, const char *text) {
    if (ply < 0 || ply >= g->main_len || !text)
        return false;
    const char *c = normalised_comment(&g->arena, text);
    if (!c)
        return false;
    if (!*c)
        return true;
    PgnNode *n = g->main[ply];
    const char *joined = arena_join(&g->arena, n->comment, c);
    if (!joined)
        return false;
    n->comment = joined;
    return true;
}

bool pgn_mainline_add_variation(PgnGame *g, int ply, const Move *moves, int n,
                                const char *comment) {
    if (ply < 0 || ply >= g->main_len || !moves || n < 1)
        return false;
    Board *b = malloc(sizeof *b);
    if (!b)
        return false;
    bool ok = pgn_position_at(g, ply, b);
    PgnNode *first = NULL, *last = NULL;
    for (int i = 0; ok && i < n; i++) {
        PgnNode *node = movegen_is_legal(b, moves[i]) ? new_node(g) : NULL;
        if (!node) {
            ok = false;
            break;
        }
        node->move = moves[i];
        node->ply = ply + i;
        notation_to_san(b, moves[i], node->san);
        board_play(b, moves[i]);
        if (last)
            last->next = node;
        else
            first = node;
        last = node;
    }
    free(b);
    if (ok && comment) {
        const char *c = normalised_comment(&g->arena, comment);
        if (!c)
            ok = false;
        else
            first->comment = *c ? c : NULL;
    }
    if (!ok)
        return false; // the nodes made stay unreachable in the arena
    PgnNode **link = &g->main[ply]->variation;
    while (*link)
        link = &(*link)->next_variation;
    *link = first;
    return true;
}

// ===========================================================================
// Writer

enum { LINE_LIMIT = 79 }; // export lines stay under 80 columns

typedef struct Out {
    char *buf;
    size_t len, cap;
    bool failed;
    int col;   // length of the current line
    int opens; // "(" marks waiting for the next unit
} Out;

static void out_bytes(Out *o, const char *s, size_t n) {
    if (o->failed)
        return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (o->len + n + 1 > cap)
            cap *= 2;
        char *b = realloc(o->buf, cap);
        if (!b) {
            o->failed = true;
            return;
        }
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
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
        int count = pass == 0 ? 7 : g->ntags;
        for (int i = 0; i < count; i++) {
            const char *name, *value;
            if (pass == 0) {
                name = roster[i];
                value = pgn_tag(g, name);
                if (!value)
                    value = defaults[i] ? defaults[i] : g->result;
            } else {
                name = g->tags[i].name;
                value = g->tags[i].value;
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
    if (board_set_fen(&start, g->start_fen, NULL, 0)) {
        mn.fullmove = start.fullmove;
        mn.black = start.side == BLACK;
    }
    if (g->lead)
        out_comment(&o, g->lead, -1);
    out_line(&o, &mn, g->first);
    out_word(&o, "", g->result, strlen(g->result), "");
    out_newline(&o);
    out_newline(&o);
    if (o.failed) {
        free(o.buf);
        return NULL;
    }
    if (len)
        *len = o.len;
    return o.buf;
}

bool pgn_save(const char *path, const PgnGame *const *games, int n, char *err, size_t errsz) {
    Out all = { 0 };
    out_str(&all, ""); // an empty file for zero games still gets a buffer
    for (int i = 0; i < n && !all.failed; i++) {
        size_t len;
        char *s = pgn_write_string(games[i], &len);
        if (!s) {
            all.failed = true;
            break;
        }
        out_bytes(&all, s, len);
        free(s);
    }
    if (all.failed) {
        free(all.buf);
        snprintf(err, errsz, "cannot write %s: out of memory", path);
        return false;
    }
    bool ok = paths_write_atomic(path, all.buf, all.len, err, errsz);
    free(all.buf);
    return ok;
}

// ===========================================================================
// Reader

enum { READ_CHUNK = 64 * 1024, LINE_MAX_BYTES = 64 * 1024 * 1024 };

// What the reader skips after a game with an error.
typedef enum { SKIP_NONE, SKIP_TAGS, SKIP_MOVES } SkipMode;

// One line of play: the main line (level 0) or an open variation.
typedef struct Level {
    Board board;             // position after the last move of this line
    Board prev;              // position before it
    bool has_move;
    bool var_since_last; // a variation was closed after the last move
    int next_ply;
    int open_line, open_col; // where its '(' is
    PgnNode *parent;         // the move this line is an alternative to
    PgnNode *last;
    const char *pending; // comment waiting for the next move
} Level;

struct PgnReader {
    FILE *fp;
    char name[PATH_MAX_LEN];
    char *buf;
    size_t cap, start, end;
    bool eof, io_error, io_reported;
    int io_errno;

    const char *line; // current line (without its line end)
    size_t len, pos;
    int line_no;
    bool have_line;
    SkipMode skip;
    int game_number;

    char *scratch; // comment text and tag values
    size_t slen, scap;
    Level *levels;
    int levels_cap;

    // Per game.
    bool build;
    PgnGame *game;
    PgnError *err;
    PgnError spare_err; // where errors go when the caller passes no PgnError
    int depth;
    bool in_tags; // still before the move text
    bool started; // the start position has been set up
    bool fen_seen;
    char fen[FEN_MAX * 2];
    int fen_line, fen_col;
    bool setup_zero;
    char tag_result[8];
    char result[8];
};

static PgnReader *reader_new(const char *name) {
    board_init_tables();
    PgnReader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    snprintf(r->name, sizeof r->name, "%s", name ? name : "<string>");
    return r;
}

PgnReader *pgn_reader_open(const char *path, char *err, size_t errsz) {
    PgnReader *r = reader_new(path);
    if (!r) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    r->cap = READ_CHUNK;
    r->buf = malloc(r->cap);
    if (!r->buf) {
        free(r);
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    r->fp = fopen(path, "rb");
    if (!r->fp) {
        snprintf(err, errsz, "cannot open %s: %s", path, strerror(errno));
        free(r->buf);
        free(r);
        return NULL;
    }
    return r;
}

PgnReader *pgn_reader_from_string(const char *text, const char *name) {
    PgnReader *r = reader_new(name);
    if (!r)
        return NULL;
    size_t n = strlen(text);
    r->buf = malloc(n + 1);
    if (!r->buf) {
        free(r);
        return NULL;
    }
    memcpy(r->buf, text, n + 1);
    r->cap = n + 1;
    r->end = n;
    r->eof = true;
    return r;
}

void pgn_reader_close(PgnReader *r) {
    if (!r)
        return;
    if (r->fp)
        fclose(r->fp); // read-only: nothing to lose on a failed close
    free(r->buf);
    free(r->scratch);
    free(r->levels);
    free(r);
}

// Makes the next line current. False at the end of input (or on a read error).
static bool next_line(PgnReader *r) {
    for (;;) {
        char *s = r->buf + r->start;
        size_t avail = r->end - r->start;
        char *nl = avail ? memchr(s, '\n', avail) : NULL;
        if (nl) {
            r->line = s;
            r->len = (size_t)(nl - s);
            r->start += r->len + 1;
            break;
        }
        if (r->eof || r->io_error) {
            if (avail == 0) {
                r->have_line = false;
                return false;
            }
            r->line = s;
            r->len = avail;
            r->start = r->end;
            break;
        }
        if (r->start > 0) {
            memmove(r->buf, s, avail);
            r->end = avail;
            r->start = 0;
        }
        if (r->end == r->cap) {
            // A line longer than the buffer: grow (bounded by the longest line).
            char *b = r->cap < LINE_MAX_BYTES ? realloc(r->buf, r->cap * 2) : NULL;
            if (!b) {
                r->io_error = true;
                r->io_errno = ENOMEM;
                continue;
            }
            r->buf = b;
            r->cap *= 2;
        }
        size_t got = fread(r->buf + r->end, 1, r->cap - r->end, r->fp);
        r->end += got;
        if (got == 0) {
            if (ferror(r->fp)) {
                r->io_error = true;
                r->io_errno = errno ? errno : EIO;
            } else {
                r->eof = true;
            }
        }
    }
    r->line_no++;
    if (r->len > 0 && r->line[r->len - 1] == '\r')
        r->len--;
    if (r->line_no == 1 && r->len >= 3 && !memcmp(r->line, "\xEF\xBB\xBF", 3)) {
        r->line += 3;
        r->len -= 3;
    }
    r->pos = 0;
    r->have_line = true;
    return true;
}

// Like next_line but passes over '%' escape lines.
static bool next_text_line(PgnReader *r) {
    while (next_line(r))
        if (r->len == 0 || r->line[0] != '%')
            return true;
    return false;
}

static inline bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static inline bool is_name_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// A line of the form [Name "..."] (a tag pair starting in column 1).
static bool looks_like_tag_line(const char *s, size_t n) {
    size_t i = 0;
    if (n < 5 || s[i++] != '[')
        return false;
    while (i < n && is_space(s[i]))
        i++;
    size_t name = i;
    while (i < n && is_name_char(s[i]))
        i++;
    if (i == name)
        return false;
    while (i < n && is_space(s[i]))
        i++;
    if (i >= n || s[i] != '"')
        return false;
    while (n > i && is_space(s[n - 1]))
        n--;
    return s[n - 1] == ']';
}

static int fail_at(PgnReader *r, int line, int col, SkipMode skip, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail_at(PgnReader *r, int line, int col, SkipMode skip, const char *fmt, ...) {
    PgnError *e = r->err;
    snprintf(e->file, sizeof e->file, "%s", r->name);
    e->line = line;
    e->column = col;
    e->game_number = r->game_number;
    int n = snprintf(e->message, sizeof e->message, "game %d: ", r->game_number);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof e->message)
        vsnprintf(e->message + n, sizeof e->message - (size_t)n, fmt, ap);
    va_end(ap);
    r->skip = skip;
    return -1;
}

static int fail_here(PgnReader *r, const char *fmt, const char *arg) {
    return fail_at(r, r->line_no, (int)r->pos + 1, r->in_tags ? SKIP_TAGS : SKIP_MOVES, fmt, arg);
}

// Skips the rest of a game that had an error; see SkipMode.
static void skip_bad_game(PgnReader *r) {
    SkipMode mode = r->skip;
    r->skip = SKIP_NONE;
    if (mode == SKIP_NONE)
        return;
    while (next_line(r)) {
        size_t i = 0;
        while (i < r->len && is_space(r->line[i]))
            i++;
        bool blank = i == r->len;
        bool tag = r->len > 0 && r->line[0] == '[';
        if (mode == SKIP_TAGS) {
            if (!tag)
                mode = SKIP_MOVES;
            continue;
        }
        if (tag && !blank)
            return; // the next game starts here; the line stays current
    }
}

static bool scratch_reserve(PgnReader *r, size_t more) {
    if (r->slen + more + 1 <= r->scap)
        return true;
    size_t cap = r->scap ? r->scap : 1024;
    while (r->slen + more + 1 > cap)
        cap *= 2;
    char *s = realloc(r->scratch, cap);
    if (!s)
        return false;
    r->scratch = s;
    r->scap = cap;
    return true;
}

// Appends comment text with blank runs folded into single spaces.
static bool scratch_add_text(PgnReader *r, const char *s, size_t n) {
    if (!scratch_reserve(r, n + 1))
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (is_space(c) || c == '\n') {
            if (r->slen > 0 && r->scratch[r->slen - 1] != ' ')
                r->scratch[r->slen++] = ' ';
        } else {
            r->scratch[r->slen++] = c;
        }
    }
    r->scratch[r->slen] = '\0';
    return true;
}

static Level *level(PgnReader *r) {
    return &r->levels[r->depth];
}

static bool ensure_levels(PgnReader *r, int depth) {
    if (depth < r->levels_cap)
        return true;
    int cap = r->levels_cap ? r->levels_cap * 2 : 4;
    while (cap <= depth)
        cap *= 2;
    Level *l = realloc(r->levels, (size_t)cap * sizeof *l);
    if (!l)
        return false;
    r->levels = l;
    r->levels_cap = cap;
    return true;
}

// Sets up level 0 from the FEN tag or the standard position.
static int start_game_position(PgnReader *r) {
    if (r->started)
        return 0;
    r->started = true;
    r->in_tags = false;
    Level *l = &r->levels[0];
    if (r->fen_seen && !r->setup_zero) {
        char why[160];
        if (!board_set_fen(&l->board, r->fen, why, sizeof why))
            return fail_at(r, r->fen_line, r->fen_col, SKIP_MOVES, "bad FEN tag: %s", why);
    } else {
        board_set_start(&l->board);
    }
    if (r->build)
        board_to_fen(&l->board, r->game->start_fen, sizeof r->game->start_fen);
    return 0;
}

// Takes a [%clk h:mm:ss(.f)] command out of s (in place); its value in *ms.
static void extract_clock(char *s, long long *ms) {
    char *c = strstr(s, "[%clk");
    if (!c)
        return;
    const char *p = c + 5;
    long long f[3] = { 0, 0, 0 };
    while (*p == ' ')
        p++;
    for (int k = 0; k < 3; k++) {
        if (*p < '0' || *p > '9')
            return;
        while (*p >= '0' && *p <= '9' && f[k] < 100000000)
            f[k] = f[k] * 10 + (*p++ - '0');
        if (k < 2 && *p++ != ':')
            return;
    }
    long long frac = 0;
    if (*p == '.') {
        p++;
        int digits = 0;
        while (*p >= '0' && *p <= '9') {
            if (digits < 3) {
                frac = frac * 10 + (*p - '0');
                digits++;
            }
            p++;
        }
        for (; digits < 3; digits++)
            frac *= 10;
    }
    while (*p == ' ')
        p++;
    if (*p != ']' || f[1] > 59 || f[2] > 59)
        return;
    *ms = (f[0] * 3600 + f[1] * 60 + f[2]) * 1000 + frac;
    // Remove it and the blanks on one side, so "a [%clk ..] b" becomes "a b".
    char *end = (char *)p + 1;
    while (*end == ' ')
        end++;
    if (*end == '\0')
        while (c > s && c[-1] == ' ')
            c--;
    memmove(c, end, strlen(end) + 1);
}

// A finished comment (in r->scratch) goes to the move before it, or waits
// for the next move.
static int attach_comment(PgnReader *r) {
    if (!r->build)
        return 0;
    Arena *a = &r->game->arena;
    Level *l = level(r);
    while (r->slen > 0 && r->scratch[r->slen - 1] == ' ')
        r->scratch[--r->slen] = '\0';
    if (l->last && !l->var_since_last) {
        PgnNode *n = l->last;
        bool had_text = r->slen > 0;
        if (n->clock_ms < 0)
            extract_clock(r->scratch, &n->clock_ms);
        r->slen = strlen(r->scratch);
        if (had_text && r->slen == 0 && n->clock_ms >= 0)
            return 0; // the comment only carried the clock
        const char *t = arena_strndup(a, r->scratch, r->slen);
        if (!t || !(n->comment = arena_join(a, n->comment, t)))
            return fail_here(r, "%s", "out of memory");
        return 0;
    }
    const char *t = arena_strndup(a, r->scratch, r->slen);
    if (!t || !(l->pending = arena_join(a, l->pending, t)))
        return fail_here(r, "%s", "out of memory");
    return 0;
}

// Scans a comment from r->pos (just after '{') to its '}', across lines.
static int read_brace_comment(PgnReader *r) {
    int open_line = r->line_no, open_col = (int)r->pos;
    r->slen = 0;
    if (r->scratch)
        r->scratch[0] = '\0';
    for (;;) {
        const char *s = r->line + r->pos;
        size_t n = r->len - r->pos;
        const char *close = memchr(s, '}', n);
        size_t take = close ? (size_t)(close - s) : n;
        if (r->build && !scratch_add_text(r, s, take))
            return fail_here(r, "%s", "out of memory");
        if (close) {
            r->pos += take + 1;
            return attach_comment(r);
        }
        if (r->build && !scratch_add_text(r, " ", 1))
            return fail_here(r, "%s", "out of memory");
        if (!next_text_line(r))
            return fail_at(r, open_line, open_col, SKIP_NONE,
                           "unclosed comment: '{' has no matching '}'");
        if (looks_like_tag_line(r->line, r->len))
            return fail_at(r, open_line, open_col, SKIP_NONE,
                           "unclosed comment: '{' has no matching '}' before the next game's tags");
    }
}

// Reads a tag pair at r->pos ('[').
static int read_tag(PgnReader *r) {
    const char *s = r->line;
    size_t n = r->len, i = r->pos + 1;
    int tag_col = (int)r->pos + 1;
    while (i < n && is_space(s[i]))
        i++;
    size_t name = i;
    while (i < n && is_name_char(s[i]))
        i++;
    size_t name_len = i - name;
    r->pos = i;
    if (name_len == 0 || name_len > 255)
        return fail_here(r, "bad tag: %s", "expected a tag name after '['");
    while (i < n && is_space(s[i]))
        i++;
    r->pos = i;
    if (i >= n || s[i] != '"')
        return fail_here(r, "bad tag: %s", "expected '\"' before the tag value");
    i++;
    r->slen = 0;
    for (;;) {
        if (i >= n) {
            r->pos = i;
            return fail_here(r, "bad tag: %s", "the tag value has no closing '\"'");
        }
        char c = s[i++];
        if (c == '"')
            break;
        if (c == '\\' && i < n && (s[i] == '"' || s[i] == '\\'))
            c = s[i++];
        // A stray carriage return (or other control character) in a value
        // is read as a blank: tag values are one line.
        if ((unsigned char)c < ' ')
            c = ' ';
        if (!scratch_reserve(r, 1))
            return fail_here(r, "%s", "out of memory");
        r->scratch[r->slen++] = c;
    }
    // An empty value may be the first use of the buffer.
    if (!scratch_reserve(r, 1))
        return fail_here(r, "%s", "out of memory");
    r->scratch[r->slen] = '\0';
    while (i < n && is_space(s[i]))
        i++;
    r->pos = i;
    if (i >= n || s[i] != ']')
        return fail_here(r, "bad tag: %s", "expected ']' after the tag value");
    r->pos = i + 1;

    char tag_name[256];
    memcpy(tag_name, s + name, name_len);
    tag_name[name_len] = '\0';
    if (!strcmp(tag_name, "FEN")) {
        r->fen_seen = true;
        snprintf(r->fen, sizeof r->fen, "%s", r->scratch);
        r->fen_line = r->line_no;
        r->fen_col = tag_col;
    } else if (!strcmp(tag_name, "SetUp")) {
        r->setup_zero = !strcmp(r->scratch, "0");
    } else if (!strcmp(tag_name, "Result") && valid_result(r->scratch)) {
        strcpy(r->tag_result, r->scratch);
    }
    if (r->build && !pgn_set_tag(r->game, tag_name, r->scratch))
        return fail_here(r, "bad tag: %s", "the tag cannot be stored (bad name or out of memory)");
    return 0;
}

static int piece_letter(char c) {
    switch (c) {
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    default: return -1;
    }
}

// The common, well-formed SAN shapes matched directly against the board:
// true when exactly one legal move fits. Anything else is left to
// notation_parse_move, which is lenient and explains failures.
static bool fast_san(const Board *b, const char *s, size_t n, Move *out) {
    while (n > 0 && (s[n - 1] == '+' || s[n - 1] == '#'))
        n--;
    Color us = b->side;
    if (n == 3 || n == 5) {
        if ((s[0] == 'O' && !memcmp(s, n == 3 ? "O-O" : "O-O-O", n)) ||
            (s[0] == '0' && !memcmp(s, n == 3 ? "0-0" : "0-0-0", n))) {
            Square k = board_king(b, us);
            Move m = move_make_kind(k, n == 3 ? k + 2 : k - 2, MOVE_CASTLING);
            if (movegen_is_legal(b, m)) {
                *out = m;
                return true;
            }
            return false;
        }
    }
    int promo = -1;
    if (n >= 4 && s[n - 2] == '=') {
        promo = piece_letter(s[n - 1]);
        if (promo < KNIGHT || promo > QUEEN)
            return false;
        n -= 2;
    }
    if (n < 2 || s[n - 2] < 'a' || s[n - 2] > 'h' || s[n - 1] < '1' || s[n - 1] > '8')
        return false;
    Square to = make_square(s[n - 2] - 'a', s[n - 1] - '1');
    n -= 2;
    bool capture = n > 0 && s[n - 1] == 'x';
    if (capture)
        n--;
    Move m = MOVE_NONE;
    if (n > 0 && piece_letter(s[0]) >= 0) {
        if (promo >= 0)
            return false;
        PieceType pt = (PieceType)piece_letter(s[0]);
        Bitboard mask = ~0ULL;
        size_t i = 1;
        if (i < n && s[i] >= 'a' && s[i] <= 'h')
            mask &= bb_file(s[i++] - 'a');
        if (i < n && s[i] >= '1' && s[i] <= '8')
            mask &= bb_rank(s[i++] - '1');
        if (i != n)
            return false;
        Bitboard from = attacks_piece(pt, to, board_occupied(b)) & board_pieces(b, us, pt) & mask;
        int found = 0;
        while (from) {
            Move c = move_make(bb_pop(&from), to);
            if (movegen_is_legal(b, c)) {
                m = c;
                found++;
            }
        }
        if (found != 1)
            return false;
    } else {
        int fwd = us == WHITE ? 8 : -8;
        Square from;
        if (capture) {
            if (n != 1 || s[0] < 'a' || s[0] > 'h')
                return false;
            int ff = s[0] - 'a', tf = square_file(to);
            if (ff != tf - 1 && ff != tf + 1)
                return false;
            from = to - fwd + (ff - tf);
        } else {
            if (n != 0)
                return false;
            from = to - fwd;
            if (from < 0 || from >= SQ_NB)
                return false;
            if (board_piece_on(b, from) == NO_PIECE && relative_rank(us, to) == 3)
                from -= fwd;
        }
        if (from < 0 || from >= SQ_NB || board_piece_on(b, from) != make_piece(us, PAWN))
            return false;
        if (relative_rank(us, to) == 7) {
            if (promo < 0)
                return false;
            m = move_make_promotion(from, to, (PieceType)promo);
        } else if (promo >= 0) {
            return false;
        } else if (capture && to == b->ep && board_piece_on(b, to) == NO_PIECE) {
            m = move_make_kind(from, to, MOVE_EN_PASSANT);
        } else {
            m = move_make(from, to);
        }
        if (!movegen_is_legal(b, m))
            return false;
    }
    *out = m;
    return true;
}

// The part of a notation message after "'text': ".
static const char *reason_of(const char *msg) {
    const char *p = strstr(msg, "': ");
    return p ? p + 3 : msg;
}

// Plays the move text s (n bytes, suffix annotations already split off).
static int play_move(PgnReader *r, const char *s, size_t n, int col) {
    int rc = start_game_position(r);
    if (rc)
        return rc;
    Level *l = level(r);
    Move m;
    if (!fast_san(&l->board, s, n, &m)) {
        char text[64], why[256];
        snprintf(text, sizeof text, "%.*s", (int)(n < 60 ? n : 60), s);
        NotationStatus st = notation_parse_move(&l->board, text, &m, why, sizeof why);
        if (st != NOTATION_OK) {
            char fen[FEN_MAX];
            board_to_fen(&l->board, fen, sizeof fen);
            const char *kind = st == NOTATION_AMBIGUOUS ? "ambiguous"
                               : st == NOTATION_ILLEGAL ? "illegal"
                                                        : "unreadable";
            const char *detail = st == NOTATION_UNPARSEABLE ? "not a move" : reason_of(why);
            return fail_at(r, r->line_no, col, SKIP_MOVES,
                           "%s move '%s' at move %d (%s), position: %s: %s%s", kind, text,
                           l->board.fullmove, l->board.side == WHITE ? "White" : "Black", fen,
                           st == NOTATION_AMBIGUOUS ? "could be " : "", detail);
        }
    }
    PgnNode *node = NULL;
    if (r->build) {
        PgnGame *g = r->game;
        node = new_node(g);
        if (!node)
            return fail_at(r, r->line_no, col, SKIP_MOVES, "out of memory");
        node->move = m;
        node->ply = l->next_ply;
        notation_to_san(&l->board, m, node->san);
        node->pre = l->pending;
        l->pending = NULL;
        if (l->last) {
            l->last->next = node;
        } else if (r->depth == 0) {
            g->first = node;
        } else {
            // A new alternative goes after the ones already there.
            PgnNode **slot = &l->parent->variation;
            while (*slot)
                slot = &(*slot)->next_variation;
            *slot = node;
        }
        if (r->depth == 0 && !push_main(g, node))
            return fail_at(r, r->line_no, col, SKIP_MOVES, "out of memory");
    }
    l->prev = l->board;
    board_play(&l->board, m);
    l->last = node;
    l->has_move = true;
    l->var_since_last = false;
    l->next_ply++;
    return 0;
}

static int add_nag(PgnReader *r, int nag, int col) {
    Level *l = level(r);
    if (!l->has_move)
        return fail_at(r, r->line_no, col, SKIP_MOVES, "annotation before any move");
    if (!r->build)
        return 0;
    if (l->last->nag_count >= PGN_MAX_NAGS)
        return fail_at(r, r->line_no, col, SKIP_MOVES, "more than %d annotations on one move",
                       PGN_MAX_NAGS);
    l->last->nags[l->last->nag_count++] = (unsigned char)nag;
    return 0;
}

// "!", "?", "!!", "??", "!?", "?!" as NAGs 1-6; 0 for anything else.
static int suffix_nag(const char *s, size_t n) {
    static const char *const marks[] = { "!", "?", "!!", "??", "!?", "?!" };
    for (int i = 0; i < 6; i++)
        if (strlen(marks[i]) == n && !memcmp(marks[i], s, n))
            return i + 1;
    return 0;
}

static int open_variation(PgnReader *r) {
    int rc = start_game_position(r);
    if (rc)
        return rc;
    Level *l = level(r);
    if (!l->has_move)
        return fail_here(r, "%s", "a variation must follow the move it replaces");
    if (r->depth + 1 > PGN_MAX_DEPTH)
        return fail_here(r, "%s", "variations nested too deeply");
    if (!ensure_levels(r, r->depth + 1))
        return fail_here(r, "%s", "out of memory");
    l = level(r); // the array may have moved
    Level *v = &r->levels[r->depth + 1];
    v->board = l->prev;
    v->has_move = v->var_since_last = false;
    v->next_ply = l->next_ply - 1;
    v->open_line = r->line_no;
    v->open_col = (int)r->pos + 1;
    v->parent = l->last;
    v->last = NULL;
    v->pending = NULL;
    // A comment between two variations goes before the second one's first move.
    v->pending = l->pending;
    l->pending = NULL;
    r->depth++;
    r->pos++;
    return 0;
}

static int close_variation(PgnReader *r) {
    if (r->depth == 0)
        return fail_here(r, "%s", "')' without a matching '('");
    Level *v = level(r);
    if (!v->has_move)
        return fail_at(r, v->open_line, v->open_col, SKIP_MOVES, "empty variation");
    if (r->build && v->pending)
        v->last->trail = arena_join(&r->game->arena, v->last->trail, v->pending);
    r->depth--;
    level(r)->var_since_last = true;
    r->pos++;
    return 0;
}

static int unclosed_variation(PgnReader *r, SkipMode skip) {
    Level *v = level(r);
    return fail_at(r, v->open_line, v->open_col, skip,
                   "unclosed variation: '(' has no matching ')'");
}

// The game is over: a result, a new game's tags or the end of input.
static int finish_game(PgnReader *r, const char *result) {
    int rc = start_game_position(r);
    if (rc)
        return rc;
    snprintf(r->result, sizeof r->result, "%s",
             result             ? result
             : r->tag_result[0] ? r->tag_result
                                : "*");
    if (r->build) {
        PgnGame *g = r->game;
        Level *l = &r->levels[0];
        if (l->pending) {
            if (l->last)
                l->last->trail = arena_join(&g->arena, l->last->trail, l->pending);
            else
                g->lead = l->pending;
        }
        strcpy(g->result, r->result);
        *g->tail = l->board;
    }
    return 1;
}

// Reads a symbol token at r->pos: a move number, a result or a move.
static int read_symbol(PgnReader *r) {
    const char *s = r->line + r->pos;
    size_t n = r->len - r->pos, i = 0;
    int col = (int)r->pos + 1;
    while (i < n) {
        char c = s[i];
        if (is_name_char(c) || c == '+' || c == '#' || c == '=' || c == ':' || c == '-' || c == '/')
            i++;
        else
            break;
    }
    size_t tok = i;
    r->in_tags = false;
    // Move number: digits, then any dots.
    size_t d = 0;
    while (d < tok && s[d] >= '0' && s[d] <= '9')
        d++;
    if (d == tok) {
        while (i < n && s[i] == '.')
            i++;
        r->pos += i;
        return 0;
    }
    if ((tok == 3 && (!memcmp(s, "1-0", 3) || !memcmp(s, "0-1", 3))) ||
        (tok == 7 && !memcmp(s, "1/2-1/2", 7))) {
        if (r->depth > 0)
            return unclosed_variation(r, SKIP_MOVES);
        char res[8];
        memcpy(res, s, tok);
        res[tok] = '\0';
        r->pos += tok;
        return finish_game(r, res);
    }
    // Suffix annotation glued to the move.
    size_t a = i;
    while (a < n && (s[a] == '!' || s[a] == '?'))
        a++;
    r->in_tags = false;
    int rc = play_move(r, s, tok, col);
    if (rc)
        return rc;
    if (a > i) {
        int nag = suffix_nag(s + i, a - i);
        if (!nag)
            return fail_at(r, r->line_no, (int)(r->pos + i) + 1, SKIP_MOVES,
                           "bad annotation '%.*s'", (int)(a - i), s + i);
        rc = add_nag(r, nag, (int)(r->pos + i) + 1);
        if (rc)
            return rc;
    }
    r->pos += a;
    return 0;
}

// Reads one game. 1 = read, 0 = end of input, -1 = error.
static int read_game(PgnReader *r) {
    skip_bad_game(r);
    r->depth = 0;
    r->in_tags = true;
    r->started = false;
    r->fen_seen = false;
    r->setup_zero = false;
    r->tag_result[0] = '\0';
    r->result[0] = '\0';
    if (!ensure_levels(r, 0))
        return -2;
    Level *l = &r->levels[0];
    l->has_move = l->var_since_last = false;
    l->next_ply = 0;
    l->parent = l->last = NULL;
    l->pending = NULL;
    bool begun = false;
    for (;;) {
        if (!r->have_line || r->pos >= r->len) {
            if (!next_text_line(r)) {
                if (r->io_error && !r->io_reported) {
                    r->io_reported = true;
                    if (!begun)
                        r->game_number++;
                    return fail_at(r, r->line_no, 1, SKIP_NONE, "read error: %s",
                                   strerror(r->io_errno));
                }
                if (!begun)
                    return 0;
                if (r->depth > 0)
                    return unclosed_variation(r, SKIP_NONE);
                return finish_game(r, NULL);
            }
            continue;
        }
        char c = r->line[r->pos];
        if (is_space(c) || c == '\n') {
            r->pos++;
            continue;
        }
        if (!begun) {
            begun = true;
            r->game_number++;
        }
        int rc = 0;
        switch (c) {
        case '[':
            if (r->in_tags) {
                rc = read_tag(r);
            } else {
                size_t k = 0;
                while (k < r->pos && is_space(r->line[k]))
                    k++;
                if (k == r->pos && r->depth == 0)
                    return finish_game(r, NULL); // next game; no result given
                if (k == r->pos && looks_like_tag_line(r->line, r->len))
                    return unclosed_variation(r, SKIP_NONE);
                rc = fail_here(r, "%s", "unexpected '['");
            }
            break;
        case '{':
            r->in_tags = false;
            r->pos++;
            rc = read_brace_comment(r);
            break;
        case ';':
            r->in_tags = false;
            r->slen = 0;
            if (r->build && !scratch_add_text(r, r->line + r->pos + 1, r->len - r->pos - 1))
                rc = fail_here(r, "%s", "out of memory");
            r->pos = r->len;
            if (!rc)
                rc = attach_comment(r);
            break;
        case '(':
            r->in_tags = false;
            rc = open_variation(r);
            break;
        case ')': rc = close_variation(r); break;
        case '$': {
            size_t i = r->pos + 1;
            int nag = 0, digits = 0;
            while (i < r->len && r->line[i] >= '0' && r->line[i] <= '9' && digits < 4) {
                nag = nag * 10 + (r->line[i++] - '0');
                digits++;
            }
            if (digits == 0 || nag > 255)
                rc = fail_here(r, "%s", "bad NAG: expected $0 to $255");
            else
                rc = add_nag(r, nag, (int)r->pos + 1);
            if (!rc)
                r->pos = i;
            break;
        }
        case '!':
        case '?': {
            size_t i = r->pos;
            while (i < r->len && (r->line[i] == '!' || r->line[i] == '?'))
                i++;
            int nag = suffix_nag(r->line + r->pos, i - r->pos);
            if (!nag)
                rc = fail_at(r, r->line_no, (int)r->pos + 1, SKIP_MOVES, "bad annotation '%.*s'",
                             (int)(i - r->pos), r->line + r->pos);
            else
                rc = add_nag(r, nag, (int)r->pos + 1);
            if (!rc)
                r->pos = i;
            break;
        }
        case '*':
            if (r->depth > 0)
                return unclosed_variation(r, SKIP_MOVES);
            r->pos++;
            return finish_game(r, "*");
        case '.': r->pos++; break;
        default:
            if (is_name_char(c))
                rc = read_symbol(r);
            else
                rc = fail_at(r, r->line_no, (int)r->pos + 1, r->in_tags ? SKIP_TAGS : SKIP_MOVES,
                             "unexpected character '%c'", c);
            break;
        }
        if (rc)
            return rc;
    }
}

static int run_reader(PgnReader *r, bool build, PgnGame *g, PgnError *error) {
    r->err = error ? error : &r->spare_err;
    r->build = build;
    r->game = g;
    int rc = read_game(r);
    if (rc == -2) {
        // Nowhere to keep even the main line's board.
        r->game_number++;
        return fail_at(r, r->line_no, 1, SKIP_MOVES, "out of memory");
    }
    return rc;
}

int pgn_reader_next(PgnReader *r, PgnGame *out, PgnError *error) {
    pgn_game_clear(out);
    return run_reader(r, true, out, error);
}

int pgn_reader_validate(PgnReader *r, PgnSummary *summary, PgnError *error) {
    int rc = run_reader(r, false, NULL, error);
    if (summary) {
        summary->game_number = r->game_number;
        summary->plies = 0;
        snprintf(summary->result, sizeof summary->result, "%s", r->result);
        summary->final_fen[0] = '\0';
        if (rc == 1) {
            summary->plies = r->levels[0].next_ply;
            board_to_fen(&r->levels[0].board, summary->final_fen, sizeof summary->final_fen);
        }
    }
    return rc;
}
