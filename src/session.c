// SPDX-License-Identifier: GPL-3.0-or-later
// The playing session: commands, engine requests and their replies.
#include "src/session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"
#include "src/command.h"
#include "src/eventq.h"
#include "src/session_io.h"

// How long the engine thinks for a hint.
enum { HINT_MOVETIME_MS = 1000, MESSAGE_MAX = 4096 };

typedef enum { REQ_NONE, REQ_MOVE, REQ_HINT } RequestKind;

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

    Board scratch;             // for turning PVs into SAN
    const char *sans[GAME_MAX_PLIES];
    MoveList completion_moves;
    char completion_san[MAX_MOVES][MOVE_TEXT_MAX];
};

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
    engine_set_position(s->engine, game_board(s->game));
    s->request++;
    s->request_kind = kind;
    s->request_gen = game_generation(s->game);
    s->engine_busy = true;
    if (kind == REQ_MOVE) {
        memset(&s->thinking, 0, sizeof s->thinking);
        s->thinking.active = true;
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
    if (info->multipv != 1)
        return;
    if (s->request_kind == REQ_MOVE && info->bound == BOUND_EXACT)
        s->engine_score = info->mate ? (info->mate > 0 ? VALUE_MATE : -VALUE_MATE) : info->score;
    if (s->request_kind != REQ_MOVE)
        return;
    bool white = game_board(s->game)->side == WHITE;
    SessionThinking *t = &s->thinking;
    t->shown = true;
    t->depth = info->depth;
    t->seldepth = info->seldepth;
    t->score_white = white ? info->score : -info->score;
    t->mate_white = white ? info->mate : -info->mate;
    t->nodes = info->nodes;
    t->nps = info->nps;
    pv_to_san(s, info, t->pv_san, sizeof t->pv_san);
}

static void announce_end(Session *s) {
    if (game_is_over(s->game))
        say(s, MSG_INFO, "%s %s", game_result_text(s->game), game_end_text(s->game));
}

static void after_move(Session *s, int64_t now) {
    s->hint = MOVE_NONE;
    session_autosave(s->game, s->opts.autosave_path, now);
    changed(s);
    announce_end(s);
}

static void handle_bestmove(Session *s, const Event *ev, int64_t now) {
    RequestKind kind = s->request_kind;
    s->engine_busy = false;
    s->request_kind = REQ_NONE;
    s->thinking.active = false;
    if (game_generation(s->game) != s->request_gen || ev->best == MOVE_NONE)
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
        if (ev.request != s->request)
            continue; // a reply to a request that was cancelled
        if (ev.kind == EV_INFO)
            handle_info(s, &ev.info);
        else
            handle_bestmove(s, &ev, now);
    }
    if (game_tick(s->game, now)) {
        cancel_engine(s);
        session_autosave(s->game, s->opts.autosave_path, now);
        changed(s);
        announce_end(s);
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

// ----------------------------------------------------------------- commands

static Color human_side(const Session *s) {
    Color turn = game_turn(s->game);
    if (game_player(s->game, turn) == PLAYER_HUMAN)
        return turn;
    return (Color)!turn;
}

static void update_flip(Session *s) {
    s->flipped = game_player(s->game, BLACK) == PLAYER_HUMAN &&
                 game_player(s->game, WHITE) == PLAYER_ENGINE;
}

static void new_game(Session *s, const Command *cmd, int64_t now) {
    GameSettings settings = *game_settings(s->game);
    settings.start_fen[0] = '\0';
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
    session_autosave(s->game, s->opts.autosave_path, now);
    changed(s);
    say(s, MSG_INFO, "New game.");
}

static void play_sides(Session *s, const Command *cmd) {
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
    session_autosave(s->game, s->opts.autosave_path, now);
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
    cancel_engine(s);
    Color turn = game_turn(s->game);
    game_set_players(s->game, turn == WHITE ? PLAYER_ENGINE : PLAYER_HUMAN,
                     turn == BLACK ? PLAYER_ENGINE : PLAYER_HUMAN);
    update_flip(s);
    changed(s);
    session_poll(s, now);
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
            session_autosave(s->game, s->opts.autosave_path, now);
            changed(s);
        } else {
            say(s, MSG_ERROR, "Bad FEN: %s", err);
        }
        break;
    case CMD_SAVE:
        if (session_save(s->game, cmd->text, now, err, sizeof err))
            say(s, MSG_INFO, "Saved to %s.", cmd->text);
        else
            say(s, MSG_ERROR, "%s", err);
        break;
    case CMD_LOAD:
        cancel_engine(s);
        if (session_load(s->game, cmd->text, now, err, sizeof err)) {
            s->hint = MOVE_NONE;
            memset(&s->thinking, 0, sizeof s->thinking);
            update_flip(s);
            changed(s);
            say(s, MSG_INFO, "Loaded %s.", cmd->text);
        } else {
            say(s, MSG_ERROR, "%s", err);
        }
        break;
    case CMD_GO:
        go_now(s, now);
        break;
    case CMD_STOP:
        if (s->engine_busy)
            engine_stop(s->engine);
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
    if (opts->resume) {
        if (session_load(s->game, opts->autosave_path, now, why, sizeof why) &&
            !game_is_over(s->game))
            say(s, MSG_INFO, "Resumed the unfinished game.");
        else
            say(s, MSG_INFO, "No unfinished game to resume; a new game starts.");
    }
    update_flip(s);
    return s;
}

void session_free(Session *s, int64_t now) {
    if (!s)
        return;
    cancel_engine(s);
    session_autosave(s->game, s->opts.autosave_path, now);
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

const char *const *session_sans(Session *s) {
    int n = game_ply_count(s->game);
    for (int i = 0; i < n; i++)
        s->sans[i] = game_move(s->game, i)->san;
    return s->sans;
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

void session_status(const Session *s, char *buf, size_t bufsz) {
    const Game *g = s->game;
    if (game_is_over(g)) {
        snprintf(buf, bufsz, "%s  %s", game_result_text(g), game_end_text(g));
        return;
    }
    Color turn = game_turn(g);
    const char *who = turn == WHITE ? "White" : "Black";
    bool check = board_in_check(game_board(g));
    if (game_player(g, turn) == PLAYER_ENGINE)
        snprintf(buf, bufsz, "%s to move (patzer is thinking)%s", who, check ? " - check" : "");
    else
        snprintf(buf, bufsz, "%s to move%s", who, check ? " - check!" : "");
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
