// SPDX-License-Identifier: GPL-3.0-or-later
// The coach's answers at once: the theme detector (one position per theme),
// the puzzle set's file (a round trip, a bad line named), the shipped set
// (data/puzzles.txt: at least 1,000 puzzles, every solution legal, every
// theme the detector's), the judgement of a move that is not the solution's
// (a second mate, a second way to win, a move that loses), and the miner
// (every game of a file searched once, on several workers).
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/coach/judge.h"
#include "src/coach/miner.h"
#include "src/coach/puzzleset.h"
#include "src/coach/theme.h"
#include "tests/helpers.h"

#ifndef TEST_PUZZLES
#define TEST_PUZZLES "data/puzzles.txt"
#endif

// A puzzle of fen with the UCI solution (player, opponent, ...).
static Puzzle make_puzzle(const char *fen, const char *solution) {
    Puzzle p;
    memset(&p, 0, sizeof p);
    snprintf(p.fen, sizeof p.fen, "%s", fen);
    Board b;
    test_board_from_fen(&b, fen);
    char buf[128];
    snprintf(buf, sizeof buf, "%s", solution);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        Move m = test_uci_move(&b, w);
        p.solution[p.length++] = m;
        board_play(&b, m);
    }
    p.played = p.solution[0];
    p.rating = 1200;
    snprintf(p.source, sizeof p.source, "test");
    return p;
}

static ThemeInfo detect(const char *fen, const char *solution) {
    Puzzle p = make_puzzle(fen, solution);
    Board b;
    test_board_from_fen(&b, fen);
    return theme_detect(&b, p.solution, p.length);
}

static void expect_theme(const char *fen, const char *solution, const char *want) {
    char got[THEME_TEXT_MAX];
    theme_token(detect(fen, solution), got, sizeof got);
    cr_expect_str_eq(got, want, "%s [%s]", fen, solution);
}

Test(theme, mate_in_one_and_two) {
    expect_theme("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8", "mate1");
    expect_theme("r5k1/1b3ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1", "d2d8 a8d8 d1d8", "mate2");
}

Test(theme, promotion) {
    expect_theme("8/4P1k1/8/8/8/8/6K1/8 w - - 0 1", "e7e8q", "promotion");
}

Test(theme, fork) {
    // Nc7+ attacks the king and the rook on a8.
    expect_theme("r3k3/6p1/8/1N6/8/P7/1P4P1/4K3 w - - 0 1", "b5c7 e8d7 c7a8", "fork");
}

Test(theme, skewer) {
    // Rd1+ drives the king off the file and the queen behind it falls.
    expect_theme("3q4/8/8/3k4/8/8/8/R5K1 w - - 0 1", "a1d1 d5e6 d1d8", "skewer");
}

Test(theme, pin) {
    // Bb5 pins the knight on c6 to the king on e8.
    expect_theme("4k3/8/2n5/8/8/8/8/4KB2 w - - 0 1", "f1b5", "pin");
}

Test(theme, discovered_attack) {
    // The bishop leaves the e-file with check; the rook now hits the queen.
    expect_theme("4q1k1/8/8/8/4B3/8/8/4R1K1 w - - 0 1", "e4d5", "discovered");
}

Test(theme, hanging_piece) {
    expect_theme("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5", "hanging");
}

Test(theme, defence) {
    // The knight attacked by a pawn steps away.
    expect_theme("4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1", "e4c3", "defence");
    // In check, the king steps away.
    expect_theme("4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "e1e2", "defence");
}

Test(theme, quiet_move) {
    expect_theme("4k3/8/8/8/8/8/r7/4K3 w - - 0 1", "e1f1", "quiet");
}

Test(theme, advantage_when_no_motif) {
    // A pawn takes a defended knight: material, but none of the motifs.
    expect_theme("4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", "advantage");
}

Test(theme, words_tokens_and_parse) {
    char buf[THEME_TEXT_MAX];
    ThemeInfo t;
    cr_assert(theme_parse("mate2", &t));
    cr_expect(t.theme == THEME_MATE && t.mate_in == 2);
    theme_words(t, buf, sizeof buf);
    cr_expect_str_eq(buf, "mate in 2");
    cr_assert(theme_parse("mate in 3", &t));
    cr_expect_eq(t.mate_in, 3);
    cr_assert(theme_parse("mate", &t));
    cr_expect(theme_matches((ThemeInfo){ THEME_MATE, 4 }, t), "mate alone matches any mate");
    cr_assert(theme_parse("discovered attack", &t));
    cr_expect_eq(t.theme, THEME_DISCOVERED);
    cr_assert(theme_parse("hanging", &t));
    cr_expect_eq(t.theme, THEME_HANGING);
    cr_assert(theme_parse("defense", &t));
    cr_expect_eq(t.theme, THEME_DEFENCE);
    cr_expect(!theme_parse("mate0", &t));
    cr_expect(!theme_parse("forks", &t));
    cr_expect(!theme_matches((ThemeInfo){ THEME_PIN, 0 }, (ThemeInfo){ THEME_FORK, 0 }));
}

// ------------------------------------------------------------ the set file

Test(puzzleset, round_trip) {
    PuzzleSet set;
    puzzleset_init(&set);
    Puzzle a = make_puzzle("r3k3/6p1/8/1N6/8/P7/1P4P1/4K3 w - - 0 1", "b5c7 e8d7 c7a8");
    Puzzle b = make_puzzle("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "a1a8");
    snprintf(b.source, sizeof b.source, "Morphy.pgn#3 21. Qh5");
    cr_assert(puzzleset_add(&set, &a, (ThemeInfo){ THEME_FORK, 0 }));
    cr_assert(puzzleset_add(&set, &b, (ThemeInfo){ THEME_MATE, 1 }));
    char *text = puzzleset_format(&set, "# test\n");
    cr_assert_not_null(text);
    PuzzleSet back;
    puzzleset_init(&back);
    char err[256] = "";
    cr_assert(puzzleset_parse(&back, text, "t", err, sizeof err), "%s", err);
    cr_assert_eq(back.count, 2);
    cr_expect_str_eq(back.items[1].puzzle.source, "Morphy.pgn#3 21. Qh5");
    cr_expect_eq(back.items[0].puzzle.length, 3);
    cr_expect_eq(back.items[0].puzzle.solution[2], a.solution[2]);
    cr_expect(back.items[1].theme.theme == THEME_MATE && back.items[1].theme.mate_in == 1);
    int counts[THEME_NB], mates[THEME_MATE_MAX + 1];
    puzzleset_theme_counts(&back, counts, mates);
    cr_expect(counts[THEME_FORK] == 1 && counts[THEME_MATE] == 1 && mates[1] == 1);
    free(text);
    puzzleset_clear(&set);
    puzzleset_clear(&back);
}

Test(puzzleset, bad_lines_are_named) {
    static const struct {
        const char *line, *why;
    } bad[] = {
        { "x\ty", "expected 6" },
        { "8/8/8/8/8/8/8/8 w - - 0 1\ta1a8\ta1a8\t1200\tfork\ts", "bad FEN" },
        { "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ta1a9\ta1a8\t1200\tfork\ts", "bad solution" },
        { "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ta1a8 g8h8\ta1a8\t1200\tfork\ts", "bad solution" },
        { "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ta1a8\ta1a8\t99999\tfork\ts", "bad rating" },
        { "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\ta1a8\ta1a8\t1200\tforks\ts", "unknown theme" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512], err[512] = "";
        snprintf(text, sizeof text, "# header\n\n%s\n", bad[i].line);
        PuzzleSet set;
        puzzleset_init(&set);
        cr_expect(!puzzleset_parse(&set, text, "set.txt", err, sizeof err), "%s", bad[i].line);
        cr_expect(strstr(err, "set.txt:3: ") && strstr(err, bad[i].why), "%s", err);
        puzzleset_clear(&set);
    }
}

// The shipped set: big enough, legal, and themed by the detector.
Test(puzzleset, shipped_set, .timeout = 60) {
    PuzzleSet set;
    puzzleset_init(&set);
    char err[1024] = "";
    cr_assert(puzzleset_load(&set, TEST_PUZZLES, err, sizeof err), "%s", err);
    cr_expect_geq(set.count, 1000, "%d puzzles", set.count);
    int counts[THEME_NB], mates[THEME_MATE_MAX + 1];
    puzzleset_theme_counts(&set, counts, mates);
    for (int i = 0; i < set.count; i++) {
        const SetPuzzle *sp = &set.items[i];
        Board b;
        cr_assert(board_set_fen(&b, sp->puzzle.fen, NULL, 0));
        // Parsing played every move; check again, as a player would meet them.
        for (int k = 0; k < sp->puzzle.length; k++) {
            cr_assert(movegen_is_legal(&b, sp->puzzle.solution[k]), "puzzle %d move %d", i, k);
            board_play(&b, sp->puzzle.solution[k]);
        }
        test_board_from_fen(&b, sp->puzzle.fen);
        ThemeInfo t = theme_detect(&b, sp->puzzle.solution, sp->puzzle.length);
        cr_expect(theme_matches(t, sp->theme) && t.mate_in == sp->theme.mate_in,
                  "puzzle %d (%s): theme is not the detector's", i, sp->puzzle.source);
        cr_expect(strchr(sp->puzzle.source, '#'), "puzzle %d names its game", i);
    }
    cr_expect_gt(counts[THEME_FORK], 0);
    cr_expect_gt(counts[THEME_MATE], 0);
    puzzleset_clear(&set);
}

// ------------------------------------------------------------ judging moves

Test(judge, a_second_mate_is_right, .timeout = 60) {
    Engine *e = engine_new();
    cr_assert_not_null(e);
    Puzzle p = make_puzzle("6k1/5ppp/8/8/8/8/5PPP/RR4K1 w - - 0 1", "a1a8");
    cr_expect(puzzle_ends_in_mate(&p));
    Board b;
    test_board_from_fen(&b, p.fen);
    PuzzleAnswer a;
    cr_expect_eq(puzzle_judge(e, &p, 0, &b, test_uci_move(&b, "a1a8"), 8, &a), JUDGE_RIGHT);
    cr_expect_eq(puzzle_judge(e, &p, 0, &b, test_uci_move(&b, "b1b8"), 8, &a), JUDGE_RIGHT);
    // Winning a lot is not enough when the puzzle mates.
    cr_expect_eq(puzzle_judge(e, &p, 0, &b, test_uci_move(&b, "a1a7"), 8, &a), JUDGE_WRONG);
    engine_free(e);
}

Test(judge, every_move_that_keeps_the_win, .timeout = 60) {
    Engine *e = engine_new();
    cr_assert_not_null(e);
    // Either knight takes the queen.
    Puzzle p = make_puzzle("k7/8/8/3q4/8/2N1N3/P7/K7 w - - 0 1", "c3d5");
    cr_expect(!puzzle_ends_in_mate(&p));
    Board b;
    test_board_from_fen(&b, p.fen);
    PuzzleAnswer a;
    cr_expect_eq(puzzle_judge(e, &p, 0, &b, test_uci_move(&b, "c3d5"), 8, &a), JUDGE_RIGHT);
    cr_expect_eq(puzzle_judge(e, &p, 0, &b, test_uci_move(&b, "e3d5"), 8, &a), JUDGE_ALSO_WINS);
    cr_expect_geq(a.score, PUZZLE_WIN_CP, "score %d", a.score);
    cr_expect_gt(a.line_length, 0);
    // Leaving the queen en prise is wrong, and the answer is a line of the engine's.
    cr_expect_eq(puzzle_judge(e, &p, 0, &b, test_uci_move(&b, "a2a3"), 8, &a), JUDGE_WRONG);
    cr_expect_lt(a.score, PUZZLE_WIN_CP);
    cr_expect_gt(a.line_length, 0);
    engine_free(e);
}

// ------------------------------------------------------------ the miner

typedef struct Seen {
    pthread_mutex_t lock; // on_game runs under the miner's lock; this checks nothing overlaps
    int games, puzzles, done_calls;
    bool numbers[16];
    bool overlap;
    int last;          // the number of the game reported last
    bool out_of_order; // a game reported after one read later
} Seen;

static void seen_game(const MinerGame *g, void *ctx) {
    Seen *s = ctx;
    if (pthread_mutex_trylock(&s->lock) != 0) {
        s->overlap = true;
        return;
    }
    s->games++;
    s->puzzles += g->count;
    if (g->number > 0 && g->number < 16)
        s->numbers[g->number] = true;
    if (g->number <= s->last)
        s->out_of_order = true;
    s->last = g->number;
    pthread_mutex_unlock(&s->lock);
}

static void seen_done(void *ctx) {
    ((Seen *)ctx)->done_calls++;
}

static bool skip_fourth(int file, int number, uint64_t key, void *ctx) {
    (void)file, (void)key, (void)ctx;
    return number == 4;
}

Test(miner, every_game_once_on_two_workers, .timeout = 120) {
    char path[4096], err[512] = "";
    test_data_path("coach/blunders.pgn", path, sizeof path);
    const char *paths[] = { path };
    Seen seen = { .lock = PTHREAD_MUTEX_INITIALIZER };
    MinerOptions mo = { .paths = paths,
                        .path_count = 1,
                        .jobs = 2,
                        .skip = skip_fourth,
                        .on_game = seen_game,
                        .on_done = seen_done,
                        .ctx = &seen };
    puzzle_options_default(&mo.puzzle);
    mo.puzzle.review_depth = 8;
    mo.puzzle.verify_depth = 10;
    Miner *m = miner_start(&mo, err, sizeof err);
    cr_assert_not_null(m, "%s", err);
    miner_free(m); // waits for the workers
    cr_expect(!seen.overlap, "on_game calls overlapped");
    cr_expect_eq(seen.done_calls, 1);
    cr_expect_eq(seen.games, 4, "five games, the fourth skipped");
    cr_expect(seen.numbers[1] && seen.numbers[2] && seen.numbers[3] && seen.numbers[5]);
    cr_expect(!seen.numbers[4]);
    cr_expect(!seen.out_of_order, "games reported in the order read, whichever worker ends first");
    cr_expect_geq(seen.puzzles, 4, "the sample's four puzzles");
}

// A game that cannot be read is passed over, as before, but counted and
// named: the search said nothing of it ("Searched 0 games").
Test(miner, games_that_cannot_be_read_are_counted_and_the_first_named, .timeout = 60) {
    char path[] = "/tmp/patzer-miner-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    static const char text[] = "[Event \"a\"]\n\n1. e4 e5 2. Ke3 *\n\n"
                               "[Event \"b\"]\n[Variant \"Atomic\"]\n\n1. e4 *\n\n"
                               "[Event \"c\"]\n\n1. d4 d5 *\n";
    cr_assert_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    const char *paths[] = { path };
    char err[512] = "";
    MinerOptions mo = { .paths = paths, .path_count = 1, .jobs = 1 };
    puzzle_options_default(&mo.puzzle);
    mo.puzzle.review_depth = 2;
    mo.puzzle.verify_depth = 2;
    Miner *m = miner_start(&mo, err, sizeof err);
    cr_assert_not_null(m, "%s", err);
    int done = 0, found = 0, total = 0;
    const struct timespec tick = { 0, 10000000 };
    while (miner_progress(m, &done, &found, &total), done < 3)
        nanosleep(&tick, NULL);
    const char *first = NULL;
    int unread = miner_unread(m, &first);
    char first_copy[PATH_MAX_LEN + 400];
    snprintf(first_copy, sizeof first_copy, "%s", first);
    miner_free(m);
    unlink(path);
    cr_expect_eq(unread, 2);
    char want[600];
    snprintf(want, sizeof want, "%s:3:13: game 1: illegal move 'Ke3'", path);
    cr_expect(strstr(first_copy, want) == first_copy, "%s", first_copy);
}

Test(miner, a_missing_file_is_said_at_once) {
    const char *paths[] = { "/nonexistent/games.pgn" };
    char err[512] = "";
    MinerOptions mo = { .paths = paths, .path_count = 1, .jobs = 1 };
    puzzle_options_default(&mo.puzzle);
    cr_expect_null(miner_start(&mo, err, sizeof err));
    cr_expect(strstr(err, "/nonexistent/games.pgn"), "%s", err);
}
