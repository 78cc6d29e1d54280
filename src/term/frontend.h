// SPDX-License-Identifier: GPL-3.0-or-later
// The two faces of the game over a session: the terminal game (curses and
// readline) and the plain line mode for pipes and scripts.
#ifndef SRC_FRONTEND_H
#define SRC_FRONTEND_H

#include <stdio.h>

#include "engine/search.h"
#include "src/term/config.h"

// Milliseconds of a monotonic clock (the session's notion of "now").
static inline int64_t frontend_now_ms(void) { return search_now_ms(); }

// The exit status of a game whose last autosave or archive write failed
// (the man page's EXIT STATUS).
enum { FRONTEND_NOT_SAVED = 3 };

// SIGHUP (the terminal closed), SIGTERM, or SIGINT to the line mode over a
// pipe ended the game: the changes to games of files not saved go to the
// recovery file (session_recover_unsaved), and standard error says where, or
// why they could not. Returns 0, or FRONTEND_NOT_SAVED when they could not be
// kept.
int frontend_recover_unsaved(Session *s);

// Runs the line mode over in/out; first_line is a line main already read
// (or NULL). Returns the exit status.
int linemode_run(const Config *cfg, FILE *in, FILE *out, const char *first_line);

enum { TUI_NO_SCREEN = -1 };

// Runs the terminal game. Returns the exit status, or TUI_NO_SCREEN (with the
// reason in why) when the terminal cannot show it; nothing was started then.
int tui_run(const Config *cfg, char *why, size_t whysz);

#endif
