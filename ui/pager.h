// SPDX-License-Identifier: GPL-3.0-or-later
// The pager: a long text (help, the message log, a game's comment) over the
// whole screen, wrapped at the terminal's width by display columns (UTF-8,
// wide characters), scrolled with the page and arrow keys, closed with q or
// Esc. The layout (wrapping and scrolling) is plain computation that tests
// can run without a screen; ui_pager_draw puts it on the screen.
#ifndef UI_PAGER_H
#define UI_PAGER_H

#include <stdbool.h>
#include <stddef.h>

enum { UI_PAGER_TITLE_MAX = 128 };

// One screen row of the wrapped text: len bytes at off in the text, drawn
// after indent blank columns (the hanging indent of a continued line).
typedef struct UiPagerLine {
    size_t off, len;
    int indent;
} UiPagerLine;

// Lays out row i of a list for width columns into buf (bufsz bytes).
typedef void (*UiPagerRowFn)(void *ctx, int i, int width, char *buf, size_t bufsz);

// Owns a copy of the text and its wrapped rows, or shows rows made on
// demand (a list of any length: only the rows on screen are made); zero-
// initialised it is closed. Every field is the pager's own: use the functions.
typedef struct UiPager {
    bool open;
    UiPagerRowFn row_fn; // rows made on demand (no text then)
    void *row_ctx;
    char title[UI_PAGER_TITLE_MAX];
    char *text;
    UiPagerLine *lines;
    int count, cap;    // wrapped rows, and room for them
    int width, rows;   // the text area the rows were made for (0: not laid out)
    int top;           // first row shown
    bool start_at_end; // the first layout shows the last page
    bool leave_bar;    // the screen's last row is the command bar's: the footer goes above it
    char note[64];     // said first in the footer ("game paused"), empty for none
} UiPager;

// Opens the pager on a copy of text (tabs and control characters become
// spaces; lines end at '\n'). With at_end the last page is shown first (a
// log, newest last). False when out of memory (the pager stays closed).
bool ui_pager_open(UiPager *p, const char *title, const char *text, bool at_end);
// Opens the pager on count rows that row makes when they are shown, each
// for the width of the screen (a longer one is cut; none wraps). Row i of
// the layout is row i of the list.
void ui_pager_open_rows(UiPager *p, const char *title, int count, UiPagerRowFn row, void *ctx);
// Whether the pager shows rows made on demand.
bool ui_pager_is_rows(const UiPager *p);
// Frees the text; safe on a closed pager.
void ui_pager_close(UiPager *p);
bool ui_pager_is_open(const UiPager *p);

// Wraps the text for a text area of width columns and rows rows (the screen
// less the title and footer rows). A new width re-wraps, keeping the row
// that was at the top in view; the top stays within bounds. False when out
// of memory (the old layout is kept).
bool ui_pager_layout(UiPager *p, int width, int rows);
// The wrapped rows (valid until the next layout or close); rows made on
// demand have no UiPagerLine (NULL).
int ui_pager_count(const UiPager *p);
int ui_pager_top(const UiPager *p);
const UiPagerLine *ui_pager_line(const UiPager *p, int i);
// The wrapped row drawn on screen row y of a screen lines rows high (as
// ui_pager_draw lays it out), -1 for the title, the footer or past the end.
// Maps clicks.
int ui_pager_row_at(const UiPager *p, int lines, int y);
// The same on the screen as it is now (curses open).
int ui_pager_screen_row_at(const UiPager *p, int y);
// The text of the pager (row i is len bytes at text + off).
const char *ui_pager_text(const UiPager *p);
// "lines 1-20 of 57" (or "line 1 of 1").
void ui_pager_position(const UiPager *p, char *buf, size_t bufsz);

// With leave the screen's last row is left to the command bar (something
// is being typed while the pager is open) and the footer is drawn above it.
void ui_pager_leave_bar(UiPager *p, bool leave);
// A note said first in the footer (NULL or "": none).
void ui_pager_set_note(UiPager *p, const char *note);
// Scrolls to the next row after the top one that holds text (ignoring
// case), going round to the first row after the last; false when no row
// holds it (the pager stays where it was). Needs a layout (a drawn pager).
bool ui_pager_find(UiPager *p, const char *text);

// What a key did to the pager.
typedef enum {
    UI_PAGER_IGNORED, // not a pager key: nothing happened (and the key is used up)
    UI_PAGER_MOVED,   // scrolled (or at a bound already): redraw
    UI_PAGER_CLOSED,  // q, Q or Esc: the pager is closed now
} UiPagerAction;
// Up/Down (k/j, Enter) a row, the mouse wheel three rows, Page Up/Down (b,
// space, f) a page, Home/End (g/G) to the ends; q, Q and Esc close. Keys are
// ui_screen_getch's.
UiPagerAction ui_pager_key(UiPager *p, int key);

// Draws the pager over the whole screen (laying it out for the current size
// first): the title, the rows, and a footer with the position and the keys.
// The caller finishes with ui_screen_update().
void ui_pager_draw(UiPager *p);

#endif
