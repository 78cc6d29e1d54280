// SPDX-License-Identifier: GPL-3.0-or-later
// The line shown through a game document and the position in it.
#include "src/pgn/cursor.h"

#include <stdlib.h>
#include <string.h>

struct PgnCursor {
    PgnGame *game;
    const PgnNode *line[PGN_LINE_MAX];
    int length, ply;
    int start_fullmove; // the numbering of the game's first move
    Color start_side;
};

// The move that continues the line after its first `ply` moves: the game's
// first move, or the next move of the node before.
static const PgnNode *continuation(const PgnCursor *c, int ply) {
    return ply == 0 ? pgn_first(c->game) : c->line[ply - 1]->next;
}

// Keeps line[0..keep) and follows the continuations from there to the end.
static void extend(PgnCursor *c, int keep) {
    c->length = keep;
    for (const PgnNode *n = continuation(c, keep); n && c->length < PGN_LINE_MAX; n = n->next)
        c->line[c->length++] = n;
    if (c->ply > c->length)
        c->ply = c->length;
}

PgnCursor *pgn_cursor_new(PgnGame *g) {
    PgnCursor *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->game = g;
    c->start_fullmove = 1;
    c->start_side = WHITE;
    Board b;
    if (board_set_fen(&b, pgn_start_fen(g), NULL, 0)) {
        c->start_fullmove = b.fullmove;
        c->start_side = b.side;
    }
    extend(c, 0);
    c->ply = c->length;
    return c;
}

void pgn_cursor_free(PgnCursor *c) {
    free(c);
}

PgnGame *pgn_cursor_game(const PgnCursor *c) { return c->game; }
int pgn_cursor_length(const PgnCursor *c) { return c->length; }
int pgn_cursor_ply(const PgnCursor *c) { return c->ply; }

const PgnNode *pgn_cursor_line_node(const PgnCursor *c, int ply) {
    return ply >= 0 && ply < c->length ? c->line[ply] : NULL;
}

bool pgn_cursor_set_ply(PgnCursor *c, int ply) {
    if (ply < 0 || ply > c->length)
        return false;
    c->ply = ply;
    return true;
}

void pgn_cursor_move_number(const PgnCursor *c, int ply, int *fullmove, Color *side) {
    int t = (int)c->start_side + ply;
    *fullmove = c->start_fullmove + t / 2;
    *side = (Color)(t % 2);
}

int pgn_cursor_variation_count(const PgnCursor *c) {
    if (c->ply >= c->length)
        return 0;
    int n = 0;
    for (const PgnNode *v = c->line[c->ply]->variation; v; v = v->next_variation)
        n++;
    return n;
}

bool pgn_cursor_enter_variation(PgnCursor *c, int n) {
    if (c->ply >= c->length || n < 1)
        return false;
    const PgnNode *v = c->line[c->ply]->variation;
    for (int i = 1; v && i < n; i++)
        v = v->next_variation;
    if (!v)
        return false;
    c->line[c->ply] = v;
    extend(c, c->ply + 1);
    c->ply++;
    return true;
}

bool pgn_cursor_leave_variation(PgnCursor *c) {
    // The deepest ply of the line that is not the plain continuation of the
    // ply before it is where the current variation starts.
    for (int ply = (c->ply < c->length ? c->ply : c->length - 1); ply >= 0; ply--) {
        const PgnNode *main = continuation(c, ply);
        if (ply < c->length && c->line[ply] != main) {
            c->line[ply] = main;
            extend(c, ply + 1);
            c->ply = ply;
            return true;
        }
    }
    return false;
}

int pgn_cursor_segment_start(const PgnCursor *c) {
    for (int ply = c->ply; ply > 0; ply--)
        if (c->line[ply - 1]->move == MOVE_NULL)
            return ply;
    return 0;
}

bool pgn_cursor_position(const PgnCursor *c, int ply, Board *out) {
    const char *fen = pgn_start_fen(c->game);
    if (ply < 0 || ply > c->length || !board_set_fen(out, fen ? fen : BOARD_START_FEN, NULL, 0))
        return false;
    for (int i = 0; i < ply; i++)
        pgn_node_play(out, c->line[i]);
    return true;
}

bool pgn_cursor_follow(PgnCursor *c, const Move *moves, int n) {
    int base = pgn_cursor_segment_start(c);
    Board board, *b = &board;
    if (!pgn_cursor_position(c, base, b))
        return false;
    const PgnNode *after = base > 0 ? c->line[base - 1] : NULL;
    int end = base;
    for (int i = 0; i < n && end < PGN_LINE_MAX; i++) {
        const PgnNode *node = pgn_add_move_after(c->game, after, moves[i], b);
        if (!node)
            return false;
        c->line[end++] = node;
        after = node;
        board_play(b, moves[i]);
    }
    extend(c, end);
    c->ply = end;
    return true;
}

// Whether n is the move `move` or one of its alternatives, nested ones
// included ("2. g4 (2. e4 (2. Kf2))": Kf2 replaces g4 too).
static bool is_or_replaces(const PgnNode *move, const PgnNode *n) {
    if (move == n)
        return true;
    for (const PgnNode *v = move->variation; v; v = v->next_variation)
        if (is_or_replaces(v, n))
            return true;
    return false;
}

bool pgn_cursor_goto_node(PgnCursor *c, const PgnNode *n) {
    // The path from the start to n, by its parents, checked link by link
    // against the tree so that a node of another game is refused.
    const PgnNode *path[PGN_LINE_MAX];
    int len = 0;
    for (const PgnNode *p = n; p; p = p->parent) {
        if (len == PGN_LINE_MAX)
            return false;
        path[len++] = p;
    }
    if (len == 0)
        return false;
    const PgnNode *expected = pgn_first(c->game);
    for (int i = len - 1; i >= 0; i--) {
        if (!expected || !is_or_replaces(expected, path[i]))
            return false;
        c->line[len - 1 - i] = path[i];
        expected = path[i]->next;
    }
    extend(c, len);
    c->ply = len;
    return true;
}
