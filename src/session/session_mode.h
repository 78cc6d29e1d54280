// SPDX-License-Identifier: GPL-3.0-or-later
// The modes of a session, listed once: SESSION_MODES generates the
// SessionMode enum here and, in command.h, the CMODE_* bits of the modes that
// accept a command, so the two cannot drift apart. Adding a mode is one line
// here (plus its ModeOps).
#ifndef SRC_SESSION_MODE_H
#define SRC_SESSION_MODE_H

// X(NAME, name): the enum's suffix and the name shown to the user.
#define SESSION_MODES(X)                                                                   \
    X(PLAY, "play")       /* the live game (never lost: the other modes leave it alive) */ \
    X(BROWSE, "browse")   /* a game of a file, or a reviewed game */                       \
    X(EDIT, "edit")       /* the position editor */                                        \
    X(ANALYSE, "analyse") /* the engine analyses a copy of the position shown */           \
    X(REVIEW, "review")   /* a review of every move runs */                                \
    X(TRAIN, "train")     /* puzzles from mistakes: searched for, then solved */

// What the session is doing: each mode owns its state, and the session
// switches between them only by leaving one and entering the other.
typedef enum {
#define SESSION_MODE_ENUM(NAME, name) SESSION_##NAME,
    SESSION_MODES(SESSION_MODE_ENUM)
#undef SESSION_MODE_ENUM
} SessionMode;

// How many modes (not in the enum, so a switch over the modes need not
// name it).
enum {
#define SESSION_MODE_ONE(NAME, name) +1
    SESSION_MODE_COUNT = 0 SESSION_MODES(SESSION_MODE_ONE)
#undef SESSION_MODE_ONE
};

#endif
