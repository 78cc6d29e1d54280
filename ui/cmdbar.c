// SPDX-License-Identifier: GPL-3.0-or-later
// The command bar: GNU readline in callback mode. Curses owns the terminal
// and the keyboard; readline only sees the keys handed to ui_cmdbar_feed
// (through rl_getc_function) and draws through rl_redisplay_function into
// the command window, so it never reads or writes the terminal itself.
#include "ui/cmdbar.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "ui/draw.h"
#include "ui/layout.h"
#include "ui/screen.h"
#include "ui/theme.h"
#include "ui/view.h"

enum {
    HISTORY_MAX = 1000,
    WORDS_MAX = 512, // completion candidates asked of the caller
    MESSAGE_MAX = 512,
    NOTE_MAX = 1024,
    LINE_CELLS_MAX = 2048, // characters of prompt and line laid out for display
    KEY_DEL = 127,         // what readline rubs out with
};

static struct {
    bool open;
    CmdbarLineFn on_line;
    CmdbarWordsFn words;
    const char *const *file_commands;
    void *ctx;
    char *history_path;
    char *prompt;
    int key; // the key readline reads next
    bool have_key;
    char message[MESSAGE_MAX]; // shown instead of the prompt until the next key
    bool note_shown;           // a completion list is on the status line
    int hscroll;               // first display column shown
    const char *cands[WORDS_MAX];
    int ncands;
} bar;

// Readline writes nothing we want on the terminal and reads only through
// the hook below; these keep it away from the real tty. Kept open for the
// life of the process since readline may touch them at any time.
static FILE *null_in, *null_out;

static int getc_hook(FILE *f) {
    (void)f;
    if (!bar.have_key)
        return EOF; // not reached: readline reads once per fed key
    bar.have_key = false;
    return bar.key;
}

// Tells readline whether more of a key sequence is waiting: it never is,
// since keys come one call at a time, so a lone Escape is not held back.
static int input_available_hook(void) {
    return bar.have_key;
}

// One cell of the displayed text: a character and the byte offset of the
// line it came from (-1 for the prompt).
typedef struct Cell {
    wchar_t ch;
    int col, width, offset;
} Cell;

static int layout_text(const char *s, int offset_base, Cell *cells, int n, int *col) {
    for (const char *p = s; *p && n < LINE_CELLS_MAX - 1;) {
        wchar_t ch;
        int len = draw_decode(p, &ch);
        if (ch < 0x20 || ch == 0x7F) {
            // A control character shows as ^X.
            cells[n++] = (Cell){ L'^', *col, 1, offset_base < 0 ? -1 : offset_base + (int)(p - s) };
            cells[n++] = (Cell){ ch == 0x7F ? L'?' : ch + L'@', *col + 1, 1, -1 };
            *col += 2;
        } else {
            if (ch >= 0x80 && !draw_utf8())
                ch = L'?';
            int w = draw_char_width(ch);
            cells[n++] = (Cell){ ch, *col, w, offset_base < 0 ? -1 : offset_base + (int)(p - s) };
            *col += w;
        }
        p += len;
    }
    return n;
}

static void redisplay_hook(void) {
    WINDOW *w = ui_layout()->cmd;
    if (!bar.open || !w || !ui_screen_is_open())
        return;
    werase(w);
    int width = getmaxx(w);
    if (bar.message[0]) {
        int x = draw_text(w, 0, 0, bar.message, width, theme_role_attr(ROLE_TITLE), true);
        wmove(w, 0, x < width ? x : width - 1);
        wnoutrefresh(w);
        return;
    }
    static Cell cells[LINE_CELLS_MAX];
    int col = 0;
    const char *prompt = rl_display_prompt ? rl_display_prompt : bar.prompt ? bar.prompt : "";
    int n = layout_text(prompt, -1, cells, 0, &col);
    int prompt_cols = col;
    int first_line_cell = n;
    n = layout_text(rl_line_buffer ? rl_line_buffer : "", 0, cells, n, &col);
    int total = col;
    // The cursor sits on the character at byte rl_point, or after the text.
    int cursor = total;
    for (int i = first_line_cell; i < n; i++)
        if (cells[i].offset >= rl_point) {
            cursor = cells[i].col;
            break;
        }
    if (cursor < prompt_cols)
        cursor = prompt_cols;
    // Scroll sideways by a quarter of the width at a time to keep the cursor
    // in view; come back when the text gets short again.
    int step = width / 4 > 0 ? width / 4 : 1;
    if (cursor - bar.hscroll >= width)
        bar.hscroll = cursor - width + step;
    if (cursor < bar.hscroll)
        bar.hscroll = cursor - step;
    if (total + 1 - bar.hscroll < width)
        bar.hscroll = total + 1 - width;
    if (bar.hscroll < 0 || total < width)
        bar.hscroll = 0;
    for (int i = 0; i < n; i++) {
        int x = cells[i].col - bar.hscroll;
        if (x >= 0 && x + cells[i].width <= width)
            theme_put_wch(w, 0, x, cells[i].ch, A_NORMAL);
    }
    if (bar.hscroll > 0)
        theme_put_wch(w, 0, 0, L'<', theme_role_attr(ROLE_DIM)); // more to the left
    if (total - bar.hscroll > width && cursor - bar.hscroll < width - 1)
        theme_put_wch(w, 0, width - 1, L'>', theme_role_attr(ROLE_DIM));
    wmove(w, 0, cursor - bar.hscroll);
    wnoutrefresh(w);
}

static void line_handler(char *line) {
    if (!line) {
        if (bar.on_line)
            bar.on_line(NULL, bar.ctx);
        return;
    }
    // Completion leaves a space after the word; the caller gets the line
    // without trailing blanks.
    size_t len = strlen(line);
    while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
        line[--len] = '\0';
    if (*line)
        add_history(line);
    bar.hscroll = 0;
    if (bar.on_line)
        bar.on_line(line, bar.ctx);
    free(line);
}

// Readline's completion generator over the caller's words: exact-case
// prefixes (moves are case-sensitive: "b" is a pawn, "B" a bishop); if none
// match, lower-case words (commands) match regardless of case.
static char *word_generator(const char *text, int state) {
    static int next;
    static bool fold;
    size_t len = strlen(text);
    if (state == 0) {
        next = 0;
        fold = true;
        for (int i = 0; i < bar.ncands; i++)
            if (bar.cands[i] && strncmp(bar.cands[i], text, len) == 0)
                fold = false;
    }
    while (next < bar.ncands) {
        const char *w = bar.cands[next++];
        if (!w)
            continue;
        if (!fold && strncmp(w, text, len) == 0)
            return strdup(w);
        if (fold && strncasecmp(w, text, len) == 0) {
            bool lower = true;
            for (const char *p = w; *p; p++)
                if (*p >= 'A' && *p <= 'Z')
                    lower = false;
            if (lower)
                return strdup(w);
        }
    }
    return NULL;
}

// True when the first word of the line is a command taking a file name and
// the word being completed comes after it.
static bool completing_file_name(int start) {
    if (!bar.file_commands || !rl_line_buffer)
        return false;
    const char *p = rl_line_buffer;
    while (*p == ' ')
        p++;
    const char *end = p;
    while (*end && *end != ' ')
        end++;
    if ((int)(end - rl_line_buffer) >= start)
        return false;
    size_t len = (size_t)(end - p);
    for (const char *const *c = bar.file_commands; *c; c++)
        if (strlen(*c) == len && strncasecmp(*c, p, len) == 0)
            return true;
    return false;
}

static char **complete_hook(const char *text, int start, int end) {
    (void)end;
    rl_attempted_completion_over = 1; // no fallback to file names elsewhere
    if (completing_file_name(start))
        return rl_completion_matches(text, rl_filename_completion_function);
    bar.ncands = 0;
    if (bar.words) {
        int n = bar.words(bar.cands, WORDS_MAX, bar.ctx);
        bar.ncands = n < 0 ? 0 : n > WORDS_MAX ? WORDS_MAX : n;
    }
    return rl_completion_matches(text, word_generator);
}

// Lists the matches on the status line instead of printing them below the
// prompt; file names are shown without their directory.
static void display_matches_hook(char **matches, int num, int max_length) {
    (void)max_length;
    char note[NOTE_MAX];
    size_t len = 0;
    note[0] = '\0';
    for (int i = 1; i <= num && len + 2 < sizeof note; i++) {
        const char *m = matches[i];
        const char *slash = strrchr(m, '/');
        if (slash && slash[1])
            m = slash + 1;
        if (i > 1)
            note[len++] = ' ';
        // A name that does not fit is cut between characters.
        len += ui_text_copy(note + len, sizeof note - len, m);
    }
    ui_view_set_note(note);
    bar.note_shown = true;
    redisplay_hook();
}

bool ui_cmdbar_open(const char *prompt, const char *history_path, CmdbarLineFn on_line,
                    CmdbarWordsFn words, const char *const *file_commands, void *ctx) {
    if (bar.open)
        ui_cmdbar_close();
    if (!null_in)
        null_in = fopen("/dev/null", "r");
    if (!null_out)
        null_out = fopen("/dev/null", "w");
    if (!null_in || !null_out)
        return false;
    memset(&bar, 0, sizeof bar);
    bar.prompt = strdup(prompt ? prompt : "");
    bar.history_path = history_path ? strdup(history_path) : NULL;
    if (!bar.prompt || (history_path && !bar.history_path)) {
        free(bar.prompt);
        free(bar.history_path);
        bar.prompt = bar.history_path = NULL;
        return false;
    }
    bar.on_line = on_line;
    bar.words = words;
    bar.file_commands = file_commands;
    bar.ctx = ctx;

    rl_instream = null_in;
    rl_outstream = null_out;
    rl_readline_name = "patzer";
    // Curses handles signals, the terminal modes and the size.
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
    rl_prep_term_function = NULL;
    rl_deprep_term_function = NULL;
    rl_getc_function = getc_hook;
    rl_input_available_hook = input_available_hook;
    rl_redisplay_function = redisplay_hook;
    rl_attempted_completion_function = complete_hook;
    rl_completion_display_matches_hook = display_matches_hook;
    // Only blanks separate words: "e8=Q" and "Qxf7#" are one word each.
    static char word_breaks[] = " \t";
    rl_completer_word_break_characters = word_breaks;
    if (rl_initialize() != 0)
        return false;
    // After rl_initialize, so an inputrc cannot undo them: list the matches
    // at the first Tab ("N<Tab>" shows the knight moves) and never beep.
    rl_variable_bind("show-all-if-ambiguous", "on");
    rl_variable_bind("bell-style", "none");

    using_history();
    stifle_history(HISTORY_MAX);
    if (bar.history_path)
        read_history(bar.history_path); // a first run has no file yet
    bar.open = true;
    rl_callback_handler_install(bar.prompt, line_handler);
    return true;
}

void ui_cmdbar_close(void) {
    if (!bar.open)
        return;
    rl_callback_handler_remove();
    bar.open = false;
    if (bar.history_path)
        write_history(bar.history_path); // failing to save history is not worth an error
    clear_history();
    if (bar.note_shown)
        ui_view_set_note(NULL);
    free(bar.history_path);
    free(bar.prompt);
    bar.history_path = bar.prompt = NULL;
    WINDOW *w = ui_layout()->cmd;
    if (w && ui_screen_is_open()) {
        werase(w);
        wnoutrefresh(w);
    }
}

// Curses function keys that mean something on the command line, done by
// calling the readline command directly.
static bool special_key(int key) {
    switch (key) {
    case KEY_LEFT: rl_backward_char(1, 0); return true;
    case KEY_RIGHT: rl_forward_char(1, 0); return true;
    case KEY_HOME: rl_beg_of_line(1, 0); return true;
    case KEY_END: rl_end_of_line(1, 0); return true;
    case KEY_DC:
        if (rl_point < rl_end)
            rl_delete(1, 0);
        return true;
    case KEY_UP: rl_get_previous_history(1, 0); return true;
    case KEY_DOWN: rl_get_next_history(1, 0); return true;
    default: return false;
    }
}

void ui_cmdbar_feed(int key) {
    if (!bar.open)
        return;
    bar.message[0] = '\0';
    if (bar.note_shown) {
        bar.note_shown = false;
        ui_view_set_note(NULL);
    }
    if (key == KEY_ENTER)
        key = '\n';
    else if (key == KEY_BACKSPACE)
        key = KEY_DEL;
    if (special_key(key)) {
        redisplay_hook();
        return;
    }
    if (key < 0 || key > 0xFF)
        return; // other function keys mean nothing here
    bar.key = key;
    bar.have_key = true;
    rl_callback_read_char();
    bar.have_key = false;
    redisplay_hook(); // also after on_line, which may have closed the bar
}

bool ui_cmdbar_is_empty(void) { return rl_end == 0; }

void ui_cmdbar_redraw(void) {
    redisplay_hook();
}

void ui_cmdbar_message(const char *text) {
    ui_text_copy(bar.message, sizeof bar.message, text ? text : "");
    redisplay_hook();
}
