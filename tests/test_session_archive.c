// SPDX-License-Identifier: GPL-3.0-or-later
// Whole sessions driven headless, second part (the first is test_session.c):
// issue 21's honest autosave (finished games stay finished, a full disk is
// said, the archive gets each game once), issue 22's status line after each
// event, and a few more whole sessions. Time is fake, as in test_session.c.
#include <criterion/criterion.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "src/session/session.h"
#include "src/util/paths.h"
#include "tests/helpers.h"
#include "tests/session_fixture.h"

TestSuite(session, .init = setup, .fini = teardown, .timeout = 60);

// ------------------------------------------------------------ issue 21: an honest autosave

// The archive as text (empty when there is none), a copy the next read keeps.
static const char *archive_text(void) {
    const char *text = read_all(archive);
    return text ? text : "";
}

// Defect: a resigned game came back as "unfinished". It is finished on
// restart, not offered, and archived once with its real ending, whatever the
// restarts.
Test(session, a_resigned_game_is_not_offered_and_archived_once) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_HUMAN;
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "e4", "resign", "quit", NULL });
    session_free(s, 3000);
    for (int restart = 0; restart < 2; restart++) {
        Log again = { 0 };
        s = open_session(&o, &again);
        cr_expect_not(session_asking(s), "a finished game is not offered: %s", again.text);
        cr_expect_not(has(&again, "unfinished"), "%s", again.text);
        session_handle_line(s, "n", 4000); // not an answer: a move that is not one
        session_free(s, 5000);
    }
    const char *text = archive_text();
    cr_expect_eq(count_of(text, "[Event "), 1, "the archive holds the game once: %s", text);
    cr_expect(strstr(text, "[Result \"1-0\"]"), "%s", text); // White is to move: Black resigned
    cr_expect(strstr(text, "[PatzerEnd \"resignation black\"]"), "%s", text);
    cr_expect(strstr(text, "[Termination \"normal\"]"), "%s", text);
}

// Defect: undo after a flag fall revived the game (the clock ran and flagged
// again, the archive got it twice). It is refused, naming the ways on.
Test(session, undo_after_a_flag_fall_is_refused_and_the_game_archived_once) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_HUMAN;
    char err[160];
    cr_assert(timecontrol_parse("0:10+0", &o.settings.tc, err, sizeof err), "%s", err);
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "e4", NULL });
    run(s, 3000, (const char *const[]){ "e5", NULL });
    session_poll(s, 20000); // White's ten seconds are gone
    const Game *g = session_game(s);
    cr_assert(game_is_over(g), "%s", log.text);
    cr_expect_eq(game_end(g), END_TIME_FORFEIT);
    run(s, 21000, (const char *const[]){ "undo", "redo", NULL });
    cr_expect(has(&log, "undo cannot change it; analyze studies its positions, new starts a game"),
              "%s", log.text);
    cr_expect(game_is_over(session_game(s)), "still over");
    cr_expect_eq(game_ply_count(session_game(s)), 2);
    session_poll(s, 40000);
    session_free(s, 41000);
    Log again = { 0 };
    s = open_session(&o, &again);
    cr_expect_not(session_asking(s), "%s", again.text);
    session_free(s, 42000);
    const char *text = archive_text();
    cr_expect_eq(count_of(text, "[Event "), 1, "%s", text);
    cr_expect(strstr(text, "[Termination \"time forfeit\"]"), "%s", text);
    cr_expect(strstr(text, "[PatzerEnd \"time-forfeit white\"]"), "%s", text);
}

// A claimed draw is finished on restart too; mate needs no tag but has one.
Test(session, a_claimed_draw_stays_finished_after_a_restart) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_HUMAN;
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000,
        (const char *const[]){ "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "claim Ng8",
                               NULL });
    cr_assert(game_is_over(session_game(s)), "%s", log.text);
    session_free(s, 3000);
    Log again = { 0 };
    s = open_session(&o, &again);
    cr_expect_not(session_asking(s), "%s", again.text);
    run(s, 4000, (const char *const[]){ "y", NULL });
    cr_expect_eq(game_ply_count(session_game(s)), 0, "nothing to resume");
    session_free(s, 5000);
    const char *text = archive_text();
    cr_expect_eq(count_of(text, "[Event "), 1, "%s", text);
    cr_expect(strstr(text, "[PatzerEnd \"threefold-repetition black\"]"), "%s", text);
}

// The archive records the settings the game was played with: level, time and
// players typed after the end are the next game's.
Test(session, settings_after_the_end_do_not_rewrite_the_finished_game) {
    SessionOptions o = options();
    o.settings.level = 20;
    o.settings.players[BLACK] = PLAYER_HUMAN;
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000,
        (const char *const[]){ "e4", "resign", "level 1", "time 1+0", "play black", NULL });
    cr_expect(has(&log, "Level 1 (about"), "%s", log.text);
    cr_expect(has(&log, "for the next game (new starts it)"), "%s", log.text);
    const GameSettings *played = game_settings(session_game(s));
    cr_expect_eq(played->level, 20);
    cr_expect_eq(played->players[WHITE], PLAYER_HUMAN);
    session_free(s, 3000); // the final autosave: the finished game as it was played
    const char *text = archive_text();
    cr_expect(strstr(text, "[PatzerLevel \"20\"]"), "%s", text);
    text = read_all(autosave);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "[PatzerLevel \"20\"]"), "%s", text);
    cr_expect(strstr(text, "[PatzerBlack \"human\"]"), "%s", text);

    s = open_session(&o, &log);
    run(s, 4000, (const char *const[]){ "e4", "resign", "level 3", "play black", "new", NULL });
    const GameSettings *next = game_settings(session_game(s));
    cr_expect_eq(next->level, 3, "the next game takes them");
    cr_expect_eq(next->players[WHITE], PLAYER_ENGINE);
    session_free(s, 5000);
    cr_expect_eq(count_of(archive_text(), "[Event "), 2, "%s", archive_text());
}

// One wording of the question; 1 move, 2 moves.
Test(session, the_resume_question_has_one_wording_and_counts_right) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_HUMAN;
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "e4", NULL });
    session_free(s, 3000);
    Log again = { 0 };
    s = open_session(&o, &again);
    const char *question = "An unfinished game (1 move) was saved. Resume it? (y/n)";
    cr_expect(has(&again, question), "%s", again.text);
    char st[256];
    status(s, st, sizeof st);
    cr_expect_str_eq(st, question);
    run(s, 4000, (const char *const[]){ "y", "e5", "Nf3", NULL });
    cr_expect(has(&again, "Resumed the unfinished game (1 move)."), "%s", again.text);
    session_free(s, 5000);
    Log third = { 0 };
    s = open_session(&o, &third);
    cr_expect(has(&third, "An unfinished game (2 moves) was saved."), "%s", third.text);
    session_free(s, 6000);
}

// A resumed game's clock waited for the first move (40 s left showed 0:40
// and did not run): it runs from the moment the game is back on the board,
// after --resume and after the answer y alike.
Test(session, a_resumed_game_s_clock_runs_from_the_resume) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_HUMAN;
    TimeControl tc;
    char err[128];
    cr_assert(timecontrol_parse("1+0", &tc, err, sizeof err), "%s", err);
    o.settings.tc = tc;
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "e4", NULL });  // White's clock starts at its move
    run(s, 22000, (const char *const[]){ "e5", NULL }); // Black used 20 s
    session_free(s, 23000);
    o.resume = true;
    s = open_session(&o, &log); // at 1000
    const Clock *c = game_clock(session_game(s));
    int64_t white = clock_remaining(c, WHITE, 1000);
    cr_expect(white > 50000 && clock_remaining(c, BLACK, 1000) == 40000, "the saved times");
    cr_expect(c->running, "White's clock runs at once");
    cr_expect_eq(clock_remaining(c, WHITE, 6000), white - 5000);
    cr_expect_eq(clock_remaining(c, BLACK, 6000), 40000);
    session_free(s, 6000);
    o.resume = false;
    Log again = { 0 };
    s = open_session(&o, &again);
    cr_expect_not(game_clock(session_game(s))->running, "not while the question is open");
    run(s, 3000, (const char *const[]){ "y", NULL });
    c = game_clock(session_game(s));
    white = clock_remaining(c, WHITE, 3000);
    cr_expect(c->running, "White's clock runs from the answer");
    cr_expect_eq(clock_remaining(c, WHITE, 8000), white - 5000);
    session_free(s, 8000);
}

// Defect: failed saves were silent. On a full disk (injected: every write
// fails part-way with ENOSPC) the autosave says so once, keeps the last good
// file, tries after every move and says when it works again.
Test(session, a_full_disk_is_said_once_and_the_old_autosave_stays) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_HUMAN;
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "e4", NULL });
    paths_fail_writes(0, ENOSPC);
    run(s, 3000, (const char *const[]){ "e5", "Nf3", "Nc6", NULL });
    cr_expect_eq(count_of(log.text, "Autosave failed"), 1, "once per cause: %s", log.text);
    cr_expect(has(&log, "No space left on device"), "%s", log.text);
    cr_expect(has(&log, autosave), "the file is named: %s", log.text);
    cr_expect_eq(session_write_failures(s), 1);
    cr_expect(strstr(session_last_failure(s), "No space left"), "%s", session_last_failure(s));
    const char *text = read_all(autosave);
    cr_assert_not_null(text, "the old autosave is there");
    cr_expect(strstr(text, "1. e4 *") && !strstr(text, "1. e4 e5"), "and intact: %s", text);
    cr_expect_not(session_save_all(s, 3500), "the game is not saved");
    paths_fail_writes(0, 0); // space again
    run(s, 4000, (const char *const[]){ "Bb5", NULL });
    cr_expect(has(&log, "Autosave works again: "), "%s", log.text);
    cr_expect(session_save_all(s, 4500));
    text = read_all(autosave);
    cr_expect(strstr(text, "3. Bb5"), "every move is there: %s", text);
    session_free(s, 5000);
    char dirlist[400];
    snprintf(dirlist, sizeof dirlist, "ls '%s' | grep -q tmp", dir);
    cr_expect_neq(system(dirlist), 0, "no temporary file is left");
}

// A finished game the archive could not take waits in the autosave, marked,
// and the next start archives it, once.
Test(session, a_game_the_archive_refused_is_archived_at_the_next_start) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_HUMAN;
    char blocker[320];
    snprintf(blocker, sizeof blocker, "%s/blocked", dir);
    FILE *f = fopen(blocker, "w"); // a file where the archive's directory should be:
    cr_assert_not_null(f);         // no write there, even as root
    fclose(f);
    snprintf(o.archive_path, sizeof o.archive_path, "%s/games.pgn", blocker);
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    cr_expect(has(&log, "The data directory "), "said at start: %s", log.text);
    cr_expect(has(&log, "finished games cannot be archived"), "%s", log.text);
    run(s, 2000, (const char *const[]){ "d4", "d5", "resign", NULL });
    cr_expect(has(&log, "The archive failed: "), "%s", log.text);
    cr_expect_not(session_save_all(s, 2500));
    session_free(s, 3000);
    const char *text = read_all(autosave);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "[PatzerArchived \"no\"]"), "%s", text);

    cr_assert_eq(unlink(blocker), 0);
    cr_assert_eq(mkdir(blocker, 0700), 0);
    Log again = { 0 };
    s = open_session(&o, &again);
    cr_expect_not(session_asking(s));
    cr_expect(has(&again, "is in the archive now"), "%s", again.text);
    session_free(s, 4000);
    s = open_session(&o, &again);
    session_free(s, 5000);
    text = read_all(o.archive_path);
    cr_assert_not_null(text);
    cr_expect_eq(count_of(text, "[Event "), 1, "once: %s", text);
    cr_expect(strstr(text, "[PatzerEnd \"resignation white\"]"), "%s", text);
}

// An unfinished game answered n while the archive cannot be written is kept
// and archived when the archive works again.
Test(session, an_abandoned_game_waits_for_the_archive) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_HUMAN;
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "c4", NULL });
    session_free(s, 3000);
    Log again = { 0 };
    s = open_session(&o, &again);
    paths_fail_writes(0, ENOSPC);
    run(s, 4000, (const char *const[]){ "n", "e4", NULL });
    cr_expect(has(&again, "waits for the archive"), "%s", again.text);
    paths_fail_writes(0, 0);
    run(s, 5000, (const char *const[]){ "e5", NULL });
    cr_expect(has(&again, "The archive works again: "), "%s", again.text);
    session_free(s, 6000);
    const char *text = archive_text();
    cr_expect_eq(count_of(text, "[Event "), 1, "%s", text);
    cr_expect(strstr(text, "1. c4 *"), "%s", text);
}

// With no HOME (unset or empty), the home directory is the password database's.
Test(session, no_home_is_found_in_the_password_database) {
    const struct passwd *pw = getpwuid(getuid());
    if (!pw || !pw->pw_dir || !pw->pw_dir[0])
        cr_skip_test("no entry for this user in the password database");
    char expected[4096];
    snprintf(expected, sizeof expected, "%s", pw->pw_dir);
    cr_assert_eq(unsetenv("HOME"), 0);
    cr_expect_str_eq(paths_home(), expected);
    cr_assert_eq(setenv("HOME", "", 1), 0);
    cr_expect_str_eq(paths_home(), expected);
    cr_assert_eq(setenv("HOME", dir, 1), 0);
    cr_expect_str_eq(paths_home(), dir);
}

// Every game of a long file is listed, and the last row opens the last game.
Test(session, the_game_list_has_every_game_and_the_last_opens) {
    char many[320];
    snprintf(many, sizeof many, "%s/many.pgn", dir);
    FILE *f = fopen(many, "w");
    cr_assert_not_null(f);
    for (int i = 1; i <= 300; i++)
        fprintf(f,
                "[Event \"Lichess Rated Blitz game, round %d\"]\n[UTCDate \"2024.02.%02d\"]\n"
                "[White \"Wilhelmina Longname-Player %d\"]\n[Black \"B%d\"]\n"
                "[Result \"*\"]\n\n1. e4 e5 %d. *\n\n",
                i, i % 28 + 1, i, i, 2);
    cr_assert_eq(fclose(f), 0);
    SessionOptions o = options();
    Log log = { 0 };
    SessionHooks hooks = { keep_text, NULL, NULL, &log };
    char err[256], load[400];
    Session *s = session_new(&o, &hooks, 1000, err, sizeof err);
    cr_assert_not_null(s, "%s", err);
    snprintf(load, sizeof load, "load %s", many);
    run(s, 2000, (const char *const[]){ load, NULL });
    cr_assert(strstr(last_text, "300 of 300 games in"), "%s", last_text);
    cr_assert_eq(session_game_list_count(s), 300);
    char row[512];
    session_game_list_row(s, 299, 120, row, sizeof row);
    cr_expect(strstr(row, "Wilhelmina Longname-Player 300"), "the name whole: %s", row);
    cr_expect(strstr(row, "Lichess Rated Blitz game, round 300"), "the event whole: %s", row);
    cr_expect(strstr(row, "2024.02.21"), "UTCDate stands for the date: %s", row);
    int number = session_game_list_number(s, 299);
    cr_expect_eq(number, 300);
    char open[32];
    snprintf(open, sizeof open, "game %d", number);
    run(s, 3000, (const char *const[]){ open, NULL });
    cr_expect(has(&log, "Game 300: Wilhelmina Longname-Player 300 - B300"), "%s", log.text);
    session_free(s, 4000);
}

// Issue 22 item 5: a line patzer names itself is no error, and the review
// says where the game left the book, in sentences with units.
Test(session, a_review_marks_no_book_move_and_says_where_the_book_ends) {
    SessionOptions o = options();
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    // C23 Bishop's Opening: Boi Variation, then 3. Qf3?! 3... Nf6?? 4. Qxf7#.
    run(s, 2000,
        (const char *const[]){ "play both", "e4", "e5", "Bc4", "Bc5", "Qh5", "Nf6", "Qxf7#",
                               "review", NULL });
    cr_assert(wait_until(s, 2000, review_over), "%s", log.text);
    cr_expect(has(&log, "Left the book with 3. Qh5."), "%s", log.text);
    cr_expect(has(&log, "1 blunder (?\?)"), "the mate walked into: %s", log.text);
    const SessionTreeItem *items;
    int n = session_move_tree(s, &items);
    int marks = 0;
    for (int i = 0; i < n; i++)
        if (items[i].kind == TREE_MOVE && i < 4)
            marks += items[i].nag_count;
    cr_expect_eq(marks, 0, "no mark on 1. e4 e5 2. Bc4 Bc5");
    // The blunder's comment is a sentence from White's view.
    run(s, 3000, (const char *const[]){ "goto 3", "next", NULL });
    const char *before, *after;
    session_comments(s, &before, &after);
    cr_assert_not_null(after);
    cr_expect(strstr(after, "Blunder (") && strstr(after, " to #1). Better was 3... "), "%s",
              after);
    session_free(s, 4000);
}

// ------------------------------------------------------------ the status line
// Issue 22: the status line is a function of the state. After every event a
// message that the state has left behind is gone, and the state's own line
// (the side to move, check, the question pending) shows.

static SessionStatusKind shown(const Session *s, char *buf, size_t bufsz) {
    bool cut;
    return session_status_line(s, buf, bufsz, &cut);
}

// The line shown is the state's own, which asks nothing (no stale prompt)
// and names the side to move and a check.
static void expect_state_line(const Session *s, const char *step) {
    char line[512], own[512];
    SessionStatusKind kind = shown(s, line, sizeof line);
    session_status(s, own, sizeof own);
    cr_expect_eq(kind, STATUS_STATE, "%s: %s", step, line);
    cr_expect_str_eq(line, own, "%s", step);
    cr_expect_null(strstr(line, "where to"), "%s: %s", step, line);
    cr_expect_null(strstr(line, "romote"), "%s: %s", step, line);
    cr_expect_null(strstr(line, "remove"), "%s: %s", step, line);
    const Game *g = session_game(s);
    if (!game_is_over(g)) {
        cr_expect(strstr(line, game_turn(g) == WHITE ? "White to move" : "Black to move"), "%s: %s",
                  step, line);
        if (board_in_check(game_board(g)))
            cr_expect(strstr(line, "check"), "%s: %s", step, line);
    }
}

static bool black_replied(const Session *s) {
    return game_ply_count(session_live_game(s)) >= 2 && !session_engine_busy(s);
}

// The reported case: a pointed move, the engine's reply (a check).
Test(session, status_after_a_pointed_move_and_the_reply) {
    SessionOptions o = options();
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 1000,
        (const char *const[]){ "setboard 6k1/8/8/8/8/8/1p4PP/2R4K w - - 0 1", "h2", NULL });
    char line[512], own[512];
    cr_expect_eq(shown(s, line, sizeof line), STATUS_INFO, "%s", line);
    cr_expect(strstr(line, "Your pawn on h2: where to?  [play]"), "%s", line);
    session_status(s, own, sizeof own);
    cr_expect(strstr(own, "White to move - your pawn on h2: where to?"), "%s", own);
    session_point(s, sq("h3"), 1000);
    cr_assert(wait_until(s, 1000, black_replied), "%s", log.text);
    expect_state_line(s, "after the engine's reply");
    session_free(s, 2000);
}

// Typed moves, typed squares, pointed squares, a piece that cannot go where
// it is sent or anywhere, a mode change, a promotion by pointing.
Test(session, status_after_each_way_of_moving) {
    SessionOptions o = options();
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    char line[512], own[512];
    run(s, 1000, (const char *const[]){ "play both", "e4", NULL });
    expect_state_line(s, "typed move");
    run(s, 1000, (const char *const[]){ "e7", "e5", NULL });
    expect_state_line(s, "typed squares");
    session_point(s, sq("g1"), 1000);
    cr_expect_eq(shown(s, line, sizeof line), STATUS_INFO, "%s", line);
    session_point(s, sq("f3"), 1000);
    expect_state_line(s, "pointed from and to");

    // A typed square the selected piece cannot reach is the piece's error.
    run(s, 1000, (const char *const[]){ "b8", "b4", NULL });
    cr_expect_eq(shown(s, line, sizeof line), STATUS_ERROR, "%s", line);
    cr_expect(strstr(line, "Your knight on b8 cannot reach b4."), "%s", line);
    cr_expect_not(has(&log, "no pawn"), "%s", log.text);
    // A piece with no move says so and is not selected.
    run(s, 1000, (const char *const[]){ "c8", NULL });
    cr_expect(strstr((shown(s, line, sizeof line), line), "Your bishop on c8 has no move."), "%s",
              line);
    Square selected;
    Bitboard quiet, captures;
    Move premove;
    session_pointing(s, &selected, &quiet, &captures, &premove);
    cr_expect_eq(selected, SQ_NONE);
    session_status(s, own, sizeof own);
    cr_expect_null(strstr(own, "where to"), "%s", own);

    // A mode change drops the selection and its question.
    run(s, 1000, (const char *const[]){ "g8", NULL });
    run(s, 1000, (const char *const[]){ "analyze 1s", NULL });
    shown(s, line, sizeof line);
    cr_expect_null(strstr(line, "where to"), "%s", line);
    run(s, 1000, (const char *const[]){ "stop", "back", NULL });
    cr_expect_eq(session_mode(s), SESSION_PLAY, "%s", log.text);
    shown(s, line, sizeof line);
    cr_expect_null(strstr(line, "where to"), "%s", line);

    // A promotion by pointing asks, then the question goes with the move.
    run(s, 1000,
        (const char *const[]){ "setboard 4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "play both", NULL });
    session_point(s, sq("a7"), 1000);
    session_point(s, sq("a8"), 1000);
    cr_expect(strstr((shown(s, line, sizeof line), line), "Promote to:"), "%s", line);
    session_status(s, own, sizeof own);
    cr_expect(strstr(own, "White to move - promote to: q, r, b or n"), "%s", own);
    run(s, 1000, (const char *const[]){ "q", NULL });
    expect_state_line(s, "promotion chosen");
    cr_expect_eq(board_piece_on(session_display_board(s), sq("a8")), make_piece(WHITE, QUEEN));
    session_free(s, 2000);
}

// A premove played, a premove dropped: the engine's reply retires the
// premove's message.
Test(session, status_after_premoves_played_and_dropped) {
    SessionOptions o = options();
    o.settings.level = 20; // thinks for seconds: the premove waits
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 1000, (const char *const[]){ "e4", "g1", "f3", NULL });
    char line[512];
    cr_expect(strstr((shown(s, line, sizeof line), line), "Premove g1f3: played when"), "%s", line);
    cr_assert(wait_until(s, 1000, engine_idle));
    cr_assert(wait_until(s, 1000, engine_idle)); // the reply to the premove
    cr_expect_eq(game_ply_count(session_game(s)), 4, "%s", log.text);
    expect_state_line(s, "premove played");
    run(s, 1000, (const char *const[]){ "a3", "e1e3", NULL });
    cr_assert(wait_until(s, 1000, engine_idle));
    cr_expect(has(&log, "Premove e1e3 dropped"), "%s", log.text);
    // The drop is news about the state now: said, and the line asks nothing.
    cr_expect(strstr((shown(s, line, sizeof line), line), "Premove e1e3 dropped"), "%s", line);
    run(s, 1000, (const char *const[]){ "eval off", NULL });
    shown(s, line, sizeof line);
    cr_expect_null(strstr(line, "dropped"), "a new line retires it: %s", line);
    session_free(s, 2000);
}

// A flag falls with no move: the line says the result.
Test(session, status_after_a_flag_fall) {
    SessionOptions o = options();
    o.settings.players[BLACK] = PLAYER_HUMAN;
    char err[160];
    cr_assert(timecontrol_parse("0:10+0", &o.settings.tc, err, sizeof err), "%s", err);
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "e4", "e5", NULL });
    run(s, 3000, (const char *const[]){ "g1", NULL }); // a question left open
    session_poll(s, 20000);                            // White's ten seconds are gone
    cr_assert(game_is_over(session_game(s)), "%s", log.text);
    char line[512], own[512];
    shown(s, line, sizeof line);
    cr_expect(strstr(line, "on time"), "%s", line);
    cr_expect_null(strstr(line, "where to"), "%s", line);
    session_status(s, own, sizeof own);
    cr_expect(strstr(own, game_result_text(session_game(s))), "%s", own);
    cr_expect_null(strstr(own, "where to"), "%s", own);
    session_free(s, 21000);
}

// Issue 22 item 7: the player panel names an external engine from the start,
// not patzer until its first move names it in the game.
Test(session, an_external_engine_is_named_from_the_start) {
    const char *stockfish = access("/usr/games/stockfish", X_OK) == 0 ? "/usr/games/stockfish"
                            : access("/usr/bin/stockfish", X_OK) == 0 ? "/usr/bin/stockfish"
                                                                      : NULL;
    if (!stockfish)
        cr_skip_test("stockfish not installed");
    SessionOptions o = options();
    snprintf(o.engine_cmd, sizeof o.engine_cmd, "%s", stockfish);
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    char name[64], detail[64];
    session_player_label(s, BLACK, name, sizeof name, detail, sizeof detail);
    cr_expect(strstr(name, "Stockfish"), "%s (%s)", name, log.text);
    cr_expect_str_eq(detail, "UCI engine");
    session_player_label(s, WHITE, name, sizeof name, detail, sizeof detail);
    cr_expect_str_eq(name, "You");
    session_free(s, 2000);
}

// train with games in the archive and no puzzle due: until the search finds
// the first puzzle, hint and solution say that it is coming, as the man page
// says. The archive holds a whole game of the player's (Karpov - Kasparov
// 1985, 80 plies): its search lasts long past the commands. With games that
// are no one's, the search ended at once, and on a loaded machine before the
// hint (the session polls after each line).
Test(session, a_hint_before_the_first_puzzle_says_it_is_coming) {
    char empty[400];
    snprintf(empty, sizeof empty, "%s/empty.txt", dir);
    FILE *f = fopen(empty, "w");
    cr_assert_not_null(f);
    fclose(f);
    cr_assert_eq(setenv("PATZER_PUZZLES", empty, 1), 0); // no shipped puzzle
    cr_assert_eq(setenv("XDG_DATA_HOME", dir, 1), 0);    // a puzzle book of its own
    char game[400];
    test_data_path("coach/karpov_kasparov_1985.pgn", game, sizeof game);
    char copy[1000];
    snprintf(copy, sizeof copy, "cp '%s' '%s'", game, archive);
    cr_assert_eq(system(copy), 0, "%s", copy);
    SessionOptions o = options();
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "train", "hint", "solution", NULL });
    cr_expect(!has(&log, "Searched "), "the search was still going: %s", log.text);
    cr_expect(has(&log, "Looking for puzzles in your games"), "%s", log.text);
    cr_expect(has(&log, "No puzzle yet: the first one is shown as soon as the search finds it "
                        "(Looking for puzzles: "),
              "%s", log.text);
    cr_expect(!has(&log, "No puzzle to give a hint for"), "%s", log.text);
    cr_expect(!has(&log, "No puzzle shown"), "%s", log.text);
    session_free(s, 3000);
}

static bool session_idle_now(const Session *s) {
    return !session_busy(s);
}

// train's panel named both sides "You": the side to move is you, the other
// side the opponent (the puzzle's game names no one).
Test(session, train_names_you_and_the_opponent) {
    // The source tree's book, wherever the build is (make distcheck builds elsewhere).
    cr_assert_eq(setenv("PATZER_PUZZLES", TEST_PUZZLES, 1), 0);
    SessionOptions o = options();
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "train", NULL });
    cr_assert_eq(session_mode(s), SESSION_TRAIN, "%s", log.text);
    cr_assert(wait_until(s, 2000, session_idle_now), "a puzzle is shown: %s", log.text);
    Color you = game_turn(session_game(s));
    char name[64], detail[64];
    session_player_label(s, you, name, sizeof name, detail, sizeof detail);
    cr_expect_str_eq(name, "You");
    session_player_label(s, you == WHITE ? BLACK : WHITE, name, sizeof name, detail, sizeof detail);
    cr_expect_str_eq(name, "Opponent");
    cr_expect_str_eq(detail, "");
    session_free(s, 3000);
}

// After new, the last analysis of a position reached again (the start)
// still showed as "Analysis: final" in the game against the engine, where
// the evaluation is otherwise hidden: it belonged to the game replaced.
Test(session, a_new_game_does_not_show_the_last_game_s_analysis) {
    SessionOptions o = options();
    Log log = { 0 };
    Session *s = open_session(&o, &log);
    run(s, 2000, (const char *const[]){ "analyze depth 2", NULL });
    cr_assert(wait_until(s, 2000, session_idle_now), "the analysis ends: %s", log.text);
    cr_assert_eq(session_mode(s), SESSION_PLAY, "%s", log.text);
    cr_assert(session_thinking(s)->final, "its final lines stay on the position analysed");
    run(s, 3000, (const char *const[]){ "new", NULL });
    cr_expect_not(session_thinking(s)->final, "a new game: not its analysis");
    cr_expect_not(session_eval_shown(s), "the evaluation is hidden against the engine");
    session_free(s, 4000);
}
