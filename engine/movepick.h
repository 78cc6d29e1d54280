// SPDX-License-Identifier: GPL-3.0-or-later
// Staged move ordering for the search: the hash move first, then captures
// and promotions that do not lose material (best victim, cheapest attacker
// first), the two killer moves and the counter-move, the quiet moves by
// history score and by whether they take a piece out of a cheaper piece's
// attack or into it, and the losing captures last. Moves are generated only when
// their stage is reached and picked best-first without sorting the list.
#ifndef ENGINE_MOVEPICK_H
#define ENGINE_MOVEPICK_H

#include "engine/history.h"
#include "engine/movegen.h"

typedef struct MovePicker {
    const Board *b;
    const Histories *h;
    ContRows cont; // continuation rows (history.h), all NULL for none
    int stage;
    Move tt_move, killers[2], counter;
    MoveList list;
    int scores[MAX_MOVES];
    int index;
    Move bad[MAX_MOVES];
    int bad_count, bad_index;
    bool noisy_only;
} MovePicker;

// Ordering for a full-width node.
// cont: the continuation rows of the moves before (NULL: none).
void movepick_init(MovePicker *mp, const Board *b, const Histories *h, Move tt_move,
                   const Move killers[2], Move counter, const ContRows *cont);
// Ordering for quiescence: captures and promotions only (all evasions in check).
void movepick_init_qsearch(MovePicker *mp, const Board *b, const Histories *h, Move tt_move);
// The next move, MOVE_NONE when all are done. With skip_quiets set, quiet
// moves not yet returned are skipped (late-move pruning).
Move movepick_next(MovePicker *mp, bool skip_quiets);
// The stage of the last returned move was a losing capture.
bool movepick_in_bad_stage(const MovePicker *mp);

#endif
