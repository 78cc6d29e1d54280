// SPDX-License-Identifier: GPL-3.0-or-later
// The command bar at the bottom of the screen: GNU readline in callback mode
// with curses owning the keyboard, so the rest of the screen keeps updating
// while the user types. Keys are fed in one at a time; a finished line is
// handed to the caller's on_line handler. Tab completes from the words the
// caller supplies (commands and legal moves) and file names for commands
// that take a file. The only file in patzer that uses readline.
#ifndef UI_CMDBAR_H
#define UI_CMDBAR_H

#include <stdbool.h>

// Receives each entered line (without the newline); the string is only
// valid during the call. NULL means end of input (Ctrl-D on an empty line).
typedef void (*CmdbarLineFn)(const char *line, void *ctx);
// Fills words[] with up to max completion candidates for the current input
// and returns how many; the strings must stay valid until the next call.
typedef int (*CmdbarWordsFn)(const char **words, int max, void *ctx);

// Starts readline in callback mode drawing into the command window. The
// history is loaded from history_path (may be NULL or missing) and saved
// back on close. Commands listed in file_commands ("save", "load") complete
// file names after them.
bool ui_cmdbar_open(const char *prompt, const char *history_path, CmdbarLineFn on_line,
                    CmdbarWordsFn words, const char *const *file_commands, void *ctx);
void ui_cmdbar_close(void);
// Hands one key (from ui_screen_getch) to readline.
void ui_cmdbar_feed(int key);
// True when nothing has been typed on the command line.
bool ui_cmdbar_is_empty(void);
// Redraws the command line (after a resize or a full redraw).
void ui_cmdbar_redraw(void);
// Shows a message in place of the prompt until the next key.
void ui_cmdbar_message(const char *text);

#endif
