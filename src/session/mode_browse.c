// SPDX-License-Identifier: GPL-3.0-or-later
// Mode browse: a game of a PGN file (or a reviewed game) on the board, to
// step through, enter its variations and try moves in (they join the game
// as its continuation or as a variation). Leaving it closes the file's game.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/session/session_int.h"
#include "src/util/text.h"

typedef struct BrowseState {
    PgnGame *doc;      // the game shown (a file's, or a reviewed one): the document
    PgnCursor *cursor; // the line through it and how far the board is
    Game *game;        // the line up to the cursor, the rest as the redo tail
    const char *line_sans[GAME_MAX_PLIES];
    unsigned char line_variations[GAME_MAX_PLIES];
} BrowseState;

static BrowseState *state(const Session *s) {
    return s->mode_state[SESSION_BROWSE];
}

static const Transition stay = { .kind = TR_STAY };

enum {
    LEAD_COMMENT_SHORT = 60, // bytes of a game's first comment that the status line shows
    NAME_SHOWN = 40,         // bytes of a player's name in a heading
};

// The settings the board's game is shown with: the position at the segment
// start (after a null move the game on the board starts from the position it
// left), both sides human, no clock, the file's names.
static void shown_settings(const PgnCursor *c, const GameSettings *base, GameSettings *out) {
    *out = *base;
    out->players[WHITE] = out->players[BLACK] = PLAYER_HUMAN;
    out->tc.untimed = true;
    out->tc.count = 0;
    const PgnGame *g = pgn_cursor_game(c);
    const char *fen = pgn_start_fen(g);
    snprintf(out->start_fen, sizeof out->start_fen, "%s",
             fen && strcmp(fen, BOARD_START_FEN) != 0 ? fen : "");
    int seg = pgn_cursor_segment_start(c);
    Board b;
    if (seg > 0 && pgn_cursor_position(c, seg, &b))
        board_to_fen(&b, out->start_fen, sizeof out->start_fen);
    for (Color side = WHITE; side <= BLACK; side++) {
        const char *name = pgn_tag(g, side == WHITE ? "White" : "Black");
        text_copy(out->names[side], sizeof out->names[side], name ? name : "");
    }
}

// Puts the document's line on the board up to the cursor (the rest of the
// line as the redo tail, so an analysis started here can step forward).
// While the mode is being entered the front end is not told: the core does
// it after.
static bool show_position(Session *s, bool notify) {
    BrowseState *b = state(s);
    GameSettings settings;
    shown_settings(b->cursor, &s->opts.settings, &settings);
    int seg = pgn_cursor_segment_start(b->cursor); // the game starts after a null move
    int n = pgn_cursor_length(b->cursor) - seg;
    if (n > GAME_MAX_PLIES)
        n = GAME_MAX_PLIES;
    Move moves[GAME_MAX_PLIES];
    for (int i = 0; i < n; i++)
        moves[i] = pgn_cursor_line_node(b->cursor, seg + i)->move;
    char err[512];
    int cursor = pgn_cursor_ply(b->cursor) - seg;
    Game *g = session_game_from_line(s, &settings, moves, n, cursor, err, sizeof err);
    if (!g) {
        session_say(s, MSG_ERROR, "%s", err);
        return false;
    }
    if (game_ply_count(g) < cursor) // the game ended (mate) before the line did
        pgn_cursor_set_ply(b->cursor, seg + game_ply_count(g));
    // The moves' comments and assessments come along (playing on from here keeps them).
    for (int i = 0; i < game_ply_count(g); i++) {
        const PgnNode *node = pgn_cursor_line_node(b->cursor, seg + i);
        if ((node->comment && !game_set_comment(g, i, node->comment)) ||
            (node->nag_count && !game_set_nag(g, i, node->nags[0]))) {
            session_say(s, MSG_ERROR, "out of memory showing the game's comments");
            break;
        }
    }
    game_free(b->game);
    b->game = g;
    if (notify)
        session_changed(s);
    return true;
}

static void close_view(BrowseState *b) {
    pgn_cursor_free(b->cursor);
    pgn_game_free(b->doc);
    game_free(b->game);
    b->cursor = NULL;
    b->doc = NULL;
    b->game = NULL;
}

// Closes the view; a game of a file with changes not saved is kept by the
// session, to be shown again when it is reopened.
static void leave_view(Session *s, BrowseState *b) {
    if (b->doc && pgn_modified(b->doc) && pgn_source(b->doc)->path[0]) {
        session_keep_edited(s, b->doc);
        b->doc = NULL;
    }
    close_view(b);
}

// The comment before the game's first move (or of a game without moves).
static const char *opening_comment(const PgnGame *g) {
    const PgnNode *first = pgn_first(g);
    return first ? first->pre : pgn_lead_comment(g);
}

// A comment before the game's first move too long for the status line (an
// introduction, a story) is shown whole as a text to read.
static void long_lead_comment(Session *s, const PgnGame *g, int number) {
    const char *comment = opening_comment(g);
    if (!comment || strlen(comment) <= LEAD_COMMENT_SHORT)
        return;
    const char *white = pgn_tag(g, "White"), *black = pgn_tag(g, "Black");
    size_t size = strlen(comment) + 2 * NAME_SHOWN + 64;
    char *text = malloc(size);
    if (!text) {
        session_say(s, MSG_ERROR, "out of memory showing the game's comment");
        return;
    }
    snprintf(text, size, "Game %d: %.*s - %.*s, the comment before the first move\n\n%s", number,
             NAME_SHOWN, white ? white : "?", NAME_SHOWN, black ? black : "?", comment);
    session_say_text(s, MSG_ASIDE, text); // beside the board: the next command goes on
    free(text);
}

static bool browse_enter(Session *s, const ModeArgs *args, int64_t now) {
    (void)now;
    char err[512];
    PgnGame *kept = args->game ? NULL : session_take_edited(s, args->path, args->number);
    PgnGame *doc = args->game ? args->game
                   : kept
                       ? kept
                       : pgn_db_read_game(args->path, args->number, &args->place, err, sizeof err);
    PgnCursor *r = doc ? pgn_cursor_new(doc) : NULL;
    if (!r) {
        if (doc) {
            pgn_game_free(doc);
            snprintf(err, sizeof err, "out of memory showing the game");
        }
        session_say(s, MSG_ERROR, "%s", err);
        return false;
    }
    BrowseState old = *state(s); // browse entered again: the new game replaces the old
    memset(state(s), 0, sizeof *state(s));
    state(s)->doc = doc;
    state(s)->cursor = r;
    if (args->ply >= 0 && args->ply < pgn_cursor_length(r))
        pgn_cursor_set_ply(r, args->ply);
    if (!show_position(s, false)) {
        close_view(state(s));
        *state(s) = old;
        return false;
    }
    leave_view(s, &old);
    if (args->game || args->ply >= 0)
        return true; // a reviewed game, or back from an analysis: the board says it
    const PgnGame *g = pgn_cursor_game(r);
    const char *white = pgn_tag(g, "White"), *black = pgn_tag(g, "Black");
    const char *comment = opening_comment(g);
    bool short_comment = comment && comment[0] && strlen(comment) <= LEAD_COMMENT_SHORT;
    int moves = (pgn_cursor_length(r) + 1) / 2;
    session_say(s, MSG_INFO,
                "Game %d: %s - %s %s (%d move%s%s)%s%s%s. next/prev, first/last, var N, up; "
                "back returns to your game.",
                args->number, white ? white : "?", black ? black : "?", pgn_result(g), moves,
                moves == 1 ? "" : "s", kept ? ", with your changes not saved yet" : "",
                short_comment ? " {" : "", short_comment ? comment : "", short_comment ? "}" : "");
    long_lead_comment(s, g, args->number);
    return true;
}

static void browse_leave(Session *s, int64_t now) {
    (void)now;
    leave_view(s, state(s));
}

// After White's move N, counted in the line's own numbering.
static int goto_ply(const PgnCursor *r, int number) {
    if (number == 0)
        return 0;
    int first;
    Color side;
    pgn_cursor_move_number(r, 0, &first, &side);
    return (number - first) * 2 + (side == WHITE ? 1 : 0);
}

static bool step(Session *s, const Command *cmd) {
    PgnCursor *r = state(s)->cursor;
    int cursor = pgn_cursor_ply(r), length = pgn_cursor_length(r);
    switch (cmd->kind) {
    case CMD_NEXT:
    case CMD_REDO:
        if (cursor < length && pgn_cursor_set_ply(r, cursor + 1))
            return true;
        session_say(s, MSG_ERROR, "At the end of the line.");
        return false;
    case CMD_PREV:
    case CMD_UNDO:
        if (cursor > 0 && pgn_cursor_set_ply(r, cursor - 1))
            return true;
        session_say(s, MSG_ERROR, "At the start.");
        return false;
    case CMD_FIRST: return pgn_cursor_set_ply(r, 0);
    case CMD_LAST: return pgn_cursor_set_ply(r, length);
    case CMD_GOTO: {
        int ply = goto_ply(r, cmd->number);
        if (ply >= 0 && ply <= length && pgn_cursor_set_ply(r, ply))
            return true;
        int first;
        Color side;
        pgn_cursor_move_number(r, 0, &first, &side);
        session_say_goto_range(s, "the line", cmd->number, first, side, length);
        return false;
    }
    case CMD_VAR:
        if (pgn_cursor_enter_variation(r, cmd->number))
            return true;
        session_say(s, MSG_ERROR, "The next move has %d variation%s.",
                    pgn_cursor_variation_count(r), pgn_cursor_variation_count(r) == 1 ? "" : "s");
        return false;
    case CMD_UP:
        if (pgn_cursor_leave_variation(r))
            return true;
        session_say(s, MSG_ERROR, "Already on the main line.");
        return false;
    default: return false;
    }
}

// A move on the board joins the loaded game.
static void try_move(Session *s, const char *text, int64_t now) {
    BrowseState *b = state(s);
    char err[512] = "";
    GameStatus st = game_play_text(b->game, text, now, err, sizeof err);
    if (st != GAME_OK) {
        session_move_error(s, text, st, err);
        return;
    }
    Move moves[GAME_MAX_PLIES];
    int n = game_ply_count(b->game);
    for (int i = 0; i < n; i++)
        moves[i] = game_move(b->game, i)->move;
    if (!pgn_cursor_follow(b->cursor, moves, n))
        session_say(s, MSG_ERROR, "out of memory adding the move to the game");
    show_position(s, true);
}

static Transition browse_handle(Session *s, const Command *cmd, int64_t now) {
    if (cmd->kind == CMD_MOVE)
        try_move(s, cmd->text, now);
    else if (cmd->kind == CMD_STOP)
        session_say(s, MSG_ERROR, "Nothing to stop (back returns to your game).");
    else if (step(s, cmd))
        show_position(s, true);
    return stay;
}

static Transition browse_poll(Session *s, const Event *ev, int64_t now) {
    (void)s, (void)ev, (void)now;
    return stay;
}

static const Game *browse_game(const Session *s) {
    return state(s)->game;
}
static const Board *browse_board(const Session *s) {
    return game_board(state(s)->game);
}

// NAGs as the glyphs people read ($1 "!" ... $6 "?!"), others as $n.
static void nag_text(const PgnNode *n, char *buf, size_t bufsz) {
    static const char *const glyphs[] = { "", "!", "?", "!!", "??", "!?", "?!" };
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n->nag_count && len < bufsz; i++) {
        int nag = n->nags[i];
        len += (size_t)(nag >= 1 && nag <= 6 ? snprintf(buf + len, bufsz - len, "%s", glyphs[nag])
                                             : snprintf(buf + len, bufsz - len, " $%d", nag));
    }
}

// The cursor is after the main line's last move (not in a variation).
static bool at_mainline_end(const PgnCursor *r) {
    const PgnGame *doc = pgn_cursor_game(r);
    int ply = pgn_cursor_ply(r), length = pgn_mainline_length(doc);
    return ply == length && pgn_cursor_length(r) == length &&
           (ply == 0 || pgn_cursor_line_node(r, ply - 1) == pgn_mainline_node(doc, ply - 1));
}

static void browse_status(const Session *s, char *buf, size_t bufsz) {
    const PgnCursor *r = state(s)->cursor;
    const Game *g = state(s)->game;
    int cursor = pgn_cursor_ply(r);
    size_t len = 0;
    if (cursor == 0) {
        len = (size_t)snprintf(buf, bufsz, "Start of the game");
    } else {
        const PgnNode *n = pgn_cursor_line_node(r, cursor - 1);
        int number;
        Color side;
        pgn_cursor_move_number(r, cursor - 1, &number, &side);
        char nags[32];
        nag_text(n, nags, sizeof nags);
        len = (size_t)snprintf(buf, bufsz, "%d.%s %s%s", number, side == BLACK ? ".." : "", n->san,
                               nags);
        if (n->comment && len < bufsz)
            len += (size_t)snprintf(buf + len, bufsz - len, "  {%s}", n->comment);
    }
    int vars = pgn_cursor_variation_count(r);
    if (vars && len < bufsz)
        len += (size_t)snprintf(buf + len, bufsz - len, "  [%d variation%s: var N]", vars,
                                vars == 1 ? "" : "s");
    if (game_is_over(g) && len < bufsz) {
        snprintf(buf + len, bufsz - len, "  %s", game_end_text(g));
    } else if (at_mainline_end(r) && len < bufsz) {
        // A resignation, an agreed draw or a flag leaves no trace on the
        // board: the record says it, as load would read it.
        char end[160];
        if (gamefile_recorded_end(pgn_cursor_game(r), g, end, sizeof end))
            snprintf(buf + len, bufsz - len, "  %s", end);
    }
}

static PgnGame *browse_to_pgn(Session *s, int64_t now) {
    (void)now;
    return pgn_game_clone(pgn_cursor_game(state(s)->cursor)); // with its source and changes
}

// The game is where save put it, as it is now.
static void browse_saved(Session *s, const PgnGame *written) {
    PgnGame *g = pgn_cursor_game(state(s)->cursor);
    pgn_set_source(g, pgn_source(written));
    pgn_mark_saved(g);
}

// The move list of the line shown, and the variations of each of its moves.
static void browse_move_list(Session *s, const char *const **sans, int *count, int *current,
                             const unsigned char **variations) {
    BrowseState *b = state(s);
    int n = pgn_cursor_length(b->cursor);
    for (int i = 0; i < n && i < GAME_MAX_PLIES; i++) {
        const PgnNode *node = pgn_cursor_line_node(b->cursor, i);
        b->line_sans[i] = node->san;
        int vars = 0;
        for (const PgnNode *v = node->variation; v && vars < 255; v = v->next_variation)
            vars++;
        b->line_variations[i] = (unsigned char)vars;
    }
    *sans = b->line_sans;
    *count = n < GAME_MAX_PLIES ? n : GAME_MAX_PLIES;
    *current = pgn_cursor_ply(b->cursor);
    *variations = b->line_variations;
}

static void browse_move_list_start(const Session *s, int *fullmove, Color *side) {
    pgn_cursor_move_number(state(s)->cursor, 0, fullmove, side); // the line, not the board's game
}

static PgnCursor *browse_cursor(const Session *s) {
    return state(s)->cursor;
}
static void browse_refresh(Session *s) {
    show_position(s, true);
}

// Which game is shown: the file's game number, or one in memory.
static void browse_status_tag(const Session *s, char *buf, size_t bufsz) {
    if (s->browse_number > 0)
        snprintf(buf, bufsz, "  [browse: game %d]", s->browse_number);
    else
        snprintf(buf, bufsz, "  [browse: reviewed game]");
}

const ModeOps mode_browse_ops = {
    .state_size = sizeof(BrowseState),
    .enter = browse_enter,
    .leave = browse_leave,
    .handle = browse_handle,
    .poll = browse_poll,
    .game = browse_game,
    .board = browse_board,
    .status = browse_status,
    .to_pgn = browse_to_pgn,
    .saved = browse_saved,
    .refusal_hint = " (back returns to your game)",
    .move_list = browse_move_list,
    .move_list_start = browse_move_list_start,
    .status_tag = browse_status_tag,
    .cursor = browse_cursor,
    .refresh = browse_refresh,
};
