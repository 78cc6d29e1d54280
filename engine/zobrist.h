// SPDX-License-Identifier: GPL-3.0-or-later
// Zobrist hashing keys, drawn once from a fixed-seed generator so that keys,
// hash-table behaviour and bench signatures are the same on every run.
#ifndef ENGINE_ZOBRIST_H
#define ENGINE_ZOBRIST_H

#include "engine/types.h"

void zobrist_init(void);

extern Key zobrist_piece[PIECE_NB][SQ_NB];
extern Key zobrist_castling[16];
extern Key zobrist_ep_file[8];
extern Key zobrist_side;

#endif
