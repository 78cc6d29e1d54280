// SPDX-License-Identifier: GPL-3.0-or-later
// The command language of the game (command bar and line mode): a pure
// parser from one line of text to a Command. A line that is not a command
// word is taken as a move. Errors come back as messages, nothing is printed.
#ifndef SRC_COMMAND_H
#define SRC_COMMAND_H

#include "src/game/clock.h"

typedef enum {
    CMD_EMPTY,    // blank line
    CMD_MOVE,     // text: the move as typed
    CMD_NEW,      // new [white|black] [level N] [elo N] [time TC] [960 [N]]
    CMD_PLAY,     // play white|black|both|none: which sides the human plays
    CMD_UNDO,
    CMD_REDO,
    CMD_FLIP,
    CMD_HINT,
    CMD_LEVEL,    // number: 1..20
    CMD_ELO,      // number: Elo
    CMD_TIME,     // tc
    CMD_RESIGN,
    CMD_DRAW,     // offer a draw
    CMD_CLAIM,    // claim a draw (text: an optional move to claim with)
    CMD_FEN,      // print the FEN
    CMD_SETBOARD, // text: the FEN
    CMD_SAVE,     // text: file name
    CMD_LOAD,     // text: file name
    CMD_GO,       // the engine moves now / takes over the side to move
    CMD_STOP,     // the engine moves now
    CMD_QUIT,
    CMD_HELP,     // text: the command asked about, may be empty
    // Analysis and replay of loaded games.
    CMD_ANALYZE,  // infinite analysis of the current position
    CMD_LINES,    // number: analysis lines 1..5
    CMD_NEXT,     // one move forward in the game
    CMD_PREV,     // one move back
    CMD_FIRST,    // to the start
    CMD_LAST,     // to the end of the line
    CMD_GOTO,     // number: to the position after White's move N (0 = start)
    CMD_VAR,      // number: into the Nth alternative to the next move
    CMD_UP,       // out of the variation, back to the line it branches from
    CMD_REVIEW,   // analyse every move of the game
    CMD_GAMES,    // text: list the games of the loaded file (matching the text)
    CMD_GAME,     // number: show game N of the loaded file
    // The position editor.
    CMD_EDIT,     // start editing the current position
    CMD_PUT,      // text: a piece and a square, "Qd4" or "pe5" (lower case: Black)
    CMD_REMOVE,   // text: a square
    CMD_SIDE,     // text: "white" or "black" to move
    CMD_CASTLING, // text: "KQkq", "-"...
    CMD_EP,       // text: a square or "-"
    CMD_CLEAR,    // empty board (kings must be put back)
    CMD_DONE,     // use the edited position
    CMD_CANCEL,   // leave the editor, nothing changes
    // The session's documents.
    CMD_BACK,     // back to the game being played (game 0 does the same)
    CMD_PACE,     // number: milliseconds between the engine's moves when it plays itself
    // The look of the board view (the front end carries them out).
    CMD_THEME,    // text: a theme name, or empty to list them
    CMD_PIECES,   // text: a piece set name, or empty to list them
    CMD_BELL,     // text: on, off, or empty to show the setting
    CMD_EVAL,     // text: on, off, or empty to toggle the engine's evaluation in play
    CMD_MESSAGES, // the last status messages
    // Annotating the game shown.
    CMD_COMMENT,  // text: the comment after the current move (empty: remove it)
    CMD_NAG,      // nag: the current move's NAG (0: remove them)
    CMD_WHY,      // explain the last move: its threats, or what a mistake allowed
    // Puzzles from mistakes.
    CMD_TRAIN,    // text: a PGN file to find puzzles in (empty: your archived games)
    CMD_SOLUTION, // show the puzzle's solution
    // The opening explorer.
    CMD_EXPLORE,  // the moves played from the position shown
    CMD_INDEX,    // text: PGN files to index for the explorer
    // Any UCI engine.
    CMD_ENGINE,   // text: an engine command line, builtin, options, option NAME VALUE, or empty
} CommandKind;

// The modes of the session, as bits: which modes accept a command.
enum {
    CMODE_PLAY = 1 << 0,    // playing the live game
    CMODE_BROWSE = 1 << 1,  // stepping through a game of a file (or a reviewed game)
    CMODE_EDIT = 1 << 2,    // the position editor
    CMODE_ANALYSE = 1 << 3, // the engine analyses a position you can move about in
    CMODE_REVIEW = 1 << 4,  // a review of every move runs
    CMODE_TRAIN = 1 << 5,   // puzzles: searching for them, solving them
    CMODE_ALL = (1 << 6) - 1,
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
    bool here;      // new ... here: from the position shown, with its moves
    bool chess960;  // new ... 960 [N]: a Chess960 game
    int chess960_number; // its start position 0..959, -1: drawn at random
    Color side;     // the side the human plays in the new game
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
