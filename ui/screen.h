// SPDX-License-Identifier: GPL-3.0-or-later
// The terminal: curses set-up and teardown, colours and glyph choice, the
// window layout, resizing and non-blocking key input. Only the main thread
// may call these. ui_screen_close restores the terminal and is safe to call
// more than once (from atexit, a signal handler's cleanup, or a normal exit).
#ifndef UI_SCREEN_H
#define UI_SCREEN_H

#include <stdbool.h>
#include <stddef.h>

typedef struct UiOptions {
    bool ascii;    // ASCII pieces and board even when the locale is UTF-8
    bool no_color; // monochrome (also chosen when NO_COLOR is set or there are no colours)
    // Headless mode for tests: draw into a terminal of this size with output
    // going to /dev/null (the screen can still be dumped with ui_screen_dump).
    bool headless;
    int headless_cols, headless_lines;
} UiOptions;

// Opens the screen. False with the reason in err when curses cannot start.
bool ui_screen_open(const UiOptions *opts, char *err, size_t errsz);
void ui_screen_close(void);
bool ui_screen_is_open(void);
// The look, decided at ui_screen_open: with colours (not NO_COLOR or a
// monochrome terminal); pieces as Unicode glyphs (not ASCII).
bool ui_screen_color(void);
// Shows the theme table's current theme (ui/themes.h) after it was chosen or
// replaced; false when curses refused a colour pair (the old look stays).
bool ui_screen_apply_theme(void);
bool ui_screen_unicode(void);

// Special keys returned by ui_screen_getch besides plain characters and
// curses KEY_* codes.
// UI_KEY_PRESS and UI_KEY_RELEASE: the left mouse button went down or up
// at the cell ui_screen_mouse_cell gives. UI_KEY_WHEEL_UP and _DOWN: the
// mouse wheel turned (where the terminal reports it).
enum {
    UI_KEY_NONE = -1,
    UI_KEY_RESIZE = -2,
    UI_KEY_PRESS = -3,
    UI_KEY_RELEASE = -4,
    UI_KEY_WHEEL_UP = -5,
    UI_KEY_WHEEL_DOWN = -6,
};
// A key if one is waiting, else UI_KEY_NONE. Never blocks.
int ui_screen_getch(void);
// What a navigation key means (arrows, Home/End, Page Up/Down), so callers
// need not know curses key codes.
typedef enum {
    UI_NAV_NONE, UI_NAV_PREV, UI_NAV_NEXT, UI_NAV_FIRST, UI_NAV_LAST, UI_NAV_INTO, UI_NAV_OUT
} UiNav;
UiNav ui_screen_nav_key(int key);
// n for the function key Fn, 0 for any other key.
int ui_screen_function_key(int key);
// The screen cell (row, column) of the last mouse press or release.
void ui_screen_mouse_cell(int *y, int *x);
// The arrow keys as a step on the screen (dx right, dy down); false for
// other keys.
bool ui_screen_arrow(int key, int *dx, int *dy);
// Re-reads the terminal size and lays the windows out again.
void ui_screen_resize(void);
// Gives the terminal back to the shell before the program stops (Ctrl-Z),
// and takes it again, repainted, once it continues.
void ui_screen_suspend(void);
void ui_screen_resume(void);
// True when the terminal is too small; ui_view_draw then shows a message
// asking for at least the size given.
bool ui_screen_too_small(int *need_cols, int *need_lines);
// Rings the terminal bell (or flashes, where the terminal has no bell).
void ui_screen_bell(void);
// Pushes all pending window updates to the terminal (one doupdate).
void ui_screen_update(void);
// Writes the visible screen as text lines to path (tests, bug reports).
bool ui_screen_dump(const char *path);

#endif
