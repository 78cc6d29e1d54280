// SPDX-License-Identifier: GPL-3.0-or-later
// The game controller: a state machine with no I/O that owns the game record,
// the clocks, who plays which side, and the result. The record is a game
// document (src/pgn/model.h): its main line is the moves played (and the
// redo tail after them), with their comments, NAGs and clocks, and its tags
// say who played, how and how it ended; the controller keeps beside it what
// only it needs per ply (the clocks' periods, the engine's scores). A driver (the terminal
// game, the line mode, tests) feeds it human input and engine replies and asks
// it when the engine should think and with which limits; it never talks to
// the engine itself. Time comes in as "now" in milliseconds.
#ifndef SRC_GAME_H
#define SRC_GAME_H

#include "engine/board.h"
#include "engine/fen.h"
#include "engine/notation.h"
#include "engine/search.h"
#include "src/game/clock.h"
#include "src/game/outcome.h"
#include "src/pgn/model.h"

typedef enum { PLAYER_HUMAN, PLAYER_ENGINE } PlayerKind;


enum { GAME_NAME_MAX = 48, GAME_MAX_PLIES = 2048, LEVEL_MIN = 1, LEVEL_MAX = 20 };

typedef struct GameSettings {
    char start_fen[FEN_MAX];      // empty: the standard start position
    PlayerKind players[COLOR_NB];
    int level;                    // engine level 1..20 (20 = full strength)
    TimeControl tc;
    char names[COLOR_NB][GAME_NAME_MAX]; // empty: "You" / "patzer (level N)"
    bool gui_referees_time; // a GUI keeps the time (xboard): a fallen flag ends nothing
    // Chess960: without a start_fen, start position chess960_number (0..959;
    // -1: one drawn when the game is made, stored back here). A start_fen
    // of Chess960 (file letters, rooks and king off their squares) sets it.
    bool chess960;
    int chess960_number;
} GameSettings;

// One ply of the record as the controller keeps it, with the clocks as they
// stood after it. Its comment and NAGs are in its node (game_node).
typedef struct GameMove {
    Move move;
    char san[MOVE_TEXT_MAX];
    int64_t clock_ms[COLOR_NB];
    int period[COLOR_NB];
    int moves_in_period[COLOR_NB];
    int score;      // the engine's score for its own moves (mover's view), VALUE_NONE if none
    int depth;
} GameMove;

typedef struct Game Game;

// Defaults: human White, engine Black at level 10, 5+3.
void game_settings_default(GameSettings *s);

// A new game from the settings. NULL when out of memory. On a bad start FEN,
// returns NULL and writes the FEN error into err.
Game *game_new(const GameSettings *s, char *err, size_t errsz);
void game_free(Game *g);
// A copy of the whole game (record, redo tail, clocks), owned by the caller.
// NULL when out of memory.
Game *game_clone(const Game *g);
// Starts over from new settings (same error rules); on error the game is unchanged.
bool game_reset(Game *g, const GameSettings *s, char *err, size_t errsz);
const GameSettings *game_settings(const Game *g);
// "Chess960 #518" for a Chess960 game ("Chess960" when its start is not one
// of the 960), NULL for standard chess.
const char *game_variant(const Game *g);
// Each game made by game_new carries a tag of this name with a value of its
// own, kept in the autosave and the archive: the archive holds a game once,
// however often it is archived (by its session, or by another that found it
// in the autosave), each time in the place of the copy there.
#define GAME_TAG_ID "PatzerGame"

// ----------------------------------------------------------------- state
const Board *game_board(const Game *g);      // current position
int game_ply_count(const Game *g);           // plies played (not counting redo)
// The keys of the game_ply_count positions before the current one, oldest
// first: for repetitions (engine_set_position, openings_lookup).
const Key *game_keys(const Game *g);
const GameMove *game_move(const Game *g, int ply); // 0-based
// The ply's node in the game's document: its comment, NAGs, clock.
const PgnNode *game_node(const Game *g, int ply);
// The game as a document to save: a copy of the record's moves played so far
// (not the redo tail) with their comments and NAGs, and the tags that say
// who played (names, patzer's PatzerWhite/PatzerBlack/PatzerLevel/PatzerTime),
// the time control, the result and how the game ended (Termination and
// PatzerEnd: "resignation white"). The caller owns it; NULL when out of memory.
PgnGame *game_document(const Game *g);
// Replaces the record with the main line of doc, taken over on success (on
// failure the game is unchanged and the caller keeps doc): its start
// position, moves, comments, NAGs and clocks; the players, level and time
// control stay as they are. False with the reason (an illegal or null move
// and where) in err.
bool game_take_document(Game *g, PgnGame *doc, int64_t now, char *err, size_t errsz);
// The engine's evaluation of a played move (restoring a saved game).
void game_set_eval(Game *g, int ply, int score, int depth);
// The words of patzer's PatzerEnd tag for an ending, and back (END_NONE when
// the word is none of them).
const char *game_end_word(GameEnd end);
GameEnd game_end_from_word(const char *word);
int game_start_fullmove(const Game *g);      // move number of the first ply
const Board *game_start_board(const Game *g); // the position before the first ply
Color game_start_side(const Game *g);
Color game_turn(const Game *g);
PlayerKind game_player(const Game *g, Color c);
GameResult game_result(const Game *g);
GameEnd game_end(const Game *g);
// Who mated, resigned, claimed or ran out of time (for the other endings,
// the side to move when the game ended); meaningless while the game goes on.
Color game_end_side(const Game *g);
bool game_is_over(const Game *g);
// "White mates", "Draw by stalemate", "Black wins on time" ...
const char *game_end_text(const Game *g);
// "1-0", "0-1", "1/2-1/2", "*"
const char *game_result_text(const Game *g);
const Clock *game_clock(const Game *g);
int game_redo_available(const Game *g);       // plies that redo can replay

// Annotates the move at ply (0-based, a played move) in the document: text
// replaces its comment (NULL or blank removes it; blanks are folded as a PGN
// reader does), nag (1..255) sets a NAG (a move assessment, 1..9, replaces
// the one it has), 0 removes them all. False for a ply not played, a bad NAG
// or when out of memory (nothing changes then).
bool game_set_comment(Game *g, int ply, const char *text);
bool game_set_nag(Game *g, int ply, int nag);

// ----------------------------------------------------------------- input
typedef enum {
    GAME_OK = 0,
    GAME_ERR_PARSE,       // not a move
    GAME_ERR_ILLEGAL,
    GAME_ERR_AMBIGUOUS,
    GAME_ERR_NOT_YOUR_TURN, // the engine is to move
    GAME_ERR_GAME_OVER,
    GAME_ERR_NOTHING,     // nothing to undo / redo / claim
} GameStatus;

// A human move in SAN or coordinates. On error nothing changes and err
// says why (for an ambiguous move, the candidates).
GameStatus game_play_text(Game *g, const char *text, int64_t now, char *err, size_t errsz);
// Plays a move for whoever is to move (engine replies, scripted moves).
// score/depth are recorded for engine moves (VALUE_NONE/0 otherwise).
GameStatus game_play_move(Game *g, Move m, int score, int depth, int64_t now);

// Takes back the last full move of the human (their move and the engine's
// reply), or one ply when both sides are human or both engine. Clocks go back
// to their values at that point. Undone plies can be redone until a new move.
GameStatus game_undo(Game *g, int64_t now);
GameStatus game_redo(Game *g, int64_t now);

GameStatus game_resign(Game *g, Color who, int64_t now);
// Claims a draw for the side to move by threefold repetition or the fifty-move
// rule (either one that holds now, or holds after `move` when it is not
// MOVE_NONE). GAME_ERR_NOTHING with a reason when no claim is valid.
GameStatus game_claim_draw(Game *g, Move move, int64_t now, char *err, size_t errsz);
// The draw the side to move may claim now (END_THREEFOLD_REPETITION,
// END_FIFTY_MOVES), END_NONE when none or the game is over: for the notice.
GameEnd game_claimable(const Game *g);
// A draw offer from the human: accepted when the engine's last score, from
// the engine's side, is below -contempt_cp. Returns true when accepted.
bool game_offer_draw(Game *g, int engine_score, int contempt_cp, int64_t now);
// Ends the game by agreement (both human, or a driver's own decision).
void game_agree_draw(Game *g, int64_t now);
// Ends the game as a saved record says it ended, for the endings the board
// does not show (resignation, agreement, a claimed draw, a fallen flag), so
// that a finished game read back is finished again: `side` resigned, claimed
// or ran out of time; the result follows from the ending. False, and nothing
// changes, when the game is over already or the ending is one the position
// decides by itself (mate, stalemate...: replaying the moves restores it).
bool game_restore_end(Game *g, GameEnd end, Color side, int64_t now);

// Checks the clocks: a fallen flag ends the game. Returns true if it did now.
bool game_tick(Game *g, int64_t now);
// Who plays which side; the clock keeps running.
void game_set_players(Game *g, PlayerKind white, PlayerKind black);
void game_set_level(Game *g, int level);
// The name of a side in the PGN (an external engine names the side it plays).
void game_set_name(Game *g, Color c, const char *name);
// Changes the time control for the rest of the game (fresh clocks).
void game_set_time_control(Game *g, const TimeControl *tc, int64_t now);
// Sets both clocks' remaining times (restoring a saved game); the running
// clock, if any, restarts from now.
void game_set_clocks(Game *g, const int64_t remaining[COLOR_NB], int64_t now);
// Starts the clocks (at the first move, or when the driver starts the game).
void game_start_clock(Game *g, int64_t now);
// Stops and restarts the clock around pauses (e.g. a dialog).
void game_pause(Game *g, int64_t now);

// ----------------------------------------------------------------- engine
// True when the side to move is played by the engine and the game goes on.
bool game_engine_to_move(const Game *g);
// Search limits for the side to move from its clock (remaining, increment,
// moves to go) — or a fixed move time when the game is untimed.
void game_search_limits(const Game *g, int64_t now, SearchLimits *limits);
// Whether the engine, to move with `score` (its own view) and the given
// contempt, should claim an available draw instead of playing on.
bool game_engine_should_claim(const Game *g, int score, int contempt_cp);
// A counter that changes whenever the position changes (move, undo, redo,
// new game, setboard), so that a driver can drop a stale engine reply.
unsigned game_generation(const Game *g);

// The current position as FEN, and setting up a new one (the record
// restarts from it; players and clocks are kept).
void game_fen(const Game *g, char *buf, size_t bufsz);
bool game_set_fen(Game *g, const char *fen, int64_t now, char *err, size_t errsz);

#endif
