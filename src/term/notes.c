// SPDX-License-Identifier: GPL-3.0-or-later
// The move tree and comment pane of the terminal game (see notes.h).
#include "src/term/notes.h"

#include <stdlib.h>
#include <string.h>

#include "ui/screen.h"

enum { KEY_CTRL_O = 15 };

void notes_free(Notes *n) {
    free(n->aside);
    free(n->items);
    memset(n, 0, sizeof *n);
}

bool notes_set_aside(Notes *n, const char *text) {
    char *copy = strdup(text);
    if (!copy)
        return false;
    free(n->aside);
    n->aside = copy;
    n->scroll = 0;
    return true;
}

void notes_clear_aside(Notes *n) {
    free(n->aside);
    n->aside = NULL;
}

// The session's tree as the view's items (the same fields, in ui/ terms).
static void fill_tree(Notes *n, Session *s, UiView *v) {
    const SessionTreeItem *src;
    int count = session_move_tree(s, &src);
    if (count > n->cap) {
        UiTreeItem *items = realloc(n->items, (size_t)count * sizeof *items);
        if (!items)
            count = 0; // no tree this time: the flat list is drawn
        else {
            n->items = items;
            n->cap = count;
        }
    }
    static const UiTreeKind kinds[] = { [TREE_MOVE] = UI_TREE_MOVE,
                                        [TREE_OPEN] = UI_TREE_OPEN,
                                        [TREE_CLOSE] = UI_TREE_CLOSE,
                                        [TREE_RESULT] = UI_TREE_RESULT };
    for (int i = 0; i < count; i++) {
        UiTreeItem *d = &n->items[i];
        memset(d, 0, sizeof *d);
        d->kind = kinds[src[i].kind];
        d->san = src[i].san;
        d->fullmove = src[i].fullmove;
        d->side = src[i].side;
        for (int k = 0; k < src[i].nag_count && k < UI_TREE_NAGS; k++)
            d->nags[d->nag_count++] = src[i].nags[k];
        d->comment = src[i].comment;
        d->current = src[i].current;
    }
    v->tree = count > 0 ? n->items : NULL;
    v->tree_count = count;
}

static void fill_comments(Notes *n, Session *s, UiView *v) {
    session_comments(s, &v->comment_before, &v->comment_after);
    if (n->aside) { // in place of the position's own, with the pane open
        v->comment_before = n->aside;
        v->comment_after = NULL;
    }
    if (v->comment_before != n->shown_before || v->comment_after != n->shown_after)
        n->scroll = 0; // another move: its comment from the top
    n->shown_before = v->comment_before;
    n->shown_after = v->comment_after;
    v->comment_open = (n->open || n->aside) && (v->comment_before || v->comment_after);
    int total, shown;
    ui_view_comment_rows(v, &total, &shown);
    if (n->scroll > total - shown)
        n->scroll = total - shown > 0 ? total - shown : 0;
    v->comment_scroll = n->scroll;
}

void notes_view(Notes *n, Session *s, UiView *v) {
    fill_tree(n, s, v);
    fill_comments(n, s, v);
    n->last = *v;
}

bool notes_key(Notes *n, Session *s, int key, bool line_empty) {
    if (key == KEY_CTRL_O) {
        n->open = !n->open;
        n->scroll = 0;
        return true;
    }
    int dx, dy;
    if (!n->open || !line_empty || session_asking(s) || !ui_screen_arrow(key, &dx, &dy) || !dy)
        return false;
    n->scroll += dy;
    if (n->scroll < 0)
        n->scroll = 0; // the end is kept by the next notes_view
    return true;
}

NotesClick notes_click(Notes *n, Session *s, int64_t now) {
    int y, x;
    ui_screen_mouse_cell(&y, &x);
    UiView v = n->last;
    fill_tree(n, s, &v); // the session may have changed since the last redraw
    session_comments(s, &v.comment_before, &v.comment_after);
    int item = ui_view_move_at(&v, y, x);
    if (item < 0 || !v.tree)
        return NOTES_OFF;
    return session_goto_tree_item(s, item, now) ? NOTES_MOVED : NOTES_REFUSED;
}
