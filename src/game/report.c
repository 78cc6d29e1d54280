// SPDX-License-Identifier: GPL-3.0-or-later
// The game report: accuracy, marks, graph and deciding moments of a review.
#include "src/game/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fen.h"
#include "engine/notation.h"
#include "src/util/strbuf.h"
#include "src/util/text.h"

enum { MOMENT_LINE_PLIES = 8 };

// The exponential fall of a move's accuracy with the chances it gave away
// (the constants of lichess's published model).
static const double ACC_SCALE = 103.1668, ACC_DECAY = 0.04354, ACC_OFFSET = 3.1669;

double report_win_percent(int score_mover) {
    return review_win_percent(score_mover); // the review's judgement, its scale included
}

// The mover's winning chances given away by ply i (0 for the engine's move).
static double chance_lost(const ReviewPly *p, Color mover) {
    if (p->loss == 0)
        return 0.0;
    int sign = mover == WHITE ? 1 : -1;
    double before = report_win_percent(sign * p->best_score_white);
    double after = report_win_percent(sign * p->score_white);
    return before > after ? before - after : 0.0;
}

static double move_accuracy(double lost) {
    double a = ACC_SCALE * exp(-ACC_DECAY * lost) - ACC_OFFSET;
    return a < 0 ? 0 : a > 100 ? 100 : a;
}

static int mark_index(int nag) {
    switch (nag) {
    case REVIEW_NAG_INACCURACY: return 0;
    case REVIEW_NAG_MISTAKE: return 1;
    case REVIEW_NAG_BLUNDER: return 2;
    default: return -1;
    }
}

void report_build(const ReviewPly *plies, int n, Color first, GameReport *out) {
    memset(out, 0, sizeof *out);
    out->plies = n;
    double sum[2] = { 0, 0 };
    double drops[REPORT_MOMENTS];
    for (int i = 0; i < n; i++) {
        Color mover = (Color)((int)first ^ (i & 1));
        double lost = chance_lost(&plies[i], mover);
        out->moves[mover]++;
        sum[mover] += move_accuracy(lost);
        int mark = mark_index(plies[i].nag);
        if (mark >= 0)
            out->marks[mover][mark]++;
        // Keep the biggest swings, largest first.
        if (lost < REPORT_MOMENT_MIN_DROP || plies[i].best == MOVE_NONE)
            continue;
        int at = out->moment_count;
        while (at > 0 && drops[at - 1] < lost)
            at--;
        if (at >= REPORT_MOMENTS)
            continue;
        int last = out->moment_count < REPORT_MOMENTS ? out->moment_count : REPORT_MOMENTS - 1;
        for (int j = last; j > at; j--) {
            drops[j] = drops[j - 1];
            out->moments[j] = out->moments[j - 1];
        }
        drops[at] = lost;
        out->moments[at] = i;
        if (out->moment_count < REPORT_MOMENTS)
            out->moment_count++;
    }
    for (int c = 0; c < 2; c++)
        out->accuracy[c] = out->moves[c] ? sum[c] / out->moves[c] : -1.0;
    // Told in the order they happened.
    for (int i = 1; i < out->moment_count; i++)
        for (int j = i; j > 0 && out->moments[j - 1] > out->moments[j]; j--) {
            int t = out->moments[j];
            out->moments[j] = out->moments[j - 1];
            out->moments[j - 1] = t;
        }
}

// ------------------------------------------------------------ the text

static const char *tag_or(const PgnGame *g, const char *name, const char *fallback) {
    const char *v = pgn_tag(g, name);
    return v && v[0] && strcmp(v, "?") != 0 ? v : fallback;
}

static void put_side(StrBuf *t, const GameReport *r, Color c) {
    const char *name = c == WHITE ? "White" : "Black";
    if (r->accuracy[c] < 0) {
        strbuf_printf(t, "%s: no moves\n", name);
        return;
    }
    const int *m = r->marks[c];
    strbuf_printf(t, "%s: accuracy %.0f%% over %d %s; %d %s (?!), %d %s (?), %d %s (?\?)\n", name,
                  r->accuracy[c], r->moves[c], text_plural(r->moves[c], "move", "moves"), m[0],
                  text_plural(m[0], "inaccuracy", "inaccuracies"), m[1],
                  text_plural(m[1], "mistake", "mistakes"), m[2],
                  text_plural(m[2], "blunder", "blunders"));
}

// White's winning chances after each ply, one column per ply (or per group
// of plies on long games), rows from White winning down to Black winning.
static void put_graph(StrBuf *t, const ReviewPly *plies, int n) {
    if (n < 2)
        return;
    int cols = n < REPORT_GRAPH_COLS ? n : REPORT_GRAPH_COLS;
    double chance[REPORT_GRAPH_COLS];
    for (int c = 0; c < cols; c++) {
        int from = c * n / cols, to = (c + 1) * n / cols; // plies [from, to)
        double sum = 0;
        for (int i = from; i < to; i++)
            sum += report_win_percent(plies[i].score_white);
        chance[c] = sum / (to - from);
    }
    enum { HALF = REPORT_GRAPH_ROWS / 2 };
    strbuf_printf(t, "\nWhite's winning chances after each move (%d plies%s):\n", n,
                  n > cols ? ", several per column" : "");
    for (int row = HALF; row >= -HALF; row--) {
        const char *axis = row == HALF ? "White |" : row == -HALF ? "Black |" : "      |";
        strbuf_printf(t, "%s", row == 0 ? "  50% +" : axis);
        for (int c = 0; c < cols; c++) {
            // Each row is a band of 50/HALF points; a bar fills the bands
            // between the zero line and the chance.
            double level = (chance[c] - 50.0) / (50.0 / (HALF + 0.5));
            bool filled = row > 0 ? level >= row - 0.5 : row < 0 ? level <= row + 0.5 : false;
            strbuf_printf(t, "%c", filled ? '#' : row == 0 ? '-' : ' ');
        }
        strbuf_printf(t, "\n");
    }
}

// The number before a ply's move: "12. " for White, "12... " for Black.
static void move_number(const Board *b, char *buf, size_t bufsz) {
    snprintf(buf, bufsz, "%d.%s ", b->fullmove, b->side == WHITE ? "" : "..");
}

static void put_moments(StrBuf *t, const GameReport *r, const ReviewPly *plies, const PgnGame *g) {
    if (r->moment_count == 0) {
        strbuf_printf(t, "\nNo single move swung the game.\n");
        return;
    }
    strbuf_printf(t, "\nThe moments that decided the game:\n");
    Board b;
    if (!board_set_fen(&b, pgn_start_fen(g), NULL, 0))
        return;
    int next = 0;
    for (int i = 0; i < r->plies && next < r->moment_count; i++) {
        if (i == r->moments[next]) {
            const ReviewPly *p = &plies[i];
            char num[16], san[MOVE_TEXT_MAX], best[MOVE_TEXT_MAX], before[16], after[16];
            move_number(&b, num, sizeof num);
            notation_to_san(&b, p->played, san);
            notation_to_san(&b, p->best, best);
            review_format_score(p->best_score_white, before, sizeof before);
            review_format_score(p->score_white, after, sizeof after);
            const char *word = review_nag_word(p->nag);
            strbuf_printf(t, "%d. %s%s%s (%s to %s)%s%s. Better was %s: ", next + 1, num, san,
                          p->nag == REVIEW_NAG_BLUNDER      ? "??"
                          : p->nag == REVIEW_NAG_MISTAKE    ? "?"
                          : p->nag == REVIEW_NAG_INACCURACY ? "?!"
                                                            : "",
                          before, after, word ? ", " : "", word ? word : "", best);
            char line[512];
            int len = p->best_line_len < MOMENT_LINE_PLIES ? p->best_line_len : MOMENT_LINE_PLIES;
            notation_line(&b, p->best_line, len, line, sizeof line);
            strbuf_printf(t, "%s\n", line);
            next++;
        }
        if (pgn_mainline_move(g, i) != plies[i].played)
            return; // the game is not the one reviewed
        board_play(&b, plies[i].played);
    }
}

char *report_format(const GameReport *r, const ReviewPly *plies, const PgnGame *g,
                    const char *opening, const char *reviewer) {
    StrBuf t = { 0 };
    strbuf_printf(&t, "Game report\n");
    strbuf_printf(&t, "%s - %s  %s", tag_or(g, "White", "White"), tag_or(g, "Black", "Black"),
                  pgn_result(g));
    const char *date = tag_or(g, "Date", NULL);
    if (date)
        strbuf_printf(&t, "  (%s)", date);
    strbuf_printf(&t, "\n");
    if (opening && opening[0])
        strbuf_printf(&t, "Opening: %s\n", opening);
    if (reviewer && reviewer[0])
        strbuf_printf(&t, "Reviewed by %s\n", reviewer);
    strbuf_printf(&t, "\n");
    put_side(&t, r, WHITE);
    put_side(&t, r, BLACK);
    put_graph(&t, plies, r->plies);
    put_moments(&t, r, plies, g);
    return strbuf_take(&t, NULL);
}
