// SPDX-License-Identifier: GPL-3.0-or-later
// Whole sessions driven headless: the command sequences of issue 10 and the
// states and messages they leave. Time is fake (each call says "now"); only
// the engine's own thinking takes real time, waited for with a deadline.
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/session/session.h"
#include "src/util/paths.h"
#include "tests/helpers.h"
#include "tests/session_fixture.h"

TestSuite(session, .init = setup, .fini = teardown, .timeout = 60);
// The tests that run a whole review to its end: about 30 s in a sanitizer build
// on an idle machine, over 60 beside an engine match. A deadline, not a timing.
#define REVIEW_TIMEOUT_S 180

// Defect 2: setboard on a loaded game starts a clean game that takes moves.
Test(session, setboard_after_a_loaded_game_starts_a_clean_game) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    char load[400];
    snprintf(load, sizeof load, "load %s", pgn_path);
    run(s, 2000, (const char *const[]){"play both", load, "game 2", NULL});
    cr_assert_eq(session_mode(s), SESSION_BROWSE);
    run(s, 3000, (const char *const[]){"setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1", "Rh8", NULL});
    cr_expect_not(has(&log, "out of memory"), "%s", log.text);
    cr_expect(has(&log, "Position set: 4k3/8/8/8/8/8/8/4K2R w K - 0 1"), "%s", log.text);
    cr_expect_eq(session_mode(s), SESSION_PLAY);
    const Game *g = session_game(s);
    cr_expect_eq(game_ply_count(g), 1);
    cr_expect_str_eq(game_move(g, 0)->san, "Rh8+");
    const char *const *sans;
    int count, current;
    session_move_list(s, &sans, &count, &current);
    cr_expect_eq(count, 1, "the move list is the new game's");
    char name[64], detail[64];
    session_player_label(s, WHITE, name, sizeof name, detail, sizeof detail);
    cr_expect_str_neq(name, "Gamma", "the players are the new game's");
    const int *graph;
    session_graph(s, &graph, &count);
    cr_expect_eq(count, 0);
    session_handle_line(s, "undo", 4000);
    cr_expect(has(&log, "Took back 1. Rh8+"), "%s", log.text);
    session_free(s, 5000);
}

// Defect 3: the live game stays alive behind a file and comes back with
// game 0, its clock paused while it was not shown.
Test(session, the_live_game_survives_browsing_and_its_clock_pauses) {
    SessionOptions o = options();
    o.settings.tc.untimed = false;
    o.settings.players[BLACK] = PLAYER_HUMAN;
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"e4", NULL});
    run(s, 4000, (const char *const[]){"e5", NULL});
    int64_t white_left = clock_remaining(game_clock(session_game(s)), WHITE, 5000);
    char load[400];
    snprintf(load, sizeof load, "load %s", pgn_path);
    run(s, 5000, (const char *const[]){load, "game 1", "next", NULL});
    cr_expect_eq(session_mode(s), SESSION_BROWSE);
    cr_expect_eq(game_ply_count(session_live_game(s)), 2, "the live game is kept");
    run(s, 65000, (const char *const[]){"game 0", NULL});
    cr_expect_eq(session_mode(s), SESSION_PLAY);
    cr_expect_eq(game_ply_count(session_game(s)), 2);
    int64_t after = clock_remaining(game_clock(session_game(s)), WHITE, 65000);
    cr_expect_eq(after, white_left, "the clock did not run while away: %lld vs %lld",
                 (long long)after, (long long)white_left);
    cr_expect(game_clock(session_game(s))->running, "the clock runs again");
    run(s, 66000, (const char *const[]){"edit", "back", "analyze", "back", NULL});
    cr_expect_eq(session_mode(s), SESSION_PLAY);
    cr_expect_eq(game_ply_count(session_game(s)), 2);
    session_free(s, 67000);
}

// Defect 1: starting and quitting never overwrites an unfinished game; the
// next start asks, and the answer resumes it or archives it.
Test(session, an_unfinished_game_is_offered_and_never_wiped) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_HUMAN;
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"d4", NULL});
    session_free(s, 3000);

    Log log2 = {0};
    s = open_session(&o, &log2);
    cr_expect(session_asking(s));
    cr_expect(has(&log2, "Resume it? (y/n)"), "%s", log2.text);
    session_free(s, 4000); // quit without answering
    const char *text = read_all(autosave);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "1. d4"), "the autosave still holds the game: %s", text);

    Log log3 = {0};
    s = open_session(&o, &log3);
    session_handle_line(s, "y", 5000);
    cr_expect(has(&log3, "Resumed the unfinished game"), "%s", log3.text);
    cr_expect_eq(game_ply_count(session_game(s)), 1);
    session_free(s, 6000);

    Log log4 = {0};
    s = open_session(&o, &log4);
    session_handle_line(s, "n", 7000);
    cr_expect_eq(game_ply_count(session_game(s)), 0);
    session_free(s, 8000);
    text = read_all(archive);
    cr_assert_not_null(text, "the archive exists");
    cr_expect(strstr(text, "1. d4"), "%s", text);
    cr_expect(strstr(text, "abandoned"), "%s", text);

    Log log5 = {0};
    s = open_session(&o, &log5);
    cr_expect_not(session_asking(s), "the archived game is not offered again");
    session_free(s, 9000);
}

Test(session, resume_and_new_answer_in_advance) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_HUMAN;
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"e4", "c5", NULL});
    session_free(s, 3000);
    o.resume = true;
    s = open_session(&o, &log);
    cr_expect_not(session_asking(s));
    cr_expect_eq(game_ply_count(session_game(s)), 2);
    session_free(s, 4000);
    o.resume = false;
    o.fresh = true;
    s = open_session(&o, &log);
    cr_expect_not(session_asking(s));
    cr_expect_eq(game_ply_count(session_game(s)), 0);
    session_free(s, 5000);
    const char *text = read_all(archive);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "1. e4 "), "%s", text);
}

// Every finished game, and every unfinished one a new game replaces, is archived.
Test(session, finished_and_replaced_games_are_archived) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"play both", "f3", "e5", "g4", "Qh4#", NULL});
    cr_expect(has(&log, "0-1 Black mates"), "%s", log.text);
    run(s, 3000, (const char *const[]){"new", "e4", "new", NULL});
    cr_expect(has(&log, "The unfinished one is in the archive"), "%s", log.text);
    session_free(s, 4000);
    const char *text = read_all(archive);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "2. g4 "), "the finished game: %s", text);
    cr_expect(strstr(text, "[Result \"0-1\"]"), "%s", text);
    cr_expect(strstr(text, "1. e4 *"), "the abandoned game: %s", text);
}

// Defect 6: acknowledgements, and the status naming the mode.
Test(session, commands_acknowledge_and_the_status_names_the_mode) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    char st[256];
    status(s, st, sizeof st);
    cr_expect(strstr(st, "[play]"), "%s", st);
    run(s, 2000, (const char *const[]){"play both", "e4", "Nf6", "undo", NULL});
    cr_expect(has(&log, "Took back 1... Nf6"), "%s", log.text);
    run(s, 2000, (const char *const[]){"edit", "side black", NULL});
    cr_expect(has(&log, "Black to move (editor)"), "%s", log.text);
    status(s, st, sizeof st);
    cr_expect(strstr(st, "Black to move (editor)"), "%s", st);
    cr_expect_eq(session_display_board(s)->side, BLACK);
    run(s, 2000, (const char *const[]){"e5", NULL});
    cr_expect(has(&log, "No moves in the edit mode"), "%s", log.text);
    run(s, 2000, (const char *const[]){"clear", "put Ke1", "put ke8", "put Rh1", "castling K",
                                       "side white", "done", NULL});
    cr_expect(has(&log, "Position set: 4k3/8/8/8/8/8/8/4K2R w K - 0 1"), "%s", log.text);
    cr_expect_eq(session_mode(s), SESSION_PLAY);
    cr_expect_eq(game_ply_count(session_game(s)), 0);
    char load[400];
    snprintf(load, sizeof load, "load %s", pgn_path);
    run(s, 2000, (const char *const[]){load, "game 1", NULL});
    status(s, st, sizeof st);
    cr_expect(strstr(st, "[browse: game 1]"), "%s", st);
    session_free(s, 3000);
}

static bool in_browse(const Session *s) { return session_mode(s) == SESSION_BROWSE; }
static bool reviewing(const Session *s) {
    int done, total;
    return session_review_progress(s, &done, &total) && done >= 2;
}

// stop ends a review and keeps what was reviewed.
Test(session, stop_cancels_a_review_keeping_what_was_done) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    char load[400];
    snprintf(load, sizeof load, "load %s", pgn_path);
    run(s, 2000, (const char *const[]){load, "game 2", "review", NULL});
    cr_assert_eq(session_mode(s), SESSION_REVIEW, "%s", log.text);
    cr_assert(wait_until(s, 2000, reviewing), "the review makes progress");
    run(s, 2000, (const char *const[]){"stop", NULL});
    cr_expect(has(&log, "Review stopped"), "%s", log.text);
    cr_expect(in_browse(s), "the reviewed part is shown");
    const int *graph;
    int count;
    session_graph(s, &graph, &count);
    cr_expect_geq(count, 2, "the graph keeps the moves reviewed");
    run(s, 2000, (const char *const[]){"back", NULL});
    cr_expect_eq(session_mode(s), SESSION_PLAY);
    session_free(s, 3000);
}

// The panel names the players of the game shown: your game's while you
// analyse it (its copy has both sides human), the file's while a game of it
// is reviewed (it said "You" twice, with a clock running from 0:00), and no
// "human" guessed for players a file does not describe.
Test(session, the_panel_names_the_players_of_the_game_shown) {
    SessionOptions o = options();
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    char name[64], detail[64];
    run(s, 2000, (const char *const[]){ "analyze", NULL });
    cr_assert_eq(session_mode(s), SESSION_ANALYSE, "%s", log.text);
    session_player_label(s, BLACK, name, sizeof name, detail, sizeof detail);
    cr_expect(strstr(detail, "level 1 "), "analysing your game: its engine, '%s'", detail);
    session_player_label(s, WHITE, name, sizeof name, detail, sizeof detail);
    cr_expect_str_eq(name, "You");
    cr_expect_str_eq(detail, "human");
    char load[400];
    snprintf(load, sizeof load, "load %s", pgn_path);
    run(s, 3000, (const char *const[]){ "stop", load, "game 2", "review", NULL });
    cr_assert_eq(session_mode(s), SESSION_REVIEW, "%s", log.text);
    session_player_label(s, WHITE, name, sizeof name, detail, sizeof detail);
    cr_expect_str_eq(name, "Gamma", "the reviewed game's White");
    cr_expect_str_eq(detail, "", "a player of a file is not known to be human");
    cr_expect(game_clock(session_game(s))->tc.untimed, "no clock under review");
    char st[200];
    status(s, st, sizeof st); // 9 plies: it said "0 of 9 moves"
    cr_expect(strstr(st, "Reviewing move ") && strstr(st, " of 5..."), "%s", st);
    run(s, 4000, (const char *const[]){ "stop", NULL });
    cr_assert(in_browse(s), "%s", log.text);
    session_player_label(s, BLACK, name, sizeof name, detail, sizeof detail);
    cr_expect_str_eq(name, "Delta");
    cr_expect_str_eq(detail, "");
    session_free(s, 5000);
}

static bool session_idle(const Session *s) {
    return !session_busy(s);
}

// hint typed twice before the first was found names the move, as two hints
// do: the second was dropped without a word (the screen takes lines at once).
Test(session, a_second_hint_while_the_first_is_thought_about_names_the_move) {
    SessionOptions o = options();
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "play both", "hint", "hint", NULL });
    cr_expect(has(&log, "Thinking about a hint... (the move itself"), "%s", log.text);
    cr_assert(wait_until(s, 2000, session_idle), "the hint is found");
    cr_expect_neq(session_hint(s), MOVE_NONE, "the move is marked: %s", log.text);
    cr_expect_not(has(&log, "move your"), "not the piece alone: %s", log.text);
    session_free(s, 3000);
}

// stop while a hint is thought about gives it at once (from the search so
// far): it said "Nothing to stop: the engine is not thinking" and the hint
// went on, so Ctrl-C in the line mode (a stop) could not cut it short.
Test(session, stop_gives_the_hint_being_thought_about_at_once) {
    SessionOptions o = options();
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000,
        (const char *const[]){ "play both",
                               "setboard r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w "
                               "KQ - 0 8",
                               "hint", "stop", NULL });
    cr_expect(has(&log, "The hint comes now, from the search so far."), "%s", log.text);
    cr_expect_not(has(&log, "Nothing to stop"), "%s", log.text);
    cr_assert(wait_until(s, 2000, session_idle), "the hint is given");
    cr_expect(has(&log, "Hint: move your "), "%s", log.text);
    session_free(s, 3000);
}

// A finished game's review is reported, and its annotated copy replaces the
// plain one in the archive; a game archived before it stays as it was.
Test(session, a_reviewed_game_is_reported_and_replaces_its_archive_copy, .timeout = REVIEW_TIMEOUT_S) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"play both", "d4", "new", "play both", "f3", "e5", "g4",
                                       "Qh4#", NULL});
    cr_expect(has(&log, "0-1 Black mates - review: a report of the game"), "%s", log.text);
    run(s, 2000, (const char *const[]){"review", NULL});
    cr_assert(wait_until(s, 2000, review_over), "the review ends");
    cr_expect(has(&log, "Game report\nHuman - Human  0-1"), "%s", log.text);
    cr_expect(has(&log, "White: accuracy "), "%s", log.text);
    // Moments are listed in game order: f3 is one too unless a slow build's
    // short searches judge it milder.
    cr_expect(has(&log, ". 2. g4?\? ("), "the losing move is a moment: %s", log.text);
    cr_expect(has(&log, "The annotated game is in the archive."), "%s", log.text);
    session_free(s, 3000);
    const char *text = read_all(archive);
    cr_assert_not_null(text);
    cr_expect_eq(count_of(text, "[Event "), 2, "the abandoned game and the reviewed one: %s", text);
    cr_expect(strstr(text, "1. d4 *"), "the abandoned game stays: %s", text);
    cr_expect(strstr(text, "g4 $4"), "the archive's copy is annotated: %s", text);
    cr_expect_eq(count_of(text, "2. g4"), 1, "one copy of the reviewed game: %s", text);
}

// A review replaces only the game's own copy: a game appended to the archive
// since (another patzer) keeps its place, and the review takes the place of
// the copy, found by its PatzerGame tag (it was appended once more before).
Test(session, an_archive_changed_since_keeps_its_games_and_the_review_its_place, .timeout = REVIEW_TIMEOUT_S) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"play both", "f3", "e5", "g4", "Qh4#", NULL});
    FILE *f = fopen(archive, "a");
    cr_assert_not_null(f);
    fputs("\n[Event \"other\"]\n[Result \"*\"]\n\n1. c4 *\n", f);
    fclose(f);
    run(s, 2000, (const char *const[]){"review", NULL});
    cr_assert(wait_until(s, 2000, review_over), "the review ends");
    session_free(s, 3000);
    const char *text = read_all(archive);
    cr_assert_not_null(text);
    cr_expect_eq(count_of(text, "[Event "), 2, "%s", text);
    cr_expect(strstr(text, "1. c4 *"), "%s", text);
    cr_expect(strstr(text, "g4 $4"), "%s", text);
    cr_expect_eq(count_of(text, "2. g4"), 1, "one copy of the reviewed game: %s", text);
    cr_expect(strstr(text, "g4 $4") < strstr(text, "1. c4 *"), "in its place: %s", text);
}

// play none waits pace ms between moves (fake time does not pass here).
Test(session, engine_against_itself_is_paced) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 1000, (const char *const[]){"play none", NULL});
    cr_assert(wait_until(s, 1000, engine_idle));
    for (int i = 0; i < 30; i++) {
        session_poll(s, 1000);
        nap_ms(5);
    }
    cr_expect_eq(game_ply_count(session_game(s)), 1, "one move, then a pause");
    cr_expect_gt(session_wakeup_ms(s, 1000), 0);
    session_poll(s, 2100);
    cr_assert(wait_until(s, 2100, engine_idle));
    cr_expect_eq(game_ply_count(session_game(s)), 2, "the next move after the pause");
    run(s, 2100, (const char *const[]){"pace 0", NULL});
    for (int i = 0; i < 200 && game_ply_count(session_game(s)) < 4; i++) {
        session_poll(s, 2100);
        nap_ms(10);
    }
    cr_expect_geq(game_ply_count(session_game(s)), 4, "pace 0: no pause");
    session_free(s, 3000);
}

static bool back_in_play(const Session *s) { return session_mode(s) == SESSION_PLAY; }

// A limited analysis reports each depth and ends by itself.
Test(session, limited_analysis_reports_depths_and_ends) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 1000, (const char *const[]){"lines 2", "analyze depth 6", NULL});
    cr_expect_eq(session_mode(s), SESSION_ANALYSE);
    cr_assert(wait_until(s, 1000, back_in_play), "%s", log.text);
    cr_expect(has(&log, "depth 6 line 1 score "), "%s", log.text);
    cr_expect(has(&log, "depth 6 line 2 score "), "%s", log.text);
    cr_expect(has(&log, "final depth 6 line 1"), "%s", log.text);
    cr_expect(has(&log, "Analysis done."), "%s", log.text);
    run(s, 1000, (const char *const[]){"analyze 3x", NULL});
    cr_expect(has(&log, "analyze takes a time"), "%s", log.text);
    session_free(s, 2000);
}

// Problems in the configuration reach the user through the session.
Test(session, configuration_notes_are_shown) {
    SessionOptions o = options();
    snprintf(o.notes, sizeof o.notes, "patzer.conf:3: unknown key 'colour'");
    Log log = {0};
    Session *s = open_session(&o, &log);
    cr_expect(has(&log, "Error: patzer.conf:3: unknown key 'colour'"), "%s", log.text);
    session_free(s, 2000);
}

// A review that runs to its end shows the annotated game in browse.
Test(session, a_finished_review_is_shown_and_left) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"play both", "setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1",
                                       "Rh8", "review", NULL});
    cr_assert(wait_until(s, 2000, review_over), "%s", log.text);
    cr_expect_eq(session_mode(s), SESSION_BROWSE);
    cr_expect(has(&log, "Review: 0 inaccuracies"), "%s", log.text);
    char st[256];
    session_status(s, st, sizeof st);
    cr_expect(strstr(st, "[browse: reviewed game]"), "%s", st);
    run(s, 2000, (const char *const[]){"prev", "analyze", "next", "stop", NULL});
    cr_expect_eq(session_mode(s), SESSION_PLAY, "a game in memory cannot be reopened: play");
    cr_expect_eq(game_ply_count(session_game(s)), 1);
    session_free(s, 3000);
}

// An analysis or the editor opened on a file's game returns to the same move.
Test(session, back_from_analysis_returns_to_the_move_of_the_file) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    char load[400];
    snprintf(load, sizeof load, "load %s", pgn_path);
    run(s, 2000, (const char *const[]){load, "game 2", "goto 3", NULL});
    cr_assert_eq(session_mode(s), SESSION_BROWSE);
    int ply = game_ply_count(session_game(s));
    run(s, 2000, (const char *const[]){"analyze", "next", "next", "stop", NULL});
    cr_expect_eq(session_mode(s), SESSION_BROWSE, "%s", log.text);
    cr_expect_eq(game_ply_count(session_game(s)), ply, "the same move as before");
    run(s, 2000, (const char *const[]){"edit", "fen", "cancel", NULL});
    cr_expect_eq(session_mode(s), SESSION_BROWSE);
    cr_expect_eq(game_ply_count(session_game(s)), ply);
    session_free(s, 3000);
}

static Bitboard bit(const char *name) { return 1ULL << square_from_name(name); }

// Issue 11: a square typed alone selects your piece and shows where it may
// go; a second square plays it; "e3" with nothing selected is still a move.
Test(session, typed_squares_select_and_play) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 1000, (const char *const[]){"play both", "g1", NULL});
    Square selected;
    Bitboard quiet, captures;
    Move premove;
    session_pointing(s, &selected, &quiet, &captures, &premove);
    cr_expect_eq(selected, sq("g1"));
    cr_expect_eq(quiet, bit("f3") | bit("h3"));
    cr_expect_eq(captures, 0);
    cr_expect(has(&log, "Your knight on g1: where to?"), "%s", log.text);
    run(s, 1000, (const char *const[]){"e4", NULL}); // not the knight's: the pawn's move
    session_pointing(s, &selected, &quiet, &captures, &premove);
    cr_expect_eq(selected, SQ_NONE);
    cr_expect_eq(game_ply_count(session_game(s)), 1, "%s", log.text);
    run(s, 1000, (const char *const[]){"undo", "e2", "e4", "d7", "d5", "e4", NULL});
    cr_expect_eq(game_ply_count(session_game(s)), 2, "%s", log.text);
    session_pointing(s, &selected, &quiet, &captures, &premove);
    cr_expect_eq(selected, sq("e4"));
    cr_expect_eq(quiet, bit("e5"));
    cr_expect_eq(captures, bit("d5"), "a capture is apart from the quiet moves");
    run(s, 1000, (const char *const[]){"d5", "a6", NULL}); // exd5, then a plain pawn move
    cr_expect_eq(game_ply_count(session_game(s)), 4, "%s", log.text);
    cr_expect_eq(log.errors, 0, "%s", log.text);
    session_free(s, 2000);
}

// A promotion by pointing asks for the piece; Enter gives a queen.
Test(session, pointing_promotion_asks_for_the_piece) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 1000, (const char *const[]){"setboard 4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "play both",
                                       "a7", "a8", NULL});
    cr_expect(has(&log, "Promote to: q, r, b or n"), "%s", log.text);
    cr_expect_eq(game_ply_count(session_game(s)), 0);
    run(s, 1000, (const char *const[]){"n", NULL});
    cr_assert_eq(game_ply_count(session_game(s)), 1, "%s", log.text);
    cr_expect_eq(board_piece_on(session_display_board(s), sq("a8")), make_piece(WHITE, KNIGHT));
    run(s, 1000, (const char *const[]){"setboard 4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "play both",
                                       "a7", "a8", "", NULL});
    cr_expect_eq(board_piece_on(session_display_board(s), sq("a8")), make_piece(WHITE, QUEEN));
    session_free(s, 2000);
}

// A move made while the engine thinks waits, then is played if legal or
// dropped with a note; Esc (session_point_cancel) clears it.
Test(session, premoves_queue_play_and_drop) {
    SessionOptions o = options();
    // Full strength thinks for seconds (untimed: 3 s a move), so the engine is
    // still thinking when the premove is typed and checked; level 1 may answer
    // within the call that started it.
    o.settings.level = 20;
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 1000, (const char *const[]){"e4", "g1", "f3", NULL});
    Square selected;
    Bitboard quiet, captures;
    Move premove;
    session_pointing(s, &selected, &quiet, &captures, &premove);
    cr_expect_eq(premove, move_make(sq("g1"), sq("f3")), "%s", log.text);
    cr_assert(wait_until(s, 1000, engine_idle));
    cr_assert(wait_until(s, 1000, engine_idle)); // the reply to the premove
    cr_expect_eq(game_ply_count(session_game(s)), 4, "%s", log.text);
    cr_expect_eq(board_piece_on(game_board(session_live_game(s)), sq("f3")), make_piece(WHITE, KNIGHT));
    session_free(s, 2000);
}

Test(session, illegal_premoves_are_dropped_and_esc_clears) {
    SessionOptions o = options();
    // Full strength thinks for seconds (untimed: 3 s a move), so the engine is
    // still thinking when the premove is typed and checked; level 1 may answer
    // within the call that started it.
    o.settings.level = 20;
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 1000, (const char *const[]){"e4", "e1e3", NULL}); // a king never moves two squares
    Square selected;
    Bitboard quiet, captures;
    Move premove;
    session_pointing(s, &selected, &quiet, &captures, &premove);
    cr_expect_eq(premove, move_make(sq("e1"), sq("e3")), "%s", log.text);
    cr_assert(wait_until(s, 1000, engine_idle));
    cr_expect(has(&log, "Premove e1e3 dropped: it is not legal now."), "%s", log.text);
    cr_expect_eq(game_ply_count(session_game(s)), 2);
    run(s, 1000, (const char *const[]){"d4", "b1", "c3", NULL});
    session_pointing(s, &selected, &quiet, &captures, &premove);
    cr_expect_neq(premove, MOVE_NONE);
    cr_expect(session_point_cancel(s));
    session_pointing(s, &selected, &quiet, &captures, &premove);
    cr_expect_eq(premove, MOVE_NONE);
    cr_expect(!session_point_cancel(s), "nothing left to clear");
    cr_assert(wait_until(s, 1000, engine_idle));
    cr_expect_eq(game_ply_count(session_game(s)), 4, "the cleared premove is not played");
    session_free(s, 2000);
}

// A move in SAN typed while the engine thinks is read as if it were your
// turn: queued, named in the status, played by its squares (a promotion
// with its piece); a SAN no piece of yours can play is refused.
Test(session, premoves_in_san_are_read_as_your_move) {
    SessionOptions o = options();
    o.settings.level = 20;
    Log log = {0};
    Session *s = open_session(&o, &log);
    // Lines are handled without a poll in between: the engine has not even
    // started, but it is its turn.
    run(s, 1000, (const char *const[]){"e4", "Nf3", NULL});
    Square selected;
    Bitboard quiet, captures;
    Move premove;
    session_pointing(s, &selected, &quiet, &captures, &premove);
    cr_expect_eq(premove, move_make(sq("g1"), sq("f3")), "%s", log.text);
    cr_expect(has(&log, "Premove Nf3: played when patzer has moved"), "%s", log.text);
    char status[256];
    session_status(s, status, sizeof status);
    cr_expect(strstr(status, "premove Nf3 (Esc clears)"), "%s", status);
    run(s, 1000, (const char *const[]){"Qh8", NULL});
    cr_expect(has(&log, "Not queued as a premove: "), "%s", log.text);
    session_pointing(s, &selected, &quiet, &captures, &premove);
    cr_expect_eq(premove, move_make(sq("g1"), sq("f3")), "a refused one leaves the queued one");
    cr_assert(wait_until(s, 1000, engine_idle));
    cr_assert(wait_until(s, 1000, engine_idle)); // the reply to the premove
    cr_expect_eq(board_piece_on(game_board(session_live_game(s)), sq("f3")),
                 make_piece(WHITE, KNIGHT), "%s", log.text);

    run(s, 1000, (const char *const[]){"setboard 8/P3k3/8/8/8/8/8/4K3 b - - 0 1", "a8=N", NULL});
    session_pointing(s, &selected, &quiet, &captures, &premove);
    cr_expect_eq(premove, move_make_promotion(sq("a7"), sq("a8"), KNIGHT), "%s", log.text);
    cr_assert(wait_until(s, 1000, engine_idle));
    cr_expect_eq(board_piece_on(game_board(session_live_game(s)), sq("a8")),
                 make_piece(WHITE, KNIGHT), "%s", log.text);
    session_free(s, 2000);
}

static bool hint_named(Session *s, const Log *log, const char *text) {
    for (int i = 0; i < 2000 && !has(log, text); i++) {
        session_poll(s, 1000);
        nap_ms(10);
    }
    return has(log, text);
}

// The first hint names the piece, the second the move.
Test(session, hints_are_graded) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 1000, (const char *const[]){"hint", NULL});
    cr_assert(hint_named(s, &log, "Hint: move your "), "%s", log.text);
    cr_expect_eq(session_hint(s), MOVE_NONE, "the move stays hidden");
    size_t before = log.len;
    run(s, 1000, (const char *const[]){"hint", NULL});
    Move m = session_hint(s);
    cr_assert_neq(m, MOVE_NONE);
    char san[MOVE_TEXT_MAX], want[64];
    notation_to_san(session_display_board(s), m, san);
    snprintf(want, sizeof want, "Hint: %s\n", san);
    cr_expect_not_null(strstr(log.text + before, want), "%s", log.text);
    session_free(s, 2000);
}

// The engine's thinking is hidden in a game against it unless asked for.
Test(session, eval_is_hidden_against_the_engine) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    cr_expect(!session_eval_shown(s));
    run(s, 1000, (const char *const[]){"eval on", NULL});
    cr_expect(session_eval_shown(s));
    run(s, 1000, (const char *const[]){"eval", NULL});
    cr_expect(!session_eval_shown(s), "eval alone toggles");
    run(s, 1000, (const char *const[]){"eval maybe", NULL});
    cr_expect(has(&log, "eval takes on or off"), "%s", log.text);
    run(s, 1000, (const char *const[]){"play both", NULL});
    cr_expect(session_eval_shown(s), "no engine in the game: nothing to spoil");
    run(s, 1000, (const char *const[]){"play white", "analyze", NULL});
    cr_expect_eq(session_mode(s), SESSION_ANALYSE);
    cr_expect(session_eval_shown(s), "analysis always shows it");
    session_free(s, 2000);
}

// Issue 11, item 9: a FEN of the placement alone, as websites give it.
Test(session, a_placement_only_fen_is_completed_and_says_so) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                                       NULL});
    cr_expect(has(&log, "Position set (placement only: White to move, castling KQkq inferred): "
                        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
              "%s", log.text);
    // A rook off its corner, a king off its square: no right for them.
    run(s, 2000, (const char *const[]){"setboard r3k3/8/8/8/8/8/8/R4K1R", NULL});
    cr_expect(has(&log, "castling q inferred): r3k3/8/8/8/8/8/8/R4K1R w q - 0 1"), "%s", log.text);
    run(s, 2000, (const char *const[]){"setboard 4k3/8/8/8/8/8/8/4K3", NULL});
    cr_expect(has(&log, "no castling rights inferred"), "%s", log.text);
    // A bad placement names the rank; the game stays as it was.
    run(s, 2000, (const char *const[]){"setboard 4k3/8/8/8/8/8/8/4K2", NULL});
    cr_expect(has(&log, "Error: Bad FEN: board: rank 1 has 7 squares, expected 8"), "%s", log.text);
    char fen[FEN_MAX];
    board_to_fen(session_display_board(s), fen, sizeof fen);
    cr_expect_str_eq(fen, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    // The editor takes one too, to edit further.
    run(s, 2000, (const char *const[]){"edit", "setboard r3k2r/8/8/8/8/8/8/4K2R", "fen", NULL});
    cr_expect(has(&log, "Position loaded into the editor (placement only: White to move, castling "
                        "Kkq inferred)"),
              "%s", log.text);
    cr_expect(has(&log, "r3k2r/8/8/8/8/8/8/4K2R w Kkq - 0 1"), "%s", log.text);
    cr_expect_eq(session_mode(s), SESSION_EDIT);
    run(s, 2000, (const char *const[]){"put Ra1", "done", NULL});
    cr_expect(has(&log, "Position set: r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1"), "%s", log.text);
    session_free(s, 3000);
}

// --fen (the session's start position) may be a placement alone too.
Test(session, a_placement_only_start_position) {
    SessionOptions o = options();
    snprintf(o.settings.start_fen, sizeof o.settings.start_fen, "r3k3/8/8/8/8/8/8/4K2R");
    Log log = {0};
    Session *s = open_session(&o, &log);
    cr_expect(has(&log, "Start position: placement only: White to move, castling Kq inferred."),
              "%s", log.text);
    char fen[FEN_MAX];
    board_to_fen(session_display_board(s), fen, sizeof fen);
    cr_expect_str_eq(fen, "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
    session_free(s, 3000);
}

// A word that is no move: the nearest command, or the help.
Test(session, a_mistyped_command_gets_the_nearest_one) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"hlep", "xyzzy", "Nf9", "edit", "pit Qd4", "cancel", NULL});
    cr_expect(has(&log, "Error: 'hlep' is not a move or command; did you mean help?"), "%s",
              log.text);
    cr_expect(has(&log, "Error: 'xyzzy' is not a move or command; type help for the list."), "%s",
              log.text);
    cr_expect(has(&log, "Error: 'Nf9' is not a move\n"), "%s", log.text);
    cr_expect(has(&log, "Error: 'pit Qd4' is not a command here; did you mean put?"), "%s",
              log.text);
    session_free(s, 3000);
}

// Issue 12, item 6: the game sets its own, phase-dependent contempt on its
// engine (whatever the UCI default is); a user may change it.
Test(session, the_game_has_its_own_contempt) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"engine options", "engine option Contempt 0",
                                       "engine options", NULL});
    const char *first = strstr(log.text, "  Contempt (spin 0..200) = 100\n");
    cr_expect(first, "%s", log.text);
    cr_expect(first && strstr(first, "  Contempt (spin 0..200) = 0\n"), "%s", log.text);
    session_free(s, 3000);
}

// Issue 11, item 8: the status says when the player may claim a draw.
Test(session, the_status_offers_a_claim_as_soon_as_one_is_possible) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    char st[256];
    run(s, 2000, (const char *const[]){"play both", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6",
                                       "Ng1", NULL});
    status(s, st, sizeof st);
    cr_expect_not(strstr(st, "claim"), "%s", st);
    run(s, 2000, (const char *const[]){"Ng8", NULL});
    status(s, st, sizeof st);
    cr_expect(strstr(st, "White to move - threefold repetition: claim to draw"), "%s", st);
    run(s, 2000, (const char *const[]){"claim", NULL});
    status(s, st, sizeof st);
    cr_expect(strstr(st, "1/2-1/2"), "%s", st);
    cr_expect_not(strstr(st, "claim to draw"), "%s", st);
    // Against the engine: the fifty-move rule, on the player's turn.
    run(s, 2000, (const char *const[]){"setboard 4k3/8/8/8/8/8/8/4K2R w - - 100 80", "play white",
                                       NULL});
    status(s, st, sizeof st);
    cr_expect(strstr(st, "White to move - fifty-move rule: claim to draw"), "%s", st);
    session_free(s, 3000);
}

// ------------------------------------------------------------ annotations

// The move tree's items of kind TREE_MOVE as "san" words joined by blanks,
// with "(" and ")" around variations and the result; the current move starred.
static void tree_text(Session *s, char *buf, size_t bufsz) {
    const SessionTreeItem *items;
    int n = session_move_tree(s, &items);
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && len < bufsz; i++) {
        const SessionTreeItem *it = &items[i];
        const char *word = it->kind == TREE_OPEN ? "(" : it->kind == TREE_CLOSE ? ")" : it->san;
        len += (size_t)snprintf(buf + len, bufsz - len, "%s%s%s%s", len ? " " : "", word,
                                it->current ? "*" : "", it->comment ? "{}" : "");
        for (int k = 0; k < it->nag_count && len < bufsz; k++)
            len += (size_t)snprintf(buf + len, bufsz - len, "$%d", it->nags[k]);
    }
}

Test(session, comments_and_nags_on_the_live_game_are_saved_and_resumed) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    char saved[400], save[420];
    snprintf(saved, sizeof saved, "%s/annotated.pgn", dir);
    snprintf(save, sizeof save, "save %s", saved);
    run(s, 2000, (const char *const[]){"play both", "comment too early", "nag !", NULL});
    cr_expect(has(&log, "Error: No move yet to comment on."), "%s", log.text);
    cr_expect(has(&log, "Error: No move yet to mark."), "%s", log.text);
    run(s, 3000, (const char *const[]){"e4!?", "e5", "comment The  classical reply", "Nf3 ?",
                                       "nag $14", "Nc6", "comment gone soon", "comment", NULL});
    cr_expect(has(&log, "1... e5: Comment on") || has(&log, "Comment on 1... e5 kept."),
              "%s", log.text);
    cr_expect(has(&log, "Comment on 2... Nc6 removed."), "%s", log.text);
    const Game *g = session_live_game(s);
    cr_assert_eq(game_ply_count(g), 4);
    cr_expect_eq(game_node(g, 0)->nags[0], 5);
    cr_expect_str_eq(game_node(g, 1)->comment, "The classical reply", "folded as PGN keeps it");
    // $14 (a position's assessment) joins the ? typed with the move, as in a
    // game of a file: one move assessment, and other NAGs beside it.
    cr_expect_eq(game_node(g, 2)->nag_count, 2);
    cr_expect_eq(game_node(g, 2)->nags[0], 2);
    cr_expect_eq(game_node(g, 2)->nags[1], 14);
    cr_expect_null(game_node(g, 3)->comment);
    char text[512];
    tree_text(s, text, sizeof text);
    cr_expect_str_eq(text, "e4$5 e5{} Nf3$2$14 Nc6*");
    const char *before, *after;
    session_comments(s, &before, &after);
    cr_expect_null(before);
    cr_expect_null(after);
    run(s, 4000, (const char *const[]){"undo", NULL});
    session_comments(s, &before, &after);
    cr_expect_null(after, "the current move is Nf3 now");
    run(s, 4100, (const char *const[]){"undo", NULL});
    session_comments(s, &before, &after);
    cr_expect_str_eq(after, "The classical reply");
    run(s, 4200, (const char *const[]){"redo", "redo", save, NULL});
    cr_expect(has(&log, "Saved to"), "%s", log.text);
    char *pgn = read_all(saved);
    cr_assert_not_null(pgn);
    cr_expect(strstr(pgn, "1. e4 $5 e5 {The classical reply} 2. Nf3 $2 $14 Nc6"), "%s", pgn);
    // The autosave has them too, and a resumed game gets them back.
    pgn = read_all(autosave);
    cr_assert_not_null(pgn);
    cr_expect(strstr(pgn, "{The classical reply}"), "%s", pgn);
    session_free(s, 5000);

    o.resume = true;
    Log log2 = {0};
    s = open_session(&o, &log2);
    cr_expect(has(&log2, "Resumed the unfinished game"), "%s", log2.text);
    g = session_live_game(s);
    cr_assert_eq(game_ply_count(g), 4);
    cr_expect_eq(game_node(g, 0)->nags[0], 5);
    cr_expect_str_eq(game_node(g, 1)->comment, "The classical reply");
    cr_expect_eq(game_node(g, 2)->nags[1], 14);
    // Loading the saved file reads them back the same way.
    run(s, 6000, (const char *const[]){"comment changed after resume", NULL});
    cr_expect_str_eq(game_node(session_live_game(s), 3)->comment, "changed after resume");
    session_free(s, 7000);
}

Test(session, the_engine_evaluation_stays_apart_from_the_comment) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_ENGINE;
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"e4", NULL});
    for (int i = 0; i < 2000 && game_ply_count(session_live_game(s)) < 2; i++) {
        session_poll(s, 2000);
        nap_ms(10);
    }
    cr_assert_eq(game_ply_count(session_live_game(s)), 2);
    run(s, 3000, (const char *const[]){"comment the engine's reply", NULL});
    char *pgn = read_all(autosave);
    cr_assert_not_null(pgn);
    // "{the engine's reply +0.12/5}": the comment, then the evaluation.
    cr_expect(strstr(pgn, "{the engine's reply "), "%s", pgn);
    session_free(s, 4000);
    o.resume = true;
    Log log2 = {0};
    s = open_session(&o, &log2);
    const GameMove *m = game_move(session_live_game(s), 1);
    cr_assert_not_null(m);
    cr_expect_str_eq(game_node(session_live_game(s), 1)->comment, "the engine's reply");
    cr_expect_neq(m->score, VALUE_NONE, "the evaluation is read back as the score");
    session_free(s, 5000);
}

static const char *const annotated_game =
    "[Event \"Notes\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
    "{Opening words.} 1. e4 e5 (1... c5 {Sicilian} 2. Nf3 (2. c3 d5) 2... d6) "
    "2. Nf3 {A knight.} Nc6 $6 1-0\n";

Test(session, browsed_games_show_the_tree_and_take_comments_and_clicks) {
    SessionOptions o = options();
    Log log = {0};
    char path[400], load[420], saved[400], save[420];
    snprintf(path, sizeof path, "%s/notes.pgn", dir);
    snprintf(saved, sizeof saved, "%s/notes-saved.pgn", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(annotated_game, f);
    fclose(f);
    snprintf(load, sizeof load, "load %s", path);
    snprintf(save, sizeof save, "save %s", saved);
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){load, "first", NULL});
    cr_assert_eq(session_mode(s), SESSION_BROWSE);
    char text[512];
    tree_text(s, text, sizeof text);
    cr_expect_str_eq(text, "e4{} e5 ( c5{} Nf3 ( c3 d5 ) d6 ) Nf3{} Nc6$6 1-0");
    const char *before, *after;
    session_comments(s, &before, &after);
    cr_expect_str_eq(before, "Opening words.");
    cr_expect_null(after);
    // The numbering of the tree's moves, in the variation too.
    const SessionTreeItem *items;
    int n = session_move_tree(s, &items);
    cr_assert_eq(n, 14);
    cr_expect_eq(items[3].fullmove, 1);
    cr_expect_eq(items[3].side, BLACK);
    cr_expect_eq(items[7].fullmove, 2);
    cr_expect_eq(items[7].side, BLACK);
    // A click on "d5" inside the nested variation goes there.
    cr_assert(session_goto_tree_item(s, 7, 3000));
    tree_text(s, text, sizeof text);
    cr_expect_str_eq(text, "e4{} e5 ( c5{} Nf3 ( c3 d5* ) d6 ) Nf3{} Nc6$6 1-0");
    char fen[FEN_MAX];
    board_to_fen(session_display_board(s), fen, sizeof fen);
    cr_expect_str_eq(fen, "rnbqkbnr/pp2pppp/8/2pp4/4P3/2P5/PP1P1PPP/RNBQKBNR w KQkq - 0 3");
    cr_expect_not(session_goto_tree_item(s, 2, 3000), "a parenthesis is no move");
    // Comments and NAGs on the current move, typed NAGs on moves made here.
    run(s, 4000, (const char *const[]){"comment A  gambit idea", "nag ?!", "nag !!", "exd5 !",
                                       NULL});
    cr_expect_eq(log.errors, 0, "%s", log.text);
    session_comments(s, &before, &after);
    cr_expect_null(after, "exd5 has no comment");
    run(s, 4100, (const char *const[]){"prev", NULL});
    session_comments(s, &before, &after);
    cr_expect_str_eq(after, "A gambit idea");
    cr_expect(session_goto_tree_item(s, 1, 4200), "back to e5 of the main line");
    run(s, 4300, (const char *const[]){"first", "comment New opening words", save, NULL});
    char *pgn = read_all(saved);
    cr_assert_not_null(pgn);
    for (char *p = pgn; *p; p++)
        if (*p == '\n')
            *p = ' '; // the writer wraps lines
    cr_expect(strstr(pgn, "{New opening words} 1. e4 e5 (1... c5 {Sicilian} 2. Nf3 (2. c3 d5 $3 "
                          "{A gambit idea} 3. exd5 $1) 2... d6) 2. Nf3 {A knight.} 2... Nc6 $6 "
                          "1-0"),
              "%s", pgn);
    // In play a click looks back at a move of your game; this one has none yet.
    run(s, 5000, (const char *const[]){"back", NULL});
    cr_expect_not(session_goto_tree_item(s, 0, 5000));
    session_free(s, 6000);
}

Test(session, the_tree_ends_with_the_result_after_resignation) {
    SessionOptions o = options();
    Log log = {0};
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){"play both", "e4", "resign", NULL});
    char text[256];
    tree_text(s, text, sizeof text);
    cr_expect_str_eq(text, "e4* 1-0", "%s", log.text);
    session_free(s, 3000);
}

// The game list (load, games): the session says its heading, the front end
// shows its rows; a click on a row opens the game of that row.

Test(session, a_row_of_the_game_list_names_its_game) {
    SessionOptions o = options();
    SessionHooks hooks = {keep_text, NULL, NULL, NULL};
    char err[256], load[400];
    Session *s = session_new(&o, &hooks, 1000, err, sizeof err);
    cr_assert_not_null(s, "%s", err);
    cr_expect_not(session_is_game_list(s, ""), "no list yet");
    cr_expect_eq(session_game_list_count(s), 0);
    snprintf(load, sizeof load, "load %s", pgn_path);
    run(s, 2000, (const char *const[]){load, NULL});
    cr_assert(strstr(last_text, "2 of 2 games in"), "%s", last_text);
    cr_expect(session_is_game_list(s, last_text));
    cr_expect_not(session_is_game_list(s, "2 of 2 games in"));
    cr_assert_eq(session_game_list_count(s), 2);
    char row[256];
    session_game_list_row(s, 1, 80, row, sizeof row);
    cr_expect(strstr(row, "2  Gamma") == row, "%s", row);
    cr_expect_eq(session_game_list_number(s, 1), 2);
    cr_expect_eq(session_game_list_number(s, 0), 1);
    cr_expect_eq(session_game_list_number(s, 2), 0, "below the rows");
    cr_expect_eq(session_game_list_number(s, -1), 0);
    run(s, 3000, (const char *const[]){"games delta", NULL});
    cr_expect(strstr(last_text, "1 of 2 games in") && strstr(last_text, "matching 'delta'"), "%s",
              last_text);
    cr_expect_eq(session_game_list_number(s, 0), 2);
    session_free(s, 3000);
}

// goto beyond the game says the moves there are, in play and in a file's game.
Test(session, goto_past_the_end_says_the_range) {
    SessionOptions o = options();
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "play both", "e4", "e5", "Nf3", "goto 999", NULL });
    cr_expect(has(&log, "No move 999: your game has moves 1 to 2 (goto 0 is the start)."), "%s",
              log.text);
    cr_expect_eq(game_ply_count(session_game(s)), 3, "the game stays where it was");
    char load[400];
    snprintf(load, sizeof load, "load %s", pgn_path);
    run(s, 2000, (const char *const[]){ load, "game 2", "goto 9", NULL });
    cr_expect(has(&log, "No move 9: the line has moves 1 to 5 (goto 0 is the start)."), "%s",
              log.text);
    session_free(s, 3000);
}

// new keeps the sides of the last game, as help new says: after play both you
// still move for both, and the message says so.
Test(session, new_after_play_both_keeps_both_sides_and_says_so) {
    SessionOptions o = options();
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "play both", "e4", "new", NULL });
    cr_expect(has(&log, "New game: you move for both sides."), "%s", log.text);
    const GameSettings *gs = game_settings(session_live_game(s));
    cr_expect(gs->players[WHITE] == PLAYER_HUMAN && gs->players[BLACK] == PLAYER_HUMAN);
    run(s, 2000, (const char *const[]){ "new white", NULL });
    gs = game_settings(session_live_game(s));
    cr_expect(gs->players[WHITE] == PLAYER_HUMAN && gs->players[BLACK] == PLAYER_ENGINE);
    session_free(s, 3000);
}
