// SPDX-License-Identifier: GPL-3.0-or-later
// The move tree's layout and the wrapping of comments (see movetree.h).
#include "ui/movetree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/view.h"

enum { MIN_ROOM = 12 }; // indentation stops where fewer columns would be left

const char *ui_nag_symbol(int nag) {
    static const char *const symbols[] = { NULL, "!", "?", "!!", "??", "!?", "?!" };
    return nag >= 1 && nag <= 6 ? symbols[nag] : NULL;
}

// Where the next token goes: the row and column, the indentation of the
// line being laid out, and whether it sticks to the token before it.
typedef struct Cursor {
    int row, col, indent;
    bool glue;      // no blank before the next token ("(" and ")")
    bool row_start; // nothing on this row yet
    bool resume;    // a variation closed: the line goes on in a new row
    int width;
} Cursor;

static bool push(UiTreeLayout *l, UiTokenKind kind, const char *text, int item, int depth,
                 bool current, int nag, const Cursor *c) {
    if (l->count == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        UiTreeToken *t = realloc(l->tokens, (size_t)cap * sizeof *t);
        if (!t)
            return false;
        l->tokens = t;
        l->cap = cap;
    }
    UiTreeToken *t = &l->tokens[l->count++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    ui_text_copy(t->text, sizeof t->text, text);
    t->width = draw_width(t->text);
    t->row = c->row;
    t->col = c->col;
    t->item = item;
    t->depth = depth;
    t->current = current;
    t->nag = nag;
    return true;
}

static void new_row(Cursor *c) {
    if (!c->row_start)
        c->row++;
    c->col = c->indent;
    c->row_start = true;
    c->glue = false;
}

// Makes room for a group of tokens `cols` wide: a blank before it unless
// glued, a new row when it does not fit (unless the row is empty anyway).
static void reserve(Cursor *c, int cols) {
    int gap = c->row_start || c->glue ? 0 : 1;
    if (!c->row_start && c->col + gap + cols > c->width)
        new_row(c);
    else
        c->col += gap;
}

static bool place(UiTreeLayout *l, Cursor *c, UiTokenKind kind, const char *text, int item,
                  int depth, bool current, int nag) {
    if (!push(l, kind, text, item, depth, current, nag, c))
        return false;
    c->col += l->tokens[l->count - 1].width;
    c->row_start = false;
    c->glue = false;
    return true;
}

static int indent_for(int depth, int width) {
    int indent = depth * UI_TREE_INDENT;
    int most = width - MIN_ROOM;
    return indent < most ? indent : most > 0 ? most : 0;
}

// One move with its number (when due), symbol, other NAGs and marker; they
// stay on one row as far as the width allows.
static bool place_move(UiTreeLayout *l, Cursor *c, const UiTreeItem *it, int index, int depth,
                       bool numbered, bool unicode) {
    char number[16] = "", move[UI_TOKEN_TEXT], nags[UI_TREE_NAGS][8];
    if (numbered || it->side == WHITE)
        snprintf(number, sizeof number, it->side == WHITE ? "%d." : "%d...", it->fullmove);
    int assessment = 0, others = 0;
    for (int i = 0; i < it->nag_count && i < UI_TREE_NAGS; i++) {
        if (!assessment && ui_nag_symbol(it->nags[i]))
            assessment = it->nags[i];
        else
            snprintf(nags[others++], sizeof nags[0], "$%d", it->nags[i]);
    }
    snprintf(move, sizeof move, "%s%s", it->san ? it->san : "?",
             assessment ? ui_nag_symbol(assessment) : "");
    const char *marker = unicode ? "\u00B6" : "{}";
    int cols = draw_width(move) + (number[0] ? draw_width(number) + 1 : 0) +
               (it->comment ? draw_width(marker) : 0);
    for (int i = 0; i < others; i++)
        cols += 1 + draw_width(nags[i]);
    reserve(c, cols);
    bool ok = true;
    if (number[0]) {
        ok = place(l, c, UI_TOK_NUMBER, number, index, depth, it->current, 0);
        c->col++;
    }
    ok = ok && place(l, c, UI_TOK_MOVE, move, index, depth, it->current, assessment);
    for (int i = 0; ok && i < others; i++) {
        c->col++;
        ok = place(l, c, UI_TOK_NAG, nags[i], index, depth, false, 0);
    }
    if (ok && it->comment)
        ok = place(l, c, UI_TOK_COMMENT, marker, index, depth, false, 0);
    return ok;
}

bool ui_tree_layout(UiTreeLayout *out, const UiTreeItem *items, int n, int width, bool unicode) {
    out->count = 0;
    out->rows = 0;
    out->current_row = -1;
    Cursor c = { .width = width > 1 ? width : 1, .row_start = true };
    int depth = 0;
    bool numbered = true; // the next move shows its number even for Black
    for (int i = 0; i < n; i++) {
        const UiTreeItem *it = &items[i];
        bool ok = true;
        switch (it->kind) {
        case UI_TREE_OPEN:
            depth++;
            c.indent = indent_for(depth, c.width);
            c.resume = false;
            new_row(&c);
            ok = place(out, &c, UI_TOK_PAREN, "(", -1, depth, false, 0);
            c.glue = true;
            numbered = true;
            break;
        case UI_TREE_CLOSE: // "(2... d5))": closes stick together
            c.glue = true;
            reserve(&c, 1);
            ok = place(out, &c, UI_TOK_PAREN, ")", -1, depth, false, 0);
            depth = depth > 0 ? depth - 1 : 0;
            c.indent = indent_for(depth, c.width);
            c.resume = true;
            numbered = true;
            break;
        case UI_TREE_MOVE:
            if (c.resume)
                new_row(&c); // the line goes on under its variations
            c.resume = false;
            ok = place_move(out, &c, it, i, depth, numbered, unicode);
            numbered = false;
            if (ok && it->current)
                out->current_row = out->tokens[out->count - 1].row;
            break;
        case UI_TREE_RESULT: {
            const char *r = it->san ? it->san : "*";
            if (unicode && !strcmp(r, "1/2-1/2"))
                r = "\u00BD-\u00BD";
            if (c.resume)
                new_row(&c);
            c.resume = false;
            reserve(&c, draw_width(r));
            ok = place(out, &c, UI_TOK_RESULT, r, i, 0, false, 0);
            break;
        }
        }
        if (!ok) {
            out->count = 0;
            out->current_row = -1;
            return false;
        }
    }
    out->rows = out->count ? out->tokens[out->count - 1].row + 1 : 0;
    return true;
}

void ui_tree_free(UiTreeLayout *l) {
    free(l->tokens);
    memset(l, 0, sizeof *l);
}

int ui_tree_first_row(const UiTreeLayout *l, int rows) {
    if (rows <= 0 || l->rows <= rows)
        return 0;
    int cur = l->current_row < 0 ? 0 : l->current_row;
    int first = cur - rows + 2; // a row of context under the current move
    if (first > l->rows - rows)
        first = l->rows - rows;
    return first < 0 ? 0 : first;
}

int ui_tree_hit(const UiTreeLayout *l, int row, int col) {
    for (int i = 0; i < l->count; i++) {
        const UiTreeToken *t = &l->tokens[i];
        if (t->row == row && col >= t->col && col < t->col + t->width)
            return t->item;
    }
    return -1;
}

int ui_wrap(const char *text, int width, UiWrapRow *out, int max) {
    if (width < 1)
        width = 1;
    int rows = 0;
    const char *p = text ? text : "";
    while (*p == ' ')
        p++;
    while (*p) {
        // The longest run of whole words that fits, else as much of the word.
        size_t fit = ui_text_fit(p, width), len = strlen(p);
        size_t cut = fit;
        if (fit < len) {
            size_t space = fit;
            while (space > 0 && p[space] != ' ')
                space--;
            if (space > 0)
                cut = space;
            if (cut == 0) { // not even one character fits: take one anyway
                wchar_t ch;
                cut = (size_t)draw_decode(p, &ch);
            }
        }
        size_t shown = cut;
        while (shown > 0 && p[shown - 1] == ' ')
            shown--;
        if (rows < max)
            out[rows] = (UiWrapRow){ (int)(p - text), (int)shown };
        rows++;
        p += cut;
        while (*p == ' ')
            p++;
    }
    return rows;
}
