// SPDX-License-Identifier: GPL-3.0-or-later
// A playing session: the game controller, the engine, the event queue from
// the engine thread, and the command language, tied together without any
// terminal. The terminal game and the line mode are two thin front ends
// over it: they feed it lines and time, and draw what it exposes.
#ifndef SRC_SESSION_H
#define SRC_SESSION_H

#include "engine/engine.h"
#include "src/game/game.h"

typedef enum { MSG_INFO, MSG_ERROR, MSG_HELP } MessageKind;

typedef struct SessionHooks {
    // A message for the user (one or more lines). Called on the main thread.
    void (*message)(MessageKind kind, const char *text, void *ctx);
    // The position changed (a move, undo, new game...): redraw / print it.
    void (*position_changed)(void *ctx);
    // theme, pieces and bell: the look of the board view, which the front
    // end owns (command is the command's name, arg its text, maybe empty).
    // NULL in front ends without a board view.
    void (*display)(const char *command, const char *arg, void *ctx);
    void *ctx;
} SessionHooks;

typedef struct SessionOptions {
    GameSettings settings;
    char book_path[4096];     // empty: no book
    bool own_book;            // the engine plays from the book in the opening
    char autosave_path[4096]; // empty: no autosave
    bool resume;              // start from the autosaved game if it is unfinished
    char load_path[4096];     // a PGN file to open at start (empty: none)
    int hash_mb;
} SessionOptions;

typedef struct Session Session;

enum { SESSION_MAX_LINES = 5, SESSION_LINE_MAX = 200 };

// One analysis line (MultiPV), from White's point of view.
typedef struct SessionLine {
    int depth;
    int score_white, mate_white;
    char pv_san[SESSION_LINE_MAX];
} SessionLine;

// The engine's latest thinking, from White's point of view, PV in SAN.
typedef struct SessionThinking {
    bool shown, active;
    bool analysing;            // infinite analysis (analyze) rather than a move
    int depth, seldepth;
    int score_white, mate_white;
    unsigned long long nodes, nps;
    char pv_san[512];
    int line_count;            // analysis lines received for the current depth
    SessionLine lines[SESSION_MAX_LINES];
} SessionThinking;

// Opens a session. NULL with the reason in err when the engine or the game
// cannot be set up (bad FEN, no memory); a failed resume is only a message.
Session *session_new(const SessionOptions *opts, const SessionHooks *hooks, int64_t now,
                     char *err, size_t errsz);
// Stops the engine and frees everything (after a final autosave).
void session_free(Session *s, int64_t now);

// Handles one line of user input (a move or a command).
void session_handle_line(Session *s, const char *line, int64_t now);
// Drains engine events, checks the clocks, starts the engine when it is its
// turn. Call after input and whenever eventq's descriptor is readable or a
// timer fires (at least every 100 ms while a clock runs).
void session_poll(Session *s, int64_t now);
// Descriptor that becomes readable when the engine has something to say.
int session_event_fd(const Session *s);
bool session_quit_requested(const Session *s);
// Waits for the engine to finish its current move (line mode at end of input).
bool session_engine_busy(const Session *s);

const Game *session_game(const Session *s);
// The board to show: the game's, or the position being edited.
const Board *session_display_board(const Session *s);
bool session_editing(const Session *s);
const SessionThinking *session_thinking(const Session *s);
bool session_flipped(const Session *s);
Move session_hint(const Session *s);
// The move list shown: the game's moves, or the line of a loaded game being
// replayed; current is how many of them are on the board. Valid until the
// next change.
void session_move_list(Session *s, const char *const **sans, int *count, int *current);
// The number and side of the first move of that list.
void session_move_list_start(const Session *s, int *fullmove, Color *side);
// Per ply of that list, how many alternatives the move has (NULL: none).
const unsigned char *session_move_variations(Session *s);
// "C50 Italian Game": the name of the latest named position of the game, or NULL.
const char *session_opening(const Session *s);
// The evaluation graph of the last review (White's view per ply), or none.
void session_graph(const Session *s, const int **scores, int *count);
// Whether a review runs, and how far it is.
bool session_review_progress(const Session *s, int *done, int *total);
// Completion words: command names and the legal moves in SAN.
int session_completion_words(Session *s, const char **words, int max);
// "White to move", "Black to move - check", "1-0 White mates" ...
void session_status(const Session *s, char *buf, size_t bufsz);
// Names and details for the player panes.
void session_player_label(const Session *s, Color c, char *name, size_t namesz, char *detail,
                          size_t detailsz);

#endif
