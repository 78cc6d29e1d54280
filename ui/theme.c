// SPDX-License-Identifier: GPL-3.0-or-later
// Colours, attributes and piece glyphs for the board and the panes, with a
// 256-colour palette, an 8-colour fallback and a monochrome look.
#include "ui/theme.h"

#include "ui/themes.h"

// Colour pairs: one per square kind, square shade and piece colour, then the
// text roles that need a colour of their own.
enum {
    PAIR_SQUARE_FIRST = 1,
    PAIR_SQUARE_COUNT = SQ_KIND_NB * 2 * COLOR_NB,
    PAIR_ERROR = PAIR_SQUARE_FIRST + PAIR_SQUARE_COUNT,
    PAIR_FLAG,
    PAIR_RUN,
    PAIR_NOTE,
    PAIR_DIM,
    PAIR_COUNT, // pairs needed, pair 0 included
};

static struct { bool color, default_colors, unicode; } look;

static short square_pair(SquareKind kind, bool light, Color pc) {
    return (short)(PAIR_SQUARE_FIRST + ((int)kind * 2 + (light ? 1 : 0)) * COLOR_NB + (int)pc);
}

// A theme colour as a curses colour number: the RGB value itself on direct
// colour terminals (TERM=xterm-direct), else the nearest of the 256 colours.
// Palette slots are never redefined: that would change the colours of
// whatever else the terminal shows, and outlive the program on many.
static int resolve(int color) {
    bool rgb = color & UI_RGB;
    if (COLORS >= 0x1000000) // direct colour: numbers from 8 up are 0xRRGGBB
        return rgb ? (color & 0xffffff) : color < 8 ? color : ui_color_rgb(color);
    return rgb ? ui_color_nearest256(color) : color;
}

bool theme_apply(const UiTheme *t) {
    if (!look.color)
        return true;
    bool rich = COLORS >= 256;
    // -1 is the terminal's own colour when use_default_colors worked.
    int deflt_bg = look.default_colors ? -1 : COLOR_BLACK;
    int deflt_fg = look.default_colors ? -1 : COLOR_WHITE;
    for (int kind = 0; kind < SQ_KIND_NB; kind++)
        for (int light = 0; light < 2; light++)
            for (int pc = 0; pc < COLOR_NB; pc++) {
                int bg = rich ? resolve(t->square[kind][light]) : t->basic_square[kind][light];
                int fg = rich ? resolve(t->piece[pc]) : t->basic_piece[pc];
                if (init_extended_pair(square_pair((SquareKind)kind, light, (Color)pc), fg, bg) ==
                    ERR)
                    return false;
            }
    int alert = rich ? resolve(t->alert) : ui_color_nearest8(t->alert);
    int accent = rich ? resolve(t->accent) : ui_color_nearest8(t->accent);
    if (init_extended_pair(PAIR_ERROR, alert, deflt_bg) == ERR ||
        init_extended_pair(PAIR_FLAG, COLOR_WHITE, alert) == ERR ||
        init_extended_pair(PAIR_RUN, accent, deflt_bg) == ERR ||
        init_extended_pair(PAIR_NOTE, COLOR_CYAN, deflt_bg) == ERR ||
        init_extended_pair(PAIR_DIM, rich ? resolve(t->text) : deflt_fg, deflt_bg) == ERR)
        return false;
    // Cells already on the screen keep their old colours until redrawn.
    if (stdscr)
        clearok(curscr, TRUE);
    return true;
}

bool theme_apply_current(void) {
    return theme_apply(ui_theme_get(ui_theme_current()));
}

bool theme_init(bool color, bool default_colors, bool unicode) {
    look.unicode = unicode;
    look.color = false;
    if (!color || COLORS < 8 || COLOR_PAIRS < PAIR_COUNT)
        return !color;
    look.color = true;
    look.default_colors = default_colors;
    if (!theme_apply_current()) {
        look.color = false;
        return false;
    }
    return true;
}

void theme_close(void) {
    look.color = false;
}

bool theme_color(void) {
    return look.color;
}

bool theme_unicode(void) {
    return look.unicode;
}

attr_t theme_square_attr(SquareKind kind, bool light, Color pc) {
    if (look.color) {
        attr_t bold = pc == WHITE ? A_BOLD : A_NORMAL;
        return COLOR_PAIR(square_pair(kind, light, pc)) | bold;
    }
    // Monochrome: dark squares in reverse video; highlights are bold, and
    // the board draws markers around the piece as well.
    attr_t a = light ? A_NORMAL : A_REVERSE;
    if (kind != SQ_PLAIN)
        a |= A_BOLD;
    if (kind == SQ_CHECK)
        a |= A_UNDERLINE;
    return a;
}

attr_t theme_role_attr(TextRole role) {
    switch (role) {
    case ROLE_TITLE: return A_BOLD;
    case ROLE_DIM: return look.color ? COLOR_PAIR(PAIR_DIM) : A_DIM;
    case ROLE_COORD: return look.color ? COLOR_PAIR(PAIR_DIM) : A_NORMAL;
    case ROLE_CURRENT: return A_REVERSE | A_BOLD;
    case ROLE_CLOCK_RUN: return A_BOLD | (look.color ? COLOR_PAIR(PAIR_RUN) : A_NORMAL);
    case ROLE_FLAG: return A_BOLD | (look.color ? COLOR_PAIR(PAIR_FLAG) : A_REVERSE);
    case ROLE_ERROR: return A_BOLD | (look.color ? COLOR_PAIR(PAIR_ERROR) : A_NORMAL);
    case ROLE_CLOCK_LOW: return A_BOLD | (look.color ? COLOR_PAIR(PAIR_FLAG) : A_REVERSE);
    case ROLE_BANNER: return A_BOLD | A_REVERSE;
    case ROLE_NOTE: return look.color ? COLOR_PAIR(PAIR_NOTE) : A_NORMAL;
    case ROLE_NORMAL:
    case ROLE_NB: break;
    }
    return A_NORMAL;
}

wchar_t theme_piece_glyph(Piece p) {
    if (p >= PIECE_NB)
        return L' ';
    PieceType t = piece_type(p);
    Color c = piece_color(p);
    if (!look.unicode || ui_pieces_current() == UI_PIECES_LETTERS) {
        static const char letters[] = "PNBRQK";
        char ch = letters[t];
        return c == WHITE ? (wchar_t)ch : (wchar_t)(ch - 'A' + 'a');
    }
    // U+2654..U+2659 are the outline set (king first), U+265A..U+265F the
    // solid set. Without colour the shape must tell the sides apart: White
    // outline, Black solid, whatever the set.
    static const int from_king[PIECE_TYPE_NB] = { 5, 4, 3, 2, 1, 0 };
    bool solid = look.color ? ui_pieces_current() == UI_PIECES_FILLED : c == BLACK;
    return (solid ? 0x265A : 0x2654) + from_king[t];
}

void theme_set(WINDOW *w, attr_t attr) {
    wattr_set(w, attr & ~A_COLOR, (short)PAIR_NUMBER(attr), NULL);
}

void theme_put_wch(WINDOW *w, int y, int x, wchar_t ch, attr_t attr) {
    wchar_t s[2] = { ch, L'\0' };
    cchar_t cc;
    if (setcchar(&cc, s, attr & ~A_COLOR, (short)PAIR_NUMBER(attr), NULL) == OK)
        mvwadd_wch(w, y, x, &cc);
}
