// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for the UCI client's line parsing (src/protocol/uci_client_parse.c):
// what an external engine says (info, bestmove, option lines), garbled and
// cut-short lines, moves that are not legal, the go line and option values;
// and the process side with a fake engine made of a shell script.
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/fen.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "src/protocol/uci_client.h"
#include "tests/helpers.h"

static Board start;

static void setup(void) {
    board_init_tables();
    board_set_start(&start);
}

TestSuite(uci_client, .init = setup);

static Move uci(const Board *b, const char *text) {
    Move m = MOVE_NONE;
    cr_assert_eq(notation_parse_uci(b, text, &m), NOTATION_OK, "%s", text);
    return m;
}

// ------------------------------------------------------------------ info

Test(uci_client, info_with_score_and_pv) {
    SearchInfo info;
    cr_assert(uci_parse_info("info depth 12 seldepth 17 multipv 2 score cp -35 nodes 123456 "
                             "nps 987654 hashfull 12 tbhits 0 time 125 pv e2e4 e7e5 g1f3",
                             &start, &info));
    cr_assert_eq(info.depth, 12);
    cr_assert_eq(info.seldepth, 17);
    cr_assert_eq(info.multipv, 2);
    cr_assert_eq(info.score, -35);
    cr_assert_eq(info.mate, 0);
    cr_assert_eq(info.bound, BOUND_EXACT);
    cr_assert_eq(info.nodes, 123456);
    cr_assert_eq(info.nps, 987654);
    cr_assert_eq(info.hashfull, 12);
    cr_assert_eq(info.time_ms, 125);
    cr_assert_eq(info.pv_length, 3);
    cr_assert_eq(info.pv[0], uci(&start, "e2e4"));
    Board b = start;
    board_play(&b, info.pv[0]);
    cr_assert_eq(info.pv[1], uci(&b, "e7e5"));
}

Test(uci_client, info_mate_scores_and_bounds) {
    SearchInfo info;
    cr_assert(uci_parse_info("info depth 5 score mate 3 pv e2e4", &start, &info));
    cr_assert_eq(info.mate, 3);
    cr_assert_eq(info.score, VALUE_MATE - 5);
    cr_assert(uci_parse_info("info depth 5 score mate -2 pv e2e4", &start, &info));
    cr_assert_eq(info.mate, -2);
    cr_assert_eq(info.score, -VALUE_MATE + 4);
    cr_assert(
        uci_parse_info("info depth 9 score cp 40 lowerbound nodes 10 pv d2d4", &start, &info));
    cr_assert_eq(info.bound, BOUND_LOWER);
    cr_assert_eq(info.score, 40);
    cr_assert_eq(info.nodes, 10);
    cr_assert(uci_parse_info("info depth 9 score cp 10 upperbound pv d2d4", &start, &info));
    cr_assert_eq(info.bound, BOUND_UPPER);
    // The WDL Stockfish adds after the score is skipped.
    cr_assert(
        uci_parse_info("info depth 3 score cp 20 wdl 100 800 100 nodes 5 pv e2e4", &start, &info));
    cr_assert_eq(info.nodes, 5);
    cr_assert_eq(info.pv_length, 1);
}

Test(uci_client, info_without_score_is_not_reported) {
    SearchInfo info;
    cr_assert_not(uci_parse_info("info depth 12 currmove e2e4 currmovenumber 1", &start, &info));
    cr_assert_not(
        uci_parse_info("info string NNUE evaluation using nn.nnue score cp 3", &start, &info));
    cr_assert_not(uci_parse_info("information depth 3 score cp 3", &start, &info));
    cr_assert_not(uci_parse_info("", &start, &info));
    cr_assert_not(uci_parse_info("bestmove e2e4", &start, &info));
}

Test(uci_client, info_pv_stops_at_an_illegal_move) {
    SearchInfo info;
    cr_assert(uci_parse_info("info depth 4 score cp 5 pv e2e4 e7e5 e4e5 g8f6", &start, &info));
    cr_assert_eq(info.pv_length, 2, "e4e5 is not legal after 1. e4 e5");
    cr_assert(uci_parse_info("info depth 4 score cp 5 pv zz99 e2e4", &start, &info));
    cr_assert_eq(info.pv_length, 0);
}

Test(uci_client, garbled_info_lines) {
    SearchInfo info;
    // Cut short, bad numbers, a score without a value: nothing crashes, and
    // what cannot be read is left out.
    cr_assert_not(uci_parse_info("info depth", &start, &info));
    cr_assert_not(uci_parse_info("info score", &start, &info));
    cr_assert_not(uci_parse_info("info score cp", &start, &info));
    cr_assert_not(uci_parse_info("info score cp abc pv e2e4", &start, &info));
    cr_assert_not(uci_parse_info("info score mate 999999 pv e2e4", &start, &info));
    cr_assert(uci_parse_info("info depth x1 score cp 12 multipv -3 nodes -5", &start, &info));
    cr_assert_eq(info.depth, 0);
    cr_assert_eq(info.multipv, 1);
    cr_assert_eq(info.nodes, 0);
    cr_assert_eq(info.score, 12);
    cr_assert(uci_parse_info("info   depth  7\tscore cp 1 pv\r", &start, &info));
    cr_assert_eq(info.depth, 7);
    cr_assert_eq(info.pv_length, 0);
    char long_line[6000];
    size_t len = (size_t)snprintf(long_line, sizeof long_line, "info depth 3 score cp 1 pv");
    while (len + 6 < sizeof long_line)
        len += (size_t)snprintf(long_line + len, sizeof long_line - len, " g1f3");
    cr_assert(uci_parse_info(long_line, &start, &info));
    cr_assert_eq(info.pv_length, 1, "g1f3 twice is not legal");
}

// ------------------------------------------------------------------ bestmove

Test(uci_client, bestmove_lines) {
    Move best, ponder;
    char text[32];
    cr_assert_eq(
        uci_parse_bestmove("bestmove e2e4 ponder e7e5", &start, &best, &ponder, text, sizeof text),
        UCI_BEST_MOVE);
    cr_assert_eq(best, uci(&start, "e2e4"));
    cr_assert_neq(ponder, MOVE_NONE);
    cr_assert_eq(uci_parse_bestmove("bestmove g1f3", &start, &best, &ponder, text, sizeof text),
                 UCI_BEST_MOVE);
    cr_assert_eq(ponder, MOVE_NONE);
    // A ponder move that is not legal is dropped, the best move kept.
    cr_assert_eq(
        uci_parse_bestmove("bestmove g1f3 ponder g1f3", &start, &best, &ponder, text, sizeof text),
        UCI_BEST_MOVE);
    cr_assert_eq(ponder, MOVE_NONE);
    cr_assert_eq(uci_parse_bestmove("bestmove (none)", &start, &best, &ponder, text, sizeof text),
                 UCI_BEST_NONE);
    cr_assert_eq(uci_parse_bestmove("bestmove 0000", &start, &best, &ponder, text, sizeof text),
                 UCI_BEST_NONE);
}

Test(uci_client, bestmove_illegal_and_garbled) {
    Move best, ponder;
    char text[32];
    cr_assert_eq(uci_parse_bestmove("bestmove e2e5", &start, &best, &ponder, text, sizeof text),
                 UCI_BEST_ILLEGAL);
    cr_assert_eq(best, MOVE_NONE);
    cr_assert_str_eq(text, "e2e5");
    cr_assert_eq(uci_parse_bestmove("bestmove Nf3", &start, &best, &ponder, text, sizeof text),
                 UCI_BEST_ILLEGAL, "SAN is not UCI");
    cr_assert_eq(uci_parse_bestmove("bestmove", &start, &best, &ponder, text, sizeof text),
                 UCI_BEST_GARBLED);
    cr_assert_eq(uci_parse_bestmove("bestmove   \r", &start, &best, &ponder, text, sizeof text),
                 UCI_BEST_GARBLED);
    cr_assert_eq(uci_parse_bestmove("bestmoves e2e4", &start, &best, &ponder, text, sizeof text),
                 UCI_BEST_NOT);
    cr_assert_eq(
        uci_parse_bestmove("info bestmove e2e4", &start, &best, &ponder, text, sizeof text),
        UCI_BEST_NOT);
    // Castling as UCI writes it (king two squares).
    Board b;
    test_board_from_fen(&b, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    cr_assert_eq(uci_parse_bestmove("bestmove e1g1", &b, &best, &ponder, text, sizeof text),
                 UCI_BEST_MOVE);
}

// ------------------------------------------------------------------ options

Test(uci_client, option_lines) {
    UciOption o;
    cr_assert(uci_parse_option("option name Skill Level type spin default 20 min -20 max 20", &o));
    cr_assert_str_eq(o.name, "Skill Level");
    cr_assert_eq(o.type, UCI_SPIN);
    cr_assert_str_eq(o.def, "20");
    cr_assert_str_eq(o.value, "20");
    cr_assert_eq(o.min, -20);
    cr_assert_eq(o.max, 20);
    cr_assert(uci_parse_option("option name Ponder type check default false", &o));
    cr_assert_eq(o.type, UCI_CHECK);
    cr_assert_str_eq(o.def, "false");
    cr_assert(uci_parse_option("option name Clear Hash type button", &o));
    cr_assert_eq(o.type, UCI_BUTTON);
    cr_assert_str_eq(o.name, "Clear Hash");
    cr_assert(uci_parse_option("option name SyzygyPath type string default <empty>", &o));
    cr_assert_eq(o.type, UCI_STRING);
    cr_assert_str_eq(o.def, "");
    cr_assert(uci_parse_option("option name Style type combo default Normal var Solid var Normal "
                               "var Risky Play",
                               &o));
    cr_assert_eq(o.type, UCI_COMBO);
    cr_assert_str_eq(o.def, "Normal");
    cr_assert_str_eq(o.vars, "Solid\tNormal\tRisky Play");
    cr_assert(uci_parse_option("option name Debug Log File type string default", &o));
    cr_assert_str_eq(o.def, "");
}

Test(uci_client, garbled_option_lines) {
    UciOption o;
    cr_assert_not(uci_parse_option("option name type spin", &o));
    cr_assert_not(uci_parse_option("option name Hash", &o));
    cr_assert_not(uci_parse_option("option name Hash type", &o));
    cr_assert_not(uci_parse_option("option name Hash type slider default 3", &o));
    cr_assert_not(uci_parse_option("option Hash type spin", &o));
    cr_assert_not(uci_parse_option("id name Stockfish", &o));
    cr_assert(uci_parse_option("option name Hash type spin default 16 min x max", &o));
    cr_assert_eq(o.min, 0);
    cr_assert_eq(o.max, 0);
}

Test(uci_client, option_values_are_checked) {
    UciOption spin, check, combo;
    uci_parse_option("option name Skill Level type spin default 20 min 0 max 20", &spin);
    uci_parse_option("option name Ponder type check default false", &check);
    uci_parse_option("option name Style type combo default Normal var Solid var Normal", &combo);
    char v[64], err[256];
    snprintf(v, sizeof v, "3");
    cr_assert(uci_option_check(&spin, v, sizeof v, err, sizeof err));
    snprintf(v, sizeof v, "21");
    cr_assert_not(uci_option_check(&spin, v, sizeof v, err, sizeof err));
    cr_assert(strstr(err, "from 0 to 20"), "%s", err);
    snprintf(v, sizeof v, "three");
    cr_assert_not(uci_option_check(&spin, v, sizeof v, err, sizeof err));
    snprintf(v, sizeof v, "on");
    cr_assert(uci_option_check(&check, v, sizeof v, err, sizeof err));
    cr_assert_str_eq(v, "true");
    snprintf(v, sizeof v, "maybe");
    cr_assert_not(uci_option_check(&check, v, sizeof v, err, sizeof err));
    snprintf(v, sizeof v, "solid");
    cr_assert(uci_option_check(&combo, v, sizeof v, err, sizeof err));
    cr_assert_str_eq(v, "Solid");
    snprintf(v, sizeof v, "Wild");
    cr_assert_not(uci_option_check(&combo, v, sizeof v, err, sizeof err));
}

// ------------------------------------------------------------------ go

Test(uci_client, go_lines) {
    SearchLimits l;
    char go[256];
    search_limits_init(&l);
    l.time[WHITE] = 60000;
    l.time[BLACK] = 55000;
    l.inc[WHITE] = l.inc[BLACK] = 2000;
    l.movestogo = 12;
    uci_format_go(&l, go, sizeof go);
    cr_assert_str_eq(go, "go wtime 60000 btime 55000 winc 2000 binc 2000 movestogo 12");
    search_limits_init(&l);
    l.movetime = 1500;
    uci_format_go(&l, go, sizeof go);
    cr_assert_str_eq(go, "go movetime 1500");
    search_limits_init(&l);
    l.infinite = true;
    uci_format_go(&l, go, sizeof go);
    cr_assert_str_eq(go, "go infinite");
    search_limits_init(&l);
    l.depth = 9;
    uci_format_go(&l, go, sizeof go);
    cr_assert_str_eq(go, "go depth 9");
    search_limits_init(&l);
    uci_format_go(&l, go, sizeof go);
    cr_assert_str_eq(go, "go infinite", "no limit is a search until stopped");
    search_limits_init(&l);
    l.nodes = 5000;
    l.searchmoves[0] = move_make(SQ_E1 + 8, SQ_E1 + 24);
    l.searchmoves[1] = move_make(SQ_G1, SQ_F1 + 16);
    l.searchmoves_count = 2;
    uci_format_go(&l, go, sizeof go);
    cr_assert_str_eq(go, "go nodes 5000 searchmoves e2e4 g1f3", "the moves last");
}

// ------------------------------------------------------------------ process

// A fake engine: a shell script that says what the test wants.
static void fake_engine(const char *path, const char *script) {
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "#!/bin/sh\n%s", script);
    fclose(f);
    cr_assert_eq(chmod(path, 0755), 0);
}

typedef struct Seen {
    int infos, bests, failures;
    Move best;
} Seen;

static void seen_info(const SearchInfo *info, void *ctx) {
    (void)info;
    ((Seen *)ctx)->infos++;
}
static void seen_best(Move best, Move ponder, void *ctx) {
    (void)ponder;
    ((Seen *)ctx)->bests++;
    ((Seen *)ctx)->best = best;
}
static void seen_failure(void *ctx) {
    ((Seen *)ctx)->failures++;
}

// Asks c for a 10 ms search of the start position, the answers counted in seen.
static bool go_briefly(UciClient *c, Seen *seen) {
    UciCallbacks cb = { seen_info, seen_best, seen_failure, seen };
    SearchLimits l;
    search_limits_init(&l);
    l.movetime = 10;
    return uci_client_go(c, &start, NULL, 0, &l, &cb);
}

static const char *handshake_script =
    "read l; echo 'id name Fake 1'; echo 'option name Hash type spin default 1 min 1 max 8';\n"
    "echo uciok; read l; echo readyok\n";

Test(uci_client, fake_engine_plays_and_cheats) {
    char path[256];
    int fd = test_temp_file(path, sizeof path, "patzer-fake-engine");
    close(fd);
    char script[1024];
    snprintf(script, sizeof script,
             "%s"
             "while read l; do case \"$l\" in\n"
             "  go*) if [ -z \"$done\" ]; then echo 'info depth 1 score cp 7 pv e2e4';\n"
             "       echo 'bestmove e2e4'; done=1; else echo 'bestmove e2e5'; fi;;\n"
             "  isready) echo readyok;; quit) exit 0;; esac; done\n",
             handshake_script);
    fake_engine(path, script);
    char *argv[] = { path, NULL };
    char err[512];
    UciClient *c = uci_client_start(argv, 3000, err, sizeof err);
    cr_assert_not_null(c, "%s", err);
    cr_assert_str_eq(uci_client_name(c), "Fake 1");
    cr_assert_eq(uci_client_option_count(c), 1);
    cr_assert_not_null(uci_client_find_option(c, "hash"));
    cr_assert_not(uci_client_set_option(c, "Hash", "99", false, err, sizeof err));
    cr_assert(uci_client_set_option(c, "Hash", "4", false, err, sizeof err), "%s", err);
    cr_assert_not(uci_client_set_option(c, "Nope", "4", false, err, sizeof err));
    cr_assert(uci_client_new_game(c, 3000));
    Seen seen = { 0 };
    cr_assert(go_briefly(c, &seen));
    cr_assert(uci_client_wait(c, 3000));
    cr_assert_eq(seen.infos, 1);
    cr_assert_eq(seen.bests, 1);
    cr_assert_eq(seen.best, uci(&start, "e2e4"));
    // The second answer is illegal: a failure, not a move.
    cr_assert(go_briefly(c, &seen));
    cr_assert(uci_client_wait(c, 3000));
    cr_assert_eq(seen.bests, 1);
    cr_assert_eq(seen.failures, 1);
    uci_client_error(c, err, sizeof err);
    cr_assert(strstr(err, "illegal move 'e2e5'"), "%s", err);
    uci_client_free(c);
    unlink(path);
}

Test(uci_client, engines_that_fail_to_start) {
    char err[512];
    char *missing[] = { "/nonexistent/engine", NULL };
    cr_assert_null(uci_client_start(missing, 2000, err, sizeof err));
    cr_assert(strstr(err, "No such file"), "%s", err);
    char path[256];
    int fd = test_temp_file(path, sizeof path, "patzer-fake-engine");
    close(fd);
    fake_engine(path, "read l; echo 'I am not UCI'; sleep 5\n");
    char *silent[] = { path, NULL };
    cr_assert_null(uci_client_start(silent, 300, err, sizeof err));
    cr_assert(strstr(err, "did not answer uciok"), "%s", err);
    fake_engine(path, "exit 3\n");
    cr_assert_null(uci_client_start(silent, 2000, err, sizeof err));
    cr_assert(strstr(err, "exited before answering uciok"), "%s", err);
    unlink(path);
}

// An engine that never answers `stop`: the next `go` is refused with the reason, rather
// than taking the old search's late bestmove for the new position's.
Test(uci_client, engine_that_ignores_stop) {
    char path[256];
    int fd = test_temp_file(path, sizeof path, "patzer-fake-engine");
    close(fd);
    char script[1024];
    snprintf(script, sizeof script,
             "%swhile read l; do case \"$l\" in quit) exit 0;; isready) echo readyok;; esac; "
             "done\n",
             handshake_script);
    fake_engine(path, script);
    char *argv[] = { path, NULL };
    char err[512];
    UciClient *c = uci_client_start(argv, 3000, err, sizeof err);
    cr_assert_not_null(c, "%s", err);
    Seen seen = { 0 };
    cr_assert(go_briefly(c, &seen));
    cr_assert_not(go_briefly(c, &seen), "a second go while the first will not stop");
    uci_client_error(c, err, sizeof err);
    cr_assert(strstr(err, "did not stop its search when asked"), "%s", err);
    cr_assert_eq(seen.bests, 0);
    uci_client_free(c);
    unlink(path);
}

Test(uci_client, engine_that_dies_in_a_search) {
    char path[256];
    int fd = test_temp_file(path, sizeof path, "patzer-fake-engine");
    close(fd);
    char script[1024];
    snprintf(script, sizeof script, "%swhile read l; do case \"$l\" in go*) exit 1;; esac; done\n",
             handshake_script);
    fake_engine(path, script);
    char *argv[] = { path, NULL };
    char err[512];
    UciClient *c = uci_client_start(argv, 3000, err, sizeof err);
    cr_assert_not_null(c, "%s", err);
    Seen seen = { 0 };
    cr_assert(go_briefly(c, &seen));
    cr_assert(uci_client_wait(c, 3000));
    cr_assert_eq(seen.failures, 1);
    cr_assert_not(uci_client_alive(c));
    uci_client_error(c, err, sizeof err);
    cr_assert(strstr(err, "stopped (exit status 1)"), "%s", err);
    cr_assert_not(go_briefly(c, &seen));
    uci_client_free(c);
    unlink(path);
}
