// SPDX-License-Identifier: GPL-3.0-or-later
// A playing session: the live game, the engine, the event queue from the
// engine and review threads, and the command language, tied together without
// any terminal. It is always in one mode (SessionMode); the live game stays
// alive in all of them. The terminal game and the line mode are two thin
// front ends over it: they feed it lines and time, and draw what it exposes.
// Everything here is called from one thread.
#ifndef SRC_SESSION_H
#define SRC_SESSION_H

#include "engine/engine.h"
#include "src/game/game.h"
#include "src/session/session_mode.h"

// MSG_ANALYSIS: one completed depth of an analysis, one line per PV, for
// front ends that print it (line mode); a screen draws session_thinking.
// MSG_HELP, MSG_TEXT and MSG_LOG are long texts to read (a screen pages
// them): help, a document whose first line is its title (a game list, a
// game's comment), and the message log (newest last). MSG_INFO and
// MSG_ERROR are status messages: the session keeps the last 100 of them.
// MSG_PROGRESS: how far a long job is (indexing), replaced by the next one:
// a screen shows it in the status line, line mode prints it on stderr; not
// kept in the log.
typedef enum {
    MSG_INFO,
    MSG_ERROR,
    MSG_HELP,
    MSG_ANALYSIS,
    MSG_TEXT,
    MSG_LOG,
    MSG_PROGRESS,
    MSG_ASIDE, // a text not asked for (a game's long first comment): a screen
               // shows it beside the board (its comment pane), line mode prints it
} MessageKind;

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
    bool fresh;               // --new: start a new game (an unfinished one is archived)
    char archive_path[4096];  // finished and abandoned games are appended here (empty: none)
    int pace_ms;              // between engine moves when it plays itself (-1: default)
    char notes[1024];         // problems found before the session (patzer.conf), shown at start
    char load_path[4096];     // a PGN file to open at start (empty: none)
    int hash_mb;
    int threads;          // search threads; 0: one per core
    char engine_cmd[512]; // an external UCI engine's command line (empty: the built-in)
    bool confirm_replace; // `save FILE replace` asks again before replacing a file's games
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
    bool analysing; // infinite analysis (analyze) rather than a move
    bool final;     // an analysis that ended: its last lines, kept while
                    // its position is on the board
    Move best;      // the first move of line 1 (MOVE_NONE: none yet)
    int depth, seldepth;
    int score_white, mate_white;
    unsigned long long nodes, nps;
    char pv_san[512];
    int line_count; // analysis lines received for the current depth
    SessionLine lines[SESSION_MAX_LINES];
} SessionThinking;

// Opens a session. NULL with the reason in err when the engine or the game
// cannot be set up (bad FEN, no memory); a failed resume is only a message.
Session *session_new(const SessionOptions *opts, const SessionHooks *hooks, int64_t now, char *err,
                     size_t errsz);
// Stops the engine and frees everything (after a final autosave).
void session_free(Session *s, int64_t now);
// The final writes (session_free does them too): the autosave when the game
// changed, the archive's copy of a finished game, games waiting for the
// archive. False when something could not be saved; session_last_failure
// says what. A front end calls it before session_free for its exit status.
bool session_save_all(Session *s, int64_t now);
// The failures to write the games (autosave, archive) said so far, counted,
// and the last one's words (the file and the reason; "" before any): a front
// end shows a new one where it must be seen (the line mode on stderr).
unsigned session_write_failures(const Session *s);
const char *session_last_failure(const Session *s);

// A status message of the front end's own (MSG_INFO or MSG_ERROR): kept in
// the message log like the session's, and shown through the message hook.
void session_message(Session *s, MessageKind kind, const char *text);

// Handles one line of user input (a move or a command).
void session_handle_line(Session *s, const char *line, int64_t now);
// Drains engine events, checks the clocks, starts the engine when it is its
// turn. Call after input and whenever eventq's descriptor is readable or a
// timer fires (at least every 100 ms while a clock runs).
void session_poll(Session *s, int64_t now);
// Descriptor that becomes readable when the engine has something to say.
int session_event_fd(const Session *s);
bool session_quit_requested(const Session *s);
// Whether a game of a file has changes not saved: "game N of FILE" in buf
// (the one shown first). quit warns about them once; a script's end of input
// cannot be asked again, so the line mode says so there.
bool session_unsaved_changes(Session *s, int64_t now, char *buf, size_t bufsz);
// A signal ends the session (the terminal closed, a kill) with nobody to ask:
// the games session_unsaved_changes names are added, each a copy with a
// PatzerRecoveredFrom tag, to recovered.pgn beside the autosave (path), the
// user's files left as they are; the next start says so. Returns how many
// (0: none), or -1 with the reason in err when one could not be written.
int session_recover_unsaved(Session *s, int64_t now, char *path, size_t pathsz, char *err,
                            size_t errsz);
// Whether the engine is thinking about a move of the game being played.
bool session_engine_busy(const Session *s);
// Whether the session is working on something it was asked to finish: the
// engine's reply to the human's move, a hint, a limited analysis, a review. A script
// waits for this before its next line (a "stop" line may interrupt).
bool session_busy(const Session *s);
// A front end that covers the board (a pager over the whole screen) holds
// the game while it does: a timed game of yours waits, its clocks stopped
// and no search started, until released (hold false), when the clock that
// ran runs again. True when a game is held now (the front end says
// "paused"); false when there is none to hold, and on release.
bool session_hold(Session *s, bool hold, int64_t now);
// Whether a question waits for the next line (resume the unfinished game?).
bool session_asking(const Session *s);
// Milliseconds until the session wants session_poll again (pacing), -1: none.
int session_wakeup_ms(const Session *s, int64_t now);
SessionMode session_mode(const Session *s);
// "play", "browse", "edit", "analyse", "review", "train".
const char *session_mode_name(SessionMode m);

// The game shown (the live game, a file's game, the analysis board). The
// live game itself is session_live_game.
const Game *session_game(const Session *s);
const Game *session_live_game(const Session *s);
// The board to show: the game's, or the position being edited.
const Board *session_display_board(const Session *s);
bool session_editing(const Session *s);
const SessionThinking *session_thinking(const Session *s);
bool session_flipped(const Session *s);
Move session_hint(const Session *s);
// Play by pointing (mode play; elsewhere a message says so): sq selects one
// of your pieces, or plays the selected piece to it (queued as a premove
// while the engine thinks); another square cancels the selection.
void session_point(Session *s, Square sq, int64_t now);
// Whether pointing plays moves in the current mode (play, train).
bool session_pointing_active(const Session *s);
// Clears the selection, the premove and a pending promotion choice (Esc).
// True when there was something to clear.
bool session_point_cancel(Session *s);
// What pointing shows: the selected square (SQ_NONE: none), the squares its
// piece may go to, quiet and captures apart, and the premove (MOVE_NONE).
void session_pointing(const Session *s, Square *selected, Bitboard *quiet, Bitboard *captures,
                      Move *premove);
// The game list (`load` of a file of several games, `games [TEXT]`): the
// session says its heading and a hint (MSG_TEXT, a first line that is the
// title and one more line); the front end shows the rows, every game that
// matches, each laid out for the width it has (the list is in memory:
// scrolling reads nothing). Whether text is that message:
bool session_is_game_list(const Session *s, const char *text);
// Rows of the last list (0 when there is none).
int session_game_list_count(const Session *s);
// Row i (0-based) of it in width columns into buf ("" when out of range).
void session_game_list_row(const Session *s, int i, int width, char *buf, size_t bufsz);
// The game number in the file of row i, 0 when there is no row i: a click
// on a row opens that game (`game N`).
int session_game_list_number(const Session *s, int i);
// The square a pawn moved to by pointing waits on for its promotion piece
// (answered by q, r, b, n or an empty line; Esc cancels), SQ_NONE if none.
Square session_promotion_square(const Session *s);
// Whether the engine's thinking is to be shown: always but in a game
// against the engine, where `eval on` shows it.
bool session_eval_shown(const Session *s);
// How many moves of the game shown are on the board: all of them, but while
// you look back through your own game (prev, first, goto in play).
int session_shown_ply(const Session *s);
// The move list shown: the game's moves, or the line of a loaded game being
// replayed; current is how many of them are on the board. Valid until the
// next change.
void session_move_list(Session *s, const char *const **sans, int *count, int *current);
// The number and side of the first move of that list.
void session_move_list_start(const Session *s, int *fullmove, Color *side);
// Per ply of that list, how many alternatives the move has (NULL: none).
const unsigned char *session_move_variations(Session *s);
// The move tree shown, in PGN order: the game's moves with the variations
// of a browsed game opened and closed around theirs, and the result at the
// end. Each move has its number, NAGs (a review's ?! ? ?? among them),
// whether it has a comment, and whether it is the current move.
typedef enum { TREE_MOVE, TREE_OPEN, TREE_CLOSE, TREE_RESULT } SessionTreeKind;
enum { SESSION_TREE_NAGS = 4 };
typedef struct SessionTreeItem {
    SessionTreeKind kind;
    const char *san; // TREE_RESULT: "1-0", "0-1", "1/2-1/2"
    int fullmove;
    Color side;
    unsigned char nags[SESSION_TREE_NAGS];
    int nag_count;
    bool comment, current;
} SessionTreeItem;
// The tree's items in *items (valid until the next change); the count, 0
// when there is nothing (or no memory) to show.
int session_move_tree(Session *s, const SessionTreeItem **items);
// Goes to the move of item `index` of that tree (a click on the move list):
// any move of a browsed game. False with a message elsewhere.
bool session_goto_tree_item(Session *s, int index, int64_t now);
// The comments around the position shown: before the current move (the
// game's opening comment at its start) and after it; NULL for none. Valid
// until the next change.
void session_comments(Session *s, const char **before, const char **after);

// "C50 Italian Game": the name of the latest named position of the game, or NULL.
const char *session_opening(const Session *s);
// The evaluation graph of the last review (White's view per ply), or none.
void session_graph(const Session *s, const int **scores, int *count);
// Whether a review runs, and how far it is.
bool session_review_progress(const Session *s, int *done, int *total);
// Completion words: command names and the legal moves in SAN.
int session_completion_words(Session *s, const char **words, int max);
// The state's own status line, from the state alone: "White to move",
// "Black to move - check", "1-0 White mates", with the question the state
// asks ("White to move - your pawn on h2: where to?", a promotion, a premove
// waiting, resume or replace) and the mode.
void session_status(const Session *s, char *buf, size_t bufsz);
// What a screen's status line shows, the one place it is made: the last
// status message (its first line, then "  [mode]") while nothing it is about
// has changed since it was said (the position, the selection, the mode, a
// new line typed), else session_status. *cut: the message has more than
// that (the message log has it whole).
typedef enum { STATUS_STATE, STATUS_INFO, STATUS_ERROR } SessionStatusKind;
SessionStatusKind session_status_line(const Session *s, char *buf, size_t bufsz, bool *cut);
// Names and details for the player panes.
void session_player_label(const Session *s, Color c, char *name, size_t namesz, char *detail,
                          size_t detailsz);

// Whether text is the last opening explorer table (MSG_TEXT), and the move
// of one of its lines (its SAN in san): a click on a row plays that move.
bool session_is_explorer(const Session *s, const char *text);
bool session_explorer_move(const Session *s, const char *line, char *san, size_t sansz);

#endif
