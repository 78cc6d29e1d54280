// SPDX-License-Identifier: GPL-3.0-or-later
// Strength levels: the level table and its Elo labels, the UCI options, and
// the weakened search itself: legal, never nonsense (always one of the best
// few lines, never a mate in one given away when avoidable, no queen left
// hanging), cheaper and worse the lower the level, varied by the seed but
// reproducible with a fixed one, and exactly the plain search at full
// strength.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bench.h"
#include "engine/engine.h"
#include "engine/fen.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/skill.h"
#include "tests/helpers.h"

// ------------------------------------------------------------------ helpers

static TTable *tt;
static Searcher *searcher;
static atomic_bool stop_flag;

static void searcher_up(void) {
    board_init_tables();
    tt = tt_new(16);
    cr_assert_not_null(tt);
    atomic_init(&stop_flag, false);
    searcher = search_new(tt, &stop_flag);
    cr_assert_not_null(searcher);
}

static void searcher_down(void) {
    search_free(searcher);
    tt_free(tt);
}

static void set_fen(Board *b, const char *fen) {
    board_init_tables();
    test_board_from_fen(b, fen);
}

// One search of b from a clean table and fresh statistics: level (0 or
// ENGINE_LEVEL_MAX: full strength) with the generator seeded by seed; depth
// 0 means the level's own depth. Only searchmove, when given, is searched.
static SearchResult run(const Board *b, int level, uint64_t seed, int depth, Move searchmove) {
    tt_clear(tt);
    search_clear(searcher);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = depth;
    if (searchmove) {
        limits.searchmoves[0] = searchmove;
        limits.searchmoves_count = 1;
    }
    uint64_t rng = seed;
    SearchParams params = { .multipv = 1, .contempt_percent = 100, .level = level, .rng = &rng };
    SearchResult r;
    search_run(searcher, b, NULL, 0, &limits, &params, NULL, NULL, &r);
    return r;
}

enum { REF_DEPTH = 8 };

// What m loses against the best move, by a full-strength search to REF_DEPTH
// (centipawns, never negative; mate scores clamped to +-2000).
static int clamp_score(int v) {
    return v > 2000 ? 2000 : v < -2000 ? -2000 : v;
}

static int loss_of(const Board *b, Move m) {
    int best = clamp_score(run(b, 0, 1, REF_DEPTH, MOVE_NONE).score);
    int mine = clamp_score(run(b, 0, 1, REF_DEPTH, m).score);
    return best > mine ? best - mine : 0;
}

enum { POSITIONS = 20 };

static bool is_legal(const Board *b, Move m) {
    MoveList list;
    movegen_legal(b, &list);
    return movelist_contains(&list, m);
}

// ------------------------------------------------------------------ the table

Test(skill, level_table_is_monotonic) {
    cr_assert_null(skill_level(0));
    cr_assert_null(skill_level(ENGINE_LEVEL_MAX));
    cr_assert_eq(SKILL_LEVEL_MAX, ENGINE_LEVEL_MAX);
    for (int l = 1; l < ENGINE_LEVEL_MAX; l++) {
        const SkillLevel *a = skill_level(l);
        cr_assert_not_null(a, "level %d", l);
        cr_assert(a->depth >= 1 && a->lines >= 2 && a->lines <= MAX_MULTIPV, "level %d", l);
        cr_assert(a->mistake_percent >= 0 && a->mistake_percent <= 100, "level %d", l);
        cr_assert(a->blind_permille >= 0 && a->blind_permille <= 1000, "level %d", l);
        if (l + 1 == ENGINE_LEVEL_MAX)
            break;
        const SkillLevel *b = skill_level(l + 1);
        cr_assert_leq(a->depth, b->depth, "depth, level %d", l);
        cr_assert_lt(a->nodes, b->nodes, "nodes, level %d", l);
        cr_assert_geq(a->lines, b->lines, "lines, level %d", l);
        cr_assert_gt(a->margin, b->margin, "margin, level %d", l);
        cr_assert_gt(a->temperature, b->temperature, "temperature, level %d", l);
        cr_assert_gt(a->noise, b->noise, "noise, level %d", l);
        cr_assert_gt(a->mistake_percent, b->mistake_percent, "mistakes, level %d", l);
        cr_assert_gt(a->blind_permille, b->blind_permille, "blind moments, level %d", l);
    }
    // elo N, -e and patzer.conf's elo accept the labels' range: what the levels play.
    cr_assert_eq(engine_level_elo(1), ENGINE_ELO_MIN);
    cr_assert_eq(engine_level_elo(ENGINE_LEVEL_MAX), ENGINE_ELO_MAX);
    for (int l = 1; l < ENGINE_LEVEL_MAX; l++)
        cr_assert_lt(engine_level_elo(l), engine_level_elo(l + 1), "Elo label of level %d", l);
    cr_assert_eq(engine_level_elo(0), engine_level_elo(1));
    cr_assert_eq(engine_level_elo(99), engine_level_elo(ENGINE_LEVEL_MAX));
}

Test(skill, level_for_elo_is_the_nearest_level) {
    for (int l = 1; l <= ENGINE_LEVEL_MAX; l++)
        cr_assert_eq(engine_level_for_elo(engine_level_elo(l)), l, "level %d", l);
    cr_assert_eq(engine_level_for_elo(0), 1);
    cr_assert_eq(engine_level_for_elo(ENGINE_ELO_MIN - 300), 1);
    cr_assert_eq(engine_level_for_elo(9999), ENGINE_LEVEL_MAX);
    for (int l = 1; l < ENGINE_LEVEL_MAX; l++) {
        int lo = engine_level_elo(l), hi = engine_level_elo(l + 1);
        cr_assert_eq(engine_level_for_elo(lo + (hi - lo) / 2 - 1), l, "below the middle of %d", l);
        cr_assert_eq(engine_level_for_elo(lo + (hi - lo) / 2 + 1), l + 1, "above the middle of %d",
                     l);
    }
}

// ------------------------------------------------------------------ options

static const EngineOption *find_option(const char *name) {
    for (int i = 0; i < engine_option_count(); i++)
        if (strcmp(engine_option(i)->name, name) == 0)
            return engine_option(i);
    return NULL;
}

static void expect_option(Engine *e, const char *name, const char *value) {
    char buf[64];
    cr_assert(engine_get_option(e, name, buf, sizeof buf), "%s", name);
    cr_assert_str_eq(buf, value, "%s", name);
}

static void set_option(Engine *e, const char *name, const char *value) {
    char err[160];
    cr_assert(engine_set_option(e, name, value, err, sizeof err), "%s=%s: %s", name, value, err);
}

Test(skill, uci_options_choose_the_level) {
    const EngineOption *limit = find_option("UCI_LimitStrength");
    const EngineOption *elo = find_option("UCI_Elo");
    cr_assert_not_null(limit);
    cr_assert_not_null(elo);
    cr_assert_eq(limit->type, OPTION_CHECK);
    cr_assert_str_eq(limit->default_value, "false");
    cr_assert_eq(elo->type, OPTION_SPIN);
    cr_assert_eq(elo->min, engine_level_elo(1), "the range is the table's labels");
    cr_assert_eq(elo->max, engine_level_elo(ENGINE_LEVEL_MAX - 1));
    int def = atoi(elo->default_value);
    cr_assert(def >= elo->min && def <= elo->max);

    Engine *e = engine_new();
    cr_assert_not_null(e);
    cr_assert_eq(engine_level(e), ENGINE_LEVEL_MAX, "full strength by default");
    expect_option(e, "UCI_LimitStrength", "false");
    expect_option(e, "UCI_Elo", elo->default_value);

    set_option(e, "UCI_Elo", "900");
    cr_assert_eq(engine_level(e), ENGINE_LEVEL_MAX, "UCI_Elo alone does not limit");
    set_option(e, "UCI_LimitStrength", "true");
    cr_assert_eq(engine_level(e), engine_level_for_elo(900));
    set_option(e, "uci_elo", "2000");
    cr_assert_eq(engine_level(e), engine_level_for_elo(2000));
    set_option(e, "UCI_LimitStrength", "false");
    cr_assert_eq(engine_level(e), ENGINE_LEVEL_MAX);

    char err[160];
    cr_assert_not(engine_set_option(e, "UCI_Elo", "100", err, sizeof err));
    cr_assert_not(engine_set_option(e, "UCI_Elo", "5000", err, sizeof err));

    engine_set_level(e, 7);
    cr_assert_eq(engine_level(e), 7);
    expect_option(e, "UCI_LimitStrength", "true");
    char label[16];
    snprintf(label, sizeof label, "%d", engine_level_elo(7));
    expect_option(e, "UCI_Elo", label);
    engine_set_level(e, ENGINE_LEVEL_MAX);
    cr_assert_eq(engine_level(e), ENGINE_LEVEL_MAX);
    expect_option(e, "UCI_LimitStrength", "false");
    engine_set_level(e, 0);
    cr_assert_eq(engine_level(e), 1, "clamped");
    engine_free(e);
}

// ------------------------------------------------------------------ the choice

// Every level, on the first POSITIONS bench positions: a legal move, one of
// the candidate lines the level searched (another move only in a blind
// moment, rank -1: rare, rarer higher up), and within its node budget (once
// its first iteration is done).
Test(skill, moves_are_legal_and_among_the_best_lines, .init = searcher_up, .fini = searcher_down,
     .timeout = 120) {
    int outside_low = 0, outside_high = 0;
    for (int level = 1; level < ENGINE_LEVEL_MAX; level++) {
        const SkillLevel *lvl = skill_level(level);
        for (int p = 0; p < POSITIONS; p++) {
            Board b;
            set_fen(&b, bench_position(p));
            SearchResult r = run(&b, level, 1000 + (uint64_t)p, 0, MOVE_NONE);
            cr_assert(is_legal(&b, r.best), "level %d position %d: illegal move", level, p);
            cr_assert(r.rank >= -1 && r.rank < lvl->lines, "level %d position %d: rank %d", level,
                      p, r.rank);
            if (r.rank < 0)
                *(level <= 5 ? &outside_low : &outside_high) += 1;
            cr_assert(r.depth >= 1 && r.depth <= lvl->depth, "level %d position %d: depth %d",
                      level, p, r.depth);
            cr_assert(r.depth == 1 || r.nodes <= lvl->nodes + 64,
                      "level %d position %d: %llu nodes", level, p, (unsigned long long)r.nodes);
        }
    }
    cr_assert_leq(outside_low, 5 * POSITIONS / 3, "levels 1-5: %d moves outside the lines",
                  outside_low);
    cr_assert_leq(outside_high, 14 * POSITIONS / 10, "levels 6-19: %d moves outside the lines",
                  outside_high);
}

// White can take a loose queen with the rook that guards the back rank,
// and ...Rb1 mates at once. A depth-1 search sees only the queen; every
// level must still decline it.
static const char *const BACK_RANK = "1r4k1/5ppp/q7/8/8/8/5PPP/R5K1 w - - 0 1";

Test(skill, never_allows_a_mate_in_one_when_avoidable, .init = searcher_up, .fini = searcher_down,
     .timeout = 60) {
    Board b;
    set_fen(&b, BACK_RANK);
    Move bait = test_san_move(&b, "Rxa6");
    cr_assert(skill_allows_mate_in_one(&b, bait), "the bait must lose at once");
    for (int level = 1; level < ENGINE_LEVEL_MAX; level++) {
        for (uint64_t seed = 1; seed <= 12; seed++) {
            SearchResult r = run(&b, level, seed, 0, MOVE_NONE);
            cr_assert(is_legal(&b, r.best));
            cr_assert_not(skill_allows_mate_in_one(&b, r.best),
                          "level %d seed %llu plays a move that allows mate in one", level,
                          (unsigned long long)seed);
        }
    }
}

Test(skill, takes_a_mate_in_one, .init = searcher_up, .fini = searcher_down) {
    static const struct {
        const char *fen, *mate;
    } mates[] = {
        { "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8" },
        { "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7" },
        { "1r6/8/8/8/8/8/5k1K/8 b - - 0 1", "b8h8" },
    };
    // Taken at least 6 times in 8 at every level; missed only in a blind
    // moment, as people miss one now and then (more often lower down).
    int missed_low = 0, missed_high = 0;
    for (size_t i = 0; i < sizeof mates / sizeof mates[0]; i++) {
        Board b;
        set_fen(&b, mates[i].fen);
        Move mate = test_san_move(&b, mates[i].mate);
        for (int level = 1; level < ENGINE_LEVEL_MAX; level++) {
            int missed = 0;
            for (uint64_t seed = 1; seed <= 8; seed++)
                missed += run(&b, level, seed, 0, MOVE_NONE).best != mate;
            cr_assert_leq(missed, 2, "%s: level %d misses it %d times in 8", mates[i].fen, level,
                          missed);
            *(level <= 5 ? &missed_low : &missed_high) += missed;
        }
    }
    cr_assert_geq(missed_low, missed_high * 5 / 14, "levels 1-5 miss %d, 6-19 %d", missed_low,
                  missed_high);
}

// 1.e4 e5 2.Qh5 Nc6 3.Bc4 g6: the queen is attacked by a pawn and only a
// queen move keeps it.
static const char *const HANGING_QUEEN =
    "r1bqkbnr/pppp1p1p/2n3p1/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 4";

// Saved at least 6 times in 8 at every level (left only in a blind moment).
Test(skill, saves_a_hanging_queen, .init = searcher_up, .fini = searcher_down, .timeout = 60) {
    Board b;
    set_fen(&b, HANGING_QUEEN);
    for (int level = 1; level < ENGINE_LEVEL_MAX; level++) {
        int left = 0;
        for (uint64_t seed = 1; seed <= 8; seed++) {
            Move m = run(&b, level, seed, 0, MOVE_NONE).best;
            left += move_from(m) != move_from(test_san_move(&b, "Qf3"));
        }
        cr_assert_leq(left, 2, "level %d leaves the queen %d times in 8", level, left);
    }
}

// A queen left en prise by the opponent (1.e4 e5 2.Nf3 Qh4??): taken by
// every level, save in a blind moment.
static const char *const FREE_QUEEN =
    "rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

Test(skill, takes_a_free_piece, .init = searcher_up, .fini = searcher_down, .timeout = 60) {
    Board b;
    set_fen(&b, FREE_QUEEN);
    Move take = test_san_move(&b, "Nxh4");
    for (int level = 1; level < ENGINE_LEVEL_MAX; level++) {
        int missed = 0;
        for (uint64_t seed = 1; seed <= 8; seed++)
            missed += run(&b, level, seed, 0, MOVE_NONE).best != take;
        cr_assert_leq(missed, 2, "level %d misses the queen %d times in 8", level, missed);
    }
}

// ------------------------------------------------------------------ strength

typedef struct LevelStats {
    double nodes; // average per move
    double loss;  // average centipawns lost against the reference search
    int worst;    // largest loss
} LevelStats;

static LevelStats level_stats(int level, int positions, int seeds) {
    LevelStats st = { 0, 0, 0 };
    int n = 0;
    for (int p = 0; p < positions; p++) {
        Board b;
        set_fen(&b, bench_position(p));
        for (int k = 0; k < seeds; k++) {
            SearchResult r = run(&b, level, 77 + (uint64_t)(p * seeds + k), 0, MOVE_NONE);
            int loss = loss_of(&b, r.best);
            if (getenv("PATZER_SKILL_VERBOSE") && loss > 150) {
                char text[8];
                notation_to_uci(r.best, text);
                fprintf(stderr, "  level %d position %d: %s rank %d score %d loses %d\n", level, p,
                        text, r.rank, r.score, loss);
            }
            st.nodes += (double)r.nodes;
            st.loss += loss;
            st.worst = loss > st.worst ? loss : st.worst;
            n++;
        }
    }
    st.nodes /= n;
    st.loss /= n;
    return st;
}

static double average_nodes(int from, int to, int positions) {
    double sum = 0;
    int n = 0;
    for (int level = from; level <= to; level++) {
        for (int p = 0; p < positions; p++) {
            Board b;
            set_fen(&b, bench_position(p));
            sum += (double)run(&b, level, 5 + (uint64_t)p, 0, MOVE_NONE).nodes;
            n++;
        }
    }
    return sum / n;
}

Test(skill, lower_levels_search_less, .init = searcher_up, .fini = searcher_down, .timeout = 120) {
    static const int groups[][2] = { { 1, 2 },   { 3, 4 },   { 5, 6 },   { 7, 8 },   { 9, 10 },
                                     { 11, 12 }, { 13, 14 }, { 15, 16 }, { 17, 18 }, { 19, 19 } };
    double prev = 0;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        double avg = average_nodes(groups[g][0], groups[g][1], 10);
        cr_assert_gt(avg, prev, "levels %d-%d search %.0f nodes a move, no more than below",
                     groups[g][0], groups[g][1], avg);
        prev = avg;
    }
}

Test(skill, lower_levels_lose_more, .init = searcher_up, .fini = searcher_down, .timeout = 300) {
    double low = 0, high = 0;
    for (int level = 1; level <= 5; level++)
        low += level_stats(level, 10, 1).loss / 5;
    for (int level = 15; level <= 19; level++)
        high += level_stats(level, 10, 1).loss / 5;
    cr_assert_gt(low, high + 10, "levels 1-5 lose %.1f cp a move, levels 15-19 %.1f", low, high);
}

// ------------------------------------------------------------------ seeds

Test(skill, a_seed_reproduces_the_game_and_seeds_vary_it, .init = searcher_up,
     .fini = searcher_down) {
    int varied = 0;
    for (int p = 0; p < 10; p++) {
        Board b;
        set_fen(&b, bench_position(p));
        cr_assert_eq(run(&b, 3, 42, 0, MOVE_NONE).best, run(&b, 3, 42, 0, MOVE_NONE).best);
        Move first = run(&b, 1, 1, 0, MOVE_NONE).best;
        for (uint64_t seed = 2; seed <= 16; seed++) {
            if (run(&b, 1, seed, 0, MOVE_NONE).best != first) {
                varied++;
                break;
            }
        }
    }
    cr_assert_geq(varied, 3, "level 1 varies its move in only %d positions of 10", varied);
}

// ------------------------------------------------------------------ full strength

Test(skill, full_strength_is_the_plain_search, .init = searcher_up, .fini = searcher_down,
     .timeout = 120) {
    BenchRunner *runner = bench_runner_new();
    cr_assert_not_null(runner);
    for (int p = 0; p < 6; p++) {
        Board b;
        set_fen(&b, bench_position(p));
        BenchResult plain;
        cr_assert(bench_run_position(runner, p, 9, &plain));
        SearchResult full = run(&b, ENGINE_LEVEL_MAX, 99, 9, MOVE_NONE);
        SearchResult zero = run(&b, 0, 99, 9, MOVE_NONE);
        cr_assert_eq(full.nodes, plain.nodes, "position %d", p);
        cr_assert_eq(full.best, plain.best, "position %d", p);
        cr_assert_eq(full.score, plain.score, "position %d", p);
        cr_assert_eq(full.rank, 0);
        cr_assert_eq(zero.nodes, plain.nodes, "position %d", p);
        cr_assert_eq(zero.best, plain.best, "position %d", p);
    }
    bench_runner_free(runner);
}

// ------------------------------------------------------------------ the facade

typedef struct Capture {
    SearchInfo last;
    Move best;
    int bestmoves;
} Capture;

static void on_info(const SearchInfo *info, void *ctx) {
    Capture *c = ctx;
    if (info->multipv == 1 && info->bound == BOUND_EXACT)
        c->last = *info;
}

static void on_bestmove(Move best, Move ponder, void *ctx) {
    (void)ponder;
    Capture *c = ctx;
    c->best = best;
    c->bestmoves++;
}

static Capture go_and_wait(Engine *e, const Board *b, int depth) {
    Capture c;
    memset(&c, 0, sizeof c);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = depth;
    limits.movetime = depth ? 0 : 5000;
    EngineCallbacks cb = { on_info, on_bestmove, &c };
    engine_new_game(e);
    engine_set_position(e, b, NULL, 0);
    engine_go(e, &limits, &cb);
    engine_wait(e);
    cr_assert_eq(c.bestmoves, 1);
    return c;
}

Test(skill, the_engine_plays_at_its_level) {
    Engine *e = engine_new();
    cr_assert_not_null(e);
    Board b;
    set_fen(&b, bench_position(2));
    Capture full = go_and_wait(e, &b, 9);

    set_option(e, "UCI_LimitStrength", "true");
    char weakest[16]; // the weakest level's label, UCI_Elo's minimum
    snprintf(weakest, sizeof weakest, "%d", skill_level_elo(1));
    set_option(e, "UCI_Elo", weakest);
    engine_set_seed(e, 7);
    Capture weak = go_and_wait(e, &b, 0);
    cr_assert(is_legal(&b, weak.best));
    cr_assert_leq(weak.last.depth, skill_level(1)->depth);
    cr_assert_lt(weak.last.nodes, 5000);
    cr_assert_eq(weak.last.pv[0], weak.best, "the last line shown is the move played");

    engine_set_seed(e, 7);
    cr_assert_eq(go_and_wait(e, &b, 0).best, weak.best, "the seed reproduces the choice");

    engine_set_level(e, ENGINE_LEVEL_MAX);
    Capture again = go_and_wait(e, &b, 9);
    cr_assert_eq(again.best, full.best);
    cr_assert_eq(again.last.nodes, full.last.nodes, "back to full strength, node for node");
    engine_free(e);
}
