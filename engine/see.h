// SPDX-License-Identifier: GPL-3.0-or-later
// Static exchange evaluation: the material outcome of the capture sequence a
// move starts on its destination square, each side recapturing with its least
// valuable attacker and free to stop, with x-ray attackers joining in.
#ifndef ENGINE_SEE_H
#define ENGINE_SEE_H

#include "engine/board.h"

// Exchange values of the piece types (king: larger than everything else).
int see_piece_value(PieceType t);
// True when the exchange started by the legal move m gains at least threshold.
bool see_ge(const Board *b, Move m, int threshold);

#endif
