// SPDX-License-Identifier: GPL-3.0-or-later
// Annotations of the game shown: the move tree the panel lists (with
// variations, NAGs, comment markers and the result), the comments around the
// current move, the comment and nag commands and NAGs typed after a move. A
// browsed game keeps them in its PGN tree, the live game in its record (so
// save, the autosave and the archive write them).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/session/session_int.h"

// ------------------------------------------------------------ the tree

typedef struct TreeBuild {
    Session *s;
    int count;
    bool ok;
} TreeBuild;

static SessionTreeItem *tree_push(TreeBuild *b, SessionTreeKind kind, const PgnNode *node) {
    Session *s = b->s;
    if (!b->ok)
        return NULL;
    if (b->count == s->tree_cap) {
        int cap = s->tree_cap ? s->tree_cap * 2 : 256;
        SessionTreeItem *items = realloc(s->tree, (size_t)cap * sizeof *items);
        if (items)
            s->tree = items;
        const PgnNode **nodes = realloc(s->tree_nodes, (size_t)cap * sizeof *nodes);
        if (nodes)
            s->tree_nodes = nodes;
        if (!items || !nodes) {
            b->ok = false;
            return NULL;
        }
        s->tree_cap = cap;
    }
    SessionTreeItem *it = &s->tree[b->count];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    s->tree_nodes[b->count++] = node;
    return it;
}

static void move_number(int start_fullmove, Color start_side, int ply, SessionTreeItem *it) {
    int t = (int)start_side + ply;
    it->fullmove = start_fullmove + t / 2;
    it->side = (Color)(t % 2);
}

// A line of a browsed game from n: each move, then its alternatives.
static void tree_line(TreeBuild *b, const PgnNode *n, const PgnNode *current, int depth,
                      int fullmove, Color side) {
    for (; n && b->ok; n = n->next) {
        SessionTreeItem *it = tree_push(b, TREE_MOVE, n);
        if (!it)
            return;
        it->san = n->san;
        move_number(fullmove, side, n->ply, it);
        for (int i = 0; i < n->nag_count && it->nag_count < SESSION_TREE_NAGS; i++)
            it->nags[it->nag_count++] = n->nags[i];
        it->comment = n->comment || n->pre || n->trail;
        it->current = n == current;
        if (depth >= PGN_MAX_DEPTH)
            continue; // deeper than any game read: the variations are not listed
        for (const PgnNode *v = n->variation; v && b->ok; v = v->next_variation) {
            tree_push(b, TREE_OPEN, NULL);
            tree_line(b, v, current, depth + 1, fullmove, side);
            tree_push(b, TREE_CLOSE, NULL);
        }
    }
}

static void browse_tree(TreeBuild *b, const PgnCursor *r) {
    PgnGame *g = pgn_cursor_game(r);
    int fullmove;
    Color side;
    pgn_cursor_move_number(r, 0, &fullmove, &side); // a node's ply counts from the game's start
    const PgnNode *first = pgn_first(g);
    int cursor = pgn_cursor_ply(r);
    tree_line(b, first, cursor > 0 ? pgn_cursor_line_node(r, cursor - 1) : NULL, 0, fullmove, side);
    const char *result = pgn_result(g);
    SessionTreeItem *it = strcmp(result, "*") ? tree_push(b, TREE_RESULT, NULL) : NULL;
    if (it)
        it->san = result;
}

static void game_tree(TreeBuild *b, const Game *g) {
    int n = game_ply_count(g), shown = session_shown_ply(b->s);
    for (int i = 0; i < n; i++) {
        const PgnNode *node = game_node(g, i); // the game's document holds the annotations
        SessionTreeItem *it = tree_push(b, TREE_MOVE, NULL);
        if (!it)
            return;
        it->san = node->san;
        move_number(game_start_fullmove(g), game_start_side(g), i, it);
        for (int k = 0; k < node->nag_count && it->nag_count < SESSION_TREE_NAGS; k++)
            it->nags[it->nag_count++] = node->nags[k];
        it->comment = node->comment != NULL;
        it->current = i == shown - 1;
    }
    SessionTreeItem *it = game_is_over(g) ? tree_push(b, TREE_RESULT, NULL) : NULL;
    if (it)
        it->san = game_result_text(g); // also after a resignation or a lost flag
}

int session_move_tree(Session *s, const SessionTreeItem **items) {
    TreeBuild b = { .s = s, .ok = true };
    const ModeOps *ops = session_ops(s);
    const PgnCursor *cursor = session_cursor(s);
    if (cursor)
        browse_tree(&b, cursor);
    else if (!ops->hides_moves)
        game_tree(&b, session_game(s));
    *items = s->tree;
    return b.ok ? b.count : 0;
}

bool session_goto_tree_item(Session *s, int index, int64_t now) {
    session_settle(s); // what was said before this click is stamped before it
    (void)now;
    const ModeOps *ops = session_ops(s);
    PgnCursor *cursor = session_cursor(s);
    if (!cursor && !ops->view_ply) {
        session_say(s, MSG_ERROR, "Clicking a move goes to it in your game or a game you browse.");
        return false;
    }
    const SessionTreeItem *items;
    int n = session_move_tree(s, &items);
    if (index < 0 || index >= n || items[index].kind != TREE_MOVE)
        return false;
    if (cursor) {
        if (!pgn_cursor_goto_node(cursor, s->tree_nodes[index]))
            return false;
        ops->refresh(s);
        return true;
    }
    int ply = 0; // the live game's tree is its moves in order
    for (int i = 0; i <= index; i++)
        ply += items[i].kind == TREE_MOVE;
    return ops->view_ply(s, ply);
}

// ------------------------------------------------------------ comments

// "a b" for a comment and the line's closing comment after it.
static const char *joined(Session *s, const char *a, const char *b) {
    if (!a || !b)
        return a ? a : b;
    size_t la = strlen(a), lb = strlen(b);
    char *text = realloc(s->comment_text, la + lb + 2);
    if (!text)
        return a;
    s->comment_text = text;
    memcpy(text, a, la);
    text[la] = ' ';
    memcpy(text + la + 1, b, lb + 1);
    return text;
}

void session_comments(Session *s, const char **before, const char **after) {
    *before = *after = NULL;
    const ModeOps *ops = session_ops(s);
    const PgnCursor *r = session_cursor(s);
    if (r) {
        PgnGame *g = pgn_cursor_game(r);
        int cursor = pgn_cursor_ply(r);
        if (cursor == 0) {
            const PgnNode *first = pgn_first(g);
            *before = first ? first->pre : pgn_lead_comment(g);
            return;
        }
        const PgnNode *n = pgn_cursor_line_node(r, cursor - 1);
        *before = n->pre;
        *after = joined(s, n->comment, n->trail);
        return;
    }
    if (ops->hides_moves)
        return;
    const Game *g = session_game(s);
    int n = session_shown_ply(s);
    if (n > 0)
        *after = game_node(g, n - 1)->comment;
}

// ------------------------------------------------------------ commands

static const char *nag_name(int nag, char *buf, size_t bufsz) {
    static const char *const symbols[] = { "!", "?", "!!", "??", "!?", "?!" };
    if (nag >= 1 && nag <= 6)
        snprintf(buf, bufsz, "%s", symbols[nag - 1]);
    else
        snprintf(buf, bufsz, "$%d", nag);
    return buf;
}

// The current move of the game shown as "12... Nf6", for messages.
static void current_move_text(Session *s, char *buf, size_t bufsz) {
    buf[0] = '\0';
    const PgnCursor *r = session_cursor(s);
    if (r) {
        int cursor = pgn_cursor_ply(r);
        if (cursor > 0) {
            int number;
            Color side;
            pgn_cursor_move_number(r, cursor - 1, &number, &side);
            snprintf(buf, bufsz, "%d.%s %s", number, side == BLACK ? ".." : "",
                     pgn_cursor_line_node(r, cursor - 1)->san);
        }
        return;
    }
    session_last_move_text(s->live, session_shown_ply(s), buf, bufsz);
}

// Sets the comment (text, or NULL to remove it) or the NAG (nag >= 0) of
// the current move; false after saying why.
static bool annotate(Session *s, const char *text, int nag, int64_t now) {
    bool ok;
    const ModeOps *ops = session_ops(s);
    PgnCursor *r = session_cursor(s);
    if (r) {
        PgnGame *g = pgn_cursor_game(r);
        int cursor = pgn_cursor_ply(r);
        const PgnNode *n = cursor > 0 ? pgn_cursor_line_node(r, cursor - 1) : NULL;
        if (!n && nag >= 0) {
            session_say(s, MSG_ERROR, "No move to mark at the start of the game.");
            return false;
        }
        ok = nag >= 0 ? pgn_node_set_nag(g, n, nag)
             : n      ? pgn_node_set_comment(g, n, text)
                      : pgn_set_lead_comment(g, text);
        if (ok)
            ops->refresh(s); // the board's game carries the annotations too
    } else {
        int ply = session_shown_ply(s) - 1; // the move looked at, else the last
        if (ply < 0) {
            session_say(s, MSG_ERROR, "No move yet to %s.", nag >= 0 ? "mark" : "comment on");
            return false;
        }
        ok = nag >= 0 ? game_set_nag(s->live, ply, nag) : game_set_comment(s->live, ply, text);
        if (ok)
            session_live_changed(s, now); // kept in the autosave at once
    }
    if (!ok) {
        session_say(s, MSG_ERROR,
                    nag >= 0 ? "Cannot add the NAG: the move has too many."
                             : "Out of memory keeping the comment.");
        return false;
    }
    session_changed(s);
    return true;
}

void annotate_command(Session *s, const Command *cmd, int64_t now) {
    char move[64], name[8];
    if (cmd->kind == CMD_NAG) {
        if (!annotate(s, NULL, cmd->nag, now))
            return;
        current_move_text(s, move, sizeof move);
        if (cmd->nag)
            session_say(s, MSG_INFO, "%s marked %s.", move, nag_name(cmd->nag, name, sizeof name));
        else
            session_say(s, MSG_INFO, "%s: marks cleared.", move);
        return;
    }
    const char *text = cmd->text[0] ? cmd->text : NULL;
    if (!annotate(s, text, -1, now))
        return;
    current_move_text(s, move, sizeof move);
    const char *what = move[0] ? move : "the game";
    session_say(s, MSG_INFO, text ? "Comment on %s kept." : "Comment on %s removed.", what);
}

void annotate_mark(const Session *s, AnnotateMark *m) {
    m->plies = game_ply_count(s->live);
    m->node = NULL;
    const PgnCursor *r = session_cursor(s);
    if (r) {
        int cursor = pgn_cursor_ply(r);
        m->node = cursor > 0 ? pgn_cursor_line_node(r, cursor - 1) : NULL;
    }
}

void annotate_after_move(Session *s, const AnnotateMark *before, int nag, int64_t now) {
    if (!nag)
        return;
    AnnotateMark after;
    annotate_mark(s, &after);
    const ModeOps *ops = session_ops(s);
    PgnCursor *r = session_cursor(s);
    bool moved = r                 ? after.node && after.node != before->node
                 : ops->shows_live ? after.plies == before->plies + 1
                                   : false;
    if (!moved)
        return; // not played (an error said why), or queued as a premove
    if (r && !pgn_node_set_nag(pgn_cursor_game(r), after.node, nag))
        return;
    if (ops->shows_live) {
        if (!game_set_nag(s->live, before->plies, nag))
            return;
        session_live_changed(s, now);
    }
    // No session_changed: the move itself has just said so.
}

void annotate_free(Session *s) {
    free(s->tree);
    free(s->tree_nodes);
    free(s->comment_text);
    s->tree = NULL;
    s->tree_nodes = NULL;
    s->comment_text = NULL;
    s->tree_cap = 0;
}
