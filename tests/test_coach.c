// SPDX-License-Identifier: GPL-3.0-or-later
// Puzzles from mistakes: the puzzles found in the sample of games with known
// blunders (tests/data/coach/blunders.pgn) at fixed depths, the rejection of
// a position with two equally good moves, the answers a puzzle takes, and
// the puzzle book: SM-2 scheduling, the Elo-like rating, the order of the
// puzzles due, and the file's round trip with a corrupt line.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/nnue.h"
#include "src/coach/puzzle.h"
#include "src/coach/puzzlebook.h"
#include "src/game/openings.h"
#include "src/game/review.h"
#include "src/pgn/read.h"
#include "tests/helpers.h"

enum { REVIEW_DEPTH = 8, VERIFY_DEPTH = 10, DAY = 86400 };

// What the sample holds: the position before each mistake and its solution.
typedef struct Expected {
    int game;
    const char *fen;
    const char *solution; // UCI
} Expected;

static const Expected expected[] = {
    { 1, "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "f3h4" },
    { 2, "r5k1/1b3ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", "d2d8 a8d8 d1d8" },
    { 3, "r3k3/6p1/8/1N6/8/P7/1P4P1/4K3 w - - 0 1", "b5c7 e8d7 c7a8" },
    { 5, "3r2k1/5ppp/8/8/7N/8/5PPP/6K1 b - - 0 1", "d8d1" },
};

static void solution_uci(const Puzzle *p, char *buf, size_t bufsz) {
    buf[0] = '\0';
    for (int i = 0; i < p->length; i++) {
        char uci[MOVE_TEXT_MAX];
        notation_to_uci(p->solution[i], uci);
        strncat(buf, i ? " " : "", bufsz - strlen(buf) - 1);
        strncat(buf, uci, bufsz - strlen(buf) - 1);
    }
}

// The sample's reader, a game to read into and an engine to search with.
typedef struct Sample {
    PgnReader *reader;
    PgnGame *game;
    Engine *engine;
} Sample;

static Sample sample_open(void) {
    char path[4096], err[256];
    test_data_path("coach/blunders.pgn", path, sizeof path);
    Sample s = { pgn_reader_open(path, err, sizeof err), pgn_game_new(), engine_new() };
    cr_assert_not_null(s.reader, "%s", err);
    cr_assert(s.game && s.engine);
    return s;
}

static void sample_close(Sample *s) {
    engine_free(s->engine);
    pgn_game_free(s->game);
    pgn_reader_close(s->reader);
}

// Runs puzzle_find over every game of the sample; the puzzles of game n
// (1-based) go to out[n], their count to counts[n].
static void find_all(const PuzzleOptions *opt, Puzzle out[6][8], int counts[6]) {
    Sample s = sample_open();
    PgnError pe;
    int n = 0;
    while (pgn_reader_next(s.reader, s.game, &pe) == 1 && n < 5) {
        n++;
        char source[32];
        snprintf(source, sizeof source, "sample#%d", n);
        counts[n] = puzzle_find(s.engine, s.game, source, opt, out[n], 8);
        cr_assert_geq(counts[n], 0);
    }
    cr_assert_eq(n, 5, "the sample has five games");
    sample_close(&s);
}

static void test_options(PuzzleOptions *opt) {
    puzzle_options_default(opt);
    opt->review_depth = REVIEW_DEPTH;
    opt->verify_depth = VERIFY_DEPTH;
}

Test(puzzle, sample_gives_the_known_positions, .timeout = 60) {
    PuzzleOptions opt;
    test_options(&opt);
    Puzzle found[6][8];
    int counts[6] = { 0 };
    find_all(&opt, found, counts);
    cr_expect_eq(counts[4], 0, "game 4: two knights take the queen alike, no puzzle");
    int total = counts[1] + counts[2] + counts[3] + counts[5];
    cr_expect_eq(total, 4, "one puzzle in each of games 1, 2, 3 and 5 (found %d)", total);
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        const Expected *x = &expected[i];
        cr_assert_eq(counts[x->game], 1, "game %d: %d puzzles", x->game, counts[x->game]);
        const Puzzle *p = &found[x->game][0];
        char uci[64];
        solution_uci(p, uci, sizeof uci);
        cr_expect_str_eq(p->fen, x->fen, "game %d's position", x->game);
        // The opponent's reply in the fork may be any king move: the
        // player's moves are what the puzzle asks for.
        if (x->game == 3) {
            cr_expect_eq(p->length, 3);
            cr_expect_eq(strncmp(uci, "b5c7 ", 5), 0, "game 3: %s", uci);
            cr_expect_str_eq(uci + strlen(uci) - 4, "c7a8", "game 3: %s", uci);
        } else {
            cr_expect_str_eq(uci, x->solution, "game %d's solution", x->game);
        }
        cr_expect(p->rating >= PUZZLE_RATING_MIN && p->rating <= PUZZLE_RATING_MAX);
        cr_expect(strncmp(p->source, "sample#", 7) == 0, "%s", p->source);
    }
    cr_expect_str_eq(found[1][0].source, "sample#1 3. d3");
    cr_expect_str_eq(found[5][0].source, "sample#5 1... h6");
}

Test(puzzle, only_the_sides_asked_for, .timeout = 60) {
    PuzzleOptions opt;
    test_options(&opt);
    opt.sides[BLACK] = false; // the archive's human played White
    Puzzle found[6][8];
    int counts[6] = { 0 };
    find_all(&opt, found, counts);
    cr_expect_eq(counts[5], 0, "Black's missed mate is not White's puzzle");
    cr_expect_eq(counts[1] + counts[2] + counts[3], 3);
}

// The miner judges moves as the review does: the review's defaults (its
// scale, the second opinion by the net) at the puzzle's depths, theory never
// marked.
Test(puzzle, the_review_judgement) {
    PuzzleOptions opt;
    test_options(&opt);
    PgnGame *g = pgn_game_new();
    cr_assert_not_null(g);
    ReviewOptions ropt, def;
    puzzle_review_options(&opt, g, &ropt);
    review_options_default(&def);
    cr_expect(ropt.confirm, "the second opinion");
    cr_expect_eq(ropt.confirm, def.confirm);
    cr_expect(ropt.second_net, "by the built-in net, as the review's");
    cr_expect_eq(ropt.wc_pawn, def.wc_pawn, "the review's scale");
    cr_expect_eq(ropt.depth, REVIEW_DEPTH);
    cr_expect_eq(ropt.verify_depth, VERIFY_DEPTH);
    cr_expect_eq(ropt.nodes, 0u);
    cr_expect_eq(ropt.verify_nodes, 0u);
    cr_expect_eq(ropt.book_plies, 0, "no theory known");
    cr_expect_null(ropt.builtin_net, "each review parses its own");
    // The miner's net, parsed once for all its games, goes to each review.
    NnueNet *net = nnue_net_new();
    cr_assert_not_null(net);
    opt.builtin_net = net;
    puzzle_review_options(&opt, g, &ropt);
    cr_expect_eq(ropt.builtin_net, net);
    nnue_net_free(net);
    pgn_game_free(g);
}

// Every puzzle comes from a move the review marks ? or ?? with the miner's
// options: no other candidate (a "missed win" the review does not call a
// mistake makes no puzzle).
Test(puzzle, puzzles_come_from_the_reviews_mistakes, .timeout = 60) {
    PuzzleOptions opt;
    test_options(&opt);
    Sample s = sample_open();
    PgnGame *g = s.game;
    Engine *e = s.engine;
    PgnError pe;
    int games = 0, puzzles = 0;
    while (pgn_reader_next(s.reader, g, &pe) == 1) {
        games++;
        Puzzle found[8];
        int n = puzzle_find(e, g, "sample", &opt, found, 8);
        cr_assert_geq(n, 0);
        int total = pgn_mainline_length(g);
        ReviewPly *plies = calloc((size_t)total, sizeof *plies);
        cr_assert_not_null(plies);
        ReviewOptions ropt;
        puzzle_review_options(&opt, g, &ropt);
        cr_assert_eq(review_game(e, g, &ropt, plies), total);
        for (int i = 0; i < n; i++) {
            Board b;
            int ply = 0;
            for (; ply < total; ply++) {
                char fen[FEN_MAX];
                cr_assert(pgn_position_at(g, ply, &b));
                board_to_fen(&b, fen, sizeof fen);
                if (!strcmp(fen, found[i].fen) && plies[ply].played == found[i].played)
                    break;
            }
            cr_assert_lt(ply, total, "game %d: the puzzle's position is the game's", games);
            cr_expect(review_is_mistake(&plies[ply]), "game %d ply %d: nag %d", games, ply,
                      plies[ply].nag);
            puzzles++;
        }
        free(plies);
    }
    cr_expect_eq(puzzles, 4);
    sample_close(&s);
}

// A mistake within the game's theory (here a named line that ends with it)
// is no puzzle, as the review never marks theory.
Test(puzzle, theory_makes_no_puzzle, .timeout = 60) {
    char path[4096];
    int fd = test_temp_file(path, sizeof path, "patzer-openings");
    // Each move of theory reaches a named position (theory.h).
    static const char LINE[] = "1. e4  # B00 Test\n1. e4 e5  # C20 Test\n"
                               "1. e4 e5 2. Nf3  # C40 Test\n1. e4 e5 2. Nf3 Qh4  # C40 Test\n"
                               "1. e4 e5 2. Nf3 Qh4 3. d3  # C40 Test Line\n";
    cr_assert_eq(write(fd, LINE, sizeof LINE - 1), (ssize_t)(sizeof LINE - 1));
    close(fd);
    char err[256];
    Openings *o = openings_load(path, err, sizeof err);
    cr_assert_not_null(o, "%s", err);
    PuzzleOptions opt;
    test_options(&opt);
    Puzzle found[6][8];
    int counts[6] = { 0 };
    find_all(&opt, found, counts);
    cr_expect_eq(counts[1], 1, "3. d3 is a mistake");
    opt.openings = o;
    find_all(&opt, found, counts);
    cr_expect_eq(counts[1], 0, "3. d3 is theory now");
    cr_expect_eq(counts[2] + counts[3] + counts[5], 3, "the games from set-up positions");
    openings_free(o);
    unlink(path);
}

static Line *line_from(const char *fen) {
    Line *l = malloc(sizeof *l);
    cr_assert_not_null(l);
    Board b;
    test_board_from_fen(&b, fen);
    line_init(l, &b);
    return l;
}

Test(puzzle, two_equally_good_moves_are_rejected, .timeout = 30) {
    Engine *e = engine_new();
    Line *l = line_from("4k3/pp6/8/3q4/8/2N1N3/PP6/4K3 w - - 0 1");
    PuzzleCheck c;
    cr_expect_not(puzzle_clear_best(e, l, VERIFY_DEPTH, &c));
    cr_expect(c.has_second);
    cr_expect_gt(c.best_score, 200, "taking the queen wins");
    cr_expect_gt(c.second_score, 200, "either way");
    free(l);
    engine_free(e);
}

Test(puzzle, one_clear_move_is_kept, .timeout = 30) {
    Engine *e = engine_new();
    Line *l = line_from("r5k1/1b3ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1");
    PuzzleCheck c;
    cr_expect(puzzle_clear_best(e, l, VERIFY_DEPTH, &c));
    char uci[MOVE_TEXT_MAX];
    notation_to_uci(c.best, uci);
    cr_expect_str_eq(uci, "d2d8");
    cr_expect_gt(c.best_score, 9000, "a mate");
    cr_expect_lt(c.second_score, 9000, "the second line does not mate");
    cr_expect(c.settled_depth >= 1 && c.settled_depth <= VERIFY_DEPTH);
    free(l);
    // A lone legal move is no puzzle.
    l = line_from("7k/8/8/8/8/8/5q2/7K w - - 0 1");
    cr_expect_not(puzzle_clear_best(e, l, VERIFY_DEPTH, &c));
    free(l);
    engine_free(e);
}

static Puzzle make_puzzle(const char *fen, const char *uci_line, const char *played) {
    Puzzle p = { .rating = 1200 };
    snprintf(p.fen, sizeof p.fen, "%s", fen);
    snprintf(p.source, sizeof p.source, "test#1");
    Board b;
    test_board_from_fen(&b, fen);
    char buf[128];
    snprintf(buf, sizeof buf, "%s", uci_line);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        Move m;
        cr_assert_eq(notation_parse_uci(&b, w, &m), NOTATION_OK, "%s", w);
        p.solution[p.length++] = m;
        board_play(&b, m);
    }
    test_board_from_fen(&b, fen);
    cr_assert_eq(notation_parse_uci(&b, played, &p.played), NOTATION_OK);
    return p;
}

Test(puzzle, answers) {
    Puzzle p = make_puzzle("r5k1/1b3ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", "d2d8 a8d8 d1d8", "h2h3");
    Board b;
    test_board_from_fen(&b, p.fen);
    Move right, wrong;
    cr_assert_eq(notation_parse_uci(&b, "d2d8", &right), NOTATION_OK);
    cr_assert_eq(notation_parse_uci(&b, "h2h3", &wrong), NOTATION_OK);
    cr_expect(puzzle_move_is_right(&p, 0, &b, right));
    cr_expect_not(puzzle_move_is_right(&p, 0, &b, wrong));
    cr_expect_not(puzzle_move_is_right(&p, 1, &b, right), "ply 1 is the opponent's");
    char text[128];
    cr_expect(puzzle_solution_text(&p, text, sizeof text));
    cr_expect_str_eq(text, "1. Rd8+ Rxd8 2. Rxd8#");
    // Any mate is right, not only the stored one.
    Puzzle m = make_puzzle("6k1/5ppp/8/8/8/8/5PPP/RR4K1 w - - 0 1", "a1a8", "h2h3");
    test_board_from_fen(&b, m.fen);
    Move other;
    cr_assert_eq(notation_parse_uci(&b, "b1b8", &other), NOTATION_OK);
    cr_expect(puzzle_move_is_right(&m, 0, &b, other));
    cr_expect(puzzle_solution_text(&m, text, sizeof text));
    cr_expect_str_eq(text, "1. Ra8#");
}

// ------------------------------------------------------------ the book

static PuzzleBook *book_with(int n) {
    PuzzleBook *b = puzzlebook_new();
    cr_assert_not_null(b);
    static const char *const fens[] = {
        "r5k1/1b3ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1",
        "3r2k1/5ppp/8/8/7N/8/5PPP/6K1 b - - 0 1",
        "r3k3/6p1/8/1N6/8/P7/1P4P1/4K3 w - - 0 1",
    };
    static const char *const lines[] = { "d2d8 a8d8 d1d8", "d8d1", "b5c7 e8d7 c7a8" };
    static const char *const played[] = { "h2h3", "h7h6", "e1d2" };
    for (int i = 0; i < n; i++) {
        Puzzle p = make_puzzle(fens[i], lines[i], played[i]);
        cr_assert_eq(puzzlebook_add(b, &p, 1000 + i), i);
    }
    return b;
}

Test(puzzlebook, sm2_schedule) {
    PuzzleBook *b = book_with(1);
    PuzzleEntry *e = &b->items[0];
    cr_expect_eq(e->ease, PUZZLEBOOK_START_EASE);
    cr_expect_eq(e->due, 1000, "a new puzzle is due at once");
    int64_t now = 10 * DAY;
    puzzlebook_grade(b, 0, GRADE_SOLVED, now);
    cr_expect_eq(e->interval, 1);
    cr_expect_eq(e->ease, 260);
    cr_expect_eq(e->due, now + DAY);
    puzzlebook_grade(b, 0, GRADE_SOLVED, now);
    cr_expect_eq(e->interval, 6);
    puzzlebook_grade(b, 0, GRADE_SOLVED, now);
    cr_expect_eq(e->ease, 280);
    cr_expect_eq(e->interval, 17, "6 days * 2.80, rounded");
    puzzlebook_grade(b, 0, GRADE_HINTED, now);
    cr_expect_eq(e->ease, 266, "a hint costs 14 points of ease");
    cr_expect_eq(e->interval, 45);
    puzzlebook_grade(b, 0, GRADE_FAILED, now);
    cr_expect_eq(e->ease, 212, "a failure costs 54");
    cr_expect_eq(e->interval, 0);
    cr_expect_eq(e->reps, 0);
    cr_expect_eq(e->due, now, "a failed puzzle is due again at once");
    cr_expect_eq(e->attempts, 5);
    cr_expect_eq(e->solved, 4);
    cr_expect_eq(e->failed, 1);
    for (int i = 0; i < 5; i++)
        puzzlebook_grade(b, 0, GRADE_FAILED, now);
    cr_expect_eq(e->ease, PUZZLEBOOK_MIN_EASE);
    puzzlebook_free(b);
}

Test(puzzlebook, rating) {
    cr_expect_eq(puzzlebook_elo(1500, 1500, 1.0, 32), 1516);
    cr_expect_eq(puzzlebook_elo(1500, 1500, 0.0, 32), 1484);
    cr_expect_eq(puzzlebook_elo(1500, 1500, 0.5, 32), 1500);
    cr_expect_eq(puzzlebook_elo(1500, 1100, 0.0, 32), 1471, "failing an easy puzzle costs more");
    cr_expect_eq(puzzlebook_elo(1500, 1900, 1.0, 32), 1529, "solving a hard one gains more");
    PuzzleBook *b = book_with(2);
    cr_expect_eq(b->rating, PUZZLEBOOK_START_RATING);
    puzzlebook_grade(b, 0, GRADE_FAILED, 0); // rated 1200: expected 0.85
    cr_expect_eq(b->rating, 1473);
    cr_expect_eq(b->rated, 1);
    puzzlebook_grade(b, 0, GRADE_SOLVED, 0);
    cr_expect_eq(b->rating, 1473, "only the first attempt is rated");
    puzzlebook_grade(b, 1, GRADE_HINTED, 0);
    cr_expect_eq(b->rating, 1463, "1473 + 32 * (0.5 - 0.83), rounded");
    cr_expect_eq(b->rated, 2);
    puzzlebook_free(b);
}

Test(puzzlebook, due_order) {
    PuzzleBook *b = book_with(3); // due 1000, 1001, 1002, all new
    int due[3];
    cr_expect_eq(puzzlebook_due(b, 999, NULL, due, 3), 0, "none due yet");
    cr_assert_eq(puzzlebook_due(b, 5000, NULL, due, 3), 3);
    cr_expect(due[0] == 0 && due[1] == 1 && due[2] == 2, "new ones in the order found");
    puzzlebook_grade(b, 2, GRADE_FAILED, 3000);
    puzzlebook_grade(b, 1, GRADE_FAILED, 2000);
    puzzlebook_grade(b, 0, GRADE_SOLVED, 2000); // due a day later
    cr_assert_eq(puzzlebook_due(b, 5000, NULL, due, 3), 2);
    cr_expect(due[0] == 1 && due[1] == 2, "seen puzzles first, the earliest due first");
    cr_expect_eq(puzzlebook_due(b, 2000 + DAY, NULL, due, 3), 3);
    cr_expect_eq(puzzlebook_due(b, 5000, "other#", due, 3), 0, "the source prefix filters");
    cr_expect_eq(puzzlebook_due(b, 5000, "test#", due, 3), 2);
    puzzlebook_free(b);
}

Test(puzzlebook, duplicates_and_scanned_games) {
    PuzzleBook *b = book_with(2);
    Puzzle again = b->items[1].puzzle;
    cr_expect_eq(puzzlebook_add(b, &again, 5), 1, "the same position is not added twice");
    cr_expect_eq(b->count, 2);
    cr_expect_not(puzzlebook_is_scanned(b, 42));
    cr_expect(puzzlebook_mark_scanned(b, 42));
    cr_expect(puzzlebook_mark_scanned(b, 42));
    cr_expect(puzzlebook_is_scanned(b, 42));
    cr_expect_eq(b->scanned_count, 1);
    puzzlebook_free(b);

    PgnReader *r = pgn_reader_from_string("[White \"a\"]\n\n1. e4 e5 *\n\n[White \"a\"]\n\n1. e4 "
                                          "e6 *\n\n[White \"a\"]\n\n1. e4 e5 *\n",
                                          "keys");
    PgnGame *g = pgn_game_new();
    PgnError pe;
    uint64_t keys[3];
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(pgn_reader_next(r, g, &pe), 1);
        keys[i] = puzzlebook_game_key(g);
    }
    cr_expect_neq(keys[0], keys[1]);
    cr_expect_eq(keys[0], keys[2], "the same game has the same key");
    pgn_game_free(g);
    pgn_reader_close(r);
}

Test(puzzlebook, round_trip) {
    PuzzleBook *b = book_with(3);
    puzzlebook_grade(b, 0, GRADE_SOLVED, 7777);
    puzzlebook_grade(b, 1, GRADE_FAILED, 8888);
    puzzlebook_mark_scanned(b, 0x0123456789abcdefULL);
    snprintf(b->items[2].puzzle.source, PUZZLE_SOURCE_MAX, "a\tb"); // a tab is written as a blank
    char *text = puzzlebook_format(b);
    cr_assert_not_null(text);
    PuzzleBook *c = puzzlebook_new();
    char warn[PUZZLEBOOK_WARN_MAX];
    cr_assert(puzzlebook_parse(c, text, "puzzles", warn, sizeof warn));
    cr_expect_str_empty(warn);
    cr_assert_eq(c->count, 3);
    cr_expect_eq(c->rating, b->rating);
    cr_expect_eq(c->rated, 2);
    cr_expect(puzzlebook_is_scanned(c, 0x0123456789abcdefULL));
    for (int i = 0; i < 2; i++) {
        const PuzzleEntry *x = &b->items[i], *y = &c->items[i];
        cr_expect_str_eq(y->puzzle.fen, x->puzzle.fen);
        cr_expect_eq(y->puzzle.length, x->puzzle.length);
        cr_expect_eq(
            memcmp(y->puzzle.solution, x->puzzle.solution, (size_t)x->puzzle.length * sizeof(Move)),
            0);
        cr_expect_eq(y->puzzle.played, x->puzzle.played);
        cr_expect_eq(y->puzzle.rating, x->puzzle.rating);
        cr_expect_str_eq(y->puzzle.source, x->puzzle.source);
        cr_expect(y->due == x->due && y->interval == x->interval && y->ease == x->ease &&
                  y->reps == x->reps && y->attempts == x->attempts && y->solved == x->solved &&
                  y->failed == x->failed);
    }
    cr_expect_str_eq(c->items[2].puzzle.source, "a b");
    char *again = puzzlebook_format(c);
    cr_expect_str_eq(again, text, "written again the same");
    free(again);
    free(text);
    puzzlebook_free(b);
    puzzlebook_free(c);
}

Test(puzzlebook, corrupt_line_is_named_and_kept) {
    PuzzleBook *b = book_with(2);
    char *text = puzzlebook_format(b);
    cr_assert_not_null(text);
    // Line 3 is the first puzzle (after the comment and the player line):
    // put a broken record there, keeping everything else.
    char broken[8192];
    const char *third = strchr(strchr(text, '\n') + 1, '\n') + 1;
    snprintf(broken, sizeof broken, "%.*spuzzle\tnot a fen\td2d8\n%s", (int)(third - text), text,
             third);
    PuzzleBook *c = puzzlebook_new();
    char warn[PUZZLEBOOK_WARN_MAX];
    cr_assert(puzzlebook_parse(c, broken, "puzzles", warn, sizeof warn));
    cr_expect(strstr(warn, "puzzles:3: ") != NULL, "%s", warn);
    cr_expect(strstr(warn, "wrong number of fields") != NULL, "%s", warn);
    cr_expect_eq(c->count, 2, "the other puzzles are kept");
    cr_expect_eq(c->kept_count, 1);
    char *out = puzzlebook_format(c);
    cr_expect(strstr(out, "puzzle\tnot a fen\td2d8\n") != NULL, "written back as it was");
    free(out);
    puzzlebook_free(c);

    // A bad FEN with the right number of fields, and a second bad line.
    c = puzzlebook_new();
    cr_assert(puzzlebook_parse(c,
                               "player\t1600\t3\n"
                               "puzzle\tx\td2d8\th2h3\t1200\t0\t0\t250\t0\t0\t0\t0\tsrc\n"
                               "bogus\n",
                               "book", warn, sizeof warn));
    cr_expect_str_eq(warn, "book:2: bad FEN (the line is kept; the other puzzles are used); 1 more "
                           "bad lines");
    cr_expect_eq(c->rating, 1600);
    puzzlebook_free(c);
    free(text);
    puzzlebook_free(b);
}

Test(puzzlebook, file_round_trip) {
    char dir[256];
    test_temp_dir(dir, sizeof dir, "patzer-coach");
    char path[300], warn[PUZZLEBOOK_WARN_MAX], err[512];
    snprintf(path, sizeof path, "%s/puzzles", dir);
    PuzzleBook *b = puzzlebook_new();
    cr_expect(puzzlebook_load(b, path, warn, sizeof warn, err, sizeof err), "a missing file: %s",
              err);
    cr_expect_eq(b->count, 0);
    puzzlebook_free(b);
    b = book_with(2);
    cr_assert(puzzlebook_save(b, path, err, sizeof err), "%s", err);
    PuzzleBook *c = puzzlebook_new();
    cr_assert(puzzlebook_load(c, path, warn, sizeof warn, err, sizeof err), "%s", err);
    cr_expect_eq(c->count, 2);
    cr_expect_str_empty(warn);
    puzzlebook_free(b);
    puzzlebook_free(c);
    unlink(path);
    rmdir(dir);
}
