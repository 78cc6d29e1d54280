// SPDX-License-Identifier: GPL-3.0-or-later
// The headless screen the ui/ suites draw into: a board, a virtual terminal
// dumped as text, and views of a start position and of a game in progress.
// Header-only; each suite declares its TestSuite with ui_fixture_setup and
// ui_fixture_teardown.
#ifndef TESTS_UI_FIXTURE_H
#define TESTS_UI_FIXTURE_H

#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curses.h>

#include "tests/screen_dump.h"
#include "engine/fen.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "ui/boardview.h"
#include "ui/cmdbar.h"
#include "ui/layout.h"
#include "ui/panel.h"
#include "ui/screen.h"
#include "ui/themes.h"
#include "ui/view.h"

enum { DUMP_MAX = 1 << 16 };

// Boards are large (the undo stack), so they live outside the stack.
static Board board;
static char dump_text[DUMP_MAX];

static inline void ui_fixture_setup(void) {
    board_init_tables();
    // The tests pick the look through the options, not the environment.
    unsetenv("NO_COLOR");
    cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"), "the C.UTF-8 locale is needed");
}

static inline void ui_fixture_teardown(void) {
    ui_cmdbar_close();
    ui_screen_close();
}


static inline void open_screen(int cols, int lines, bool ascii, bool no_color) {
    UiOptions o = { .ascii = ascii,
                    .no_color = no_color,
                    .headless = true,
                    .headless_cols = cols,
                    .headless_lines = lines };
    char err[256] = "";
    cr_assert(ui_screen_open(&o, err, sizeof err), "open failed: %s", err);
    cr_assert(ui_screen_is_open());
}

// Dumps the screen and returns its text.
static inline const char *dump(void) { return test_screen_dump(dump_text, sizeof dump_text); }

static inline void assert_shows(const char *text, const char *what) {
    cr_assert_not_null(strstr(text, what), "screen lacks \"%s\":\n%s", what, text);
}

static inline void play(const char *const *sans, int n) {
    board_set_start(&board);
    for (int i = 0; i < n; i++) {
        char err[160];
        Move m;
        cr_assert_eq(notation_parse_move(&board, sans[i], &m, err, sizeof err), NOTATION_OK, "%s",
                     err);
        board_play(&board, m);
    }
}

static inline void base_view(UiView *v) {
    memset(v, 0, sizeof *v);
    v->board = &board;
    v->last_move = board_last_move(&board);
    v->hint = MOVE_NONE;
    snprintf(v->players[WHITE].name, UI_NAME_MAX, "You");
    snprintf(v->players[WHITE].detail, UI_NAME_MAX, "human");
    snprintf(v->players[BLACK].name, UI_NAME_MAX, "patzer");
    snprintf(v->players[BLACK].detail, UI_NAME_MAX, "level 10 (~1500)");
    v->start_fullmove = 1;
    v->start_side = WHITE;
    snprintf(v->status, UI_STATUS_MAX, "White to move");
}

static const char *const opening_sans[] = { "e4", "e5", "Nf3" };

// The position after 1.e4 e5 2.Nf3 with clocks and engine output.
static inline void game_view(UiView *v) {
    play(opening_sans, 3);
    base_view(v);
    v->sans = opening_sans;
    v->ply_count = v->current_ply = 3;
    for (Color c = WHITE; c <= BLACK; c++)
        v->players[c].has_clock = true;
    v->players[WHITE].clock_ms = 300000;
    v->players[BLACK].clock_ms = 7300;
    v->players[BLACK].running = true;
    v->thinking = (UiThinking){ .shown = true,
                                .active = true,
                                .depth = 12,
                                .seldepth = 18,
                                .score_white = 35,
                                .nodes = 1234567,
                                .nps = 850000 };
    snprintf(v->thinking.pv_san, UI_PV_MAX, "2... Nc6 3. Bb5 a6");
    snprintf(v->opening, sizeof v->opening, "C40 King's Knight Opening");
    snprintf(v->status, UI_STATUS_MAX, "Black to move");
}

#endif
