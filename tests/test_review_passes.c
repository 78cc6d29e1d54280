// SPDX-License-Identifier: GPL-3.0-or-later
// Game review: its passes with a scripted evaluator (ReviewEvaluator) instead
// of an engine, so that each pass's verdict is known: the check clearing or
// confirming the quick pass, the second opinion, its raise of a ?! to ?, the
// evaluation each pass asks, and the limits each is given.
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/notation.h"
#include "src/game/review.h"
#include "src/pgn/pgn.h"
#include "tests/helpers.h"
#include "tests/pgn_helpers.h"

// An evaluator whose quick pass thinks 1. e4 loses (Black +5.00 after it,
// d4 best at +0.20), and whose check, given both moves, scores them as
// `checked` says.
typedef struct Doubt {
    int e4_checked; // the check's score of 1. e4 (White's view)
    int e4_quick;   // the quick pass's score after 1. e4 (Black's view; 0: 500)
    int checks;
    bool both_moves;     // the check was asked about e4 and d4 only
    atomic_bool *cancel; // raised by the quick pass's last search (NULL: not)
    // The second opinion (ReviewOptions.confirm): Black's view of the
    // positions after 1. e4 and after 1. d4, each searched on its own.
    int after_e4, after_d4;
    int confirms;
    int d4;      // the score of 1. d4 (White's view) to both passes (0: 20)
    int seconds; // second opinions asked of search_second (doubt_second)
    uint64_t check_nodes, second_nodes; // the limits they were given
    int calm;                           // quick-pass searches asked of calm_search
    // The second evaluation's own best move before 1. e4 (own_better) and
    // its score, White's view (NULL: the quick pass's d4).
    const char *own;
    int own_score;
    int owns; // those searches asked
} Doubt;

static Move san_move(const Board *b, const char *san) {
    Move m = MOVE_NONE;
    char err[64];
    cr_assert_eq(notation_parse_move(b, san, &m, err, sizeof err), NOTATION_OK, "%s", san);
    return m;
}

static void doubt_line(ReviewLine *l, const Board *b, const char *san, int score) {
    l->score = score;
    l->pv[0] = san_move(b, san);
    l->pv_length = 1;
}

static bool doubt_search(void *ctx, int worker, const Line *l, const SearchLimits *limits,
                         int multipv, ReviewSearch *out) {
    (void)worker;
    Doubt *d = ctx;
    const Board *b = &l->board;
    out->depth = 9;
    if (multipv == 2) {
        d->checks++;
        d->check_nodes = limits->nodes;
        Move e4 = san_move(b, "e4"), d4 = san_move(b, "d4");
        d->both_moves = limits->searchmoves_count == 2 &&
                        ((limits->searchmoves[0] == e4 && limits->searchmoves[1] == d4) ||
                         (limits->searchmoves[0] == d4 && limits->searchmoves[1] == e4));
        bool e4_first = d->e4_checked > 20;
        doubt_line(&out->lines[e4_first ? 0 : 1], b, "e4", d->e4_checked);
        doubt_line(&out->lines[e4_first ? 1 : 0], b, "d4", d->d4 ? d->d4 : 20);
        out->line_count = 2;
        out->best = out->lines[0].pv[0];
        return true;
    }
    if (l->ply == 1 && limits->nodes > 1000) {
        // The second opinion's searches have the check's limits.
        d->confirms++;
        bool after_e4 = l->moves[0] == san_move(&l->start, "e4");
        doubt_line(&out->lines[0], b, "e5", after_e4 ? d->after_e4 : d->after_d4);
        out->line_count = 1;
        out->best = out->lines[0].pv[0];
        return true;
    }
    if (d->cancel && l->ply == 2)
        atomic_store(d->cancel, true);
    static const char *const best[] = { "d4", "e5", "Nf3" };
    const int score[] = { d->d4 ? d->d4 : 20, d->e4_quick ? d->e4_quick : 500,
                          20 }; // the side to move's view
    doubt_line(&out->lines[0], b, best[l->ply], score[l->ply]);
    out->line_count = 1;
    out->best = out->lines[0].pv[0];
    return true;
}

Test(review, a_move_the_check_exonerates_is_not_marked) {
    PgnGame *g = test_read_game("1. e4 e5 *\n");
    Doubt d = { .e4_checked = 30 };
    ReviewEvaluator ev = { .search = doubt_search, .ctx = &d };
    ReviewOptions opt = { .nodes = 1000 };
    ReviewPly p[2];
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.checks, 1, "only 1. e4 was in doubt");
    cr_expect(d.both_moves, "the check scores the played and the better move");
    cr_expect(p[0].checked);
    cr_expect_eq(p[0].nag, 0, "the check found 1. e4 as good as d4");
    cr_expect_eq(p[0].loss_wc, 0);
    cr_expect_eq(p[0].score_white, 30, "the check's score");

    // The same doubt confirmed: marked, with d4 and the check's scores.
    d = (Doubt){ .e4_checked = -300 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER);
    cr_expect_eq(p[0].best_score_white, 20);
    cr_expect_eq(p[0].score_white, -300);
    Board start;
    cr_assert(pgn_position_at(g, 0, &start));
    cr_expect_eq(p[0].best, san_move(&start, "d4"));
    cr_expect_eq(p[0].best_line_len, 1);

    // The two passes must agree: a blunder to the quick pass and a mistake to
    // the check is a mistake, and so is the reverse.
    d = (Doubt){ .e4_checked = -100 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_MISTAKE, "the check's lesser mark");
    d = (Doubt){ .e4_checked = -300, .e4_quick = 100 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_MISTAKE, "the quick pass's lesser mark");
    cr_expect_eq(p[0].score_white, -300, "the check's scores all the same");
    // With check_class the check's class stands, the larger one too.
    opt.check_class = true;
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER, "the check's mark");
    d = (Doubt){ .e4_checked = -100 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_MISTAKE, "the check's mark, the smaller one");
    opt.check_class = false;

    // Cancelled before the checks: the doubt stays unchecked and unmarked.
    atomic_bool cancel;
    atomic_init(&cancel, false);
    d = (Doubt){ .e4_checked = -300, .cancel = &cancel };
    opt.cancel = &cancel;
    cr_assert_geq(review_game_with(&ev, g, &opt, p), 0);
    cr_expect_eq(d.checks, 0, "no check after the cancel");
    cr_expect_eq(p[0].nag, 0);
    cr_expect_not(p[0].checked);
    pgn_game_free(g);
}

// The second opinion: the positions after the played and the better move
// searched apart must find at least an inaccuracy too, else no mark.
Test(review, a_mark_needs_the_second_opinion_too) {
    PgnGame *g = test_read_game("1. e4 e5 *\n");
    ReviewEvaluator ev = { .search = doubt_search, .ctx = NULL };
    ReviewOptions opt = { .nodes = 1000, .confirm = true };
    ReviewPly p[2];
    // Agreed: 1. e4 leaves Black +3.00, 1. d4 keeps White +0.20.
    Doubt d = { .e4_checked = -300, .after_e4 = 300, .after_d4 = -20 };
    ev.ctx = &d;
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.confirms, 2, "both positions searched apart");
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER);
    cr_expect_eq(p[0].score_white, -300, "the check's scores are shown");
    cr_expect_geq(p[0].loss_wc, REVIEW_BLUNDER_WC);
    // A smaller loss there, still an inaccuracy or worse: the mark holds.
    d = (Doubt){ .e4_checked = -300, .after_e4 = 60, .after_d4 = -20 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER);
    // There 1. d4 is hardly better than 1. e4: no mark.
    d = (Doubt){ .e4_checked = -300, .after_e4 = 10, .after_d4 = -20 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, 0);
    cr_expect_lt(p[0].loss_wc, REVIEW_INACCURACY_WC, "the second opinion's loss");
    // Or worse: no mark, no loss.
    d = (Doubt){ .e4_checked = -300, .after_e4 = 300, .after_d4 = 350 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, 0);
    cr_expect_eq(p[0].loss_wc, 0);
    // Without the option, no second opinion.
    opt.confirm = false;
    d = (Doubt){ .e4_checked = -300, .after_e4 = 300, .after_d4 = 350 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.confirms, 0);
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER);
    pgn_game_free(g);
}

// Node limits, one thread per search and an empty table of one size for
// each: the same review every time, with two engines or three, whatever the
// size of the caller's table (restored afterwards).

// The second opinion of an evaluation of its own (search_second).
static bool doubt_second(void *ctx, int worker, const Line *l, const SearchLimits *limits,
                         int multipv, ReviewSearch *out) {
    Doubt *d = ctx;
    if (l->ply == 0 && multipv == 1 && limits->nodes > 1000) {
        d->owns++;
        if (d->own) {
            doubt_line(&out->lines[0], &l->board, d->own, d->own_score);
            out->line_count = 1;
            out->best = out->lines[0].pv[0];
            out->depth = 10;
            return true;
        }
    } else {
        d->seconds++;
    }
    d->second_nodes = limits->nodes;
    return doubt_search(ctx, worker, l, limits, multipv, out);
}

// A ?! to both hand-crafted passes that the net's second opinion finds a
// mistake is a mistake; the same second opinion from the passes' own
// evaluation, or in a decided position, leaves it ?!.
Test(review, the_nets_second_opinion_raises_an_inaccuracy_to_a_mistake) {
    PgnGame *g = test_read_game("1. e4 e5 *\n");
    ReviewEvaluator ev = { .search = doubt_search, .search_second = doubt_second };
    ReviewOptions opt = { .nodes = 1000, .confirm = true, .second_net = true };
    ReviewPly p[2];
    // +0.20 -> -0.45 to both passes (7.5 points), +0.20 -> -0.90 to the
    // second opinion (12.5 points).
    Doubt d = { .e4_quick = 45, .e4_checked = -45, .after_e4 = 90, .after_d4 = -20 };
    ev.ctx = &d;
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.seconds, 2, "both positions searched by the second opinion");
    cr_expect_eq(p[0].nag, REVIEW_NAG_MISTAKE);
    cr_expect_eq(p[0].score_white, -45, "the check's scores are shown");
    // The second opinion finds an inaccuracy only: ?! as the passes say.
    d = (Doubt){ .e4_quick = 45, .e4_checked = -45, .after_e4 = 45, .after_d4 = -20 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_INACCURACY);
    // Never above ?: the passes' ?! stays ?! when the net finds a blunder...
    d = (Doubt){ .e4_quick = 45, .e4_checked = -45, .after_e4 = 300, .after_d4 = -20 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_INACCURACY);
    // ...nor in a decided position (+4.00 -> +3.00, 6.4 points, to the passes).
    d = (Doubt){
        .d4 = 400, .e4_quick = -300, .e4_checked = 300, .after_e4 = -250, .after_d4 = -400
    };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.seconds, 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_INACCURACY, "+4.00 is decided");
    // The passes' own evaluation as the second opinion: no raise.
    ev.search_second = NULL;
    d = (Doubt){ .e4_quick = 45, .e4_checked = -45, .after_e4 = 90, .after_d4 = -20 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.seconds, 0);
    cr_expect_eq(d.confirms, 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_INACCURACY);
    pgn_game_free(g);
}

// The better move shown is the second evaluation's own best, searched from
// the position before the mark, when its scores say the mark too; its own
// best being the move played drops the mark (own_better).
Test(review, the_better_move_is_the_second_opinions_own) {
    PgnGame *g = test_read_game("1. e4 e5 *\n");
    ReviewEvaluator ev = { .search = doubt_search, .search_second = doubt_second };
    ReviewOptions opt = { .nodes = 1000, .confirm = true, .second_net = true, .own_better = true };
    ReviewPly p[2];
    Board start;
    cr_assert(pgn_position_at(g, 0, &start));
    // 1. e4 a blunder to every pass (the second opinion: Black +3.00 after
    // it, -0.20 after 1. d4), and to the net's own search 1. Nf3 (+0.30) is
    // the best: shown with its line and the net's scores.
    Doubt d = {
        .e4_checked = -300, .after_e4 = 300, .after_d4 = -20, .own = "Nf3", .own_score = 30
    };
    ev.ctx = &d;
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.owns, 1, "one search of the position before the mark");
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER);
    cr_expect_eq(p[0].best, san_move(&start, "Nf3"));
    cr_expect_eq(p[0].best_line[0], p[0].best);
    cr_expect_eq(p[0].best_score_white, 30, "the net's score of its move");
    cr_expect_eq(p[0].score_white, -300, "the net's score after 1. e4");
    int loss_wc;
    (void)review_judge(30, -300, NULL, &loss_wc);
    cr_expect_eq(p[0].loss_wc, loss_wc, "the loss between the two");
    // Its own best is the checked move: nothing changes.
    d = (Doubt){
        .e4_checked = -300, .after_e4 = 300, .after_d4 = -20, .own = "d4", .own_score = 20
    };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER);
    cr_expect_eq(p[0].best, san_move(&start, "d4"));
    cr_expect_eq(p[0].best_score_white, 20, "the check's scores");
    // Its scores of 1. Nf3 (-2.50) and 1. e4 (-3.00) do not say a blunder:
    // the checked d4 stays, with the check's scores.
    d = (Doubt){
        .e4_checked = -300, .after_e4 = 300, .after_d4 = -20, .own = "Nf3", .own_score = -250
    };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER);
    cr_expect_eq(p[0].best, san_move(&start, "d4"));
    cr_expect_eq(p[0].best_score_white, 20);
    // Its own best is the move played: the searches disagree, no mark.
    d = (Doubt){
        .e4_checked = -300, .after_e4 = 300, .after_d4 = -20, .own = "e4", .own_score = 40
    };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, 0);
    // Off: the checked move, and no such search.
    opt.own_better = false;
    d = (Doubt){
        .e4_checked = -300, .after_e4 = 300, .after_d4 = -20, .own = "Nf3", .own_score = 30
    };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.owns, 0);
    cr_expect_eq(p[0].best, san_move(&start, "d4"));
    // Nor without a second evaluation of its own.
    opt.own_better = true;
    ev.search_second = NULL;
    d = (Doubt){
        .e4_checked = -300, .after_e4 = 300, .after_d4 = -20, .own = "Nf3", .own_score = 30
    };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER);
    cr_expect_eq(p[0].best, san_move(&start, "d4"));
    pgn_game_free(g);
}

// A first evaluation to which 1. e4 is as good as 1. d4 in the quick pass
// (Black -0.20 after it); its checks are Doubt's.
static bool calm_search(void *ctx, int worker, const Line *l, const SearchLimits *limits,
                        int multipv, ReviewSearch *out) {
    Doubt *d = ctx;
    if (multipv == 1 && limits->nodes <= 1000)
        d->calm++;
    if (multipv == 1 && l->ply == 1 && limits->nodes <= 1000) {
        doubt_line(&out->lines[0], &l->board, "e5", -20);
        out->line_count = 1;
        out->best = out->lines[0].pv[0];
        out->depth = 9;
        return true;
    }
    return doubt_search(ctx, worker, l, limits, multipv, out);
}

// The quick pass by the second evaluation (quick_net), or by both
// (quick_both: a move only the second doubts is checked too), as the
// benchmark measures them (bench/results/2026-11-27-review-judge-8.md).
Test(review, the_quick_pass_can_be_the_second_evaluations) {
    PgnGame *g = test_read_game("1. e4 e5 *\n");
    ReviewEvaluator ev = { .search = calm_search, .search_second = doubt_second };
    ReviewOptions opt = { .nodes = 1000 };
    ReviewPly p[2];
    // By the first evaluation: 1. e4 is fine, never checked.
    Doubt d = { .e4_checked = -300 };
    ev.ctx = &d;
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.calm, 3, "the three positions by the first evaluation");
    cr_expect_eq(d.seconds, 0);
    cr_expect_eq(d.checks, 0);
    cr_expect_eq(p[0].nag, 0);
    // By the second: it doubts 1. e4, which the check finds a blunder.
    opt.quick_net = true;
    d = (Doubt){ .e4_checked = -300 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.calm, 0);
    cr_expect_eq(d.seconds, 3);
    cr_expect_eq(d.checks, 1, "the check by the first evaluation");
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER);
    // By both: the first finds nothing, the second's doubt is checked.
    opt.quick_net = false;
    opt.quick_both = true;
    d = (Doubt){ .e4_checked = -300 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.calm, 3);
    cr_expect_eq(d.seconds, 3);
    cr_expect_eq(d.checks, 1);
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER);
    Board start;
    cr_assert(pgn_position_at(g, 0, &start));
    cr_expect_eq(p[0].best, san_move(&start, "d4"), "the better move checked");
    // Without a second evaluation, the first's quick pass alone.
    ev.search_second = NULL;
    d = (Doubt){ .e4_checked = -300 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.calm, 3);
    cr_expect_eq(d.checks, 0);
    cr_expect_eq(p[0].nag, 0);
    pgn_game_free(g);
}

// The second opinion's nodes apart from the check's (second_nodes), as the
// benchmark measures a deeper check with the second opinion as it was; 0:
// the check's.
Test(review, the_second_opinion_has_nodes_of_its_own) {
    PgnGame *g = test_read_game("1. e4 e5 *\n");
    ReviewEvaluator ev = { .search = doubt_search, .search_second = doubt_second };
    ReviewOptions opt = {
        .nodes = 1000, .verify_nodes = 6000, .confirm = true, .second_net = true
    };
    ReviewPly p[2];
    Doubt d = { .e4_checked = -300, .after_e4 = 300, .after_d4 = -20 };
    ev.ctx = &d;
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.seconds, 2);
    cr_expect_eq(d.check_nodes, 6000);
    cr_expect_eq(d.second_nodes, 6000, "the check's limits by default");
    opt.second_nodes = 3000;
    d = (Doubt){ .e4_checked = -300, .after_e4 = 300, .after_d4 = -20 };
    cr_assert_eq(review_game_with(&ev, g, &opt, p), 2);
    cr_expect_eq(d.check_nodes, 6000);
    cr_expect_eq(d.second_nodes, 3000);
    cr_expect_eq(p[0].nag, REVIEW_NAG_BLUNDER);
    pgn_game_free(g);
}
