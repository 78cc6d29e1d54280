// SPDX-License-Identifier: GPL-3.0-or-later
// Mode analyse: the engine analyses a copy of the position shown (with the
// moves before it, and after it when it came from a file), following every
// move, undo or step. It ends on stop, or by itself at its time or depth
// limit; leaving it stops the search. The game it was started from is
// untouched.
#include <stdio.h>
#include <string.h>

#include "src/session/session_int.h"

typedef struct AnalyseState {
    Game *game; // a copy of the position shown, both sides human
    SearchLimits limits;
    bool limited; // ends by itself (time or depth)
    bool of_live; // a copy of your game: the panel names your game's players
} AnalyseState;

static AnalyseState *state(const Session *s) {
    return s->mode_state[SESSION_ANALYSE];
}

static const Transition stay = { .kind = TR_STAY };

static bool analyse_enter(Session *s, const ModeArgs *args, int64_t now) {
    Game *g = game_clone(args->source);
    if (!g) {
        session_say(s, MSG_ERROR, "out of memory starting the analysis");
        return false;
    }
    game_pause(g, now);
    game_set_players(g, PLAYER_HUMAN, PLAYER_HUMAN);
    game_free(state(s)->game);
    state(s)->game = g;
    state(s)->of_live = args->source == s->live;
    state(s)->limited = args->limits != NULL;
    if (args->limits)
        state(s)->limits = *args->limits;
    think_cancel(&s->think);
    memset(&s->think.thinking, 0, sizeof s->think.thinking);
    session_say(s, MSG_INFO, "Analysing%s: stop ends it, back returns to your game.",
                args->limits ? "" : " without end");
    return true;
}

static void analyse_leave(Session *s, int64_t now) {
    (void)now;
    think_cancel(&s->think);
    memset(&s->think.thinking, 0, sizeof s->think.thinking); // not shown in other modes
    game_free(state(s)->game);
    state(s)->game = NULL;
}

// The lines reached so far, kept for the position analysed (the panel
// shows them as final while it is on the board), and back to where the
// analysis was started.
static Transition finish(Session *s, const char *why) {
    if (s->think.thinking.shown) {
        s->analysis_final = s->think.thinking;
        s->analysis_final.final = true;
        s->analysis_final.active = false;
        s->analysis_final.analysing = true;
        s->analysis_final_key = game_board(state(s)->game)->key;
        char text[MESSAGE_MAX];
        think_format(&s->think, "final ", text, sizeof text);
        session_say(s, MSG_ANALYSIS, "%s", text);
    }
    session_say(s, MSG_INFO, "%s", why);
    return (Transition){ .kind = TR_BACK };
}

static bool step(Session *s, const Command *cmd, int64_t now) {
    Game *g = state(s)->game;
    char err[512] = "";
    switch (cmd->kind) {
    case CMD_MOVE: {
        GameStatus st = game_play_text(g, cmd->text, now, err, sizeof err);
        if (st == GAME_OK)
            return true;
        session_move_error(s, cmd->text, st, err);
        return false;
    }
    case CMD_UNDO:
    case CMD_PREV:
        if (game_undo(g, now) == GAME_OK)
            return true;
        session_say(s, MSG_ERROR, "At the start.");
        return false;
    case CMD_REDO:
    case CMD_NEXT:
        if (game_redo(g, now) == GAME_OK)
            return true;
        session_say(s, MSG_ERROR, "At the end of the line.");
        return false;
    case CMD_FIRST:
        while (game_undo(g, now) == GAME_OK)
            ;
        return true;
    case CMD_LAST:
        while (game_redo(g, now) == GAME_OK)
            ;
        return true;
    default: return false;
    }
}

static Transition analyse_handle(Session *s, const Command *cmd, int64_t now) {
    if (cmd->kind == CMD_STOP)
        return finish(s, "Analysis stopped.");
    if (cmd->kind == CMD_LINES) {
        think_cancel(&s->think); // restarts with the new count at the next poll
        memset(&s->think.thinking, 0, sizeof s->think.thinking);
        return stay;
    }
    if (step(s, cmd, now)) {
        think_cancel(&s->think);
        memset(&s->think.thinking, 0, sizeof s->think.thinking);
        session_changed(s);
    }
    return stay;
}

static Transition on_event(Session *s, const Event *ev) {
    if (ev->kind == EV_INFO) {
        if (think_info(&s->think, &ev->info)) {
            char text[MESSAGE_MAX];
            think_format(&s->think, "", text, sizeof text);
            // A front end redraws its thinking pane on this message; the
            // position did not change, so line mode prints no board.
            session_say(s, MSG_ANALYSIS, "%s", text);
        }
        return stay;
    }
    if (ev->kind != EV_BESTMOVE)
        return stay;
    s->think.busy = false;
    s->think.kind = REQ_NONE;
    s->think.thinking.active = false;
    if (state(s)->limited && s->think.gen == game_generation(state(s)->game))
        return finish(s, "Analysis done.");
    return stay;
}

static Transition analyse_poll(Session *s, const Event *ev, int64_t now) {
    (void)now;
    if (ev)
        return on_event(s, ev);
    const Game *g = state(s)->game;
    if (s->think.busy && s->think.gen == game_generation(g))
        return stay;
    if (s->think.busy)
        think_cancel(&s->think);
    if (movegen_count(game_board(g)) == 0 || game_is_over(g)) {
        if (state(s)->limited)
            return finish(s, "Nothing to analyse: the game is over.");
        return stay;
    }
    if (s->think.thinking.shown && !s->think.thinking.active && !state(s)->limited &&
        s->think.gen == game_generation(g))
        return stay; // the engine found a mate and stopped: keep showing it
    SearchLimits limits;
    search_limits_init(&limits);
    if (state(s)->limited)
        limits = state(s)->limits;
    else
        limits.infinite = true;
    think_start(&s->think, g, REQ_ANALYSIS, &limits, LEVEL_MAX, s->analysis_lines);
    return stay;
}

static const Game *analyse_game(const Session *s) {
    return state(s)->game;
}
static const Game *analyse_players(const Session *s) {
    return state(s)->of_live ? s->live : state(s)->game;
}
static const Board *analyse_board(const Session *s) {
    return game_board(state(s)->game);
}

static void analyse_status(const Session *s, char *buf, size_t bufsz) {
    char text[160];
    session_game_status(state(s)->game, text, sizeof text);
    snprintf(buf, bufsz, "%s - analysing", text);
}

static PgnGame *analyse_to_pgn(Session *s, int64_t now) {
    return gamefile_to_pgn(state(s)->game, s->openings, now);
}

// An analysis with a limit ends by itself: the screen waits for it.
static bool analyse_busy(const Session *s) {
    return state(s)->limited;
}

static void analyse_destroy(Session *s) {
    game_free(state(s)->game);
}

const ModeOps mode_analyse_ops = {
    .state_size = sizeof(AnalyseState),
    .destroy = analyse_destroy,
    .enter = analyse_enter,
    .leave = analyse_leave,
    .handle = analyse_handle,
    .poll = analyse_poll,
    .game = analyse_game,
    .board = analyse_board,
    .status = analyse_status,
    .to_pgn = analyse_to_pgn,
    .refusal_hint = " (stop ends the analysis, back returns to your game)",
    .busy = analyse_busy,
    .players = analyse_players,
};
