// SPDX-License-Identifier: GPL-3.0-or-later
// The board pane: squares of a chosen size, pieces centred in them, rank and
// file labels, and highlights for the last move, the hint and a king in check.
#include "ui/boardview.h"

#include <string.h>

#include "ui/draw.h"
#include "ui/theme.h"

enum { LABEL_W = 2 }; // the rank label column: "8 "

static bool has(Bitboard set, Square sq) { return (set >> sq) & 1; }

static SquareKind square_kind(const UiView *v, Square sq) {
    const Board *b = v->board;
    if (has(v->selected, sq) ||
        (v->premove != MOVE_NONE && (sq == move_from(v->premove) || sq == move_to(v->premove))))
        return SQ_HINT;
    if (board_in_check(b) && sq == board_king(b, b->side))
        return SQ_CHECK;
    if (v->hint != MOVE_NONE && (sq == move_from(v->hint) || sq == move_to(v->hint)))
        return SQ_HINT;
    if (v->last_move != MOVE_NONE && v->last_move != MOVE_NULL &&
        (sq == move_from(v->last_move) || sq == move_to(v->last_move)))
        return SQ_LAST_MOVE;
    return SQ_PLAIN;
}

// The square shown at display row r (0 = top) and column c (0 = left).
static Square square_at(bool flipped, int r, int c) {
    return flipped ? make_square(7 - c, r) : make_square(c, 7 - r);
}

Square boardview_square_at(int y, int x, bool flipped, int sq_w, int sq_h) {
    if (sq_w <= 0 || sq_h <= 0 || y < 0 || x < LABEL_W)
        return SQ_NONE;
    int r = y / sq_h, c = (x - LABEL_W) / sq_w;
    return r < 8 && c < 8 ? square_at(flipped, r, c) : SQ_NONE;
}

void boardview_square_cell(Square sq, bool flipped, int sq_w, int sq_h, int *y, int *x) {
    int r = flipped ? square_rank(sq) : 7 - square_rank(sq);
    int c = flipped ? 7 - square_file(sq) : square_file(sq);
    *y = r * sq_h;
    *x = LABEL_W + c * sq_w;
}

// Marks for play by pointing, drawn in every look: a dot on the empty
// squares the selected piece may go to, crosses beside a piece it may take,
// braces around the cursor and parentheses around the selected piece.
static void draw_pointing(WINDOW *w, const UiView *v, Square sq, int cy, int cx, int x0, int sq_w,
                          attr_t attr) {
    bool uni = theme_unicode();
    if (has(v->quiet_targets, sq))
        theme_put_wch(w, cy, cx, uni ? L'\u00b7' : L'o', attr);
    wchar_t left = 0, right = 0;
    if (has(v->capture_targets, sq))
        left = right = uni ? L'\u00d7' : L'x';
    else if (has(v->cursor, sq))
        left = L'{', right = L'}';
    else if (has(v->selected, sq))
        left = L'(', right = L')';
    if (!left)
        return;
    if (cx > x0 && cx + 1 < x0 + sq_w) {
        theme_put_wch(w, cy, cx - 1, left, attr);
        theme_put_wch(w, cy, cx + 1, right, attr);
    } else if (cx + 1 < x0 + sq_w) {
        theme_put_wch(w, cy, cx + 1, right, attr);
    } else {
        theme_put_wch(w, cy, cx, right, attr); // too narrow: the mark shows instead
    }
}

static void draw_square(WINDOW *w, const UiView *v, int r, int c, int sq_w, int sq_h) {
    Square sq = square_at(v->flipped, r, c);
    Piece p = board_piece_on(v->board, sq);
    bool light = (square_file(sq) + square_rank(sq)) % 2 == 1;
    SquareKind kind = square_kind(v, sq);
    Color pc = p == NO_PIECE ? WHITE : piece_color(p);
    attr_t attr = theme_square_attr(kind, light, pc);
    int y0 = r * sq_h, x0 = LABEL_W + c * sq_w;
    for (int y = 0; y < sq_h; y++)
        for (int x = 0; x < sq_w; x++)
            theme_put_wch(w, y0 + y, x0 + x, L' ', attr);
    int cy = y0 + (sq_h - 1) / 2, cx = x0 + (sq_w - 1) / 2;
    if (p != NO_PIECE)
        theme_put_wch(w, cy, cx, theme_piece_glyph(p), attr);
    else if (!theme_color() && !theme_unicode() && !light)
        theme_put_wch(w, cy, cx, L'.', attr); // a plain ASCII board still shows its pattern
    if (!theme_color() && kind != SQ_PLAIN && cx > x0 && cx + 1 < x0 + sq_w) {
        // Without colour the highlight needs a shape: [e4] last move, <e4>
        // hint, *e8* check.
        static const wchar_t marks[SQ_KIND_NB][2] = {
            { L' ', L' ' }, { L'[', L']' }, { L'<', L'>' }, { L'*', L'*' }
        };
        theme_put_wch(w, cy, cx - 1, marks[kind][0], attr);
        theme_put_wch(w, cy, cx + 1, marks[kind][1], attr);
    }
    draw_pointing(w, v, sq, cy, cx, x0, sq_w, attr);
}

// Breaks text into lines of at most cols columns at spaces (a word longer
// than a line is cut by draw_text). Returns the number of lines.
static int wrap(const char *text, int cols, char lines[][UI_NAME_MAX * 2], int max) {
    int n = 0;
    const char *p = text;
    while (*p && n < max) {
        while (*p == ' ')
            p++;
        size_t fit = ui_text_fit(p, cols), len = strlen(p);
        if (fit < len) {
            size_t cut = fit;
            while (cut > 0 && p[cut] != ' ')
                cut--;
            if (cut > 0)
                fit = cut;
        }
        if (fit >= sizeof lines[n])
            fit = draw_boundary(p, sizeof lines[n] - 1);
        if (fit == 0)
            break;
        memcpy(lines[n], p, fit);
        lines[n++][fit] = '\0';
        p += fit;
    }
    return n;
}

// The end of the game across the middle of the board: the result, then the
// reason, in a reverse-video box that every look (colour, mono, ASCII) shows.
static void draw_banner(WINDOW *w, const UiView *v, int sq_w, int sq_h) {
    enum { BANNER_LINES = 4 };
    int board_w = 8 * sq_w, inner = board_w - 2;
    char lines[BANNER_LINES][UI_NAME_MAX * 2];
    snprintf(lines[0], sizeof lines[0], "Game over: %s", v->result);
    int n = 1 + wrap(v->reason, inner, lines + 1, BANNER_LINES - 1);
    int y0 = (8 * sq_h - (n + 2)) / 2;
    attr_t attr = theme_role_attr(ROLE_BANNER);
    for (int i = 0; i < n + 2; i++) {
        draw_fill(w, y0 + i, LABEL_W, board_w, L' ', attr);
        if (i == 0 || i == n + 1)
            continue;
        const char *line = lines[i - 1];
        int width = draw_width(line);
        int x = LABEL_W + 1 + (width < inner ? (inner - width) / 2 : 0);
        draw_text(w, y0 + i, x, line, inner, attr, true);
    }
}

void boardview_draw(WINDOW *w, const UiView *v, int sq_w, int sq_h) {
    werase(w);
    if (!v->board)
        return;
    attr_t coord = theme_role_attr(ROLE_COORD);
    for (int r = 0; r < 8; r++) {
        for (int c = 0; c < 8; c++)
            draw_square(w, v, r, c, sq_w, sq_h);
        int rank = v->flipped ? r : 7 - r;
        theme_put_wch(w, r * sq_h + (sq_h - 1) / 2, 0, (wchar_t)(L'1' + rank), coord);
    }
    for (int c = 0; c < 8; c++) {
        int file = v->flipped ? 7 - c : c;
        theme_put_wch(w, 8 * sq_h, LABEL_W + c * sq_w + (sq_w - 1) / 2, (wchar_t)(L'a' + file),
                      coord);
    }
    if (v->result[0])
        draw_banner(w, v, sq_w, sq_h);
}
