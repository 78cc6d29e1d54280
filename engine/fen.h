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
// leniently are in man/patzer.6, FEN). The castling field may be X-FEN or
// Shredder-FEN; b->chess960 is set when it names file letters or rooks and
// kings off the standard squares (callers that know the game is Chess960 set
// it themselves). Four fields (EPD style) are accepted,
// the counters then default to "0 1". On error returns false, leaves b
// unchanged and writes a message naming the field and the reason into err.
bool board_set_fen(Board *b, const char *fen, char *err, size_t errsz);

// Whether text is a placement-only FEN, as websites give it: one field with
// ranks separated by '/' ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").
bool fen_is_placement_only(const char *text);

// Sets up a position from a placement-only FEN, a separate and explicit entry
// point so that board_set_fen stays strict: White to move, castling rights
// for each king and rook still on their home squares (written into castling,
// at least 5 bytes: "KQkq", "Kq", "-"), no en-passant square, counters 0 1.
// On error returns false, leaves b unchanged and says why in err.
bool board_set_placement(Board *b, const char *placement, char *castling, size_t castlingsz,
                         char *err, size_t errsz);

// Writes the position as FEN into buf (at least FEN_MAX bytes). Castling
// rights are X-FEN: KQkq, which is all standard chess needs, and a rook's
// file letter for a Chess960 rook that is not the outermost on its side.
void board_to_fen(const Board *b, char *buf, size_t bufsz);
// The same with the rights as Shredder-FEN: always the rook's file ("HAha").
void board_to_shredder_fen(const Board *b, char *buf, size_t bufsz);

#endif
