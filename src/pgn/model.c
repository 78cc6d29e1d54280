// SPDX-License-Identifier: GPL-3.0-or-later
// The PGN game model: tags, the move tree in a per-game arena, navigation,
// annotation, and the builder the reader uses (src/pgn/tree.h).
#include "src/pgn/model.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"
#include "src/pgn/tree.h"

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
    PgnSource source;
    unsigned edits; // changes since the game was read or written
};

bool pgn_is_result(const char *r) {
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
    memset(&g->source, 0, sizeof g->source);
    g->edits = 0;
}

bool pgn_modified(const PgnGame *g) {
    return g->edits > 0;
}

void pgn_mark_saved(PgnGame *g) {
    g->edits = 0;
}

const PgnSource *pgn_source(const PgnGame *g) {
    return &g->source;
}

void pgn_set_source(PgnGame *g, const PgnSource *source) {
    if (source)
        g->source = *source;
    else
        memset(&g->source, 0, sizeof g->source);
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
    g->edits++;
    if (!strcmp(name, "Result") && pgn_is_result(value))
        strcpy(g->result, value);
    return true;
}

void pgn_remove_tag(PgnGame *g, const char *name) {
    int i = find_tag(g, name);
    if (i < 0)
        return;
    g->edits++;
    memmove(&g->tags[i], &g->tags[i + 1], (size_t)(g->ntags - i - 1) * sizeof g->tags[0]);
    g->ntags--;
}

void pgn_clear_tags(PgnGame *g) {
    int kept = 0;
    for (int i = 0; i < g->ntags; i++)
        if (!strcmp(g->tags[i].name, "SetUp") || !strcmp(g->tags[i].name, "FEN"))
            g->tags[kept++] = g->tags[i];
    g->ntags = kept;
    strcpy(g->result, "*");
    g->edits++;
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
        pgn_remove_tag(g, "SetUp");
        pgn_remove_tag(g, "FEN");
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
    if (!pgn_is_result(result))
        return;
    strcpy(g->result, result);
    g->edits++;
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
    n->parent = n->ply > 0 ? g->main[n->ply - 1] : NULL;
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
    g->edits++;
    return true;
}

const PgnNode *pgn_add_move_after(PgnGame *g, const PgnNode *after, Move m, const Board *before) {
    // The nodes belong to g: the const of the caller's pointer is a view.
    if (m == MOVE_NULL || m == MOVE_NONE)
        return NULL;
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
    n->parent = prev;
    n->clock_ms = -1;
    notation_to_san(before, m, n->san);
    g->edits++;
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

bool pgn_mainline_truncate(PgnGame *g, int len) {
    if (len < 0 || len > g->main_len)
        return false;
    if (len == g->main_len)
        return true;
    if (len == 0) {
        g->lead = g->first ? g->first->pre : g->lead;
        g->first = NULL;
    } else {
        g->main[len - 1]->next = NULL; // the nodes cut stay in the arena, unreachable
    }
    g->main_len = len;
    bool ok = pgn_position_at(g, len, g->tail);
    (void)ok; // len is in range and the main line was played to its end before
    g->edits++;
    return true;
}

void pgn_node_set_clock(PgnGame *g, const PgnNode *n, long long clock_ms) {
    ((PgnNode *)n)->clock_ms = clock_ms < 0 ? -1 : clock_ms;
    g->edits++;
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
        pgn_node_play(out, g->main[i]);
    return true;
}

void pgn_node_play(Board *b, const PgnNode *n) {
    Undo u;
    if (n->move == MOVE_NULL)
        board_make_null(b, &u);
    else
        board_make_move(b, n->move, &u);
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
    g->edits++;
    return true;
}

// A comment as stored: folded, NULL for a blank one; *ok false when out of memory.
static const char *stored_comment(PgnGame *g, const char *text, bool *ok) {
    *ok = true;
    if (!text)
        return NULL;
    const char *c = normalised_comment(&g->arena, text);
    if (!c)
        *ok = false;
    return c && *c ? c : NULL;
}

bool pgn_node_set_comment(PgnGame *g, const PgnNode *n, const char *text) {
    bool ok;
    const char *c = stored_comment(g, text, &ok);
    if (ok) {
        ((PgnNode *)n)->comment = c;
        g->edits++;
    }
    return ok;
}

bool pgn_set_lead_comment(PgnGame *g, const char *text) {
    bool ok;
    const char *c = stored_comment(g, text, &ok);
    if (!ok)
        return false;
    if (g->first)
        g->first->pre = c;
    else
        g->lead = c;
    g->edits++;
    return true;
}

bool pgn_node_set_nag(PgnGame *g, const PgnNode *node, int nag) {
    PgnNode *n = (PgnNode *)node;
    if (nag < 0 || nag > 255)
        return false;
    g->edits++;
    if (nag == 0) {
        n->nag_count = 0;
        return true;
    }
    int kept = 0;
    for (int i = 0; i < n->nag_count; i++) {
        bool same_kind = nag <= 9 && n->nags[i] <= 9; // one move assessment at a time
        if (n->nags[i] == nag)
            return true;
        if (!same_kind)
            n->nags[kept++] = n->nags[i];
    }
    n->nag_count = kept;
    if (n->nag_count >= PGN_MAX_NAGS)
        return false;
    // A move assessment goes first, as it is read: "e4!? $14".
    int at = nag <= 9 ? 0 : n->nag_count;
    memmove(n->nags + at + 1, n->nags + at, (size_t)(n->nag_count - at));
    n->nags[at] = (unsigned char)nag;
    n->nag_count++;
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
    g->edits++;
    return true;
}

bool pgn_mainline_add_variation(PgnGame *g, int ply, const Move *moves, int n,
                                const char *comment) {
    if (ply < 0 || ply >= g->main_len || !moves || n < 1)
        return false;
    Board board, *b = &board;
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
        node->parent = last ? last : ply > 0 ? g->main[ply - 1] : NULL;
        notation_to_san(b, moves[i], node->san);
        board_play(b, moves[i]);
        if (last)
            last->next = node;
        else
            first = node;
        last = node;
    }
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
    g->edits++;
    return true;
}

// ===========================================================================
// Clone

static bool copy_text(PgnGame *g, const char **dst, const char *src) {
    *dst = src ? arena_strndup(&g->arena, src, strlen(src)) : NULL;
    return !src || *dst;
}

static PgnNode *copy_line(PgnGame *g, const PgnNode *src, bool main, PgnNode *parent, bool *ok);

// Copies a chain of alternatives (linked by next_variation) with their lines.
static PgnNode *copy_alternatives(PgnGame *g, const PgnNode *src, PgnNode *parent, bool *ok) {
    PgnNode *head = NULL, **link = &head;
    for (; src && *ok; src = src->next_variation) {
        *link = copy_line(g, src, false, parent, ok);
        if (*link)
            link = &(*link)->next_variation;
    }
    return head;
}

// Copies the line from src on; its variations recursively (as deep as they
// nest, never as long as a line). main: the nodes are the main line's.
static PgnNode *copy_line(PgnGame *g, const PgnNode *src, bool main, PgnNode *parent, bool *ok) {
    PgnNode *head = NULL, **link = &head;
    for (; src && *ok; src = src->next) {
        PgnNode *n = new_node(g);
        if (!n || (main && !push_main(g, n))) {
            *ok = false;
            break;
        }
        *n = *src;
        n->next = n->variation = n->next_variation = NULL;
        n->parent = parent;
        *ok = copy_text(g, &n->pre, src->pre) && copy_text(g, &n->comment, src->comment) &&
              copy_text(g, &n->trail, src->trail);
        if (*ok && src->variation)
            n->variation = copy_alternatives(g, src->variation, parent, ok);
        *link = n;
        link = &n->next;
        parent = n;
    }
    return head;
}

PgnGame *pgn_game_clone(const PgnGame *g) {
    PgnGame *c = pgn_game_new();
    if (!c)
        return NULL;
    bool ok = true;
    for (int i = 0; ok && i < g->ntags; i++)
        ok = pgn_set_tag(c, g->tags[i].name, g->tags[i].value);
    ok = ok && copy_text(c, &c->lead, g->lead);
    if (ok)
        c->first = copy_line(c, g->first, true, NULL, &ok);
    if (!ok) {
        pgn_game_free(c);
        return NULL;
    }
    memcpy(c->result, g->result, sizeof c->result);
    memcpy(c->start_fen, g->start_fen, sizeof c->start_fen);
    *c->tail = *g->tail;
    c->source = g->source;
    c->edits = g->edits;
    return c;
}

// ===========================================================================
// Builder (src/pgn/tree.h)

PgnNode *pgn_tree_node(PgnGame *g) {
    return new_node(g);
}

const char *pgn_tree_text(PgnGame *g, const char *s, size_t n) {
    return arena_strndup(&g->arena, s, n);
}

const char *pgn_tree_join(PgnGame *g, const char *a, const char *b) {
    return arena_join(&g->arena, a, b);
}

bool pgn_tree_push_main(PgnGame *g, PgnNode *n) {
    if (!push_main(g, n))
        return false;
    if (g->main_len == 1)
        g->first = n;
    return true;
}

void pgn_tree_set_start(PgnGame *g, const Board *start) {
    board_to_fen(start, g->start_fen, sizeof g->start_fen);
}

void pgn_tree_finish(PgnGame *g, const char *lead, const char *result, const Board *tail) {
    if (lead)
        g->lead = lead;
    snprintf(g->result, sizeof g->result, "%s", result);
    *g->tail = *tail;
}
