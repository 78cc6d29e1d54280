// SPDX-License-Identifier: GPL-3.0-or-later
// The theme table (built-in themes first, then the user's), the piece set
// choice, the user theme parser and colour matching to the 256 and 8 colour
// palettes.
#include "ui/themes.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


// Highlight rows: plain, last move, hint, check; each {dark, light}.
static const UiTheme builtin[] = {
    { .name = "classic", // brown and tan wood
      .square = { { 94, 180 }, { 136, 186 }, { 67, 117 }, { 160, 203 } },
      .piece = { 231, 16 }, .text = 245, .accent = COLOR_GREEN, .alert = COLOR_RED,
      .basic_square = { { COLOR_GREEN, COLOR_YELLOW }, { COLOR_CYAN, COLOR_CYAN },
                        { COLOR_MAGENTA, COLOR_MAGENTA }, { COLOR_RED, COLOR_RED } },
      .basic_piece = { COLOR_WHITE, COLOR_BLACK } },
    { .name = "green", // the tournament vinyl board
      .square = { { 65, 187 }, { 143, 229 }, { 67, 117 }, { 160, 210 } },
      .piece = { 231, 16 }, .text = 245, .accent = COLOR_GREEN, .alert = COLOR_RED,
      .basic_square = { { COLOR_GREEN, COLOR_WHITE }, { COLOR_YELLOW, COLOR_YELLOW },
                        { COLOR_CYAN, COLOR_CYAN }, { COLOR_RED, COLOR_RED } },
      .basic_piece = { COLOR_WHITE, COLOR_BLACK } },
    { .name = "blue",
      .square = { { 67, 153 }, { 108, 194 }, { 139, 183 }, { 160, 210 } },
      .piece = { 231, 16 }, .text = 245, .accent = COLOR_CYAN, .alert = COLOR_RED,
      .basic_square = { { COLOR_BLUE, COLOR_CYAN }, { COLOR_GREEN, COLOR_GREEN },
                        { COLOR_MAGENTA, COLOR_MAGENTA }, { COLOR_RED, COLOR_RED } },
      .basic_piece = { COLOR_WHITE, COLOR_BLACK } },
    { .name = "contrast", // mid greys, so both white and black pieces stand out; vivid marks
      .square = { { 242, 248 }, { 178, 226 }, { 33, 45 }, { 196, 203 } },
      .piece = { 231, 16 }, .text = 252, .accent = 46, .alert = 196,
      .basic_square = { { COLOR_MAGENTA, COLOR_CYAN }, { COLOR_YELLOW, COLOR_YELLOW },
                        { COLOR_GREEN, COLOR_GREEN }, { COLOR_RED, COLOR_RED } },
      .basic_piece = { COLOR_WHITE, COLOR_BLACK } },
    { .name = "paper", // for light terminal backgrounds: dark text around the board
      .square = { { 173, 223 }, { 179, 229 }, { 110, 153 }, { 167, 217 } },
      .piece = { 231, 16 }, .text = 240, .accent = 28, .alert = 124,
      .basic_square = { { COLOR_RED, COLOR_YELLOW }, { COLOR_CYAN, COLOR_CYAN },
                        { COLOR_BLUE, COLOR_BLUE }, { COLOR_MAGENTA, COLOR_MAGENTA } },
      .basic_piece = { COLOR_WHITE, COLOR_BLACK } },
};
enum { BUILTIN_NB = sizeof builtin / sizeof builtin[0] };

static const char *const piece_names[UI_PIECES_NB] = { "filled", "outline", "letters" };

// The choice lives here because curses itself is one global screen.
static struct {
    UiTheme user[UI_THEMES_MAX - BUILTIN_NB];
    int user_count;
    const UiTheme *current;
    UiPieces pieces;
} themes = { .current = &builtin[0] };

static const UiTheme *theme_at(int i) {
    return i < BUILTIN_NB ? &builtin[i] : &themes.user[i - BUILTIN_NB];
}

const UiTheme *ui_theme_get(const char *name) {
    for (int i = 0; i < BUILTIN_NB + themes.user_count; i++)
        if (!strcasecmp(theme_at(i)->name, name))
            return theme_at(i);
    return NULL;
}

bool ui_theme_select(const char *name) {
    const UiTheme *t = ui_theme_get(name);
    if (!t)
        return false;
    themes.current = t;
    return true;
}

const char *ui_theme_current(void) {
    return themes.current->name;
}

static void list_names(char *buf, size_t bufsz, int count, const char *(*name)(int),
                       const char *current) {
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < count && used < bufsz; i++) {
        const char *n = name(i);
        int w = snprintf(buf + used, bufsz - used, "%s%s%s", i ? " " : "", n,
                         strcmp(n, current) ? "" : "*");
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

static const char *theme_name_at(int i) {
    return theme_at(i)->name;
}

void ui_theme_list(char *buf, size_t bufsz) {
    list_names(buf, bufsz, BUILTIN_NB + themes.user_count, theme_name_at, ui_theme_current());
}

bool ui_theme_add(const UiTheme *t, char *err, size_t errsz) {
    for (int i = 0; i < BUILTIN_NB; i++)
        if (!strcasecmp(builtin[i].name, t->name)) {
            snprintf(err, errsz, "'%s' is a built-in theme; give yours another name", t->name);
            return false;
        }
    int slot = 0;
    while (slot < themes.user_count && strcasecmp(themes.user[slot].name, t->name))
        slot++;
    if (slot == UI_THEMES_MAX - BUILTIN_NB) {
        snprintf(err, errsz, "too many themes (at most %d of your own)",
                 UI_THEMES_MAX - BUILTIN_NB);
        return false;
    }
    themes.user[slot] = *t;
    if (slot == themes.user_count)
        themes.user_count++;
    return true;
}

static bool parse_color(const char *v, int *out) {
    char *end;
    if (v[0] == '#') {
        if (strlen(v) != 7 || strspn(v + 1, "0123456789abcdefABCDEF") != 6)
            return false;
        *out = UI_RGB | (int)strtol(v + 1, NULL, 16);
        return true;
    }
    long n = strtol(v, &end, 10);
    if (end == v || *end || n < 0 || n > 255)
        return false;
    *out = (int)n;
    return true;
}

// Sets one part of a theme; false when the part is unknown.
static bool set_part(UiTheme *t, const char *part, int color) {
    static const char *const kinds[] = { "", "last", "hint", "check" };
    if (!strcasecmp(part, "light") || !strcasecmp(part, "dark")) {
        int light = !strcasecmp(part, "light");
        t->square[0][light] = color;
        t->basic_square[0][light] = ui_color_nearest8(color);
        return true;
    }
    for (int k = 1; k < UI_THEME_KINDS; k++)
        if (!strcasecmp(part, kinds[k])) {
            t->square[k][0] = t->square[k][1] = color;
            t->basic_square[k][0] = t->basic_square[k][1] = ui_color_nearest8(color);
            return true;
        }
    int *field = !strcasecmp(part, "white")    ? &t->piece[0]
                 : !strcasecmp(part, "black")  ? &t->piece[1]
                 : !strcasecmp(part, "text")   ? &t->text
                 : !strcasecmp(part, "accent") ? &t->accent
                 : !strcasecmp(part, "alert")  ? &t->alert
                                               : NULL;
    if (!field)
        return false;
    *field = color;
    return true;
}

bool ui_theme_parse(const char *name, const char *spec, UiTheme *out, char *err, size_t errsz) {
    size_t nlen = strlen(name);
    if (nlen == 0 || nlen >= UI_THEME_NAME_MAX || strspn(name, "abcdefghijklmnopqrstuvwxyz"
                                                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                                 "0123456789-_") != nlen) {
        snprintf(err, errsz, "a theme name is 1-%d letters, digits, '-' or '_', not '%.40s'",
                 UI_THEME_NAME_MAX - 1, name);
        return false;
    }
    *out = builtin[0];
    snprintf(out->name, sizeof out->name, "%s", name);
    char words[512];
    snprintf(words, sizeof words, "%s", spec);
    char *save = NULL;
    int parts = 0;
    for (char *w = strtok_r(words, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
        char *eq = strchr(w, '=');
        int color;
        if (!eq) {
            snprintf(err, errsz, "theme %s: '%.40s' is not part=colour", name, w);
            return false;
        }
        *eq = '\0';
        if (!eq[1]) {
            snprintf(err, errsz, "theme %s: no colour for %.40s (use 0-255 or #rrggbb)", name, w);
            return false;
        }
        if (!parse_color(eq + 1, &color)) {
            snprintf(err, errsz, "theme %s: bad colour '%.40s' for %s (use 0-255 or #rrggbb)",
                     name, eq + 1, w);
            return false;
        }
        if (!set_part(out, w, color)) {
            snprintf(err, errsz, "theme %s: unknown part '%.40s' (light, dark, white, black, "
                     "last, hint, check, text, accent, alert)", name, w);
            return false;
        }
        parts++;
    }
    if (!parts) {
        snprintf(err, errsz, "theme %s: no colours given (e.g. light=#eeeed2 dark=#769656)", name);
        return false;
    }
    return true;
}

bool ui_pieces_select(const char *name) {
    for (int i = 0; i < UI_PIECES_NB; i++)
        if (!strcasecmp(name, piece_names[i])) {
            themes.pieces = (UiPieces)i;
            return true;
        }
    return false;
}

UiPieces ui_pieces_current(void) {
    return themes.pieces;
}

const char *ui_pieces_name(UiPieces p) {
    return p < UI_PIECES_NB ? piece_names[p] : "";
}

static const char *pieces_name_at(int i) {
    return piece_names[i];
}

void ui_pieces_list(char *buf, size_t bufsz) {
    list_names(buf, bufsz, UI_PIECES_NB, pieces_name_at, piece_names[themes.pieces]);
}

// The xterm palette: 16 system colours, a 6x6x6 cube, 24 greys.
static int palette_rgb(int index) {
    static const int system[16] = { 0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd,
                                    0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
                                    0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff };
    static const int level[6] = { 0, 95, 135, 175, 215, 255 };
    if (index < 16)
        return system[index];
    if (index >= 232) {
        int g = 8 + 10 * (index - 232);
        return g << 16 | g << 8 | g;
    }
    int i = index - 16;
    return level[i / 36] << 16 | level[i / 6 % 6] << 8 | level[i % 6];
}

int ui_color_rgb(int color) {
    return color & UI_RGB ? color & 0xffffff : palette_rgb(color & 255);
}

static int distance(int a, int b) {
    int dr = (a >> 16 & 255) - (b >> 16 & 255), dg = (a >> 8 & 255) - (b >> 8 & 255),
        db = (a & 255) - (b & 255);
    return dr * dr + dg * dg + db * db;
}

int ui_color_nearest256(int rgb) {
    rgb &= 0xffffff;
    int best = 16;
    for (int i = 17; i < 256; i++)
        if (distance(palette_rgb(i), rgb) < distance(palette_rgb(best), rgb))
            best = i;
    return best;
}

short ui_color_nearest8(int color) {
    int rgb = color & UI_RGB ? color & 0xffffff : palette_rgb(color & 255);
    if (!(color & UI_RGB) && color < 16)
        return (short)(color % 8);
    short best = 0;
    for (short i = 1; i < 8; i++)
        if (distance(palette_rgb(i), rgb) < distance(palette_rgb(best), rgb))
            best = i;
    return best;
}
