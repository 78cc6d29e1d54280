// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to ui/: width-aware text drawing. Strings are UTF-8; what the
// locale cannot show is drawn as '?', and nothing is written past the given
// number of columns.
#ifndef UI_DRAW_H
#define UI_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

// Whether the locale can show non-ASCII text (set once by the screen).
void draw_set_utf8(bool utf8);
bool draw_utf8(void);

// Decodes one UTF-8 character at s into *ch and returns its length in bytes
// (at least 1; a bad byte decodes to U+FFFD).
int draw_decode(const char *s, wchar_t *ch);
// Columns a character takes (control and unknown characters count as 1).
int draw_char_width(wchar_t ch);
// Columns the string takes.
int draw_width(const char *s);
// Where to cut s (at least n bytes long) to keep at most its first n bytes
// without splitting a UTF-8 character: n, or the start of the character
// that byte n is inside.
size_t draw_boundary(const char *s, size_t n);

// Draws s at (y, x) with attr, cut to at most maxcols columns; with
// ellipsis a cut string ends in "…" (or "..." in ASCII). Returns the
// columns drawn.
int draw_text(WINDOW *w, int y, int x, const char *s, int maxcols, attr_t attr, bool ellipsis);
// Fills n columns at (y, x) with ch.
void draw_fill(WINDOW *w, int y, int x, int n, wchar_t ch, attr_t attr);
// A horizontal rule across the window's row y with an optional title.
void draw_rule(WINDOW *w, int y, const char *title, attr_t attr);

#endif
