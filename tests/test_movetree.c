// SPDX-License-Identifier: GPL-3.0-or-later
// Headless tests of the move tree's layout (ui/movetree.h): rows and columns
// of the tokens for a width, nested variations, NAG symbols, comment markers,
// the result, the scrolling window and the hit-test; and comment wrapping.
#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "ui/movetree.h"

static void setup(void) {
    cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"), "the C.UTF-8 locale is needed");
}

TestSuite(movetree, .init = setup);

static UiTreeItem move(const char *san, int number, Color side) {
    return (UiTreeItem){ .kind = UI_TREE_MOVE, .san = san, .fullmove = number, .side = side };
}
static UiTreeItem open_var(void) {
    return (UiTreeItem){ .kind = UI_TREE_OPEN };
}
static UiTreeItem close_var(void) {
    return (UiTreeItem){ .kind = UI_TREE_CLOSE };
}

// The layout as text: each row with its tokens at their columns.
static void render(const UiTreeLayout *l, char rows[][80], int max) {
    for (int r = 0; r < max; r++) {
        memset(rows[r], ' ', 79);
        rows[r][79] = '\0';
    }
    for (int i = 0; i < l->count; i++) {
        const UiTreeToken *t = &l->tokens[i];
        cr_assert_lt(t->row, max);
        // ASCII tests only: a byte is a column.
        memcpy(rows[t->row] + t->col, t->text, strlen(t->text));
    }
    for (int r = 0; r < max; r++) { // trailing blanks off
        int n = 79;
        while (n > 0 && rows[r][n - 1] == ' ')
            n--;
        rows[r][n] = '\0';
    }
}

// 1. e4 e5 (1... c5 2. Nf3 (2. c3 d5) 2... d6) 2. Nf3! Nc6?? {comment} 1-0
static int sample(UiTreeItem *it) {
    int n = 0;
    it[n++] = move("e4", 1, WHITE);
    it[n++] = move("e5", 1, BLACK);
    it[n++] = open_var();
    it[n++] = move("c5", 1, BLACK);
    it[n++] = move("Nf3", 2, WHITE);
    it[n++] = open_var();
    it[n++] = move("c3", 2, WHITE);
    it[n++] = move("d5", 2, BLACK);
    it[n++] = close_var();
    it[n++] = move("d6", 2, BLACK);
    it[n++] = close_var();
    it[n] = move("Nf3", 2, WHITE);
    it[n].nags[0] = 1;
    it[n++].nag_count = 1;
    it[n] = move("Nc6", 2, BLACK);
    it[n].nags[0] = 4;
    it[n].nags[1] = 14;
    it[n].nag_count = 2;
    it[n].comment = true;
    it[n++].current = true;
    it[n++] = (UiTreeItem){ .kind = UI_TREE_RESULT, .san = "1/2-1/2" };
    return n;
}

Test(movetree, nested_variations_nags_markers_result) {
    UiTreeItem items[32];
    int n = sample(items);
    UiTreeLayout l = { 0 };
    cr_assert(ui_tree_layout(&l, items, n, 40, false));
    char rows[8][80];
    render(&l, rows, 8);
    cr_expect_eq(l.rows, 5, "%d rows", l.rows);
    cr_expect_str_eq(rows[0], "1. e4 e5");
    cr_expect_str_eq(rows[1], "  (1... c5 2. Nf3");
    cr_expect_str_eq(rows[2], "    (2. c3 d5)");
    cr_expect_str_eq(rows[3], "  2... d6)");
    cr_expect_str_eq(rows[4], "2. Nf3! Nc6?? $14{} 1/2-1/2");
    cr_expect_eq(l.current_row, 4);
    // The same in Unicode: a pilcrow marks the comment, the draw is "½-½".
    cr_assert(ui_tree_layout(&l, items, n, 40, true));
    const UiTreeToken *last = &l.tokens[l.count - 1];
    cr_expect_str_eq(last->text, "\u00BD-\u00BD");
    cr_expect_eq(last->width, 3);
    cr_expect_eq(last->kind, UI_TOK_RESULT);
    bool marker = false;
    for (int i = 0; i < l.count; i++)
        if (l.tokens[i].kind == UI_TOK_COMMENT) {
            marker = true;
            cr_expect_str_eq(l.tokens[i].text, "\u00B6");
            cr_expect_eq(l.tokens[i].width, 1);
        }
    cr_expect(marker, "the comment marker is a token");
    ui_tree_free(&l);
}

Test(movetree, nag_symbols) {
    static const char *const expect[] = { NULL, "!", "?", "!!", "??", "!?", "?!" };
    for (int nag = 1; nag <= 6; nag++)
        cr_expect_str_eq(ui_nag_symbol(nag), expect[nag]);
    cr_expect_null(ui_nag_symbol(0));
    cr_expect_null(ui_nag_symbol(7));
    UiTreeItem it[1] = { move("e4", 1, WHITE) };
    it[0].nags[0] = 146; // a NAG without a symbol is written as $n
    it[0].nag_count = 1;
    UiTreeLayout l = { 0 };
    cr_assert(ui_tree_layout(&l, it, 1, 30, true));
    cr_assert_eq(l.count, 3);
    cr_expect_str_eq(l.tokens[1].text, "e4");
    cr_expect_str_eq(l.tokens[2].text, "$146");
    cr_expect_eq(l.tokens[2].kind, UI_TOK_NAG);
    cr_expect_eq(l.tokens[2].col, 6);
    // A review's marks keep their assessment for the colour.
    it[0].nags[0] = 6;
    cr_assert(ui_tree_layout(&l, it, 1, 30, true));
    cr_expect_str_eq(l.tokens[1].text, "e4?!");
    cr_expect_eq(l.tokens[1].nag, 6);
    ui_tree_free(&l);
}

Test(movetree, wraps_keeping_numbers_with_moves) {
    UiTreeItem items[8];
    int n = 0;
    items[n++] = move("e4", 1, WHITE);
    items[n++] = move("e5", 1, BLACK);
    items[n++] = move("Nf3", 2, WHITE);
    items[n++] = move("Nc6", 2, BLACK);
    items[n++] = move("Bb5", 3, WHITE);
    UiTreeLayout l = { 0 };
    cr_assert(ui_tree_layout(&l, items, n, 12, false));
    char rows[8][80];
    render(&l, rows, 8);
    cr_expect_str_eq(rows[0], "1. e4 e5");
    cr_expect_str_eq(rows[1], "2. Nf3 Nc6");
    cr_expect_str_eq(rows[2], "3. Bb5");
    // A game that starts with Black numbers its first move "1...".
    UiTreeItem black[2] = { move("e5", 1, BLACK), move("Nf3", 2, WHITE) };
    cr_assert(ui_tree_layout(&l, black, 2, 30, false));
    render(&l, rows, 8);
    cr_expect_str_eq(rows[0], "1... e5 2. Nf3");
    ui_tree_free(&l);
}

Test(movetree, deep_nesting_keeps_room) {
    UiTreeItem items[64];
    int n = 0;
    items[n++] = move("e4", 1, WHITE);
    for (int d = 0; d < 20; d++) {
        items[n++] = open_var();
        items[n++] = move("d4", 1, WHITE);
    }
    for (int d = 0; d < 20; d++)
        items[n++] = close_var();
    UiTreeLayout l = { 0 };
    cr_assert(ui_tree_layout(&l, items, n, 20, false));
    // Indentation stops with twelve columns left: every token fits.
    for (int i = 0; i < l.count; i++) {
        const UiTreeToken *t = &l.tokens[i];
        cr_expect_leq(t->col + t->width, 20, "token %d '%s' at column %d", i, t->text, t->col);
        if (t->kind == UI_TOK_PAREN && t->text[0] == '(')
            cr_expect_leq(t->col, 8);
    }
    // The closing parentheses stick to the last move: "(1. d4)))))..."
    // (to the width), not a row each.
    cr_expect_eq(l.tokens[l.count - 20].row, l.tokens[l.count - 21].row);
    cr_expect_lt(l.rows, 20 + 6, "%d rows", l.rows);
    ui_tree_free(&l);
}

Test(movetree, scrolling_keeps_the_current_move) {
    enum { MOVES = 100 };
    static char sans[MOVES][16];
    UiTreeItem items[MOVES];
    for (int i = 0; i < MOVES; i++) {
        snprintf(sans[i], sizeof sans[i], "m%d", i);
        items[i] = move(sans[i], 1 + i / 2, (Color)(i % 2));
    }
    UiTreeLayout l = { 0 };
    for (int cur = 0; cur < MOVES; cur += 7) {
        for (int i = 0; i < MOVES; i++)
            items[i].current = i == cur;
        cr_assert(ui_tree_layout(&l, items, MOVES, 16, false));
        cr_assert_gt(l.rows, 10);
        int first = ui_tree_first_row(&l, 10);
        cr_expect_geq(l.current_row, first, "move %d: row %d above %d", cur, l.current_row, first);
        cr_expect_lt(l.current_row, first + 10, "move %d: row %d below", cur, l.current_row);
        cr_expect_leq(first + 10, l.rows, "no blank rows at the end");
    }
    // Near the end the window ends with the list; at the start, it starts with it.
    items[MOVES - 1].current = true;
    cr_assert(ui_tree_layout(&l, items, MOVES, 16, false));
    cr_expect_eq(ui_tree_first_row(&l, 10), l.rows - 10);
    for (int i = 0; i < MOVES; i++)
        items[i].current = false;
    cr_assert(ui_tree_layout(&l, items, MOVES, 16, false));
    cr_expect_eq(l.current_row, -1);
    cr_expect_eq(ui_tree_first_row(&l, 10), 0);
    cr_expect_eq(ui_tree_first_row(&l, 1000), 0, "everything fits");
    ui_tree_free(&l);
}

Test(movetree, hit_test) {
    UiTreeItem items[32];
    int n = sample(items);
    UiTreeLayout l = { 0 };
    cr_assert(ui_tree_layout(&l, items, n, 40, false));
    // Row 0 "1. e4 e5": the number and the move are e4 (item 0), then e5.
    cr_expect_eq(ui_tree_hit(&l, 0, 0), 0);
    cr_expect_eq(ui_tree_hit(&l, 0, 3), 0);
    cr_expect_eq(ui_tree_hit(&l, 0, 4), 0);
    cr_expect_eq(ui_tree_hit(&l, 0, 5), -1, "the blank between moves");
    cr_expect_eq(ui_tree_hit(&l, 0, 6), 1);
    cr_expect_eq(ui_tree_hit(&l, 0, 30), -1);
    // Row 1 "  (1... c5 2. Nf3": the parenthesis is nothing, c5 is item 3.
    cr_expect_eq(ui_tree_hit(&l, 1, 2), -1);
    cr_expect_eq(ui_tree_hit(&l, 1, 8), 3);
    cr_expect_eq(ui_tree_hit(&l, 1, 14), 4);
    // Row 2 "    (2. c3 d5)": c3 is item 6.
    cr_expect_eq(ui_tree_hit(&l, 2, 8), 6);
    // Row 4: Nc6's NAG and marker are Nc6 (item 12); the result is item 13.
    cr_expect_eq(ui_tree_hit(&l, 4, 8), 12);
    cr_expect_eq(ui_tree_hit(&l, 4, 16), 12);
    cr_expect_eq(ui_tree_hit(&l, 4, 18), 12);
    cr_expect_eq(ui_tree_hit(&l, 4, 21), 13);
    cr_expect_eq(ui_tree_hit(&l, 9, 0), -1, "below the list");
    ui_tree_free(&l);
}

Test(movetree, wrap_by_display_width) {
    UiWrapRow rows[16];
    const char *text = "Der König zieht nach e2 und dann nach f3";
    int n = ui_wrap(text, 12, rows, 16);
    char line[64];
    cr_assert_eq(n, 4, "%d rows", n);
    static const char *const expect[] = { "Der König", "zieht nach", "e2 und dann", "nach f3" };
    for (int i = 0; i < n; i++) {
        snprintf(line, sizeof line, "%.*s", rows[i].len, text + rows[i].start);
        cr_expect_str_eq(line, expect[i]);
    }
    // Wide characters count two columns; a word wider than a row is cut
    // between characters.
    const char *wide = "\u738b\u738b\u738b\u738b\u738b";
    n = ui_wrap(wide, 4, rows, 16);
    cr_expect_eq(n, 3);
    cr_expect_eq(rows[0].len, 6, "two wide characters (three bytes each)");
    cr_expect_eq(ui_wrap("", 10, rows, 16), 0);
    cr_expect_eq(ui_wrap("one two three", 40, rows, 1), 1);
    cr_expect_eq(ui_wrap("one two three four", 4, rows, 1), 5, "the count beyond max");
}
