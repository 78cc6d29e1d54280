// SPDX-License-Identifier: GPL-3.0-or-later
// How far a game follows theory: its first moves that are in the opening
// book or that reach a named opening line (data/openings.txt). A review
// never marks them; it says where the game left theory.
#ifndef SRC_THEORY_H
#define SRC_THEORY_H

#include "engine/book.h"
#include "src/game/openings.h"
#include "src/pgn/model.h"

// The number of the game's first moves that are theory (0 for a game from a
// set-up position). o and book may be NULL (none known).
int theory_plies(const PgnGame *g, const Openings *o, const Book *book);

#endif
