// SPDX-License-Identifier: GPL-3.0-or-later
// The xboard (CECP, protocol 2) front end: translates the GUI's commands to
// the game controller (src/game/game.h), which keeps the game, the clocks,
// who plays which side and the result, and runs the engine when it is to move.
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/engine.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "src/game/game.h"
#include "src/protocol/protocol.h"
#include "src/util/netfile.h"
#include "src/util/paths.h"
#include "src/util/text.h"

enum {
    PONG_QUEUE = 16,            // pings held back until the engine has moved
    DEFAULT_MOVETIME_MS = 5000, // when the GUI gave neither clock nor st nor sd
    DRAW_ACCEPT_CP = -200,      // accept a draw offer at this score or worse
    XB_MATE_SCORE = 100000,     // xboard's way of writing "mate in N": 100000 + N
    FEN_TEXT_MAX = 256,
    ECHO_MAX = 60,
};

typedef enum { SEARCH_NONE, SEARCH_THINK, SEARCH_ANALYZE } SearchKind;

typedef struct Xboard {
    FILE *out;
    Engine *engine;
    atomic_bool out_broken;

    // The search thread's callbacks touch the fields below under the lock.
    // The main thread may skip the lock only while no search runs (after
    // settle), since the callbacks are the only other writers.
    pthread_mutex_t lock; // also serialises all output
    Game *game;           // the game; the engine plays the sides marked PLAYER_ENGINE
    SearchKind kind;      // what the current search is for
    bool discard;         // the current search's move must not be played
    bool thinking;        // a SEARCH_THINK that has not reported its move yet
    bool post;            // thinking output on
    bool have_score;
    int last_score; // the engine's last reported score, its own view
    int last_depth;
    Move hint;     // a move to suggest to the user
    bool chess960; // variant fischerandom: castling written O-O / O-O-O
    int pongs[PONG_QUEUE];
    int pong_count;

    // Main thread only.
    bool analyzing;
    bool ponder;           // hard/easy; recorded, pondering is not used
    int64_t st_ms;         // exact time per move, 0 when unset
    int sd;                // depth limit, 0 when unset
    bool have_time;        // the GUI reported the clocks with time/otim
    int64_t my_cs, opp_cs; // those clocks in centiseconds, applied when the engine thinks
    NetFile net;           // the net of EvalFile while UseNNUE is on
} Xboard;

// ------------------------------------------------------------------ output

// Prints one whole line; the caller holds the lock.
__attribute__((format(printf, 2, 3))) static void emit(Xboard *x, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (vfprintf(x->out, fmt, ap) < 0 || fputc('\n', x->out) == EOF || fflush(x->out) == EOF)
        atomic_store(&x->out_broken, true);
    va_end(ap);
}

// Prints one whole line, taking the lock.
__attribute__((format(printf, 2, 3))) static void say(Xboard *x, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&x->lock);
    if (vfprintf(x->out, fmt, ap) < 0 || fputc('\n', x->out) == EOF || fflush(x->out) == EOF)
        atomic_store(&x->out_broken, true);
    pthread_mutex_unlock(&x->lock);
    va_end(ap);
}

// ------------------------------------------------------------------ words

// Seconds, possibly fractional, as milliseconds.
static bool parse_seconds(const char *text, int64_t *ms) {
    if (!text)
        return false;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || v < 0 || v > 1e9)
        return false;
    *ms = (int64_t)(v * 1000.0 + 0.5);
    return true;
}

// `level`'s base time: minutes, or minutes:seconds.
static bool parse_base(const char *text, int64_t *ms) {
    if (!text)
        return false;
    const char *colon = strchr(text, ':');
    if (!colon) {
        int64_t s;
        if (!parse_seconds(text, &s))
            return false;
        *ms = s * 60;
        return true;
    }
    char minutes[32];
    size_t n = (size_t)(colon - text);
    if (n == 0 || n >= sizeof minutes)
        return false;
    memcpy(minutes, text, n);
    minutes[n] = '\0';
    int64_t m, s;
    if (!text_parse_i64(minutes, 0, 1000000, &m) || !text_parse_i64(colon + 1, 0, 59, &s))
        return false;
    *ms = (m * 60 + s) * 1000;
    return true;
}

// ------------------------------------------------------------------ game state

// Who plays: the engine one side, or neither (force mode, analysis).
static void set_engine_side(Xboard *x, Color engine) {
    PlayerKind p[COLOR_NB] = { PLAYER_HUMAN, PLAYER_HUMAN };
    if (engine != COLOR_NB)
        p[engine] = PLAYER_ENGINE;
    game_set_players(x->game, p[WHITE], p[BLACK]);
}

static bool force_mode(const Xboard *x) {
    return game_player(x->game, WHITE) == PLAYER_HUMAN &&
           game_player(x->game, BLACK) == PLAYER_HUMAN;
}

// A move as xboard reads it: coordinates, and in fischerandom castling as
// O-O / O-O-O (the king's two-square step of standard chess would be
// ambiguous there).
static void move_text(const Xboard *x, Move m, char *text) {
    if (x->chess960 && move_kind(m) == MOVE_CASTLING)
        strcpy(text, square_file(move_to(m)) == 6 ? "O-O" : "O-O-O");
    else
        notation_to_uci(m, text);
}

// Parses a user move (coordinates or SAN) in the current position.
static NotationStatus parse_move(Xboard *x, const char *text, Move *m) {
    char err[160];
    const Board *b = game_board(x->game);
    NotationStatus st = notation_parse_uci(b, text, m);
    if (st != NOTATION_OK)
        st = notation_parse_move(b, text, m, err, sizeof err);
    return st;
}

// Announces the result if the game is over. When the engine plays, it first
// claims a draw the rules allow (at once: xboard checks the claim); in force
// mode the GUI is only replaying moves, and a claimable draw is not an end.
// The caller holds the lock or no search runs. Returns true when it is over.
static bool check_game_end(Xboard *x, bool locked) {
    Game *g = x->game;
    if (!game_is_over(g) && !force_mode(x) &&
        outcome_claimable(game_board(g), game_keys(g), game_ply_count(g)) != END_NONE &&
        game_claim_draw(g, MOVE_NONE, search_now_ms(), NULL, 0) != GAME_OK)
        return false;
    if (!game_is_over(g))
        return false;
    if (locked)
        emit(x, "%s {%s}", game_result_text(g), game_end_text(g));
    else
        say(x, "%s {%s}", game_result_text(g), game_end_text(g));
    return true;
}

// ------------------------------------------------------------------ search reports

static void on_info(const SearchInfo *info, void *ctx) {
    Xboard *x = ctx;
    pthread_mutex_lock(&x->lock);
    bool mate = info->score >= VALUE_MATE_IN_MAX || info->score <= VALUE_MATED_IN_MAX;
    int score = !mate            ? info->score
                : info->mate > 0 ? XB_MATE_SCORE + info->mate
                                 : -XB_MATE_SCORE + info->mate;
    if (info->multipv == 1 && info->bound == BOUND_EXACT) {
        if (x->kind == SEARCH_THINK) {
            x->last_score = info->score;
            x->last_depth = info->depth;
            x->have_score = true;
        } else if (info->pv_length > 0) {
            x->hint = info->pv[0];
        }
    }
    // Bound reports have no form in xboard's thinking output; skip them.
    if ((x->post || x->kind == SEARCH_ANALYZE) && info->bound == BOUND_EXACT && !x->discard) {
        fprintf(x->out, "%d %d %" PRId64 " %" PRIu64, info->depth, score, info->time_ms / 10,
                info->nodes);
        for (int i = 0; i < info->pv_length; i++) {
            char move[MOVE_TEXT_MAX];
            move_text(x, info->pv[i], move);
            fprintf(x->out, " %s", move);
        }
        if (fputc('\n', x->out) == EOF || fflush(x->out) == EOF)
            atomic_store(&x->out_broken, true);
    }
    pthread_mutex_unlock(&x->lock);
}

static void on_bestmove(Move best, Move ponder, void *ctx) {
    Xboard *x = ctx;
    pthread_mutex_lock(&x->lock);
    if (x->kind == SEARCH_THINK && x->thinking && !x->discard) {
        int score = x->have_score ? x->last_score : VALUE_NONE;
        int depth = x->have_score ? x->last_depth : 0;
        if (best != MOVE_NONE &&
            game_play_move(x->game, best, score, depth, search_now_ms()) == GAME_OK) {
            char text[MOVE_TEXT_MAX];
            move_text(x, best, text);
            emit(x, "move %s", text);
            x->hint = ponder;
        }
        (void)check_game_end(x, true);
    }
    x->thinking = false;
    // Pings sent while the engine thought are answered after its move.
    for (int i = 0; i < x->pong_count; i++)
        emit(x, "pong %d", x->pongs[i]);
    x->pong_count = 0;
    pthread_mutex_unlock(&x->lock);
}

// Ends the running search, if any, without playing its move. Afterwards the
// main thread owns every field until it starts the next search.
static void settle(Xboard *x) {
    if (!engine_is_searching(x->engine))
        return;
    pthread_mutex_lock(&x->lock);
    x->discard = true;
    pthread_mutex_unlock(&x->lock);
    engine_stop(x->engine);
    engine_wait(x->engine);
    x->kind = SEARCH_NONE;
}

// Lets the engine finish the move it is thinking about (a GUI waits for that
// move: throwing it away would leave the game stuck), then ends any other
// search as settle does. For commands that need the engine idle but do not
// change the game.
static void settle_after_move(Xboard *x) {
    if (x->kind == SEARCH_THINK && engine_is_searching(x->engine))
        engine_wait(x->engine);
    settle(x);
}

// Whether the engine is thinking about its own move, which a move from the
// user would then be out of turn for.
static bool engine_thinking(Xboard *x) {
    pthread_mutex_lock(&x->lock);
    bool thinking = x->kind == SEARCH_THINK && x->thinking && !x->discard;
    pthread_mutex_unlock(&x->lock);
    return thinking;
}

static void start_search(Xboard *x, SearchKind kind, const SearchLimits *limits) {
    settle(x);
    x->kind = kind;
    x->discard = false;
    x->thinking = kind == SEARCH_THINK;
    engine_set_position(x->engine, game_board(x->game), game_keys(x->game),
                        game_ply_count(x->game));
    EngineCallbacks cb = { .on_info = on_info, .on_bestmove = on_bestmove, .ctx = x };
    engine_go(x->engine, limits, &cb);
}

// The GUI's last clock report (time/otim) becomes the game's clocks, the
// engine's being the side to move's; an untimed game gets a clock from it.
static void apply_gui_clocks(Xboard *x, int64_t now) {
    if (!x->have_time)
        return;
    Color us = game_turn(x->game);
    int64_t ms[COLOR_NB];
    ms[us] = x->my_cs > 0 ? x->my_cs * 10 : 0;
    ms[!us] = x->opp_cs > 0 ? x->opp_cs * 10 : 0;
    if (game_settings(x->game)->tc.untimed) {
        // The rest of the game in the time reported, as far as we know.
        TimeControl tc = { .untimed = false, .count = 1 };
        tc.periods[0].base_ms = ms[us];
        game_set_time_control(x->game, &tc, now);
    }
    game_set_clocks(x->game, ms, now);
}

// Thinks about the engine's move in the current position, within the time
// control the GUI set: st, else the game's clocks, else a fixed time (unless
// sd alone limits the search).
static void start_thinking(Xboard *x) {
    int64_t now = search_now_ms();
    apply_gui_clocks(x, now);
    SearchLimits limits;
    game_search_limits(x->game, now, &limits);
    if (x->st_ms > 0 || game_settings(x->game)->tc.untimed) {
        search_limits_init(&limits);
        if (x->st_ms > 0)
            limits.movetime = x->st_ms;
        else if (x->sd == 0)
            limits.movetime = DEFAULT_MOVETIME_MS;
    }
    if (x->sd > 0)
        limits.depth = x->sd;
    x->have_score = false;
    game_start_clock(x->game, now);
    start_search(x, SEARCH_THINK, &limits);
}

static void start_analysis(Xboard *x) {
    SearchLimits limits;
    search_limits_init(&limits);
    limits.infinite = true;
    x->hint = MOVE_NONE;
    start_search(x, SEARCH_ANALYZE, &limits);
}

// After the game changed: analysis follows it; otherwise nothing runs.
static void after_change(Xboard *x) {
    if (x->analyzing)
        start_analysis(x);
}

// ------------------------------------------------------------------ commands
//
// Every command is a CommandFn given its name and the rest of the line
// (modified in place); the table at the end maps names to them.

typedef void CommandFn(Xboard *x, const char *cmd, char *rest);

static void cmd_protover(Xboard *x, const char *cmd, char *rest) {
    (void)cmd, (void)rest;
    say(x,
        "feature ping=1 setboard=1 playother=1 san=0 usermove=1 time=1 draw=1 sigint=0 "
        "sigterm=0 reuse=1 analyze=1 colors=0 memory=1 smp=1 variants=\"normal,fischerandom\" "
        "myname=\"patzer %s\"",
        PACKAGE_VERSION);
    say(x, "feature done=1");
}

// fischerandom or normal: the engine marks its positions as Chess960 (and
// leaves the book alone) and moves are written for it.
static void set_variant(Xboard *x, bool chess960) {
    char err[160];
    if (!engine_set_option(x->engine, "UCI_Chess960", chess960 ? "true" : "false", err, sizeof err))
        say(x, "Error (%s): variant", err);
    x->chess960 = chess960;
}

static void cmd_new(Xboard *x, const char *cmd, char *rest) {
    (void)cmd, (void)rest;
    settle(x);
    // A fresh game from the start position under the same time control.
    GameSettings st = *game_settings(x->game);
    st.start_fen[0] = '\0';
    st.players[WHITE] = PLAYER_HUMAN;
    st.players[BLACK] = PLAYER_ENGINE;
    char err[160];
    if (!game_reset(x->game, &st, err, sizeof err))
        say(x, "Error (%s): new", err);
    x->sd = 0;             // `new` removes the depth limit, the spec says
    set_variant(x, false); // and a variant, which comes after it
    x->hint = MOVE_NONE;
    x->have_score = false;
    x->have_time = false;
    engine_new_game(x->engine);
    after_change(x);
}

// Plays the user's move m for whichever side is to move.
static void play_user_move(Xboard *x, Move m, const char *text) {
    GameStatus st = game_play_move(x->game, m, VALUE_NONE, 0, search_now_ms());
    if (st != GAME_OK) {
        say(x, "Illegal move (%s): %.*s",
            st == GAME_ERR_GAME_OVER ? "the game is over" : "not playable", ECHO_MAX, text);
        after_change(x);
        return;
    }
    x->hint = MOVE_NONE;
    if (check_game_end(x, false)) {
        after_change(x);
        return;
    }
    if (x->analyzing)
        start_analysis(x);
    else if (game_engine_to_move(x->game))
        start_thinking(x);
}

// A move from the user, in coordinates or SAN. While the engine thinks about
// its own move it is refused and the search goes on.
static void user_move_text(Xboard *x, const char *text) {
    if (!text) {
        say(x, "Error (missing move): usermove");
        return;
    }
    if (engine_thinking(x)) {
        say(x, "Illegal move (the engine is to move): %.*s", ECHO_MAX, text);
        return;
    }
    settle(x);
    Move m;
    if (parse_move(x, text, &m) != NOTATION_OK) {
        say(x, "Illegal move: %.*s", ECHO_MAX, text);
        after_change(x);
        return;
    }
    play_user_move(x, m, text);
}

static void cmd_usermove(Xboard *x, const char *cmd, char *rest) {
    (void)cmd;
    user_move_text(x, text_next_word(&rest));
}

static void cmd_go(Xboard *x, const char *cmd, char *rest) {
    (void)cmd, (void)rest;
    settle(x);
    x->analyzing = false;
    set_engine_side(x, game_turn(x->game));
    if (check_game_end(x, false))
        return;
    start_thinking(x);
}

static void cmd_level(Xboard *x, const char *cmd, char *rest) {
    (void)cmd;
    int64_t mps, base, inc;
    char *a = text_next_word(&rest), *b = text_next_word(&rest), *c = text_next_word(&rest);
    // Each argument is named when wrong, so that the user sees which.
    if (!text_parse_i64(a, 0, 100000, &mps)) {
        say(x, "Error (moves per session '%.*s' is not a number from 0 to 100000): level",
            ECHO_MAX, a ? a : "");
        return;
    }
    if (!parse_base(b, &base)) {
        say(x, "Error (base time '%.*s' is not minutes or minutes:seconds): level", ECHO_MAX,
            b ? b : "");
        return;
    }
    if (!parse_seconds(c, &inc)) {
        say(x, "Error (increment '%.*s' is not a number of seconds): level", ECHO_MAX, c ? c : "");
        return;
    }
    // MPS moves in BASE, repeating; no moves and no time at all: no clock.
    TimeControl tc = { .untimed = base == 0 && inc == 0, .count = 1 };
    tc.periods[0] = (TimePeriod){ .moves = (int)mps, .base_ms = base, .inc_ms = inc };
    pthread_mutex_lock(&x->lock); // a running search's move may be played meanwhile
    game_set_time_control(x->game, &tc, search_now_ms());
    pthread_mutex_unlock(&x->lock);
    x->st_ms = 0;
    x->have_time = false;
}

static void cmd_setboard(Xboard *x, const char *cmd, char *rest) {
    (void)cmd;
    settle(x);
    char *fen = text_trim(rest);
    char err[160];
    if (strlen(fen) >= FEN_TEXT_MAX) {
        say(x, "tellusererror Illegal position: FEN too long");
    } else if (!game_set_fen(x->game, fen, search_now_ms(), err, sizeof err)) {
        say(x, "tellusererror Illegal position: %s", err);
    } else {
        x->hint = MOVE_NONE;
    }
    after_change(x);
}

// `undo` takes back one ply, `remove` two, whoever made them.
static void cmd_undo(Xboard *x, const char *name, char *rest) {
    (void)rest;
    int plies = strcmp(name, "remove") == 0 ? 2 : 1;
    settle(x);
    Game *g = x->game;
    if (game_ply_count(g) < plies) {
        say(x, "Error (no moves to take back): %s", name);
    } else {
        // With both sides human, game_undo takes back one ply at a time.
        PlayerKind white = game_player(g, WHITE), black = game_player(g, BLACK);
        set_engine_side(x, COLOR_NB);
        for (int i = 0; i < plies; i++)
            if (game_undo(g, search_now_ms()) != GAME_OK)
                say(x, "Error (cannot take back): %s", name);
        game_set_players(g, white, black);
        x->hint = MOVE_NONE;
    }
    after_change(x);
}

static void cmd_ping(Xboard *x, const char *cmd, char *rest) {
    (void)cmd;
    int64_t n;
    if (!text_parse_i64(text_next_word(&rest), INT32_MIN, INT32_MAX, &n)) {
        say(x, "Error (bad argument): ping");
        return;
    }
    pthread_mutex_lock(&x->lock);
    if (x->thinking && x->kind == SEARCH_THINK && x->pong_count < PONG_QUEUE)
        x->pongs[x->pong_count++] = (int)n;
    else
        emit(x, "pong %d", (int)n);
    pthread_mutex_unlock(&x->lock);
}

static void cmd_draw(Xboard *x, const char *cmd, char *rest) {
    (void)cmd, (void)rest;
    pthread_mutex_lock(&x->lock);
    if (!force_mode(x) && !x->analyzing && x->have_score && x->last_score <= DRAW_ACCEPT_CP)
        emit(x, "offer draw");
    pthread_mutex_unlock(&x->lock);
}

static void cmd_hint(Xboard *x, const char *cmd, char *rest) {
    (void)cmd, (void)rest;
    pthread_mutex_lock(&x->lock);
    // The board is stable under the lock: only the move callback changes it.
    if (x->hint != MOVE_NONE && movegen_is_legal(game_board(x->game), x->hint)) {
        char text[MOVE_TEXT_MAX];
        move_text(x, x->hint, text);
        emit(x, "Hint: %s", text);
    }
    pthread_mutex_unlock(&x->lock);
}

static void set_option(Xboard *x, const char *name, const char *value, const char *cmd) {
    char err[256];
    settle_after_move(x);
    if (!engine_set_option(x->engine, name, value, err, sizeof err)) {
        say(x, "Error (%s): %s", err, cmd);
    } else if (strcasecmp(name, "EvalFile") == 0 || strcasecmp(name, "UseNNUE") == 0) {
        // The net is read here, with no search running, and what happened is said.
        char msg[NNUE_DESC_MAX + 1200];
        NetFileStatus st = netfile_sync(&x->net, x->engine, msg, sizeof msg);
        if (st != NETFILE_QUIET)
            say(x, "%s %s", st == NETFILE_ERROR ? "tellusererror" : "telluser", msg);
    }
    after_change(x);
}

static void cmd_memory(Xboard *x, const char *cmd, char *rest) {
    (void)cmd;
    int64_t mb;
    if (!text_parse_i64(text_next_word(&rest), 1, INT32_MAX, &mb)) {
        say(x, "Error (bad argument): memory");
        return;
    }
    for (int i = 0; i < engine_option_count(); i++) {
        const EngineOption *o = engine_option(i);
        if (strcmp(o->name, "Hash") == 0) {
            // The GUI's budget may be outside what the table takes: clamp.
            if (mb > o->max)
                mb = o->max;
            if (mb < o->min)
                mb = o->min;
        }
    }
    char value[32];
    snprintf(value, sizeof value, "%" PRId64, mb);
    set_option(x, "Hash", value, "memory");
}

// `cores N`: the search threads the GUI allows (clamped to what the engine takes).
static void cmd_cores(Xboard *x, const char *cmd, char *rest) {
    (void)cmd;
    int64_t n;
    if (!text_parse_i64(text_next_word(&rest), 1, INT32_MAX, &n)) {
        say(x, "Error (bad argument): cores");
        return;
    }
    if (n > SEARCH_THREADS_MAX)
        n = SEARCH_THREADS_MAX;
    char value[32];
    snprintf(value, sizeof value, "%" PRId64, n);
    set_option(x, "Threads", value, "cores");
}

// `option NAME=VALUE` or `option NAME` (a button).
static void cmd_option(Xboard *x, const char *cmd, char *rest) {
    (void)cmd;
    char *text = text_trim(rest);
    char *eq = strchr(text, '=');
    if (eq)
        *eq = '\0';
    set_option(x, text_trim(text), eq ? text_trim(eq + 1) : NULL, "option");
}

// Commands with nothing to do here.
static void cmd_ignore(Xboard *x, const char *cmd, char *rest) {
    (void)x, (void)cmd, (void)rest;
}

static void cmd_variant(Xboard *x, const char *cmd, char *rest) {
    (void)cmd;
    char *v = text_next_word(&rest);
    settle_after_move(x);
    if (v && strcmp(v, "normal") == 0)
        set_variant(x, false);
    else if (v && strcmp(v, "fischerandom") == 0)
        set_variant(x, true);
    else
        say(x, "Error (unsupported variant): %.*s", ECHO_MAX, v ? v : "");
}

// `force` and `result`: the engine plays neither side (and stops analysing).
static void cmd_force(Xboard *x, const char *cmd, char *rest) {
    (void)rest;
    settle(x);
    set_engine_side(x, COLOR_NB);
    if (strcmp(cmd, "result") == 0)
        x->analyzing = false;
    else
        after_change(x);
}

static void cmd_playother(Xboard *x, const char *cmd, char *rest) {
    (void)cmd, (void)rest;
    settle(x);
    set_engine_side(x, (Color)!game_turn(x->game));
    after_change(x);
}

static void cmd_st(Xboard *x, const char *cmd, char *rest) {
    (void)cmd;
    int64_t ms;
    if (parse_seconds(text_next_word(&rest), &ms) && ms > 0)
        x->st_ms = ms;
    else
        say(x, "Error (bad argument): st");
}

static void cmd_sd(Xboard *x, const char *cmd, char *rest) {
    (void)cmd;
    int64_t n;
    if (text_parse_i64(text_next_word(&rest), 1, MAX_PLY - 1, &n))
        x->sd = (int)n;
    else
        say(x, "Error (bad argument): sd");
}

// `time N` and `otim N`: the engine's and the opponent's clocks.
static void cmd_time(Xboard *x, const char *cmd, char *rest) {
    int64_t n;
    if (!text_parse_i64(text_next_word(&rest), INT32_MIN, INT32_MAX, &n)) {
        say(x, "Error (bad argument): %s", cmd);
        return;
    }
    *(cmd[0] == 't' ? &x->my_cs : &x->opp_cs) = n;
    x->have_time = true;
}

// `?`: move now; the move is still made, just sooner.
static void cmd_move_now(Xboard *x, const char *cmd, char *rest) {
    (void)cmd, (void)rest;
    if (x->kind == SEARCH_THINK)
        engine_stop(x->engine);
}

static void cmd_hard(Xboard *x, const char *cmd, char *rest) {
    (void)rest;
    x->ponder = cmd[0] == 'h';
}

static void cmd_post(Xboard *x, const char *cmd, char *rest) {
    (void)rest;
    pthread_mutex_lock(&x->lock);
    x->post = cmd[0] == 'p';
    pthread_mutex_unlock(&x->lock);
}

static void cmd_analyze(Xboard *x, const char *cmd, char *rest) {
    (void)cmd, (void)rest;
    settle(x);
    x->analyzing = true;
    start_analysis(x);
}

static void cmd_exit(Xboard *x, const char *cmd, char *rest) {
    (void)cmd, (void)rest;
    settle(x);
    x->analyzing = false;
}

static void cmd_bk(Xboard *x, const char *cmd, char *rest) {
    (void)cmd, (void)rest;
    say(x, " patzer has no book moves to show\n");
}

static const struct {
    const char *name;
    CommandFn *run;
} COMMANDS[] = {
    { "xboard", cmd_ignore },     { "accepted", cmd_ignore }, { "rejected", cmd_ignore },
    { "random", cmd_ignore },     { "computer", cmd_ignore }, { "name", cmd_ignore },
    { "rating", cmd_ignore },     { "ics", cmd_ignore },      { "cores", cmd_cores },
    { "egtpath", cmd_ignore },    { ".", cmd_ignore },        { "protover", cmd_protover },
    { "new", cmd_new },           { "variant", cmd_variant }, { "force", cmd_force },
    { "result", cmd_force },      { "go", cmd_go },           { "playother", cmd_playother },
    { "level", cmd_level },       { "st", cmd_st },           { "sd", cmd_sd },
    { "time", cmd_time },         { "otim", cmd_time },       { "usermove", cmd_usermove },
    { "?", cmd_move_now },        { "ping", cmd_ping },       { "draw", cmd_draw },
    { "setboard", cmd_setboard }, { "undo", cmd_undo },       { "remove", cmd_undo },
    { "hard", cmd_hard },         { "easy", cmd_hard },       { "post", cmd_post },
    { "nopost", cmd_post },       { "analyze", cmd_analyze }, { "exit", cmd_exit },
    { "hint", cmd_hint },         { "bk", cmd_bk },           { "memory", cmd_memory },
    { "option", cmd_option },
};

// Runs one command line (modified in place); returns true on `quit`.
static bool xboard_command(Xboard *x, char *line) {
    char *rest = line;
    char *cmd = text_next_word(&rest);
    if (!cmd)
        return false;
    if (strcmp(cmd, "quit") == 0)
        return true;
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++) {
        if (strcmp(cmd, COMMANDS[i].name) == 0) {
            COMMANDS[i].run(x, cmd, rest);
            return false;
        }
    }
    // A bare move (protocol 1 style, or a GUI without usermove). An unknown
    // word leaves a running search alone; the board is read under the lock,
    // since the engine's move may be played meanwhile.
    Move m;
    pthread_mutex_lock(&x->lock);
    NotationStatus st = parse_move(x, cmd, &m);
    pthread_mutex_unlock(&x->lock);
    if (st == NOTATION_UNPARSEABLE)
        say(x, "Error (unknown command): %.*s", ECHO_MAX, cmd);
    else
        user_move_text(x, cmd);
    return false;
}

int xboard_run(FILE *in, FILE *out, const char *first_line) {
    Xboard *x = calloc(1, sizeof *x);
    if (!x) {
        fputs("patzer: out of memory\n", stderr);
        return 1;
    }
    x->out = out;
    x->engine = engine_new();
    if (!x->engine) {
        fputs("patzer: out of memory for the engine\n", stderr);
        free(x);
        return 1;
    }
    paths_set_default_book(x->engine);
    char msg[NNUE_DESC_MAX + 1200];
    if (netfile_sync(&x->net, x->engine, msg, sizeof msg) == NETFILE_ERROR)
        fprintf(out, "# %s\n", msg); // before the handshake: a comment xboard ignores
    // Human White, engine Black, no clock until the GUI sets one; xboard
    // judges the flags.
    GameSettings settings;
    game_settings_default(&settings);
    settings.tc = (TimeControl){ .untimed = true };
    settings.gui_referees_time = true;
    char err[160];
    x->game = game_new(&settings, err, sizeof err);
    if (!x->game || pthread_mutex_init(&x->lock, NULL) != 0) {
        fprintf(stderr, "patzer: %s\n", x->game ? "cannot create a mutex" : err);
        game_free(x->game);
        engine_free(x->engine);
        free(x);
        return 1;
    }
    atomic_init(&x->out_broken, false);
    x->hint = MOVE_NONE;

    bool quit = false;
    if (first_line) {
        char *copy = strdup(first_line);
        if (copy) {
            quit = xboard_command(x, copy);
            free(copy);
        }
    }
    char *line = NULL;
    size_t cap = 0;
    // End of input counts as quit: the GUI has gone away.
    ssize_t len;
    while (!quit && !atomic_load(&x->out_broken) && (len = getline(&line, &cap, in)) != -1) {
        int bad = text_first_control(line, (size_t)len);
        if (bad >= 0) // echoed raw, or cut at a NUL, it would read as another command
            say(x, "Error (control byte 0x%02X): line ignored", bad);
        else
            quit = xboard_command(x, line);
    }
    free(line);

    settle(x);
    netfile_release(&x->net, x->engine);
    engine_free(x->engine);
    game_free(x->game);
    pthread_mutex_destroy(&x->lock);
    free(x);
    return 0;
}
