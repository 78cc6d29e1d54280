// SPDX-License-Identifier: GPL-3.0-or-later
// Self-play games for training data: opening, fixed-node search per move,
// adjudication, and the quiet/noisy marks of each position.
#include "src/train/datagen.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "engine/chess960.h"
#include "engine/eval.h"
#include "engine/fen.h"
#include "engine/line.h"
#include "engine/movegen.h"
#include "engine/search.h"

// Capture search depth for the quietness test; deeper exchanges are rare.
enum { QSEARCH_DEPTH = 8, OPENING_ATTEMPTS_MAX = 1000 };

struct Datagen {
    const DatagenOptions *opt;
    TTable *tt;
    Searcher *searcher;
    PawnCache *pawns;
    atomic_bool stop;
    uint64_t rng;
    Line game; // the game being played, with its keys for repetitions
};

void datagen_options_init(DatagenOptions *o) {
    *o = (DatagenOptions){
        .seed = 1,
        .nodes = 5000,
        .hash_mb = 8,
        .random_plies = 8,
        .opening_max_cp = 300,
        .win_cp = 2000,
        .win_plies = 4,
        .draw_cp = 10,
        .draw_plies = 12,
        .draw_min_ply = 80,
    };
}

Datagen *datagen_new(const DatagenOptions *o) {
    Datagen *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->opt = o;
    atomic_init(&d->stop, false);
    d->tt = tt_new((size_t)o->hash_mb);
    d->searcher = d->tt ? search_new(d->tt, &d->stop) : NULL;
    d->pawns = eval_pawn_cache_new();
    if (!d->searcher || !d->pawns) {
        datagen_free(d);
        return NULL;
    }
    return d;
}

void datagen_free(Datagen *d) {
    if (!d)
        return;
    search_free(d->searcher);
    tt_free(d->tt);
    eval_pawn_cache_free(d->pawns);
    free(d);
}

// SplitMix64: mixes the seed tuple into a well-spread generator state.
static uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static uint64_t rng_next(uint64_t *s) {
    *s = mix(*s);
    return *s;
}

// ------------------------------------------------------------------------------ quietness

// Most valuable victim first, then least valuable attacker.
static int capture_order(const Board *b, Move m) {
    Piece victim = board_captured_piece(b, m);
    int v = victim == NO_PIECE ? 0 : eval_piece_value(piece_type(victim));
    if (move_is_promotion(m))
        v += eval_piece_value(move_promotion(m));
    return v * 8 - (int)piece_type(board_piece_on(b, move_from(m)));
}

static int qsearch(Datagen *d, Board *b, int alpha, int beta, int depth) {
    int stand = eval_evaluate(b, d->pawns);
    if (stand >= beta || depth == 0)
        return stand;
    if (stand > alpha)
        alpha = stand;
    MoveList list;
    movegen_noisy(b, &list);
    int order[MAX_MOVES];
    for (int i = 0; i < list.count; i++)
        order[i] = capture_order(b, list.moves[i]);
    for (int i = 0; i < list.count; i++) {
        int best = i;
        for (int j = i + 1; j < list.count; j++)
            if (order[j] > order[best])
                best = j;
        Move m = list.moves[best];
        list.moves[best] = list.moves[i];
        order[best] = order[i];
        Undo u;
        board_make_move(b, m, &u);
        // A capture that gives check is scored by its static evaluation beyond
        // this point; good enough to tell quiet from not.
        int score = -qsearch(d, b, -beta, -alpha, depth - 1);
        board_unmake_move(b, &u);
        if (score > alpha) {
            alpha = score;
            if (alpha >= beta)
                break;
        }
    }
    return alpha;
}

bool datagen_is_tactical(Datagen *d, Board *b) {
    int stand = eval_evaluate(b, d->pawns);
    return qsearch(d, b, -VALUE_INFINITE, VALUE_INFINITE, QSEARCH_DEPTH) != stand;
}

// ------------------------------------------------------------------------------ games

static void search(Datagen *d, SearchResult *result) {
    SearchLimits limits;
    search_limits_init(&limits);
    limits.nodes = d->opt->nodes;
    SearchParams params = { .multipv = 1, .analysis = true, .level = 0, .net = d->opt->net };
    search_run(d->searcher, &d->game.board, d->game.keys, d->game.ply, &limits, &params, NULL, NULL,
               result);
}

// Sets up a fresh opening from the generator; false when it is over already
// or lopsided, so the caller draws another.
static bool play_opening(Datagen *d) {
    const DatagenOptions *o = d->opt;
    Board start;
    board_set_start(&start);
    if (o->chess960) {
        chess960_setup(&start, (int)(rng_next(&d->rng) % CHESS960_COUNT));
    } else if (o->book_count > 0) {
        const char *fen = o->book[rng_next(&d->rng) % (uint64_t)o->book_count];
        if (!board_set_fen(&start, fen, NULL, 0))
            return false;
    }
    line_init(&d->game, &start);
    const Board *b = &d->game.board;
    for (int i = 0; i < o->random_plies; i++) {
        MoveList list;
        movegen_legal(b, &list);
        if (list.count == 0)
            return false;
        line_play(&d->game, list.moves[rng_next(&d->rng) % (uint64_t)list.count]);
    }
    if (movegen_count(b) == 0)
        return false;
    SearchResult r;
    search(d, &r);
    return r.score <= o->opening_max_cp && r.score >= -o->opening_max_cp;
}

// The position of d->game as a record: the search's score (White's view) and
// best move, and the marks that tell the trainer whether it is quiet.
static void store_position(Datagen *d, TrainPosition *p, int ply, int white_score, Move best) {
    Board *b = &d->game.board;
    train_position_from_board(p, b);
    p->ply = (uint16_t)ply;
    p->score = (int16_t)white_score;
    p->move = best;
    p->flags = 0;
    if (board_in_check(b))
        p->flags |= TRAIN_FLAG_IN_CHECK;
    else if (datagen_is_tactical(d, b))
        p->flags |= TRAIN_FLAG_NOT_QUIET;
    if (board_is_capture(b, best) || move_is_promotion(best))
        p->flags |= TRAIN_FLAG_NOISY_BEST;
}

// The result when the game is over by the rules, or -1.
static int rules_result(const Line *l) {
    const Board *b = &l->board;
    if (movegen_count(b) == 0) {
        if (!board_in_check(b))
            return TRAIN_DRAW;
        return b->side == WHITE ? TRAIN_BLACK_WINS : TRAIN_WHITE_WINS;
    }
    if (b->halfmove >= 100 || line_repetitions(l) >= 2 || board_insufficient_material(b))
        return TRAIN_DRAW;
    return -1;
}

// Plays from the opening on; returns the positions stored and sets *result.
static int play_game(Datagen *d, TrainPosition *out, TrainResult *result) {
    const DatagenOptions *o = d->opt;
    Board *b = &d->game.board;
    int n = 0, win_run = 0, draw_run = 0, last_sign = 0;
    int ply = d->game.ply; // the opening moves made (book positions start at 0)
    int outcome = -1;
    while (outcome < 0 && n < DATAGEN_PLIES_MAX) {
        outcome = rules_result(&d->game);
        if (outcome >= 0)
            break;
        SearchResult r;
        search(d, &r);
        int white_score = b->side == WHITE ? r.score : -r.score;

        store_position(d, &out[n++], ply, white_score, r.best);

        // Adjudication: a clear score held for a few plies by both sides.
        int sign = white_score > 0 ? 1 : -1;
        int magnitude = white_score < 0 ? -white_score : white_score;
        win_run = magnitude >= o->win_cp ? (sign == last_sign ? win_run + 1 : 1) : 0;
        last_sign = sign;
        draw_run = magnitude <= o->draw_cp && ply >= o->draw_min_ply ? draw_run + 1 : 0;
        if (win_run >= o->win_plies)
            outcome = sign > 0 ? TRAIN_WHITE_WINS : TRAIN_BLACK_WINS;
        else if (draw_run >= o->draw_plies)
            outcome = TRAIN_DRAW;

        line_play(&d->game, r.best);
        ply++;
    }
    *result = outcome < 0 ? TRAIN_DRAW : (TrainResult)outcome;
    return n;
}

// A clean engine for each game, so that a game's records depend on the game alone.
static void clear_engine(Datagen *d) {
    tt_clear(d->tt);
    search_clear(d->searcher);
    eval_pawn_cache_clear(d->pawns);
}

int datagen_play(Datagen *d, int worker, long long index, TrainPosition *out) {
    for (uint64_t attempt = 0;; attempt++) {
        d->rng = mix(mix(mix(d->opt->seed) ^ (uint64_t)worker) ^ (uint64_t)index) ^ attempt;
        clear_engine(d); // every game depends on its seed only
        if (!play_opening(d) && attempt < OPENING_ATTEMPTS_MAX)
            continue;
        TrainResult result;
        int n = play_game(d, out, &result);
        for (int i = 0; i < n; i++)
            out[i].result = result;
        if (n > 0)
            return n;
    }
}

int datagen_score_game(Datagen *d, const Board *start, const Move *moves, int n,
                       TrainResult result, TrainPosition *out) {
    clear_engine(d);
    line_init(&d->game, start);
    const Board *b = &d->game.board;
    // The game's own ply, so that the trainer's opening cut (--min-ply) means the same here.
    int ply = 2 * (b->fullmove > 0 ? b->fullmove - 1 : 0) + (b->side == BLACK);
    int stored = 0;
    for (int i = 0; i < n && stored < DATAGEN_PLIES_MAX && movegen_is_legal(b, moves[i]); i++) {
        SearchResult r;
        search(d, &r);
        int white_score = b->side == WHITE ? r.score : -r.score;
        store_position(d, &out[stored++], ply + i, white_score, r.best);
        line_play(&d->game, moves[i]);
    }
    for (int i = 0; i < stored; i++)
        out[i].result = result;
    return stored;
}
