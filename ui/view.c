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

void ui_view_draw(const UiView *v) {
    if (!ui_screen_is_open() || !v)
        return;
    const UiLayout *l = ui_layout();
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

int ui_view_move_at(const UiView *v, int y, int x) {
    const UiLayout *l = ui_layout();
    if (!l->panel || l->too_small)
        return -1;
    int py, px;
    getbegyx(l->panel, py, px);
    if (y < py || x < px || y >= py + getmaxy(l->panel) || x >= px + getmaxx(l->panel))
        return -1;
    return panel_move_at(l->panel, v, y - py, x - px);
}

void ui_view_comment_rows(const UiView *v, int *total, int *shown) {
    const UiLayout *l = ui_layout();
    *total = *shown = 0;
    if (l->panel && !l->too_small)
        panel_comment_rows(l->panel, v, total, shown);
}
