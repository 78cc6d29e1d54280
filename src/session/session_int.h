// SPDX-License-Identifier: GPL-3.0-or-later
// Inside the session: the controller core (session.c) owns the current mode
// and the live game; each mode (mode_*.c) owns its own state and is reached
// only through its ModeOps. Modes never call each other or the core: they
// use the shared services below (messages, the engine link) and ask the core
// for a change of mode by returning a Transition.
#ifndef SRC_SESSION_INT_H
#define SRC_SESSION_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "engine/movegen.h"
#include "src/coach/puzzlebook.h"
#include "src/explore/explorer.h"
#include "src/game/gamefile.h"
#include "src/game/openings.h"
#include "src/game/review.h"
#include "src/pgn/cursor.h"
#include "src/pgn/database.h"
#include "src/pgn/gamelist.h"
#include "src/protocol/uci_client.h"
#include "src/session/command.h"
#include "src/session/session.h"
#include "src/session/think.h"
#include "src/util/eventq.h"
#include "src/util/msglog.h"
#include "src/util/netfile.h"

enum { MESSAGE_MAX = 4096, PACE_DEFAULT_MS = 1000, EDITED_MAX = 16 };

// ------------------------------------------------------------ transitions

typedef enum {
    TR_STAY,      // nothing changes mode
    TR_BACK,      // leave this mode for the one it was entered from
    TR_SETBOARD,  // a new live game from fen, shown in play
    TR_SHOW_GAME, // show game (owned by the transition) in browse
} TransitionKind;

typedef struct Transition {
    TransitionKind kind;
    char fen[FEN_MAX];
    PgnGame *game;
} Transition;

// What a mode is entered with (the fields its enter reads).
typedef struct ModeArgs {
    const Game *source;         // analyse, edit: the game shown before
    const SearchLimits *limits; // analyse: NULL for no end
    const char *path;           // browse: the file and the game's number, and the ply
    int number;                 // of its main line to show (-1: the end)
    int ply;
    PgnPlace place; // browse: where game `number` starts, when known
    PgnGame *game;  // browse (taken over), review (copied): a game in memory
} ModeArgs;

typedef struct ModeOps {
    // (Its name is session_mode_name's, from SESSION_MODES.)
    // The mode's private state: the core allocates this many bytes, zeroed,
    // when the session starts; destroy frees what the state owns.
    size_t state_size;
    void (*destroy)(Session *s);
    // False (after saying why) when the mode cannot start; nothing changed then.
    bool (*enter)(Session *s, const ModeArgs *args, int64_t now);
    void (*leave)(Session *s, int64_t now);
    Transition (*handle)(Session *s, const Command *cmd, int64_t now);
    // An engine or review event (ev NULL: time passed).
    Transition (*poll)(Session *s, const Event *ev, int64_t now);
    const Game *(*game)(const Session *s);
    const Board *(*board)(const Session *s);
    void (*status)(const Session *s, char *buf, size_t bufsz);
    // The game as PGN for save and review (NULL when out of memory or none).
    // A game of a file comes with its source (pgn_source), where save
    // writes it back.
    PgnGame *(*to_pgn)(Session *s, int64_t now);
    // save wrote that game: its source is where it is now (NULL: the mode
    // keeps nothing of it).
    void (*saved)(Session *s, const PgnGame *written);
    // How many of the game's moves are on the board (NULL: all of them):
    // play looks back through the live game while it goes on.
    int (*shown_ply)(const Session *s);

    // What the core asks of every mode instead of testing which one it is.
    // A refusal in this mode ends with this ("(back returns to your game)").
    const char *refusal_hint;
    bool points;        // pointing at squares plays moves (play, train)
    bool hides_moves;   // its board is no game's position: no moves, no tree (edit)
    bool hides_opening; // no opening named (a puzzle's would give it away)
    // Optional queries; NULL gives the answer in brackets.
    bool (*busy)(const Session *s);                  // works on its own [false]
    int (*wakeup_ms)(const Session *s, int64_t now); // when to poll again [-1: on events]
    Move (*hint)(const Session *s);                  // a move to mark [MOVE_NONE]
    bool (*eval_shown)(const Session *s);            // the engine's lines shown [true]
    // The move list when it is not the shown game's moves (browse: the line
    // through its tree, each move's variation count) and its first move.
    void (*move_list)(Session *s, const char *const **sans, int *count, int *current,
                      const unsigned char **variations);
    void (*move_list_start)(const Session *s, int *fullmove, Color *side);
    // What ends the status line after the state and any question ("   C00
    // French Defense  [play]"); NULL: nothing.
    void (*status_tag)(const Session *s, char *buf, size_t bufsz);
    // How far work of the mode's own has come (the review), for a progress bar.
    bool (*progress)(const Session *s, int *done, int *total);
    // The game whose players the panel names [the shown game]: the analysis
    // of your game names its players, not its copy's (both human).
    const Game *(*players)(const Session *s);
    // Names side c itself (train: you and the opponent, where the game has
    // no names), false to leave it to the game.
    bool (*player_name)(const Session *s, Color c, char *buf, size_t bufsz);
    // The shown game is the live one (play): annotations go to it, and moves
    // pointed at are played in it.
    bool shows_live;
    // A document browsed through its tree (browse): the cursor, and how the
    // board follows after the cursor moved or the document was annotated.
    // NULL: the mode shows a game's main line.
    PgnCursor *(*cursor)(const Session *s);
    void (*refresh)(Session *s);
    // Shows the position after the shown game's first ply moves (a click on
    // a move in the list); NULL: such clicks do nothing in this mode.
    bool (*view_ply)(Session *s, int ply);
    // Plays a move pointed at (its text, from/to or SAN; "" only says where
    // moves go while looking back), in the modes that point.
    void (*play_move)(Session *s, const char *text, int64_t now);
    // Looking back at an earlier position of the shown game (play).
    bool (*looking_back)(const Session *s);
} ModeOps;

extern const ModeOps mode_play_ops, mode_browse_ops, mode_edit_ops, mode_analyse_ops,
    mode_review_ops, mode_train_ops;

// ------------------------------------------------------------ mode states
// Each mode's state is its own file's (the core allocates ModeOps.state_size
// bytes for it, zeroed, and frees it): nothing outside mode_*.c sees inside.

// Pointing at squares (pointing.c), a service of the modes that point
// (play, train): what is selected, queued or waiting for a piece.
typedef struct PointingState {
    Square selected;                  // the piece picked by pointing (SQ_NONE: none)
    Move premove;                     // from/to queued while the engine thinks (MOVE_NONE: none)
    char premove_text[MOVE_TEXT_MAX]; // how the premove is named: "Nf3", "g1f3"
    Move promotion;                   // from/to waiting for the promotion piece (MOVE_NONE: none)
} PointingState;

// The opening explorer's state, private to explore.c.
typedef struct ExploreState ExploreState;

// Which version of a file is on disk: a rename or a write changes it.
typedef struct FileStamp {
    bool known, exists;
    unsigned long long dev, ino, size;
    long long mtime_ns;
} FileStamp;

struct Session {
    // Services every mode may use.
    SessionHooks hooks;
    SessionOptions opts;
    Openings *openings;
    Think think;
    int analysis_lines;
    int pace_ms;
    bool flipped;
    int graph[GAME_MAX_PLIES]; // evaluation after each ply of the last review
    int graph_count;
    bool graph_of_live;   // the graph is of the live game (else of a file's game)
    char list_path[4096]; // the file whose games `games` and `game N` show
    char list_text[8192]; // what was said of the last game list (its heading)
    GameList *list;       // the games of list_path (owned), read once per change
    Game *live;           // the game being played: mode play shows it

    // The core's own.
    SessionMode mode, back_mode;
    bool quit;
    int browse_number;  // the file's game browse shows (0: a game in memory)
    int browse_ply;     // the ply it showed when left for an analysis or the editor
    bool asking_resume; // the next line answers "resume the unfinished game?"
    bool quit_warned;   // quit was refused once for changes not saved
    // Games of files changed in browse and left without saving: kept until
    // saved or the session ends, and shown again when reopened.
    PgnGame *edited[EDITED_MAX];
    int edited_count;
    PgnGame *replace_pending; // the game `save FILE replace` waits to write (its question)
    char replace_path[PATH_MAX_LEN];
    Game *pending;       // the unfinished game that question is about
    bool live_dirty;     // the live game changed since the start (autosave it)
    bool live_resumed;   // the live game was resumed: its clock runs once play shows it
    bool live_archived;  // the live game is in the archive already
    PgnSource live_spot; // where in the archive (its review replaces it there)
    // The writes that keep the games (session_base.c): each one's failure as
    // last said (empty while it works), said once per cause and once more
    // when it works again; the failures said, counted for the line mode.
    char autosave_failure[512];
    char archive_failure[512];
    unsigned write_failures;
    char last_failure[PATH_MAX_LEN + 1024];
    // Games that left the session (replaced, abandoned) while the archive
    // could not be written: tried again at every later change and at the end.
    PgnGame *unarchived[8];
    int unarchived_count;
    bool autosave_unarchived; // the autosave file holds one of them (from the last session)
    // The autosave as this session last read or wrote it: a change since is
    // another patzer's (two at once), whose game must not be overwritten.
    FileStamp autosave_stamp;
    // Settings typed after the live game ended: they are the next game's
    // (the finished game keeps those it was played with).
    GameSettings next_settings;
    bool next_settings_set;
    MsgLog messages; // the last status messages, for `messages`
    // The status line shows the last message only while the state it was
    // said in lasts (session_status_line): a message said during an event is
    // pending until the event is done, then stamped with the state it left.
    bool said_pending;
    uint64_t said_stamp;
    unsigned long lines; // lines handled: a new line retires the last message
    Engine *coach;       // searches for `why` (made when first needed)
    NetFile coach_net;   // its own copy of the built-in engine's net
    Move why_move;       // the move `why` shows, while the position is why_key
    Key why_key;
    // The last lines of the last analysis that ended, shown again whenever
    // its position is on the board: what the user asked for outlives the
    // analysis mode (session_thinking).
    SessionThinking analysis_final;
    Key analysis_final_key;
    PointingState pointing;

    // Each mode's own state, private to its file (ModeOps.state_size).
    void *mode_state[SESSION_MODE_COUNT];
    ExploreState *explore;

    // Scratch for queries.
    SessionTreeItem *tree;      // the move tree (annotate.c), tree_cap items
    const PgnNode **tree_nodes; // for a browsed game, the node of each item
    int tree_cap;
    char *comment_text; // a comment joined with a line's closing comment
    const char *sans[GAME_MAX_PLIES];
    MoveList completion_moves;
    char completion_san[MAX_MOVES][MOVE_TEXT_MAX];
};

// ------------------------------------------------------------ services

__attribute__((format(printf, 3, 4))) void session_say(Session *s, MessageKind kind,
                                                       const char *fmt, ...);
// session_say without formatting or a length limit (help, long lists).
void session_say_text(Session *s, MessageKind kind, const char *text);
void session_changed(Session *s);
// An event (a line, an engine event, a click) is done: a message said during
// it is stamped with the state it left, and lasts as long as that state.
void session_settle(Session *s);
// A digest of everything the status line is about: mode, position shown,
// game generation and end, selection, promotion, premove, questions, lines.
uint64_t session_state_stamp(const Session *s);
// Appends g (a live game being finished or replaced; Termination
// "abandoned" when unfinished) to the archive. When the archive cannot be
// written, the failure is said and, with keep (g is going away), a copy is
// kept to be tried again at every later change. True when g is in the archive
// (or there is no archive).
bool session_archive_live(Session *s, const Game *g, bool keep, int64_t now);
// `why`: explains the last move of the game shown.
void why_command(Session *s);

// Writes g to the autosave (in_archive: see gamefile_autosave), saying a
// failure once per cause and the recovery. False when it failed.
bool session_autosave_game(Session *s, const Game *g, bool in_archive, int64_t now);
// Remembers the autosave as it is now (at the start, after reading it).
void session_stamp_autosave(Session *s);
// The live game changed: autosave it; when it ended, archive it (first, so
// that the autosave knows whether it is in the archive); games waiting for the
// archive are tried again.
void session_live_changed(Session *s, int64_t now);
// Says that `goto number` is outside the line (`what`: "your game", "the
// line"), which starts at move first with side and has plies plies: the range.
void session_say_goto_range(Session *s, const char *what, int number, int first, Color side,
                            int plies);
// "12... Nf6": the last move of g, or "" when none.
void session_last_move_text(const Game *g, int ply, char *buf, size_t bufsz);
// Side to move / check / result of g, for the status lines of the modes.
void session_game_status(const Game *g, char *buf, size_t bufsz);
// A FEN as typed (setboard, --fen, the editor): a full FEN is copied for the
// strict parser; a placement-only one, as copied from websites, is completed
// (White to move, castling inferred from the pieces) and note says so (else
// empty). False with err when that placement is bad.
bool session_complete_fen(const char *text, char *fen, size_t fensz, char *note, size_t notesz,
                          char *err, size_t errsz);
// Says why a typed move was refused; a lone word that is no move gets the
// nearest command ("'hlep' is not a move or command; did you mean help?").
void session_move_error(Session *s, const char *text, GameStatus st, const char *err);
// Builds a game from a PGN game's main line, both sides human, no clock.
Game *session_game_from_line(const Session *s, const GameSettings *settings, const Move *moves,
                             int n, int cursor, char *err, size_t errsz);

// Pointing at squares in modes play and train (pointing.c): a typed square,
// a click or the cursor selects a piece, a second square plays it (through
// the mode's play_move) or queues
// it as a premove while the engine thinks. The selection lives in the
// session's PointingState whichever of the two modes points.
// How a move pointed at is played (the current mode's play_move; the game
// pointed at is session_game's).
void pointing_play(Session *s, const char *text, int64_t now);
void pointing_reset(Session *s);
void pointing_square(Session *s, Square sq, int64_t now);
// A lone square typed ("e2") that pointing takes: true when handled.
bool pointing_text(Session *s, const char *text, int64_t now);
// A move typed while the engine thinks, as from/to ("e2e4") or in SAN
// ("Nf3", read as if it were the user's turn): queued. False when the text
// is no move at all (the caller reports it).
bool pointing_queue_text(Session *s, const char *text);
// The answer to "promote to?": q, r, b, n, or empty for a queen. True when
// a promotion was waiting (it is played or the question repeated).
bool pointing_promotion(Session *s, const char *text, int64_t now);
// The engine moved: the premove is played if legal, else dropped with a note.
void pointing_after_engine(Session *s, int64_t now);
// Where the selected piece may go (legal moves, only on the user's turn).
void pointing_targets(const Session *s, Bitboard *quiet, Bitboard *captures);
// The question pointing asks now, from its state: which square for the
// selected piece, which piece for a promotion. False when it asks none.
bool pointing_prompt(const Session *s, char *buf, size_t bufsz);
// "knight": a piece type's name for messages.
const char *pointing_piece_name(PieceType t);

// "12 moves" (full moves, the plural right), and the one wording of the
// question about an unfinished game g (status.c).
const char *session_moves_text(const Game *g, char *buf, size_t bufsz);
void session_resume_question(const Game *g, char *buf, size_t bufsz);
// The mode the session is in, and any mode's operations (modes.c).
const ModeOps *session_ops(const Session *s);
const ModeOps *session_mode_ops(SessionMode m);
// The cursor through the document the mode browses (ModeOps.cursor), or NULL.
PgnCursor *session_cursor(const Session *s);
// save (save.c): `save [FILE [replace]]`; the answer to its question; quit,
// which warns once about games of files with changes not saved.
void save_command(Session *s, const char *text, int64_t now);
void save_answer_replace(Session *s, const char *line);
void save_quit(Session *s, int64_t now);
// Says at start that games were recovered (session_recover_unsaved), where,
// and how to open them; nothing when there are none.
void save_say_recovered(Session *s);
// A game of a file that browse leaves with changes not saved: kept (taken
// over); and taken back when game `number` of path is opened again (NULL:
// none kept).
void session_keep_edited(Session *s, PgnGame *g);
PgnGame *session_take_edited(Session *s, const char *path, int number);

// Annotations (annotate.c): comment and nag on the current move of the
// game shown; a move's typed NAG (cmd->nag) set once the move is played.
void annotate_command(Session *s, const Command *cmd, int64_t now);
// Where the current move is before a typed move is handled, and after it:
// when the move was played, its NAG is set.
typedef struct AnnotateMark {
    int plies;           // the live game's plies (play)
    const PgnNode *node; // the current node (browse)
} AnnotateMark;
void annotate_mark(const Session *s, AnnotateMark *m);
void annotate_after_move(Session *s, const AnnotateMark *before, int nag, int64_t now);
void annotate_free(Session *s);

// The opening explorer (explore.c): `explore`, `index FILE...`, the events
// of the indexing thread, whether it runs, and the end of the session.
// Its state, made when the session starts (false: out of memory); explore_free
// ends the indexing and frees it.
bool explore_init(Session *s);
void explore_command(Session *s);
void index_command(Session *s, const char *text);
void explore_event(Session *s, const Event *ev);
bool explore_busy(const Session *s);
// stop while indexing cancels it (true); false when no indexing runs.
bool explore_stop(Session *s);
void explore_free(Session *s);

#endif
