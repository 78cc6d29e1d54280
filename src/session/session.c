// SPDX-License-Identifier: GPL-3.0-or-later
// The playing session: commands, engine requests and their replies.
#include "src/session/session.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"
#include "src/session/command.h"
#include "src/session/eventq.h"
#include "src/game/openings.h"
#include "src/util/paths.h"
#include "src/session/replay.h"
#include "src/game/review.h"
#include "src/session/session_io.h"

// How long the engine thinks for a hint, and per position in a review.
enum { HINT_MOVETIME_MS = 1000, REVIEW_MOVETIME_MS = 300, MESSAGE_MAX = 4096 };

// A game review running on a thread of its own with an engine of its own,
// reporting through the session's event queue.
typedef struct ReviewJob {
    pthread_t thread;
    bool running;
    atomic_bool cancel;
    Engine *engine;
    PgnGame *game;     // the copy being reviewed, annotated when done
    ReviewPly *plies;
    int result;        // plies reviewed, -1 on failure
    EventQueue *events;
} ReviewJob;

typedef enum { REQ_NONE, REQ_MOVE, REQ_HINT, REQ_ANALYSIS } RequestKind;

struct Session {
    Game *game;
    Engine *engine;
    EventQueue *events;
    SessionHooks hooks;
    SessionOptions opts;

    unsigned request;          // id of the current engine request
    RequestKind request_kind;
    unsigned request_gen;      // game generation the request was made for
    bool engine_busy;
    int engine_score;          // the engine's last score, from its own side
    SessionThinking thinking;
    Move hint;
    bool flipped;
    bool quit;
    bool analysing;            // keep an infinite analysis on the current position
    int analysis_lines;        // MultiPV for the analysis, 1..SESSION_MAX_LINES
    Replay *replay;            // a loaded game being shown, or NULL
    ReviewJob review;
    Openings *openings;        // names of opening positions, or NULL
    int review_done, review_total;
    int graph[GAME_MAX_PLIES]; // evaluation after each ply of the reviewed game
    int graph_count;
    bool editing;              // the position editor is open
    Board edit;                // the position being edited (only squares, side, rights, ep)
    char edit_castling[5], edit_ep[3];
    char list_path[4096];      // the file whose games `games` lists
    const char *line_sans[GAME_MAX_PLIES];
    unsigned char line_variations[GAME_MAX_PLIES];

    Board scratch;             // for turning PVs into SAN
    const char *sans[GAME_MAX_PLIES];
    MoveList completion_moves;
    char completion_san[MAX_MOVES][MOVE_TEXT_MAX];
};

static void finish_review(Session *s);

static void say(Session *s, MessageKind kind, const char *fmt, ...) {
    char text[MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (s->hooks.message)
        s->hooks.message(kind, text, s->hooks.ctx);
}

static void changed(Session *s) {
    if (s->hooks.position_changed)
        s->hooks.position_changed(s->hooks.ctx);
}

// ----------------------------------------------------------------- engine

static void on_info(const SearchInfo *info, void *ctx) {
    Session *s = ctx;
    Event ev = {.kind = EV_INFO, .request = s->request, .info = *info};
    eventq_push(s->events, &ev);
}

static void on_bestmove(Move best, Move ponder, void *ctx) {
    Session *s = ctx;
    Event ev = {.kind = EV_BESTMOVE, .request = s->request, .best = best, .ponder = ponder};
    eventq_push(s->events, &ev);
}

// Stops any search and forgets it: its reply will be dropped as stale.
static void cancel_engine(Session *s) {
    if (!s->engine_busy)
        return;
    engine_stop(s->engine);
    engine_wait(s->engine);
    s->request++;
    s->engine_busy = false;
    s->request_kind = REQ_NONE;
    s->thinking.active = false;
}

static void start_search(Session *s, RequestKind kind, const SearchLimits *limits, int level) {
    engine_set_level(s->engine, level);
    char lines[8];
    snprintf(lines, sizeof lines, "%d", kind == REQ_ANALYSIS ? s->analysis_lines : 1);
    engine_set_option(s->engine, "MultiPV", lines, NULL, 0);
    engine_set_option(s->engine, "UCI_AnalyseMode", kind == REQ_ANALYSIS ? "true" : "false",
                      NULL, 0);
    engine_set_position(s->engine, game_board(s->game));
    s->request++;
    s->request_kind = kind;
    s->request_gen = game_generation(s->game);
    s->engine_busy = true;
    if (kind == REQ_MOVE || kind == REQ_ANALYSIS) {
        memset(&s->thinking, 0, sizeof s->thinking);
        s->thinking.active = true;
        s->thinking.analysing = kind == REQ_ANALYSIS;
    }
    EngineCallbacks cb = {on_info, on_bestmove, s};
    engine_go(s->engine, limits, &cb);
}

// The PV as numbered SAN from the position the search started from.
static void pv_to_san(Session *s, const SearchInfo *info, char *out, size_t outsz) {
    memcpy(&s->scratch, game_board(s->game), sizeof s->scratch);
    Board *b = &s->scratch;
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < info->pv_length; i++) {
        Move m = info->pv[i];
        if (!movegen_is_legal(b, m))
            break;
        char san[MOVE_TEXT_MAX], num[16] = "";
        notation_to_san(b, m, san);
        if (b->side == WHITE)
            snprintf(num, sizeof num, "%d. ", b->fullmove);
        else if (i == 0)
            snprintf(num, sizeof num, "%d... ", b->fullmove);
        int n = snprintf(out + len, outsz - len, "%s%s%s", i ? " " : "", num, san);
        if (n < 0 || (size_t)n >= outsz - len)
            break;
        len += (size_t)n;
        board_make_move(b, m);
    }
}

static void handle_info(Session *s, const SearchInfo *info) {
    if (s->request_kind == REQ_MOVE && info->multipv == 1 && info->bound == BOUND_EXACT)
        s->engine_score = info->mate ? (info->mate > 0 ? VALUE_MATE : -VALUE_MATE) : info->score;
    if (s->request_kind != REQ_MOVE && s->request_kind != REQ_ANALYSIS)
        return;
    bool white = game_board(s->game)->side == WHITE;
    int score_white = white ? info->score : -info->score;
    int mate_white = white ? info->mate : -info->mate;
    SessionThinking *t = &s->thinking;
    if (s->request_kind == REQ_ANALYSIS && info->multipv >= 1 &&
        info->multipv <= SESSION_MAX_LINES) {
        SessionLine *l = &t->lines[info->multipv - 1];
        l->depth = info->depth;
        l->score_white = score_white;
        l->mate_white = mate_white;
        pv_to_san(s, info, l->pv_san, sizeof l->pv_san);
        if (info->multipv > t->line_count || info->multipv == 1)
            t->line_count = info->multipv;
    }
    if (info->multipv != 1)
        return;
    t->shown = true;
    t->depth = info->depth;
    t->seldepth = info->seldepth;
    t->score_white = score_white;
    t->mate_white = mate_white;
    t->nodes = info->nodes;
    t->nps = info->nps;
    pv_to_san(s, info, t->pv_san, sizeof t->pv_san);
}

// Starts (or restarts, after the position changed) the infinite analysis.
static void run_analysis(Session *s) {
    if (s->engine_busy && s->request_kind == REQ_ANALYSIS &&
        s->request_gen == game_generation(s->game))
        return;
    cancel_engine(s);
    if (game_is_over(s->game) && movegen_count(game_board(s->game)) == 0)
        return; // mate or stalemate: nothing to analyse
    SearchLimits limits;
    search_limits_init(&limits);
    limits.infinite = true;
    start_search(s, REQ_ANALYSIS, &limits, LEVEL_MAX);
}

static void announce_end(Session *s) {
    if (game_is_over(s->game))
        say(s, MSG_INFO, "%s %s", game_result_text(s->game), game_end_text(s->game));
}

// Every change of a game being played is saved at once; a loaded game being
// looked at is not (save writes it where the user wants).
static void autosave(Session *s, int64_t now) {
    if (!s->replay)
        session_autosave(s->game, s->openings, s->opts.autosave_path, now);
}

// In replay, moves made on the board join the loaded game: as its
// continuation, or as a variation where it had another move.
static void sync_replay(Session *s) {
    if (!s->replay)
        return;
    Move moves[GAME_MAX_PLIES];
    int n = game_ply_count(s->game);
    for (int i = 0; i < n; i++)
        moves[i] = game_move(s->game, i)->move;
    if (!replay_follow(s->replay, moves, n))
        say(s, MSG_ERROR, "out of memory adding the move to the game");
}

static void after_move(Session *s, int64_t now) {
    s->hint = MOVE_NONE;
    sync_replay(s);
    autosave(s, now);
    changed(s);
    announce_end(s);
}

static void handle_bestmove(Session *s, const Event *ev, int64_t now) {
    RequestKind kind = s->request_kind;
    s->engine_busy = false;
    s->request_kind = REQ_NONE;
    s->thinking.active = false;
    if (kind == REQ_ANALYSIS || game_generation(s->game) != s->request_gen ||
        ev->best == MOVE_NONE)
        return;
    char san[MOVE_TEXT_MAX];
    memcpy(&s->scratch, game_board(s->game), sizeof s->scratch);
    notation_to_san(&s->scratch, ev->best, san);
    if (kind == REQ_HINT) {
        s->hint = ev->best;
        say(s, MSG_INFO, "Hint: %s", san);
        changed(s);
        return;
    }
    if (!game_engine_to_move(s->game))
        return;
    if (game_play_move(s->game, ev->best, s->engine_score, s->thinking.depth, now) == GAME_OK)
        after_move(s, now);
}

int session_event_fd(const Session *s) { return eventq_fd(s->events); }

void session_poll(Session *s, int64_t now) {
    Event ev;
    while (eventq_pop(s->events, &ev)) {
        if (ev.kind == EV_REVIEW_PROGRESS) {
            s->review_done = ev.done;
            s->review_total = ev.total;
            changed(s);
            continue;
        }
        if (ev.kind == EV_REVIEW_DONE) {
            if (s->review.running)
                finish_review(s);
            continue;
        }
        if (ev.request != s->request)
            continue; // a reply to a request that was cancelled
        if (ev.kind == EV_INFO)
            handle_info(s, &ev.info);
        else
            handle_bestmove(s, &ev, now);
    }
    if (game_tick(s->game, now)) {
        cancel_engine(s);
        autosave(s, now);
        changed(s);
        announce_end(s);
    }
    if (s->analysing) {
        run_analysis(s);
        return;
    }
    if (s->engine_busy || !game_engine_to_move(s->game))
        return;
    int contempt = search_contempt_cp(game_board(s->game), 100);
    if (game_engine_should_claim(s->game, s->engine_score, contempt)) {
        char err[160];
        if (game_claim_draw(s->game, MOVE_NONE, now, err, sizeof err) == GAME_OK) {
            say(s, MSG_INFO, "patzer claims a draw.");
            after_move(s, now);
            return;
        }
    }
    game_start_clock(s->game, now);
    SearchLimits limits;
    game_search_limits(s->game, now, &limits);
    start_search(s, REQ_MOVE, &limits, game_settings(s->game)->level);
}

static void update_flip(Session *s) {
    s->flipped = game_player(s->game, BLACK) == PLAYER_HUMAN &&
                 game_player(s->game, WHITE) == PLAYER_ENGINE;
}

static void stop_analysis(Session *s) {
    if (!s->analysing)
        return;
    s->analysing = false;
    cancel_engine(s);
    s->thinking.active = false;
}

static void close_replay(Session *s) {
    replay_free(s->replay);
    s->replay = NULL;
}

// ----------------------------------------------------------------- replay

// Puts the game on the board at the replay's cursor: the loaded game's start
// position and the line's moves up to the cursor, both sides human.
static void show_replay_position(Session *s) {
    Replay *r = s->replay;
    GameSettings settings;
    replay_settings(r, &s->opts.settings, &settings);
    settings.level = game_settings(s->game)->level;
    char err[512];
    cancel_engine(s);
    if (!game_reset(s->game, &settings, err, sizeof err)) {
        say(s, MSG_ERROR, "%s", err);
        return;
    }
    int n = replay_cursor(r);
    for (int i = replay_segment_start(r); i < n; i++) { // the game starts after a null move
        if (game_play_move(s->game, replay_line_node(r, i)->move, VALUE_NONE, 0, 0) != GAME_OK) {
            replay_set_cursor(r, i); // the game ended (mate) before the line did
            break;
        }
    }
    s->hint = MOVE_NONE;
    update_flip(s);
    changed(s);
}

static void open_game(Session *s, const char *path, int number) {
    char err[512];
    Replay *r = replay_open(path, number, err, sizeof err);
    if (!r) {
        say(s, MSG_ERROR, "%s", err);
        return;
    }
    close_replay(s);
    s->replay = r;
    snprintf(s->list_path, sizeof s->list_path, "%s", path);
    memset(&s->thinking, 0, sizeof s->thinking);
    show_replay_position(s);
    const PgnGame *g = replay_game(r);
    const char *white = pgn_tag(g, "White"), *black = pgn_tag(g, "Black");
    say(s, MSG_INFO, "Game %d: %s - %s %s (%d moves). next/prev, first/last, var N, up.",
        number, white ? white : "?", black ? black : "?", pgn_result(g),
        (replay_line_length(r) + 1) / 2);
}

enum { LIST_SHOWN_MAX = 40 };

static void list_games(Session *s, const char *path, const char *filter) {
    static GameListEntry entries[LIST_SHOWN_MAX];
    int matches, total;
    char err[512];
    int n = replay_list(path, filter, entries, LIST_SHOWN_MAX, &matches, &total, err, sizeof err);
    if (n < 0) {
        say(s, MSG_ERROR, "%s", err);
        return;
    }
    snprintf(s->list_path, sizeof s->list_path, "%s", path);
    char text[8192];
    size_t len = (size_t)snprintf(text, sizeof text, "%d of %d games in %s%s%s%s:\n", matches,
                                  total, path, filter && *filter ? " matching '" : "",
                                  filter && *filter ? filter : "", filter && *filter ? "'" : "");
    for (int i = 0; i < n && len < sizeof text; i++) {
        const GameListEntry *e = &entries[i];
        len += (size_t)snprintf(text + len, sizeof text - len, "%4d  %-18.18s %-18.18s %-7s %-16.16s %s %s\n",
                                e->number, e->white, e->black, e->result, e->event, e->date, e->eco);
    }
    if (matches > n && len < sizeof text)
        len += (size_t)snprintf(text + len, sizeof text - len, "... and %d more (games TEXT narrows the list)\n",
                                matches - n);
    if (len < sizeof text)
        snprintf(text + len, sizeof text - len, "game N shows one of them.");
    say(s, MSG_HELP, "%s", text);
}

// A PGN file is text: a NUL byte early on means a binary file was given.
static bool looks_binary(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return false; // the reader reports why it cannot be opened
    unsigned char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    return memchr(buf, 0, n) != NULL;
}

static void load_file(Session *s, const char *path) {
    static GameListEntry first[1];
    int matches, total;
    char err[512];
    if (looks_binary(path)) {
        say(s, MSG_ERROR, "%s is a binary file, not a PGN text file", path);
        return;
    }
    if (replay_list(path, NULL, first, 1, &matches, &total, err, sizeof err) < 0) {
        say(s, MSG_ERROR, "%s", err);
        return;
    }
    if (total == 0) {
        say(s, MSG_ERROR, "%s: no game in the file", path);
        return;
    }
    stop_analysis(s);
    if (total == 1)
        open_game(s, path, 1);
    else
        list_games(s, path, NULL);
}

// Moves the cursor of the replay (or, in a live game, says there is none).
static void navigate(Session *s, const Command *cmd) {
    Replay *r = s->replay;
    if (!r) {
        say(s, MSG_ERROR, "No loaded game to step through (load FILE); undo and redo step "
                          "through a game being played.");
        return;
    }
    int cursor = replay_cursor(r), length = replay_line_length(r);
    bool ok = true;
    switch (cmd->kind) {
    case CMD_NEXT:
        ok = cursor < length && replay_set_cursor(r, cursor + 1);
        break;
    case CMD_PREV:
        ok = cursor > 0 && replay_set_cursor(r, cursor - 1);
        break;
    case CMD_FIRST:
        replay_set_cursor(r, 0);
        break;
    case CMD_LAST:
        replay_set_cursor(r, length);
        break;
    case CMD_GOTO: {
        // After White's move N, counted from the game's first move number.
        int first;
        Color side;
        replay_move_number(r, 0, &first, &side); // the line's numbering, not the board game's
        int ply = cmd->number == 0 ? 0 : (cmd->number - first) * 2 + (side == WHITE ? 1 : 0);
        if (ply < 0)
            ply = 0;
        ok = ply <= length && replay_set_cursor(r, ply);
        if (!ok)
            say(s, MSG_ERROR, "The line has only %d moves.", (length + 1) / 2);
        if (!ok)
            return;
        break;
    }
    case CMD_VAR:
        ok = replay_enter_variation(r, cmd->number);
        if (!ok) {
            say(s, MSG_ERROR, "The next move has %d variation%s.", replay_variation_count(r),
                replay_variation_count(r) == 1 ? "" : "s");
            return;
        }
        break;
    case CMD_UP:
        ok = replay_leave_variation(r);
        if (!ok) {
            say(s, MSG_ERROR, "Already on the main line.");
            return;
        }
        break;
    default:
        break;
    }
    if (!ok) {
        say(s, MSG_ERROR, cmd->kind == CMD_NEXT ? "At the end of the line." : "At the start.");
        return;
    }
    show_replay_position(s);
}

// ----------------------------------------------------------------- review

static bool review_progress(int done, int total, void *ctx) {
    ReviewJob *job = ctx;
    Event ev = {.kind = EV_REVIEW_PROGRESS, .done = done, .total = total};
    eventq_push(job->events, &ev);
    return !atomic_load(&job->cancel);
}

static void *review_thread(void *arg) {
    ReviewJob *job = arg;
    ReviewOptions opt = {.movetime_ms = REVIEW_MOVETIME_MS, .progress = review_progress,
                         .ctx = job};
    job->result = review_game(job->engine, job->game, &opt, job->plies);
    Event ev = {.kind = EV_REVIEW_DONE};
    eventq_push(job->events, &ev);
    return NULL;
}

static void review_release(ReviewJob *job) {
    engine_free(job->engine);
    pgn_game_free(job->game);
    free(job->plies);
    job->engine = NULL;
    job->game = NULL;
    job->plies = NULL;
}

static void review_cancel(Session *s) {
    ReviewJob *job = &s->review;
    if (!job->running)
        return;
    atomic_store(&job->cancel, true);
    engine_stop(job->engine);
    pthread_join(job->thread, NULL);
    job->running = false;
    review_release(job);
}

static void start_review(Session *s, int64_t now) {
    if (s->review.running) {
        say(s, MSG_ERROR, "A review is already running.");
        return;
    }
    PgnGame *g = NULL;
    if (s->replay) {
        g = pgn_game_clone(replay_game(s->replay)); // the review thread owns its copy
    } else {
        g = session_to_pgn(s->game, s->openings, now);
    }
    if (!g || pgn_mainline_length(g) == 0) {
        say(s, MSG_ERROR, g ? "No moves to review." : "Out of memory for the review.");
        pgn_game_free(g);
        return;
    }
    ReviewJob *job = &s->review;
    job->game = g;
    job->engine = engine_new();
    job->plies = calloc((size_t)pgn_mainline_length(g) + 1, sizeof *job->plies);
    job->events = s->events;
    atomic_init(&job->cancel, false);
    if (!job->engine || !job->plies ||
        pthread_create(&job->thread, NULL, review_thread, job) != 0) {
        review_release(job);
        say(s, MSG_ERROR, "Cannot start the review (out of memory).");
        return;
    }
    job->running = true;
    s->review_done = 0;
    s->review_total = pgn_mainline_length(g);
    say(s, MSG_INFO, "Reviewing %d moves...", (s->review_total + 1) / 2);
}

static void finish_review(Session *s) {
    ReviewJob *job = &s->review;
    pthread_join(job->thread, NULL);
    job->running = false;
    int n = job->result;
    if (n <= 0 || !review_annotate(job->game, job->plies, n)) {
        say(s, MSG_ERROR, "The review failed.");
        review_release(job);
        return;
    }
    int counts[7] = {0};
    s->graph_count = n < GAME_MAX_PLIES ? n : GAME_MAX_PLIES;
    for (int i = 0; i < s->graph_count; i++) {
        s->graph[i] = job->plies[i].score_white;
        counts[job->plies[i].nag] += job->plies[i].nag < 7;
    }
    // Show the annotated game: it replaces what was on the board.
    Replay *r = replay_adopt(job->game, "review");
    job->game = NULL;
    review_release(job);
    if (!r) {
        say(s, MSG_ERROR, "Out of memory showing the review.");
        return;
    }
    stop_analysis(s);
    close_replay(s);
    s->replay = r;
    show_replay_position(s);
    say(s, MSG_INFO, "Review: %d inaccuracies (?!), %d mistakes (?), %d blunders (?\?). "
                     "save FILE writes the annotated game.",
        counts[REVIEW_NAG_INACCURACY], counts[REVIEW_NAG_MISTAKE], counts[REVIEW_NAG_BLUNDER]);
}

const char *session_opening(const Session *s) {
    return s->openings ? openings_lookup(s->openings, game_board(s->game), NULL, 0, NULL, 0)
                       : NULL;
}

void session_graph(const Session *s, const int **scores, int *count) {
    *scores = s->graph_count > 1 ? s->graph : NULL;
    *count = s->graph_count > 1 ? s->graph_count : 0;
}

bool session_review_progress(const Session *s, int *done, int *total) {
    *done = s->review_done;
    *total = s->review_total;
    return s->review.running;
}

// ----------------------------------------------------------------- editor

static void edit_put(Board *b, Square sq, Piece p) {
    Piece old = (Piece)b->squares[sq];
    if (old != NO_PIECE) {
        b->pieces[piece_type(old)] &= ~bb_square(sq);
        b->colors[piece_color(old)] &= ~bb_square(sq);
    }
    b->squares[sq] = (uint8_t)p;
    if (p != NO_PIECE) {
        b->pieces[piece_type(p)] |= bb_square(sq);
        b->colors[piece_color(p)] |= bb_square(sq);
    }
}

static void edit_start(Session *s) {
    const Board *b = game_board(s->game);
    memset(&s->edit, 0, offsetof(Board, history));
    memset(s->edit.squares, NO_PIECE, sizeof s->edit.squares);
    for (Square sq = 0; sq < SQ_NB; sq++)
        edit_put(&s->edit, sq, (Piece)b->squares[sq]);
    s->edit.side = b->side;
    s->edit.ep = SQ_NONE;
    char fen[FEN_MAX], placement[80], side[2], castling[8], ep[4];
    board_to_fen(b, fen, sizeof fen);
    if (sscanf(fen, "%79s %1s %7s %3s", placement, side, castling, ep) == 4) {
        snprintf(s->edit_castling, sizeof s->edit_castling, "%.4s", castling);
        snprintf(s->edit_ep, sizeof s->edit_ep, "%.2s", ep);
    }
    s->editing = true;
    say(s, MSG_INFO, "Editing: put Qd4 / put pe5, remove e4, clear, side white|black, "
                     "castling KQkq|-, ep e3|-, then done (or cancel).");
}

static void edit_fen(const Session *s, char *buf, size_t bufsz) {
    // The placement from the squares; the rest from the editor's fields.
    static const char letters[] = "PpNnBbRrQqKk";
    char placement[80];
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Piece p = (Piece)s->edit.squares[make_square(file, rank)];
            if (p == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                placement[n++] = (char)('0' + empty);
            empty = 0;
            placement[n++] = letters[p];
        }
        if (empty)
            placement[n++] = (char)('0' + empty);
        if (rank)
            placement[n++] = '/';
    }
    placement[n] = '\0';
    snprintf(buf, bufsz, "%s %c %s %s 0 1", placement, s->edit.side == WHITE ? 'w' : 'b',
             s->edit_castling[0] ? s->edit_castling : "-", s->edit_ep[0] ? s->edit_ep : "-");
}

static void edit_command(Session *s, const Command *cmd, int64_t now) {
    if (cmd->kind == CMD_EDIT) {
        stop_analysis(s);
        cancel_engine(s);
        edit_start(s);
        changed(s);
        return;
    }
    if (!s->editing) {
        say(s, MSG_ERROR, "'%s' works in the position editor; edit starts it.",
            cmd->kind == CMD_PUT ? "put" : cmd->kind == CMD_REMOVE ? "remove"
            : cmd->kind == CMD_SIDE ? "side" : cmd->kind == CMD_CASTLING ? "castling"
            : cmd->kind == CMD_EP ? "ep" : cmd->kind == CMD_CLEAR ? "clear"
            : cmd->kind == CMD_DONE ? "done" : "cancel");
        return;
    }
    const char *t = cmd->text;
    static const char letters[] = "PpNnBbRrQqKk";
    switch (cmd->kind) {
    case CMD_PUT: {
        // "Qd4", "qd4", or "Q d4".
        const char *l = t[0] ? strchr(letters, t[0]) : NULL;
        const char *sq_text = t + 1;
        while (*sq_text == ' ')
            sq_text++;
        Square sq = square_from_name(sq_text);
        if (!l || sq == SQ_NONE || sq_text[2]) {
            say(s, MSG_ERROR, "put needs a piece letter (KQRBNP white, kqrbnp black) and a "
                              "square, like Qd4 or pe5; not '%s'", t);
            return;
        }
        edit_put(&s->edit, sq, (Piece)(l - letters));
        break;
    }
    case CMD_REMOVE: {
        Square sq = square_from_name(t);
        if (sq == SQ_NONE || t[2]) {
            say(s, MSG_ERROR, "remove needs a square like e4, not '%s'", t);
            return;
        }
        edit_put(&s->edit, sq, NO_PIECE);
        break;
    }
    case CMD_CLEAR:
        for (Square sq = 0; sq < SQ_NB; sq++)
            edit_put(&s->edit, sq, NO_PIECE);
        s->edit_castling[0] = '\0';
        s->edit_ep[0] = '\0';
        break;
    case CMD_SIDE:
        if (t[0] == 'w' || t[0] == 'W' || t[0] == 'b' || t[0] == 'B') {
            s->edit.side = (t[0] == 'w' || t[0] == 'W') ? WHITE : BLACK;
        } else {
            say(s, MSG_ERROR, "side needs white or black, not '%s'", t);
            return;
        }
        break;
    case CMD_CASTLING:
        if (strlen(t) >= sizeof s->edit_castling || strspn(t, "KQkq-") != strlen(t)) {
            say(s, MSG_ERROR, "castling needs rights like KQkq, Kq or -, not '%s'", t);
            return;
        }
        snprintf(s->edit_castling, sizeof s->edit_castling, "%.4s", t);
        break;
    case CMD_EP:
        if (strcmp(t, "-") != 0 && (square_from_name(t) == SQ_NONE || t[2])) {
            say(s, MSG_ERROR, "ep needs a square like e3 or -, not '%s'", t);
            return;
        }
        snprintf(s->edit_ep, sizeof s->edit_ep, "%.2s", t);
        break;
    case CMD_DONE: {
        char fen[FEN_MAX * 2], err[256];
        edit_fen(s, fen, sizeof fen);
        close_replay(s);
        if (!game_set_fen(s->game, fen, now, err, sizeof err)) {
            say(s, MSG_ERROR, "Illegal position: %s", err);
            return; // stay in the editor
        }
        s->editing = false;
        autosave(s, now);
        say(s, MSG_INFO, "Position set: %s", fen);
        break;
    }
    case CMD_CANCEL:
        s->editing = false;
        break;
    default:
        break;
    }
    changed(s);
}

const Board *session_display_board(const Session *s) {
    return s->editing ? &s->edit : game_board(s->game);
}

bool session_editing(const Session *s) { return s->editing; }

// ----------------------------------------------------------------- commands

static Color human_side(const Session *s) {
    Color turn = game_turn(s->game);
    if (game_player(s->game, turn) == PLAYER_HUMAN)
        return turn;
    return (Color)!turn;
}

static void new_game(Session *s, const Command *cmd, int64_t now) {
    // A loaded game is shown without clock or engine: start from the
    // session's own settings then.
    GameSettings settings = s->replay ? s->opts.settings : *game_settings(s->game);
    settings.level = game_settings(s->game)->level;
    settings.start_fen[0] = '\0';
    for (Color c = WHITE; c <= BLACK; c++)
        if (s->replay)
            snprintf(settings.names[c], sizeof settings.names[c], "%s",
                     s->opts.settings.names[c]);
    stop_analysis(s);
    close_replay(s);
    s->graph_count = 0;
    if (cmd->has_side) {
        settings.players[cmd->side] = PLAYER_HUMAN;
        settings.players[!cmd->side] = PLAYER_ENGINE;
    }
    if (cmd->has_level)
        settings.level = cmd->level;
    if (cmd->has_elo)
        settings.level = engine_level_for_elo(cmd->elo);
    if (cmd->has_time)
        settings.tc = cmd->tc;
    cancel_engine(s);
    char err[256];
    if (!game_reset(s->game, &settings, err, sizeof err)) {
        say(s, MSG_ERROR, "%s", err);
        return;
    }
    engine_new_game(s->engine);
    memset(&s->thinking, 0, sizeof s->thinking);
    s->hint = MOVE_NONE;
    s->engine_score = 0;
    update_flip(s);
    (void)now;
    autosave(s, now);
    changed(s);
    say(s, MSG_INFO, "New game.");
}

static void play_sides(Session *s, const Command *cmd) {
    stop_analysis(s);
    cancel_engine(s);
    game_set_players(s->game, cmd->human[WHITE] ? PLAYER_HUMAN : PLAYER_ENGINE,
                     cmd->human[BLACK] ? PLAYER_HUMAN : PLAYER_ENGINE);
    update_flip(s);
    changed(s);
}

static void set_level(Session *s, int level) {
    game_set_level(s->game, level);
    say(s, MSG_INFO, "Level %d (about %d Elo)%s", level, engine_level_elo(level),
        level == LEVEL_MAX ? ", full strength" : "");
}

static void report_status(Session *s, GameStatus st, const char *err) {
    if (st != GAME_OK)
        say(s, MSG_ERROR, "%s", err[0] ? err : "cannot do that now");
}

static void take_back(Session *s, bool redo, int64_t now) {
    cancel_engine(s);
    GameStatus st = redo ? game_redo(s->game, now) : game_undo(s->game, now);
    if (st != GAME_OK) {
        say(s, MSG_ERROR, redo ? "Nothing to redo." : "Nothing to undo.");
        return;
    }
    s->hint = MOVE_NONE;
    memset(&s->thinking, 0, sizeof s->thinking);
    autosave(s, now);
    changed(s);
}

static void hint(Session *s) {
    if (game_is_over(s->game) || game_engine_to_move(s->game)) {
        say(s, MSG_ERROR, "A hint is for your own move.");
        return;
    }
    if (s->engine_busy)
        return;
    SearchLimits limits;
    search_limits_init(&limits);
    limits.movetime = HINT_MOVETIME_MS;
    start_search(s, REQ_HINT, &limits, LEVEL_MAX);
    say(s, MSG_INFO, "Thinking about a hint...");
}

static void go_now(Session *s, int64_t now) {
    if (s->engine_busy && s->request_kind == REQ_MOVE) {
        engine_stop(s->engine); // its best move arrives as usual
        return;
    }
    if (game_is_over(s->game)) {
        say(s, MSG_ERROR, "The game is over.");
        return;
    }
    stop_analysis(s);
    cancel_engine(s);
    Color turn = game_turn(s->game);
    game_set_players(s->game, turn == WHITE ? PLAYER_ENGINE : PLAYER_HUMAN,
                     turn == BLACK ? PLAYER_ENGINE : PLAYER_HUMAN);
    update_flip(s);
    changed(s);
    session_poll(s, now);
}

static bool save_tree(Session *s, const char *path, char *err, size_t errsz) {
    const PgnGame *games[1] = {replay_game(s->replay)};
    return pgn_save(path, games, 1, err, errsz);
}

static void run_command(Session *s, const Command *cmd, int64_t now) {
    char err[512] = "";
    GameStatus st;
    switch (cmd->kind) {
    case CMD_EMPTY:
        break;
    case CMD_MOVE:
        if (s->engine_busy && s->request_kind == REQ_HINT)
            cancel_engine(s);
        st = game_play_text(s->game, cmd->text, now, err, sizeof err);
        if (st == GAME_OK)
            after_move(s, now);
        else
            report_status(s, st, err);
        break;
    case CMD_NEW:
        new_game(s, cmd, now);
        break;
    case CMD_PLAY:
        play_sides(s, cmd);
        break;
    case CMD_UNDO:
    case CMD_REDO:
        take_back(s, cmd->kind == CMD_REDO, now);
        break;
    case CMD_THEME:
    case CMD_PIECES:
    case CMD_BELL:
        if (s->hooks.display)
            s->hooks.display(command_name(cmd->kind), cmd->text, s->hooks.ctx);
        else
            say(s, MSG_ERROR, "%s changes the board view, which line mode does not have",
                command_name(cmd->kind));
        break;
    case CMD_FLIP:
        s->flipped = !s->flipped;
        changed(s);
        break;
    case CMD_HINT:
        hint(s);
        break;
    case CMD_LEVEL:
        set_level(s, cmd->number);
        break;
    case CMD_ELO:
        set_level(s, engine_level_for_elo(cmd->number));
        break;
    case CMD_TIME: {
        game_set_time_control(s->game, &cmd->tc, now);
        char text[TC_TEXT_MAX];
        timecontrol_format(&cmd->tc, text, sizeof text);
        say(s, MSG_INFO, "Time control %s.", text);
        changed(s);
        break;
    }
    case CMD_RESIGN:
        cancel_engine(s);
        st = game_resign(s->game, human_side(s), now);
        if (st == GAME_OK)
            after_move(s, now);
        else
            say(s, MSG_ERROR, "The game is already over.");
        break;
    case CMD_DRAW: {
        int contempt = search_contempt_cp(game_board(s->game), 100);
        if (game_is_over(s->game)) {
            say(s, MSG_ERROR, "The game is already over.");
        } else if (game_offer_draw(s->game, s->engine_score, contempt, now)) {
            cancel_engine(s);
            say(s, MSG_INFO, "patzer accepts the draw.");
            after_move(s, now);
        } else {
            say(s, MSG_INFO, "patzer declines the draw.");
        }
        break;
    }
    case CMD_CLAIM: {
        Move m = MOVE_NONE;
        if (cmd->text[0]) {
            memcpy(&s->scratch, game_board(s->game), sizeof s->scratch);
            if (notation_parse_move(&s->scratch, cmd->text, &m, err, sizeof err) != NOTATION_OK) {
                say(s, MSG_ERROR, "%s", err);
                break;
            }
        }
        st = game_claim_draw(s->game, m, now, err, sizeof err);
        if (st == GAME_OK) {
            cancel_engine(s);
            after_move(s, now);
        } else {
            report_status(s, st, err);
        }
        break;
    }
    case CMD_FEN: {
        char fen[FEN_MAX];
        game_fen(s->game, fen, sizeof fen);
        say(s, MSG_INFO, "%s", fen);
        break;
    }
    case CMD_SETBOARD:
        cancel_engine(s);
        if (game_set_fen(s->game, cmd->text, now, err, sizeof err)) {
            s->hint = MOVE_NONE;
            memset(&s->thinking, 0, sizeof s->thinking);
            autosave(s, now);
            changed(s);
        } else {
            say(s, MSG_ERROR, "Bad FEN: %s", err);
        }
        break;
    case CMD_SAVE:
        if (s->replay ? save_tree(s, cmd->text, err, sizeof err)
                      : session_save(s->game, s->openings, cmd->text, now, err, sizeof err))
            say(s, MSG_INFO, "Saved to %s.", cmd->text);
        else
            say(s, MSG_ERROR, "%s", err);
        break;
    case CMD_LOAD:
        load_file(s, cmd->text);
        break;
    case CMD_GAMES:
        if (!s->list_path[0])
            say(s, MSG_ERROR, "No file loaded (load FILE).");
        else
            list_games(s, s->list_path, cmd->text);
        break;
    case CMD_GAME:
        if (!s->list_path[0])
            say(s, MSG_ERROR, "No file loaded (load FILE).");
        else
            open_game(s, s->list_path, cmd->number);
        break;
    case CMD_NEXT:
    case CMD_PREV:
    case CMD_FIRST:
    case CMD_LAST:
    case CMD_GOTO:
    case CMD_VAR:
    case CMD_UP:
        navigate(s, cmd);
        break;
    case CMD_REVIEW:
        start_review(s, now);
        break;
    case CMD_EDIT:
    case CMD_PUT:
    case CMD_REMOVE:
    case CMD_SIDE:
    case CMD_CASTLING:
    case CMD_EP:
    case CMD_CLEAR:
    case CMD_DONE:
    case CMD_CANCEL:
        edit_command(s, cmd, now);
        break;
    case CMD_ANALYZE:
        cancel_engine(s);
        game_set_players(s->game, PLAYER_HUMAN, PLAYER_HUMAN);
        s->analysing = true;
        run_analysis(s);
        changed(s);
        break;
    case CMD_LINES:
        s->analysis_lines = cmd->number;
        if (s->analysing) {
            cancel_engine(s);
            run_analysis(s);
        }
        say(s, MSG_INFO, "%d analysis line%s.", cmd->number, cmd->number == 1 ? "" : "s");
        break;
    case CMD_GO:
        go_now(s, now);
        break;
    case CMD_STOP:
        if (s->analysing)
            stop_analysis(s);
        else if (s->engine_busy)
            engine_stop(s->engine);
        changed(s);
        break;
    case CMD_QUIT:
        s->quit = true;
        break;
    case CMD_HELP: {
        const char *text = command_help(cmd->text);
        if (text)
            say(s, MSG_HELP, "%s", text);
        else
            say(s, MSG_ERROR, "No command '%s'. Type help for the list.", cmd->text);
        break;
    }
    }
}

void session_handle_line(Session *s, const char *line, int64_t now) {
    Command cmd;
    char err[512];
    if (!command_parse(line, &cmd, err, sizeof err)) {
        say(s, MSG_ERROR, "%s", err);
        return;
    }
    if (s->editing && cmd.kind != CMD_EMPTY && cmd.kind != CMD_HELP && cmd.kind != CMD_QUIT &&
        cmd.kind != CMD_FLIP && (cmd.kind < CMD_EDIT || cmd.kind > CMD_BELL)) {
        say(s, MSG_ERROR, "The position editor is open: done to use the position, cancel to "
                          "leave it.");
        return;
    }
    run_command(s, &cmd, now);
    session_poll(s, now);
}


// ----------------------------------------------------------------- lifetime

Session *session_new(const SessionOptions *opts, const SessionHooks *hooks, int64_t now,
                     char *err, size_t errsz) {
    Session *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    s->opts = *opts;
    s->analysis_lines = 1;
    if (hooks)
        s->hooks = *hooks;
    s->events = eventq_new();
    s->engine = engine_new();
    s->game = game_new(&opts->settings, err, errsz);
    if (!s->events || !s->engine || !s->game) {
        if (s->events && s->engine && !s->game) {
            // err already says why the game could not start
        } else {
            snprintf(err, errsz, "out of memory starting the engine");
        }
        eventq_free(s->events);
        engine_free(s->engine);
        game_free(s->game);
        free(s);
        return NULL;
    }
    char why[512];
    if (opts->hash_mb > 0) {
        char value[16];
        snprintf(value, sizeof value, "%d", opts->hash_mb);
        if (!engine_set_option(s->engine, "Hash", value, why, sizeof why))
            say(s, MSG_ERROR, "%s", why);
    }
    if (opts->book_path[0]) {
        if (engine_set_option(s->engine, "BookFile", opts->book_path, why, sizeof why))
            engine_set_option(s->engine, "OwnBook", opts->own_book ? "true" : "false", NULL, 0);
        else
            say(s, MSG_ERROR, "%s", why);
    }
    char openings_path[PATH_MAX_LEN];
    if (openings_find_path(paths_argv0(), openings_path, sizeof openings_path))
        s->openings = openings_open(openings_path); // read when a name is first asked for
    if (opts->resume) {
        if (session_load(s->game, opts->autosave_path, now, why, sizeof why) &&
            !game_is_over(s->game))
            say(s, MSG_INFO, "Resumed the unfinished game.");
        else
            say(s, MSG_INFO, "No unfinished game to resume; a new game starts.");
    }
    update_flip(s);
    if (opts->load_path[0])
        load_file(s, opts->load_path);
    return s;
}

void session_free(Session *s, int64_t now) {
    if (!s)
        return;
    review_cancel(s);
    cancel_engine(s);
    autosave(s, now);
    close_replay(s);
    openings_free(s->openings);
    engine_free(s->engine);
    game_free(s->game);
    eventq_free(s->events);
    free(s);
}

bool session_quit_requested(const Session *s) { return s->quit; }
bool session_engine_busy(const Session *s) { return s->engine_busy; }
const Game *session_game(const Session *s) { return s->game; }
const SessionThinking *session_thinking(const Session *s) { return &s->thinking; }
bool session_flipped(const Session *s) { return s->flipped; }
Move session_hint(const Session *s) { return s->hint; }

const unsigned char *session_move_variations(Session *s) {
    if (!s->replay)
        return NULL;
    int n = replay_line_length(s->replay);
    for (int i = 0; i < n; i++) {
        int count = 0;
        for (const PgnNode *v = replay_line_node(s->replay, i)->variation; v && count < 255;
             v = v->next_variation)
            count++;
        s->line_variations[i] = (unsigned char)count;
    }
    return s->line_variations;
}

void session_move_list_start(const Session *s, int *fullmove, Color *side) {
    if (s->replay) {
        replay_move_number(s->replay, 0, fullmove, side); // the line, not the game on the board
        return;
    }
    *fullmove = game_start_fullmove(s->game);
    *side = game_start_side(s->game);
}

void session_move_list(Session *s, const char *const **sans, int *count, int *current) {
    if (s->replay) {
        int n = replay_line_length(s->replay);
        for (int i = 0; i < n; i++)
            s->line_sans[i] = replay_line_node(s->replay, i)->san;
        *sans = s->line_sans;
        *count = n;
        *current = replay_cursor(s->replay);
        return;
    }
    int n = game_ply_count(s->game);
    for (int i = 0; i < n; i++)
        s->sans[i] = game_move(s->game, i)->san;
    *sans = s->sans;
    *count = *current = n;
}

int session_completion_words(Session *s, const char **words, int max) {
    int n = command_names(words, max);
    if (game_is_over(s->game) || game_engine_to_move(s->game))
        return n;
    memcpy(&s->scratch, game_board(s->game), sizeof s->scratch);
    movegen_legal(&s->scratch, &s->completion_moves);
    for (int i = 0; i < s->completion_moves.count && n < max; i++) {
        notation_to_san(&s->scratch, s->completion_moves.moves[i], s->completion_san[i]);
        words[n++] = s->completion_san[i];
    }
    return n;
}

// NAGs as the glyphs people read ($1 "!" ... $6 "?!"), others as $n.
static void nag_text(const PgnNode *n, char *buf, size_t bufsz) {
    static const char *const glyphs[] = {"", "!", "?", "!!", "??", "!?", "?!"};
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n->nag_count && len < bufsz; i++) {
        int nag = n->nags[i];
        len += (size_t)(nag >= 1 && nag <= 6 ? snprintf(buf + len, bufsz - len, "%s", glyphs[nag])
                                             : snprintf(buf + len, bufsz - len, " $%d", nag));
    }
}

static void replay_status(const Session *s, char *buf, size_t bufsz) {
    const Replay *r = s->replay;
    int cursor = replay_cursor(r);
    size_t len = 0;
    if (cursor == 0) {
        len = (size_t)snprintf(buf, bufsz, "Start of the game");
    } else {
        const PgnNode *n = replay_line_node(r, cursor - 1);
        int number;
        Color side;
        replay_move_number(r, cursor - 1, &number, &side);
        char nags[32];
        nag_text(n, nags, sizeof nags);
        len = (size_t)snprintf(buf, bufsz, "%d.%s %s%s", number, side == BLACK ? ".." : "",
                               n->san, nags);
        if (n->comment && len < bufsz)
            len += (size_t)snprintf(buf + len, bufsz - len, "  {%s}", n->comment);
    }
    int vars = replay_variation_count(r);
    if (vars && len < bufsz)
        len += (size_t)snprintf(buf + len, bufsz - len, "  [%d variation%s: var N]", vars,
                                vars == 1 ? "" : "s");
    if (game_is_over(s->game) && len < bufsz)
        snprintf(buf + len, bufsz - len, "  %s", game_end_text(s->game));
}

void session_status(const Session *s, char *buf, size_t bufsz) {
    const Game *g = s->game;
    if (s->replay) {
        replay_status(s, buf, bufsz);
        return;
    }
    if (game_is_over(g)) {
        snprintf(buf, bufsz, "%s  %s", game_result_text(g), game_end_text(g));
        return;
    }
    Color turn = game_turn(g);
    const char *who = turn == WHITE ? "White" : "Black";
    bool check = board_in_check(game_board(g));
    int len;
    if (s->analysing)
        len = snprintf(buf, bufsz, "%s to move%s - analysing", who, check ? " - check" : "");
    else if (game_player(g, turn) == PLAYER_ENGINE)
        len = snprintf(buf, bufsz, "%s to move (patzer is thinking)%s", who,
                       check ? " - check" : "");
    else
        len = snprintf(buf, bufsz, "%s to move%s", who, check ? " - check!" : "");
    const char *opening = session_opening(s);
    if (opening && len > 0 && (size_t)len < bufsz)
        snprintf(buf + len, bufsz - (size_t)len, "   %s", opening);
}

void session_player_label(const Session *s, Color c, char *name, size_t namesz, char *detail,
                          size_t detailsz) {
    const GameSettings *st = game_settings(s->game);
    bool engine = game_player(s->game, c) == PLAYER_ENGINE;
    if (st->names[c][0])
        snprintf(name, namesz, "%s", st->names[c]);
    else
        snprintf(name, namesz, "%s", engine ? "patzer" : "You");
    if (engine)
        snprintf(detail, detailsz, "level %d (~%d Elo)", st->level, engine_level_elo(st->level));
    else
        snprintf(detail, detailsz, "human");
}
