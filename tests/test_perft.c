// SPDX-License-Identifier: GPL-3.0-or-later
// Perft over tests/data/perftsuite.epd and hand-picked edge positions, and the
// agreement of the counting, full, noisy and quiet generators along the way.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"
#include "engine/perft.h"
#include "tests/helpers.h"

enum { SUITE_POSITIONS = 128, LINE_MAX_LEN = 512, MAX_DEPTHS = 16 };

// One line of the suite: the FEN and the expected count at each listed depth.
typedef struct SuiteEntry {
    char fen[LINE_MAX_LEN];
    int line;
    int ndepths;
    int depths[MAX_DEPTHS];
    uint64_t counts[MAX_DEPTHS];
} SuiteEntry;

static SuiteEntry suite[SUITE_POSITIONS + 8];
static int suite_size;
static Board board; // the position each test works on

// Parses "FEN ;D1 20 ;D2 400 ..." into e. Returns false on a malformed line.
static bool parse_suite_line(char *text, SuiteEntry *e) {
    text[strcspn(text, "\r\n")] = '\0';
    char *semi = strstr(text, " ;");
    if (!semi)
        return false;
    size_t len = (size_t)(semi - text);
    if (len >= sizeof e->fen)
        return false;
    memcpy(e->fen, text, len);
    e->fen[len] = '\0';
    e->ndepths = 0;
    for (char *p = semi; (p = strchr(p, ';')) != NULL; p++) {
        int depth;
        unsigned long long count;
        if (sscanf(p, ";D%d %llu", &depth, &count) != 2 || e->ndepths == MAX_DEPTHS)
            return false;
        e->depths[e->ndepths] = depth;
        e->counts[e->ndepths] = count;
        e->ndepths++;
    }
    return e->ndepths > 0;
}

// Reads the whole suite (the last line may lack its newline).
static void load_suite(void) {
    char path[1024];
    test_data_path("perftsuite.epd", path, sizeof path);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "cannot open %s", path);
    char text[LINE_MAX_LEN];
    int line = 0;
    suite_size = 0;
    while (fgets(text, sizeof text, f)) {
        line++;
        if (text[strspn(text, " \t\r\n")] == '\0')
            continue;
        cr_assert_lt(suite_size, (int)(sizeof suite / sizeof suite[0]), "too many suite lines");
        SuiteEntry *e = &suite[suite_size];
        cr_assert(parse_suite_line(text, e), "%s:%d: malformed line", path, line);
        e->line = line;
        suite_size++;
    }
    fclose(f);
}

static void setup(void) {
    board_init_tables();
    load_suite();
}

static uint64_t perft_budget(void) {
    const char *env = getenv("PATZER_PERFT_BUDGET");
    if (env && *env) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (*end == '\0' && v > 0)
            return v;
    }
    return 3000000;
}

static bool perft_full(void) {
    const char *env = getenv("PATZER_PERFT_FULL");
    return env && strcmp(env, "1") == 0;
}

// ------------------------------------------------------------------ the suite

Test(perft, suite, .init = setup, .timeout = 1800) {
    bool full = perft_full();
    uint64_t budget = perft_budget();
    int checked = 0, depths_run = 0;
    for (int i = 0; i < suite_size; i++) {
        const SuiteEntry *e = &suite[i];
        test_board_from_fen(&board, e->fen);
        // The deepest depth within the budget; when even the shallowest listed
        // depth is over it, that one alone, so that every position is checked.
        int deepest = 0;
        for (int j = 1; j < e->ndepths; j++)
            if (e->counts[j] <= budget && e->depths[j] > e->depths[deepest])
                deepest = j;
        for (int j = 0; j < e->ndepths; j++) {
            if (!full && j != deepest)
                continue;
            uint64_t got = perft(&board, e->depths[j]);
            cr_expect_eq(got, e->counts[j], "line %d, \"%s\", depth %d: got %llu, expected %llu",
                         e->line, e->fen, e->depths[j], (unsigned long long)got,
                         (unsigned long long)e->counts[j]);
            depths_run++;
        }
        checked++;
    }
    cr_expect_eq(checked, SUITE_POSITIONS, "checked %d positions, expected %d", checked,
                 SUITE_POSITIONS);
    cr_expect_geq(depths_run, checked);
}

// ------------------------------------------------------------------ edge positions

// Counts verified with Stockfish 'go perft'; counts[d - 1] is depth d, 0 ends.
typedef struct EdgeCase {
    const char *name;
    const char *fen;
    uint64_t counts[6];
} EdgeCase;

static const EdgeCase edge_cases[] = {
    { "CPW position 3",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      { 14, 191, 2812, 43238, 674624 } },
    { "CPW position 4",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      { 6, 264, 9467, 422333 } },
    { "CPW position 4 mirrored",
      "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
      { 6, 264, 9467, 422333 } },
    { "CPW position 5",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      { 44, 1486, 62379 } },
    { "CPW position 6",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      { 46, 2079, 89890, 3894594 } },
    { "ep capture would expose the king on the rank",
      "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
      { 4, 68, 317, 5850, 33070 } },
    { "ep capture removes two pawns from the king's rank",
      "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
      { 6, 136, 863, 20471, 117741 } },
    { "ep capture of the checking pawn",
      "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
      { 9, 50, 379, 2369, 17879 } },
    { "ep capture along a diagonal pin",
      "1b6/8/8/3pP3/8/8/7K/k7 w - d6 0 1",
      { 6, 46, 282, 3099, 19351 } },
    { "ep with a bishop behind",
      "8/8/3k4/8/2pP4/8/8/B3K3 b - d3 0 1",
      { 8, 65, 499, 5087, 37427 } },
    { "promotions with check",
      "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
      { 13, 124, 1434, 18285, 230789 } },
    { "castling rights lost by rook captures",
      "r3k2r/6B1/8/8/8/8/8/R3K2R w KQkq - 0 1",
      { 34, 714, 22268, 501075 } },
    { "all castling", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", { 26, 568, 13744, 314346 } },
    { "no castling out of check", "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", { 4, 68, 1654, 26787 } },
    { "no castling through check",
      "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1",
      { 22, 363, 7899, 122635 } },
    { "castling with b1 attacked",
      "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
      { 26, 357, 9198, 142850 } },
    { "double check", "4k3/8/8/8/8/5n2/3P4/R3K2r w Q - 0 1", { 2, 54, 932, 20366, 342361 } },
    { "pinned pawn", "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1", { 4, 52, 398, 5436, 39148 } },
    { "pinned pawn, pusher to move",
      "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
      { 18, 92, 1670, 10138, 185429 } },
};

Test(perft, edge_positions, .init = setup, .timeout = 600) {
    uint64_t budget = perft_full() ? UINT64_MAX : perft_budget();
    for (size_t i = 0; i < sizeof edge_cases / sizeof edge_cases[0]; i++) {
        const EdgeCase *c = &edge_cases[i];
        test_board_from_fen(&board, c->fen);
        for (int d = 1; d <= 6 && c->counts[d - 1]; d++) {
            // Depth 1 to 3 always; deeper ones within the budget.
            if (d > 3 && c->counts[d - 1] > budget)
                break;
            uint64_t got = perft(&board, d);
            cr_expect_eq(got, c->counts[d - 1], "%s, \"%s\", depth %d: got %llu, expected %llu",
                         c->name, c->fen, d, (unsigned long long)got,
                         (unsigned long long)c->counts[d - 1]);
        }
    }
}

Test(perft, depth_zero_and_restore, .init = setup) {
    test_board_from_fen(&board, suite[1].fen);
    Board before = board;
    cr_expect_eq(perft(&board, 0), 1);
    cr_expect_eq(perft(&board, 1), 48);
    cr_expect_eq(perft(&board, 3), 97862);
    cr_expect_eq(memcmp(&before, &board, sizeof board), 0, "perft changed the board");
}

// perft_divide: one entry per legal root move, in generation order, whose
// counts are perft of the child and sum to the total.
Test(perft, divide, .init = setup) {
    static PerftDivide div;
    static MoveList list;
    for (int i = 0; i < suite_size; i += 9) {
        test_board_from_fen(&board, suite[i].fen);
        for (int depth = 1; depth <= 2; depth++) {
            perft_divide(&board, depth, &div);
            movegen_legal(&board, &list);
            cr_assert_eq(div.count, list.count, "line %d depth %d", suite[i].line, depth);
            uint64_t sum = 0;
            for (int j = 0; j < div.count; j++) {
                cr_expect_eq(div.moves[j], list.moves[j], "line %d: move %d differs", suite[i].line,
                             j);
                Board after = board;
                board_play(&after, div.moves[j]);
                uint64_t child = perft(&after, depth - 1);
                cr_expect_eq(div.counts[j], child, "line %d depth %d move %d", suite[i].line, depth,
                             j);
                sum += div.counts[j];
            }
            cr_expect_eq(div.total, sum);
            cr_expect_eq(div.total, perft(&board, depth), "line %d depth %d", suite[i].line, depth);
        }
    }
}

// ------------------------------------------------------------------ generator agreement

// Marks per 16-bit move value, stamped with a generation number so that the
// sets need no clearing.
static uint32_t mark_legal[65536], mark_noisy[65536];
static uint32_t stamp;
static long nodes_checked;

static void check_generators(const Board *b, const char *fen) {
    static MoveList legal, noisy, quiet;
    movegen_legal(b, &legal);
    movegen_noisy(b, &noisy);
    movegen_quiet(b, &quiet);
    int count = movegen_count(b);
    char now[FEN_MAX];
    board_to_fen(b, now, sizeof now);
    cr_expect_eq(count, legal.count, "from \"%s\" at \"%s\": count %d, list %d", fen, now, count,
                 legal.count);
    cr_expect_eq(noisy.count + quiet.count, legal.count,
                 "from \"%s\" at \"%s\": noisy %d + quiet %d != legal %d", fen, now, noisy.count,
                 quiet.count, legal.count);

    stamp++;
    for (int i = 0; i < legal.count; i++) {
        cr_expect_neq(mark_legal[legal.moves[i]], stamp, "at \"%s\": move %#x listed twice", now,
                      legal.moves[i]);
        mark_legal[legal.moves[i]] = stamp;
    }
    for (int i = 0; i < noisy.count; i++) {
        Move m = noisy.moves[i];
        cr_expect_eq(mark_legal[m], stamp, "at \"%s\": noisy move %#x not legal", now, m);
        cr_expect_neq(mark_noisy[m], stamp, "at \"%s\": noisy move %#x listed twice", now, m);
        cr_expect(board_is_capture(b, m) || move_is_promotion(m),
                  "at \"%s\": noisy move %#x neither captures nor promotes", now, m);
        mark_noisy[m] = stamp;
    }
    for (int i = 0; i < quiet.count; i++) {
        Move m = quiet.moves[i];
        cr_expect_eq(mark_legal[m], stamp, "at \"%s\": quiet move %#x not legal", now, m);
        cr_expect_neq(mark_noisy[m], stamp, "at \"%s\": move %#x both noisy and quiet", now, m);
        cr_expect(!board_is_capture(b, m) && !move_is_promotion(m),
                  "at \"%s\": quiet move %#x captures or promotes", now, m);
        // Mark as seen so a duplicate in the quiet list is caught too.
        mark_noisy[m] = stamp;
    }
    nodes_checked++;
}

Test(perft, generators_agree_two_plies_deep, .init = setup, .timeout = 600) {
    static MoveList root, child;
    nodes_checked = 0;
    for (int i = 0; i < suite_size; i++) {
        const char *fen = suite[i].fen;
        test_board_from_fen(&board, fen);
        check_generators(&board, fen);
        movegen_legal(&board, &root);
        for (int j = 0; j < root.count; j++) {
            Undo u1, u2;
            board_make_move(&board, root.moves[j], &u1);
            check_generators(&board, fen);
            movegen_legal(&board, &child);
            // Every child of the first few root moves, every fourth otherwise.
            for (int k = j < 4 ? 0 : j % 4; k < child.count; k += j < 4 ? 1 : 4) {
                board_make_move(&board, child.moves[k], &u2);
                check_generators(&board, fen);
                board_unmake_move(&board, &u2);
            }
            board_unmake_move(&board, &u1);
        }
    }
    cr_expect_gt(nodes_checked, 10000, "only %ld positions checked", nodes_checked);
}
