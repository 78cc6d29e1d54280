// SPDX-License-Identifier: GPL-3.0-or-later
// The end-of-game rules over a position: one rule set, and one way of naming
// a result, shared by the game controller, xboard mode and the game review.
#ifndef SRC_GAME_OUTCOME_H
#define SRC_GAME_OUTCOME_H

#include <stddef.h>

#include "engine/board.h"

typedef enum { RESULT_NONE, RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW } GameResult;

typedef enum {
    END_NONE,
    END_CHECKMATE,
    END_STALEMATE,
    END_INSUFFICIENT_MATERIAL,
    END_FIVEFOLD_REPETITION,
    END_SEVENTY_FIVE_MOVES,
    END_THREEFOLD_REPETITION, // claimed
    END_FIFTY_MOVES,          // claimed
    END_RESIGNATION,
    END_AGREEMENT,
    END_TIME_FORFEIT, // the flag fell and the opponent can mate
    END_TIME_DRAW,    // the flag fell but the opponent cannot mate
} GameEnd;

// How a game ended: end is END_NONE while it goes on; side is who mated,
// resigned, claimed or ran out of time.
typedef struct Outcome {
    GameEnd end;
    GameResult result;
    Color side;
} Outcome;

enum { OUTCOME_TEXT_MAX = 64 };

// Each rule looks at b and, for repetitions, the keys of the nkeys positions
// of the game before it (oldest first: game_keys, or a Line's keys).
//
// The ending the rules impose on b: checkmate, stalemate, insufficient
// material, fivefold repetition, the seventy-five-move rule; checkmate first,
// so a mate on the 75th move stands.
Outcome outcome_forced(const Board *b, const Key *keys, int nkeys);
// The draw the side to move may claim in b: END_THREEFOLD_REPETITION,
// END_FIFTY_MOVES, or END_NONE.
GameEnd outcome_claimable(const Board *b, const Key *keys, int nkeys);
// outcome_forced, else the draw the side to move can claim (claimed by it):
// what an engine that claims every draw at once sees.
Outcome outcome_with_claims(const Board *b, const Key *keys, int nkeys);

// "1-0", "0-1", "1/2-1/2", "*"
const char *outcome_result_text(GameResult result);
// The reason in words ("White mates", "Draw by stalemate", "Black wins on
// time"); empty for END_NONE.
void outcome_describe(const Outcome *o, char *buf, size_t bufsz);

#endif
