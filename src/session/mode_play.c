// SPDX-License-Identifier: GPL-3.0-or-later
// Mode play: the live game against the engine (or yourself). Its clocks run
// only while it is shown: leaving play pauses them, entering restarts them.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/pgn/write.h"
#include "src/session/session_int.h"
#include "src/util/digest.h"

typedef struct PlayState {
    Move hint;              // shown on the board once the hint names the move
    Move hint_found;        // the engine's hint; the first `hint` names only its piece
    bool hint_again;        // `hint` again while the first was thought about: the move
    bool show_eval;         // `eval on`: the engine's thinking shows in a game against it
    int64_t last_move_ms;   // when the last move was made (pacing engine-vs-engine)
    bool clock_was_running; // when play was left: restart it on return
    bool held;              // session_hold: the game waits while the board is covered
    bool held_clock;        // a clock ran (or was started by a move) while held
    PgnSource saved_to;     // where `save` last put the game (path empty: nowhere yet)
    uint64_t saved_digest;  // game_digest of what it wrote there
    // Looking back: the position after the live game's first view_ply moves
    // is shown (-1: the live position), while the clocks and the engine go on.
    int view_ply;
    Board view_board;
} PlayState;

static PlayState *state(const Session *s) {
    return s->mode_state[SESSION_PLAY];
}

enum { HINT_MOVETIME_MS = 1000 };

static const Transition stay = { .kind = TR_STAY };

static void update_flip(Session *s) {
    s->flipped =
        game_player(s->live, BLACK) == PLAYER_HUMAN && game_player(s->live, WHITE) == PLAYER_ENGINE;
}

static void clear_hint(Session *s) {
    state(s)->hint = MOVE_NONE;
    state(s)->hint_found = MOVE_NONE;
    state(s)->hint_again = false;
}

// ----------------------------------------------------------------- looking back

static bool play_viewing(const Session *s) {
    return state(s)->view_ply >= 0;
}

static int shown_ply(const Session *s) {
    return play_viewing(s) ? state(s)->view_ply : game_ply_count(s->live);
}

// "12... Nf6" for the move at the end of the first ply moves ("the start").
static void move_text(const Session *s, int ply, char *buf, size_t bufsz) {
    session_last_move_text(s->live, ply, buf, bufsz);
    if (!buf[0])
        snprintf(buf, bufsz, "the start position");
}

// Shows the position after the live game's first ply moves (its length:
// the live position again); false after saying why.
static bool play_view(Session *s, int ply) {
    int plies = game_ply_count(s->live);
    if (ply < 0 || ply > plies) {
        session_say(s, MSG_ERROR, "Your game has %d move%s.", (plies + 1) / 2,
                    (plies + 1) / 2 == 1 ? "" : "s");
        return false;
    }
    char now_at[64], seen[64];
    move_text(s, plies, now_at, sizeof now_at);
    if (ply == plies) {
        bool was = play_viewing(s);
        state(s)->view_ply = -1;
        session_changed(s);
        if (was)
            session_say(s, MSG_INFO, "Back to your game at %s.", now_at);
        return true;
    }
    Board b = *game_start_board(s->live);
    for (int i = 0; i < ply; i++)
        board_play(&b, game_move(s->live, i)->move);
    state(s)->view_board = b;
    state(s)->view_ply = ply;
    pointing_reset(s);
    move_text(s, ply, seen, sizeof seen);
    session_say(s, MSG_INFO, "Viewing %s; your game is at %s (last or End returns).", seen, now_at);
    session_changed(s);
    return true;
}

// prev, next, first, last, goto N through the live game's moves.
static void step(Session *s, const Command *cmd) {
    int plies = game_ply_count(s->live), at = shown_ply(s);
    switch (cmd->kind) {
    case CMD_PREV:
        if (at == 0)
            session_say(s, MSG_ERROR, "At the start.");
        else
            play_view(s, at - 1);
        break;
    case CMD_NEXT:
        if (at == plies)
            session_say(s, MSG_ERROR, "This is the position of your game.");
        else
            play_view(s, at + 1);
        break;
    case CMD_FIRST: play_view(s, 0); break;
    case CMD_LAST: play_view(s, plies); break;
    case CMD_GOTO: {
        // After White's move N, in the game's own numbering.
        int ply = cmd->number == 0 ? 0
                                   : (cmd->number - game_start_fullmove(s->live)) * 2 +
                                         (game_start_side(s->live) == WHITE ? 1 : 0);
        if (ply < 0 || ply > plies)
            session_say_goto_range(s, "your game", cmd->number, game_start_fullmove(s->live),
                                   game_start_side(s->live), plies);
        else
            play_view(s, ply);
        break;
    }
    default: break;
    }
}

// ----------------------------------------------------------------- the mode

static bool play_enter(Session *s, const ModeArgs *args, int64_t now) {
    (void)args;
    pointing_reset(s);
    state(s)->view_ply = -1;
    // A resumed game is under way: the side to move's clock runs from the
    // moment it is back on the board, not from its next move.
    if ((state(s)->clock_was_running || s->live_resumed) && !game_is_over(s->live))
        game_start_clock(s->live, now);
    state(s)->clock_was_running = s->live_resumed = false;
    clear_hint(s);
    state(s)->last_move_ms = now;
    update_flip(s);
    return true;
}

static void play_leave(Session *s, int64_t now) {
    think_cancel(&s->think);
    state(s)->clock_was_running =
        game_clock(s->live)->running || (state(s)->held && state(s)->held_clock);
    state(s)->held = state(s)->held_clock = false;
    game_pause(s->live, now);
    clear_hint(s);
    pointing_reset(s);
}

static void after_move(Session *s, int64_t now) {
    clear_hint(s);
    if (play_viewing(s) && state(s)->view_ply > game_ply_count(s->live))
        state(s)->view_ply = -1; // the moves looked at were taken back
    s->pointing.selected = SQ_NONE;
    state(s)->last_move_ms = now;
    session_live_changed(s, now);
    session_changed(s);
    if (game_is_over(s->live))
        session_say(s, MSG_INFO, "%s %s%s", game_result_text(s->live), game_end_text(s->live),
                    game_ply_count(s->live) >= 2 ? " - review: a report of the game" : "");
}

static Color human_side(const Session *s) {
    Color turn = game_turn(s->live);
    return game_player(s->live, turn) == PLAYER_HUMAN ? turn : (Color)!turn;
}

static void take_back(Session *s, bool redo, int64_t now) {
    // A finished game stays finished (FIDE: the result stands; lichess does
    // the same): its moves are studied in a copy, or a new game starts.
    if (game_is_over(s->live)) {
        session_say(s, MSG_ERROR,
                    "The game is over (%s %s): %s cannot change it; analyze "
                    "studies its positions, new starts a game.",
                    game_result_text(s->live), game_end_text(s->live), redo ? "redo" : "undo");
        return;
    }
    think_cancel(&s->think);
    int before = game_ply_count(s->live);
    char last[64];
    session_last_move_text(s->live, before, last, sizeof last);
    GameStatus st = redo ? game_redo(s->live, now) : game_undo(s->live, now);
    if (st != GAME_OK) {
        session_say(s, MSG_ERROR, redo ? "Nothing to redo." : "Nothing to undo.");
        return;
    }
    clear_hint(s);
    pointing_reset(s);
    state(s)->view_ply = -1;
    memset(&s->think.thinking, 0, sizeof s->think.thinking);
    session_live_changed(s, now);
    session_changed(s);
    if (redo) {
        session_last_move_text(s->live, game_ply_count(s->live), last, sizeof last);
        session_say(s, MSG_INFO, "Played again %s", last);
    } else {
        int n = before - game_ply_count(s->live);
        session_say(s, MSG_INFO, "Took back %s%s", last, n > 1 ? " and the move before" : "");
    }
}

static void hint(Session *s) {
    if (game_is_over(s->live) || game_engine_to_move(s->live)) {
        session_say(s, MSG_ERROR, "A hint is for your own move.");
        return;
    }
    if (state(s)->hint_found != MOVE_NONE) { // the second hint: the move itself
        char san[MOVE_TEXT_MAX];
        notation_to_san(game_board(s->live), state(s)->hint_found, san);
        state(s)->hint = state(s)->hint_found;
        session_say(s, MSG_INFO, "Hint: %s", san);
        session_changed(s);
        return;
    }
    if (s->think.busy && s->think.kind == REQ_HINT) {
        // Typed again before the first was found: it was dropped without a word.
        state(s)->hint_again = true;
        session_say(s, MSG_INFO, "Thinking about a hint... (the move itself, as you asked twice)");
        return;
    }
    if (s->think.busy) {
        session_say(s, MSG_ERROR, "The engine is busy: ask for a hint once it is done.");
        return;
    }
    SearchLimits limits;
    search_limits_init(&limits);
    limits.movetime = HINT_MOVETIME_MS;
    think_start(&s->think, s->live, REQ_HINT, &limits, LEVEL_MAX, 1);
    session_say(s, MSG_INFO, "Thinking about a hint...");
}

static void go_now(Session *s) {
    if (s->think.busy && s->think.kind == REQ_MOVE) {
        think_stop(&s->think); // its best move arrives as usual
        return;
    }
    if (game_is_over(s->live)) {
        session_say(s, MSG_ERROR, "The game is over.");
        return;
    }
    think_cancel(&s->think);
    Color turn = game_turn(s->live);
    game_set_players(s->live, turn == WHITE ? PLAYER_ENGINE : PLAYER_HUMAN,
                     turn == BLACK ? PLAYER_ENGINE : PLAYER_HUMAN);
    update_flip(s);
    state(s)->last_move_ms = 0; // no pause before this move
    session_changed(s);
    session_say(s, MSG_INFO, "patzer plays %s.", turn == WHITE ? "White" : "Black");
}

// The settings a command changes: the live game's while it goes on; once it
// has ended, the next game's (the finished game keeps the settings it was
// played with, in the archive too).
static GameSettings *next_settings(Session *s) {
    if (!game_is_over(s->live))
        return NULL;
    if (!s->next_settings_set) {
        s->next_settings = *game_settings(s->live);
        s->next_settings_set = true;
    }
    return &s->next_settings;
}

static const char next_note[] = " for the next game (new starts it)";

static void set_level(Session *s, int level) {
    GameSettings *next = next_settings(s);
    if (next)
        next->level = level;
    else
        game_set_level(s->live, level);
    session_say(s, MSG_INFO, "Level %d (about %d Elo)%s%s", level, engine_level_elo(level),
                level == LEVEL_MAX ? ", full strength" : "", next ? next_note : "");
}

static void play_sides(Session *s, const Command *cmd) {
    bool w = cmd->human[WHITE], b = cmd->human[BLACK];
    const char *sides = w && b ? "both sides"
                        : w    ? "White"
                        : b    ? "Black"
                               : "neither side: patzer plays itself";
    GameSettings *next = next_settings(s);
    if (next) {
        next->players[WHITE] = w ? PLAYER_HUMAN : PLAYER_ENGINE;
        next->players[BLACK] = b ? PLAYER_HUMAN : PLAYER_ENGINE;
        session_say(s, MSG_INFO, "You play %s%s.", sides, next_note);
        return;
    }
    think_cancel(&s->think);
    game_set_players(s->live, w ? PLAYER_HUMAN : PLAYER_ENGINE, b ? PLAYER_HUMAN : PLAYER_ENGINE);
    update_flip(s);
    state(s)->last_move_ms = 0;
    session_changed(s);
    session_say(s, MSG_INFO, "You play %s.", sides);
}

// Plays the move typed (an error message when it is not legal); pointing
// plays through it too (ModeOps.play_move).
static void play_text_move(Session *s, const char *text, int64_t now) {
    if (play_viewing(s)) { // the move would not be played where the user looks
        char seen[64], now_at[64];
        move_text(s, state(s)->view_ply, seen, sizeof seen);
        move_text(s, game_ply_count(s->live), now_at, sizeof now_at);
        session_say(s, MSG_ERROR,
                    "You are looking at %s; moves are played in your game, at %s: last (or "
                    "End) returns to it.",
                    seen, now_at);
        return;
    }
    if (pointing_text(s, text, now))
        return;
    if (!game_is_over(s->live) && game_engine_to_move(s->live) && pointing_queue_text(s, text))
        return;
    char err[512] = "";
    if (s->think.busy && s->think.kind == REQ_HINT)
        think_cancel(&s->think);
    bool over = game_is_over(s->live);
    GameStatus st = game_play_text(s->live, text, now, err, sizeof err);
    if (st != GAME_OK)
        session_move_error(s, text, st, err);
    if (st == GAME_OK || (!over && game_is_over(s->live))) // a flag fell before the move
        after_move(s, now);
}

static void claim(Session *s, const char *text, int64_t now) {
    char err[512] = "";
    Move m = MOVE_NONE;
    if (text[0]) {
        if (notation_parse_move(game_board(s->live), text, &m, err, sizeof err) != NOTATION_OK) {
            session_say(s, MSG_ERROR, "%s", err);
            return;
        }
    }
    if (game_claim_draw(s->live, m, now, err, sizeof err) == GAME_OK) {
        think_cancel(&s->think);
        after_move(s, now);
    } else {
        session_say(s, MSG_ERROR, "%s", err[0] ? err : "cannot do that now");
    }
}

static void offer_draw(Session *s, int64_t now) {
    int contempt = think_contempt_cp(&s->think, game_board(s->live));
    if (game_is_over(s->live)) {
        session_say(s, MSG_ERROR, "The game is already over.");
    } else if (game_offer_draw(s->live, s->think.engine_score, contempt, now)) {
        think_cancel(&s->think);
        session_say(s, MSG_INFO, "patzer accepts the draw.");
        after_move(s, now);
    } else {
        session_say(s, MSG_INFO, "patzer declines the draw.");
    }
}

static void set_time(Session *s, const TimeControl *tc, int64_t now) {
    char text[TC_TEXT_MAX];
    timecontrol_format(tc, text, sizeof text);
    GameSettings *next = next_settings(s);
    if (next) {
        next->tc = *tc;
        session_say(s, MSG_INFO, "Time control %s%s.", text, next_note);
        return;
    }
    game_set_time_control(s->live, tc, now);
    session_say(s, MSG_INFO, "Time control %s.", text);
    session_changed(s);
}

static void set_eval(Session *s, const char *arg) {
    if (!arg[0])
        state(s)->show_eval = !state(s)->show_eval;
    else if (strcmp(arg, "on") == 0 || strcmp(arg, "off") == 0)
        state(s)->show_eval = strcmp(arg, "on") == 0;
    else {
        session_say(s, MSG_ERROR, "eval takes on or off, not '%s'.", arg);
        return;
    }
    session_say(s, MSG_INFO, "The engine's evaluation is %s in your game.",
                state(s)->show_eval ? "shown" : "hidden");
    session_changed(s);
}

static Transition play_handle(Session *s, const Command *cmd, int64_t now) {
    switch (cmd->kind) {
    case CMD_MOVE: play_text_move(s, cmd->text, now); break;
    case CMD_PREV:
    case CMD_NEXT:
    case CMD_FIRST:
    case CMD_LAST:
    case CMD_GOTO: step(s, cmd); break;
    case CMD_EVAL: set_eval(s, cmd->text); break;
    case CMD_PLAY: play_sides(s, cmd); break;
    case CMD_UNDO:
    case CMD_REDO: take_back(s, cmd->kind == CMD_REDO, now); break;
    case CMD_HINT: hint(s); break;
    case CMD_LEVEL: set_level(s, cmd->number); break;
    case CMD_ELO: set_level(s, engine_level_for_elo(cmd->number)); break;
    case CMD_TIME: set_time(s, &cmd->tc, now); break;
    case CMD_RESIGN:
        think_cancel(&s->think);
        if (game_resign(s->live, human_side(s), now) == GAME_OK)
            after_move(s, now);
        else
            session_say(s, MSG_ERROR, "The game is already over.");
        break;
    case CMD_DRAW: offer_draw(s, now); break;
    case CMD_CLAIM: claim(s, cmd->text, now); break;
    case CMD_GO: go_now(s); break;
    case CMD_STOP:
        if (s->think.busy && s->think.kind == REQ_MOVE) {
            think_stop(&s->think);
            session_say(s, MSG_INFO, "patzer moves now.");
        } else if (s->think.busy && s->think.kind == REQ_HINT) {
            // It said the engine was not thinking, and the hint went on.
            think_stop(&s->think);
            session_say(s, MSG_INFO, "The hint comes now, from the search so far.");
        } else {
            session_say(s, MSG_ERROR, "Nothing to stop: the engine is not thinking.");
        }
        break;
    default: session_say(s, MSG_ERROR, "'%s' does nothing here.", command_name(cmd->kind));
    }
    return stay;
}

static void on_bestmove(Session *s, const Event *ev, int64_t now) {
    RequestKind kind = s->think.kind;
    s->think.busy = false;
    s->think.kind = REQ_NONE;
    s->think.thinking.active = false;
    if (game_generation(s->live) != s->think.gen || ev->best == MOVE_NONE)
        return;
    char san[MOVE_TEXT_MAX];
    notation_to_san(game_board(s->live), ev->best, san);
    if (kind == REQ_HINT) { // the first hint names the piece only
        Piece p = board_piece_on(game_board(s->live), move_from(ev->best));
        char from[3];
        square_name(move_from(ev->best), from);
        state(s)->hint_found = ev->best;
        if (state(s)->hint_again) {
            state(s)->hint_again = false;
            state(s)->hint = ev->best;
            session_say(s, MSG_INFO, "Hint: %s", san);
        } else {
            session_say(s, MSG_INFO, "Hint: move your %s on %s (hint again for the move)",
                        pointing_piece_name(piece_type(p)), from);
        }
        session_changed(s);
        return;
    }
    // The PGN names an external engine for the side it plays (the built-in
    // one is named by its level when the name is empty).
    Color mover = game_turn(s->live);
    if (kind == REQ_MOVE && s->think.uci && !s->think.fallback &&
        !game_settings(s->live)->names[mover][0])
        game_set_name(s->live, mover, think_engine_name(&s->think));
    if (kind != REQ_MOVE || !game_engine_to_move(s->live))
        return;
    GameStatus st =
        game_play_move(s->live, ev->best, s->think.engine_score, s->think.thinking.depth, now);
    // A move that arrives after the mover's flag fell (between two clock
    // ticks, on a loaded machine) ends the game: it is said like any end.
    if (st == GAME_OK || game_is_over(s->live))
        after_move(s, now);
    if (st == GAME_OK)
        pointing_after_engine(s, now);
}

// When the engine plays itself, it waits pace_ms after the last move.
static bool paced(const Session *s, int64_t now) {
    bool both = game_player(s->live, WHITE) == PLAYER_ENGINE &&
                game_player(s->live, BLACK) == PLAYER_ENGINE;
    return both && state(s)->last_move_ms && now - state(s)->last_move_ms < s->pace_ms;
}

static Transition play_poll(Session *s, const Event *ev, int64_t now) {
    if (ev) {
        if (ev->kind == EV_INFO)
            think_info(&s->think, &ev->info);
        else if (ev->kind == EV_BESTMOVE)
            on_bestmove(s, ev, now);
        return stay;
    }
    if (state(s)->held) {
        // A reply found before the hold was played and started a clock:
        // it waits too (from the next poll, a few milliseconds later).
        if (game_clock(s->live)->running) {
            state(s)->held_clock = true;
            game_pause(s->live, now);
        }
        return stay;
    }
    if (game_tick(s->live, now)) {
        think_cancel(&s->think);
        after_move(s, now);
    }
    if (s->think.busy || !game_engine_to_move(s->live) || paced(s, now))
        return stay;
    int contempt = think_contempt_cp(&s->think, game_board(s->live));
    if (game_engine_should_claim(s->live, s->think.engine_score, contempt)) {
        char err[160];
        if (game_claim_draw(s->live, MOVE_NONE, now, err, sizeof err) == GAME_OK) {
            session_say(s, MSG_INFO, "patzer claims a draw.");
            after_move(s, now);
            return stay;
        }
    }
    game_start_clock(s->live, now);
    SearchLimits limits;
    game_search_limits(s->live, now, &limits);
    think_start(&s->think, s->live, REQ_MOVE, &limits, game_settings(s->live)->level, 1);
    return stay;
}

bool session_hold(Session *s, bool hold, int64_t now) {
    if (!hold) {
        if (state(s)->held && state(s)->held_clock && s->mode == SESSION_PLAY &&
            !game_is_over(s->live))
            game_start_clock(s->live, now);
        state(s)->held = state(s)->held_clock = false;
        return false;
    }
    const Game *g = s->live;
    bool yours = game_player(g, WHITE) == PLAYER_HUMAN || game_player(g, BLACK) == PLAYER_HUMAN;
    if (s->mode != SESSION_PLAY || state(s)->held || !yours || game_is_over(g) ||
        game_clock(g)->tc.untimed)
        return state(s)->held;
    state(s)->held = true;
    state(s)->held_clock = game_clock(g)->running;
    game_pause(s->live, now);
    return true;
}

static const Game *play_game(const Session *s) {
    return s->live;
}
static const Board *play_board(const Session *s) {
    return play_viewing(s) ? &state(s)->view_board : game_board(s->live);
}

static void play_status(const Session *s, char *buf, size_t bufsz) {
    const Game *g = s->live;
    if (play_viewing(s)) {
        char seen[64], now_at[64], where[160];
        move_text(s, state(s)->view_ply, seen, sizeof seen);
        move_text(s, game_ply_count(g), now_at, sizeof now_at);
        session_game_status(g, where, sizeof where);
        snprintf(buf, bufsz, "Viewing %s - your game is at %s, %s; End returns", seen, now_at,
                 where);
        return;
    }
    if (!game_is_over(g) && game_player(g, game_turn(g)) == PLAYER_ENGINE) {
        snprintf(buf, bufsz, "%s to move (%s is thinking)%s",
                 game_turn(g) == WHITE ? "White" : "Black", think_engine_name(&s->think),
                 board_in_check(game_board(g)) ? " - check" : "");
        // A queued move stays said while it waits (the board marks it too).
        if (s->pointing.premove != MOVE_NONE) {
            size_t n = strlen(buf);
            snprintf(buf + n, bufsz - n, " - premove %s (Esc clears)", s->pointing.premove_text);
        }
        return;
    }
    session_game_status(g, buf, bufsz);
    // The player may claim a draw: said as soon as it is possible.
    GameEnd claim = game_claimable(g);
    if (claim != END_NONE) {
        size_t n = strlen(buf);
        snprintf(buf + n, bufsz - n, " - %s: claim to draw",
                 claim == END_THREEFOLD_REPETITION ? "threefold repetition" : "fifty-move rule");
    }
}

// A digest of the game's text but its clocks tag, which changes while the
// clocks run: a game saved and not changed since has the same one, so that
// save and quit know it is saved. 0 when out of memory (never a match).
static uint64_t game_digest(const PgnGame *g) {
    static const char skip[] = "[PatzerClocks ";
    size_t len;
    char *text = pgn_write_string(g, &len);
    if (!text)
        return 0;
    uint64_t h = DIGEST_BASIS;
    for (const char *line = text, *end; *line; line = end) {
        end = strchr(line, '\n');
        end = end ? end + 1 : line + strlen(line);
        if (strncmp(line, skip, sizeof skip - 1) == 0)
            continue;
        h = digest_bytes(h, line, (size_t)(end - line));
    }
    free(text);
    return h | 1;
}

static PgnGame *play_to_pgn(Session *s, int64_t now) {
    PgnGame *g = gamefile_to_pgn(s->live, s->openings, now);
    if (g && state(s)->saved_to.path[0]) {
        pgn_set_source(g, &state(s)->saved_to); // a second save writes it there again
        if (game_digest(g) == state(s)->saved_digest)
            pgn_mark_saved(g);
    }
    return g;
}

static void play_saved(Session *s, const PgnGame *written) {
    state(s)->saved_to = *pgn_source(written);
    state(s)->saved_digest = game_digest(written);
}

static bool engines_only(const Game *g) {
    return game_player(g, WHITE) == PLAYER_ENGINE && game_player(g, BLACK) == PLAYER_ENGINE;
}

// The engine thinks on its move against you (not when it plays itself), or
// on the hint you asked for: a script waits for it (else its next line, or
// its end, dropped the hint unsaid).
static bool play_busy(const Session *s) {
    if (s->think.busy && s->think.kind == REQ_HINT)
        return true;
    return game_engine_to_move(s->live) && !engines_only(s->live);
}

// patzer against itself waits pace_ms between its moves.
static int play_wakeup_ms(const Session *s, int64_t now) {
    if (s->think.busy || !game_engine_to_move(s->live) || !engines_only(s->live))
        return -1;
    int64_t due = state(s)->last_move_ms + s->pace_ms - now;
    return due < 0 ? 0 : (int)due;
}

static Move play_hint(const Session *s) {
    return state(s)->hint;
}

// The engine's thinking is hidden in a game against it unless `eval on`.
static bool play_eval_shown(const Session *s) {
    if (state(s)->show_eval)
        return true;
    bool w = game_player(s->live, WHITE) == PLAYER_ENGINE,
         b = game_player(s->live, BLACK) == PLAYER_ENGINE;
    return w == b; // you against yourself, or patzer against itself
}

// The opening of the position, and the mode.
static void play_status_tag(const Session *s, char *buf, size_t bufsz) {
    const char *opening = session_opening(s);
    snprintf(buf, bufsz, "%s%s  [play]", opening ? "   " : "", opening ? opening : "");
}

const ModeOps mode_play_ops = {
    .state_size = sizeof(PlayState),
    .enter = play_enter,
    .leave = play_leave,
    .handle = play_handle,
    .poll = play_poll,
    .game = play_game,
    .board = play_board,
    .status = play_status,
    .to_pgn = play_to_pgn,
    .saved = play_saved,
    .shown_ply = shown_ply,
    .refusal_hint = "",
    .points = true,
    .busy = play_busy,
    .wakeup_ms = play_wakeup_ms,
    .hint = play_hint,
    .eval_shown = play_eval_shown,
    .status_tag = play_status_tag,
    .shows_live = true,
    .view_ply = play_view,
    .play_move = play_text_move,
    .looking_back = play_viewing,
};
