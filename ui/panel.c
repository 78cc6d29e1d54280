// SPDX-License-Identifier: GPL-3.0-or-later
// The side panel: both players with their clocks, the pieces each side took
// with the material lead, the opening, the numbered move list scrolled to
// the current move, and the engine's search output with its PV.
#include "ui/panel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/theme.h"

enum {
    ROOMY_H = 24,       // from this height each player gets a second row
    OPENING_ROW_H = 20, // from this height the opening gets its own row
    PV_ROWS_2_H = 22,   // heights at which the PV gets a second / third row
    PV_ROWS_3_H = 30,
    LABEL_W = 6, // "White "
    CLOCK_TEXT_MAX = 24,
    MOVE_NUM_TEXT = 16,
};

void panel_format_clock(long long ms, char *buf, size_t bufsz) {
    if (ms < 0)
        ms = 0;
    long long tenths = ms / 100, secs = ms / 1000;
    if (ms < 10000)
        snprintf(buf, bufsz, "0:%02lld.%lld", secs, tenths % 10);
    else if (secs < 3600)
        snprintf(buf, bufsz, "%lld:%02lld", secs / 60, secs % 60);
    else
        snprintf(buf, bufsz, "%lld:%02lld:%02lld", secs / 3600, secs / 60 % 60, secs % 60);
}

void panel_format_score(int cp_white, int mate_white, char *buf, size_t bufsz) {
    if (mate_white != 0) {
        snprintf(buf, bufsz, "#%d", mate_white);
        return;
    }
    // Integer arithmetic, so -0.05 keeps its sign and nothing rounds oddly.
    const char *sign = cp_white > 0 ? "+" : cp_white < 0 ? "-" : "";
    int a = cp_white < 0 ? -cp_white : cp_white;
    snprintf(buf, bufsz, "%s%d.%02d", sign, a / 100, a % 100);
}

void panel_format_count(unsigned long long n, char *buf, size_t bufsz) {
    static const char units[] = "kMGT";
    if (n < 1000) {
        snprintf(buf, bufsz, "%llu", n);
        return;
    }
    double x = (double)n;
    int u = -1;
    while (x >= 1000.0 && u < (int)sizeof units - 2) {
        x /= 1000.0;
        u++;
    }
    // Three significant digits: 1.23M, 12.3M, 123M.
    int decimals = x < 10.0 ? 2 : x < 100.0 ? 1 : 0;
    snprintf(buf, bufsz, "%.*f%c", decimals, x, units[u]);
}

// The clock part of a player row; returns its width (0 when there is none).
static int clock_width(const UiPlayerView *p, char *text, size_t textsz) {
    if (!p->has_clock)
        return 0;
    if (p->flagged)
        snprintf(text, textsz, "FLAG");
    else
        panel_format_clock(p->clock_ms, text, textsz);
    return 2 + draw_width(text); // room for the running marker
}

static void draw_player(WINDOW *w, int y, const UiPlayerView *p, Color c, bool two_rows) {
    int width = getmaxx(w);
    char clock[CLOCK_TEXT_MAX];
    int cw = clock_width(p, clock, sizeof clock);
    int x = draw_text(w, y, 0, c == WHITE ? "White " : "Black ", width, theme_role_attr(ROLE_DIM),
                      false);
    int left = width - x - (cw ? cw + 1 : 0);
    int used = draw_text(w, y, x, p->name, left, theme_role_attr(ROLE_TITLE), true);
    if (two_rows) {
        draw_text(w, y + 1, LABEL_W, p->detail, width - LABEL_W, theme_role_attr(ROLE_DIM), true);
    } else if (p->detail[0] && used + 2 < left) {
        draw_text(w, y, x + used + 1, p->detail, left - used - 1, theme_role_attr(ROLE_DIM), true);
    }
    if (!cw)
        return;
    int cx = width - cw;
    if (p->running) {
        const char *mark = theme_unicode() ? "\u25B6 " : "> ";
        draw_text(w, y, cx, mark, 2, theme_role_attr(ROLE_CLOCK_RUN), false);
    }
    TextRole role = p->flagged    ? ROLE_FLAG
                    : p->low_time ? ROLE_CLOCK_LOW
                    : p->running  ? ROLE_CLOCK_RUN
                                  : ROLE_NORMAL;
    draw_text(w, y, cx + 2, clock, cw - 2, theme_role_attr(role), false);
}

int ui_piece_value(PieceType t) {
    static const int values[PIECE_TYPE_NB] = { 1, 3, 3, 5, 9, 0 };
    return t < PIECE_TYPE_NB ? values[t] : 0;
}

void ui_material_count(const Board *b, UiMaterial *out) {
    static const int start[PIECE_TYPE_NB] = { 8, 2, 2, 2, 1, 1 };
    memset(out, 0, sizeof *out);
    for (Color c = WHITE; c <= BLACK; c++) {
        int promoted = 0;
        for (PieceType t = PAWN; t < KING; t++) {
            int have = bb_count(board_pieces(b, c, t));
            if (t != PAWN && have > start[t])
                promoted += have - start[t];
            int missing = start[t] - have;
            out->captured[!c][t] = missing > 0 ? missing : 0;
            out->balance_white += (c == WHITE ? 1 : -1) * have * ui_piece_value(t);
        }
        // A promoted pawn was not captured.
        int pawns = out->captured[!c][PAWN] - promoted;
        out->captured[!c][PAWN] = pawns > 0 ? pawns : 0;
    }
}

// "White took ♟♟♞  +3": what side c has captured, most valuable first, and
// its lead in material when it is ahead.
static void draw_captured(WINDOW *w, int y, Color c, const UiMaterial *m) {
    int width = getmaxx(w);
    int x = draw_text(w, y, 0, c == WHITE ? "White took " : "Black took ", width,
                      theme_role_attr(ROLE_DIM), false);
    int lead = c == WHITE ? m->balance_white : -m->balance_white;
    char lead_text[16] = "";
    if (lead > 0)
        snprintf(lead_text, sizeof lead_text, " +%d", lead);
    int room = width - x - (int)strlen(lead_text);
    for (int t = QUEEN; t >= PAWN; t--)
        for (int i = 0; i < m->captured[c][t] && room > 0; i++, room--)
            theme_put_wch(w, y, x++, theme_piece_glyph(make_piece((Color)!c, (PieceType)t)),
                          A_NORMAL);
    if (lead > 0)
        draw_text(w, y, x, lead_text, width - x, theme_role_attr(ROLE_TITLE), false);
}

// The items of a main line given as sans (a view without a tree): one
// move each, numbered from the view's start. Owned by the caller; NULL when
// out of memory or empty.
static UiTreeItem *flat_items(const UiView *v, int *n) {
    *n = 0;
    if (v->ply_count <= 0 || !v->sans)
        return NULL;
    UiTreeItem *items = calloc((size_t)v->ply_count, sizeof *items);
    if (!items)
        return NULL;
    int start = v->start_fullmove > 0 ? v->start_fullmove : 1;
    for (int i = 0; i < v->ply_count; i++) {
        int t = (int)v->start_side + i;
        items[i] = (UiTreeItem){.kind = UI_TREE_MOVE,
                                .san = v->sans[i] ? v->sans[i] : "?",
                                .fullmove = start + t / 2,
                                .side = (Color)(t % 2),
                                .current = i == v->current_ply - 1};
    }
    *n = v->ply_count;
    return items;
}

// The tree laid out for width columns (the view's, or one made from its
// list). False when there is nothing to show or no memory.
static bool tree_layout(const UiView *v, int width, UiTreeLayout *l) {
    memset(l, 0, sizeof *l);
    if (v->tree)
        return v->tree_count > 0 &&
               ui_tree_layout(l, v->tree, v->tree_count, width, theme_unicode());
    int n;
    UiTreeItem *items = flat_items(v, &n);
    bool ok = items && ui_tree_layout(l, items, n, width, theme_unicode());
    free(items);
    return ok;
}

static attr_t token_attr(const UiTreeToken *t) {
    if (t->current && (t->kind == UI_TOK_MOVE || t->kind == UI_TOK_NUMBER))
        return theme_role_attr(ROLE_CURRENT);
    attr_t a = theme_role_attr(t->depth > 0 || t->kind == UI_TOK_NUMBER ||
                                       t->kind == UI_TOK_PAREN
                                   ? ROLE_DIM
                                   : ROLE_NORMAL);
    // Bad moves (a review's ?! ? ??) stand out; in monochrome by underline.
    if (t->kind == UI_TOK_MOVE && (t->nag == 2 || t->nag == 4 || t->nag == 6))
        a = theme_role_attr(ROLE_ERROR) | (t->nag == 4 ? A_BOLD : A_NORMAL) |
            (theme_role_attr(ROLE_ERROR) == A_NORMAL ? A_UNDERLINE : A_NORMAL);
    if (t->kind == UI_TOK_COMMENT || t->kind == UI_TOK_RESULT)
        a = theme_role_attr(ROLE_TITLE);
    return a;
}

// The move tree in rows y0.., scrolled so that the current move shows.
static void draw_moves(WINDOW *w, int y0, int rows, const UiView *v) {
    UiTreeLayout l = {0}; // freed below even when rows <= 0 skips the layout
    if (rows <= 0 || !tree_layout(v, getmaxx(w), &l)) {
        ui_tree_free(&l);
        return;
    }
    int first = ui_tree_first_row(&l, rows);
    for (int i = 0; i < l.count; i++) {
        const UiTreeToken *t = &l.tokens[i];
        if (t->row >= first && t->row < first + rows)
            draw_text(w, y0 + t->row - first, t->col, t->text, getmaxx(w) - t->col,
                      token_attr(t), false);
    }
    ui_tree_free(&l);
}

enum { COMMENT_WRAP_MAX = 512 };

// The comment's rows: before the move, then after it.
typedef struct CommentRows {
    UiWrapRow rows[COMMENT_WRAP_MAX];
    const char *text[COMMENT_WRAP_MAX];
    int count;
} CommentRows;

static void comment_rows(const UiView *v, int width, CommentRows *c) {
    c->count = 0;
    const char *parts[2] = {v->comment_before, v->comment_after};
    for (int p = 0; p < 2; p++) {
        if (!parts[p] || !parts[p][0] || c->count >= COMMENT_WRAP_MAX)
            continue;
        int n = ui_wrap(parts[p], width, c->rows + c->count, COMMENT_WRAP_MAX - c->count);
        if (n > COMMENT_WRAP_MAX - c->count)
            n = COMMENT_WRAP_MAX - c->count;
        for (int i = 0; i < n; i++)
            c->text[c->count + i] = parts[p];
        c->count += n;
    }
}

// Word-wraps the PV into rows; the last row ends in an ellipsis if cut.
static void draw_pv(WINDOW *w, int y0, int rows, const char *pv) {
    int width = getmaxx(w);
    const char *p = pv;
    for (int r = 0; r < rows && *p; r++) {
        while (*p == ' ')
            p++;
        if (r == rows - 1 || draw_width(p) <= width) {
            draw_text(w, y0 + r, 0, p, width, A_NORMAL, true);
            return;
        }
        // The longest run of whole words that fits.
        const char *end = p, *q = p;
        char chunk[UI_PV_MAX];
        while (*q) {
            const char *word_end = strchr(q, ' ');
            if (!word_end)
                word_end = q + strlen(q);
            size_t len = (size_t)(word_end - p);
            memcpy(chunk, p, len);
            chunk[len] = '\0';
            if (draw_width(chunk) > width)
                break;
            end = word_end;
            q = *word_end ? word_end + 1 : word_end;
        }
        if (end == p) { // one word wider than the pane
            draw_text(w, y0 + r, 0, p, width, A_NORMAL, true);
            return;
        }
        // A move number stays with its move: "15." moves down with "Be3".
        const char *last_space = NULL;
        for (const char *s = p; s < end; s++)
            if (*s == ' ')
                last_space = s;
        if (last_space && end[-1] == '.')
            end = last_space;
        size_t len = (size_t)(end - p);
        memcpy(chunk, p, len);
        chunk[len] = '\0';
        draw_text(w, y0 + r, 0, chunk, width, A_NORMAL, false);
        p = end;
    }
}

// An evaluation bar across the pane: White's share grows with its score
// (a pawn moves it about a tenth of the way, mates fill it).
static void draw_eval_bar(WINDOW *w, int y, int score_white, int mate_white) {
    int width = getmaxx(w);
    char score[32];
    panel_format_score(score_white, mate_white, score, sizeof score);
    int x = draw_text(w, y, 0, score, width, A_BOLD, false);
    int bar = width - x - 3;
    if (bar < 4)
        return;
    double share = mate_white > 0   ? 1.0
                   : mate_white < 0 ? 0.0
                                    : 0.5 + 0.5 * tanh(score_white / 400.0);
    int filled = (int)(share * bar + 0.5);
    x += draw_text(w, y, x, " [", width - x, A_NORMAL, false);
    wchar_t full = draw_utf8() ? L'\u2588' : L'#', empty = draw_utf8() ? L'\u2591' : L'-';
    draw_fill(w, y, x, filled, full, A_NORMAL);
    draw_fill(w, y, x + filled, bar - filled, empty, theme_role_attr(ROLE_DIM));
    draw_text(w, y, x + bar, "]", width - x - bar, A_NORMAL, false);
}

static int thinking_rows(const UiThinking *t, int pv_rows) {
    if (t->analysing && t->line_count > 1)
        return 3 + t->line_count; // rule, bar, depth/nodes, one row per line
    return 3 + pv_rows + (t->analysing ? 1 : 0);
}

static void draw_thinking(WINDOW *w, int y0, int pv_rows, const UiThinking *t) {
    int width = getmaxx(w);
    char final[48];
    snprintf(final, sizeof final, "Analysis: final, depth %d", t->depth);
    const char *title = t->analysing ? (t->final ? final : t->active ? "Analysis: running" : "Analysis")
                        : t->shown && t->active ? "Engine: thinking"
                                                : "Engine";
    draw_rule(w, y0, title, theme_role_attr(ROLE_DIM));
    if (!t->shown)
        return;
    int y = y0 + 1;
    if (t->analysing)
        draw_eval_bar(w, y++, t->score_white, t->mate_white);
    char score[32], line[UI_LINE_PV_MAX + 64], nodes[16], nps[16];
    panel_format_count(t->nodes, nodes, sizeof nodes);
    panel_format_count(t->nps, nps, sizeof nps);
    if (t->analysing && t->line_count > 1) {
        snprintf(line, sizeof line, "Depth %d  Nodes %s  NPS %s", t->depth, nodes, nps);
        draw_text(w, y++, 0, line, width, A_NORMAL, true);
        for (int i = 0; i < t->line_count; i++) {
            const UiLine *l = &t->lines[i];
            panel_format_score(l->score_white, l->mate_white, score, sizeof score);
            snprintf(line, sizeof line, "%d %6s %s", i + 1, score, l->pv_san);
            draw_text(w, y++, 0, line, width, i == 0 ? A_BOLD : A_NORMAL, true);
        }
        return;
    }
    panel_format_score(t->score_white, t->mate_white, score, sizeof score);
    if (t->seldepth > 0)
        snprintf(line, sizeof line, "Depth %d/%d  Score %s", t->depth, t->seldepth, score);
    else
        snprintf(line, sizeof line, "Depth %d  Score %s", t->depth, score);
    draw_text(w, y++, 0, line, width, A_NORMAL, true);
    snprintf(line, sizeof line, "Nodes %s  NPS %s", nodes, nps);
    draw_text(w, y++, 0, line, width, A_NORMAL, true);
    draw_pv(w, y, pv_rows, t->pv_san);
}

// The evaluation over the game as a one-row sparkline (block elements, or
// ASCII), White's advantage up; a row of carets marks the biggest swings.
static void draw_graph(WINDOW *w, int y, const UiView *v) {
    int width = getmaxx(w);
    draw_rule(w, y, "Evaluation", theme_role_attr(ROLE_DIM));
    int n = v->graph_count < UI_GRAPH_MAX ? v->graph_count : UI_GRAPH_MAX;
    int cols = n < width ? n : width;
    static const wchar_t blocks[] = L"\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588";
    static const char ascii[] = "_.-~=+*#";
    int marks[UI_GRAPH_MARKS] = {-1, -1, -1};
    // The biggest swings between consecutive plies.
    for (int i = 1; i < n; i++) {
        int swing = abs(v->graph[i] - v->graph[i - 1]);
        for (int k = 0; k < UI_GRAPH_MARKS; k++) {
            if (marks[k] < 0 || swing > abs(v->graph[marks[k]] - v->graph[marks[k] - 1])) {
                for (int j = UI_GRAPH_MARKS - 1; j > k; j--)
                    marks[j] = marks[j - 1];
                marks[k] = i;
                break;
            }
        }
    }
    for (int c = 0; c < cols; c++) {
        int i = (int)((long)c * n / cols); // the ply this column shows
        int score = v->graph[i] > 600 ? 600 : v->graph[i] < -600 ? -600 : v->graph[i];
        int level = (score + 600) * 7 / 1200;
        if (draw_utf8())
            theme_put_wch(w, y + 1, c, blocks[level], A_NORMAL);
        else
            theme_put_wch(w, y + 1, c, (wchar_t)ascii[level], A_NORMAL);
        for (int k = 0; k < UI_GRAPH_MARKS; k++)
            if (marks[k] >= 0 && (int)((long)marks[k] * cols / n) == c)
                theme_put_wch(w, y + 2, c, L'^', theme_role_attr(ROLE_ERROR));
    }
}

// Where the panel's parts go in a pane h rows high: the move list, the
// comment under it (or in its place when open), the graph and the engine.
typedef struct PanelGeometry {
    int y;           // the first row under the players, material and opening
    int moves_y, move_rows;
    int comment_y, comment_rows;
    int engine_rows, graph_rows, pv_rows;
    bool two_rows, opening_row;
} PanelGeometry;

static void panel_geometry(const UiView *v, int h, int comment_total, PanelGeometry *g) {
    memset(g, 0, sizeof *g);
    g->two_rows = h >= ROOMY_H;
    g->opening_row = h >= OPENING_ROW_H;
    g->pv_rows = h >= PV_ROWS_3_H ? 3 : h >= PV_ROWS_2_H ? 2 : 1;
    g->engine_rows = thinking_rows(&v->thinking, g->pv_rows);
    g->graph_rows = v->graph && v->graph_count > 1 ? 3 : 0; // rule, sparkline, marks
    g->y = (g->two_rows ? 4 : 2) + 2 + (v->opening[0] && g->opening_row ? 1 : 0);
    int area = h - g->y - 1 - g->engine_rows - g->graph_rows; // under the "Moves" rule
    if (area < 2 && g->graph_rows) {
        g->graph_rows = 0; // the moves matter more than the graph
        area = h - g->y - 1 - g->engine_rows;
    }
    g->moves_y = g->y + 1;
    g->move_rows = area;
    if (comment_total <= 0 || area < 1)
        return;
    if (v->comment_open) { // the comment takes the list's place
        g->comment_y = g->moves_y;
        g->comment_rows = area;
        g->move_rows = 0;
        return;
    }
    // A rule and up to a third of the area, leaving the list two rows.
    int most = (area - 1) / 3 > 1 ? (area - 1) / 3 : 1;
    int rows = comment_total < most ? comment_total : most;
    if (area - 1 - rows < 2)
        return; // no room: Ctrl-O opens it
    g->move_rows = area - 1 - rows;
    g->comment_y = g->moves_y + g->move_rows + 1;
    g->comment_rows = rows;
}

static int clamp_scroll(int scroll, int total, int shown) {
    int most = total - shown > 0 ? total - shown : 0;
    return scroll < 0 ? 0 : scroll > most ? most : scroll;
}

static void draw_comment(WINDOW *w, const PanelGeometry *g, const CommentRows *c,
                         const UiView *v) {
    int width = getmaxx(w);
    int first = clamp_scroll(v->comment_scroll, c->count, g->comment_rows);
    char title[64];
    if (c->count > g->comment_rows)
        snprintf(title, sizeof title, "Comment %d-%d/%d (Ctrl-O%s)", first + 1,
                 first + g->comment_rows, c->count, v->comment_open ? ", arrows" : "");
    else
        snprintf(title, sizeof title, "Comment");
    draw_rule(w, g->comment_y - 1, title, theme_role_attr(ROLE_DIM));
    for (int r = 0; r < g->comment_rows && first + r < c->count; r++) {
        const UiWrapRow *row = &c->rows[first + r];
        char line[UI_STATUS_MAX * 2];
        size_t len = (size_t)row->len < sizeof line ? (size_t)row->len
                                                    : draw_boundary(c->text[first + r] + row->start,
                                                                    sizeof line - 1);
        memcpy(line, c->text[first + r] + row->start, len);
        line[len] = '\0';
        draw_text(w, g->comment_y + r, 0, line, width, A_NORMAL, false);
    }
}

static void geometry_of(WINDOW *w, const UiView *v, PanelGeometry *g, CommentRows *c) {
    comment_rows(v, getmaxx(w), c);
    panel_geometry(v, getmaxy(w), c->count, g);
}

void panel_draw(WINDOW *w, const UiView *v) {
    werase(w);
    int width = getmaxx(w);
    CommentRows comments;
    PanelGeometry g;
    geometry_of(w, v, &g, &comments);

    // The player whose pieces are at the top of the board comes first.
    Color top = v->flipped ? WHITE : BLACK;
    int y = 0;
    draw_player(w, y, &v->players[top], top, g.two_rows);
    y += g.two_rows ? 2 : 1;
    draw_player(w, y, &v->players[!top], (Color)!top, g.two_rows);
    y += g.two_rows ? 2 : 1;

    if (v->board) {
        UiMaterial m;
        ui_material_count(v->board, &m);
        draw_captured(w, y, top, &m);
        draw_captured(w, y + 1, (Color)!top, &m);
    }
    y += 2;
    if (v->opening[0] && g.opening_row)
        draw_text(w, y, 0, v->opening, width, A_NORMAL, true);

    if (g.move_rows > 0 || !g.comment_rows)
        draw_rule(w, g.y, "Moves", theme_role_attr(ROLE_DIM));
    draw_moves(w, g.moves_y, g.move_rows, v);
    if (g.comment_rows)
        draw_comment(w, &g, &comments, v);
    int h = getmaxy(w);
    if (g.graph_rows)
        draw_graph(w, h - g.engine_rows - g.graph_rows, v);
    draw_thinking(w, h - g.engine_rows, g.pv_rows, &v->thinking);
}

int panel_move_at(WINDOW *w, const UiView *v, int y, int x) {
    CommentRows comments;
    PanelGeometry g;
    geometry_of(w, v, &g, &comments);
    if (y < g.moves_y || y >= g.moves_y + g.move_rows)
        return -1;
    UiTreeLayout l;
    if (!tree_layout(v, getmaxx(w), &l)) {
        ui_tree_free(&l);
        return -1;
    }
    int item = ui_tree_hit(&l, ui_tree_first_row(&l, g.move_rows) + y - g.moves_y, x);
    ui_tree_free(&l);
    return item;
}

void panel_comment_rows(WINDOW *w, const UiView *v, int *total, int *shown) {
    CommentRows comments;
    PanelGeometry g;
    geometry_of(w, v, &g, &comments);
    *total = comments.count;
    *shown = g.comment_rows;
}
