// SPDX-License-Identifier: GPL-3.0-or-later
// Mode review: every move of a game analysed on a thread of its own with an
// engine of its own, reporting through the session's event queue. When it
// ends (done, or stopped with what was reviewed so far) the annotated game is
// handed to the core to show; leaving the mode any other way cancels the
// review and keeps its graph. With an external engine in use (`engine CMD`)
// that engine reviews, in a second instance (the session's stays the game's);
// when that one cannot start or fails, the built-in engine reviews the whole
// game instead.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/book.h"
#include "engine/fen.h"
#include "src/game/report.h"
#include "src/game/theory.h"
#include "src/session/session_int.h"
#include "src/util/text.h"

typedef struct ReviewState {
    pthread_t thread;
    bool running;
    int book_plies; // the game's first moves that are theory (never marked)
    atomic_bool cancel;
    unsigned id;    // events of older reviews are dropped
    Engine *engine; // with the hand-crafted evaluation (see review_enter)
    PgnGame *game;  // the copy being reviewed, annotated when done
    ReviewPly *plies;
    atomic_int done; // plies reviewed so far
    int result;      // plies reviewed, -1 on failure
    int total;
    EventQueue *events;
    Game *shown; // the game as it stands when the review started
    // The external engine reviewing (NULL: the built-in engine); when it
    // fails, the thread reviews again with the built-in one and sets
    // fell_back after writing why into fallback.
    ReviewUci *uci;
    bool external; // the session had an external engine when it started
    char reviewer[UCI_NAME_MAX];
    char fallback[UCI_ERROR_MAX];
    atomic_bool fell_back;
    bool fallback_said;
} ReviewState;

static ReviewState *state(const Session *s) {
    return s->mode_state[SESSION_REVIEW];
}

static const Transition stay = { .kind = TR_STAY };

static bool progress(int done, int total, void *ctx) {
    ReviewState *r = ctx;
    atomic_store(&r->done, done);
    Event ev = { .kind = EV_REVIEW_PROGRESS, .request = r->id, .done = done, .total = total };
    eventq_push(r->events, &ev);
    return !atomic_load(&r->cancel);
}

static void *review_thread(void *arg) {
    ReviewState *r = arg;
    ReviewOptions opt;
    review_options_default(&opt); // node limits: the same marks every time
    opt.book_plies = r->book_plies;
    opt.progress = progress;
    opt.ctx = r;
    opt.cancel = &r->cancel; // the checks stop too
    r->result = -1;
    if (r->uci) {
        ReviewEvaluator ev = review_uci_evaluator(r->uci);
        r->result = review_game_with(&ev, r->game, &opt, r->plies);
        review_uci_error(r->uci, r->fallback, sizeof r->fallback);
        if (r->result < 0 && r->fallback[0] && !atomic_load(&r->cancel)) {
            // Scores of two engines do not compare: all again, one engine.
            memset(r->plies, 0, (size_t)r->total * sizeof *r->plies);
            atomic_store(&r->fell_back, true); // after fallback is written
        }
    }
    if (!r->uci || atomic_load(&r->fell_back))
        r->result = review_game(r->engine, r->game, &opt, r->plies);
    Event ev = { .kind = EV_REVIEW_DONE, .request = r->id };
    eventq_push(r->events, &ev);
    return NULL;
}

static void release(ReviewState *r) {
    review_uci_free(r->uci);
    r->uci = NULL;
    engine_free(r->engine);
    pgn_game_free(r->game);
    free(r->plies);
    game_free(r->shown);
    r->engine = NULL;
    r->game = NULL;
    r->plies = NULL;
    r->shown = NULL;
}

// Stops the thread (if it still runs) and waits for it.
static void join(ReviewState *r) {
    if (!r->running)
        return;
    atomic_store(&r->cancel, true);
    engine_stop(r->engine);
    if (r->uci)
        review_uci_stop(r->uci);
    pthread_join(r->thread, NULL);
    r->running = false;
}

// The game on the board while the review runs: as browse shows a game, no
// clock (the session's would run from zero) and the players named by the tags.
static Game *shown_game(Session *s, const PgnGame *g) {
    GameSettings settings;
    memcpy(&settings, &s->opts.settings, sizeof settings);
    settings.tc.untimed = true;
    settings.tc.count = 0;
    for (Color side = WHITE; side <= BLACK; side++) {
        const char *name = pgn_tag(g, side == WHITE ? "White" : "Black");
        text_copy(settings.names[side], sizeof settings.names[side], name ? name : "");
    }
    const char *fen = pgn_start_fen(g);
    snprintf(settings.start_fen, sizeof settings.start_fen, "%s", fen ? fen : "");
    int n = pgn_mainline_length(g);
    Move moves[GAME_MAX_PLIES];
    for (int i = 0; i < n && i < GAME_MAX_PLIES; i++)
        moves[i] = pgn_mainline_node(g, i)->move;
    n = n < GAME_MAX_PLIES ? n : GAME_MAX_PLIES;
    char err[256];
    return session_game_from_line(s, &settings, moves, n, n, err, sizeof err);
}

// With an external engine in use, a second instance of it for the review.
static void start_external(Session *s, ReviewState *r) {
    r->uci = NULL;
    r->external = s->think.uci != NULL;
    r->fallback[0] = '\0';
    r->fallback_said = false;
    atomic_init(&r->fell_back, false);
    snprintf(r->reviewer, sizeof r->reviewer, "the built-in engine");
    if (!r->external)
        return;
    char err[UCI_ERROR_MAX];
    r->uci = review_uci_start(&s->think, err, sizeof err);
    if (r->uci)
        snprintf(r->reviewer, sizeof r->reviewer, "%s", review_uci_name(r->uci));
    else
        session_say(s, MSG_ERROR, "The review uses the built-in engine: %s.", err);
}

// The game's first moves that theory knows: the session's opening book and
// the named lines.
static int theory_of(Session *s, const PgnGame *g) {
    char err[256];
    Book *book = s->opts.book_path[0] ? book_open(s->opts.book_path, err, sizeof err) : NULL;
    int n = theory_plies(g, s->openings, book); // no book (it failed): the named lines alone
    book_close(book);
    return n;
}

static bool review_enter(Session *s, const ModeArgs *args, int64_t now) {
    (void)now;
    ReviewState *r = state(s);
    PgnGame *g = args->game;
    if (!g || pgn_mainline_length(g) == 0) {
        session_say(s, MSG_ERROR, g ? "No moves to review." : "Out of memory for the review.");
        pgn_game_free(g);
        return false;
    }
    if (!gamefile_strip_evals(g)) { // the engine's own scores would read as riddles beside
        session_say(s, MSG_ERROR, "Out of memory for the review.");
        pgn_game_free(g);
        return false;
    }
    r->book_plies = theory_of(s, g);
    r->id++;
    r->game = g;
    r->total = pgn_mainline_length(g);
    // The hand-crafted evaluation whatever UseNNUE says: the review's scale (a pawn of 80
    // and the knee) is fitted to its centipawns, and the built-in net's marks agreed less
    // with Stockfish's (bench/results/2026-11-27-review-judge-4.md).
    r->engine = engine_new();
    if (r->engine)
        (void)engine_set_option(r->engine, "UseNNUE", "false", NULL, 0); // a valid value
    r->plies = calloc((size_t)r->total + 1, sizeof *r->plies);
    r->shown = shown_game(s, g);
    r->events = s->think.events;
    r->result = 0;
    atomic_init(&r->cancel, false);
    atomic_init(&r->done, 0);
    start_external(s, r);
    if (!r->engine || !r->plies || !r->shown ||
        pthread_create(&r->thread, NULL, review_thread, r) != 0) {
        release(r);
        session_say(s, MSG_ERROR, "Cannot start the review (out of memory).");
        return false;
    }
    r->running = true;
    s->graph_count = 0;
    if (r->uci)
        session_say(s, MSG_INFO,
                    "Reviewing %d %s with %s... (stop ends it, keeping what "
                    "is done)",
                    (r->total + 1) / 2, text_plural((r->total + 1) / 2, "move", "moves"),
                    r->reviewer);
    else
        session_say(s, MSG_INFO, "Reviewing %d %s... (stop ends it, keeping what is done)",
                    (r->total + 1) / 2, text_plural((r->total + 1) / 2, "move", "moves"));
    return true;
}

// The plies reviewed so far become the evaluation graph.
static void keep_graph(Session *s, int n) {
    s->graph_count = n < GAME_MAX_PLIES ? n : GAME_MAX_PLIES;
    for (int i = 0; i < s->graph_count; i++)
        s->graph[i] = state(s)->plies[i].score_white;
}

static void review_leave(Session *s, int64_t now) {
    (void)now;
    ReviewState *r = state(s);
    join(r);
    if (r->game && r->result > 0)
        keep_graph(s, r->result);
    release(r);
}

// The game report of the n plies reviewed, in the pager (line mode prints it).
static void show_report(Session *s, int n) {
    ReviewState *r = state(s);
    Board start;
    Color first = board_set_fen(&start, pgn_start_fen(r->game), NULL, 0) ? start.side : WHITE;
    GameReport report;
    report_build(r->plies, n, first, &report);
    const char *eco = pgn_tag(r->game, "ECO"), *name = pgn_tag(r->game, "Opening");
    char opening[256] = "";
    if (name && name[0])
        snprintf(opening, sizeof opening, "%s%s%s", eco && eco[0] ? eco : "",
                 eco && eco[0] ? " " : "", name);
    char *text =
        report_format(&report, r->plies, r->game, opening, r->external ? r->reviewer : NULL);
    if (!text) {
        session_say(s, MSG_ERROR, "out of memory writing the game report");
        return;
    }
    session_say_text(s, MSG_TEXT, text);
    free(text);
}

// A review of the finished live game replaces its plain copy in the archive.
static void archive_review(Session *s) {
    if (!s->graph_of_live || !s->live_archived || !s->opts.archive_path[0])
        return;
    char err[512] = "out of memory";
    if (gamefile_archive_replace(state(s)->game, s->opts.archive_path, &s->live_spot, err,
                                 sizeof err))
        session_say(s, MSG_INFO, "The annotated game is in the archive.");
    else
        session_say(s, MSG_ERROR, "Cannot archive the annotated game: %s", err);
}

// Says once that the external engine failed and the built-in one took over.
static void say_fallback(Session *s) {
    ReviewState *r = state(s);
    if (r->fallback_said || !atomic_load(&r->fell_back))
        return;
    r->fallback_said = true;
    session_say(s, MSG_ERROR, "The review uses the built-in engine: %s.", r->fallback);
}

// The review ended (done or stopped): annotate what was reviewed, report it
// and hand the game to the core to show.
static Transition conclude(Session *s, bool stopped) {
    ReviewState *r = state(s);
    join(r);
    say_fallback(s);
    int n = r->result; // plies reviewed: all, or as far as it got when stopped
    if (n <= 0 || !review_annotate(r->game, r->plies, n)) {
        session_say(s, MSG_ERROR,
                    n == 0 ? "Review stopped before the first move." : "The review failed.");
        release(r);
        return (Transition){ .kind = TR_BACK };
    }
    if (r->uci && !atomic_load(&r->fell_back))
        (void)pgn_set_tag(r->game, "Annotator", r->reviewer); // a name only, in the PGN
    else
        snprintf(r->reviewer, sizeof r->reviewer, "the built-in engine");
    keep_graph(s, n);
    show_report(s, n);
    archive_review(s);
    int counts[7] = { 0 };
    for (int i = 0; i < n; i++)
        counts[r->plies[i].nag] += r->plies[i].nag < 7;
    char by[UCI_NAME_MAX + 32] = "";
    if (r->external)
        snprintf(by, sizeof by, " Reviewed by %s.", r->reviewer);
    int ia = counts[REVIEW_NAG_INACCURACY], mi = counts[REVIEW_NAG_MISTAKE],
        bl = counts[REVIEW_NAG_BLUNDER];
    // Where the game left theory: its first move that no book or named line has.
    char left[96] = "";
    if (r->book_plies > 0 && r->book_plies < pgn_mainline_length(r->game)) {
        Board b;
        const PgnNode *node = pgn_mainline_node(r->game, r->book_plies);
        if (pgn_position_at(r->game, r->book_plies, &b))
            snprintf(left, sizeof left, " Left the book with %d%s %s.", b.fullmove,
                     b.side == BLACK ? "..." : ".", node->san);
    }
    session_say(s, MSG_INFO,
                "Review%s: %d %s (?!), %d %s (?), %d %s (?\?)%s.%s"
                "%s save FILE writes the annotated game.",
                stopped ? " stopped" : "", ia, text_plural(ia, "inaccuracy", "inaccuracies"), mi,
                text_plural(mi, "mistake", "mistakes"), bl, text_plural(bl, "blunder", "blunders"),
                stopped ? " in the moves reviewed" : "", left, by);
    Transition tr = { .kind = TR_SHOW_GAME, .game = r->game };
    r->game = NULL;
    release(r);
    return tr;
}

static Transition review_handle(Session *s, const Command *cmd, int64_t now) {
    (void)now;
    if (cmd->kind == CMD_STOP)
        return conclude(s, true);
    if (cmd->kind == CMD_SAVE)
        session_say(s, MSG_ERROR, "The review is still running: stop ends it, then save.");
    return stay;
}

static Transition review_poll(Session *s, const Event *ev, int64_t now) {
    (void)now;
    if (!ev || ev->request != state(s)->id)
        return stay;
    if (ev->kind == EV_REVIEW_PROGRESS) {
        say_fallback(s);
        session_changed(s);
    } else if (ev->kind == EV_REVIEW_DONE && state(s)->running)
        return conclude(s, false);
    return stay;
}

static const Game *review_game_shown(const Session *s) {
    return state(s)->shown;
}
static const Board *review_board(const Session *s) {
    return game_board(state(s)->shown);
}

// In moves, as the review's first message counts them ("Reviewing 39
// moves..."): the plies it counts read as twice the moves.
static void review_status(const Session *s, char *buf, size_t bufsz) {
    int moves = (state(s)->total + 1) / 2;
    int at = atomic_load(&state(s)->done) / 2 + 1;
    snprintf(buf, bufsz, "Reviewing move %d of %d...", at < moves ? at : moves, moves);
}

static PgnGame *review_to_pgn(Session *s, int64_t now) {
    (void)s, (void)now;
    return NULL;
}

static bool review_busy(const Session *s) {
    return state(s)->running;
}

// How far the running review is (for the screen's progress line).
static bool review_progress(const Session *s, int *done, int *total) {
    *done = atomic_load(&state(s)->done);
    *total = state(s)->total;
    return state(s)->running;
}

const ModeOps mode_review_ops = {
    .state_size = sizeof(ReviewState),
    .enter = review_enter,
    .leave = review_leave,
    .handle = review_handle,
    .poll = review_poll,
    .game = review_game_shown,
    .board = review_board,
    .status = review_status,
    .to_pgn = review_to_pgn,
    .refusal_hint = ": stop ends the review, keeping what is done",
    .busy = review_busy,
    .progress = review_progress,
};
