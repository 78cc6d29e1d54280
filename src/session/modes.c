// SPDX-License-Identifier: GPL-3.0-or-later
// The table of modes, and what the session shows: the queries that the core,
// its services (status, annotations, pointing, saving, the explorer) and the
// front end ask of the current mode. Below the core, so that the services
// ask here and never call back into the dispatcher (session.c).
#include <stddef.h>

#include "src/session/session_int.h"

static const ModeOps *const modes[] = {
    [SESSION_PLAY] = &mode_play_ops,     [SESSION_BROWSE] = &mode_browse_ops,
    [SESSION_EDIT] = &mode_edit_ops,     [SESSION_ANALYSE] = &mode_analyse_ops,
    [SESSION_REVIEW] = &mode_review_ops, [SESSION_TRAIN] = &mode_train_ops,
};
_Static_assert(sizeof modes / sizeof modes[0] == SESSION_MODE_COUNT,
               "every mode of session_mode.h has its ModeOps here");

const ModeOps *session_mode_ops(SessionMode m) {
    return modes[m];
}

const ModeOps *session_ops(const Session *s) {
    return modes[s->mode];
}

const Game *session_game(const Session *s) {
    return session_ops(s)->game(s);
}

int session_shown_ply(const Session *s) {
    const Game *g = session_ops(s)->game(s);
    return session_ops(s)->shown_ply ? session_ops(s)->shown_ply(s) : g ? game_ply_count(g) : 0;
}

const Board *session_display_board(const Session *s) {
    return session_ops(s)->board(s);
}

bool session_editing(const Session *s) {
    return session_ops(s)->hides_moves;
}

bool session_pointing_active(const Session *s) {
    return session_ops(s)->points;
}

const char *session_mode_name(SessionMode m) {
    static const char *const names[] = {
#define SESSION_MODE_NAME(NAME, name) [SESSION_##NAME] = name,
        SESSION_MODES(SESSION_MODE_NAME)
#undef SESSION_MODE_NAME
    };
    return (int)m >= 0 && (int)m < (int)SESSION_MODE_COUNT ? names[m] : "?";
}

// The game behind the position a mode shows (NULL for the editor's board), whose
// keys name the opening of a position out of the book.
static const Game *shown_game(const Session *s) {
    return session_ops(s)->hides_opening ? NULL : session_ops(s)->game(s);
}

const char *session_opening(const Session *s) {
    const Game *g = shown_game(s);
    if (g && game_variant(g)) // Chess960 has no opening names: its start position instead
        return game_variant(g);
    if (!s->openings || !g)
        return NULL;
    return openings_lookup(s->openings, game_board(g), game_keys(g), game_ply_count(g), NULL, 0,
                           NULL, 0);
}

PgnCursor *session_cursor(const Session *s) {
    return session_ops(s)->cursor ? session_ops(s)->cursor(s) : NULL;
}
