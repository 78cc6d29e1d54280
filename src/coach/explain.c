// SPDX-License-Identifier: GPL-3.0-or-later
// `why`: sentences from searches and board facts, each with its line.
#include "src/coach/explain.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/attacks.h"
#include "engine/bitboard.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/see.h"

enum { LINE_TEXT_MAX = 256 };

// Material in pawns as players count it (the king counts nothing).
static const int PIECE_POINTS[PIECE_TYPE_NB] = { 1, 3, 3, 5, 9, 0 };
static const char *const PIECE_NAMES[PIECE_TYPE_NB] = { "pawn", "knight", "bishop",
                                                        "rook", "queen",  "king" };
static const char *const SIDE_NAMES[COLOR_NB] = { "White", "Black" };

typedef struct Found {
    SearchInfo info; // the first line of the deepest complete iteration
    bool have;
} Found;

// Searches b (keys: the positions before it) to the options' limits, at full
// strength in analysis mode (engine_search keeps the engine's own options).
static bool search(Engine *e, const Board *b, const Key *keys, int nkeys, int depth_less,
                   const ExplainOptions *opt, Found *f) {
    memset(f, 0, sizeof *f);
    EngineResult *res = malloc(sizeof *res);
    if (!res)
        return false;
    EngineQuery q;
    engine_query_init(&q);
    q.limits.depth = opt->depth - depth_less > 1 ? opt->depth - depth_less : 1;
    q.limits.nodes = opt->nodes;
    engine_set_position(e, b, keys, nkeys);
    if (engine_search(e, &q, res) && res->line_count > 0) {
        const EngineLine *l = &res->lines[0];
        f->info.depth = res->depth;
        f->info.multipv = 1;
        f->info.score = l->score;
        f->info.mate = l->mate;
        f->info.bound = BOUND_EXACT;
        f->info.pv_length = l->pv_length;
        memcpy(f->info.pv, l->pv, (size_t)l->pv_length * sizeof l->pv[0]);
        f->have = true;
    }
    free(res);
    return f->have;
}

// ------------------------------------------------------------ text

static void say(Explanation *x, Move shown, const char *fmt, ...) {
    size_t len = strlen(x->text);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(x->text + len, sizeof x->text - len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n + 2 >= sizeof x->text - len) {
        x->text[len] = '\0'; // a sentence is whole or not there
        return;
    }
    strcat(x->text, "\n");
    if (x->sentences++ == 0)
        x->shown = shown;
}

static void line_text(const Board *b, const Move *moves, int n, char *out) {
    notation_line(b, moves, n < EXPLAIN_LINE_PLIES ? n : EXPLAIN_LINE_PLIES, out, LINE_TEXT_MAX);
}

// How much of a line tells its point: up to the last capture, check or
// promotion and the reply to it, at most EXPLAIN_LINE_PLIES moves (at least
// `least`).
static int forcing_span(const Board *b, const Move *moves, int n, int least) {
    Board at = *b;
    int last = 0;
    for (int i = 0; i < n && i < EXPLAIN_LINE_PLIES - 1; i++) {
        if (!movegen_is_legal(&at, moves[i]))
            break;
        if (board_is_capture(&at, moves[i]) || move_is_promotion(moves[i]) ||
            board_gives_check(&at, moves[i]))
            last = i + 1;
        board_play(&at, moves[i]);
    }
    int span = last < n ? last + 1 : last;
    span = span > least ? span : least;
    return span < n ? span : n;
}

static void square_text(Square s, char out[3]) {
    square_name(s, out);
}

static const char *piece_on(const Board *b, Square s) {
    return PIECE_NAMES[piece_type(board_piece_on(b, s))];
}

// "+0.35", "-1.20", "mate in 3", "mated in 2" from the side's view.
static void score_text(int score, int mate, char *out, size_t outsz) {
    if (mate > 0)
        snprintf(out, outsz, "mate in %d", mate);
    else if (mate < 0)
        snprintf(out, outsz, "mated in %d", -mate);
    else
        snprintf(out, outsz, "%+.2f", score / 100.0);
}

// A score on one scale with mates beyond every evaluation, for differences.
static int comparable(const SearchInfo *i) {
    if (i->mate > 0)
        return 3000 - i->mate;
    if (i->mate < 0)
        return -3000 - i->mate;
    return i->score > 2000 ? 2000 : i->score < -2000 ? -2000 : i->score;
}

// ------------------------------------------------------------ material

typedef struct Gains {
    int points[COLOR_NB]; // material each side took along the line
    int count[COLOR_NB][PIECE_TYPE_NB];
} Gains;

// What each side captures along the first n moves of a line from b.
static Gains line_gains(const Board *b, const Move *moves, int n) {
    Gains g = { 0 };
    Board at = *b;
    for (int i = 0; i < n && i < EXPLAIN_LINE_PLIES; i++) {
        if (!movegen_is_legal(&at, moves[i]))
            break;
        Piece taken = board_captured_piece(&at, moves[i]);
        if (taken != NO_PIECE) {
            g.points[at.side] += PIECE_POINTS[piece_type(taken)];
            g.count[at.side][piece_type(taken)]++;
        }
        if (move_is_promotion(moves[i]))
            g.points[at.side] += PIECE_POINTS[move_promotion(moves[i])] - 1;
        board_play(&at, moves[i]);
    }
    return g;
}

// "a knight and a pawn": the pieces side took.
static void taken_text(const Gains *g, Color side, char *out, size_t outsz) {
    out[0] = '\0';
    size_t len = 0;
    int kinds = 0;
    for (int t = QUEEN; t >= PAWN; t--) {
        int n = g->count[side][t];
        if (!n)
            continue;
        int k = snprintf(out + len, outsz - len, "%s%s%s%s", kinds ? " and " : "",
                         n == 1   ? "a "
                         : n == 2 ? "two "
                                  : "three or more ",
                         PIECE_NAMES[t], n > 1 ? "s" : "");
        if (k < 0 || (size_t)k >= outsz - len)
            return;
        len += (size_t)k;
        kinds++;
    }
    if (!kinds)
        snprintf(out, outsz, "nothing");
}

// ------------------------------------------------------------ board facts

static Bitboard defenders_of(const Board *b, Square s, Color side) {
    return board_attackers_to(b, s, board_occupied(b)) & b->colors[side];
}

// A fork by the piece on `at` (the side not to move): the targets it
// attacks that are the king, worth more than it, or undefended.
static void say_fork(Explanation *x, const Board *after, Square at, const char *san, Move shown) {
    Piece p = board_piece_on(after, at);
    if (p == NO_PIECE)
        return;
    Color us = piece_color(p), them = (Color)!us;
    PieceType type = piece_type(p);
    Bitboard attacked =
        type == PAWN ? attacks_pawn(us, at) : attacks_piece(type, at, board_occupied(after));
    Bitboard targets = 0;
    for (Bitboard t = attacked & after->colors[them]; t;) {
        Square s = bb_pop(&t);
        PieceType tt = piece_type(board_piece_on(after, s));
        if (tt == KING || PIECE_POINTS[tt] > PIECE_POINTS[type] ||
            (tt != PAWN && !defenders_of(after, s, them)))
            targets |= bb_square(s);
    }
    if (bb_count(targets) < 2)
        return;
    char list[160] = "";
    size_t len = 0;
    int left = bb_count(targets);
    for (Bitboard t = targets; t; left--) {
        Square s = bb_pop(&t);
        char sq[3];
        square_text(s, sq);
        int k =
            snprintf(list + len, sizeof list - len, "%s%s on %s",
                     len ? (left == 1 ? " and the " : ", the ") : "the ", piece_on(after, s), sq);
        if (k < 0 || (size_t)k >= sizeof list - len)
            break;
        len += (size_t)k;
    }
    say(x, shown, "%s forks %s.", san, list);
}

// Pieces of `them` pinned by `us`'s sliders to the king, or to the queen
// when the pinned piece is worth less: (pinned square, pinner, target).
typedef struct Pin {
    Square pinned, by, to;
} Pin;

static int find_pins(const Board *b, Color us, Pin *out, int max) {
    Color them = (Color)!us;
    Bitboard occ = board_occupied(b);
    Bitboard diag = board_pieces(b, us, BISHOP) | board_pieces(b, us, QUEEN);
    Bitboard ortho = board_pieces(b, us, ROOK) | board_pieces(b, us, QUEEN);
    int n = 0;
    for (Bitboard targets = board_pieces(b, them, KING) | board_pieces(b, them, QUEEN); targets;) {
        Square to = bb_pop(&targets);
        PieceType target = piece_type(board_piece_on(b, to));
        Bitboard sliders = (attacks_bishop(to, 0) & diag) | (attacks_rook(to, 0) & ortho);
        for (; sliders;) {
            Square by = bb_pop(&sliders);
            Bitboard between = attacks_between(by, to) & occ;
            if (bb_count(between) != 1 || !(between & b->colors[them]))
                continue;
            Square pinned = bb_lsb(between);
            PieceType pt = piece_type(board_piece_on(b, pinned));
            PieceType pinner = piece_type(board_piece_on(b, by));
            if (target == QUEEN && (pt == QUEEN || PIECE_POINTS[pinner] >= PIECE_POINTS[QUEEN]))
                continue; // the queen behind is no loss when a queen pins it
            if (n < max)
                out[n++] = (Pin){ pinned, by, to };
        }
    }
    return n;
}

static void say_new_pins(Explanation *x, const Board *before, const Board *after, Move shown) {
    Color us = before->side;
    Pin old[16], now[16];
    int nold = find_pins(before, us, old, 16), nnow = find_pins(after, us, now, 16);
    for (int i = 0; i < nnow; i++) {
        bool was = false;
        for (int j = 0; j < nold; j++)
            was |= old[j].pinned == now[i].pinned && old[j].to == now[i].to;
        if (was)
            continue;
        char a[3], by[3], to[3];
        square_text(now[i].pinned, a);
        square_text(now[i].by, by);
        square_text(now[i].to, to);
        say(x, shown, "The %s on %s is pinned by the %s on %s to the %s on %s%s.",
            piece_on(after, now[i].pinned), a, piece_on(after, now[i].by), by,
            piece_on(after, now[i].to), to,
            piece_type(board_piece_on(after, now[i].to)) == KING ? ": it cannot move" : "");
    }
}

// The squares of the side not to move in b whose piece the side to move
// wins by exchange, with the capture of the most valuable one.
static Bitboard winning_captures(const Board *b, Move *worst) {
    MoveList list;
    movegen_legal(b, &list);
    Bitboard targets = 0;
    int worst_value = 0;
    *worst = MOVE_NONE;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        Piece taken = board_captured_piece(b, m);
        if (taken == NO_PIECE || move_kind(m) == MOVE_EN_PASSANT ||
            !see_ge(b, m, see_piece_value(PAWN)))
            continue;
        targets |= bb_square(move_to(m));
        if (see_piece_value(piece_type(taken)) > worst_value) {
            worst_value = see_piece_value(piece_type(taken));
            *worst = m;
        }
    }
    return targets;
}

// A piece of the mover that the opponent wins by exchange after the move
// and could not before it (as if the mover had passed instead).
static void say_left_hanging(Explanation *x, const Board *before, const Board *after) {
    Move worst, unused;
    Bitboard now = winning_captures(after, &worst);
    if (!now)
        return;
    Bitboard already = 0;
    if (!board_in_check(before)) {
        Board pass = *before;
        Undo u;
        board_make_null(&pass, &u);
        already = winning_captures(&pass, &unused);
    }
    // The moved piece counts as new wherever it went.
    Bitboard fresh = now & ~(already & ~bb_square(move_to(board_last_move(after))));
    if (!fresh)
        return;
    if (!(bb_square(move_to(worst)) & fresh)) {
        MoveList list;
        movegen_legal(after, &list);
        int best = 0;
        for (int i = 0; i < list.count; i++) {
            Move m = list.moves[i];
            Piece taken = board_captured_piece(after, m);
            if (taken == NO_PIECE || !(bb_square(move_to(m)) & fresh) ||
                !see_ge(after, m, see_piece_value(PAWN)) ||
                see_piece_value(piece_type(taken)) <= best)
                continue;
            best = see_piece_value(piece_type(taken));
            worst = m;
        }
    }
    char sq[3], line[LINE_TEXT_MAX];
    square_text(move_to(worst), sq);
    line_text(after, &worst, 1, line);
    say(x, worst, "The %s on %s is left en prise: %s wins it in the exchange.",
        piece_on(after, move_to(worst)), sq, line);
}

// ------------------------------------------------------------ sentences

// What a mistake allowed (the refutation found from `after`) and what was
// better; true when it allows mate or loses material (then its threats do
// not matter).
static bool say_mistake(Explanation *x, const Board *before, const Board *after,
                        const SearchInfo *best, const SearchInfo *refutation, const char *san) {
    Color us = before->side, them = (Color)!us;
    char line[LINE_TEXT_MAX], was[32], now[32];
    int span = forcing_span(after, refutation->pv, refutation->pv_length, 2);
    line_text(after, refutation->pv, span, line);
    score_text(best->score, best->mate, was, sizeof was);
    score_text(-refutation->score, -refutation->mate, now, sizeof now);
    Gains g = line_gains(after, refutation->pv, span);
    int net = g.points[them] - g.points[us];
    bool decisive = refutation->mate > 0 || net > 0;
    if (refutation->mate > 0) {
        say(x, refutation->pv[0], "%s allows mate in %d: %s.", san, refutation->mate, line);
    } else if (net > 0) {
        char took[96], gave[96];
        taken_text(&g, them, took, sizeof took);
        taken_text(&g, us, gave, sizeof gave);
        say(x, refutation->pv[0], "%s loses material: after %s %s has won %s for %s (%d point%s).",
            san, line, SIDE_NAMES[them], took, gave, net, net == 1 ? "" : "s");
    } else {
        // Ground given away, or the advantage itself when it no longer holds.
        int after_score = -refutation->score;
        bool lost_it = refutation->mate == 0 && best->mate >= 0 &&
                       (best->mate > 0 || best->score >= 100) && after_score < 100;
        say(x, refutation->pv[0],
            "%s gives away %s: the score goes from %s to %s for %s; the engine's answer: %s.", san,
            lost_it ? "the advantage" : "ground", was, now, SIDE_NAMES[us], line);
    }
    char better[LINE_TEXT_MAX];
    line_text(before, best->pv, forcing_span(before, best->pv, best->pv_length, 3), better);
    char first[MOVE_TEXT_MAX];
    notation_to_san(before, best->pv[0], first);
    if (best->mate > 0)
        say(x, best->pv[0], "It missed a mate in %d: %s.", best->mate, better);
    else
        say(x, best->pv[0], "%s was better (%s for %s instead of %s): %s.", first, was,
            SIDE_NAMES[us], now, better);
    return decisive;
}

// What the mover threatens: its best line if it could move again.
static void say_threat(Explanation *x, Engine *e, const Board *after, const Key *keys, int nkeys,
                       const SearchInfo *reply, const ExplainOptions *opt, const char *san) {
    if (board_in_check(after))
        return;
    Board pass = *after;
    Undo u;
    board_make_null(&pass, &u);
    Found threat;
    if (!search(e, &pass, keys, nkeys, 2, opt, &threat))
        return;
    const SearchInfo *t = &threat.info;
    Color us = pass.side;
    char line[LINE_TEXT_MAX];
    int span = forcing_span(&pass, t->pv, t->pv_length, 1);
    line_text(&pass, t->pv, span, line);
    if (t->mate > 0) {
        say(x, t->pv[0], "%s threatens mate in %d: %s.", san, t->mate, line);
        return;
    }
    // A threat is only one if it gains on what the opponent can do now.
    int now = -comparable(reply);
    if (comparable(t) - now < EXPLAIN_THREAT_CP)
        return;
    Gains g = line_gains(&pass, t->pv, span);
    int net = g.points[us] - g.points[!us];
    if (net <= 0)
        return;
    // What the opponent takes back on the way is said too: "two pawns" alone would
    // overstate a line that nets one.
    char took[96], gave[96];
    taken_text(&g, us, took, sizeof took);
    if (g.points[!us] > 0) {
        taken_text(&g, (Color)!us, gave, sizeof gave);
        say(x, t->pv[0], "%s threatens to win %s for %s: %s.", san, took, gave, line);
    } else {
        say(x, t->pv[0], "%s threatens to win %s: %s.", san, took, line);
    }
}

bool explain_move(Engine *e, const Board *before, const Key *keys, int nkeys, Move played,
                  const ExplainOptions *opt, Explanation *out) {
    memset(out, 0, sizeof *out);
    out->shown = MOVE_NONE;
    if (!movegen_is_legal(before, played)) {
        snprintf(out->text, sizeof out->text, "That move is not legal here.\n");
        return false;
    }
    char san[MOVE_TEXT_MAX + 16], move[MOVE_TEXT_MAX];
    notation_to_san(before, played, move);
    snprintf(san, sizeof san, "%d%s %s", before->fullmove, before->side == WHITE ? "." : "...",
             move);
    Board after = *before;
    board_play(&after, played);
    MoveList replies;
    movegen_legal(&after, &replies);
    if (replies.count == 0) {
        say(out, played, board_in_check(&after) ? "%s is checkmate." : "%s is stalemate: a draw.",
            san);
        return true;
    }
    Key *history = malloc(((size_t)nkeys + 2) * sizeof *history);
    if (!history) {
        snprintf(out->text, sizeof out->text, "Out of memory explaining the move.\n");
        return true;
    }
    if (nkeys)
        memcpy(history, keys, (size_t)nkeys * sizeof *history);
    history[nkeys] = before->key;
    Found best, reply;
    bool decisive = false;
    bool have_best = search(e, before, keys, nkeys, 0, opt, &best);
    bool have_reply = search(e, &after, history, nkeys + 1, 0, opt, &reply);
    if (have_best && have_reply && best.info.pv[0] != played) {
        SearchInfo played_score = { .score = -reply.info.score, .mate = -reply.info.mate };
        if (comparable(&best.info) - comparable(&played_score) >= EXPLAIN_MISTAKE_CP) {
            out->mistake = true;
            decisive = say_mistake(out, before, &after, &best.info, &reply.info, san);
        }
    }
    if (board_in_check(&after)) {
        char line[LINE_TEXT_MAX] = "";
        if (have_reply)
            line_text(&after, reply.info.pv, reply.info.pv_length, line);
        say(out, played, "%s gives check%s%s.", san, line[0] ? "; the best answer: " : "", line);
    }
    if (have_reply && !decisive) {
        history[nkeys + 1] = after.key;
        say_threat(out, e, &after, history, nkeys + 2, &reply.info, opt, san);
    }
    if (move_kind(played) != MOVE_CASTLING)
        say_fork(out, &after, move_to(played), san, played);
    say_new_pins(out, before, &after, played);
    say_left_hanging(out, before, &after);
    free(history);
    if (out->sentences == 0) {
        char line[LINE_TEXT_MAX] = "";
        if (have_reply)
            line_text(&after, reply.info.pv, reply.info.pv_length, line);
        say(out, have_reply ? reply.info.pv[0] : MOVE_NONE,
            "%s threatens nothing the engine can prove, and gives nothing away%s%s.", san,
            line[0] ? "; play may go on with " : "", line);
    }
    return true;
}
