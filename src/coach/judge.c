// SPDX-License-Identifier: GPL-3.0-or-later
// Judging a move played in a puzzle (see judge.h).
#include "src/coach/judge.h"

#include <string.h>

#include "engine/movegen.h"
#include "src/game/review.h"

bool puzzle_ends_in_mate(const Puzzle *p) {
    Board b;
    if (!board_set_fen(&b, p->fen, NULL, 0))
        return false;
    for (int i = 0; i < p->length; i++) {
        if (!movegen_is_legal(&b, p->solution[i]))
            return false;
        board_play(&b, p->solution[i]);
    }
    return movegen_is_checkmate(&b);
}

JudgeVerdict puzzle_judge(Engine *e, const Puzzle *p, int ply, const Board *b, Move m, int depth,
                          PuzzleAnswer *out) {
    memset(out, 0, sizeof *out);
    if (puzzle_move_is_right(p, ply, b, m))
        return out->verdict = JUDGE_RIGHT;
    out->verdict = JUDGE_WRONG;
    if (!movegen_is_legal(b, m))
        return out->verdict;
    Board after = *b;
    board_play(&after, m);
    int theirs = 0;
    out->line_length = puzzle_refutation(e, &after, depth, out->line, JUDGE_LINE_MAX, &theirs);
    if (out->line_length == 0)
        return out->verdict; // the game is over after m (a stalemate): not a win
    out->score = -theirs;
    bool mate = out->score > REVIEW_EVAL_MAX;
    if (puzzle_ends_in_mate(p) ? mate : out->score >= PUZZLE_WIN_CP)
        out->verdict = JUDGE_ALSO_WINS;
    return out->verdict;
}
