// SPDX-License-Identifier: GPL-3.0-or-later
// Replaying a loaded game: the PGN tree, the line being shown (the main line
// or a path through variations) and the position in it, plus the list of the
// games of a file. No engine, no terminal: the session shows what this holds.
#ifndef SRC_REPLAY_H
#define SRC_REPLAY_H

#include "src/game/game.h"
#include "src/pgn/pgn.h"

typedef struct Replay Replay;

// Loads game `number` (1-based) of a PGN file. NULL with the reason (and the
// file position of a broken game) in err.
Replay *replay_open(const char *path, int number, char *err, size_t errsz);
// Shows a game held in memory (taking ownership of g), e.g. a reviewed game,
// or a game of a file kept with its changes (its source names the file and
// the number then, else name and 1).
Replay *replay_adopt(PgnGame *g, const char *name);
void replay_free(Replay *r);
// Frees the replay but not its game, which it returns.
PgnGame *replay_release(Replay *r);
PgnGame *replay_game(Replay *r);
const char *replay_path(const Replay *r);
int replay_number(const Replay *r);

// The line shown: its nodes from the start position to its end.
int replay_line_length(const Replay *r);
const PgnNode *replay_line_node(const Replay *r, int ply);
// Plies of the line played on the board (0 .. line length).
int replay_cursor(const Replay *r);
bool replay_set_cursor(Replay *r, int ply);

// The move number and the side of the line's move at ply (0-based), counted
// from the game's start position (the board's game may start later, after
// a null move).
void replay_move_number(const Replay *r, int ply, int *fullmove, Color *side);

// Alternatives to the next move of the line (at the cursor).
int replay_variation_count(const Replay *r);
// Follows alternative n (1-based) instead of the next move; the cursor moves
// past its first move. False when there is no such alternative.
bool replay_enter_variation(Replay *r, int n);
// Back to the line the current variation branches from, at the branch
// point. False on the main line.
bool replay_leave_variation(Replay *r);

// Null moves: the line may pass the turn ("--"), which a Game cannot hold.
// The game on the board therefore starts after the last null move before
// the cursor: the segment start (0 when there is none).
int replay_segment_start(const Replay *r);
// The position after the line's first `ply` moves, null moves passed (side
// to move flipped, no en passant). False when ply is out of range.
bool replay_position(const Replay *r, int ply, Board *out);

// Makes the line follow the given moves, played from the segment start
// (adding to the tree whatever is new: a continuation, or a variation where
// the game had another move), and puts the cursor after them. False when out
// of memory or a move is illegal.
bool replay_follow(Replay *r, const Move *moves, int n);

// Makes the line go through node n of the game's tree (its variations
// followed from the root to it) and puts the cursor after n. False when n is
// not in the tree (nothing changes then).
bool replay_goto_node(Replay *r, const PgnNode *n);

// The game settings a loaded game is shown with: its start position (the
// position at the segment start), both sides human, no clock.
void replay_settings(const Replay *r, const GameSettings *base, GameSettings *out);

// One game of a file, for a list to pick from.
typedef struct GameListEntry {
    int number;
    char white[48], black[48], result[8], event[64], date[16], eco[8];
} GameListEntry;

// Lists the games of a file whose White, Black or Event contain filter
// (case-insensitive; NULL or "" for all): up to max into out, the number of
// matches in *matches and of games in the file in *total. -1 with err when
// the file cannot be read; broken games are listed with result "?".
int replay_list(const char *path, const char *filter, GameListEntry *out, int max, int *matches,
                int *total, char *err, size_t errsz);

#endif
