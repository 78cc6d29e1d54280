// SPDX-License-Identifier: GPL-3.0-or-later
// Board themes and piece sets: the built-in themes, user themes defined with
// 256-colour indexes or #rrggbb values, and the choice of the current theme
// and piece set. A choice made while the screen is open applies at once (the
// next draw shows it). Monochrome and ASCII screens keep their own look and
// take only what they can show (ASCII always draws letters). Main thread only.
#ifndef UI_THEMES_H
#define UI_THEMES_H

#include <stdbool.h>
#include <stddef.h>

enum {
    UI_THEME_NAME_MAX = 24,
    UI_THEMES_MAX = 16,   // built-in and user themes together
    UI_THEME_KINDS = 4,   // plain, last move, hint, check (the square highlights)
    UI_RGB = 1 << 24,     // a colour UI_RGB | 0xRRGGBB; below it a palette index 0..255
    UI_THEME_LIST_MAX = UI_THEMES_MAX * (UI_THEME_NAME_MAX + 2),
};

typedef struct UiTheme {
    char name[UI_THEME_NAME_MAX];
    int square[UI_THEME_KINDS][2]; // backgrounds [highlight][dark = 0, light = 1]
    int piece[2];                  // foregrounds of White's and Black's pieces
    int text;                      // coordinates, rules and other dim text
    int accent;                    // the running clock
    int alert;                     // errors and the low-time warning
    // On 8-colour terminals: COLOR_* numbers for the squares and pieces.
    short basic_square[UI_THEME_KINDS][2];
    short basic_piece[2];
} UiTheme;

typedef enum { UI_PIECES_FILLED, UI_PIECES_OUTLINE, UI_PIECES_LETTERS, UI_PIECES_NB } UiPieces;

// Parses a user theme: words "part=colour" separated by blanks or commas,
// parts light, dark, white, black, last, hint, check, text, accent, alert;
// colours 0..255 or #rrggbb. Parts left out keep the classic theme's colours.
// False with a message naming the bad word.
bool ui_theme_parse(const char *name, const char *spec, UiTheme *out, char *err, size_t errsz);
// Adds a user theme (or replaces the one of that name). False when the
// name is a built-in one or the table is full. The table is only the model:
// the screen shows a change once theme_apply_current is called (ui/theme.h).
bool ui_theme_add(const UiTheme *t, char *err, size_t errsz);
// Makes a theme current (shown by theme_apply_current). False when there
// is no theme of that name.
bool ui_theme_select(const char *name);
const char *ui_theme_current(void);
const UiTheme *ui_theme_get(const char *name);
// The names of all themes, space separated, the current one marked with '*'.
void ui_theme_list(char *buf, size_t bufsz);

// Piece sets: "filled", "outline" and "letters".
bool ui_pieces_select(const char *name);
UiPieces ui_pieces_current(void);
const char *ui_pieces_name(UiPieces p);
void ui_pieces_list(char *buf, size_t bufsz);

// 0xRRGGBB of a colour (an xterm palette index or a UI_RGB value).
int ui_color_rgb(int color);
// The nearest of the 256 xterm colours to 0xRRGGBB (16..255).
int ui_color_nearest256(int rgb);
// The nearest of the 8 basic colours to a colour (index or UI_RGB value).
short ui_color_nearest8(int color);

#endif
