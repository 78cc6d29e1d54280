// SPDX-License-Identifier: GPL-3.0-or-later
// Game review: one search per position of the main line, moves judged by the
// evaluation they gave away, and the result written into the game.
#include "src/game/review.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/line.h"
#include "engine/movegen.h"
#include "src/game/outcome.h"

enum {
    VARIATION_PLIES = 10, // moves of the engine's line written as a variation
    OPTION_TEXT_MAX = 32,
};

// What one search (or the rules) said about a position.
typedef struct PositionEval {
    int score_white;
    int mate_white;
    int depth;
    Move line[REVIEW_LINE_MAX];
    int line_len;
} PositionEval;

static bool is_mate_score(int s) {
    return s > REVIEW_EVAL_MAX || s < -REVIEW_EVAL_MAX;
}

static int clamp(int v, int lo, int hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

// A game over by the rules (outcome.h): the endings they impose, and at the
// end of the game (where a draw was claimed) the claimable ones. Fills ev and
// returns true.
static bool rules_eval(const Line *l, bool last, PositionEval *ev) {
    const Board *b = &l->board;
    Outcome o = last ? outcome_with_claims(b, l->keys, l->ply)
                     : outcome_forced(b, l->keys, l->ply);
    if (o.end == END_NONE)
        return false;
    ev->score_white = o.result == RESULT_WHITE_WINS   ? REVIEW_MATE
                      : o.result == RESULT_BLACK_WINS ? -REVIEW_MATE
                                                      : 0;
    return true;
}

// Searches the line's position (with its history) and fills ev; false when
// the evaluator failed.
static bool analyse(const ReviewEvaluator *re, const Line *l, bool last, const ReviewOptions *opt,
                    ReviewSearch *found, PositionEval *ev) {
    const Board *b = &l->board;
    memset(ev, 0, sizeof *ev);
    if (rules_eval(l, last, ev))
        return true;
    SearchLimits limits;
    search_limits_init(&limits);
    limits.movetime = opt->movetime_ms;
    limits.depth = opt->depth;
    memset(found, 0, sizeof *found);
    if (!re->search(re->ctx, l, &limits, found))
        return false;

    int side = b->side == WHITE ? 1 : -1;
    if (!found->scored) {
        // Stopped before the first iteration: only the move is known.
        if (found->best != MOVE_NONE && movegen_is_legal(b, found->best)) {
            ev->line[0] = found->best;
            ev->line_len = 1;
        }
        return true;
    }
    int score;
    if (found->mate > 0)
        score = REVIEW_MATE - found->mate;
    else if (found->mate < 0)
        score = -REVIEW_MATE - found->mate;
    else
        score = clamp(found->score, -REVIEW_EVAL_MAX, REVIEW_EVAL_MAX);
    ev->score_white = side * score;
    ev->mate_white = side * found->mate;
    ev->depth = found->depth;

    // The line, as far as its moves are legal (the built-in engine's comes
    // from the hash table in part, another engine's from another program).
    Board scratch = *b;
    for (int i = 0; i < found->pv_length && i < REVIEW_LINE_MAX; i++) {
        if (!movegen_is_legal(&scratch, found->pv[i]))
            break;
        ev->line[ev->line_len++] = found->pv[i];
        board_play(&scratch, found->pv[i]);
    }
    return true;
}

double review_win_percent(int score) {
    int cp = clamp(score, -REVIEW_CP_CAP, REVIEW_CP_CAP); // a mate counts as the cap
    return 50.0 + 50.0 * (2.0 / (1.0 + exp(-0.00368208 * cp)) - 1.0);
}

int review_judge(int best, int played, int *loss, int *loss_wc) {
    int lost = clamp(best, -REVIEW_LOSS_CAP, REVIEW_LOSS_CAP) -
               clamp(played, -REVIEW_LOSS_CAP, REVIEW_LOSS_CAP);
    if (lost < 0)
        lost = 0;
    if (loss)
        *loss = lost;
    double wc = review_win_percent(best) - review_win_percent(played);
    int lost_wc = wc > 0 ? (int)(wc * 10.0 + 0.5) : 0;
    if (loss_wc)
        *loss_wc = lost_wc;

    bool best_mates = best > REVIEW_EVAL_MAX, best_mated = best < -REVIEW_EVAL_MAX;
    bool played_mates = played > REVIEW_EVAL_MAX, played_mated = played < -REVIEW_EVAL_MAX;
    if (best_mates && !played_mates) {
        // A forced mate given up.
        if (played < REVIEW_DECIDED_CP)
            return REVIEW_NAG_BLUNDER;
        return played < 2 * REVIEW_DECIDED_CP ? REVIEW_NAG_MISTAKE : REVIEW_NAG_INACCURACY;
    }
    if (played_mated && !best_mated) {
        // Walked into a forced mate.
        if (best > -REVIEW_DECIDED_CP)
            return REVIEW_NAG_BLUNDER;
        return best > -2 * REVIEW_DECIDED_CP ? REVIEW_NAG_MISTAKE : REVIEW_NAG_INACCURACY;
    }
    if (best_mates || best_mated || played_mates || played_mated)
        return 0; // a slower mate, or mated either way
    if (lost_wc >= REVIEW_BLUNDER_WC)
        return REVIEW_NAG_BLUNDER;
    if (lost_wc >= REVIEW_MISTAKE_WC)
        return REVIEW_NAG_MISTAKE;
    return lost_wc >= REVIEW_INACCURACY_WC ? REVIEW_NAG_INACCURACY : 0;
}

// Fills one reviewed ply from the evaluations before and after the move.
static void judge_ply(ReviewPly *p, Move played, Color mover, bool theory,
                      const PositionEval *before, const PositionEval *after) {
    memset(p, 0, sizeof *p);
    p->played = played;
    p->score_white = after->score_white;
    p->mate_white = after->mate_white;
    p->depth = after->depth;
    p->best = before->line_len > 0 ? before->line[0] : MOVE_NONE;
    p->best_score_white = before->score_white;
    p->best_mate_white = before->mate_white;
    memcpy(p->best_line, before->line, (size_t)before->line_len * sizeof before->line[0]);
    p->best_line_len = before->line_len;
    p->theory = theory;
    if (p->best == MOVE_NONE || p->best == played || played == MOVE_NULL)
        return; // the engine's own choice (or nothing to compare with, or no move)
    int sign = mover == WHITE ? 1 : -1;
    p->nag = review_judge(sign * before->score_white, sign * after->score_white, &p->loss,
                          &p->loss_wc);
    if (theory)
        p->nag = 0; // theory is no error, whatever a short search thinks of it
}

int review_game_with(const ReviewEvaluator *re, const PgnGame *g, const ReviewOptions *opt,
                     ReviewPly *out) {
    if (opt->movetime_ms <= 0 && opt->depth <= 0)
        return -1;
    int total = pgn_mainline_length(g);
    Line *b = malloc(sizeof *b); // the game so far, for repetitions
    ReviewSearch *found = malloc(sizeof *found);
    PositionEval *evs = malloc(2 * sizeof *evs);
    Board start;
    if (!b || !found || !evs || !pgn_position_at(g, 0, &start)) {
        free(b);
        free(found);
        free(evs);
        return -1;
    }
    line_init(b, &start);

    bool ok = !re->begin || re->begin(re->ctx);
    int done = 0;
    bool go_on = ok && (!opt->progress || opt->progress(0, total, opt->ctx));
    PositionEval *before = &evs[0], *after = &evs[1];
    if (go_on && total > 0)
        ok = analyse(re, b, total == 0, opt, found, before);
    for (; ok && go_on && done < total; done++) {
        Move m = pgn_mainline_move(g, done);
        Color mover = b->board.side;
        line_play(b, pgn_mainline_node(g, done)->move); // a null move passes the turn
        if (!analyse(re, b, done + 1 == total, opt, found, after)) {
            ok = false;
            break;
        }
        judge_ply(&out[done], m, mover, done < opt->book_plies, before, after);
        PositionEval *t = before;
        before = after;
        after = t;
        if (opt->progress && !opt->progress(done + 1, total, opt->ctx))
            go_on = false;
    }
    if (re->end)
        re->end(re->ctx);
    free(b);
    free(found);
    free(evs);
    return ok ? done : -1;
}

// ------------------------------------------------------------ the built-in engine

// The built-in engine as an evaluator, with the options the review changes
// saved to be restored.
typedef struct Builtin {
    Engine *e;
    char analyse_mode[OPTION_TEXT_MAX], limit[OPTION_TEXT_MAX], elo[OPTION_TEXT_MAX];
    // The last full line of thinking of a search; written on the search
    // thread, read only after engine_wait.
    SearchInfo info;
    bool have_info;
    Move best;
} Builtin;

static void on_info(const SearchInfo *info, void *ctx) {
    Builtin *c = ctx;
    if (info->multipv == 1 && info->bound == BOUND_EXACT && info->pv_length > 0) {
        c->info = *info;
        c->have_info = true;
    }
}

static void on_bestmove(Move best, Move ponder, void *ctx) {
    (void)ponder;
    Builtin *c = ctx;
    c->best = best;
}

// Saves an engine option into buf ("" when it cannot be read).
static void save_option(const Engine *e, const char *name, char *buf) {
    if (!engine_get_option(e, name, buf, OPTION_TEXT_MAX))
        buf[0] = '\0';
}

static void restore_option(Engine *e, const char *name, const char *value) {
    // The value was read from the engine, so setting it back cannot fail in a
    // way that matters; an unreadable one is left as the review set it.
    if (*value)
        (void)engine_set_option(e, name, value, NULL, 0);
}

static bool builtin_begin(void *ctx) {
    Builtin *c = ctx;
    save_option(c->e, "UCI_AnalyseMode", c->analyse_mode);
    save_option(c->e, "UCI_LimitStrength", c->limit);
    save_option(c->e, "UCI_Elo", c->elo);
    // Known options with valid values: these cannot fail.
    (void)engine_set_option(c->e, "UCI_AnalyseMode", "true", NULL, 0);
    (void)engine_set_option(c->e, "UCI_LimitStrength", "false", NULL, 0);
    engine_new_game(c->e);
    return true;
}

static void builtin_end(void *ctx) {
    Builtin *c = ctx;
    restore_option(c->e, "UCI_AnalyseMode", c->analyse_mode);
    restore_option(c->e, "UCI_LimitStrength", c->limit);
    restore_option(c->e, "UCI_Elo", c->elo);
}

static bool builtin_search(void *ctx, const Line *l, const SearchLimits *limits,
                           ReviewSearch *out) {
    Builtin *c = ctx;
    c->have_info = false;
    c->best = MOVE_NONE;
    EngineCallbacks cb = { .on_info = on_info, .on_bestmove = on_bestmove, .ctx = c };
    engine_set_position(c->e, &l->board, l->keys, l->ply);
    engine_go(c->e, limits, &cb);
    engine_wait(c->e);
    out->best = c->best;
    if (!c->have_info)
        return true;
    out->scored = true;
    out->score = c->info.score;
    out->mate = c->info.mate;
    out->depth = c->info.depth;
    out->pv_length = c->info.pv_length < REVIEW_LINE_MAX ? c->info.pv_length : REVIEW_LINE_MAX;
    memcpy(out->pv, c->info.pv, (size_t)out->pv_length * sizeof out->pv[0]);
    return true;
}

int review_game(Engine *e, const PgnGame *g, const ReviewOptions *opt, ReviewPly *out) {
    Builtin *c = malloc(sizeof *c);
    if (!c)
        return -1;
    c->e = e;
    ReviewEvaluator re = { .search = builtin_search, .begin = builtin_begin,
                           .end = builtin_end, .ctx = c };
    int n = review_game_with(&re, g, opt, out);
    free(c);
    return n;
}

void review_format_score(int score_white, char *buf, size_t bufsz) {
    if (is_mate_score(score_white)) {
        int n = REVIEW_MATE - abs(score_white);
        snprintf(buf, bufsz, "#%s%d", score_white < 0 && n > 0 ? "-" : "", n);
    } else {
        snprintf(buf, bufsz, score_white ? "%+.2f" : "%.2f", score_white / 100.0);
    }
}

const char *review_nag_word(int nag) {
    switch (nag) {
    case REVIEW_NAG_INACCURACY: return "Inaccuracy";
    case REVIEW_NAG_MISTAKE: return "Mistake";
    case REVIEW_NAG_BLUNDER: return "Blunder";
    default: return NULL;
    }
}

static bool has_assessment(const PgnNode *n) {
    for (int i = 0; i < n->nag_count; i++)
        if (n->nags[i] >= 1 && n->nags[i] <= 6)
            return true;
    return false;
}

// What the better move keeps, from its score in the mover's view.
static const char *what_it_keeps(int best_mover) {
    if (best_mover > REVIEW_EVAL_MAX)
        return ", with a forced mate";
    if (best_mover >= 300)
        return ", keeping a winning position";
    if (best_mover >= 100)
        return ", keeping the advantage";
    if (best_mover > -100)
        return ", keeping the balance";
    if (best_mover > -300)
        return ", limiting the damage";
    return "";
}

// Annotates one move of the main line.
static bool annotate_ply(PgnGame *g, int ply, const ReviewPly *p) {
    if (pgn_mainline_move(g, ply) != p->played)
        return true; // not a review of this game
    char eval[32] = "", text[200];
    if (abs(p->score_white) != REVIEW_MATE)
        review_format_score(p->score_white, eval, sizeof eval);
    const char *word = review_nag_word(p->nag);
    if (!word || p->best == MOVE_NONE || p->best_line_len < 1)
        return !*eval || pgn_mainline_append_comment(g, ply, eval);

    // A sentence from White's point of view: the evaluation before (the best
    // move's) and after the move, and the better move in the game's numbering.
    Board b;
    char san[MOVE_TEXT_MAX] = "?", before[32], after[32];
    bool known = pgn_position_at(g, ply, &b) && movegen_is_legal(&b, p->best);
    if (known)
        notation_to_san(&b, p->best, san);
    review_format_score(p->best_score_white, before, sizeof before);
    review_format_score(p->score_white, after, sizeof after);
    int sign = known && b.side == BLACK ? -1 : 1;
    snprintf(text, sizeof text, "%s (%s to %s). Better was %d%s %s%s.", word, before, after,
             known ? b.fullmove : 0, known && b.side == BLACK ? "..." : ".", san,
             what_it_keeps(sign * p->best_score_white));
    const PgnNode *node = pgn_mainline_node(g, ply);
    if (!node || (!has_assessment(node) && !pgn_mainline_add_nag(g, ply, p->nag)))
        return false;
    if (!pgn_mainline_append_comment(g, ply, text))
        return false;
    char best_eval[32];
    review_format_score(p->best_score_white, best_eval, sizeof best_eval);
    int n = p->best_line_len < VARIATION_PLIES ? p->best_line_len : VARIATION_PLIES;
    // The line was checked when it was made, so only memory can fail here.
    return pgn_mainline_add_variation(g, ply, p->best_line, n, best_eval);
}

bool review_annotate(PgnGame *g, const ReviewPly *plies, int n) {
    for (int i = 0; i < n && i < pgn_mainline_length(g); i++)
        if (!annotate_ply(g, i, &plies[i]))
            return false;
    return true;
}
