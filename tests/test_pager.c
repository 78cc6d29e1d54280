// SPDX-License-Identifier: GPL-3.0-or-later
// Headless tests of the pager (ui/pager.c): wrapping by display width (wide
// characters, hanging indents, words longer than a row), scrolling and its
// bounds, closing keys, re-wrapping on a resize, and what it draws; and the
// status line's "more" mark for a message it has to cut.
#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curses.h>

#include "engine/fen.h"
#include "tests/screen_dump.h"
#include "ui/pager.h"
#include "ui/screen.h"
#include "ui/view.h"

enum { DUMP_MAX = 1 << 16, KEY_ESC = 27 };

static char dump_text[DUMP_MAX];
static UiPager pager;

static void open_screen(int cols, int lines, bool ascii, bool no_color) {
    ui_screen_close();
    UiOptions o = { .ascii = ascii,
                    .no_color = no_color,
                    .headless = true,
                    .headless_cols = cols,
                    .headless_lines = lines };
    char err[256] = "";
    cr_assert(ui_screen_open(&o, err, sizeof err), "open failed: %s", err);
}

static void setup(void) {
    board_init_tables();
    unsetenv("NO_COLOR");
    cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"), "the C.UTF-8 locale is needed");
    // The layout measures characters as the screen shows them.
    open_screen(80, 24, false, false);
}

static void teardown(void) {
    ui_pager_close(&pager);
    ui_screen_close();
}

TestSuite(pager, .init = setup, .fini = teardown);

static const char *dump(void) { return test_screen_dump(dump_text, sizeof dump_text); }

// Row i of the layout as a string (without its indent).
static const char *row(int i) {
    static char buf[1024];
    const UiPagerLine *l = ui_pager_line(&pager, i);
    cr_assert_not_null(l, "no row %d (of %d)", i, ui_pager_count(&pager));
    cr_assert_lt(l->len, sizeof buf);
    memcpy(buf, ui_pager_text(&pager) + l->off, l->len);
    buf[l->len] = '\0';
    return buf;
}

// Display columns of a UTF-8 string (the test's own count: CJK is two).
static int columns(const char *s) {
    int cols = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        if (*p < 0x80) {
            cols++;
            p++;
        } else if (*p >= 0xE3 && *p <= 0xE9) {
            cols += 2; // CJK, the wide characters of the tests
            p += 3;
        } else {
            cols++;
            p += (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : 4;
        }
    }
    return cols;
}

static void open_text(const char *text, int width, int rows) {
    cr_assert(ui_pager_open(&pager, "Test", text, false));
    cr_assert(ui_pager_is_open(&pager));
    cr_assert(ui_pager_layout(&pager, width, rows));
}

// Every row fits the width with its indent, and the rows hold every word of
// the text in order.
static void assert_wrapped(const char *text, int width) {
    char joined[4096] = "", words[4096] = "";
    for (int i = 0; i < ui_pager_count(&pager); i++) {
        const UiPagerLine *l = ui_pager_line(&pager, i);
        cr_assert_leq(l->indent + columns(row(i)), width, "row %d '%s' (indent %d) is wider than %d",
                      i, row(i), l->indent, width);
        strcat(joined, row(i));
        strcat(joined, " ");
    }
    // Compare with blanks folded: wrapping only moves the breaks.
    char *w = words;
    for (const char *p = text; *p; p++)
        if (*p != ' ' && *p != '\n')
            *w++ = *p;
    *w = '\0';
    char *j = joined, *k = joined;
    for (; *j; j++)
        if (*j != ' ')
            *k++ = *j;
    *k = '\0';
    cr_assert_str_eq(joined, words);
}

Test(pager, wraps_words_at_the_width) {
    const char *text = "The quick brown fox jumps over the lazy dog and keeps on running "
                       "until the end of this rather long line of text.";
    open_text(text, 20, 10);
    cr_assert_gt(ui_pager_count(&pager), 3);
    assert_wrapped(text, 20);
    cr_assert_str_eq(row(0), "The quick brown fox");
    cr_assert_str_eq(row(1), "jumps over the lazy");
    // No row starts or ends with a blank.
    for (int i = 0; i < ui_pager_count(&pager); i++) {
        const char *r = row(i);
        cr_assert(r[0] != ' ' && r[strlen(r) - 1] != ' ', "row %d '%s'", i, r);
    }
}

Test(pager, keeps_lines_and_empty_lines) {
    open_text("one\n\ntwo\nthree\n", 40, 10);
    cr_assert_eq(ui_pager_count(&pager), 4, "%d rows", ui_pager_count(&pager));
    cr_assert_str_eq(row(0), "one");
    cr_assert_str_eq(row(1), "");
    cr_assert_str_eq(row(2), "two");
    cr_assert_str_eq(row(3), "three"); // the final newline adds no row
}

Test(pager, wide_characters_take_two_columns) {
    // Ten CJK characters (20 columns) in rows of 7 columns: 3 per row, never
    // split inside a character.
    const char *text = "漢字漢字漢字漢字漢字";
    open_text(text, 7, 10);
    cr_assert_eq(ui_pager_count(&pager), 4, "%d rows", ui_pager_count(&pager));
    for (int i = 0; i < 3; i++)
        cr_assert_eq(columns(row(i)), 6, "row %d '%s'", i, row(i));
    cr_assert_str_eq(row(3), "字");
    assert_wrapped(text, 7);
    // Mixed with words, and accented letters one column each.
    const char *mixed = "Réti 漢字 ½-½ naïve café 字漢 déjà vu";
    open_text(mixed, 9, 10);
    assert_wrapped(mixed, 9);
    cr_assert_str_eq(row(0), "Réti 漢字");
}

Test(pager, a_word_longer_than_a_row_is_broken) {
    const char *text = "see /a/very/long/path/that/does/not/fit/anywhere/at/all.pgn now";
    open_text(text, 16, 10);
    assert_wrapped(text, 16);
    cr_assert_str_eq(row(0), "see");
    cr_assert_eq(columns(row(1)), 16, "'%s'", row(1));
}

Test(pager, continued_rows_hang_under_the_text) {
    // A table row ("usage    summary") continues under its second column, a
    // log line ("  12  Error: ...") under its text.
    open_text("analyze [Ns]     analyse the position until stop or for N seconds\n"
              "  12  Error: a message long enough to need a second row",
              40, 10);
    cr_assert_eq(ui_pager_line(&pager, 0)->indent, 0);
    cr_assert_eq(ui_pager_line(&pager, 1)->indent, 17, "indent %d", ui_pager_line(&pager, 1)->indent);
    int log = 2;
    while (ui_pager_line(&pager, log)->indent != 0)
        log++;
    cr_assert_str_eq(row(log), "  12  Error: a message long enough to");
    cr_assert_eq(ui_pager_line(&pager, log + 1)->indent, 6);
    cr_assert_str_eq(row(log + 1), "need a second row");
}

Test(pager, tabs_and_control_characters_become_spaces) {
    open_text("a\tb\x01" "c\r", 40, 5);
    cr_assert_str_eq(row(0), "a b c");
}

// 57 numbered lines.
static void open_numbered(int width, int rows, bool at_end) {
    char text[2048] = "";
    for (int i = 1; i <= 57; i++) {
        char line[32];
        snprintf(line, sizeof line, "line number %d\n", i);
        strcat(text, line);
    }
    cr_assert(ui_pager_open(&pager, "Numbers", text, at_end));
    cr_assert(ui_pager_layout(&pager, width, rows));
}

static void assert_position(const char *want) {
    char pos[64];
    ui_pager_position(&pager, pos, sizeof pos);
    cr_assert_str_eq(pos, want);
}

Test(pager, scrolls_within_bounds) {
    open_numbered(40, 20, false);
    cr_assert_eq(ui_pager_count(&pager), 57);
    assert_position("lines 1-20 of 57");
    cr_assert_eq(ui_pager_key(&pager, KEY_UP), UI_PAGER_MOVED);
    cr_assert_eq(ui_pager_top(&pager), 0, "nothing above the first row");
    cr_assert_eq(ui_pager_key(&pager, KEY_DOWN), UI_PAGER_MOVED);
    cr_assert_eq(ui_pager_top(&pager), 1);
    cr_assert_eq(ui_pager_key(&pager, KEY_NPAGE), UI_PAGER_MOVED);
    cr_assert_eq(ui_pager_top(&pager), 21);
    assert_position("lines 22-41 of 57");
    ui_pager_key(&pager, ' ');
    cr_assert_eq(ui_pager_top(&pager), 37, "the last page ends at the last row");
    assert_position("lines 38-57 of 57");
    ui_pager_key(&pager, KEY_NPAGE);
    ui_pager_key(&pager, KEY_DOWN);
    cr_assert_eq(ui_pager_top(&pager), 37, "nothing below the last row");
    ui_pager_key(&pager, KEY_PPAGE);
    cr_assert_eq(ui_pager_top(&pager), 17);
    ui_pager_key(&pager, KEY_HOME);
    cr_assert_eq(ui_pager_top(&pager), 0);
    ui_pager_key(&pager, KEY_END);
    cr_assert_eq(ui_pager_top(&pager), 37);
    ui_pager_key(&pager, KEY_PPAGE);
    ui_pager_key(&pager, KEY_PPAGE);
    ui_pager_key(&pager, KEY_PPAGE);
    cr_assert_eq(ui_pager_top(&pager), 0);
    // Keys that mean nothing here change nothing (and are not passed on).
    cr_assert_eq(ui_pager_key(&pager, 'x'), UI_PAGER_IGNORED);
    cr_assert_eq(ui_pager_key(&pager, KEY_LEFT), UI_PAGER_IGNORED);
    cr_assert_eq(ui_pager_top(&pager), 0);
    cr_assert(ui_pager_is_open(&pager));
}

Test(pager, the_mouse_wheel_scrolls_three_rows) {
    open_numbered(40, 20, false);
    cr_assert_eq(ui_pager_key(&pager, UI_KEY_WHEEL_DOWN), UI_PAGER_MOVED);
    cr_assert_eq(ui_pager_top(&pager), 3);
    assert_position("lines 4-23 of 57");
    ui_pager_key(&pager, UI_KEY_WHEEL_DOWN);
    cr_assert_eq(ui_pager_top(&pager), 6);
    cr_assert_eq(ui_pager_key(&pager, UI_KEY_WHEEL_UP), UI_PAGER_MOVED);
    cr_assert_eq(ui_pager_top(&pager), 3);
    ui_pager_key(&pager, UI_KEY_WHEEL_UP);
    ui_pager_key(&pager, UI_KEY_WHEEL_UP);
    cr_assert_eq(ui_pager_top(&pager), 0, "nothing above the first row");
    for (int i = 0; i < 30; i++)
        ui_pager_key(&pager, UI_KEY_WHEEL_DOWN);
    cr_assert_eq(ui_pager_top(&pager), 37, "nothing below the last row");
    cr_assert(ui_pager_is_open(&pager));
}

// Clicks: screen row y of a 22-row screen (title, 20 text rows, footer).
Test(pager, maps_screen_rows_to_wrapped_rows) {
    open_numbered(40, 20, false);
    cr_assert_eq(ui_pager_row_at(&pager, 22, 0), -1, "the title");
    cr_assert_eq(ui_pager_row_at(&pager, 22, 1), 0);
    cr_assert_eq(ui_pager_row_at(&pager, 22, 20), 19);
    cr_assert_eq(ui_pager_row_at(&pager, 22, 21), -1, "the footer");
    cr_assert_eq(ui_pager_row_at(&pager, 22, -1), -1);
    ui_pager_key(&pager, KEY_NPAGE);
    cr_assert_eq(ui_pager_row_at(&pager, 22, 1), 20, "the rows scrolled");
    ui_pager_key(&pager, KEY_END);
    cr_assert_eq(ui_pager_row_at(&pager, 22, 20), 56, "the last row");
    // Past the end of a short text there is no row.
    cr_assert(ui_pager_open(&pager, "", "one\ntwo", false));
    cr_assert(ui_pager_layout(&pager, 40, 20));
    cr_assert_eq(ui_pager_row_at(&pager, 22, 2), 1);
    cr_assert_eq(ui_pager_row_at(&pager, 22, 3), -1);
    ui_pager_close(&pager);
    cr_assert_eq(ui_pager_row_at(&pager, 22, 1), -1, "closed");
}

Test(pager, a_short_text_does_not_scroll) {
    cr_assert(ui_pager_open(&pager, "", "just one line", false));
    cr_assert(ui_pager_layout(&pager, 40, 20));
    assert_position("line 1 of 1");
    ui_pager_key(&pager, KEY_NPAGE);
    ui_pager_key(&pager, KEY_END);
    cr_assert_eq(ui_pager_top(&pager), 0);
}

Test(pager, q_and_esc_close) {
    open_numbered(40, 20, false);
    cr_assert_eq(ui_pager_key(&pager, 'q'), UI_PAGER_CLOSED);
    cr_assert_not(ui_pager_is_open(&pager));
    cr_assert_eq(ui_pager_key(&pager, 'q'), UI_PAGER_IGNORED, "closed: keys are not its own");
    open_numbered(40, 20, false);
    cr_assert_eq(ui_pager_key(&pager, KEY_ESC), UI_PAGER_CLOSED);
    cr_assert_not(ui_pager_is_open(&pager));
    open_numbered(40, 20, false);
    cr_assert_eq(ui_pager_key(&pager, 'Q'), UI_PAGER_CLOSED);
}

Test(pager, a_log_opens_at_its_end) {
    open_numbered(40, 20, true);
    cr_assert_eq(ui_pager_top(&pager), 37);
    assert_position("lines 38-57 of 57");
    // Later layouts keep the place (a resize does not jump back to the end).
    ui_pager_key(&pager, KEY_HOME);
    cr_assert(ui_pager_layout(&pager, 40, 20));
    cr_assert_eq(ui_pager_top(&pager), 0);
}

Test(pager, a_resize_rewraps_and_keeps_the_place) {
    char text[4096] = "";
    for (int i = 1; i <= 30; i++) {
        char line[128];
        snprintf(line, sizeof line, "paragraph %d has enough words to wrap on a narrow screen\n", i);
        strcat(text, line);
    }
    open_text(text, 80, 10);
    cr_assert_eq(ui_pager_count(&pager), 30);
    for (int i = 0; i < 12; i++)
        ui_pager_key(&pager, KEY_DOWN);
    cr_assert_str_eq(row(ui_pager_top(&pager)),
                     "paragraph 13 has enough words to wrap on a narrow screen");
    // Narrower: more rows, each within the new width, the same paragraph on top.
    cr_assert(ui_pager_layout(&pager, 20, 10));
    cr_assert_gt(ui_pager_count(&pager), 60);
    assert_wrapped(text, 20);
    cr_assert_str_eq(row(ui_pager_top(&pager)), "paragraph 13 has");
    // Wider again, and taller than the text: the top comes back within bounds.
    cr_assert(ui_pager_layout(&pager, 100, 40));
    cr_assert_eq(ui_pager_count(&pager), 30);
    cr_assert_eq(ui_pager_top(&pager), 0, "everything fits: top %d", ui_pager_top(&pager));
}

Test(pager, draws_title_rows_and_footer) {
    open_screen(80, 24, false, false);
    open_numbered(80, 22, false);
    ui_pager_draw(&pager);
    const char *s = dump();
    cr_assert_not_null(strstr(s, "Numbers"), "%s", s);
    cr_assert_not_null(strstr(s, "line number 1\n"), "%s", s);
    cr_assert_not_null(strstr(s, "line number 22\n"), "%s", s);
    cr_assert_null(strstr(s, "line number 23\n"), "%s", s);
    cr_assert_not_null(strstr(s, "lines 1-22 of 57"), "%s", s);
    cr_assert_not_null(strstr(s, "q or Esc: close"), "%s", s);
    // The footer is the last row: the command bar is not drawn over it.
    const char *last = s;
    for (int y = 0; y < 23; y++) {
        last = strchr(last, '\n');
        cr_assert_not_null(last);
        last++;
    }
    cr_assert_eq(strncmp(last, " lines 1-22 of 57", 17), 0, "last row: %s", last);
}

Test(pager, draws_in_ascii_and_monochrome_and_follows_a_resize) {
    open_screen(60, 20, true, true);
    const char *text = "Réti's opening: 1. Nf3 d5 2. c4, a long comment about it that needs "
                       "several rows at sixty columns, and more words after that.";
    cr_assert(ui_pager_open(&pager, "Comment", text, false));
    ui_pager_draw(&pager);
    const char *s = dump();
    cr_assert_not_null(strstr(s, "-- Comment --"), "ASCII rule:\n%s", s);
    cr_assert_not_null(strstr(s, "Réti's opening"), "%s", s);
    cr_assert_not_null(strstr(s, "line"), "%s", s);
    // A narrower screen: the pager wraps again at the next draw.
    int before = ui_pager_count(&pager);
    open_screen(30, 20, true, true);
    ui_pager_draw(&pager);
    s = dump();
    cr_assert_gt(ui_pager_count(&pager), before);
    cr_assert_not_null(strstr(s, "lines 1-"), "%s", s);
    for (const char *p = s; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char line[256];
        memcpy(line, p, len < 255 ? len : 255);
        line[len < 255 ? len : 255] = '\0';
        cr_assert_leq(columns(line), 30, "'%s'", line);
        p = nl ? nl + 1 : p + len;
    }
}

Test(pager, a_cut_status_message_says_more) {
    Board b;
    board_set_start(&b);
    UiView v;
    memset(&v, 0, sizeof v);
    v.board = &b;
    v.last_move = v.hint = v.premove = MOVE_NONE;
    snprintf(v.status, sizeof v.status, "%s",
             "cannot open /a/long/directory/name/that/goes/on/and/on/and/on/and/on/file.pgn: "
             "No such file or directory");
    v.status_is_error = true;
    v.status_more = "F2: more";
    ui_view_draw(&v);
    const char *s = dump();
    cr_assert_not_null(strstr(s, "F2: more"), "%s", s);
    cr_assert_null(strstr(s, "No such file"), "%s", s);
    // A short one says nothing more, unless it was cut already (a first line).
    snprintf(v.status, sizeof v.status, "Nothing to undo.  [play]");
    ui_view_draw(&v);
    s = dump();
    cr_assert_null(strstr(s, "F2: more"), "%s", s);
    v.status_cut = true;
    ui_view_draw(&v);
    s = dump();
    cr_assert_not_null(strstr(s, "Nothing to undo."), "%s", s);
    cr_assert_not_null(strstr(s, "F2: more"), "%s", s);
}
