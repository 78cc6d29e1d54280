// SPDX-License-Identifier: GPL-3.0-or-later
// Curses set-up and teardown, the window layout (board, side panel, status
// line, command bar) chosen from the terminal size, key input and the text
// dump of the screen that the end-to-end tests read.
#include "ui/screen.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include "engine/errmsg.h"
#include "ui/draw.h"
#include "ui/layout.h"
#include "ui/theme.h"

// Layout sizes, in cells.
enum {
    RANK_LABEL_W = 2, // "8 " left of the board
    FILE_LABEL_H = 1, // the row of file letters under the board
    SIDE_GAP = 2,     // columns between the board and a panel to its right
    BELOW_GAP = 1,    // rows between the board and a panel under it
    PANEL_MIN_W = 32,
    PANEL_MAX_W = 60,       // wider panels only spread the text out
    PANEL_MIN_H = 18,       // a panel beside the board
    PANEL_BELOW_MIN_H = 14, // a panel under the board (it is wider)
    BOTTOM_ROWS = 2,        // the status line and the command bar
    ESC_DELAY_MS = 25,      // wait for the rest of an escape sequence
    ESC_KEY = 27,
    SEQ_MAX = 16,           // bytes of an escape sequence we recognise
    DUMP_LINE_MAX = 4096,   // bytes of one dumped row
};

// Square sizes from small to big (columns x rows); about square on screen
// from the second one up, since a cell is roughly twice as tall as wide.
static const struct {
    int w, h;
} scales[] = { { 3, 1 }, { 4, 2 }, { 5, 2 }, { 7, 3 }, { 9, 4 }, { 11, 5 } };
enum { SCALE_NB = sizeof scales / sizeof scales[0] };

static const char *const headless_terms[] = { "xterm-256color", "xterm", "ansi", "vt100" };

static bool is_open;
static bool headless;
static int mouse_y = -1, mouse_x = -1; // the cell of the last mouse event
// Mouse events read but not yet returned, oldest first. With click
// resolution off, curses gathers the reports already waiting (a press and
// its release, on a slow machine) behind one KEY_MOUSE, and getmouse gives
// them newest first: all are taken at once and handed out in order.
enum { MOUSE_QUEUE = 8 };
static struct {
    MEVENT ev[MOUSE_QUEUE];
    int count, next;
} mouse_queue;

static SCREEN *screen;
static FILE *null_in, *null_out;
static UiLayout layout;
static bool covered; // this frame covers the whole screen (see ui_screen_cover_frame)

const UiLayout *ui_layout(void) {
    return &layout;
}

void ui_screen_cover_frame(void) {
    covered = true;
}

bool ui_screen_is_open(void) {
    return is_open;
}

bool ui_screen_unicode(void) {
    return theme_unicode();
}

bool ui_screen_apply_theme(void) {
    return theme_apply_current();
}

bool ui_screen_color(void) {
    return theme_color();
}

static int board_w(int s) {
    return RANK_LABEL_W + 8 * scales[s].w;
}

static int board_h(int s) {
    return 8 * scales[s].h + FILE_LABEL_H;
}

static int max_int(int a, int b) {
    return a > b ? a : b;
}

static int min_int(int a, int b) {
    return a < b ? a : b;
}

// The biggest scale that fits with the panel beside / under the board, -1 if none.
static int fit_side(int cols, int lines) {
    for (int s = SCALE_NB - 1; s >= 0; s--)
        if (board_w(s) + SIDE_GAP + PANEL_MIN_W <= cols &&
            max_int(board_h(s), PANEL_MIN_H) + BOTTOM_ROWS <= lines)
            return s;
    return -1;
}

static int fit_below(int cols, int lines) {
    for (int s = SCALE_NB - 1; s >= 0; s--)
        if (max_int(board_w(s), PANEL_MIN_W) <= cols &&
            board_h(s) + BELOW_GAP + PANEL_BELOW_MIN_H + BOTTOM_ROWS <= lines)
            return s;
    return -1;
}

static void layout_free(void) {
    WINDOW **wins[] = { &layout.board, &layout.panel, &layout.status, &layout.cmd, &layout.full };
    for (size_t i = 0; i < sizeof wins / sizeof wins[0]; i++) {
        if (*wins[i])
            delwin(*wins[i]);
        *wins[i] = NULL;
    }
}

static WINDOW *make_win(int h, int w, int y, int x, bool *ok) {
    WINDOW *win = newwin(h, w, y, x);
    if (!win) {
        *ok = false;
        return NULL;
    }
    // Only the command bar places the cursor.
    leaveok(win, TRUE);
    return win;
}

// Lays the windows out for the current terminal size.
static void layout_make(void) {
    layout_free();
    int cols = COLS, lines = LINES;
    layout.cols = cols;
    layout.lines = lines;
    layout.need_cols = board_w(0) + SIDE_GAP + PANEL_MIN_W;
    layout.need_lines = max_int(board_h(0), PANEL_MIN_H) + BOTTOM_ROWS;
    int side = fit_side(cols, lines), below = fit_below(cols, lines);
    layout.too_small = side < 0 && below < 0;
    layout.panel_below = below > side; // only for a bigger board
    bool ok = true;
    if (!layout.too_small) {
        int s = layout.panel_below ? below : side;
        int bw = board_w(s), bh = board_h(s);
        layout.sq_w = scales[s].w;
        layout.sq_h = scales[s].h;
        if (layout.panel_below) {
            int pw = min_int(cols, PANEL_MAX_W);
            int ph = lines - BOTTOM_ROWS - bh - BELOW_GAP;
            layout.board = make_win(bh, bw, 0, (cols - bw) / 2, &ok);
            layout.panel = make_win(ph, pw, bh + BELOW_GAP, (cols - pw) / 2, &ok);
        } else {
            int pw = min_int(cols - bw - SIDE_GAP, PANEL_MAX_W);
            int x0 = (cols - (bw + SIDE_GAP + pw)) / 2; // centred on wide terminals
            layout.board = make_win(bh, bw, 0, x0, &ok);
            layout.panel = make_win(lines - BOTTOM_ROWS, pw, 0, x0 + bw + SIDE_GAP, &ok);
        }
        layout.status = make_win(1, cols, lines - 2, 0, &ok);
        layout.cmd = make_win(1, cols, lines - 1, 0, &ok);
        if (layout.cmd)
            leaveok(layout.cmd, FALSE);
    }
    if (layout.too_small || !ok) {
        layout_free();
        layout.too_small = true;
        layout.full = newwin(lines, cols, 0, 0);
    }
    // Whatever the old windows left outside the new ones must go.
    werase(stdscr);
    wnoutrefresh(stdscr);
}

static void release(void) {
    if (screen) {
        delscreen(screen);
        screen = NULL;
    }
    if (null_in)
        fclose(null_in);
    if (null_out)
        fclose(null_out);
    null_in = null_out = NULL;
}

// "dumb" terminals (TERM=dumb, an editor's shell buffer) would get the
// screen as one line: curses needs at least to move the cursor.
static bool named_terminal(const char *term, char *err, size_t errsz) {
    if (term && *term && strcmp(term, "dumb") != 0)
        return true;
    return errmsg_set(err, errsz, "TERM is %s, a terminal that cannot draw the board",
                      term && *term ? term : "not set");
}

static bool start_terminal(const UiOptions *opts, char *err, size_t errsz) {
    if (opts->headless) {
        null_in = fopen("/dev/null", "r");
        null_out = fopen("/dev/null", "w");
        if (!null_in || !null_out) {
            errmsg_set(err, errsz, "cannot open /dev/null");
            return false;
        }
        // The size comes from the options, not from LINES/COLUMNS.
        use_env(FALSE);
        for (size_t i = 0; !screen && i < sizeof headless_terms / sizeof headless_terms[0]; i++)
            screen = newterm(headless_terms[i], null_out, null_in);
        if (!screen) {
            errmsg_set(err, errsz, "no usable terminal description for headless mode");
            return false;
        }
        set_term(screen);
        if (resizeterm(opts->headless_lines, opts->headless_cols) == ERR) {
            errmsg_set(err, errsz, "cannot set the headless terminal size");
            return false;
        }
        return true;
    }
    if (screen) {
        // Reopened after a close: endwin left the screen ready to resume.
        set_term(screen);
        return true;
    }
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        errmsg_set(err, errsz, "standard input and output must be a terminal");
        return false;
    }
    // newterm rather than initscr: initscr exits on failure.
    const char *term = getenv("TERM");
    if (!named_terminal(term, err, errsz))
        return false;
    screen = newterm(term, stdout, stdin);
    if (!screen) {
        errmsg_set(err, errsz, "unknown terminal type (check TERM)");
        return false;
    }
    set_term(screen);
    const char *cup = tigetstr("cup");
    if (!cup || cup == (const char *)-1) {
        errmsg_set(err, errsz, "the terminal cannot move the cursor (check TERM)");
        return false;
    }
    return true;
}

bool ui_screen_open(const UiOptions *opts, char *err, size_t errsz) {
    if (is_open)
        return true;
    UiOptions none = { 0 };
    if (!opts)
        opts = &none;
    // Wide characters need a locale; keep one the caller chose already.
    const char *cur = setlocale(LC_CTYPE, NULL);
    if (!cur || strcmp(cur, "C") == 0 || strcmp(cur, "POSIX") == 0)
        setlocale(LC_ALL, "");
    bool utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    draw_set_utf8(utf8);
    headless = opts->headless;
    if (!start_terminal(opts, err, errsz)) {
        release();
        return false;
    }
    // The tty modes cannot be set on /dev/null; headless mode does without.
    bool modes = cbreak() != ERR && noecho() != ERR;
    if ((!modes && !headless) || keypad(stdscr, TRUE) == ERR || nodelay(stdscr, TRUE) == ERR) {
        endwin();
        release();
        errmsg_set(err, errsz, "cannot set the terminal modes");
        return false;
    }
    intrflush(stdscr, FALSE);
    set_escdelay(ESC_DELAY_MS);
    // Clicks and drags of the left button and the wheel (buttons 4 and 5);
    // a terminal without a mouse simply reports none, so the result needs
    // no check.
    (void)mousemask(BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    (void)mouseinterval(0); // presses and releases as they come, no click folding
    curs_set(1); // may fail on terminals without cursor control; harmless
    bool want_color = !opts->no_color && getenv("NO_COLOR") == NULL && has_colors();
    bool color = want_color && start_color() == OK;
    bool default_colors = color && use_default_colors() == OK;
    if (!theme_init(color, default_colors, utf8 && !opts->ascii))
        theme_init(false, false, utf8 && !opts->ascii);
    memset(&layout, 0, sizeof layout);
    memset(&mouse_queue, 0, sizeof mouse_queue);
    is_open = true;
    layout_make();
    return true;
}

void ui_screen_close(void) {
    if (!is_open)
        return;
    is_open = false;
    theme_close();
    if (!headless) {
        // Only endwin: this may run from a fatal-signal handler, where freeing
        // memory is unsafe. The windows go at the next layout, and a later
        // open resumes the same screen.
        endwin();
        return;
    }
    layout_free();
    endwin();
    release(); // tests open many headless screens
}

void ui_screen_bell(void) {
    if (is_open && !headless)
        beep();
}

// An escape sequence the terminal description does not know arrives as ESC
// and its bytes one by one (tmux sends End as ESC [ 4 ~ where TERM says
// xterm): the common ones become their keys, any other is dropped whole, so
// no stray "[4~" reaches the command bar and a lone Esc stays a lone Esc.
// The rest of a sequence is already waiting when curses gives up on it.
static int escape_sequence(void) {
    static const struct {
        const char *seq;
        int key;
    } known[] = {
        { "[A", KEY_UP },     { "[B", KEY_DOWN },   { "[C", KEY_RIGHT },  { "[D", KEY_LEFT },
        { "OA", KEY_UP },     { "OB", KEY_DOWN },   { "OC", KEY_RIGHT },  { "OD", KEY_LEFT },
        { "[H", KEY_HOME },   { "OH", KEY_HOME },   { "[1~", KEY_HOME },  { "[7~", KEY_HOME },
        { "[F", KEY_END },    { "OF", KEY_END },    { "[4~", KEY_END },   { "[8~", KEY_END },
        { "[5~", KEY_PPAGE }, { "[6~", KEY_NPAGE }, { "[3~", KEY_DC },    { "OP", KEY_F(1) },
        { "OQ", KEY_F(2) },   { "[11~", KEY_F(1) }, { "[12~", KEY_F(2) },
    };
    int c = wgetch(stdscr);
    if (c == ERR)
        return ESC_KEY; // Esc alone
    if (c != '[' && c != 'O') {
        ungetch(c); // Alt and a key: Esc, then the key
        return ESC_KEY;
    }
    char seq[SEQ_MAX] = { (char)c };
    size_t n = 1;
    for (;;) {
        int d = wgetch(stdscr);
        if (d == ERR || d < 0x20 || d > 0x7E)
            return UI_KEY_NONE; // cut short or not a sequence: dropped
        if (n < sizeof seq - 1)
            seq[n++] = (char)d;
        // A CSI sequence ends at its final byte (parameters are 0x30-0x3F);
        // an SS3 one is a single character.
        if (c == 'O' || (d >= 0x40 && d <= 0x7E && n > 1 && !(c == '[' && n == 2 && d == '[')))
            break;
    }
    seq[n] = '\0';
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!strcmp(seq, known[i].seq))
            return known[i].key;
    return UI_KEY_NONE;
}

static void take_mouse_events(void) {
    MEVENT newest_first[MOUSE_QUEUE];
    int n = 0;
    while (n < MOUSE_QUEUE && getmouse(&newest_first[n]) == OK)
        n++;
    for (int i = 0; i < n; i++)
        mouse_queue.ev[i] = newest_first[n - 1 - i];
    mouse_queue.count = n;
    mouse_queue.next = 0;
}

// The key for a queued mouse event, UI_KEY_NONE for one we do not use.
static int mouse_key(const MEVENT *ev) {
    mouse_y = ev->y;
    mouse_x = ev->x;
    if (ev->bstate & BUTTON1_PRESSED)
        return UI_KEY_PRESS;
    if (ev->bstate & BUTTON1_RELEASED)
        return UI_KEY_RELEASE;
    if (ev->bstate & BUTTON4_PRESSED)
        return UI_KEY_WHEEL_UP;
    if (ev->bstate & BUTTON5_PRESSED)
        return UI_KEY_WHEEL_DOWN;
    return UI_KEY_NONE;
}

int ui_screen_getch(void) {
    if (!is_open)
        return UI_KEY_NONE;
    for (;;) {
        while (mouse_queue.next < mouse_queue.count) {
            int key = mouse_key(&mouse_queue.ev[mouse_queue.next++]);
            if (key != UI_KEY_NONE)
                return key;
        }
        int c = wgetch(stdscr);
        if (c == ERR)
            return UI_KEY_NONE;
        if (c == ESC_KEY) {
            c = escape_sequence();
            if (c == UI_KEY_NONE)
                continue; // an unknown sequence: nothing for the caller
            return c;
        }
        if (c == KEY_RESIZE)
            return UI_KEY_RESIZE;
        if (c != KEY_MOUSE)
            return c;
        take_mouse_events(); // returned at the top of the loop
    }
}

int ui_screen_function_key(int key) {
    return key >= KEY_F(1) && key <= KEY_F(63) ? key - KEY_F0 : 0;
}

void ui_screen_mouse_cell(int *y, int *x) {
    *y = mouse_y;
    *x = mouse_x;
}

bool ui_screen_arrow(int key, int *dx, int *dy) {
    *dx = key == KEY_RIGHT ? 1 : key == KEY_LEFT ? -1 : 0;
    *dy = key == KEY_DOWN ? 1 : key == KEY_UP ? -1 : 0;
    return *dx || *dy;
}

UiNav ui_screen_nav_key(int key) {
    switch (key) {
    case KEY_LEFT:
        return UI_NAV_PREV;
    case KEY_RIGHT:
        return UI_NAV_NEXT;
    case KEY_HOME:
        return UI_NAV_FIRST;
    case KEY_END:
        return UI_NAV_LAST;
    case KEY_NPAGE:
        return UI_NAV_INTO;
    case KEY_PPAGE:
        return UI_NAV_OUT;
    default:
        return UI_NAV_NONE;
    }
}

void ui_screen_resize(void) {
    if (!is_open)
        return;
    if (!headless) {
        // Catch up with a size change curses has not seen yet (a resize
        // while the caller was not reading keys).
        struct winsize ws;
        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0 &&
            (ws.ws_row != LINES || ws.ws_col != COLS))
            resizeterm(ws.ws_row, ws.ws_col);
        clearok(curscr, TRUE); // repaint everything on the next update
    }
    layout_make();
}

void ui_screen_suspend(void) {
    if (is_open && !headless)
        endwin();
}

void ui_screen_resume(void) {
    if (!is_open || headless)
        return;
    reset_prog_mode();  // the modes endwin gave back; mouse reporting with them
    ui_screen_resize(); // the terminal may have changed size meanwhile
}

bool ui_screen_too_small(int *need_cols, int *need_lines) {
    if (need_cols)
        *need_cols = layout.need_cols;
    if (need_lines)
        *need_lines = layout.need_lines;
    return is_open && layout.too_small;
}

void ui_screen_update(void) {
    if (!is_open)
        return;
    // The command bar goes last so the cursor ends up in it, unless this
    // frame covers it.
    if (layout.cmd && !covered)
        wnoutrefresh(layout.cmd);
    covered = false;
    doupdate();
}

// Appends ch as UTF-8 (independent of the locale).
static size_t put_utf8(char *out, wchar_t ch) {
    unsigned long c = (unsigned long)ch;
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    } else if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    } else if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

static bool dump_rows(FILE *f) {
    char line[DUMP_LINE_MAX];
    for (int y = 0; y < LINES; y++) {
        size_t len = 0;
        for (int x = 0; x < COLS && len + 8 < sizeof line; x++) {
            cchar_t cc;
            wchar_t wch[CCHARW_MAX + 1] = { 0 };
            attr_t attrs;
            short pair;
            if (mvwin_wch(curscr, y, x, &cc) == ERR ||
                getcchar(&cc, wch, &attrs, &pair, NULL) == ERR || wch[0] == L'\0')
                wch[0] = L' ';
            len += put_utf8(line + len, wch[0]);
            int w = draw_char_width(wch[0]);
            x += w > 1 ? w - 1 : 0; // a wide character fills the next cell too
        }
        while (len > 0 && line[len - 1] == ' ')
            len--;
        line[len++] = '\n';
        if (fwrite(line, 1, len, f) != len)
            return false;
    }
    return true;
}

bool ui_screen_dump(const char *path) {
    if (!is_open || !path)
        return false;
    doupdate(); // so curscr holds what the caller drew
    // Readers may poll the file: write a temporary and rename it into place.
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return false;
    FILE *f = fopen(tmp, "w");
    if (!f)
        return false;
    int cy, cx;
    getyx(curscr, cy, cx);
    bool ok = dump_rows(f);
    wmove(curscr, cy, cx); // curscr's cursor is where the terminal's is
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return false;
    }
    return true;
}
