// SPDX-License-Identifier: GPL-3.0-or-later
// Judging a move played in a puzzle: the solution's move is right, so is any
// mate, and so is any other move whose verified score keeps the win (a
// second way to win the queen, a second mate in 2). The verification is a
// search of the position after the move, whose line is also the refutation
// shown when the move is wrong. No I/O; blocks while it searches.
//
// Keeping the win: when the solution ends in mate, the move must lead to a
// forced mate too (the search finds one for the mover); otherwise the
// mover's score after the move must be PUZZLE_WIN_CP or more.
#ifndef SRC_COACH_JUDGE_H
#define SRC_COACH_JUDGE_H

#include "src/coach/puzzle.h"

enum { JUDGE_LINE_MAX = 6 };

typedef enum {
    JUDGE_RIGHT,     // the solution's move, or a mate
    JUDGE_ALSO_WINS, // another move that keeps the win: the puzzle is solved
    JUDGE_WRONG,
} JudgeVerdict;

typedef struct PuzzleAnswer {
    JudgeVerdict verdict;
    // For a move other than the solution's: the engine's answer from the
    // position after it, and its score for the mover (review scale).
    Move line[JUDGE_LINE_MAX];
    int line_length;
    int score;
} PuzzleAnswer;

// Whether the solution of p, played out from its position, ends in mate.
bool puzzle_ends_in_mate(const Puzzle *p);

// Judges legal move m played on b at solution step ply (even: a player's
// move), searching to depth when m is not the solution's move or a mate.
JudgeVerdict puzzle_judge(Engine *e, const Puzzle *p, int ply, const Board *b, Move m, int depth,
                          PuzzleAnswer *out);

#endif
