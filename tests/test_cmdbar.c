// SPDX-License-Identifier: GPL-3.0-or-later
// Headless tests of the readline command bar: feed it keys and check the
// lines, completions, history and scrolling it produces.
#include "tests/ui_fixture.h"

TestSuite(cmdbar, .init = ui_fixture_setup, .fini = ui_fixture_teardown);

enum { LINES_MAX = 8 };

static struct {
    char lines[LINES_MAX][512];
    int count;
    int eofs;
} got;

static void on_line(const char *line, void *ctx) {
    (void)ctx;
    if (!line) {
        got.eofs++;
        return;
    }
    if (got.count < LINES_MAX)
        snprintf(got.lines[got.count++], sizeof got.lines[0], "%s", line);
}

static int words(const char **out, int max, void *ctx) {
    (void)ctx;
    static const char *const w[] = { "Nf3", "Nc3", "Nh3", "e4", "save", "load", "new" };
    int n = 0;
    for (size_t i = 0; i < sizeof w / sizeof w[0] && n < max; i++)
        out[n++] = w[i];
    return n;
}

static const char *const file_commands[] = { "save", "load", NULL };

static void open_bar(int cols, const char *history) {
    memset(&got, 0, sizeof got);
    open_screen(cols, 30, true, false);
    board_set_start(&board);
    UiView v;
    base_view(&v);
    ui_view_draw(&v);
    cr_assert(ui_cmdbar_open("> ", history, on_line, words, file_commands, NULL));
}

static void type(const char *s) {
    for (; *s; s++)
        ui_cmdbar_feed((unsigned char)*s);
}

static const char *last_row(const char *text) {
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == '\n')
        n--;
    while (n > 0 && text[n - 1] != '\n')
        n--;
    return text + n;
}

Test(cmdbar, enter_gives_line) {
    open_bar(100, NULL);
    type("e4");
    assert_shows(last_row(dump()), "> e4");
    type("\n");
    cr_assert_eq(got.count, 1);
    cr_assert_str_eq(got.lines[0], "e4");
    cr_assert_str_eq(last_row(dump()), ">\n");
    type("  \n"); // a blank line still reaches the caller
    cr_assert_eq(got.count, 2);
    cr_assert_str_eq(got.lines[1], "");
}

Test(cmdbar, editing_keys) {
    open_bar(100, NULL);
    type("e5");
    ui_cmdbar_feed(KEY_BACKSPACE);
    type("4");
    ui_cmdbar_feed(KEY_LEFT);
    ui_cmdbar_feed(KEY_LEFT);
    type("x");
    ui_cmdbar_feed(KEY_END);
    type("y");
    ui_cmdbar_feed(KEY_HOME);
    ui_cmdbar_feed(KEY_DC);
    ui_cmdbar_feed(KEY_ENTER);
    cr_assert_eq(got.count, 1);
    cr_assert_str_eq(got.lines[0], "e4y");
}

Test(cmdbar, ctrl_d_on_empty_line) {
    open_bar(100, NULL);
    ui_cmdbar_feed(4);
    cr_assert_eq(got.eofs, 1);
    cr_assert_eq(got.count, 0);
}

Test(cmdbar, completes_unique_prefix) {
    open_bar(100, NULL);
    type("Nf\t");
    assert_shows(last_row(dump()), "> Nf3");
    type("\n");
    cr_assert_eq(got.count, 1);
    cr_assert_str_eq(got.lines[0], "Nf3");
}

Test(cmdbar, lists_ambiguous_matches) {
    open_bar(100, NULL);
    type("N\t");
    const char *text = dump();
    assert_shows(text, "Nc3 Nf3 Nh3");
    cr_assert_null(strstr(text, "White to move"), "the list replaces the status");
    // The next key takes the list away again.
    type("h");
    text = dump();
    cr_assert_null(strstr(text, "Nc3 Nf3 Nh3"));
    assert_shows(text, "White to move");
    type("\t\n");
    cr_assert_str_eq(got.lines[0], "Nh3");
}

Test(cmdbar, list_survives_redraw) {
    open_bar(100, NULL);
    type("N\t");
    UiView v;
    base_view(&v);
    ui_view_draw(&v);
    ui_cmdbar_redraw();
    assert_shows(dump(), "Nc3 Nf3 Nh3");
}

Test(cmdbar, commands_fold_case) {
    open_bar(100, NULL);
    type("SA\t\n");
    cr_assert_str_eq(got.lines[0], "save");
}

Test(cmdbar, completes_file_names) {
    char dir[256];
    test_temp_dir(dir, sizeof dir, "patzer-ui-dir");
    char path[300];
    snprintf(path, sizeof path, "%s/game1.pgn", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fclose(f);
    open_bar(100, NULL);
    char line[300];
    snprintf(line, sizeof line, "save %s/ga\t\n", dir);
    type(line);
    remove(path);
    rmdir(dir);
    cr_assert_eq(got.count, 1);
    char want[320];
    snprintf(want, sizeof want, "save %s", path);
    cr_assert_str_eq(got.lines[0], want);
}

Test(cmdbar, history) {
    char dir[256];
    test_temp_dir(dir, sizeof dir, "patzer-ui-hist");
    char hist[300];
    snprintf(hist, sizeof hist, "%s/history", dir);
    open_bar(100, hist);
    type("e4\nNf3\n");
    ui_cmdbar_feed(KEY_UP);
    ui_cmdbar_feed(KEY_UP);
    type("\n");
    cr_assert_eq(got.count, 3);
    cr_assert_str_eq(got.lines[2], "e4");
    ui_cmdbar_close();
    ui_screen_close();
    // Saved on close and read back on open.
    open_bar(100, hist);
    ui_cmdbar_feed(KEY_UP);
    type("\n");
    cr_assert_str_eq(got.lines[0], "e4");
    ui_cmdbar_close();
    remove(hist);
    rmdir(dir);
}

Test(cmdbar, scrolls_long_lines) {
    open_bar(60, NULL);
    char line[200];
    for (int i = 0; i < 150; i++)
        line[i] = (char)('a' + i % 26);
    line[150] = '\0';
    type(line);
    const char *row = last_row(dump());
    cr_assert_eq(row[0], '<', "row: %s", row);
    cr_assert_not_null(strstr(row, "stu"), "row: %s", row); // the end of the line: ...rst
    for (int i = 0; i < 150; i++)
        ui_cmdbar_feed(KEY_LEFT);
    row = last_row(dump());
    cr_assert_not_null(strstr(row, "> abcdef"), "row: %s", row);
    type("\n");
    cr_assert_str_eq(got.lines[0], line);
}

Test(cmdbar, message_until_next_key) {
    open_bar(100, NULL);
    ui_cmdbar_message("Saved to game.pgn");
    assert_shows(last_row(dump()), "Saved to game.pgn");
    type("e");
    const char *row = last_row(dump());
    cr_assert_null(strstr(row, "Saved"));
    assert_shows(row, "> e");
}

Test(cmdbar, utf8_input) {
    open_bar(100, NULL);
    type("name J\xC3\xBCrgen\n");
    cr_assert_str_eq(got.lines[0], "name J\xC3\xBCrgen");
}

static void close_on_line(const char *line, void *ctx) {
    on_line(line, ctx);
    ui_cmdbar_close();
}

Test(cmdbar, closed_from_its_handler) {
    memset(&got, 0, sizeof got);
    open_screen(100, 30, true, false);
    cr_assert(ui_cmdbar_open("> ", NULL, close_on_line, words, file_commands, NULL));
    type("quit\n");
    cr_assert_eq(got.count, 1);
    cr_assert_str_eq(got.lines[0], "quit");
    type("e4\n"); // ignored once closed
    cr_assert_eq(got.count, 1);
    // And it opens again.
    cr_assert(ui_cmdbar_open("> ", NULL, on_line, words, file_commands, NULL));
    type("e4\n");
    cr_assert_eq(got.count, 2);
}

Test(cmdbar, long_utf8_message_is_cut_between_characters) {
    memset(&got, 0, sizeof got);
    open_screen(600, 30, false, false);
    board_set_start(&board);
    UiView v;
    base_view(&v);
    ui_view_draw(&v);
    cr_assert(ui_cmdbar_open("> ", NULL, on_line, words, file_commands, NULL));
    // Far longer than the message buffer (512 bytes), "½" all along: the
    // byte limit falls inside a character, the row holds whole ones.
    char text[2000];
    size_t n = 0;
    while (n + 2 < sizeof text) {
        text[n++] = '\xC2';
        text[n++] = '\xBD';
    }
    text[n] = '\0';
    ui_cmdbar_message(text);
    const char *row = last_row(dump());
    assert_shows(row, "\xC2\xBD\xC2\xBD");
    cr_assert_null(strstr(row, "\xEF\xBF\xBD"), "a broken character is shown:\n%s", row);
}
