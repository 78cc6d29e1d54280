// SPDX-License-Identifier: GPL-3.0-or-later
// The session's controller core: it owns the live game and the current mode,
// dispatches each command (from the one command table) to itself or to the
// mode, and changes mode only by entering the new one and leaving the old.
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <unistd.h>

#include "src/pgn/database.h"
#include "src/session/session_int.h"
#include "src/util/paths.h"
#include "src/util/text.h"

// A mode's state as when the session started (a new live game for play).
static void reset_state(Session *s, SessionMode m) {
    if (session_mode_ops(m)->state_size)
        memset(s->mode_state[m], 0, session_mode_ops(m)->state_size);
}

static bool alloc_states(Session *s) {
    for (int m = 0; m < SESSION_MODE_COUNT; m++)
        if (session_mode_ops(m)->state_size &&
            !(s->mode_state[m] = calloc(1, session_mode_ops(m)->state_size)))
            return false;
    return true;
}

static void free_states(Session *s) {
    for (int m = 0; m < SESSION_MODE_COUNT; m++) {
        if (s->mode_state[m] && session_mode_ops(m)->destroy)
            session_mode_ops(m)->destroy(s);
        free(s->mode_state[m]);
        s->mode_state[m] = NULL;
    }
}

// ----------------------------------------------------------------- switching

// Enters mode `to` (the old mode stays alive until the new one could start,
// so it can hand over what it shows), then leaves the old one.
static bool switch_mode(Session *s, SessionMode to, const ModeArgs *args, int64_t now) {
    SessionMode from = s->mode;
    if (!session_mode_ops(to)->enter(s, args, now))
        return false;
    if (from == SESSION_BROWSE && to != SESSION_BROWSE) { // where to come back to
        const char *const *sans;
        int count;
        const unsigned char *vars;
        session_mode_ops(from)->move_list(s, &sans, &count, &s->browse_ply, &vars);
    }
    if (from != to) {
        session_mode_ops(from)->leave(s, now);
        if (to == SESSION_PLAY || to == SESSION_BROWSE)
            s->back_mode = SESSION_PLAY;
        else if (from == SESSION_PLAY || from == SESSION_BROWSE)
            s->back_mode = from;
        s->mode = to;
    }
    // The evaluation graph belongs to the game reviewed: not shown over another.
    if ((to == SESSION_PLAY && !s->graph_of_live) || (to == SESSION_BROWSE && args->path))
        s->graph_count = 0;
    session_changed(s);
    return true;
}

// Game n of the file the session knows, in browse.
static bool open_game(Session *s, int number, int ply, int64_t now) {
    ModeArgs args = { .path = s->list_path, .number = number, .ply = ply };
    // The list of the file knows where the game starts: read from there.
    if (s->list && gamelist_unchanged(s->list) && !strcmp(gamelist_path(s->list), s->list_path))
        (void)gamelist_place(s->list, number, &args.place.start, &args.place.line);
    int before = s->browse_number;
    s->browse_number = number;
    if (switch_mode(s, SESSION_BROWSE, &args, now))
        return true;
    s->browse_number = before;
    return false;
}

// Back to the live game (back, game 0; quietly when a mode ended by itself).
static void to_play(Session *s, bool announce, int64_t now) {
    if (s->mode == SESSION_PLAY) {
        if (announce)
            session_say(s, MSG_INFO, "This is your game already.");
        return;
    }
    ModeArgs none = { 0 };
    switch_mode(s, SESSION_PLAY, &none, now);
    if (!announce)
        return;
    char status[256];
    session_ops(s)->status(s, status, sizeof status);
    session_say(s, MSG_INFO, "Back to your game: %s", status);
}

// A mode ended by itself or on stop: back to the mode it was entered from
// (a file's game is opened again; a game in memory is gone: play then).
static void go_back(Session *s, int64_t now) {
    if (s->back_mode == SESSION_BROWSE && s->mode != SESSION_BROWSE && s->list_path[0] &&
        s->browse_number > 0 && open_game(s, s->browse_number, s->browse_ply, now))
        return;
    to_play(s, false, now);
}

// The live game is replaced by g (a new game, a set-up position): the old
// one goes to the archive unless it is there (a finished game is, unless its
// archive write failed: tried again now), and play shows g. False when the
// old game could not be archived (it waits for a later try).
static bool replace_live(Session *s, Game *g, int64_t now) {
    if (s->mode != SESSION_PLAY)
        session_mode_ops(s->mode)->leave(s, now);
    else
        think_cancel(&s->think);
    bool archived = s->live_archived || session_archive_live(s, s->live, true, now);
    game_free(s->live);
    s->live = g;
    s->live_archived = false;
    s->live_resumed = false;
    memset(&s->live_spot, 0, sizeof s->live_spot);
    s->next_settings_set = false;
    s->graph_count = 0;
    memset(&s->think.thinking, 0, sizeof s->think.thinking);
    // The last analysis was of the old game: a position it reaches again
    // must not show it (against the engine the evaluation is hidden).
    memset(&s->analysis_final, 0, sizeof s->analysis_final);
    s->think.engine_score = 0;
    think_new_game(&s->think);
    reset_state(s, SESSION_PLAY);
    pointing_reset(s);
    s->mode = SESSION_PLAY;
    s->back_mode = SESSION_PLAY;
    ModeArgs none = { 0 };
    session_mode_ops(SESSION_PLAY)->enter(s, &none, now);
    session_live_changed(s, now);
    session_changed(s);
    return archived;
}

// Settings of a new live game: the current game's (or those typed after it
// ended), with the player names of the options (a file's names are not the
// player's).
static GameSettings live_settings(const Session *s) {
    GameSettings settings = s->next_settings_set ? s->next_settings : *game_settings(s->live);
    settings.start_fen[0] = '\0';
    settings.chess960 = false; // standard chess unless `new 960` says otherwise
    for (Color c = WHITE; c <= BLACK; c++)
        memcpy(settings.names[c], s->opts.settings.names[c], sizeof settings.names[c]);
    return settings;
}

static void start_from_fen(Session *s, const char *fen, const char *what, int64_t now) {
    GameSettings settings = live_settings(s);
    char err[512], note[128];
    if (!session_complete_fen(fen, settings.start_fen, sizeof settings.start_fen, note, sizeof note,
                              err, sizeof err)) {
        session_say(s, MSG_ERROR, "%s: %s", what, err);
        return;
    }
    Game *g = game_new(&settings, err, sizeof err);
    if (!g) {
        session_say(s, MSG_ERROR, "%s: %s", what, err);
        return;
    }
    replace_live(s, g, now);
    char text[FEN_MAX];
    game_fen(s->live, text, sizeof text);
    session_say(s, MSG_INFO, "Position set%s%s%s: %s", note[0] ? " (" : "", note,
                note[0] ? ")" : "", text);
}

// The options of `new` on top of settings.
static void new_options(const Command *cmd, GameSettings *settings) {
    if (cmd->has_side) {
        settings->players[cmd->side] = PLAYER_HUMAN;
        settings->players[!cmd->side] = PLAYER_ENGINE;
    }
    if (cmd->has_level)
        settings->level = cmd->level;
    if (cmd->has_elo)
        settings->level = engine_level_for_elo(cmd->elo);
    if (cmd->has_time)
        settings->tc = cmd->tc;
    settings->chess960 = cmd->chess960;
    settings->chess960_number = cmd->chess960_number;
}

// A new game of the user's from the position shown (a game of a file, an
// analysis), with the moves that led to it, comments and NAGs kept: its PGN
// is the whole game, not a bare position. `play SIDE` or `new ... here`.
static void play_on(Session *s, const Command *cmd, int64_t now) {
    const Game *shown = session_ops(s)->game(s);
    if (!shown || s->mode == SESSION_PLAY) {
        session_say(s, MSG_ERROR, "new here plays on from a game of a file or an analysis.");
        return;
    }
    if (game_is_over(shown)) {
        session_say(s, MSG_ERROR, "The game is over in this position (%s): nothing to play on.",
                    game_end_text(shown));
        return;
    }
    GameSettings settings = live_settings(s);
    if (cmd->kind == CMD_PLAY) {
        for (Color c = WHITE; c <= BLACK; c++)
            settings.players[c] = cmd->human[c] ? PLAYER_HUMAN : PLAYER_ENGINE;
    } else {
        new_options(cmd, &settings);
    }
    // The new game's record is the shown game's document up to here: its
    // moves with their comments and NAGs; the tags are the new game's own.
    char err[256] = "out of memory";
    settings.start_fen[0] = '\0'; // the document's start position
    Game *g = game_new(&settings, err, sizeof err);
    PgnGame *doc = g ? game_document(shown) : NULL;
    if (doc)
        pgn_clear_tags(doc);
    if (!doc || !game_take_document(g, doc, now, err, sizeof err)) {
        pgn_game_free(doc);
        game_free(g);
        session_say(s, MSG_ERROR, "Cannot play on: %s", err);
        return;
    }
    game_set_time_control(g, &settings.tc, now); // fresh clocks from here on
    char from[64];
    session_last_move_text(shown, game_ply_count(shown), from, sizeof from);
    bool kept = game_ply_count(s->live) > 0 && !game_is_over(s->live) && !s->live_archived &&
                s->opts.archive_path[0];
    replace_live(s, g, now);
    bool white = settings.players[WHITE] == PLAYER_HUMAN,
         black = settings.players[BLACK] == PLAYER_HUMAN;
    session_say(s, MSG_INFO, "Your game now plays on from %s: %s.%s",
                from[0] ? from : "the start position",
                white && black   ? "you move for both sides"
                : white || black ? (white ? "you have White" : "you have Black")
                                 : "patzer plays itself",
                kept ? " The unfinished one is in the archive." : "");
}

static void new_game(Session *s, const Command *cmd, int64_t now) {
    if (cmd->here) {
        play_on(s, cmd, now);
        return;
    }
    GameSettings settings = live_settings(s);
    new_options(cmd, &settings);
    char err[256];
    Game *g = game_new(&settings, err, sizeof err);
    if (!g) {
        session_say(s, MSG_ERROR, "%s", err);
        return;
    }
    bool unfinished =
        game_ply_count(s->live) > 0 && !game_is_over(s->live) && s->opts.archive_path[0];
    bool archived = replace_live(s, g, now);
    const char *variant = game_variant(g);
    // The sides are the last game's unless given: said when you do not play
    // just one of them, which a plain `new` would not lead anyone to expect.
    bool white = settings.players[WHITE] == PLAYER_HUMAN,
         black = settings.players[BLACK] == PLAYER_HUMAN;
    const char *sides = white && black   ? "you move for both sides"
                        : white || black ? NULL
                                         : "patzer plays itself";
    session_say(s, MSG_INFO, "New game%s%s%s%s.%s", variant || sides ? ": " : "",
                variant ? variant : "", variant && sides ? "; " : "", sides ? sides : "",
                !unfinished ? ""
                : archived  ? " The unfinished one is in the archive."
                            : " The unfinished one waits for the archive (tried after each move).");
}

static void apply(Session *s, Transition tr, int64_t now) {
    ModeArgs args = { 0 };
    switch (tr.kind) {
    case TR_STAY: break;
    case TR_BACK: go_back(s, now); break;
    case TR_SETBOARD: start_from_fen(s, tr.fen, "Illegal position", now); break;
    case TR_SHOW_GAME:
        args.game = tr.game;
        args.ply = -1;
        s->browse_number = 0; // a game in memory cannot be opened again
        if (!switch_mode(s, SESSION_BROWSE, &args, now))
            to_play(s, false, now); // the mode that handed it over is done
        break;
    }
}

// ----------------------------------------------------------------- files

// The games of path, read once: shown again from memory while the file is
// unchanged (`games TEXT` only filters). False with the error said.
static bool read_list(Session *s, const char *path) {
    if (s->list && !strcmp(gamelist_path(s->list), path) && gamelist_unchanged(s->list))
        return true;
    char err[512];
    GameList *fresh = gamelist_read(path, NULL, NULL, err, sizeof err);
    if (!fresh) {
        session_say(s, MSG_ERROR, "%s", err);
        return false;
    }
    gamelist_free(s->list);
    s->list = fresh;
    s->list_text[0] = '\0'; // a list said of the old reading is not this one
    return true;
}

// Says the list of the games of path matching filter: its heading and a
// hint. The front end shows the rows (session_game_list_row) at its width.
static void list_games(Session *s, const char *path, const char *filter) {
    if (!read_list(s, path))
        return;
    if (!gamelist_filter(s->list, filter)) {
        session_say(s, MSG_ERROR, "out of memory listing %s", path);
        return;
    }
    if (path != s->list_path) // `games` passes the list's own path: no overlapping copy
        snprintf(s->list_path, sizeof s->list_path, "%s", path);
    bool f = filter && *filter;
    // Kept, so that the front end knows this text for the list.
    snprintf(s->list_text, sizeof s->list_text,
             "%d of %d %s in %s%s%s%s:\n"
             "game N (or a click on its line) shows one of them; game 0 is your game.",
             gamelist_count(s->list), gamelist_total(s->list),
             text_plural(gamelist_total(s->list), "game", "games"), path, f ? " matching '" : "",
             f ? filter : "", f ? "'" : "");
    session_say_text(s, MSG_TEXT, s->list_text);
}

static void load_file(Session *s, const char *path, int64_t now) {
    // A PGN file is text: a NUL byte early on means a binary file was given.
    if (paths_looks_binary(path)) {
        session_say(s, MSG_ERROR, "%s is a binary file, not a PGN text file", path);
        return;
    }
    if (!read_list(s, path))
        return;
    int total = gamelist_total(s->list);
    if (total == 0) {
        session_say(s, MSG_ERROR, "%s: no game in the file", path);
        return;
    }
    snprintf(s->list_path, sizeof s->list_path, "%s", path);
    if (total == 1)
        open_game(s, 1, -1, now);
    else
        list_games(s, path, NULL);
}

static void show_game(Session *s, int number, int64_t now) {
    if (number == 0) {
        to_play(s, true, now);
        return;
    }
    if (!s->list_path[0]) {
        session_say(s, MSG_ERROR, "No file loaded (load FILE); game 0 is your game.");
        return;
    }
    open_game(s, number, -1, now);
}

// ----------------------------------------------------------------- commands

// "analyze", "analyze 5s", "analyze 500ms", "analyze depth 20".
static bool analysis_limits(const char *text, SearchLimits *limits, char *err, size_t errsz) {
    search_limits_init(limits);
    long n;
    char unit[8] = "", extra[2];
    if (sscanf(text, "depth %ld %1s", &n, extra) == 1 && n >= 1 && n < MAX_PLY) {
        limits->depth = (int)n;
        return true;
    }
    int fields = sscanf(text, "%ld%7[a-z] %1s", &n, unit, extra);
    if (fields == 2 && n >= 1 && n <= 86400 && (!strcmp(unit, "s") || !strcmp(unit, "ms"))) {
        limits->movetime = !strcmp(unit, "s") ? n * 1000 : n;
        return true;
    }
    snprintf(err, errsz, "analyze takes a time (5s, 500ms) or a depth (depth 20), not '%.40s'",
             text);
    return false;
}

static void analyze(Session *s, const char *text, int64_t now) {
    SearchLimits limits;
    char err[256];
    if (text[0] && !analysis_limits(text, &limits, err, sizeof err)) {
        session_say(s, MSG_ERROR, "%s", err);
        return;
    }
    ModeArgs args = { .source = session_ops(s)->game(s), .limits = text[0] ? &limits : NULL };
    switch_mode(s, SESSION_ANALYSE, &args, now);
}

static void enter_with_source(Session *s, SessionMode to, int64_t now) {
    ModeArgs args = { .source = session_ops(s)->game(s) };
    if (to == SESSION_REVIEW) {
        args.game = session_ops(s)->to_pgn(s, now);
        s->graph_of_live = s->mode == SESSION_PLAY;
    }
    switch_mode(s, to, &args, now);
}

static void help(Session *s, const char *name) {
    const char *text = command_help(name);
    if (text)
        session_say_text(s, MSG_HELP, text); // whole, however long the list grows
    else
        session_say(s, MSG_ERROR, "No command '%s'. Type help for the list.", name);
}

// The message log, oldest first (the front end shows the newest end).
static void show_messages(Session *s) {
    char *text = msglog_format(&s->messages);
    if (!text) {
        session_say(s, MSG_ERROR, "out of memory listing the messages");
        return;
    }
    if (s->hooks.message)
        s->hooks.message(MSG_LOG, text, s->hooks.ctx);
    free(text);
}

// The commands of the core: modes, documents, settings of the session.
static bool core_command(Session *s, const Command *cmd, int64_t now) {
    char fen[FEN_MAX];
    switch (cmd->kind) {
    case CMD_EMPTY: break;
    case CMD_QUIT: save_quit(s, now); break;
    case CMD_HELP: help(s, cmd->text); break;
    case CMD_MESSAGES: show_messages(s); break;
    case CMD_ENGINE: think_engine_command(&s->think, cmd->text); break;
    case CMD_FLIP:
        s->flipped = !s->flipped;
        session_say(s, MSG_INFO, "Board flipped: %s at the bottom.",
                    s->flipped ? "Black" : "White");
        session_changed(s);
        break;
    case CMD_FEN:
        if (s->mode == SESSION_EDIT)
            return false; // the editor's own fields make its FEN
        board_to_fen(session_ops(s)->board(s), fen, sizeof fen);
        session_say(s, MSG_INFO, "%s", fen);
        break;
    case CMD_NEW: new_game(s, cmd, now); break;
    case CMD_PLAY:
        if (s->mode == SESSION_PLAY)
            return false; // the sides of the game on
        play_on(s, cmd, now);
        break;
    case CMD_SETBOARD:
        if (s->mode == SESSION_EDIT)
            return false; // the editor loads it to edit further
        start_from_fen(s, cmd->text, "Bad FEN", now);
        break;
    case CMD_SAVE: save_command(s, cmd->text, now); break;
    case CMD_LOAD: load_file(s, cmd->text, now); break;
    case CMD_GAMES:
        if (!s->list_path[0])
            session_say(s, MSG_ERROR, "No file loaded (load FILE).");
        else
            list_games(s, s->list_path, cmd->text);
        break;
    case CMD_GAME: show_game(s, cmd->number, now); break;
    case CMD_BACK: to_play(s, true, now); break;
    case CMD_PACE:
        s->pace_ms = cmd->number;
        session_say(s, MSG_INFO, "patzer waits %d ms between its moves when it plays itself.",
                    cmd->number);
        break;
    case CMD_THEME:
    case CMD_PIECES:
    case CMD_BELL: // the board view belongs to the front end
        if (s->hooks.display)
            s->hooks.display(command_name(cmd->kind), cmd->text, s->hooks.ctx);
        else
            session_say(s, MSG_ERROR, "%s changes the board view, which line mode does not have.",
                        command_name(cmd->kind));
        break;
    case CMD_COMMENT:
    case CMD_NAG: annotate_command(s, cmd, now); break;
    case CMD_WHY: why_command(s); break;
    case CMD_EXPLORE: explore_command(s); break;
    case CMD_STOP: return explore_stop(s); // else the mode's stop
    case CMD_INDEX: index_command(s, cmd->text); break;
    case CMD_EDIT: enter_with_source(s, SESSION_EDIT, now); break;
    case CMD_REVIEW: enter_with_source(s, SESSION_REVIEW, now); break;
    case CMD_ANALYZE: analyze(s, cmd->text, now); break;
    case CMD_TRAIN: {
        ModeArgs args = { .path = cmd->text[0] ? cmd->text : NULL };
        switch_mode(s, SESSION_TRAIN, &args, now);
        break;
    }
    case CMD_LINES:
        s->analysis_lines = cmd->number;
        session_say(s, MSG_INFO, "%d analysis line%s.", cmd->number, cmd->number == 1 ? "" : "s");
        return s->mode != SESSION_ANALYSE; // the analysis restarts with them
    default: return false;
    }
    return true;
}

static void refuse(Session *s, const Command *cmd) {
    const char *hint = session_ops(s)->refusal_hint ? session_ops(s)->refusal_hint : "";
    const char *near = cmd->kind == CMD_MOVE ? command_suggest(cmd->text, 1u << s->mode) : NULL;
    if (near)
        session_say(s, MSG_ERROR, "'%s' is not a command here; did you mean %s?", cmd->text, near);
    else if (cmd->kind == CMD_MOVE)
        session_say(s, MSG_ERROR, "No moves in the %s mode%s.", session_mode_name(s->mode), hint);
    else
        session_say(s, MSG_ERROR, "'%s' does not work in the %s mode%s.", command_name(cmd->kind),
                    session_mode_name(s->mode), hint);
}

// The answer to "resume the unfinished game?". Anything but yes starts a
// new game; the unfinished one is archived, never dropped.
static bool answer_resume(Session *s, const char *line, int64_t now) {
    while (isspace((unsigned char)*line))
        line++;
    bool yes = !strcasecmp(line, "y") || !strcasecmp(line, "yes") || !strcasecmp(line, "resume");
    bool no = !strcasecmp(line, "n") || !strcasecmp(line, "no") || !strcasecmp(line, "new");
    Command cmd;
    if (command_parse(line, &cmd, NULL, 0) && cmd.kind == CMD_QUIT) {
        s->quit = true; // not an answer: the unfinished game stays where it is
        return true;
    }
    Game *pending = s->pending;
    s->pending = NULL;
    s->asking_resume = false;
    if (yes) {
        Game *fresh = s->live;
        s->live = pending;
        game_free(fresh);
        reset_state(s, SESSION_PLAY);
        s->live_resumed = true;
        pointing_reset(s);
        if (s->mode == SESSION_PLAY) // else (--pgn) entered when the user returns to it
            session_mode_ops(SESSION_PLAY)->enter(s, &(ModeArgs){ 0 }, now);
        session_changed(s);
        char moves[32];
        session_say(s, MSG_INFO, "Resumed the unfinished game (%s).",
                    session_moves_text(s->live, moves, sizeof moves));
        save_say_recovered(s); // held back while the question was open
        return true;
    }
    bool archived = session_archive_live(s, pending, true, now);
    game_free(pending);
    session_live_changed(s, now); // the autosave now holds the new game
    session_changed(s);
    if (!s->opts.archive_path[0])
        session_say(s, MSG_INFO, "New game; the unfinished one is not kept (no archive).");
    else if (archived)
        session_say(s, MSG_INFO, "New game; the unfinished one is in the archive %s.",
                    s->opts.archive_path);
    else
        session_say(s, MSG_INFO,
                    "New game; the unfinished one waits for the archive %s "
                    "(tried after each move).",
                    s->opts.archive_path);
    save_say_recovered(s);
    return no;
}

void session_handle_line(Session *s, const char *line, int64_t now) {
    session_settle(s); // what was said before this line is stamped before it
    s->lines++;
    if (s->replace_pending) {
        save_answer_replace(s, line ? line : "");
        return;
    }
    if (s->asking_resume && answer_resume(s, line, now)) {
        session_poll(s, now);
        return;
    }
    // "promote to?" takes q, r, b, n (n is also `next`) or an empty line.
    if (session_pointing_active(s) && pointing_promotion(s, line ? line : "", now))
        return;
    Command cmd;
    char err[512];
    if (!command_parse(line, &cmd, err, sizeof err)) {
        session_say(s, MSG_ERROR, "%s", err);
        return;
    }
    if (cmd.kind != CMD_QUIT)
        s->quit_warned = false; // the warning holds for the very next command only
    AnnotateMark mark;
    annotate_mark(s, &mark);
    if (!(command_modes(cmd.kind) & (1u << s->mode)))
        refuse(s, &cmd);
    else if (!core_command(s, &cmd, now))
        apply(s, session_ops(s)->handle(s, &cmd, now), now);
    if (cmd.kind == CMD_MOVE) // before the engine's reply: "e4!?" marks e4
        annotate_after_move(s, &mark, cmd.nag, now);
    session_poll(s, now);
}

// ----------------------------------------------------------------- events

int session_event_fd(const Session *s) {
    return eventq_fd(s->think.events);
}

void session_poll(Session *s, int64_t now) {
    session_settle(s); // a line, a click: done before the events that follow
    Event ev;
    while (eventq_pop(s->think.events, &ev)) {
        session_settle(s);
        if (ev.kind == EV_INDEX_PROGRESS || ev.kind == EV_INDEX_DONE) {
            explore_event(s, &ev); // the explorer's, whatever the mode
            continue;
        }
        bool engine = ev.kind == EV_INFO || ev.kind == EV_BESTMOVE;
        if ((engine || ev.kind == EV_ENGINE_FAILED) && ev.request != s->think.request)
            continue;                      // a reply to a request that was cancelled
        if (ev.kind == EV_ENGINE_FAILED) { // the built-in engine answers instead
            think_failed(&s->think);
            continue;
        }
        apply(s, session_ops(s)->poll(s, &ev, now), now);
    }
    session_settle(s);
    if (!s->asking_resume)
        apply(s, session_ops(s)->poll(s, NULL, now), now);
    session_settle(s);
}

// ----------------------------------------------------------------- lifetime

static void set_up_engine(Session *s) {
    const SessionOptions *opts = &s->opts;
    char why[512];
    if (opts->hash_mb > 0) {
        char value[16];
        snprintf(value, sizeof value, "%d", opts->hash_mb);
        if (!engine_set_option(s->think.engine, "Hash", value, why, sizeof why))
            session_say(s, MSG_ERROR, "%s", why);
    }
    if (opts->book_path[0]) {
        if (engine_set_option(s->think.engine, "BookFile", opts->book_path, why, sizeof why))
            engine_set_option(s->think.engine, "OwnBook", opts->own_book ? "true" : "false", NULL,
                              0);
        else
            session_say(s, MSG_ERROR, "%s", why);
    }
    think_set_threads(&s->think, opts->threads);
    think_set_contempt(&s->think, THINK_CONTEMPT_PERCENT);
    char path[PATH_MAX_LEN];
    if (openings_find_path(paths_argv0(), path, sizeof path))
        s->openings = openings_open(path); // read when a name is first asked for
}

// The game the last session autosaved. An unfinished one is resumed
// (--resume), archived (--new), or the subject of a question answered by the
// next line. A finished one is in the archive already (written when it
// ended), unless that write failed: then it is archived now, once, and its
// autosave no longer says it waits.
static void find_unfinished(Session *s, int64_t now) {
    const char *path = s->opts.autosave_path;
    char why[512];
    bool in_archive = true;
    Game *g = path[0] ? game_new(&s->opts.settings, why, sizeof why) : NULL;
    bool loaded = g && gamefile_load(g, path, now, &in_archive, why, sizeof why);
    if (g && !loaded && access(path, F_OK) == 0)
        session_say(s, MSG_ERROR, "Cannot read the autosaved game: %s", why);
    if (loaded && game_is_over(g) && !in_archive) {
        if (session_archive_live(s, g, true, now)) {
            session_autosave_game(s, g, true, now);
            session_say(s, MSG_INFO, "The last game (%s %s) is in the archive now.",
                        game_result_text(g), game_end_text(g));
        } else {
            s->autosave_unarchived = true; // kept, and tried again; the file keeps it meanwhile
        }
    }
    bool unfinished = loaded && !game_is_over(g) && game_ply_count(g) > 0;
    if (!unfinished) {
        game_free(g);
        if (s->opts.resume)
            session_say(s, MSG_INFO, "No unfinished game to resume; a new game starts.");
        return;
    }
    char moves[32];
    if (s->opts.resume) {
        game_free(s->live);
        s->live = g;
        s->live_resumed = true;
        session_say(s, MSG_INFO, "Resumed the unfinished game (%s).",
                    session_moves_text(g, moves, sizeof moves));
    } else if (s->opts.fresh) {
        bool archived = session_archive_live(s, g, true, now);
        game_free(g);
        session_live_changed(s, now);
        session_say(s, MSG_INFO, "New game; the unfinished one %s.",
                    archived ? "is in the archive"
                             : "waits for the archive (tried after each move)");
    } else {
        s->pending = g;
        s->asking_resume = true;
        char question[160];
        session_resume_question(g, question, sizeof question);
        session_say(s, MSG_INFO, "%s", question);
    }
}

// Says at once when the directory of the autosave or of the archive cannot
// be written: games would not be kept, and the player must know before playing.
static void check_directories(Session *s) {
    const struct {
        const char *path, *what, *lost;
    } files[] = {
        { s->opts.autosave_path, "state", "the game in progress cannot be autosaved" },
        { s->opts.archive_path, "data", "finished games cannot be archived" },
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char dir[PATH_MAX_LEN];
        if (!files[i].path[0] || paths_dir_writable(files[i].path, dir, sizeof dir))
            continue;
        snprintf(s->last_failure, sizeof s->last_failure,
                 "The %s directory %s is not writable (%s): %s.", files[i].what, dir,
                 strerror(errno), files[i].lost);
        s->write_failures++;
        session_say(s, MSG_ERROR, "%s", s->last_failure);
    }
}

Session *session_new(const SessionOptions *opts, const SessionHooks *hooks, int64_t now, char *err,
                     size_t errsz) {
    Session *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    s->opts = *opts;
    s->analysis_lines = 1;
    s->pace_ms = opts->pace_ms >= 0 ? opts->pace_ms : PACE_DEFAULT_MS;
    if (hooks)
        s->hooks = *hooks;
    bool states = alloc_states(s) && explore_init(s);
    s->think.events = eventq_new();
    s->think.engine = engine_new();
    s->think.session = s;
    // --fen may be a placement only: completed here, said once the hooks work.
    char fen_note[128] = "";
    if (!session_complete_fen(opts->settings.start_fen, s->opts.settings.start_fen,
                              sizeof s->opts.settings.start_fen, fen_note, sizeof fen_note, err,
                              errsz))
        s->live = NULL; // err says why
    else
        s->live = game_new(&s->opts.settings, err, errsz);
    if (!states || !s->think.events || !s->think.engine || !s->live) {
        if (!(states && s->think.events &&
              s->think.engine)) // else err says why the game could not start
            snprintf(err, errsz, "out of memory starting the engine");
        eventq_free(s->think.events);
        engine_free(s->think.engine);
        game_free(s->live);
        free_states(s);
        explore_free(s);
        free(s);
        return NULL;
    }
    if (opts->notes[0])
        session_say(s, MSG_ERROR, "%s", opts->notes);
    char net_msg[NNUE_DESC_MAX + 1200];
    if (netfile_sync(&s->think.net, s->think.engine, net_msg, sizeof net_msg) == NETFILE_ERROR)
        session_say(s, MSG_ERROR, "%s.", net_msg);
    if (fen_note[0])
        session_say(s, MSG_INFO, "Start position: %s.", fen_note);
    check_directories(s);
    set_up_engine(s);
    if (opts->engine_cmd[0]) // --engine, engine = CMD: a failure is said, the built-in plays
        think_engine_command(&s->think, opts->engine_cmd);
    find_unfinished(s, now);
    if (!s->asking_resume) // else after the answer: the question must stay in view
        save_say_recovered(s);
    session_stamp_autosave(s);
    s->mode = s->back_mode = SESSION_PLAY;
    session_mode_ops(SESSION_PLAY)->enter(s, &(ModeArgs){ 0 }, now);
    if (opts->load_path[0])
        load_file(s, opts->load_path, now);
    session_settle(s); // what the start said stays until the first change
    return s;
}

void session_free(Session *s, int64_t now) {
    if (!s)
        return;
    session_mode_ops(s->mode)->leave(s, now); // stops a search or a review
    think_cancel(&s->think);
    explore_free(s); // joins the indexing thread before its queue goes
    gamelist_free(s->list);
    session_save_all(s, now); // said when it fails; the front end may have asked already
    for (int i = 0; i < s->unarchived_count; i++)
        pgn_game_free(s->unarchived[i]);
    game_free(s->pending);
    pgn_game_free(s->replace_pending);
    for (int i = 0; i < s->edited_count; i++)
        pgn_game_free(s->edited[i]);
    openings_free(s->openings);
    think_free(&s->think);
    if (s->coach)
        netfile_release(&s->coach_net, s->coach);
    engine_free(s->coach);
    game_free(s->live);
    free_states(s);
    eventq_free(s->think.events);
    annotate_free(s);
    msglog_free(&s->messages);
    free(s);
}

// ----------------------------------------------------------------- queries

bool session_quit_requested(const Session *s) {
    return s->quit;
}
bool session_engine_busy(const Session *s) {
    return s->think.busy && s->think.kind == REQ_MOVE;
}
bool session_asking(const Session *s) {
    return s->asking_resume || s->replace_pending;
}
SessionMode session_mode(const Session *s) {
    return s->mode;
}
const Game *session_live_game(const Session *s) {
    return s->live;
}
// The engine's thinking as it goes; when the engine is not thinking, the
// final lines of the last analysis while its position is on the board
// (stepping back to it shows them again: what is known, not a new search).
const SessionThinking *session_thinking(const Session *s) {
    const SessionThinking *th = &s->think.thinking;
    if (th->active || !s->analysis_final.shown)
        return th;
    const Board *b = session_display_board(s);
    return b && b->key == s->analysis_final_key ? &s->analysis_final : th;
}
bool session_flipped(const Session *s) {
    return s->flipped;
}
Move session_hint(const Session *s) {
    Move hint = session_ops(s)->hint ? session_ops(s)->hint(s) : MOVE_NONE;
    if (hint != MOVE_NONE)
        return hint;
    // The move `why` showed, while its position is on the board.
    const Board *b = session_display_board(s);
    if (s->why_move != MOVE_NONE && b && b->key == s->why_key)
        return s->why_move;
    // An analysis marks its best move (line 1's first), running or final.
    const SessionThinking *th = session_thinking(s);
    return th->shown && th->analysing ? th->best : MOVE_NONE;
}

void session_point(Session *s, Square sq, int64_t now) {
    session_settle(s); // what was said before this click is stamped before it
    if (!session_pointing_active(s)) {
        session_say(s, MSG_ERROR,
                    "Pointing at squares plays moves in your game (back to it: back).");
        return;
    }
    pointing_square(s, sq, now);
}

bool session_point_cancel(Session *s) {
    session_settle(s);
    bool had = s->pointing.selected != SQ_NONE || s->pointing.premove != MOVE_NONE ||
               s->pointing.promotion != MOVE_NONE;
    pointing_reset(s);
    if (had) {
        session_say(s, MSG_INFO, "Selection and premove cleared.");
        session_changed(s);
    }
    return had;
}

void session_pointing(const Session *s, Square *selected, Bitboard *quiet, Bitboard *captures,
                      Move *premove) {
    bool play = session_pointing_active(s);
    *selected = play ? s->pointing.selected : SQ_NONE;
    *premove = play ? s->pointing.premove : MOVE_NONE;
    *quiet = *captures = 0;
    if (play)
        pointing_targets(s, quiet, captures);
}

bool session_is_game_list(const Session *s, const char *text) {
    return s->list && s->list_text[0] && strcmp(s->list_text, text) == 0;
}

int session_game_list_count(const Session *s) {
    return s->list && s->list_text[0] ? gamelist_count(s->list) : 0;
}

void session_game_list_row(const Session *s, int i, int width, char *buf, size_t bufsz) {
    if (s->list)
        gamelist_row(s->list, i, width, buf, bufsz);
    else if (bufsz > 0)
        buf[0] = '\0';
}

int session_game_list_number(const Session *s, int i) {
    return s->list ? gamelist_number(s->list, i) : 0;
}

Square session_promotion_square(const Session *s) {
    Move m = s->pointing.promotion;
    return session_pointing_active(s) && m != MOVE_NONE ? move_to(m) : SQ_NONE;
}

bool session_eval_shown(const Session *s) {
    // The final lines of an analysis were asked for: shown in any game.
    if (session_thinking(s)->final || !session_ops(s)->eval_shown)
        return true;
    return session_ops(s)->eval_shown(s);
}

bool session_busy(const Session *s) {
    if (s->asking_resume)
        return false;
    if (explore_busy(s))
        return true;
    return session_ops(s)->busy && session_ops(s)->busy(s);
}

int session_wakeup_ms(const Session *s, int64_t now) {
    return session_ops(s)->wakeup_ms ? session_ops(s)->wakeup_ms(s, now) : -1;
}

const unsigned char *session_move_variations(Session *s) {
    if (!session_ops(s)->move_list)
        return NULL;
    const char *const *sans;
    int count, cur;
    const unsigned char *vars;
    session_ops(s)->move_list(s, &sans, &count, &cur, &vars);
    return vars;
}

void session_move_list_start(const Session *s, int *fullmove, Color *side) {
    if (session_ops(s)->move_list_start) {
        session_ops(s)->move_list_start(s, fullmove, side);
        return;
    }
    const Game *g = session_ops(s)->game(s);
    *fullmove = game_start_fullmove(g);
    *side = game_start_side(g);
}

void session_move_list(Session *s, const char *const **sans, int *count, int *current_ply) {
    if (session_ops(s)->move_list) {
        const unsigned char *vars;
        session_ops(s)->move_list(s, sans, count, current_ply, &vars);
        return;
    }
    const Game *g = session_ops(s)->game(s);
    int n = session_ops(s)->hides_moves ? 0 : game_ply_count(g);
    for (int i = 0; i < n; i++)
        s->sans[i] = game_move(g, i)->san;
    *sans = s->sans;
    *count = n;
    *current_ply = session_ops(s)->hides_moves ? 0 : session_shown_ply(s);
}

int session_completion_words(Session *s, const char **words, int max) {
    int n = command_names(words, max, 1u << s->mode);
    const Game *g = session_ops(s)->game(s);
    if (!(command_modes(CMD_MOVE) & (1u << s->mode)) || game_is_over(g) || game_engine_to_move(g))
        return n;
    const Board *now = game_board(g);
    movegen_legal(now, &s->completion_moves);
    for (int i = 0; i < s->completion_moves.count && n < max; i++) {
        notation_to_san(now, s->completion_moves.moves[i], s->completion_san[i]);
        words[n++] = s->completion_san[i];
    }
    return n;
}

void session_graph(const Session *s, const int **scores, int *count) {
    *scores = s->graph_count > 1 ? s->graph : NULL;
    *count = s->graph_count > 1 ? s->graph_count : 0;
}
