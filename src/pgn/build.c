// SPDX-License-Identifier: GPL-3.0-or-later
// The tree builder (build.h): each event of the reader becomes part of the
// game's tree, in the game's own arena (src/pgn/tree.h).
#include "src/pgn/build.h"

#include <stdio.h>
#include <string.h>

#include "engine/notation.h"
#include "src/pgn/lex.h"
#include "src/pgn/tree.h"

static const char *const OUT_OF_MEMORY = "out of memory";

static PgnBuildLine *line_of(PgnBuilder *b) {
    return &b->lines[b->depth];
}

static const char *on_tag(void *ctx, const char *name, const char *value) {
    PgnBuilder *b = ctx;
    return pgn_set_tag(b->game, name, value)
               ? NULL
               : "the tag cannot be stored (bad name or out of memory)";
}

static void on_start(void *ctx, const Board *start) {
    PgnBuilder *b = ctx;
    pgn_tree_set_start(b->game, start);
}

static const char *on_move(void *ctx, const Board *before, Move m, int depth, int ply) {
    PgnBuilder *b = ctx;
    (void)depth; // the builder follows the variations itself
    PgnGame *g = b->game;
    PgnBuildLine *l = line_of(b);
    PgnNode *node = pgn_tree_node(g);
    if (!node)
        return OUT_OF_MEMORY;
    node->move = m;
    node->ply = ply;
    notation_to_san(before, m, node->san);
    node->pre = l->pending;
    l->pending = NULL;
    node->parent = l->last ? l->last : b->depth > 0 ? l->parent->parent : NULL;
    if (l->last) {
        l->last->next = node;
    } else if (b->depth > 0) {
        // A new alternative goes after the ones already there.
        PgnNode **slot = &l->parent->variation;
        while (*slot)
            slot = &(*slot)->next_variation;
        *slot = node;
    }
    if (b->depth == 0 && !pgn_tree_push_main(g, node))
        return OUT_OF_MEMORY;
    l->last = node;
    l->var_since_last = false;
    return NULL;
}

static const char *on_nag(void *ctx, int nag) {
    PgnBuilder *b = ctx;
    PgnNode *n = line_of(b)->last; // the reader refuses a NAG before any move
    if (n->nag_count >= PGN_MAX_NAGS) {
        snprintf(b->why, sizeof b->why, "more than %d annotations on one move", PGN_MAX_NAGS);
        return b->why;
    }
    n->nags[n->nag_count++] = (unsigned char)nag;
    return NULL;
}

// A comment goes to the move before it, or waits for the next move.
static const char *on_comment(void *ctx, char *text, size_t len) {
    PgnBuilder *b = ctx;
    PgnGame *g = b->game;
    PgnBuildLine *l = line_of(b);
    while (len > 0 && text[len - 1] == ' ')
        text[--len] = '\0';
    if (l->last && !l->var_since_last) {
        PgnNode *n = l->last;
        bool had_text = len > 0;
        if (n->clock_ms < 0)
            pgn_lex_take_clock(text, &n->clock_ms);
        len = strlen(text);
        if (had_text && len == 0 && n->clock_ms >= 0)
            return NULL; // the comment only carried the clock
        const char *t = pgn_tree_text(g, text, len);
        if (!t || !(n->comment = pgn_tree_join(g, n->comment, t)))
            return OUT_OF_MEMORY;
        return NULL;
    }
    const char *t = pgn_tree_text(g, text, len);
    if (!t || !(l->pending = pgn_tree_join(g, l->pending, t)))
        return OUT_OF_MEMORY;
    return NULL;
}

static void on_variation(void *ctx, bool open) {
    PgnBuilder *b = ctx;
    PgnBuildLine *l = line_of(b);
    if (open) { // the reader keeps the depth within PGN_MAX_DEPTH
        PgnBuildLine *v = &b->lines[b->depth + 1];
        v->parent = l->last;
        v->last = NULL;
        v->var_since_last = false;
        // A comment between two variations goes before the second one's
        // first move.
        v->pending = l->pending;
        l->pending = NULL;
        b->depth++;
        return;
    }
    if (l->pending) // the reader refuses an empty variation: it has a last move
        l->last->trail = pgn_tree_join(b->game, l->last->trail, l->pending);
    b->depth--;
    line_of(b)->var_since_last = true;
}

static void on_end(void *ctx, const char *result, const Board *final) {
    PgnBuilder *b = ctx;
    PgnBuildLine *l = &b->lines[0];
    const char *lead = NULL;
    if (l->pending) {
        if (l->last)
            l->last->trail = pgn_tree_join(b->game, l->last->trail, l->pending);
        else
            lead = l->pending;
    }
    pgn_tree_finish(b->game, lead, result, final);
}

void pgn_builder_init(PgnBuilder *b, PgnGame *g, PgnVisitor *v) {
    b->game = g;
    b->depth = 0;
    b->lines[0] = (PgnBuildLine){ 0 };
    b->why[0] = '\0';
    *v = (PgnVisitor){ .tag = on_tag,
                       .start = on_start,
                       .move = on_move,
                       .nag = on_nag,
                       .comment = on_comment,
                       .variation = on_variation,
                       .end = on_end,
                       .ctx = b };
}
