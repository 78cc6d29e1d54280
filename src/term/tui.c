// SPDX-License-Identifier: GPL-3.0-or-later
// The terminal game: the main loop sleeps in poll() on the keyboard and the
// engine's event pipe, feeds keys to the command bar and lines to the session,
// and redraws the screen from the session's state.
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "src/term/frontend.h"
#include "src/util/text.h"
#include "src/term/notes.h"
#include "src/term/pointer.h"
#include "src/util/paths.h"
#include "ui/cmdbar.h"
#include "ui/pager.h"
#include "ui/screen.h"
#include "ui/themes.h"
#include "ui/view.h"

enum {
    TICK_MS = 100,        // redraw period while a clock runs
    FAST_TICK_MS = 50,    // when a running clock shows tenths
    COMPLETION_MAX = 320,
    KEY_CTRL_L = 12,
    KEY_ESC = 27,
    LOW_TIME_MS = 20000,  // a clock under this (or a tenth of its base time) is low
    KEY_HELP = 1,         // F1: ui_screen_function_key's numbers
    KEY_MESSAGES = 2,     // F2
};

// The first screen's note on the status line (fits 80 columns with the status).
#define WELCOME "Type a move (e4) or help; F1 help, F2 messages"

typedef struct Tui {
    Session *session;
    bool dirty;
    bool eof;
    bool welcome;       // no line entered yet: the status line says how to get help
    UiPager pager;      // help, texts and the message log over the whole screen
    bool pager_list;    // the pager shows the game list or the explorer: a click acts on a row
    bool pager_typing;  // `:` in the pager: every key goes to the command bar, q too
    bool holding;       // the session holds the game while the board is covered
    bool paused;        // and a game of yours is paused for it (the footer says so)
    char pager_find[128]; // the last text searched for in the pager (/TEXT)
    char list_hint[256]; // the game list's last row: how to open a game
    char *start_text;   // a text said while the session started (--pgn's list), kept
                        // to be shown again once the session can be asked (owned)
    const char *dump_path; // PATZER_SCREEN_DUMP: written after every redraw (tests)
    char conf_path[PATH_MAX_LEN]; // patzer.conf, where theme, pieces and bell are kept
    bool bell;
    bool low[COLOR_NB]; // each clock's low-time state at the last redraw
    int plies;          // plies of the game at the last redraw
    Pointer pointer;    // mouse and keyboard cursor on the board
    Notes notes;        // the move tree and the comment pane
} Tui;

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig) { stop_signal = sig; }

// Ctrl-Z: the loop stops the program itself (suspend), after pausing the game.
static volatile sig_atomic_t suspend_signal;

static void on_suspend_signal(int sig) {
    (void)sig;
    suspend_signal = 1;
}

// A crash must not leave the terminal in raw mode: restore it, then die as
// the signal intended.
static void on_fatal_signal(int sig) {
    ui_screen_close();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signals(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = on_suspend_signal;
    sigaction(SIGTSTP, &sa, NULL);
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

// Ctrl-Z: the board is out of sight until fg, as under a pager, so a game of
// yours is paused first (its clock would otherwise run while you are in the
// shell); then the terminal is given back and the program stops for real.
static void suspend(Tui *t) {
    suspend_signal = 0;
    bool held = !t->holding && session_hold(t->session, true, frontend_now_ms());
    ui_screen_suspend();
    struct sigaction dfl, mine;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGTSTP, &dfl, &mine);
    raise(SIGTSTP); // returns on SIGCONT (fg)
    sigaction(SIGTSTP, &mine, NULL);
    ui_screen_resume();
    if (held)
        session_hold(t->session, false, frontend_now_ms());
    t->dirty = true;
}

// A row of the game list: the session's rows, then the hint.
static void list_row(void *ctx, int i, int width, char *buf, size_t bufsz) {
    Tui *t = ctx;
    if (i < session_game_list_count(t->session))
        session_game_list_row(t->session, i, width, buf, bufsz);
    else
        snprintf(buf, bufsz, "%s", t->list_hint);
}

// The game list in the pager: its rows made as they are shown, so a list
// of any length opens and scrolls at once.
static void open_game_list(Tui *t, const char *text) {
    char first[UI_STATUS_MAX], title[UI_PAGER_TITLE_MAX];
    const char *nl = strchr(text, '\n');
    size_t n = nl ? (size_t)(nl - text) : strlen(text);
    snprintf(first, sizeof first, "%.*s", (int)(n < sizeof first ? n : sizeof first - 1), text);
    ui_text_copy(title, sizeof title, first); // a long one is cut between characters
    snprintf(t->list_hint, sizeof t->list_hint, "%s", nl ? nl + 1 : "");
    ui_pager_open_rows(&t->pager, title, session_game_list_count(t->session) + (nl != NULL),
                       list_row, t);
    t->pager_list = true;
    t->dirty = true;
}

// Long texts are read in the pager: help, a text whose first line is its
// title, the message log at its newest end.
static void open_pager(Tui *t, MessageKind kind, const char *text) {
    if (kind == MSG_TEXT && !t->session) {
        // The session is being made: it cannot say yet whether this is its
        // game list. Kept, and shown once it can (tui_run).
        free(t->start_text);
        t->start_text = strdup(text);
        return;
    }
    if (kind == MSG_TEXT && session_is_game_list(t->session, text)) {
        open_game_list(t, text);
        return;
    }
    const char *orig = text;
    char title[UI_PAGER_TITLE_MAX] = "Help";
    if (kind == MSG_LOG)
        snprintf(title, sizeof title, "Messages, newest last");
    const char *nl = strchr(text, '\n');
    if (kind == MSG_TEXT && nl) {
        char first[UI_STATUS_MAX];
        size_t n = (size_t)(nl - text) < sizeof first ? (size_t)(nl - text) : sizeof first - 1;
        memcpy(first, text, n);
        first[n] = '\0';
        ui_text_copy(title, sizeof title, first); // a long one is cut between characters
        for (text = nl; *text == '\n'; text++)
            ;
    }
    t->pager_list = kind == MSG_TEXT && session_is_explorer(t->session, orig);
    if (!ui_pager_open(&t->pager, title, text, kind == MSG_LOG))
        session_message(t->session, MSG_ERROR, "out of memory opening the pager");
    t->dirty = true;
}

static void on_message(MessageKind kind, const char *text, void *ctx) {
    Tui *t = ctx;
    if (kind == MSG_ANALYSIS) {
        t->dirty = true; // the analysis pane shows the thinking as it goes
        return;
    }
    if (kind == MSG_ASIDE) {
        // Not asked for: it is the comment the pane shows, opened there so
        // that the board stays in view and the next command reaches the bar.
        if (!notes_set_aside(&t->notes, text))
            open_pager(t, MSG_TEXT, text); // no room to keep it: read it the old way
        t->dirty = true;
        return;
    }
    if (kind == MSG_HELP || kind == MSG_TEXT || kind == MSG_LOG) {
        open_pager(t, kind, text);
        return;
    }
    // The session keeps the message and says how long it holds the status
    // line (session_status_line).
    t->welcome = false;
    t->dirty = true;
}

// Keeps a board-view setting in patzer.conf and says so, then the note.
static void keep_setting(Tui *t, const char *key, const char *value, const char *what,
                         const char *note) {
    char err[512], msg[1024];
    if (!t->conf_path[0]) {
        snprintf(msg, sizeof msg, "%s (not kept: no configuration directory)%s", what, note);
        session_message(t->session, MSG_INFO, msg);
    } else if (!config_write_key(t->conf_path, key, value, err, sizeof err)) {
        snprintf(msg, sizeof msg, "%s, but not kept: %.400s", what, err);
        session_message(t->session, MSG_ERROR, msg);
    } else {
        snprintf(msg, sizeof msg, "%s (kept in patzer.conf)%s", what, note);
        session_message(t->session, MSG_INFO, msg);
    }
}

// What a theme or piece set chosen now changes in this look: without
// colour a theme shows nothing until a colour screen, and the shapes of
// the pieces are the look's (letters in ASCII; White outline and Black
// solid in monochrome, so the sides differ).
static const char *look_note(bool theme) {
    if (theme)
        return ui_screen_color() ? "" : "; no colours on this screen";
    if (ui_pieces_current() == UI_PIECES_LETTERS)
        return "";
    if (!ui_screen_unicode())
        return "; the ASCII board shows letters";
    return ui_screen_color() ? "" : "; mono: White outline, Black solid";
}

// theme, pieces and bell from the command line: list or choose, apply at
// once, keep the choice.
static void on_display(const char *command, const char *arg, void *ctx) {
    Tui *t = ctx;
    char list[UI_THEME_LIST_MAX], msg[1024];
    bool theme = !strcmp(command, "theme"), pieces = !strcmp(command, "pieces");
    if (theme || pieces) {
        if (theme)
            ui_theme_list(list, sizeof list);
        else
            ui_pieces_list(list, sizeof list);
        if (!*arg) {
            snprintf(msg, sizeof msg, "%s: %s (%s NAME to choose)", theme ? "Themes" : "Piece sets",
                     list, command);
            session_message(t->session, MSG_INFO, msg);
            return;
        }
        if (theme ? !ui_theme_select(arg) : !ui_pieces_select(arg)) {
            snprintf(msg, sizeof msg, "No %s '%.40s'; there are: %s", theme ? "theme" : "piece set",
                     arg, list);
            session_message(t->session, MSG_ERROR, msg);
            return;
        }
        if (theme)
            (void)ui_screen_apply_theme(); // a refused colour pair leaves the old look
        const char *name = theme ? ui_theme_current() : ui_pieces_name(ui_pieces_current());
        snprintf(msg, sizeof msg, "%s %s", theme ? "Theme" : "Pieces", name);
        keep_setting(t, command, name, msg, look_note(theme));
        t->dirty = true;
        return;
    }
    if (!*arg) {
        session_message(t->session, MSG_INFO,
                        t->bell ? "The bell is on (bell off to silence it)"
                                : "The bell is off (bell on to ring on moves and low time)");
        return;
    }
    if (strcasecmp(arg, "on") && strcasecmp(arg, "off")) {
        snprintf(msg, sizeof msg, "bell takes on or off, not '%.40s'", arg);
        session_message(t->session, MSG_ERROR, msg);
        return;
    }
    t->bell = !strcasecmp(arg, "on");
    keep_setting(t, "bell", t->bell ? "on" : "off", t->bell ? "Bell on" : "Bell off", "");
}

// The board view's settings from patzer.conf; problems go to the status line.
static void apply_look(Tui *t, const Config *cfg, char *note, size_t notesz) {
    char err[256];
    note[0] = '\0';
    t->bell = cfg->bell;
    for (int i = 0; i < cfg->user_theme_count; i++)
        if (!ui_theme_add(&cfg->user_themes[i], err, sizeof err))
            snprintf(note, notesz, "patzer.conf: %s", err);
    if (cfg->theme[0] && !ui_theme_select(cfg->theme))
        snprintf(note, notesz, "patzer.conf: no theme '%s' (see the theme command)", cfg->theme);
    if (cfg->pieces[0])
        ui_pieces_select(cfg->pieces); // checked when the file was read
    (void)ui_screen_apply_theme();      // when the screen is open already
    if (!paths_config_file("patzer.conf", t->conf_path, sizeof t->conf_path, true))
        t->conf_path[0] = '\0';
}

static void on_changed(void *ctx) {
    Tui *t = ctx;
    t->dirty = true;
}

static void on_line(const char *line, void *ctx) {
    Tui *t = ctx;
    if (!line) {
        t->eof = true;
        return;
    }
    t->dirty = true;
    t->pager_typing = false;
    if (ui_pager_is_open(&t->pager)) {
        if (line[0] == '/') { // a search in the pager, as in less; "/" alone repeats it
            if (line[1])
                snprintf(t->pager_find, sizeof t->pager_find, "%s", line + 1);
            if (!ui_pager_find(&t->pager, t->pager_find))
                ui_cmdbar_message("Not found (Enter goes on)");
            return;
        }
        // A command typed over the pager: it answers on the screen under it.
        ui_pager_close(&t->pager);
        ui_screen_resize();
    }
    t->welcome = false;
    notes_clear_aside(&t->notes); // the pane shows the position's comments again
    session_handle_line(t->session, line, frontend_now_ms());
}

static int completion_words(const char **words, int max, void *ctx) {
    Tui *t = ctx;
    return session_completion_words(t->session, words, max);
}

// Under 20 seconds, or a tenth of the period's base time when that is less
// (a one-minute game warns at six seconds).
static bool low_time(const Clock *c, Color side, int64_t now) {
    if (c->tc.untimed || c->flagged[side])
        return false;
    int64_t base = c->tc.periods[c->period[side]].base_ms;
    int64_t mark = base / 10 < LOW_TIME_MS ? base / 10 : LOW_TIME_MS;
    return clock_remaining(c, side, now) < mark;
}

// The bell rings on the engine's move, and when a human's clock turns low.
static void ring_bell(Tui *t, const Game *g, int64_t now) {
    int plies = game_ply_count(g);
    Color mover = game_turn(g) == WHITE ? BLACK : WHITE;
    // One or two new plies (the human's move and the reply may come between
    // two redraws); more is a resumed or loaded game, which does not ring.
    bool ring = plies > t->plies && plies - t->plies <= 2 && game_player(g, mover) == PLAYER_ENGINE;
    t->plies = plies;
    for (Color c = WHITE; c <= BLACK; c++) {
        bool low = low_time(game_clock(g), c, now) && !game_is_over(g);
        ring |= low && !t->low[c] && game_player(g, c) == PLAYER_HUMAN;
        t->low[c] = low;
    }
    if (ring && t->bell)
        ui_screen_bell();
}

static void draw(Tui *t, int64_t now) {
    Session *s = t->session;
    const Game *g = session_game(s);
    UiView v;
    memset(&v, 0, sizeof v);
    v.board = session_display_board(s);
    v.flipped = session_flipped(s);
    v.last_move = board_last_move(v.board);
    v.hint = session_hint(s);
    const Clock *clock = game_clock(g);
    for (Color c = WHITE; c <= BLACK; c++) {
        UiPlayerView *p = &v.players[c];
        session_player_label(s, c, p->name, sizeof p->name, p->detail, sizeof p->detail);
        p->has_clock = !clock->tc.untimed;
        p->clock_ms = clock_remaining(clock, c, now);
        p->running = clock->running && clock->turn == c && !game_is_over(g);
        p->flagged = clock->flagged[c];
        p->low_time = low_time(clock, c, now);
    }
    session_move_list(s, &v.sans, &v.ply_count, &v.current_ply);
    v.variations = session_move_variations(s);
    session_move_list_start(s, &v.start_fullmove, &v.start_side);
    const SessionThinking *th = session_thinking(s);
    v.thinking.shown = th->shown;
    v.thinking.active = th->active;
    v.thinking.depth = th->depth;
    v.thinking.seldepth = th->seldepth;
    v.thinking.score_white = th->score_white;
    v.thinking.mate_white = th->mate_white;
    v.thinking.nodes = th->nodes;
    v.thinking.nps = th->nps;
    v.thinking.analysing = th->analysing;
    v.thinking.final = th->final;
    v.thinking.line_count = th->line_count < UI_MAX_LINES ? th->line_count : UI_MAX_LINES;
    for (int i = 0; i < v.thinking.line_count; i++) {
        v.thinking.lines[i].depth = th->lines[i].depth;
        v.thinking.lines[i].score_white = th->lines[i].score_white;
        v.thinking.lines[i].mate_white = th->lines[i].mate_white;
        ui_text_copy(v.thinking.lines[i].pv_san, sizeof v.thinking.lines[i].pv_san,
                     th->lines[i].pv_san);
    }
    ui_text_copy(v.thinking.pv_san, sizeof v.thinking.pv_san, th->pv_san);
    pointer_view(&t->pointer, s, &v);
    const char *opening = session_opening(s);
    ui_text_copy(v.opening, sizeof v.opening, opening ? opening : ""); // "Réti"
    bool cut;
    SessionStatusKind status = session_status_line(s, v.status, sizeof v.status, &cut);
    if (status != STATUS_STATE) {
        v.status_is_error = status == STATUS_ERROR;
        v.status_cut = cut;
        v.status_more = "F2: more"; // the message log ends with the whole message
    } else {
        if (t->welcome) {
            size_t n = strlen(v.status);
            snprintf(v.status + n, sizeof v.status - n, "   %s", WELCOME);
        }
    }
    if (game_is_over(g) && v.current_ply == v.ply_count) {
        ui_text_copy(v.result, sizeof v.result, game_result_text(g));
        ui_text_copy(v.reason, sizeof v.reason, game_end_text(g));
    }
    ring_bell(t, session_live_game(s), now);
    session_graph(s, &v.graph, &v.graph_count);
    notes_view(&t->notes, s, &v);
    int done, total;
    if (session_review_progress(s, &done, &total) && status != STATUS_ERROR)
        session_status(s, v.status, sizeof v.status); // the review's progress
    v.paused = t->paused;
    if (ui_pager_is_open(&t->pager)) {
        // Over everything; the command bar too, unless something is typed.
        bool typing = t->pager_typing || !ui_cmdbar_is_empty();
        ui_pager_leave_bar(&t->pager, typing);
        ui_pager_set_note(&t->pager, t->paused ? "game paused" : "");
        ui_pager_draw(&t->pager);
        if (typing)
            ui_cmdbar_redraw();
    } else {
        ui_view_draw(&v);
        ui_cmdbar_redraw();
    }
    ui_screen_update();
    if (t->dump_path)
        ui_screen_dump(t->dump_path);
}

// Closes the pager and runs what a click on one of its rows asked for.
static void run_pager_command(Tui *t, const char *command) {
    ui_pager_close(&t->pager);
    ui_screen_resize(); // everything under it is drawn again
    session_handle_line(t->session, command, frontend_now_ms());
}

// A click on a game's line of the game list (games) in the pager opens that
// game, one on a row of the explorer plays its move; anywhere else it does
// nothing.
static void pager_click(Tui *t) {
    int y, x;
    ui_screen_mouse_cell(&y, &x);
    const UiPager *p = &t->pager;
    int at = ui_pager_screen_row_at(p, y);
    const UiPagerLine *row = ui_pager_line(p, at);
    char command[32];
    if (t->pager_list && ui_pager_is_rows(p)) {
        int number = session_game_list_number(t->session, at);
        if (number <= 0)
            return; // the hint, or below the rows
        snprintf(command, sizeof command, "game %d", number);
        run_pager_command(t, command);
        return;
    }
    if (!t->pager_list || !row)
        return;
    // The whole line the row is part of (a long one wraps onto several).
    const char *text = ui_pager_text(p);
    size_t start = row->off, end = row->off;
    while (start > 0 && text[start - 1] != '\n')
        start--;
    end += strcspn(text + end, "\n");
    char line[512];
    if (end - start >= sizeof line)
        return; // longer than any line of the list
    memcpy(line, text + start, end - start);
    line[end - start] = '\0';
    if (!session_explorer_move(t->session, line, command, sizeof command))
        return; // a row of the explorer plays its move
    run_pager_command(t, command);
}

// A key the pager keeps for itself while nothing is typed: scrolling, and
// q, space and Enter as in less. Every other key is a command's.
static bool pager_own_key(int key) {
    switch (key) {
    case 'q': case 'Q': case ' ': case '\n': case '\r': case KEY_ESC:
        return true;
    default:
        // the arrows, page keys, Home and End and the wheel: keys no command begins with
        return key > 0xFF || key < 0;
    }
}

// Keys that scroll the pager even while a command is typed under it: the
// bar has no use for Up, Down, the page keys or the wheel.
static bool scroll_key(int key) {
    int dx, dy;
    UiNav nav = ui_screen_nav_key(key);
    return (ui_screen_arrow(key, &dx, &dy) && dy) || nav == UI_NAV_INTO || nav == UI_NAV_OUT ||
           key == UI_KEY_WHEEL_UP || key == UI_KEY_WHEEL_DOWN;
}

// F1 and F2 open help and the message log (also over each other). While the
// pager is open it keeps its own keys (pager_own_key); any other key goes
// to the command bar, shown under the pager: typing `game 3` over the game
// list opens game 3, `:` lets q start a command too, `/TEXT` finds a text.
static bool pager_key(Tui *t, int key) {
    int f = ui_screen_function_key(key);
    if (f == KEY_HELP || f == KEY_MESSAGES) {
        if (session_asking(t->session))
            return true; // the next line answers the question: not a command
        session_handle_line(t->session, f == KEY_HELP ? "help" : "messages", frontend_now_ms());
        t->dirty = true;
        return true;
    }
    if (!ui_pager_is_open(&t->pager))
        return false;
    t->dirty = true;
    bool typing = t->pager_typing || !ui_cmdbar_is_empty();
    if (key == UI_KEY_RESIZE || key == KEY_CTRL_L) {
        ui_screen_resize(); // the pager wraps again for the new width
    } else if (key == UI_KEY_PRESS) {
        pager_click(t); // a game of a list opens
    } else if (!typing && key == ':') {
        t->pager_typing = true; // the bar opens, empty
    } else if (key == KEY_ESC || scroll_key(key) || (!typing && pager_own_key(key))) {
        t->pager_typing = false;
        if (ui_pager_key(&t->pager, key) == UI_PAGER_CLOSED)
            ui_screen_resize(); // everything under it is drawn again
    } else {
        ui_cmdbar_feed(key);
    }
    return true;
}

// On an empty command line, the arrow and page keys and the wheel step
// through a game. In your own game (no variations; the arrows move the board
// cursor) the page keys and the wheel look back and forth.
static const char *navigation_command(const Session *s, int key) {
    static const char *const commands[] = {
        [UI_NAV_PREV] = "prev", [UI_NAV_NEXT] = "next", [UI_NAV_FIRST] = "first",
        [UI_NAV_LAST] = "last", [UI_NAV_INTO] = "var 1", [UI_NAV_OUT] = "up",
    };
    SessionMode mode = session_mode(s);
    bool steps = mode == SESSION_PLAY || mode == SESSION_BROWSE || mode == SESSION_ANALYSE;
    if (key == UI_KEY_WHEEL_UP || key == UI_KEY_WHEEL_DOWN)
        return !steps ? NULL : key == UI_KEY_WHEEL_UP ? "prev" : "next";
    UiNav nav = ui_screen_nav_key(key);
    if (mode == SESSION_PLAY && (nav == UI_NAV_INTO || nav == UI_NAV_OUT))
        return nav == UI_NAV_OUT ? "prev" : "next";
    return nav == UI_NAV_NONE ? NULL : commands[nav];
}

// Whether a clock on the screen is ticking (the screen changes by itself).
static bool clock_shown_running(const Session *s) {
    const Game *g = session_game(s);
    return game_clock(g)->running && !game_is_over(g);
}

// Sleep time until the next redraw is due for the clocks.
static int tick_ms(const Session *s, int64_t now) {
    const Game *g = session_game(s);
    const Clock *c = game_clock(g);
    int wake = session_wakeup_ms(s, now);
    int tick = 1000;
    if (c->running && !game_is_over(g))
        tick = clock_remaining(c, c->turn, now) < 10000 ? FAST_TICK_MS : TICK_MS;
    return wake >= 0 && wake < tick ? wake : tick;
}

int tui_run(const Config *cfg, char *why, size_t whysz) {
    Tui t;
    memset(&t, 0, sizeof t);
    pointer_init(&t.pointer);
    t.dump_path = getenv("PATZER_SCREEN_DUMP");
    // The look first, so the screen opens in the chosen theme.
    char look_note[512];
    apply_look(&t, cfg, look_note, sizeof look_note);
    // The screen first: a terminal that cannot show it gets the line mode.
    UiOptions uo = {.ascii = cfg->ascii, .no_color = cfg->no_color};
    if (!ui_screen_open(&uo, why, whysz))
        return TUI_NO_SCREEN;
    atexit(ui_screen_close);
    SessionHooks hooks = {on_message, on_changed, on_display, &t};
    char err[512];
    SessionOptions opts = cfg->session;
    opts.confirm_replace = true; // a screen asks before a file's games are replaced
    t.session = session_new(&opts, &hooks, frontend_now_ms(), err, sizeof err);
    if (!t.session) {
        free(t.start_text);
        ui_screen_close();
        fprintf(stderr, "patzer: %s\n", err);
        return 1;
    }
    if (t.start_text) { // --pgn's list, now that the session can be asked
        open_pager(&t, MSG_TEXT, t.start_text);
        free(t.start_text);
        t.start_text = NULL;
    }
    install_signals();
    char history[PATH_MAX_LEN];
    const char *history_path =
        paths_state_file("history", history, sizeof history, true) ? history : NULL;
    static const char *const file_commands[] = {"save", "load", "train", NULL};
    if (!ui_cmdbar_open("> ", history_path, on_line, completion_words, file_commands, &t)) {
        ui_screen_close();
        fprintf(stderr, "patzer: cannot start the command bar\n");
        session_free(t.session, frontend_now_ms());
        return 1;
    }

    if (look_note[0])
        session_message(t.session, MSG_ERROR, look_note);
    // The first screen says how to get help, until the first line or message.
    bool cut;
    char first[UI_STATUS_MAX];
    t.welcome = session_status_line(t.session, first, sizeof first, &cut) == STATUS_STATE;
    t.plies = game_ply_count(session_live_game(t.session)); // a resumed game does not ring
    t.dirty = true;
    while (!(stop_signal && stop_signal != SIGINT) && !t.eof &&
           !session_quit_requested(t.session)) {
        if (suspend_signal)
            suspend(&t);
        // Ctrl-C is quit, typed: it left at once and lost the changes to a
        // game of a file that quit warns about once.
        if (stop_signal == SIGINT) {
            stop_signal = 0;
            on_line("quit", &t);
            if (session_quit_requested(t.session))
                break;
        }
        int64_t now = frontend_now_ms();
        // A pager over the board, or a terminal too small for it, holds a
        // game of yours: its clock does not run where you cannot see it (man
        // page, "Pagers").
        bool covered = ui_pager_is_open(&t.pager) || ui_screen_too_small(NULL, NULL);
        if (covered != t.holding) {
            t.holding = !t.holding;
            t.paused = session_hold(t.session, t.holding, now) && t.holding;
            t.dirty = true;
        }
        session_poll(t.session, now);
        // Drawn only when something may have changed: a key, an engine
        // event, a running clock, a timer of the session; an idle screen
        // with no clock running is left alone.
        if (t.dirty)
            draw(&t, now);
        t.dirty = false;

        struct pollfd fds[2] = {{.fd = STDIN_FILENO, .events = POLLIN},
                                {.fd = session_event_fd(t.session), .events = POLLIN}};
        int ready = poll(fds, 2, tick_ms(t.session, now));
        if (ready < 0 && errno != EINTR)
            break;
        if (ready != 0 || clock_shown_running(t.session) || session_busy(t.session) ||
            session_wakeup_ms(t.session, frontend_now_ms()) >= 0)
            t.dirty = true;
        // After EINTR (a resize) or input, read every waiting key.
        for (int key; (key = ui_screen_getch()) != UI_KEY_NONE;) {
            if (pager_key(&t, key))
                continue;
            NotesClick click =
                key == UI_KEY_PRESS ? notes_click(&t.notes, t.session, frontend_now_ms()) : NOTES_OFF;
            if (click != NOTES_OFF) {
                t.dirty = true;
                continue;
            }
            if (notes_key(&t.notes, t.session, key, ui_cmdbar_is_empty())) {
                t.dirty = true;
                continue;
            }
            if (pointer_key(&t.pointer, t.session, key, ui_cmdbar_is_empty(),
                            frontend_now_ms())) {
                t.dirty = true;
                continue;
            }
            // Keys step through a game, but never answer the resume question.
            const char *step = ui_cmdbar_is_empty() && !session_asking(t.session)
                                   ? navigation_command(t.session, key) : NULL;
            if (step) {
                notes_clear_aside(&t.notes);
                session_handle_line(t.session, step, frontend_now_ms());
            } else if (key == UI_KEY_RESIZE) {
                ui_screen_resize();
            } else if (key == KEY_CTRL_L) {
                ui_screen_resize();
            } else {
                ui_cmdbar_feed(key);
            }
            if (t.eof || session_quit_requested(t.session))
                break;
        }
    }
    ui_pager_close(&t.pager);
    ui_cmdbar_close();
    ui_screen_close();
    notes_free(&t.notes);
    // The last writes, after the screen is gone: a failure must be read on
    // the terminal the player returns to (the status line went with it).
    int status = 0;
    if (stop_signal && stop_signal != SIGINT)
        status = frontend_recover_unsaved(t.session);
    if (!session_save_all(t.session, frontend_now_ms())) {
        fprintf(stderr, "patzer: the game could not be saved: %s\n",
                session_last_failure(t.session));
        status = FRONTEND_NOT_SAVED;
    }
    session_free(t.session, frontend_now_ms());
    if (stop_signal && stop_signal != SIGINT) {
        signal(stop_signal, SIG_DFL);
        raise(stop_signal);
    }
    return status;
}
