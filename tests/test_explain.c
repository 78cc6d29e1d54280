// SPDX-License-Identifier: GPL-3.0-or-later
// `why`: each kind of sentence on a position where the fact is certain: a
// mistake that allows mate (and the better move), a missed mate, a piece
// given away, a threat found by a null move, a fork, a new pin, checkmate,
// and an illegal move refused.
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fen.h"
#include "engine/notation.h"
#include "src/coach/explain.h"

static Engine *engine;
static Explanation *x;

static void setup(void) {
    board_init_tables();
    engine = engine_new();
    x = malloc(sizeof *x);
    cr_assert(engine && x);
}

static void teardown(void) {
    engine_free(engine);
    free(x);
}

TestSuite(explain, .init = setup, .fini = teardown, .timeout = 60);

static const ExplainOptions QUICK = { .depth = 10, .nodes = 400000 };

static Move parse(const Board *b, const char *san) {
    Move m;
    char err[256];
    cr_assert_eq(notation_parse_move(b, san, &m, err, sizeof err), NOTATION_OK, "%s: %s", san, err);
    return m;
}

// Explains `san` played in fen; the text is in x.
static void explain(const char *fen, const char *san) {
    Board b;
    char err[256];
    cr_assert(board_set_fen(&b, fen, err, sizeof err), "%s", err);
    cr_assert(explain_move(engine, &b, NULL, 0, parse(&b, san), &QUICK, x), "%s", x->text);
    cr_assert_gt(x->sentences, 0);
}

static bool says(const char *what) {
    return strstr(x->text, what) != NULL;
}

Test(explain, a_mistake_that_allows_mate_names_the_mate_and_the_better_move) {
    explain("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3", "Nf6");
    cr_expect(x->mistake);
    cr_expect(says("3... Nf6 allows mate in 1: 4. Qxf7#.\n"), "%s", x->text);
    cr_expect(says(" was better ("), "%s", x->text);
    cr_expect_not(says("threatens"), "no threats of a move that loses: %s", x->text);
    Board after;
    board_set_fen(&after, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
                  NULL, 0);
    cr_expect_eq(x->shown, parse(&after, "Qxf7#"), "the mate is shown on the board");
}

Test(explain, a_missed_mate_is_named_with_its_line) {
    explain("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Kf1");
    cr_expect(x->mistake);
    cr_expect(says("It missed a mate in 1: 1. Ra8#.\n"), "%s", x->text);
}

Test(explain, a_piece_given_away_is_counted) {
    explain("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Ba6");
    cr_expect(x->mistake);
    cr_expect(says("2. Ba6 loses material: after 2... "), "%s", x->text);
    // (Whether pawns are traded on the way depends on the line the engine finds.)
    cr_expect(says("Black has won a bishop"), "%s", x->text);
    // Two or three points net, by the pawns traded on the way; never a bishop for a bishop.
    cr_expect(says("(3 points)") || says("(2 points)"), "%s", x->text);
    cr_expect(says("The bishop on a6 is left en prise: 2... "), "%s", x->text);
}

Test(explain, a_threat_is_what_the_mover_would_do_next) {
    // (Whether the engine calls 2. Qh5 an inaccuracy depends on the depth.)
    explain("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "Qh5");
    // A pawn net: alone, or two for one when a pawn is traded later in the line.
    cr_expect(says("2. Qh5 threatens to win a pawn: 3. Qxe5+") ||
                  says("2. Qh5 threatens to win two pawns for a pawn: 3. Qxe5+"),
              "%s", x->text);
    cr_expect(says("The pawn on f7 is pinned by the queen on h5 to the king on e8"), "%s", x->text);
}

Test(explain, a_threat_of_mate) {
    explain("r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3", "Bc4");
    cr_expect(says("3. Bc4 threatens mate in 1: 4. Qxf7#.\n"), "%s", x->text);
}

Test(explain, a_fork_names_its_targets) {
    explain("r3k3/8/8/3N4/8/8/8/4K3 w - - 0 1", "Nc7+");
    cr_expect(says("1. Nc7+ forks the rook on a8 and the king on e8."), "%s", x->text);
    cr_expect(says("1. Nc7+ gives check; the best answer: 1... K"), "%s", x->text);
}

Test(explain, a_new_pin_is_named_an_old_one_is_not) {
    explain("r1bqkbnr/ppp2ppp/2np4/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 4", "Bb5");
    cr_expect(says("The knight on c6 is pinned by the bishop on b5 to the king on e8: it "
                   "cannot move."),
              "%s", x->text);
    explain("r1bqkbnr/ppp2ppp/2np4/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4", "h3");
    cr_expect_not(says("pinned"), "the pin was there before: %s", x->text);
}

Test(explain, checkmate_is_said_as_such) {
    explain("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8#");
    cr_expect_str_eq(x->text, "1. Ra8# is checkmate.\n");
    cr_expect_not(x->mistake);
}

Test(explain, an_illegal_move_is_refused) {
    Board b;
    board_set_start(&b);
    cr_expect_not(explain_move(engine, &b, NULL, 0, move_make(12, 36), &QUICK, x));
    cr_expect(strstr(x->text, "not legal"), "%s", x->text);
}
