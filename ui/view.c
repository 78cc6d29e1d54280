// SPDX-License-Identifier: GPL-3.0-or-later
// Draws a UiView: the board and panel panes, the status line (or the
// command bar's note in its place), or only a request to enlarge the
// terminal when it is too small for any layout.
#include "ui/view.h"

#include <stdio.h>
#include <string.h>

#include "ui/boardview.h"
#include "ui/draw.h"
#include "ui/layout.h"
#include "ui/panel.h"
#include "ui/screen.h"
#include "ui/theme.h"

enum { NOTE_MAX = 1024, MESSAGE_MAX = 64 };

// The last status drawn, kept so the note can come and go without a view.
static char status_text[UI_STATUS_MAX];
static bool status_error;
static char note[NOTE_MAX];

static void draw_status(void) {
    WINDOW *w = ui_layout()->status;
    if (!w)
        return;
    werase(w);
    int width = getmaxx(w);
    if (note[0])
        draw_text(w, 0, 0, note, width, theme_role_attr(ROLE_NOTE), true);
    else
        draw_text(w, 0, 0, status_text, width,
                  theme_role_attr(status_error ? ROLE_ERROR : ROLE_TITLE), true);
    wnoutrefresh(w);
}

void ui_view_set_note(const char *text) {
    ui_text_copy(note, sizeof note, text ? text : "");
    if (ui_screen_is_open())
        draw_status();
}

// "Terminal too small: enlarge to at least 60x20 (now 40x10)", centred in
// the whole screen and broken between its three phrases where it must be.
static void draw_too_small(const UiLayout *l) {
    WINDOW *w = l->full;
    if (!w)
        return;
    werase(w);
    int width = getmaxx(w), height = getmaxy(w);
    char phrases[3][MESSAGE_MAX];
    snprintf(phrases[0], sizeof phrases[0], "Terminal too small:");
    snprintf(phrases[1], sizeof phrases[1], "enlarge to at least %dx%d", l->need_cols,
             l->need_lines);
    snprintf(phrases[2], sizeof phrases[2], "(now %dx%d)", l->cols, l->lines);
    char lines[3][3 * MESSAGE_MAX];
    int n = 0;
    for (int i = 0; i < 3; i++) {
        size_t len = n > 0 ? strlen(lines[n - 1]) : 0;
        if (n > 0 && (int)(len + 1 + strlen(phrases[i])) <= width)
            snprintf(lines[n - 1] + len, sizeof lines[0] - len, " %s", phrases[i]);
        else
            snprintf(lines[n++], sizeof lines[0], "%s", phrases[i]);
    }
    int y0 = (height - n) / 2;
    for (int i = 0; i < n; i++) {
        int x = (width - (int)strlen(lines[i])) / 2;
        draw_text(w, y0 + i, x < 0 ? 0 : x, lines[i], width, theme_role_attr(ROLE_TITLE), false);
    }
    wnoutrefresh(w);
}

// Where the last overlay box was drawn (screen cells), for clicks; 0: none.
static int overlay_y, overlay_x, overlay_h, overlay_w;

int ui_view_overlay_line_at(int y, int x) {
    if (overlay_h == 0 || y <= overlay_y || y >= overlay_y + overlay_h - 1 || x <= overlay_x ||
        x >= overlay_x + overlay_w - 1)
        return -1;
    return y - overlay_y - 1; // text line 0 is on the box's second row
}

// A box with several lines of text over the middle of the screen, sized to
// fit; lines that do not fit are cut. Built fresh each time so it sits on top
// of the panes drawn before it and leaves nothing behind.
static void draw_overlay(const UiLayout *l, const char *text) {
    int rows = 0, cols = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        cols = len > cols ? len : cols;
        rows++;
        p = nl ? nl + 1 : p + len;
    }
    int height = rows + 2, width = cols + 4;
    if (height > l->lines - 2)
        height = l->lines - 2;
    if (width > l->cols)
        width = l->cols;
    if (height < 3 || width < 5)
        return;
    WINDOW *w = newwin(height, width, (l->lines - 2 - height) / 2, (l->cols - width) / 2);
    if (!w)
        return;
    overlay_y = (l->lines - 2 - height) / 2;
    overlay_x = (l->cols - width) / 2;
    overlay_h = height;
    overlay_w = width;
    werase(w);
    box(w, 0, 0);
    int y = 1;
    for (const char *p = text; *p && y < height - 1; y++) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        char line[512];
        size_t take = len < (int)sizeof line ? (size_t)len : draw_boundary(p, sizeof line - 1);
        memcpy(line, p, take);
        line[take] = '\0';
        draw_text(w, y, 2, line, width - 4, theme_role_attr(ROLE_TITLE), false);
        p = nl ? nl + 1 : p + len;
    }
    wnoutrefresh(w);
    delwin(w);
}

// ------------------------------------------------------------ chooser

enum { CHOOSER_CELL_W = 3, CHOOSER_W = 2 + 4 * CHOOSER_CELL_W, CHOOSER_H = 3 };

const PieceType ui_chooser_pieces[4] = {QUEEN, ROOK, BISHOP, KNIGHT};

// Where the last chooser was drawn (screen cells), for clicks; height 0: none.
static int chooser_y, chooser_x, chooser_h;

// A box of Q R B N beside the promotion square: below it when the square
// is at the top of the board, above it when at the bottom, kept on the
// board horizontally. Letters, so it reads the same in every look.
static void draw_chooser(const UiLayout *l, const UiView *v) {
    int by, bx, sy, sx;
    getbegyx(l->board, by, bx);
    boardview_square_cell(v->choose_square, v->flipped, l->sq_w, l->sq_h, &sy, &sx);
    bool top = sy < 4 * l->sq_h;
    int y = by + (top ? sy + l->sq_h : sy - CHOOSER_H);
    int x = bx + sx + l->sq_w / 2 - CHOOSER_W / 2;
    int right = bx + getmaxx(l->board) - CHOOSER_W;
    if (x > right)
        x = right;
    if (x < bx)
        x = bx;
    if (y < 0)
        y = 0;
    WINDOW *w = newwin(CHOOSER_H, CHOOSER_W, y, x);
    if (!w)
        return;
    werase(w);
    box(w, 0, 0);
    static const char letters[PIECE_TYPE_NB] = {[QUEEN] = 'Q', [ROOK] = 'R', [BISHOP] = 'B',
                                                [KNIGHT] = 'N'};
    for (int i = 0; i < 4; i++) {
        char cell[4];
        PieceType t = ui_chooser_pieces[i];
        char c = letters[t];
        snprintf(cell, sizeof cell, "%c", v->choose_side == WHITE ? c : c + ('a' - 'A'));
        // The default (queen) stands out, in every look.
        attr_t attr = theme_role_attr(i == 0 ? ROLE_CURRENT : ROLE_TITLE) | (i == 0 ? A_REVERSE : 0);
        draw_text(w, 1, 1 + i * CHOOSER_CELL_W + 1, cell, 1, attr, false);
    }
    wnoutrefresh(w);
    delwin(w);
    chooser_y = y;
    chooser_x = x;
    chooser_h = CHOOSER_H;
}

PieceType ui_view_chooser_at(int y, int x) {
    if (chooser_h == 0 || y < chooser_y || y >= chooser_y + chooser_h || x < chooser_x + 1 ||
        x >= chooser_x + 1 + 4 * CHOOSER_CELL_W)
        return NO_PIECE_TYPE;
    return ui_chooser_pieces[(x - chooser_x - 1) / CHOOSER_CELL_W];
}

void ui_view_draw(const UiView *v) {
    if (!ui_screen_is_open() || !v)
        return;
    const UiLayout *l = ui_layout();
    chooser_h = overlay_h = 0; // until drawn again
    ui_text_copy(status_text, sizeof status_text, v->status);
    status_error = v->status_is_error;
    if (l->too_small) {
        draw_too_small(l);
        return;
    }
    if (l->board) {
        boardview_draw(l->board, v, l->sq_w, l->sq_h);
        wnoutrefresh(l->board);
    }
    if (l->panel) {
        panel_draw(l->panel, v);
        wnoutrefresh(l->panel);
    }
    if (l->board && v->choosing)
        draw_chooser(l, v);
    if (v->overlay && v->overlay[0])
        draw_overlay(l, v->overlay);
    draw_status();
}

Square ui_view_square_at(int y, int x, bool flipped) {
    const UiLayout *l = ui_layout();
    if (!l->board || l->too_small)
        return SQ_NONE;
    int by, bx;
    getbegyx(l->board, by, bx);
    return boardview_square_at(y - by, x - bx, flipped, l->sq_w, l->sq_h);
}
