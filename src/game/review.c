// SPDX-License-Identifier: GPL-3.0-or-later
// Game review: one search per position of the main line, moves judged by the
// evaluation they gave away, and the result written into the game.
#include "src/game/review.h"

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

// The last full line of thinking of a search; written on the search thread,
// read only after engine_wait.
typedef struct Capture {
    SearchInfo info;
    bool have_info;
    Move best;
} Capture;

static void on_info(const SearchInfo *info, void *ctx) {
    Capture *c = ctx;
    if (info->multipv == 1 && info->bound == BOUND_EXACT && info->pv_length > 0) {
        c->info = *info;
        c->have_info = true;
    }
}

static void on_bestmove(Move best, Move ponder, void *ctx) {
    (void)ponder;
    Capture *c = ctx;
    c->best = best;
}

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

// Searches the line's position (with its history) and fills ev.
static void analyse(Engine *e, const Line *l, bool last, const ReviewOptions *opt, Capture *cap,
                    PositionEval *ev) {
    const Board *b = &l->board;
    memset(ev, 0, sizeof *ev);
    if (rules_eval(l, last, ev))
        return;
    SearchLimits limits;
    search_limits_init(&limits);
    limits.movetime = opt->movetime_ms;
    limits.depth = opt->depth;
    memset(cap, 0, sizeof *cap);
    EngineCallbacks cb = { .on_info = on_info, .on_bestmove = on_bestmove, .ctx = cap };
    engine_set_position(e, b, l->keys, l->ply);
    engine_go(e, &limits, &cb);
    engine_wait(e);

    int side = b->side == WHITE ? 1 : -1;
    if (!cap->have_info) {
        // Stopped before the first iteration: only the move is known.
        if (cap->best != MOVE_NONE && movegen_is_legal(b, cap->best)) {
            ev->line[0] = cap->best;
            ev->line_len = 1;
        }
        return;
    }
    const SearchInfo *info = &cap->info;
    int score;
    if (info->mate > 0)
        score = REVIEW_MATE - info->mate;
    else if (info->mate < 0)
        score = -REVIEW_MATE - info->mate;
    else
        score = clamp(info->score, -REVIEW_EVAL_MAX, REVIEW_EVAL_MAX);
    ev->score_white = side * score;
    ev->mate_white = side * info->mate;
    ev->depth = info->depth;

    // The line, as far as its moves are legal (it comes from the hash table
    // in part, so check it).
    Board scratch = *b;
    for (int i = 0; i < info->pv_length && i < REVIEW_LINE_MAX; i++) {
        if (!movegen_is_legal(&scratch, info->pv[i]))
            break;
        ev->line[ev->line_len++] = info->pv[i];
        board_play(&scratch, info->pv[i]);
    }
}

int review_judge(int best, int played, int *loss) {
    int lost = clamp(best, -REVIEW_LOSS_CAP, REVIEW_LOSS_CAP) -
               clamp(played, -REVIEW_LOSS_CAP, REVIEW_LOSS_CAP);
    if (lost < 0)
        lost = 0;
    if (loss)
        *loss = lost;

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
    if ((best >= REVIEW_DECIDED_CP && played >= REVIEW_DECIDED_CP) ||
        (best <= -REVIEW_DECIDED_CP && played <= -REVIEW_DECIDED_CP))
        return 0; // decided, and still decided the same way
    if (lost >= REVIEW_BLUNDER_CP)
        return REVIEW_NAG_BLUNDER;
    if (lost >= REVIEW_MISTAKE_CP)
        return REVIEW_NAG_MISTAKE;
    return lost >= REVIEW_INACCURACY_CP ? REVIEW_NAG_INACCURACY : 0;
}

// Fills one reviewed ply from the evaluations before and after the move.
static void judge_ply(ReviewPly *p, Move played, Color mover, const PositionEval *before,
                      const PositionEval *after) {
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
    if (p->best == MOVE_NONE || p->best == played || played == MOVE_NULL)
        return; // the engine's own choice (or nothing to compare with, or no move)
    int sign = mover == WHITE ? 1 : -1;
    p->nag = review_judge(sign * before->score_white, sign * after->score_white, &p->loss);
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

int review_game(Engine *e, const PgnGame *g, const ReviewOptions *opt, ReviewPly *out) {
    if (opt->movetime_ms <= 0 && opt->depth <= 0)
        return -1;
    int total = pgn_mainline_length(g);
    Line *b = malloc(sizeof *b); // the game so far, for repetitions
    Capture *cap = malloc(sizeof *cap);
    PositionEval *evs = malloc(2 * sizeof *evs);
    Board start;
    if (!b || !cap || !evs || !pgn_position_at(g, 0, &start)) {
        free(b);
        free(cap);
        free(evs);
        return -1;
    }
    line_init(b, &start);

    char analyse_mode[OPTION_TEXT_MAX], limit[OPTION_TEXT_MAX], elo[OPTION_TEXT_MAX];
    save_option(e, "UCI_AnalyseMode", analyse_mode);
    save_option(e, "UCI_LimitStrength", limit);
    save_option(e, "UCI_Elo", elo);
    // Known options with valid values: these cannot fail.
    (void)engine_set_option(e, "UCI_AnalyseMode", "true", NULL, 0);
    (void)engine_set_option(e, "UCI_LimitStrength", "false", NULL, 0);
    engine_new_game(e);

    int done = 0;
    bool go_on = !opt->progress || opt->progress(0, total, opt->ctx);
    PositionEval *before = &evs[0], *after = &evs[1];
    if (go_on && total > 0)
        analyse(e, b, total == 0, opt, cap, before);
    for (; go_on && done < total; done++) {
        Move m = pgn_mainline_move(g, done);
        Color mover = b->board.side;
        line_play(b, pgn_mainline_node(g, done)->move); // a null move passes the turn
        analyse(e, b, done + 1 == total, opt, cap, after);
        judge_ply(&out[done], m, mover, before, after);
        PositionEval *t = before;
        before = after;
        after = t;
        if (opt->progress && !opt->progress(done + 1, total, opt->ctx))
            go_on = false;
    }

    restore_option(e, "UCI_AnalyseMode", analyse_mode);
    restore_option(e, "UCI_LimitStrength", limit);
    restore_option(e, "UCI_Elo", elo);
    free(b);
    free(cap);
    free(evs);
    return done;
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

// Annotates one move of the main line.
static bool annotate_ply(PgnGame *g, int ply, const ReviewPly *p) {
    if (pgn_mainline_move(g, ply) != p->played)
        return true; // not a review of this game
    char eval[32] = "", text[160];
    if (abs(p->score_white) != REVIEW_MATE)
        review_format_score(p->score_white, eval, sizeof eval);
    const char *word = review_nag_word(p->nag);
    if (!word || p->best == MOVE_NONE || p->best_line_len < 1)
        return !*eval || pgn_mainline_append_comment(g, ply, eval);

    Board b;
    char san[MOVE_TEXT_MAX] = "?";
    if (pgn_position_at(g, ply, &b) && movegen_is_legal(&b, p->best))
        notation_to_san(&b, p->best, san);
    snprintf(text, sizeof text, "%s%s%s. %s was best.", eval, *eval ? " " : "", word, san);
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
