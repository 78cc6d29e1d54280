// SPDX-License-Identifier: GPL-3.0-or-later
// The 960 start positions of Chess960 by their standard (Scharnagl) number:
// 0 to 959, 518 being the classical start.
#ifndef ENGINE_CHESS960_H
#define ENGINE_CHESS960_H

#include "engine/board.h"

enum { CHESS960_COUNT = 960, CHESS960_CLASSICAL = 518 };

// The back rank of start position n as piece letters, "RNBQKBNR" for 518;
// out holds at least 9 bytes. n must be in 0..959.
void chess960_back_rank(int n, char out[9]);
// The start position n as a FEN, castling rights in X-FEN ("KQkq");
// fen holds at least FEN_MAX bytes.
void chess960_fen(int n, char *fen, size_t fensz);
// Sets up start position n on b, marked as a Chess960 game.
void chess960_setup(Board *b, int n);
// The number of the start position b shows (pieces on their first ranks,
// pawns in front, Black mirroring White), or -1 when it is none of the 960.
int chess960_number(const Board *b);

#endif
