// SPDX-License-Identifier: GPL-3.0-or-later
// The position index of a PGN file, for the opening explorer: which moves
// were played from each position of the games' main lines (the first
// INDEX_PLIES_DEFAULT plies), with each game's result and ratings.
//
// - An index file holds a 96-byte header (magic, version, the source
//   file's size, mtime and a hash of its first and last KB, the counts, a
//   hash of the records and of the header itself) and then fixed 16-byte
//   records {Polyglot key, Polyglot move, White Elo, Black Elo, result},
//   sorted by key and move, in the byte order of the machine that wrote it (it is a
//   cache: a foreign one is rebuilt). Keys and moves are Polyglot's, so an
//   index stays valid across versions of the engine's own hashing.
// - It lives beside the PGN (FILE.pzx) when that folder is writable, else in
//   $XDG_CACHE_HOME/patzer/ (NAME-HASH.pzx); it is written atomically (temp
//   file and rename) and rebuilt when the source changes.
// - A lookup is a binary search over the mapped records; equal keys are
//   neighbours, so one position's moves are one run.
#ifndef SRC_EXPLORE_INDEX_H
#define SRC_EXPLORE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/board.h"

enum { INDEX_PLIES_DEFAULT = 40, INDEX_PLIES_MAX = 200 };

typedef struct ExploreIndex ExploreIndex;

// How far a build is, for a progress bar; the callback returns false to
// cancel. Called every few thousand games (and at the end).
typedef struct IndexProgress {
    long long bytes, total_bytes; // of the source read so far / its size
    long long games, positions;   // indexed so far
    long long bad_games;          // skipped for an error
} IndexProgress;
typedef bool (*IndexProgressFn)(const IndexProgress *p, void *ctx);

typedef enum {
    INDEX_FRESH,   // built from the file as it is now
    INDEX_MISSING, // no index yet
    INDEX_STALE,   // the file changed since
    INDEX_BAD,     // not an index, truncated, corrupted, another version or machine
} IndexState;

// Where the index of pgn_path is: FILE.pzx when it exists or its folder is
// writable, else the cache folder's file (created when create is set).
bool index_path_for(const char *pgn_path, char *buf, size_t bufsz, bool create);

// Whether the index at index_path is good for pgn_path as the file is now;
// why says what is wrong (for INDEX_STALE and INDEX_BAD).
IndexState index_check(const char *pgn_path, const char *index_path, char *why, size_t whysz);

// Reads pgn_path and writes its index to index_path (atomically). max_plies
// 0 means INDEX_PLIES_DEFAULT. False with err on an I/O error, no memory or
// cancel; games with errors are skipped and counted.
bool index_build(const char *pgn_path, const char *index_path, int max_plies,
                 IndexProgressFn progress, void *ctx, IndexProgress *done, char *err,
                 size_t errsz);

// Maps an index after checking it against pgn_path (index_check) and its
// records against their hash. NULL with err when it is not INDEX_FRESH.
ExploreIndex *index_open(const char *pgn_path, const char *index_path, char *err, size_t errsz);
void index_close(ExploreIndex *ix);
long long index_games(const ExploreIndex *ix);
long long index_positions(const ExploreIndex *ix);
// Whether the source file still is as it was indexed (size, mtime, hash).
bool index_current(const ExploreIndex *ix);

// One move played from a position, with the games' results and ratings.
typedef struct IndexMove {
    uint16_t code;             // the move in Polyglot's encoding (book_encode_move)
    long long games;           // every game that played it
    long long white, draws, black; // by result ("*" and others count in games only)
    long long rating_sum;      // the average ratings of the rated games
    long long rated;           // games with at least one rating
} IndexMove;

// Adds the moves played from b to out (count entries, at most max; a move
// already there is summed), so several indexes add up. Returns the new count.
int index_lookup(const ExploreIndex *ix, const Board *b, IndexMove *out, int count, int max);

#endif
