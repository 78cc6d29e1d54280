// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to ui/: colours, attributes and piece glyphs. Three looks: colour
// squares with solid glyphs, monochrome (reverse video for dark squares,
// outline glyphs for White) and plain ASCII letters.
#ifndef UI_THEME_H
#define UI_THEME_H

#include <curses.h>
#include <stdbool.h>
#include <wchar.h>

#include "engine/types.h"
#include "ui/themes.h"

// How a square is highlighted, strongest last.
typedef enum { SQ_PLAIN, SQ_LAST_MOVE, SQ_HINT, SQ_CHECK, SQ_KIND_NB } SquareKind;

// Text roles outside the board.
typedef enum {
    ROLE_NORMAL,
    ROLE_TITLE,     // section headings, player names
    ROLE_DIM,       // separators, details, moves after the shown position
    ROLE_COORD,     // board coordinates
    ROLE_CURRENT,   // the current move in the move list
    ROLE_CLOCK_RUN, // the clock that is ticking
    ROLE_FLAG,      // a fallen flag
    ROLE_ERROR,     // error messages on the status line
    ROLE_NOTE,      // completion lists on the status line
    ROLE_CLOCK_LOW, // a clock below the low-time mark
    ROLE_BANNER,    // the end-of-game banner
    ROLE_NB
} TextRole;

// Sets the look up; call after start_color when colour is wanted, with
// default_colors when use_default_colors worked. Returns false when the
// terminal lacks the colour pairs it needs (the theme is then monochrome).
bool theme_init(bool color, bool default_colors, bool unicode);
// Sets the colour pairs up for t (when the screen has colours) and has the
// next update repaint every cell. False when curses refuses a pair.
bool theme_apply(const UiTheme *t);
// theme_apply of the theme table's current theme (after choosing or
// replacing it).
bool theme_apply_current(void);
// The screen is closing: no colour calls until the next theme_init.
void theme_close(void);
bool theme_color(void);
bool theme_unicode(void);

// The attribute (with colour pair) for a square and the piece standing on it
// (pc is ignored for empty squares).
attr_t theme_square_attr(SquareKind kind, bool light, Color pc);
attr_t theme_role_attr(TextRole role);

// The glyph for a piece: a wide character, or an ASCII letter.
wchar_t theme_piece_glyph(Piece p);

// Sets the attributes (with the colour pair) of a window.
void theme_set(WINDOW *w, attr_t attr);
// Puts one wide character with the given attributes at (y, x).
void theme_put_wch(WINDOW *w, int y, int x, wchar_t ch, attr_t attr);

#endif
