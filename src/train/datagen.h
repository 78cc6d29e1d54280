// SPDX-License-Identifier: GPL-3.0-or-later
// Self-play games for training data: a random opening, then the engine against
// itself at a fixed node count per move, adjudicated early when the result is
// clear. Each game is a pure function of (seed, worker, game index), so a run
// reproduces and a restarted run goes on exactly where it stopped. The positions
// of games played elsewhere are scored the same way (datagen_score_game).
#ifndef SRC_TRAIN_DATAGEN_H
#define SRC_TRAIN_DATAGEN_H

#include "engine/nnue.h"
#include "src/train/record.h"

// Longest game played; longer games are adjudicated drawn.
enum { DATAGEN_PLIES_MAX = 400 };

typedef struct DatagenOptions {
    uint64_t seed;
    uint64_t nodes; // per move
    int hash_mb;
    int random_plies;        // random legal moves before the engine plays
    int opening_max_cp;      // openings whose quick search exceeds this are replayed
    int win_cp;              // adjudicated a win: |score| >= win_cp ...
    int win_plies;           // ... for this many plies in a row
    int draw_cp;             // adjudicated a draw: |score| <= draw_cp ...
    int draw_plies;          // ... for this many plies in a row ...
    int draw_min_ply;        // ... from this ply of the game on
    const char *const *book; // opening FENs to start from (NULL: the start position)
    int book_count;
    bool chess960;      // start from Chess960 positions drawn at random (instead of a book)
    const NnueNet *net; // the evaluation the games are played with (NULL: the hand-crafted
                        // one); the quietness test stays the hand-crafted capture search
} DatagenOptions;

// The defaults: 5,000 nodes, 8 random plies, openings within 300 cp, a win at
// 2,000 cp for 4 plies, a draw within 10 cp for 12 plies from ply 80.
void datagen_options_init(DatagenOptions *o);

typedef struct Datagen Datagen;

// One worker's engine (table, searcher, pawn cache). The options (and book)
// must outlive it. NULL when out of memory.
Datagen *datagen_new(const DatagenOptions *o);
void datagen_free(Datagen *d);

// Plays game `index` of worker `worker` and stores its positions (each with
// the search's score and best move, the result and the quiet flags) in
// out[0..DATAGEN_PLIES_MAX); returns how many (always at least one: openings
// that end the game or are lopsided are replaced by the next candidate).
int datagen_play(Datagen *d, int worker, long long index, TrainPosition *out);

// Scores the positions of a game played elsewhere, from start through moves[0..n): each
// position before a move is searched and stored as datagen_play stores its own (the
// search's score and best move, the quiet marks), all with the game's result. Stops at
// DATAGEN_PLIES_MAX positions or at the first move that is not legal; returns how many
// were stored.
int datagen_score_game(Datagen *d, const Board *start, const Move *moves, int n,
                       TrainResult result, TrainPosition *out);

// True when the capture search of b finds a different score than the static
// evaluation (b is restored). b must not be in check.
bool datagen_is_tactical(Datagen *d, Board *b);

#endif
