// SPDX-License-Identifier: GPL-3.0-or-later
// Portable Game Notation, for callers that use all of it: the game model
// (src/pgn/model.h), the reader (src/pgn/read.h) and the writer
// (src/pgn/write.h).
#ifndef SRC_PGN_H
#define SRC_PGN_H

#include "src/pgn/model.h"
#include "src/pgn/read.h"
#include "src/pgn/write.h"

#endif
