// SPDX-License-Identifier: GPL-3.0-or-later
// The end-of-game rules and their names (see outcome.h).
#include "src/game/outcome.h"

#include <stdio.h>

#include "engine/movegen.h"

enum {
    FIVEFOLD_EARLIER = 4, // board_repetitions counts earlier occurrences
    THREEFOLD_EARLIER = 2,
    SEVENTY_FIVE_MOVE_PLIES = 150,
    FIFTY_MOVE_PLIES = 100,
};

static const char *const color_names[COLOR_NB] = { "White", "Black" };

static Outcome make(GameEnd end, GameResult result, Color side) {
    return (Outcome){ .end = end, .result = result, .side = side };
}

Outcome outcome_forced(const Board *b, const Key *keys, int nkeys) {
    Color mover = (Color)!b->side;
    if (movegen_is_checkmate(b))
        return make(END_CHECKMATE, mover == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS, mover);
    if (movegen_is_stalemate(b))
        return make(END_STALEMATE, RESULT_DRAW, mover);
    if (board_insufficient_material(b))
        return make(END_INSUFFICIENT_MATERIAL, RESULT_DRAW, mover);
    if (board_repetitions(b, keys, nkeys) >= FIVEFOLD_EARLIER)
        return make(END_FIVEFOLD_REPETITION, RESULT_DRAW, mover);
    if (b->halfmove >= SEVENTY_FIVE_MOVE_PLIES)
        return make(END_SEVENTY_FIVE_MOVES, RESULT_DRAW, mover);
    return make(END_NONE, RESULT_NONE, mover);
}

GameEnd outcome_claimable(const Board *b, const Key *keys, int nkeys) {
    if (board_repetitions(b, keys, nkeys) >= THREEFOLD_EARLIER)
        return END_THREEFOLD_REPETITION;
    if (b->halfmove >= FIFTY_MOVE_PLIES)
        return END_FIFTY_MOVES;
    return END_NONE;
}

Outcome outcome_with_claims(const Board *b, const Key *keys, int nkeys) {
    Outcome o = outcome_forced(b, keys, nkeys);
    if (o.end != END_NONE)
        return o;
    GameEnd claim = outcome_claimable(b, keys, nkeys);
    return claim == END_NONE ? o : make(claim, RESULT_DRAW, b->side);
}

const char *outcome_result_text(GameResult result) {
    switch (result) {
    case RESULT_WHITE_WINS: return "1-0";
    case RESULT_BLACK_WINS: return "0-1";
    case RESULT_DRAW: return "1/2-1/2";
    case RESULT_NONE: break;
    }
    return "*";
}

void outcome_describe(const Outcome *o, char *t, size_t n) {
    const char *who = color_names[o->side];
    const char *other = color_names[!o->side];
    switch (o->end) {
    case END_NONE: snprintf(t, n, "%s", ""); break;
    case END_CHECKMATE: snprintf(t, n, "%s mates", who); break;
    case END_STALEMATE: snprintf(t, n, "Draw by stalemate"); break;
    case END_INSUFFICIENT_MATERIAL: snprintf(t, n, "Draw by insufficient material"); break;
    case END_FIVEFOLD_REPETITION: snprintf(t, n, "Draw by fivefold repetition"); break;
    case END_SEVENTY_FIVE_MOVES: snprintf(t, n, "Draw by the seventy-five-move rule"); break;
    case END_THREEFOLD_REPETITION: snprintf(t, n, "Draw by threefold repetition (claimed)"); break;
    case END_FIFTY_MOVES: snprintf(t, n, "Draw by the fifty-move rule (claimed)"); break;
    case END_RESIGNATION: snprintf(t, n, "%s resigns", who); break;
    case END_AGREEMENT: snprintf(t, n, "Draw agreed"); break;
    case END_TIME_FORFEIT: snprintf(t, n, "%s wins on time", other); break;
    case END_TIME_DRAW:
        snprintf(t, n, "Draw: %s's flag fell but %s cannot mate", who, other);
        break;
    }
}
