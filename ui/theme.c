// SPDX-License-Identifier: GPL-3.0-or-later
// Colours, attributes and piece glyphs for the board and the panes, with a
// 256-colour palette, an 8-colour fallback and a monochrome look.
#include "ui/theme.h"

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

// Square backgrounds [kind][dark=0, light=1] and piece foregrounds [colour].
static const short palette256_bg[SQ_KIND_NB][2] = {
    { 94, 180 },  // plain: brown and tan
    { 136, 186 }, // last move: olive tints
    { 67, 117 },  // hint: blues
    { 160, 203 }, // check: reds
};
static const short palette256_fg[COLOR_NB] = { 231, 16 };
static const short palette8_bg[SQ_KIND_NB][2] = {
    { COLOR_GREEN, COLOR_YELLOW },
    { COLOR_CYAN, COLOR_CYAN },
    { COLOR_MAGENTA, COLOR_MAGENTA },
    { COLOR_RED, COLOR_RED },
};
static const short palette8_fg[COLOR_NB] = { COLOR_WHITE, COLOR_BLACK };

static bool use_color;
static bool use_unicode;

static short square_pair(SquareKind kind, bool light, Color pc) {
    return (short)(PAIR_SQUARE_FIRST + ((int)kind * 2 + (light ? 1 : 0)) * COLOR_NB + (int)pc);
}

bool theme_init(bool color, bool default_colors, bool unicode) {
    use_unicode = unicode;
    use_color = false;
    if (!color || COLORS < 8 || COLOR_PAIRS < PAIR_COUNT)
        return !color;
    bool rich = COLORS >= 256;
    // -1 is the terminal's own colour when use_default_colors worked.
    short deflt_bg = default_colors ? -1 : COLOR_BLACK;
    short deflt_fg = default_colors ? -1 : COLOR_WHITE;
    for (int kind = 0; kind < SQ_KIND_NB; kind++)
        for (int light = 0; light < 2; light++)
            for (int pc = 0; pc < COLOR_NB; pc++) {
                short bg = rich ? palette256_bg[kind][light] : palette8_bg[kind][light];
                short fg = rich ? palette256_fg[pc] : palette8_fg[pc];
                if (init_pair(square_pair((SquareKind)kind, light, (Color)pc), fg, bg) == ERR)
                    return false;
            }
    if (init_pair(PAIR_ERROR, COLOR_RED, deflt_bg) == ERR ||
        init_pair(PAIR_FLAG, COLOR_WHITE, COLOR_RED) == ERR ||
        init_pair(PAIR_RUN, COLOR_GREEN, deflt_bg) == ERR ||
        init_pair(PAIR_NOTE, COLOR_CYAN, deflt_bg) == ERR ||
        init_pair(PAIR_DIM, rich ? 245 : deflt_fg, deflt_bg) == ERR)
        return false;
    use_color = true;
    return true;
}

bool theme_color(void) {
    return use_color;
}

bool theme_unicode(void) {
    return use_unicode;
}

attr_t theme_square_attr(SquareKind kind, bool light, Color pc) {
    if (use_color) {
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
    case ROLE_DIM: return use_color ? COLOR_PAIR(PAIR_DIM) : A_DIM;
    case ROLE_COORD: return use_color ? COLOR_PAIR(PAIR_DIM) : A_NORMAL;
    case ROLE_CURRENT: return A_REVERSE | A_BOLD;
    case ROLE_CLOCK_RUN: return A_BOLD | (use_color ? COLOR_PAIR(PAIR_RUN) : A_NORMAL);
    case ROLE_FLAG: return A_BOLD | (use_color ? COLOR_PAIR(PAIR_FLAG) : A_REVERSE);
    case ROLE_ERROR: return A_BOLD | (use_color ? COLOR_PAIR(PAIR_ERROR) : A_NORMAL);
    case ROLE_NOTE: return use_color ? COLOR_PAIR(PAIR_NOTE) : A_NORMAL;
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
    if (!use_unicode) {
        static const char letters[] = "PNBRQK";
        char ch = letters[t];
        return c == WHITE ? (wchar_t)ch : (wchar_t)(ch - 'A' + 'a');
    }
    // U+2654..U+2659 are the outline set (king first), U+265A..U+265F the
    // solid set. With colour both sides use the solid shapes, which read
    // better; without it the shape must tell the sides apart.
    static const int from_king[PIECE_TYPE_NB] = { 5, 4, 3, 2, 1, 0 };
    wchar_t base = (c == BLACK || use_color) ? 0x265A : 0x2654;
    return base + from_king[t];
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
