// SPDX-License-Identifier: GPL-3.0-or-later
// The pager (see pager.h): wrapping by display columns, scrolling, drawing.
#include "ui/pager.h"

#include <ctype.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/layout.h"
#include "ui/screen.h"
#include "ui/theme.h"
#include "ui/view.h"

enum {
    KEY_ESC = 27,
    KEY_CTRL_B = 2,
    KEY_CTRL_F = 6,
    CHROME_ROWS = 2, // the title above the text and the footer below it
    LINES_MIN = 64,  // first allocation of wrapped rows
    WHEEL_ROWS = 3,  // rows a turn of the mouse wheel scrolls
};

// Columns a character takes as draw_text shows it: what it cannot show is
// one '?' (so the layout never runs wider than the drawing).
static int cell_width(wchar_t ch) {
    int w = draw_char_width(ch);
    if (ch >= 0x80 && (!draw_utf8() || w == 0))
        return 1;
    return w;
}

bool ui_pager_open(UiPager *p, const char *title, const char *text, bool at_end) {
    ui_pager_close(p);
    size_t n = strlen(text ? text : "");
    char *copy = malloc(n + 1);
    if (!copy)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)text[i];
        copy[i] = (c < 0x20 && c != '\n') || c == 0x7F ? ' ' : (char)c;
    }
    // A final newline ends the last line; it does not start an empty one.
    while (n > 0 && copy[n - 1] == '\n')
        n--;
    copy[n] = '\0';
    p->text = copy;
    ui_text_copy(p->title, sizeof p->title, title ? title : "");
    p->open = true;
    p->start_at_end = at_end;
    return true;
}

void ui_pager_open_rows(UiPager *p, const char *title, int count, UiPagerRowFn row, void *ctx) {
    ui_pager_close(p);
    p->row_fn = row;
    p->row_ctx = ctx;
    p->count = count > 0 ? count : 0;
    ui_text_copy(p->title, sizeof p->title, title ? title : "");
    p->open = true;
}

bool ui_pager_is_rows(const UiPager *p) {
    return p->open && p->row_fn;
}

void ui_pager_close(UiPager *p) {
    free(p->text);
    free(p->lines);
    memset(p, 0, sizeof *p);
}

bool ui_pager_is_open(const UiPager *p) {
    return p->open;
}

void ui_pager_leave_bar(UiPager *p, bool leave) {
    p->leave_bar = leave;
}

void ui_pager_set_note(UiPager *p, const char *note) {
    ui_text_copy(p->note, sizeof p->note, note ? note : "");
}

// Whether len bytes at row hold needle, ignoring ASCII case.
static bool holds(const char *row, size_t len, const char *needle) {
    size_t n = strlen(needle);
    for (size_t i = 0; n <= len && i <= len - n; i++) {
        size_t k = 0;
        while (k < n && tolower((unsigned char)row[i + k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == n)
            return true;
    }
    return false;
}

bool ui_pager_find(UiPager *p, const char *text) {
    if (!p->open || !text || !text[0] || p->count <= 0)
        return false;
    int max_top = p->count > p->rows ? p->count - p->rows : 0;
    for (int k = 1; k <= p->count; k++) {
        int i = (p->top + k) % p->count;
        bool found;
        if (p->row_fn) {
            char buf[4096];
            p->row_fn(p->row_ctx, i, p->width > 0 ? p->width : 80, buf, sizeof buf);
            found = holds(buf, strlen(buf), text);
        } else {
            const UiPagerLine *row = ui_pager_line(p, i);
            found = row && holds(p->text + row->off, row->len, text);
        }
        if (found) {
            p->top = i < max_top ? i : max_top; // the last page stays full
            return true;
        }
    }
    return false;
}

static bool push(UiPagerLine **lines, int *count, int *cap, size_t off, size_t len, int indent) {
    if (*count == *cap) {
        int ncap = *cap ? *cap * 2 : LINES_MIN;
        UiPagerLine *grown = realloc(*lines, (size_t)ncap * sizeof *grown);
        if (!grown)
            return false;
        *lines = grown;
        *cap = ncap;
    }
    (*lines)[(*count)++] = (UiPagerLine){ off, len, indent };
    return true;
}

// Where continued rows of a source line start: under the column after the
// first gap of two or more spaces ("usage    summary", "  12  message"), or
// under the line's own indentation; never past half the width.
static int hanging_indent(const char *s, size_t len, int width) {
    int col = 0, lead = 0;
    size_t i = 0;
    while (i < len && s[i] == ' ')
        i++, lead++;
    col = lead;
    int gap = -1;
    for (size_t run = 0; i < len;) {
        wchar_t ch;
        int bytes = draw_decode(s + i, &ch);
        if (ch == L' ') {
            run++;
        } else {
            if (run >= 2 && col - (int)run > lead) {
                gap = col;
                break;
            }
            run = 0;
        }
        col += cell_width(ch);
        i += (size_t)bytes;
    }
    int indent = gap >= 0 ? gap : lead;
    return indent <= width / 2 ? indent : 0;
}

// Wraps one source line (len bytes at s, which is text + base) into rows.
static bool wrap_line(const char *s, size_t len, size_t base, int width, UiPagerLine **lines,
                      int *count, int *cap) {
    int hang = hanging_indent(s, len, width);
    size_t start = 0;
    int indent = 0;
    for (;;) {
        // The longest run from start that fits; break after the last space.
        int cols = indent;
        size_t i = start, brk = 0;
        bool have_brk = false;
        while (i < len) {
            wchar_t ch;
            int bytes = draw_decode(s + i, &ch);
            int w = cell_width(ch);
            if (cols + w > width && i > start) {
                if (ch == L' ') { // the row ends right before a blank
                    brk = i;
                    have_brk = true;
                }
                break;
            }
            if (ch == L' ') {
                brk = i;
                have_brk = true;
            }
            cols += w;
            i += (size_t)bytes;
        }
        if (i >= len) {
            size_t end = len;
            while (end > start && s[end - 1] == ' ')
                end--;
            return push(lines, count, cap, base + start, end - start, indent);
        }
        size_t end = have_brk && brk > start ? brk : i, next = end;
        while (end > start && s[end - 1] == ' ')
            end--; // no trailing blanks on a row
        while (next < len && s[next] == ' ')
            next++; // nor leading ones on the next
        if (!push(lines, count, cap, base + start, end - start, indent))
            return false;
        if (next >= len)
            return true;
        start = next;
        indent = hang;
    }
}

bool ui_pager_layout(UiPager *p, int width, int rows) {
    if (!p->open)
        return false;
    if (width < 1)
        width = 1;
    if (rows < 1)
        rows = 1;
    if (!p->row_fn && (width != p->width || !p->lines)) {
        // The row at the top is found again by its place in the text.
        size_t anchor = p->lines && p->top < p->count ? p->lines[p->top].off : 0;
        UiPagerLine *lines = NULL;
        int count = 0, cap = 0;
        const char *t = p->text;
        for (size_t off = 0;;) {
            const char *nl = strchr(t + off, '\n');
            size_t len = nl ? (size_t)(nl - (t + off)) : strlen(t + off);
            if (!wrap_line(t + off, len, off, width, &lines, &count, &cap)) {
                free(lines);
                return false;
            }
            if (!nl)
                break;
            off += len + 1;
        }
        free(p->lines);
        p->lines = lines;
        p->count = count;
        p->cap = cap;
        p->top = 0;
        for (int i = 1; i < count && lines[i].off <= anchor; i++)
            p->top = i;
    }
    p->width = width;
    p->rows = rows;
    if (p->start_at_end) {
        p->top = p->count;
        p->start_at_end = false;
    }
    int max_top = p->count > rows ? p->count - rows : 0;
    if (p->top > max_top)
        p->top = max_top;
    if (p->top < 0)
        p->top = 0;
    return true;
}

int ui_pager_count(const UiPager *p) {
    return p->count;
}

int ui_pager_top(const UiPager *p) {
    return p->top;
}

const UiPagerLine *ui_pager_line(const UiPager *p, int i) {
    return i >= 0 && i < p->count && p->lines ? &p->lines[i] : NULL;
}

const char *ui_pager_text(const UiPager *p) {
    return p->text ? p->text : "";
}

void ui_pager_position(const UiPager *p, char *buf, size_t bufsz) {
    int first = p->count ? p->top + 1 : 0;
    int last = p->top + p->rows < p->count ? p->top + p->rows : p->count;
    if (first == last)
        snprintf(buf, bufsz, "line %d of %d", first, p->count);
    else
        snprintf(buf, bufsz, "lines %d-%d of %d", first, last, p->count);
}

UiPagerAction ui_pager_key(UiPager *p, int key) {
    if (!p->open)
        return UI_PAGER_IGNORED;
    int page = p->rows > 0 ? p->rows : 1;
    int max_top = p->count > p->rows ? p->count - p->rows : 0;
    int top = p->top;
    switch (key) {
    case 'q':
    case 'Q':
    case KEY_ESC:
        ui_pager_close(p);
        return UI_PAGER_CLOSED;
    case KEY_UP:
    case 'k':
        top--;
        break;
    case KEY_DOWN:
    case 'j':
    case '\n':
    case '\r':
    case KEY_ENTER:
        top++;
        break;
    case UI_KEY_WHEEL_UP:
        top -= WHEEL_ROWS;
        break;
    case UI_KEY_WHEEL_DOWN:
        top += WHEEL_ROWS;
        break;
    case KEY_PPAGE:
    case 'b':
    case KEY_CTRL_B:
        top -= page;
        break;
    case KEY_NPAGE:
    case ' ':
    case 'f':
    case KEY_CTRL_F:
        top += page;
        break;
    case KEY_HOME:
    case 'g':
        top = 0;
        break;
    case KEY_END:
    case 'G':
        top = max_top;
        break;
    default:
        return UI_PAGER_IGNORED;
    }
    p->top = top < 0 ? 0 : top > max_top ? max_top : top;
    return UI_PAGER_MOVED;
}

int ui_pager_row_at(const UiPager *p, int lines, int y) {
    int first = lines > CHROME_ROWS ? 1 : 0; // below the title when there is room for it
    int r = y - first;
    bool footer = lines > 1 && y >= lines - 1 - (p->leave_bar ? 1 : 0);
    if (!p->open || r < 0 || r >= p->rows || footer || p->top + r >= p->count)
        return -1;
    return p->top + r;
}

int ui_pager_screen_row_at(const UiPager *p, int y) {
    return ui_pager_row_at(p, ui_layout()->lines, y);
}

void ui_pager_draw(UiPager *p) {
    if (!p->open || !ui_screen_is_open())
        return;
    const UiLayout *l = ui_layout();
    int cols = l->cols, lines = l->lines;
    if (p->leave_bar && lines > CHROME_ROWS + 1)
        lines--; // the command bar's row, drawn by the command bar
    else
        p->leave_bar = false;
    if (cols < 1 || lines < 1)
        return;
    int text_rows = lines > CHROME_ROWS ? lines - CHROME_ROWS : 1;
    if (!ui_pager_layout(p, cols, text_rows))
        return; // out of memory: the last frame stays
    WINDOW *w = newwin(lines, cols, 0, 0);
    if (!w)
        return;
    leaveok(w, TRUE);
    werase(w);
    int y = 0;
    if (lines > CHROME_ROWS)
        draw_rule(w, y++, p->title[0] ? p->title : "patzer", theme_role_attr(ROLE_DIM));
    for (int r = 0; r < text_rows && y < lines; r++, y++) {
        if (p->row_fn) {
            if (p->top + r >= p->count)
                break;
            char buf[4096];
            p->row_fn(p->row_ctx, p->top + r, cols, buf, sizeof buf);
            draw_text(w, y, 0, buf, cols, theme_role_attr(ROLE_NORMAL), false);
            continue;
        }
        const UiPagerLine *row = ui_pager_line(p, p->top + r);
        if (!row)
            break;
        char buf[4096];
        size_t n = row->len < sizeof buf ? row->len : draw_boundary(p->text + row->off, sizeof buf - 1);
        memcpy(buf, p->text + row->off, n);
        buf[n] = '\0';
        draw_text(w, y, row->indent, buf, cols - row->indent, theme_role_attr(ROLE_NORMAL), false);
    }
    if (lines > 1) {
        char pos[64], footer[256];
        ui_pager_position(p, pos, sizeof pos);
        snprintf(footer, sizeof footer,
                 " %s%s%s   q or Esc: close   /: find   or type a command ", p->note, p->note[0] ? "   " : "", pos);
        draw_fill(w, lines - 1, 0, cols, L' ', A_REVERSE);
        draw_text(w, lines - 1, 0, footer, cols, A_REVERSE, true);
    }
    wnoutrefresh(w);
    delwin(w);
    if (!p->leave_bar)
        ui_screen_cover_frame();
}
