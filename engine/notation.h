// SPDX-License-Identifier: GPL-3.0-or-later
// Moves as text: coordinate notation (e2e4, e7e8q) and Standard Algebraic
// Notation. Input is matched against the legal moves of the position, so an
// accepted move is always legal; SAN input is lenient with what people type.
#ifndef ENGINE_NOTATION_H
#define ENGINE_NOTATION_H

#include "engine/board.h"

// Longest SAN or coordinate move written, with its NUL ("exd8=Q+" and
// "Qa1xb2+" fit with room to spare).
enum { MOVE_TEXT_MAX = 12 };

typedef enum {
    NOTATION_OK = 0,
    NOTATION_UNPARSEABLE, // not a move in any notation we know
    NOTATION_ILLEGAL,     // a well-formed move that no legal move matches
    NOTATION_AMBIGUOUS,   // matches more than one legal move
} NotationStatus;

// Coordinate notation: "e2e4", "e7e8q", "e1g1" for castling, "0000" for
// MOVE_NULL and MOVE_NONE. buf holds at least MOVE_TEXT_MAX bytes.
void notation_to_uci(Move m, char *buf);
// The same as the protocols write a move of b's game: in Chess960 castling is
// the king taking its own rook ("e1h1", "b1a1"), the UCI_Chess960 convention.
void notation_to_uci_in(const Board *b, Move m, char *buf);

// SAN of a legal move in b ("Nbd7", "exd6", "e8=Q+", "O-O-O#"). b is used as
// scratch to test for check and mate and is restored before returning.
void notation_to_san(const Board *b, Move m, char *buf);

// A line of moves from b as numbered SAN ("12. Nf3 d5 13. c4", "12... d5
// 13. c4" when Black starts) into out, stopping at the first move that is not
// legal or that does not fit. Returns how many moves were written.
int notation_line(const Board *b, const Move *moves, int n, char *out, size_t outsz);

// Parses SAN (lenient: missing or extra +/#, !/? marks, 0-0, e8Q/e8=Q/e8q,
// "exd6 e.p.", lower-case piece letters where unambiguous) or coordinates.
// On success stores the move. Otherwise writes a message into err (at least
// 160 bytes are useful); for NOTATION_AMBIGUOUS the message lists the
// candidates in SAN. b is not changed.
NotationStatus notation_parse_move(const Board *b, const char *text, Move *out, char *err,
                                   size_t errsz);
// The same for the text s[0..n), which needs no terminating NUL (the PGN
// reader parses the moves where they stand in its buffer).
NotationStatus notation_parse_move_n(const Board *b, const char *s, size_t n, Move *out, char *err,
                                     size_t errsz);

// Parses coordinate notation only ("e2e4", "e7e8q"). Castling is read as the
// king's move to its destination ("e1g1") or as the king taking its own rook
// ("e1h1", Chess960's form); a king step that is also a castling destination
// is the step. Used by the protocols.
NotationStatus notation_parse_uci(const Board *b, const char *text, Move *out);

#endif
