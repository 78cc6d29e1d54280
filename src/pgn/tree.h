// SPDX-License-Identifier: GPL-3.0-or-later
// Inside src/pgn only: how the reader builds a game in the game's own arena.
// Callers outside src/pgn use src/pgn/model.h.
#ifndef SRC_PGN_TREE_H
#define SRC_PGN_TREE_H

#include "src/pgn/model.h"

// A zeroed node (clock_ms -1) in g's arena; NULL when out of memory.
PgnNode *pgn_tree_node(PgnGame *g);
// A copy of s[0..n) in g's arena; NULL when out of memory.
const char *pgn_tree_text(PgnGame *g, const char *s, size_t n);
// "a b" from two comments met in a row (either may be NULL); NULL only when
// out of memory with both present.
const char *pgn_tree_join(PgnGame *g, const char *a, const char *b);
// Appends n to the main line (n->ply must be its length); the first one
// becomes the game's first move. False when out of memory.
bool pgn_tree_push_main(PgnGame *g, PgnNode *n);
// The game's start position, set before its first move.
void pgn_tree_set_start(PgnGame *g, const Board *start);
// The end of reading: the comment of a game without moves (NULL for none),
// the termination marker and the position at the end of the main line.
void pgn_tree_finish(PgnGame *g, const char *lead, const char *result, const Board *tail);

#endif
