// SPDX-License-Identifier: GPL-3.0-or-later
// `why`: what a move threatened or what a mistake allowed, in sentences made
// only of facts the engine proves, each with the concrete line behind it:
// - a mistake (the move gave away EXPLAIN_MISTAKE_CP or more against the
//   engine's best): the mate it allows, or the material the opponent wins
//   along the refutation, or the score it gives away; and the better move
//   with its line (a missed mate as such);
// - what the move threatens: the mate or the material the mover would win if
//   it could move again (a null move for the opponent, searched), a check;
// - the tactics on the board after it: a fork by the moved piece (two or more
//   targets that are the king, worth more than the forking piece, or
//   undefended), a pin it creates (a piece that cannot move off the line to
//   its king, or only at the cost of the queen behind it), a piece of the
//   mover's left where the opponent wins it by exchange.
// No I/O: the session prints the text and shows the first line on the board.
#ifndef SRC_EXPLAIN_H
#define SRC_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

enum {
    EXPLAIN_TEXT_MAX = 4096,
    EXPLAIN_LINE_PLIES = 8, // moves of a line shown
    EXPLAIN_MISTAKE_CP = 50,
    EXPLAIN_THREAT_CP = 80, // a threat gains at least this much over the position
};

typedef struct ExplainOptions {
    int depth;      // per search (the explanation runs three or four)
    uint64_t nodes; // per search; 0: none
} ExplainOptions;

typedef struct Explanation {
    char text[EXPLAIN_TEXT_MAX]; // one sentence per line
    int sentences;
    Move shown; // the first move of the line the first sentence rests on (MOVE_NONE: none)
    bool mistake;
} Explanation;

// Explains `played`, a legal move in `before`; keys are the nkeys positions
// before `before` (oldest first), for repetitions. e must not be searching;
// its options are changed for analysis and left so. False only when played is
// not legal (out->text says so).
bool explain_move(Engine *e, const Board *before, const Key *keys, int nkeys, Move played,
                  const ExplainOptions *opt, Explanation *out);

#endif
