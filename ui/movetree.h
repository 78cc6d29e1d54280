// SPDX-License-Identifier: GPL-3.0-or-later
// The move tree of the side panel as a pure layout: from the moves of a game
// in PGN order (variations opened and closed around their moves) to tokens
// with a row and a column for a given width, the rows to show so the current
// move stays in view, and the item under a cell (clicks). No curses here, so
// all of it is tested headlessly; the panel draws the tokens.
//
// The layout: the main line flows in rows ("1. e4 e5 2. Nf3"); each
// variation starts a row of its own, indented two columns per level and
// parenthesised ("  (2. f4 exf4)"); after the variations the line goes on in
// a new row, a Black move numbered "2...". NAGs $1-$6 follow the move as
// symbols ("e4!?"), others as " $14"; a move with a comment gets a marker;
// the result ends the list.
#ifndef UI_MOVETREE_H
#define UI_MOVETREE_H

#include <stdbool.h>

#include "engine/types.h"

enum { UI_TREE_NAGS = 4, UI_TOKEN_TEXT = 24, UI_TREE_INDENT = 2 };

typedef enum {
    UI_TREE_MOVE,   // a move (san, fullmove, side, nags, comment, current)
    UI_TREE_OPEN,   // a variation begins (the moves up to its CLOSE)
    UI_TREE_CLOSE,  // the variation ends
    UI_TREE_RESULT, // san holds the result: "1-0", "0-1", "1/2-1/2"
} UiTreeKind;

typedef struct UiTreeItem {
    UiTreeKind kind;
    const char *san;
    int fullmove;
    Color side;
    unsigned char nags[UI_TREE_NAGS];
    int nag_count;
    bool comment; // the move has a comment (before or after it)
    bool current; // the move that led to the position shown
} UiTreeItem;

typedef enum {
    UI_TOK_NUMBER,  // "12." or "12..."
    UI_TOK_MOVE,    // the SAN with its assessment symbol: "Nf3!?"
    UI_TOK_NAG,     // another NAG: "$14"
    UI_TOK_COMMENT, // the comment marker
    UI_TOK_PAREN,   // "(" or ")"
    UI_TOK_RESULT,
} UiTokenKind;

typedef struct UiTreeToken {
    UiTokenKind kind;
    int row, col, width; // width in terminal columns
    int item;            // the item it belongs to (-1 for none: a parenthesis)
    int depth;           // variation level (0: the main line)
    bool current;
    int nag; // the move's assessment (1..6) for its colour, else 0
    char text[UI_TOKEN_TEXT];
} UiTreeToken;

typedef struct UiTreeLayout {
    UiTreeToken *tokens; // owned: ui_tree_free
    int count, cap;
    int rows;        // rows used
    int current_row; // the row of the current move, -1 for none (the start)
} UiTreeLayout;

// Lays items out for width columns (unicode: "½-½" and "¶" rather than
// "1/2-1/2" and "{}"). False when out of memory (the layout is then empty).
// The layout may be laid out again without freeing it first.
bool ui_tree_layout(UiTreeLayout *out, const UiTreeItem *items, int n, int width, bool unicode);
void ui_tree_free(UiTreeLayout *l);
// The first row to show in a window of `rows` rows: the current move in
// view with a row of context under it where there is one.
int ui_tree_first_row(const UiTreeLayout *l, int rows);
// The item under (row, col) of the layout, -1 for none (a parenthesis, a
// blank); a move number or marker counts as its move.
int ui_tree_hit(const UiTreeLayout *l, int row, int col);
// "!", "?", "!!", "??", "!?", "?!" for NAGs 1-6, NULL for others.
const char *ui_nag_symbol(int nag);

// A text wrapped into rows of at most width columns (by display width, at
// spaces; a word wider than a row is cut between characters). Each row is
// text + start, len bytes.
typedef struct UiWrapRow {
    int start, len;
} UiWrapRow;
// Writes up to max rows into out and returns how many rows the whole text
// needs (which may be more than max).
int ui_wrap(const char *text, int width, UiWrapRow *out, int max);

#endif
