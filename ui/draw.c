// SPDX-License-Identifier: GPL-3.0-or-later
// Width-aware text drawing for the panes: UTF-8 decoding of our own (so the
// result does not depend on the C library's locale tables) and clipping.
#include "ui/draw.h"

#include <string.h>

#include "ui/theme.h"
#include "ui/view.h"

enum { TEXT_MAX = 1024 }; // longest run of characters drawn in one call

static bool locale_utf8;

void draw_set_utf8(bool utf8) {
    locale_utf8 = utf8;
}

bool draw_utf8(void) {
    return locale_utf8;
}

int draw_decode(const char *s, wchar_t *ch) {
    const unsigned char *u = (const unsigned char *)s;
    int len;
    unsigned long cp;
    if (u[0] < 0x80) {
        *ch = u[0];
        return 1;
    } else if ((u[0] & 0xE0) == 0xC0) {
        len = 2, cp = u[0] & 0x1F;
    } else if ((u[0] & 0xF0) == 0xE0) {
        len = 3, cp = u[0] & 0x0F;
    } else if ((u[0] & 0xF8) == 0xF0) {
        len = 4, cp = u[0] & 0x07;
    } else {
        *ch = 0xFFFD;
        return 1;
    }
    for (int i = 1; i < len; i++) {
        if ((u[i] & 0xC0) != 0x80) {
            *ch = 0xFFFD;
            return i; // also stops at the NUL
        }
        cp = (cp << 6) | (u[i] & 0x3F);
    }
    *ch = (wchar_t)cp;
    return len;
}

int draw_char_width(wchar_t ch) {
    if (ch < 0x80)
        return 1;
    int w = wcwidth(ch);
    return w < 0 ? 1 : w;
}

int draw_width(const char *s) {
    int cols = 0;
    while (*s) {
        wchar_t ch;
        s += draw_decode(s, &ch);
        cols += draw_char_width(ch);
    }
    return cols;
}

size_t draw_boundary(const char *s, size_t n) {
    // Back over at most three continuation bytes to the start of the
    // character that s[n] belongs to; bytes that are not UTF-8 are cut as is.
    size_t k = n;
    while (k > 0 && n - k < 3 && ((unsigned char)s[k] & 0xC0) == 0x80)
        k--;
    return ((unsigned char)s[k] & 0xC0) == 0x80 ? n : k;
}

size_t ui_text_copy(char *dst, size_t dstsz, const char *src) {
    if (dstsz == 0)
        return 0;
    size_t n = strlen(src);
    if (n >= dstsz)
        n = draw_boundary(src, dstsz - 1);
    memmove(dst, src, n);
    dst[n] = '\0';
    return n;
}

size_t ui_text_fit(const char *s, int cols) {
    size_t n = 0;
    int used = 0;
    while (s[n]) {
        wchar_t ch;
        int len = draw_decode(s + n, &ch);
        used += draw_char_width(ch);
        if (used > cols)
            break;
        n += (size_t)len;
    }
    return n;
}

// What can actually be shown for ch: control characters and, outside a
// UTF-8 locale, anything non-ASCII become '?'.
static wchar_t showable(wchar_t ch) {
    if (ch < 0x20 || ch == 0x7F)
        return L'?';
    if (ch >= 0x80 && (!locale_utf8 || draw_char_width(ch) == 0))
        return L'?';
    return ch;
}

int draw_text(WINDOW *w, int y, int x, const char *s, int maxcols, attr_t attr, bool ellipsis) {
    if (!w || maxcols <= 0)
        return 0;
    wchar_t buf[TEXT_MAX + 4];
    int n = 0, cols = 0;
    bool cut = false;
    while (*s && n < TEXT_MAX) {
        wchar_t ch;
        s += draw_decode(s, &ch);
        ch = showable(ch);
        int cw = draw_char_width(ch);
        if (cols + cw > maxcols) {
            cut = true;
            break;
        }
        buf[n++] = ch;
        cols += cw;
    }
    if (cut && ellipsis) {
        // Make room for the ellipsis by dropping characters from the end.
        int need = locale_utf8 ? 1 : 3;
        while (n > 0 && cols + need > maxcols)
            cols -= draw_char_width(buf[--n]);
        if (cols + need <= maxcols) {
            for (int i = 0; i < need; i++)
                buf[n++] = locale_utf8 ? 0x2026 : L'.';
            cols += need;
        }
    }
    buf[n] = L'\0';
    theme_set(w, attr);
    mvwaddnwstr(w, y, x, buf, n);
    theme_set(w, A_NORMAL);
    return cols;
}

void draw_fill(WINDOW *w, int y, int x, int n, wchar_t ch, attr_t attr) {
    for (int i = 0; i < n; i++)
        theme_put_wch(w, y, x + i, ch, attr);
}

void draw_rule(WINDOW *w, int y, const char *title, attr_t attr) {
    int width = getmaxx(w);
    wchar_t line = theme_unicode() ? 0x2500 : L'-';
    draw_fill(w, y, 0, width, line, attr);
    if (title && *title) {
        // "── Moves ─────": the title sits after a short lead-in.
        enum { LEAD = 2 };
        int x = LEAD;
        if (x + 2 < width) {
            x += draw_text(w, y, x, " ", width - x, attr, false);
            x += draw_text(w, y, x, title, width - x - 1, attr | A_BOLD, true);
            draw_text(w, y, x, " ", width - x, attr, false);
        }
    }
}
