// SPDX-License-Identifier: GPL-3.0-or-later
// The plain line mode: the game's command language over a pipe, with the
// board printed as text after each move, so games can be scripted.
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/term/frontend.h"

typedef struct LineMode {
    Session *session;
    FILE *out;
} LineMode;

static void print_board(LineMode *lm) {
    const Game *g = session_game(lm->session);
    const Board *b = game_board(g);
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
    int n = game_ply_count(g);
    if (n > 0) {
        const GameMove *last = game_move(g, n - 1);
        int ply_index = n - 1 + (game_start_side(g) == BLACK);
        int number = game_start_fullmove(g) + ply_index / 2;
        fprintf(lm->out, "Last move: %d.%s %s\n", number, ply_index % 2 ? ".." : "", last->san);
    }
    char status[256];
    session_status(lm->session, status, sizeof status);
    fprintf(lm->out, "%s\n", status);
    fflush(lm->out);
}

static void on_message(MessageKind kind, const char *text, void *ctx) {
    LineMode *lm = ctx;
    fprintf(lm->out, "%s%s\n", kind == MSG_ERROR ? "Error: " : "", text);
    fflush(lm->out);
}

static void on_changed(void *ctx) { print_board(ctx); }

// Lets the engine finish its move(s) before the next line is read, so that
// a script sees the reply to each of its moves.
static void wait_for_engine(LineMode *lm) {
    Session *s = lm->session;
    for (;;) {
        session_poll(s, frontend_now_ms());
        const Game *g = session_game(s);
        if (session_quit_requested(s) || (!session_engine_busy(s) && !game_engine_to_move(g)) ||
            game_is_over(g))
            break;
        struct pollfd pfd = {.fd = session_event_fd(s), .events = POLLIN};
        poll(&pfd, 1, 50);
    }
}

int linemode_run(const Config *cfg, FILE *in, FILE *out, const char *first_line) {
    LineMode lm = {.out = out};
    SessionHooks hooks = {on_message, on_changed, NULL, &lm};
    char err[512];
    lm.session = session_new(&cfg->session, &hooks, frontend_now_ms(), err, sizeof err);
    if (!lm.session) {
        fprintf(stderr, "patzer: %s\n", err);
        return 1;
    }
    print_board(&lm);
    wait_for_engine(&lm);
    if (first_line) {
        session_handle_line(lm.session, first_line, frontend_now_ms());
        wait_for_engine(&lm);
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while (!session_quit_requested(lm.session) && (n = getline(&line, &cap, in)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        session_handle_line(lm.session, line, frontend_now_ms());
        wait_for_engine(&lm);
    }
    free(line);
    session_free(lm.session, frontend_now_ms());
    return 0;
}
