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

enum { NOTE_MAX = 1024, MESSAGE_MAX = 64, MORE_MAX = 32 };

// The last status drawn, kept so the note can come and go without a view.
static char status_text[UI_STATUS_MAX];
static bool status_error, status_cut;
static char status_more[MORE_MAX];
static char note[NOTE_MAX];

static void draw_status(void) {
    WINDOW *w = ui_layout()->status;
    if (!w)
        return;
    werase(w);
    int width = getmaxx(w);
    attr_t attr = theme_role_attr(status_error ? ROLE_ERROR : ROLE_TITLE);
    // What is cut says so at the end of the line, with the key that shows it.
    int more = status_more[0] && (status_cut || draw_width(status_text) > width)
                   ? draw_width(status_more) + 2 : 0;
    if (note[0]) {
        draw_text(w, 0, 0, note, width, theme_role_attr(ROLE_NOTE), true);
    } else if (more && more < width) {
        draw_text(w, 0, 0, status_text, width - more, attr, true);
        draw_text(w, 0, width - more + 1, status_more, more - 1, attr | A_REVERSE, false);
    } else {
        draw_text(w, 0, 0, status_text, width, attr, true);
    }
    wnoutrefresh(w);
}

void ui_view_set_note(const char *text) {
    ui_text_copy(note, sizeof note, text ? text : "");
    if (ui_screen_is_open())
        draw_status();
}

// Joins phrases into as few lines of at most width columns as they go;
// the line count, or -1 when a phrase alone is wider than width.
static int join_phrases(char phrases[][MESSAGE_MAX], int count, int width,
                        char lines[][3 * MESSAGE_MAX]) {
    int n = 0;
    for (int i = 0; i < count; i++) {
        if ((int)strlen(phrases[i]) > width)
            return -1;
        size_t len = n > 0 ? strlen(lines[n - 1]) : 0;
        if (n > 0 && (int)(len + 1 + strlen(phrases[i])) <= width)
            snprintf(lines[n - 1] + len, 3 * MESSAGE_MAX - len, " %s", phrases[i]);
        else
            snprintf(lines[n++], 3 * MESSAGE_MAX, "%s", phrases[i]);
    }
    return n;
}

// "Terminal too small: enlarge to at least 60x20 (now 40x10)", centred in
// the whole screen and broken between its three phrases where it must be.
// A screen too small for those says it shorter ("Too small: need 60x20"),
// down to the size alone: the size needed is the one thing that must show.
// A game of yours waits meanwhile, and the longest form says so.
static void draw_too_small(const UiLayout *l, bool paused) {
    WINDOW *w = l->full;
    if (!w)
        return;
    werase(w);
    int width = getmaxx(w), height = getmaxy(w);
    char phrases[4][MESSAGE_MAX], lines[4][3 * MESSAGE_MAX];
    snprintf(phrases[0], sizeof phrases[0], "Terminal too small:");
    snprintf(phrases[1], sizeof phrases[1], "enlarge to at least %dx%d", l->need_cols,
             l->need_lines);
    snprintf(phrases[2], sizeof phrases[2], "(now %dx%d)", l->cols, l->lines);
    snprintf(phrases[3], sizeof phrases[3], "- game paused");
    int n = join_phrases(phrases, paused ? 4 : 3, width, lines);
    if (n < 0 || n > height) {
        snprintf(phrases[0], sizeof phrases[0], "Too small:");
        snprintf(phrases[1], sizeof phrases[1], "need %dx%d", l->need_cols, l->need_lines);
        n = join_phrases(phrases, 3, width, lines);
    }
    if (n < 0 || n > height) {
        snprintf(phrases[0], sizeof phrases[0], "need %dx%d", l->need_cols, l->need_lines);
        n = join_phrases(phrases, 1, width, lines);
    }
    if (n < 0 || n > height) {
        snprintf(phrases[0], sizeof phrases[0], "%dx%d", l->need_cols, l->need_lines);
        n = join_phrases(phrases, 1, width, lines);
    }
    if (n < 0)
        n = 0; // narrower than "60x20": nothing whole can be said
    int y0 = (height - n) / 2;
    for (int i = 0; i < n; i++) {
        int x = (width - (int)strlen(lines[i])) / 2;
        draw_text(w, y0 + i, x < 0 ? 0 : x, lines[i], width, theme_role_attr(ROLE_TITLE), false);
    }
    wnoutrefresh(w);
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
    chooser_h = 0; // until drawn again
    ui_text_copy(status_text, sizeof status_text, v->status);
    status_error = v->status_is_error;
    status_cut = v->status_cut;
    ui_text_copy(status_more, sizeof status_more, v->status_more ? v->status_more : "");
    if (l->too_small) {
        draw_too_small(l, v->paused);
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
