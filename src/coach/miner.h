// SPDX-License-Identifier: GPL-3.0-or-later
// The puzzle miner: puzzle_find over every game of one or more PGN files on
// worker threads, each with an engine of its own, so that mining uses every
// core while its caller (the session's event loop, `patzer puzzles mine`)
// goes on. No terminal I/O; the caller hears of each game through
// callbacks, which the miner calls one at a time (under its lock) on the
// worker that finished the game.
//
// Games are handed out in file order; a worker reads the next game under
// the lock (reading is fast next to the search) and searches it unlocked,
// from a cleared hash table and history, so that what a game gives does not
// depend on which worker searched it or what it searched before.
// Results come back in the order the games were read (a game finished early
// is held until those before it are done), each with the file and the game's
// number in it: what a caller hears does not depend on how many workers
// there are or how fast they run. A cancel drops the games held behind the
// unfinished ones.
#ifndef SRC_COACH_MINER_H
#define SRC_COACH_MINER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "src/coach/puzzle.h"

enum { MINER_JOBS_MAX = 64, MINER_GAME_PUZZLES_MAX = 32 };

// One game searched.
typedef struct MinerGame {
    int file;     // index into MinerOptions.paths
    int number;   // the game's number in its file, from 1
    uint64_t key; // puzzlebook_game_key
    const Puzzle *puzzles;
    int count;
} MinerGame;

typedef struct MinerOptions {
    const char *const *paths; // the PGN files, searched in turn
    int path_count;
    const char *const *names; // each file's name in sources ("FILE#N ..."): NULL uses paths
    int jobs;                 // worker threads; 0: one per online core
    int max_games;            // games read at most, over all files in turn (0: all)
    PuzzleOptions puzzle;     // depths and sides (its cancel is the miner's own)
    const NnueNet *net;       // the evaluation the workers search with (NULL: the hand-crafted
                              // one); the caller's, kept until miner_free
    // Whether to skip a game (searched before): called under the lock.
    bool (*skip)(int file, int number, uint64_t key, void *ctx);
    // Which sides' mistakes count in game g (the player's archive): fills
    // sides; NULL keeps puzzle.sides. Called under the lock.
    void (*sides)(const PgnGame *g, bool sides[COLOR_NB], void *ctx);
    // A game searched (also a game that gave nothing), under the lock.
    void (*on_game)(const MinerGame *game, void *ctx);
    // Mining is over (all games, a cancel, or an error): called once, on
    // the last worker to stop, after its last on_game, under the lock.
    void (*on_done)(void *ctx);
    void *ctx;
} MinerOptions;

typedef struct Miner Miner;

// Starts the workers; NULL with err when a file cannot be opened or a
// thread or engine cannot be made.
Miner *miner_start(const MinerOptions *opt, char *err, size_t errsz);
// Asks the workers to stop soon (the game under search is not reported).
void miner_cancel(Miner *m);
// Waits for the workers and frees the miner (NULL: nothing).
void miner_free(Miner *m);
// Progress so far: games searched (skipped ones included), puzzles found,
// and the games the files hold (counted before the mining starts).
void miner_progress(const Miner *m, int *games_done, int *puzzles, int *games_total);
// The first error a worker met ("FILE: cannot read ..."), empty when none;
// read it after on_done.
const char *miner_error(const Miner *m);
// The games that could not be read (broken, or not chess), which the search
// passes over, and in *first where and why the first one could not
// ("FILE:LINE:COLUMN: game N: ..."); read it after on_done.
int miner_unread(const Miner *m, const char **first);
// The same said in a sentence for the user ("2 games could not be read (the
// first: ...)"), empty when every game was read; returns their number.
int miner_unread_text(const Miner *m, char *out, size_t outsz);
// A size of out that holds any such sentence whole.
enum { MINER_UNREAD_TEXT_SIZE = 4096 + 512 };
// The number of workers a jobs value of 0 means on this machine.
int miner_default_jobs(void);

#endif
