// SPDX-License-Identifier: GPL-3.0-or-later
// A flag that falls while a move is on its way: the move comes after the
// mover's time ran out but before a clock tick noticed it (an engine's reply
// read on a loaded machine, a move typed at the last moment). The game ends
// on time and is said, shown and archived like any other end; it used to end
// silently, and a game of the engine against itself then seemed to hang.
// Time is fake (each call says "now"); a fake UCI engine answers at once, so
// that its move waits in the event queue until the test polls, late.
#include <criterion/criterion.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/session/session.h"
#include "tests/helpers.h"
#include "tests/session_helpers.h"

static char dir[256], engine_path[300], archive[300];

// Answers every go with 1... e5 (the tests' only engine move).
static const char *const fake_engine = "#!/bin/sh\n"
                                       "while read -r l; do\n"
                                       "    case \"$l\" in\n"
                                       "    uci) echo 'id name Fake'; echo uciok ;;\n"
                                       "    isready) echo readyok ;;\n"
                                       "    go*) echo 'bestmove e7e5' ;;\n"
                                       "    quit) exit 0 ;;\n"
                                       "    esac\n"
                                       "done\n";

static void setup(void) {
    test_temp_dir(dir, sizeof dir, "patzer-flag");
    snprintf(engine_path, sizeof engine_path, "%s/fake-engine", dir);
    snprintf(archive, sizeof archive, "%s/games.pgn", dir);
    FILE *f = fopen(engine_path, "w");
    cr_assert_not_null(f);
    fputs(fake_engine, f);
    cr_assert_eq(fclose(f), 0);
    cr_assert_eq(chmod(engine_path, 0755), 0);
}

static void teardown(void) {
    test_remove_dir(dir);
}

TestSuite(session_flag, .init = setup, .fini = teardown, .timeout = 60);

// A session with the fake engine, a 1-second game with White to play, and
// 1. e4 played at 1000: the engine's reply is asked for then.
static Session *start_game(SessionLog *log) {
    SessionOptions o = test_session_options(dir, "games.pgn");
    Session *s = test_session_open(&o, log, 1000);
    char engine[320];
    snprintf(engine, sizeof engine, "engine %s", engine_path);
    test_session_run(s, 1000, (const char *const[]){ engine, "new white time 0:01+0", "e4", NULL });
    cr_assert(test_said(log, "Engine: Fake"), "%s", log->text);
    cr_assert(session_engine_busy(s), "the engine thinks about 1... e5");
    return s;
}

// Waits (in real time) until the engine's reply is in the event queue,
// without taking it out.
static void wait_reply(Session *s) {
    struct pollfd p = { .fd = session_event_fd(s), .events = POLLIN };
    cr_assert_eq(poll(&p, 1, 20000), 1, "the fake engine did not answer");
}

static const char *archived(void) {
    static char buf[1 << 14];
    FILE *f = fopen(archive, "r");
    if (!f)
        return "";
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

Test(session_flag, an_engine_move_after_its_flag_fell_ends_the_game_and_says_so) {
    SessionLog log = { 0 };
    Session *s = start_game(&log);
    wait_reply(s);
    // Black's second ran out at 2000: its move, read at 3000, comes too late.
    session_poll(s, 3000);
    const Game *g = session_game(s);
    cr_expect(game_is_over(g));
    cr_expect_eq(game_ply_count(g), 1, "1... e5 is not played");
    cr_expect(test_said(&log, "1-0 White wins on time"), "%s", log.text);
    cr_expect(!session_engine_busy(s));
    cr_expect(strstr(archived(), "[Result \"1-0\"]"), "archived at once: %s", archived());
    session_free(s, 3000);
}

Test(session_flag, a_move_typed_after_its_flag_fell_ends_the_game_and_says_so) {
    SessionLog log = { 0 };
    Session *s = start_game(&log);
    wait_reply(s);
    session_poll(s, 1100); // 1... e5 in time; White's clock runs from 1100
    cr_assert_eq(game_ply_count(session_game(s)), 2, "%s", log.text);
    test_session_run(s, 3000, (const char *const[]){ "Nf3", NULL });
    const Game *g = session_game(s);
    cr_expect(game_is_over(g));
    cr_expect_eq(game_ply_count(g), 2, "2. Nf3 is not played");
    cr_expect(test_said(&log, "Error: White's flag fell before the move was completed"), "%s",
              log.text);
    cr_expect(test_said(&log, "0-1 Black wins on time"), "%s", log.text);
    cr_expect(strstr(archived(), "[Result \"0-1\"]"), "archived at once: %s", archived());
    session_free(s, 3000);
}
