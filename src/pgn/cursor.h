// SPDX-License-Identifier: GPL-3.0-or-later
// A cursor over a game document (src/pgn/model.h): the line shown through the
// game's tree (the main line, or a path through its variations, from the
// start position to the end of that line) and how many of its moves are on
// the board. Browsing a game is a cursor over its document; so is every
// view of a game with variations. The cursor does not own the document,
// which must outlive it; moves added through the cursor go into the
// document.
#ifndef SRC_PGN_CURSOR_H
#define SRC_PGN_CURSOR_H

#include <stdbool.h>

#include "src/pgn/model.h"

// The longest line a cursor follows (as long as any game patzer plays).
enum { PGN_LINE_MAX = 2048 };

typedef struct PgnCursor PgnCursor;

// A cursor at the end of g's main line; NULL when out of memory.
PgnCursor *pgn_cursor_new(PgnGame *g);
void pgn_cursor_free(PgnCursor *c);
PgnGame *pgn_cursor_game(const PgnCursor *c);

// The line shown: its nodes from the start position to its end.
int pgn_cursor_length(const PgnCursor *c);
const PgnNode *pgn_cursor_line_node(const PgnCursor *c, int ply); // NULL out of range
// Moves of the line on the board (0 .. length), and moving along it.
int pgn_cursor_ply(const PgnCursor *c);
bool pgn_cursor_set_ply(PgnCursor *c, int ply);

// The move number and the side of the line's move at ply (0-based), counted
// from the game's start position.
void pgn_cursor_move_number(const PgnCursor *c, int ply, int *fullmove, Color *side);

// Alternatives to the next move of the line (at the cursor).
int pgn_cursor_variation_count(const PgnCursor *c);
// Follows alternative n (1-based) instead of the next move; the cursor moves
// past its first move. False when there is no such alternative.
bool pgn_cursor_enter_variation(PgnCursor *c, int n);
// Back to the line the current variation branches from, at the branch
// point. False on the main line.
bool pgn_cursor_leave_variation(PgnCursor *c);

// Null moves: the line may pass the turn ("--"), which no game on a board can
// hold. The part of the line a board plays starts after the last null move
// before the cursor: the segment start (0 when there is none).
int pgn_cursor_segment_start(const PgnCursor *c);
// The position after the line's first `ply` moves, null moves passed (side
// to move flipped, no en passant). False when ply is out of range.
bool pgn_cursor_position(const PgnCursor *c, int ply, Board *out);

// Makes the line follow the given moves, played from the segment start
// (adding to the document whatever is new: a continuation, or a variation
// where the game had another move), and puts the cursor after them. False
// when out of memory or a move is illegal.
bool pgn_cursor_follow(PgnCursor *c, const Move *moves, int n);

// Makes the line go through node n of the document (found by its parents)
// and puts the cursor after n. False when n is not in the document.
bool pgn_cursor_goto_node(PgnCursor *c, const PgnNode *n);

#endif
