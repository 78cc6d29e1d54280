// SPDX-License-Identifier: GPL-3.0-or-later
// The command language of the game (command bar and line mode): a pure
// parser from one line of text to a Command. A line that is not a command
// word is taken as a move. Errors come back as messages, nothing is printed.
#ifndef SRC_COMMAND_H
#define SRC_COMMAND_H

#include "src/game/clock.h"
#include "src/session/session_mode.h"

typedef enum {
    CMD_EMPTY, // blank line
    CMD_MOVE,  // text: the move as typed
#define COMMAND(KIND, ...) CMD_##KIND,
#include "src/session/command_list.def"
#undef COMMAND
    CMD_COUNT
} CommandKind;

// The modes of the session, as bits (CMODE_PLAY is 1 << SESSION_PLAY...):
// which modes accept a command.
enum {
#define COMMAND_MODE_BIT(NAME, name) CMODE_##NAME = 1 << SESSION_##NAME,
    SESSION_MODES(COMMAND_MODE_BIT)
#undef COMMAND_MODE_BIT
        CMODE_ALL = (1 << SESSION_MODE_COUNT) - 1,
};

enum { COMMAND_TEXT_MAX = 512 };

typedef struct Command {
    CommandKind kind;
    char text[COMMAND_TEXT_MAX];
    int number;
    // CMD_NAG: the NAG (1 "!" ... 6 "?!", $N); CMD_MOVE: one typed after the
    // move ("e4!?", "Nf3 !", "e4 $14"), which text then leaves out; 0: none.
    int nag;
    // CMD_PLAY: which sides the human plays.
    bool human[COLOR_NB];
    // CMD_NEW options; each only when its has_ flag is set.
    bool has_side, has_level, has_elo, has_time;
    bool here;  // new ... here: from the position shown, with its moves
    Color side; // the side the human plays in the new game
    int level, elo;
    TimeControl tc; // also CMD_TIME
} Command;

// Parses one line. Command words are case-insensitive and have short aliases
// (see command_help). False with a message naming the problem (unknown
// option, missing or bad argument).
bool command_parse(const char *line, Command *cmd, char *err, size_t errsz);

// A NAG as typed: !, ?, !!, ??, !?, ?! or $N (N 1..255). 0 when s is none.
int command_nag_value(const char *s, size_t len);

// Command names for completion (the full names, not aliases) of the
// commands that the modes in mode_mask accept.
int command_names(const char **out, int max, unsigned mode_mask);
// The command nearest to a mistyped word of letters ("hlep": "help"; never
// for "e4", which reads as a move), among the names
// and aliases of the commands the modes in mode_mask accept: its full name,
// or NULL when none is close (one edit, or two for words of five letters or
// more; a swap of two neighbours counts as one).
const char *command_suggest(const char *word, unsigned mode_mask);
// The modes (CMODE_* bits) that accept a command; moves are CMD_MOVE.
unsigned command_modes(CommandKind kind);
// The full name of a command ("move" for CMD_MOVE).
const char *command_name(CommandKind kind);
// Help: with name NULL or empty, the list of commands with one line each;
// otherwise the usage and description of that command (NULL if unknown).
const char *command_help(const char *name);

#endif
