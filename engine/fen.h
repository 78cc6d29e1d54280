// SPDX-License-Identifier: GPL-3.0-or-later
// Forsyth-Edwards Notation: strict parsing into a Board and printing. FEN sits
// above the board and move-generation layers (it needs the legal moves to keep
// only a usable en-passant square); neither of them knows about text.
#ifndef ENGINE_FEN_H
#define ENGINE_FEN_H

#include "engine/board.h"

#define BOARD_START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
// Longest FEN board_to_fen can write, with its terminating NUL.
enum { FEN_MAX = 96 };

// Sets up the standard starting position.
void board_set_start(Board *b);

// Parses a FEN with strict validation (the grammar and what is accepted
// leniently are in man/patzer.6, FEN). Four fields (EPD style) are accepted,
// the counters then default to "0 1". On error returns false, leaves b
// unchanged and writes a message naming the field and the reason into err.
bool board_set_fen(Board *b, const char *fen, char *err, size_t errsz);

// Writes the position as FEN into buf (at least FEN_MAX bytes).
void board_to_fen(const Board *b, char *buf, size_t bufsz);

#endif
