// SPDX-License-Identifier: GPL-3.0-or-later
// The plain line mode: the game's command language over a pipe, with the
// board printed as text after each move, so games can be scripted and
// positions analysed. Input is read in order as it arrives; a line waits
// only while the session finishes what the previous one asked (the engine's
// reply, a limited analysis, a review), and a "stop" line may cut that short.
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/term/frontend.h"
#include "src/util/text.h"

enum { POLL_MS = 50, INPUT_MAX = 1 << 16, LINE_MAX_LEN = 8192 };

typedef struct LineMode {
    Session *session;
    FILE *out;
    int width;        // of the game list's rows: COLUMNS, else 80
    char *start_text; // a text said while the session started (--pgn's list), owned
    int fd;
    bool eof;
    bool skipping;          // in the rest of a line longer than buf: dropped, never a line
    unsigned failures_said; // write failures already on stderr
    char buf[INPUT_MAX];
    size_t len;
} LineMode;

// SIGHUP or SIGTERM: the loop ends within a poll (50 ms), the changes to
// games of files are kept apart, and the program dies by the signal.
static volatile sig_atomic_t stop_signal;

// Ctrl-C typed at a terminal: someone is there to answer, so it is handled
// as the terminal game handles it (interrupt_typed), not as an end.
static volatile sig_atomic_t interrupted;

static void on_stop_signal(int sig) {
    stop_signal = sig;
}

static void on_interrupt(int sig) {
    (void)sig;
    interrupted = 1;
}

// SIGINT depends on who sends it. At a terminal it is a person's Ctrl-C,
// which must never lose work (the default action did, at once). Over a pipe
// it is the shell ending the whole pipeline, which asks nothing: it is
// SIGTERM's case. Ignored on entry (a background job of a script), it stays
// ignored, as the convention for SIGINT wants.
static void install_signals(bool at_terminal) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal; // no SA_RESTART: poll and read return at once
    sigemptyset(&sa.sa_mask);
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        return;
    sa.sa_handler = at_terminal ? on_interrupt : on_stop_signal;
    sigaction(SIGINT, &sa, NULL);
}

// Ctrl-C at a terminal: what the user waits for (the engine's reply, a hint,
// a review, the explorer's index) or watches (an analysis, which never makes
// the session busy) is stopped, as a "stop" line would; with nothing running
// it is quit, typed, which names changes not saved to a game of a file once,
// so that a second Ctrl-C leaves (as in the terminal game).
static void interrupt_typed(LineMode *lm) {
    interrupted = 0;
    Session *s = lm->session;
    bool running = session_busy(s) || session_mode(s) == SESSION_ANALYSE;
    session_handle_line(s, running ? "stop" : "quit", frontend_now_ms());
}

static void print_board(LineMode *lm) {
    const Game *g = session_game(lm->session);
    const Board *b = session_display_board(lm->session);
    static const char glyphs[] = "PpNnBbRrQqKk";
    bool flip = session_flipped(lm->session);
    for (int r = 0; r < 8; r++) {
        int rank = flip ? r : 7 - r;
        fprintf(lm->out, "%d ", rank + 1);
        for (int f = 0; f < 8; f++) {
            int file = flip ? 7 - f : f;
            Piece p = board_piece_on(b, make_square(file, rank));
            fprintf(lm->out, " %c", p == NO_PIECE ? '.' : glyphs[p]);
        }
        fputc('\n', lm->out);
    }
    fputs(flip ? "   h g f e d c b a\n" : "   a b c d e f g h\n", lm->out);
    int n = session_editing(lm->session) ? 0 : session_shown_ply(lm->session);
    if (n > 0) {
        const GameMove *last = game_move(g, n - 1);
        int ply_index = n - 1 + (game_start_side(g) == BLACK);
        int number = game_start_fullmove(g) + ply_index / 2;
        fprintf(lm->out, "Last move: %d.%s %s\n", number, ply_index % 2 ? ".." : "", last->san);
    }
    // The comments around the move shown, whole (a screen wraps them).
    const char *before, *after;
    session_comments(lm->session, &before, &after);
    if (before)
        fprintf(lm->out, "Comment before: %s\n", before);
    if (after)
        fprintf(lm->out, "Comment: %s\n", after);
    // While the resume question waits it is the status, said just before:
    // asked once.
    if (!session_asking(lm->session)) {
        char status[256];
        session_status(lm->session, status, sizeof status);
        fprintf(lm->out, "%s\n", status);
    }
    fflush(lm->out);
}

// A game that could not be saved is said on stderr too, where a script that
// reads the output for the moves still sees it (once per cause, as said).
static void report_failures(LineMode *lm) {
    unsigned n = session_write_failures(lm->session);
    if (n != lm->failures_said)
        fprintf(stderr, "patzer: %s\n", session_last_failure(lm->session));
    lm->failures_said = n;
}

// The game list, whole: its heading, every row that matches (the heading
// says how many follow, so a script knows where the list ends; `games TEXT`
// narrows it), then the hint.
static void print_game_list(LineMode *lm, const char *text) {
    const char *nl = strchr(text, '\n');
    fprintf(lm->out, "%.*s\n", (int)(nl ? nl - text : (long)strlen(text)), text);
    char row[1024];
    for (int i = 0, n = session_game_list_count(lm->session); i < n; i++) {
        session_game_list_row(lm->session, i, lm->width, row, sizeof row);
        fprintf(lm->out, "%s\n", row);
    }
    if (nl)
        fprintf(lm->out, "%s\n", nl + 1);
    fflush(lm->out);
}

static void on_message(MessageKind kind, const char *text, void *ctx) {
    LineMode *lm = ctx;
    if (kind == MSG_PROGRESS) { // beside the output, which scripts read
        fprintf(stderr, "%s\n", text);
        return;
    }
    if (kind == MSG_TEXT && !lm->session) {
        // The session is being made and cannot say yet whether this is its
        // game list: printed once it can (linemode_run).
        free(lm->start_text);
        lm->start_text = strdup(text);
        return;
    }
    if (kind == MSG_TEXT && session_is_game_list(lm->session, text)) {
        print_game_list(lm, text);
        return;
    }
    fprintf(lm->out, "%s%s\n", kind == MSG_ERROR ? "Error: " : "", text);
    fflush(lm->out);
}

static void on_changed(void *ctx) { print_board(ctx); }

// Takes the next complete line out of the buffer (a last line without a
// newline counts at end of input). False when there is none yet.
static bool take_line(LineMode *lm, char *line, size_t linesz) {
    while (lm->skipping && lm->len > 0) {
        char *end = memchr(lm->buf, '\n', lm->len);
        size_t drop = end ? (size_t)(end - lm->buf) + 1 : lm->len;
        memmove(lm->buf, lm->buf + drop, lm->len - drop);
        lm->len -= drop;
        lm->skipping = !end;
    }
    if (lm->skipping)
        return false;
    char *nl = memchr(lm->buf, '\n', lm->len);
    if (!nl && !(lm->eof && lm->len > 0) && lm->len < sizeof lm->buf)
        return false;
    // A full buffer without a line end: the line is cut here and its rest
    // dropped as it arrives (else the rest would run as lines of its own).
    lm->skipping = !nl && !lm->eof;
    size_t n = nl ? (size_t)(nl - lm->buf) : lm->len;
    size_t used = nl ? n + 1 : n;
    while (n > 0 && (lm->buf[n - 1] == '\r' || lm->buf[n - 1] == '\n'))
        n--;
    if (n >= linesz)
        n = linesz - 1; // an overlong line is cut; the command reports it
    memcpy(line, lm->buf, n);
    line[n] = '\0';
    memmove(lm->buf, lm->buf + used, lm->len - used);
    lm->len -= used;
    // A NUL would cut the line (the part before it would run as if it were
    // all); other control bytes would be echoed raw to the terminal.
    int bad = text_first_control(line, n);
    if (bad >= 0) {
        fprintf(lm->out, "Error: a line with the control byte 0x%02X is ignored.\n", bad);
        fflush(lm->out);
        line[0] = '\0';
    }
    return true;
}

// Whether the next waiting line is "stop" (it may interrupt what runs).
static bool stop_waiting(const LineMode *lm) {
    if (lm->skipping)
        return false;
    const char *p = lm->buf;
    while (p < lm->buf + lm->len && (*p == ' ' || *p == '\t'))
        p++;
    size_t left = (size_t)(lm->buf + lm->len - p);
    return left >= 5 && strncmp(p, "stop", 4) == 0 && (p[4] == '\n' || p[4] == '\r' ||
                                                       p[4] == ' ');
}

// Sleeps until input or an engine event arrives (or a timer is due).
static void wait_input(LineMode *lm, bool want_input) {
    Session *s = lm->session;
    struct pollfd fds[2] = {{.fd = session_event_fd(s), .events = POLLIN},
                            {.fd = lm->fd, .events = POLLIN}};
    int timeout = POLL_MS;
    int wake = session_wakeup_ms(s, frontend_now_ms());
    if (wake >= 0 && wake < timeout)
        timeout = wake;
    bool read_input = want_input && !lm->eof && lm->len < sizeof lm->buf;
    if (poll(fds, read_input ? 2 : 1, timeout) <= 0 || !read_input ||
        !(fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
        return;
    ssize_t n = read(lm->fd, lm->buf + lm->len, sizeof lm->buf - lm->len);
    if (n > 0)
        lm->len += (size_t)n;
    else if (n == 0 || errno != EINTR)
        lm->eof = true;
}

// At the end of input: what was asked is finished (a limited analysis, a
// review, the engine's reply), an analysis without end and the engine
// playing itself are stopped.
static void finish(LineMode *lm) {
    Session *s = lm->session;
    while (!session_quit_requested(s) && session_busy(s) && !stop_signal) {
        if (interrupted)
            interrupt_typed(lm);
        session_poll(s, frontend_now_ms());
        wait_input(lm, false);
    }
    if (session_mode(s) == SESSION_ANALYSE)
        session_handle_line(s, "stop", frontend_now_ms());
    // quit would have warned once; the end of input leaves at once, so the
    // edits it drops are named rather than lost in silence.
    char which[3100];
    if (!session_quit_requested(s) &&
        session_unsaved_changes(s, frontend_now_ms(), which, sizeof which)) {
        fprintf(lm->out,
                "Error: the input ended with changes to %s not saved (save writes them "
                "back).\n",
                which);
        fflush(lm->out);
    }
}

static void run(LineMode *lm) {
    Session *s = lm->session;
    char line[LINE_MAX_LEN];
    while (!session_quit_requested(s) && !stop_signal) {
        if (interrupted)
            interrupt_typed(lm);
        session_poll(s, frontend_now_ms());
        report_failures(lm);
        if (session_quit_requested(s))
            break;
        bool busy = session_busy(s);
        if ((!busy || stop_waiting(lm)) && take_line(lm, line, sizeof line)) {
            session_handle_line(s, line, frontend_now_ms());
            continue;
        }
        if (lm->eof && lm->len == 0) {
            finish(lm);
            break;
        }
        wait_input(lm, true);
    }
}

int linemode_run(const Config *cfg, FILE *in, FILE *out, const char *first_line) {
    LineMode *lm = calloc(1, sizeof *lm); // the input buffer is large
    if (!lm) {
        fprintf(stderr, "patzer: out of memory\n");
        return 1;
    }
    lm->out = out;
    lm->fd = fileno(in);
    // A pipe has no width: the rows are laid out for the terminal's, when
    // the shell says it, else for 80 columns.
    const char *columns = getenv("COLUMNS");
    char *end;
    long width = columns ? strtol(columns, &end, 10) : 0;
    lm->width = columns && *end == '\0' && width >= 20 && width <= 1000 ? (int)width : 80;
    SessionHooks hooks = {on_message, on_changed, NULL, lm};
    char err[512];
    lm->session = session_new(&cfg->session, &hooks, frontend_now_ms(), err, sizeof err);
    if (!lm->session) {
        fprintf(stderr, "patzer: %s\n", err);
        free(lm->start_text);
        free(lm);
        return 1;
    }
    // Before the first board: a Ctrl-C that follows it is handled, not fatal.
    install_signals(isatty(lm->fd));
    if (lm->start_text) { // --pgn's list, now that the session can be asked
        char *start = lm->start_text;
        lm->start_text = NULL;
        on_message(MSG_TEXT, start, lm);
        free(start);
    }
    // While the resume question waits, the answer decides which board to show.
    if (!session_asking(lm->session))
        print_board(lm);
    if (first_line) {
        size_t n = strlen(first_line);
        if (n + 1 < sizeof lm->buf) {
            memcpy(lm->buf, first_line, n);
            lm->buf[n] = '\n';
            lm->len = n + 1;
        }
    }
    report_failures(lm); // at the start: an unwritable directory is found by the first write
    run(lm);
    int status = stop_signal ? frontend_recover_unsaved(lm->session) : 0;
    if (!session_save_all(lm->session, frontend_now_ms())) {
        fprintf(stderr, "patzer: the game could not be saved: %s\n",
                session_last_failure(lm->session));
        status = FRONTEND_NOT_SAVED;
    }
    session_free(lm->session, frontend_now_ms());
    free(lm);
    if (stop_signal) {
        signal(stop_signal, SIG_DFL);
        raise(stop_signal);
    }
    return status;
}
