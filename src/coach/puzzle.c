// SPDX-License-Identifier: GPL-3.0-or-later
// Puzzles from mistakes: candidates from a review, kept when a two-line
// search shows one move clearly best, and the forcing line after it.
#include "src/coach/puzzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "src/game/review.h"
#include "src/game/theory.h"

enum { DEPTH_SLOTS = 128 };

// What one iteration reported for a line (1 or 2).
typedef struct Slot {
    bool have;
    int score; // review scale, mover's view
    Move move;
} Slot;

// The lines of one search by depth, seen by engine_search's observer on the
// search thread, read once it has returned.
typedef struct Capture {
    Slot lines[DEPTH_SLOTS][2];
    int max_depth;
} Capture;

static int clamp(int v, int lo, int hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

static int scale(const EngineLine *info) {
    if (info->mate > 0)
        return REVIEW_MATE - info->mate;
    if (info->mate < 0)
        return -REVIEW_MATE - info->mate;
    return clamp(info->score, -REVIEW_EVAL_MAX, REVIEW_EVAL_MAX);
}

static void on_info(const SearchInfo *info, void *ctx) {
    Capture *c = ctx;
    if (info->bound != BOUND_EXACT || info->pv_length < 1 || info->multipv < 1 ||
        info->multipv > 2 || info->depth < 0 || info->depth >= DEPTH_SLOTS)
        return;
    EngineLine line = { .score = info->score, .mate = info->mate };
    c->lines[info->depth][info->multipv - 1] =
        (Slot){ .have = true, .score = scale(&line), .move = info->pv[0] };
    if (info->depth > c->max_depth)
        c->max_depth = info->depth;
}

static bool is_mate(int s) {
    return s > REVIEW_EVAL_MAX;
}

// The rule of puzzle.h's Method.
static bool clearly_better(int best, int second) {
    if (is_mate(best)) // scores REVIEW_MATE - N: a mate 2 moves slower is far enough
        return !is_mate(second) || best - second >= PUZZLE_MATE_MARGIN;
    int b = clamp(best, -REVIEW_LOSS_CAP, REVIEW_LOSS_CAP);
    int s = clamp(second, -REVIEW_LOSS_CAP, REVIEW_LOSS_CAP);
    return b - s >= PUZZLE_MARGIN_CP && s < PUZZLE_SECOND_MAX_CP;
}

void puzzle_options_default(PuzzleOptions *opt) {
    *opt = (PuzzleOptions){ .review_depth = PUZZLE_REVIEW_DEPTH,
                            .verify_depth = PUZZLE_VERIFY_DEPTH,
                            .max_moves = PUZZLE_MOVES_MAX,
                            .sides = { true, true } };
}

bool puzzle_clear_best(Engine *e, const Line *l, int depth, PuzzleCheck *out) {
    memset(out, 0, sizeof *out);
    MoveList moves;
    movegen_legal(&l->board, &moves);
    if (moves.count < 2)
        return false;
    Capture *c = calloc(1, sizeof *c);
    EngineResult *res = malloc(sizeof *res);
    if (!c || !res) {
        free(c);
        free(res);
        return false;
    }
    EngineQuery q;
    engine_query_init(&q);
    q.limits.depth = depth;
    q.multipv = 2;
    q.on_info = on_info;
    q.ctx = c;
    engine_set_position(e, &l->board, l->keys, l->ply);
    bool have_last = engine_search(e, &q, res) && res->line_count > 0;
    const EngineLine *last = &res->lines[0];

    int d = c->max_depth;
    bool ok = have_last && c->lines[d][0].have;
    if (ok) {
        const Slot *best = &c->lines[d][0], *second = &c->lines[d][1];
        out->best = best->move;
        out->best_score = best->score;
        out->has_second = second->have;
        out->second_score = second->score;
        out->clear = second->have && clearly_better(best->score, second->score);
        // The first depth of the unbroken run of clear verdicts for this move.
        out->settled_depth = d;
        for (int k = d; k >= 1; k--) {
            const Slot *a = &c->lines[k][0], *b = &c->lines[k][1];
            if (!a->have || !b->have || a->move != best->move ||
                !clearly_better(a->score, b->score))
                break;
            out->settled_depth = k;
        }
        // The line, as far as its moves are legal (part of it comes from the table).
        Board scratch = l->board;
        for (int i = 0; i < last->pv_length && i < PUZZLE_PLIES_MAX + 1; i++) {
            if (!movegen_is_legal(&scratch, last->pv[i]))
                break;
            out->pv[out->pv_length++] = last->pv[i];
            board_play(&scratch, last->pv[i]);
        }
        if (out->pv_length == 0 || out->pv[0] != out->best)
            out->clear = false; // the reports disagree: no verdict
    }
    free(c);
    free(res);
    return ok && out->clear;
}

static bool game_over(const Board *b) {
    MoveList list;
    movegen_legal(b, &list);
    return list.count == 0;
}

static bool is_quiet(const Board *b, Move m) {
    if (board_piece_on(b, move_to(m)) != NO_PIECE || move_kind(m) == MOVE_EN_PASSANT)
        return false;
    Board after = *b;
    board_play(&after, m);
    return !board_in_check(&after);
}

// The solution from the position of l (which it changes): true with p's
// moves and rating when the first move is clearly best and not `played`.
static bool build(Engine *e, Line *l, Move played, const PuzzleOptions *opt, Puzzle *p) {
    PuzzleCheck check;
    if (!puzzle_clear_best(e, l, opt->verify_depth, &check) || check.best == played)
        return false;
    int settled = check.settled_depth;
    bool quiet = is_quiet(&l->board, check.best);
    int max_moves = clamp(opt->max_moves, 1, PUZZLE_MOVES_MAX);
    p->length = 0;
    for (int moves = 1;; moves++) {
        p->solution[p->length++] = check.best;
        if (moves == max_moves || check.pv_length < 2)
            break;
        Move reply = check.pv[1];
        line_play(l, check.best);
        if (game_over(&l->board) || !movegen_is_legal(&l->board, reply))
            break;
        line_play(l, reply);
        if (game_over(&l->board) || (opt->cancel && atomic_load(opt->cancel)))
            break;
        PuzzleCheck next;
        if (!puzzle_clear_best(e, l, opt->verify_depth, &next))
            break;
        p->solution[p->length++] = reply;
        check = next;
    }
    int rating = 800 + 60 * settled + 150 * (p->length / 2) + (quiet ? 100 : 0);
    p->rating = clamp(rating, PUZZLE_RATING_MIN, PUZZLE_RATING_MAX);
    return true;
}

// A mistake or a blunder, as the review judges it.
static bool is_candidate(const ReviewPly *r) {
    return r->best != MOVE_NONE && r->best != r->played && r->played != MOVE_NULL &&
           review_is_mistake(r);
}

static bool cancelled(const PuzzleOptions *opt) {
    return opt->cancel && atomic_load(opt->cancel);
}

static bool stop_review(int done, int total, void *ctx) {
    (void)done, (void)total;
    return !cancelled(ctx);
}

// A puzzle of the position of l when build() keeps it; source names the
// move that led to it (after) or the one played instead (else).
static bool keep(Engine *e, const Line *l, Move avoid, Move played, const PuzzleOptions *opt,
                 const char *source, bool after, const Board *named, Move move, Puzzle *p) {
    Line *work = malloc(sizeof *work);
    if (!work)
        return false;
    *work = *l;
    memset(p, 0, sizeof *p);
    board_to_fen(&l->board, p->fen, sizeof p->fen);
    bool ok = build(e, work, avoid, opt, p);
    free(work);
    if (!ok)
        return false;
    p->played = played != MOVE_NONE ? played : p->solution[0];
    char san[MOVE_TEXT_MAX];
    notation_to_san(named, move, san);
    snprintf(p->source, sizeof p->source, "%s %s%d%s %s", source, after ? "after " : "",
             named->fullmove, named->side == WHITE ? "." : "...", san);
    return true;
}

void puzzle_review_options(const PuzzleOptions *opt, const PgnGame *g, ReviewOptions *out) {
    review_options_default(out);
    // One engine: the miner already searches a game per core. The check of a mistake goes
    // as deep as the puzzle's own verification, not 4 plies deeper than the quick pass: as
    // many puzzles for half the time (40 games: 21 against 20 lines, 17 against 37 CPU s).
    out->nodes = 0;
    out->verify_nodes = 0;
    out->depth = opt->review_depth;
    out->verify_depth = opt->verify_depth;
    out->threads = 1;
    out->book_plies = theory_plies(g, opt->openings, opt->book);
    out->builtin_net = opt->builtin_net;
    out->progress = opt->cancel ? stop_review : NULL;
    out->ctx = (void *)opt;
}

int puzzle_find(Engine *e, const PgnGame *g, const char *source, const PuzzleOptions *opt,
                Puzzle *out, int max) {
    int total = pgn_mainline_length(g);
    if (total == 0)
        return 0;
    ReviewPly *plies = calloc((size_t)total, sizeof *plies);
    Line *l = malloc(sizeof *l);
    Board start;
    if (!plies || !l || !pgn_position_at(g, 0, &start)) {
        free(plies);
        free(l);
        return plies && l ? 0 : -1;
    }
    ReviewOptions ropt;
    puzzle_review_options(opt, g, &ropt);
    int n = review_game(e, g, &ropt, plies);
    int found = 0;
    line_init(l, &start);
    for (int ply = 0; ply < n && found < max && !cancelled(opt); ply++) {
        Color mover = l->board.side;
        const ReviewPly *r = &plies[ply];
        Board before = l->board;
        if (opt->sides[mover] && is_candidate(r) &&
            keep(e, l, r->played, r->played, opt, source, false, &before, r->played, &out[found]))
            found++;
        line_play(l, pgn_mainline_node(g, ply)->move);
        // The same mistake for the other side: the position after it.
        bool mistake = review_is_mistake(r);
        if (opt->punish && mistake && opt->sides[!mover] && found < max && !cancelled(opt) &&
            r->played != MOVE_NULL &&
            keep(e, l, MOVE_NONE, ply + 1 < n ? plies[ply + 1].played : MOVE_NONE, opt, source,
                 true, &before, r->played, &out[found]))
            found++;
    }
    free(plies);
    free(l);
    return found;
}

int puzzle_refutation(Engine *e, const Board *b, int depth, Move *line, int max, int *score) {
    *score = 0;
    if (game_over(b))
        return 0;
    EngineResult *res = malloc(sizeof *res);
    if (!res)
        return 0;
    EngineQuery q;
    engine_query_init(&q);
    q.limits.depth = depth;
    engine_set_position(e, b, NULL, 0);
    int n = 0;
    if (engine_search(e, &q, res) && res->line_count > 0) {
        const EngineLine *last = &res->lines[0];
        *score = scale(last);
        Board scratch = *b;
        for (int i = 0; i < last->pv_length && n < max; i++) {
            if (!movegen_is_legal(&scratch, last->pv[i]))
                break;
            line[n++] = last->pv[i];
            board_play(&scratch, last->pv[i]);
        }
    }
    free(res);
    return n;
}

static bool gives_mate(const Board *b, Move m) {
    Board after = *b;
    board_play(&after, m);
    return board_in_check(&after) && game_over(&after);
}

bool puzzle_move_is_right(const Puzzle *p, int ply, const Board *b, Move m) {
    if (ply < 0 || ply >= p->length || ply % 2 != 0 || !movegen_is_legal(b, m))
        return false;
    return m == p->solution[ply] || gives_mate(b, m);
}

bool puzzle_solution_text(const Puzzle *p, char *buf, size_t bufsz) {
    Board b;
    if (!board_set_fen(&b, p->fen, NULL, 0))
        return false;
    return notation_line(&b, p->solution, p->length, buf, bufsz) == p->length;
}
