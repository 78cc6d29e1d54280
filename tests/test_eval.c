// SPDX-License-Identifier: GPL-3.0-or-later
// Evaluation tests: colour symmetry over the perft suite and random playouts, sane scores for
// known material balances and drawish endings, the pawn cache, and the phase.
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/eval.h"
#include "engine/movegen.h"
#include "tests/helpers.h"

enum { MAX_POSITIONS = 20000, PLAYOUT_GAMES = 120, PLAYOUT_PLIES = 160 };

static char (*positions)[FEN_MAX];
static int position_count;

static void setup(void) {
    board_init_tables();
}

static void add_position(const char *fen) {
    cr_assert_lt(position_count, MAX_POSITIONS);
    snprintf(positions[position_count++], FEN_MAX, "%s", fen);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL; // the random games, fixed seed

// The suite's positions followed by every position of a fixed-seed set of random games.
static void load_positions(void) {
    positions = calloc(MAX_POSITIONS, sizeof *positions);
    cr_assert_not_null(positions);
    position_count = 0;

    char path[1024];
    test_data_path("perftsuite.epd", path, sizeof path);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (semi)
            *semi = '\0';
        size_t n = strlen(line);
        while (n > 0 && isspace((unsigned char)line[n - 1]))
            line[--n] = '\0';
        if (n > 0)
            add_position(line);
    }
    fclose(f);
    cr_assert_gt(position_count, 100);

    Board b;
    rng_state = 0x9E3779B97F4A7C15ULL;
    for (int g = 0; g < PLAYOUT_GAMES; g++) {
        board_set_start(&b);
        for (int ply = 0; ply < PLAYOUT_PLIES; ply++) {
            MoveList list;
            movegen_legal(&b, &list);
            if (list.count == 0)
                break;
            board_play(&b, list.moves[test_rng_next(&rng_state) % (unsigned)list.count]);
            char fen[FEN_MAX];
            board_to_fen(&b, fen, sizeof fen);
            add_position(fen);
        }
    }
}

static void teardown_positions(void) {
    free(positions);
    positions = NULL;
}

static void setup_positions(void) {
    setup();
    load_positions();
}

// The position flipped top to bottom with the colours swapped.
static void mirror_fen(const char *fen, char *out, size_t outsz) {
    char board[96], side[4], castle[8], ep[4];
    int half = 0, full = 1;
    int got = sscanf(fen, "%95s %3s %7s %3s %d %d", board, side, castle, ep, &half, &full);
    cr_assert_geq(got, 4, "bad FEN %s", fen);

    char ranks[8][16];
    int nr = 0;
    for (char *tok = strtok(board, "/"); tok && nr < 8; tok = strtok(NULL, "/"))
        snprintf(ranks[nr++], sizeof ranks[0], "%s", tok);
    cr_assert_eq(nr, 8);

    char flipped[96] = "";
    for (int i = 7; i >= 0; i--) {
        for (char *p = ranks[i]; *p; p++)
            *p = isupper((unsigned char)*p) ? (char)tolower((unsigned char)*p)
                                            : (char)toupper((unsigned char)*p);
        strcat(flipped, ranks[i]);
        if (i > 0)
            strcat(flipped, "/");
    }

    char rights[8] = "";
    if (strchr(castle, 'k'))
        strcat(rights, "K");
    if (strchr(castle, 'q'))
        strcat(rights, "Q");
    if (strchr(castle, 'K'))
        strcat(rights, "k");
    if (strchr(castle, 'Q'))
        strcat(rights, "q");
    if (!*rights)
        strcat(rights, "-");

    char epm[4] = "-";
    if (ep[0] != '-') {
        epm[0] = ep[0];
        epm[1] = (char)('1' + '8' - ep[1]);
        epm[2] = '\0';
    }
    snprintf(out, outsz, "%s %c %s %s %d %d", flipped, side[0] == 'w' ? 'b' : 'w', rights, epm,
             half, full);
}

static int eval_fen(const char *fen) {
    Board b;
    test_board_from_fen(&b, fen);
    return eval_evaluate(&b, NULL);
}

// The score from White's point of view.
static int white_eval(const char *fen) {
    Board b;
    test_board_from_fen(&b, fen);
    int v = eval_evaluate(&b, NULL);
    return b.side == WHITE ? v : -v;
}

TestSuite(eval, .init = setup);
TestSuite(eval_positions, .init = setup_positions, .fini = teardown_positions, .timeout = 120);

Test(eval_positions, colour_symmetry) {
    Board b, m;
    int checked = 0;
    for (int i = 0; i < position_count; i++) {
        char mirrored[FEN_MAX + 8];
        mirror_fen(positions[i], mirrored, sizeof mirrored);
        test_board_from_fen(&b, positions[i]);
        test_board_from_fen(&m, mirrored);
        int v = eval_evaluate(&b, NULL), w = eval_evaluate(&m, NULL);
        cr_assert_eq(v, w, "%s scores %d, mirrored %s scores %d", positions[i], v, mirrored, w);
        checked++;
    }
    cr_assert_gt(checked, 5000);
}

Test(eval_positions, mirror_of_mirror_is_identity) {
    for (int i = 0; i < position_count; i += 7) {
        char m1[FEN_MAX + 8], m2[FEN_MAX + 8];
        mirror_fen(positions[i], m1, sizeof m1);
        mirror_fen(m1, m2, sizeof m2);
        cr_assert_str_eq(m2, positions[i]);
    }
}

Test(eval_positions, pawn_cache_matches_uncached) {
    Board b;
    PawnCache *pc = eval_pawn_cache_new();
    cr_assert_not_null(pc);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < position_count; i++) {
            test_board_from_fen(&b, positions[i]);
            int cached = eval_evaluate(&b, pc), plain = eval_evaluate(&b, NULL);
            cr_assert_eq(cached, plain, "%s: cached %d, uncached %d (pass %d)", positions[i],
                         cached, plain, pass);
        }
        if (pass == 0)
            eval_pawn_cache_clear(pc);
    }
    eval_pawn_cache_free(pc);
}

Test(eval_positions, scores_stay_inside_eval_bounds) {
    Board b;
    for (int i = 0; i < position_count; i++) {
        test_board_from_fen(&b, positions[i]);
        int v = eval_evaluate(&b, NULL);
        cr_assert(v > -VALUE_EVAL_MAX && v < VALUE_EVAL_MAX, "%s: %d", positions[i], v);
    }
}

Test(eval_positions, explain_terms_add_up) {
    Board b;
    for (int i = 0; i < position_count; i += 3) {
        test_board_from_fen(&b, positions[i]);
        EvalTerm terms[EVAL_TERMS_MAX];
        int n = eval_explain(&b, terms, EVAL_TERMS_MAX);
        cr_assert(n > 3 && n <= EVAL_TERMS_MAX);
        int phase = eval_phase(&b), sum = 0;
        for (int t = 0; t < n; t++) {
            cr_assert_not_null(terms[t].name);
            sum += (terms[t].mg * phase + terms[t].eg * (EVAL_PHASE_MAX - phase)) / EVAL_PHASE_MAX;
        }
        int v = eval_evaluate(&b, NULL);
        int white_v = b.side == WHITE ? v : -v;
        // Blending each term separately may round differently from blending the sum.
        cr_assert(abs(sum - white_v) <= n, "%s: terms sum to %d, eval %d", positions[i], sum,
                  white_v);
    }
}

Test(eval, explain_respects_max) {
    Board b;
    board_set_start(&b);
    EvalTerm terms[3];
    cr_assert_eq(eval_explain(&b, terms, 3), 3);
    cr_assert_str_eq(terms[0].name, "material");
    cr_assert_eq(terms[0].mg, 0);
}

Test(eval, start_position_is_balanced) {
    int v = eval_fen(BOARD_START_FEN);
    cr_assert(abs(v) <= 50, "start scores %d", v);
    int w = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    cr_assert(abs(w) <= 50, "start, black to move, scores %d", w);
}

Test(eval, queen_up_is_winning) {
    cr_assert_gt(white_eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 700);
    cr_assert_gt(eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 700);
    cr_assert_lt(eval_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"), -700);
    cr_assert_gt(eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1"), 700);
}

Test(eval, opposite_bishops_are_drawish) {
    Board b;
    const char *fens[] = {
        "8/4k3/3b4/p4p2/P4P2/3B4/4K3/8 w - - 0 1", // equal pawns
        "8/4k3/3b4/p7/P4P2/3B4/4K3/8 w - - 0 1",   // White a pawn up
        "8/4k3/3b4/p7/P4P2/3B4/4K3/8 b - - 0 1",
        "8/2k5/3b4/1p1p4/1P6/3B4/4K3/8 w - - 0 1",   // Black a pawn up
        "8/4k3/3b2p1/p6p/P4P1P/3B4/4K3/8 w - - 0 1", // White a pawn up, more pawns
    };
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        test_board_from_fen(&b, fens[i]);
        Bitboard bishops = b.pieces[BISHOP];
        cr_assert((bishops & BB_LIGHT_SQUARES) && (bishops & BB_DARK_SQUARES));
        int v = eval_evaluate(&b, NULL);
        cr_assert(abs(v) < 60, "%s scores %d", fens[i], v);
    }
}

Test(eval, lone_minor_cannot_win) {
    const char *fens[] = {
        "8/8/4k3/8/8/3BK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3NK3/8/8 b - - 0 1",
        "8/8/2n1k3/8/8/4K3/8/8 w - - 0 1",
        "8/8/2b1k3/8/8/4K3/8/8 b - - 0 1",
        // A bishop against a pawn: only the pawn side could ever win.
        "8/8/4k3/8/8/3BK3/7p/8 w - - 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        int v = white_eval(fens[i]);
        cr_assert(v <= 10, "%s scores %d", fens[i], v);
        if (i < 6)
            cr_assert(abs(v) <= 10, "%s scores %d", fens[i], v);
    }
}

Test(eval, minor_up_without_pawns_is_small) {
    int rb = white_eval("8/8/4k3/3b4/8/4K3/8/R7 w - - 0 1");
    int rn = white_eval("8/8/4k3/3n4/8/4K3/8/R7 w - - 0 1");
    int nn = white_eval("8/8/4k3/8/8/4K3/8/NN6 w - - 0 1");
    cr_assert(rb >= 0 && rb < 60, "KRvKB scores %d", rb);
    cr_assert(rn >= 0 && rn < 60, "KRvKN scores %d", rn);
    cr_assert(nn >= 0 && nn < 30, "KNNvK scores %d", nn);
    // The queen against a rook is still a win.
    cr_assert_gt(white_eval("8/8/4k3/3r4/8/4K3/8/Q7 w - - 0 1"), 300);
    // Bishop and knight mate.
    cr_assert_gt(white_eval("8/8/4k3/8/8/4K3/8/BN6 w - - 0 1"), 400);
}

Test(eval, rook_against_bare_king_is_winning) {
    cr_assert_gt(eval_fen("8/8/4k3/8/8/4K3/8/R7 w - - 0 1"), 400);
    cr_assert_lt(eval_fen("8/8/4k3/8/8/4K3/8/R7 b - - 0 1"), -400);
    cr_assert_gt(eval_fen("r7/8/4k3/8/8/4K3/8/8 b - - 0 1"), 400);
}

Test(eval, advanced_passed_pawn_is_worth_more) {
    cr_assert_gt(white_eval("8/2P4k/8/8/8/8/8/K7 w - - 0 1"),
                 white_eval("8/7k/8/8/8/2P5/8/K7 w - - 0 1"));
    cr_assert_gt(white_eval("r5k1/2P2ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"),
                 white_eval("r5k1/5ppp/8/8/8/2P5/5PPP/R5K1 w - - 0 1"));
    cr_assert_lt(white_eval("r5k1/5ppp/8/8/8/8/2p2PPP/R5K1 b - - 0 1"),
                 white_eval("r5k1/5ppp/2p5/8/8/8/5PPP/R5K1 b - - 0 1"));
}

Test(eval, unstoppable_pawn_in_pawn_ending) {
    // The black king is outside the square of the a-pawn ...
    int out = white_eval("7k/8/8/P7/8/8/8/K7 w - - 0 1");
    // ... or inside it.
    int in = white_eval("2k5/8/8/P7/8/8/8/K7 w - - 0 1");
    cr_assert_gt(out, 500, "unstoppable pawn scores %d", out);
    cr_assert_gt(out, in + 300, "outside %d, inside %d", out, in);
    // With Black to move the king reaches the square in time.
    int catchable = white_eval("4k3/8/8/P7/8/8/8/K7 b - - 0 1");
    int runs = white_eval("4k3/8/8/P7/8/8/8/K7 w - - 0 1");
    cr_assert_gt(runs, catchable + 300, "white to move %d, black to move %d", runs, catchable);
}

Test(eval, bad_structure_costs) {
    // Doubled, isolated pawns against a healthy chain, everything else equal.
    int healthy = white_eval("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
    int broken = white_eval("4k3/pppp4/8/8/8/2P5/P1P5/4K3 w - - 0 1");
    cr_assert_lt(broken, healthy);
}

Test(eval, phase) {
    Board b;
    board_set_start(&b);
    cr_assert_eq(eval_phase(&b), EVAL_PHASE_MAX);
    cr_assert_eq(EVAL_PHASE_MAX, 24);
    test_board_from_fen(&b, "8/8/4k3/8/4P3/4K3/8/8 w - - 0 1");
    cr_assert_eq(eval_phase(&b), 0);
    test_board_from_fen(&b, "r3k3/8/8/8/8/8/8/2B1K1N1 w - - 0 1");
    cr_assert_eq(eval_phase(&b), 4);
    // Promoted queens do not push the phase past the maximum.
    test_board_from_fen(&b, "qqqqk3/8/8/8/8/8/8/QQQQK3 w - - 0 1");
    cr_assert_eq(eval_phase(&b), EVAL_PHASE_MAX);
}

Test(eval, piece_values) {
    cr_assert_eq(eval_piece_value(KING), 0);
    cr_assert(eval_piece_value(PAWN) >= 80 && eval_piece_value(PAWN) <= 120);
    cr_assert_lt(eval_piece_value(PAWN), eval_piece_value(KNIGHT));
    cr_assert_leq(eval_piece_value(KNIGHT), eval_piece_value(BISHOP));
    cr_assert_lt(eval_piece_value(BISHOP), eval_piece_value(ROOK));
    cr_assert_lt(eval_piece_value(ROOK), eval_piece_value(QUEEN));
    cr_assert(eval_piece_value(QUEEN) >= 850 && eval_piece_value(QUEEN) <= 1150);
}

// The white-relative middlegame (or endgame) part of a named eval_explain term.
static int term_part(const char *fen, const char *name, bool endgame) {
    Board b;
    test_board_from_fen(&b, fen);
    EvalTerm terms[EVAL_TERMS_MAX];
    int n = eval_explain(&b, terms, EVAL_TERMS_MAX);
    for (int i = 0; i < n; i++)
        if (!strcmp(terms[i].name, name))
            return endgame ? terms[i].eg : terms[i].mg;
    cr_assert_fail("no term %s", name);
    return 0;
}

static int term_mg(const char *fen, const char *name) { return term_part(fen, name, false); }
static int term_eg(const char *fen, const char *name) { return term_part(fen, name, true); }

Test(eval, king_safety) {
    const char *castled = "r1bq1rk1/pppp1ppp/2n2n2/8/8/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1";
    cr_assert_eq(term_mg(castled, "king safety"), 0);
    // White's castled king without its pawn shield.
    int bare =
        term_mg("r1bq1rk1/pppp1ppp/2n2n2/8/8/2N2N2/PPPPP3/R1BQ1RK1 w - - 0 1", "king safety");
    cr_assert_lt(bare, -50, "bare king: %d", bare);
    // Queen, knight and bishop bearing down on White's king cost more than the bishop alone.
    int attacked =
        term_mg("r1b2rk1/pppp1ppp/3b4/8/6nq/2N5/PPPP1PPP/R1BQR1K1 w - - 0 1", "king safety");
    int quiet = term_mg("r1b2rk1/pppp1ppp/3b4/8/8/2N5/PPPP1PPP/R1BQR1K1 w - - 0 1", "king safety");
    cr_assert_lt(attacked, quiet - 100, "attacked %d, quiet %d", attacked, quiet);
}

Test(eval, rook_on_open_file_and_seventh) {
    int open = term_mg("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "pieces");
    int closed = term_mg("6k1/3p1ppp/8/8/8/8/3P1PPP/3R2K1 w - - 0 1", "pieces");
    cr_assert_gt(open, closed);
    // A rook ending: the seventh rank counts in the endgame part (the tuned weights put
    // its middlegame part near zero).
    int seventh = term_eg("6k1/R4ppp/8/8/8/8/5PPP/6K1 w - - 0 1", "pieces");
    int sixth = term_eg("6k1/5ppp/R7/8/8/8/5PPP/6K1 w - - 0 1", "pieces");
    cr_assert_gt(seventh, sixth);
}

Test(eval, development) {
    // Black has developed both knights, White nothing.
    int dev =
        term_mg("r1bqkb1r/pppppppp/2n2n2/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3", "development");
    cr_assert_lt(dev, 0);
}

Test(eval, sane_when_in_check) {
    int v = eval_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    cr_assert(v > -VALUE_EVAL_MAX && v < VALUE_EVAL_MAX);
}

Test(eval, pawn_cache_new_and_clear) {
    PawnCache *pc = eval_pawn_cache_new();
    cr_assert_not_null(pc);
    Board b;
    board_set_start(&b);
    int v = eval_evaluate(&b, pc);
    eval_pawn_cache_clear(pc);
    cr_assert_eq(eval_evaluate(&b, pc), v);
    cr_assert_eq(eval_evaluate(&b, pc), v);
    eval_pawn_cache_clear(NULL);
    eval_pawn_cache_free(pc);
    eval_pawn_cache_free(NULL);
}

// Minor pieces on the last rank (no square in front of them) with pawns about:
// the terms that look one square ahead must not step off the board (the
// sanitizer build checks the shifts), and the score stays colour-symmetric.
Test(eval, minors_on_the_last_rank) {
    static const char *const fens[] = {
        "1N2k2B/p6p/8/8/8/8/P6P/1n2K2b w - - 0 1",
        "N3k2n/P6p/8/8/8/8/p6P/n3K2N b - - 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        char mirrored[FEN_MAX + 8];
        mirror_fen(fens[i], mirrored, sizeof mirrored);
        cr_expect_eq(eval_fen(fens[i]), eval_fen(mirrored), "%s / %s", fens[i], mirrored);
    }
}

// Development in Chess960: minor pieces start anywhere on the back rank, so
// those still on it are the undeveloped ones (not those on b1, c1, f1, g1).
Test(eval, chess960_development_counts_the_back_rank) {
    Board b;
    char err[128];
    // Start #0 (BBQNNRKR), White's knights out to c3 and f3, Black's at home.
    cr_assert(board_set_fen(&b, "bbqnnrkr/pppppppp/8/8/8/2N2N2/PPPPPPPP/BBQ2RKR w HFhf - 0 1",
                            err, sizeof err),
              "%s", err);
    cr_assert(b.chess960);
    EvalTerm terms[EVAL_TERMS_MAX];
    int n = eval_explain(&b, terms, EVAL_TERMS_MAX);
    int development = 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(terms[i].name, "development"))
            development = terms[i].mg;
    cr_assert_gt(development, 0, "White, two minors out, is ahead in development (%d)",
                 development);
}
