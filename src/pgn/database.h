// SPDX-License-Identifier: GPL-3.0-or-later
// PGN files as databases of games. A game read from a file knows its place
// there (pgn_source: the file, its number, its bytes), so one game can be
// written back without touching the others, a game can be added to a file,
// and a file replaced only when that is what is asked. Every write is atomic
// (a temporary file and a rename: the old file stays whole on any failure)
// and keeps the file's permissions.
//
// On success each call updates the game's source to its new place, so that
// a second write-back finds it there.
#ifndef SRC_PGN_DATABASE_H
#define SRC_PGN_DATABASE_H

#include <stdbool.h>
#include <stddef.h>

#include "src/pgn/model.h"

// The largest file these read whole to rewrite.
enum { PGN_DB_MAX_BYTES = 1 << 30 };

// What a write did to a file, so that other games of it held in memory can
// follow (pgn_db_follow).
typedef struct PgnFileChange {
    char path[PATH_MAX_LEN];
    long long old_size, old_mtime_ns; // the file before the write (-1: none)
    long long start, old_end, new_end; // bytes [start, old_end) became [start, new_end)
    bool whole;                        // the file was written anew
} PgnFileChange;

// Writes g in the place of the game its source names: every byte of the file
// before and after that game stays as it was. Refused, with the reason in
// err, when g has no source, when the file changed since the game was read
// (size or modification time), or when the game shares a line with another.
// change (may be NULL) says what was done.
bool pgn_db_write_back(PgnGame *g, PgnFileChange *change, char *err, size_t errsz);

// Adds g as the last game of the file at path (created when missing); its
// number there in *number.
bool pgn_db_append(PgnGame *g, const char *path, int *number, PgnFileChange *change, char *err,
                   size_t errsz);

// Writes the file at path anew with g as its only game.
bool pgn_db_replace_file(PgnGame *g, const char *path, PgnFileChange *change, char *err,
                         size_t errsz);

// Where a game starts in its file, as a list of the file's games found it
// (src/pgn/gamelist.h), so that it is read without reading those before.
typedef struct PgnPlace {
    long long start; // 0: unknown (read from the top)
    int line;
} PgnPlace;

// Reads game `number` (1-based, broken games counted) of the file at path,
// from `place` when given (NULL: from the top). NULL with the reason in err:
// the file cannot be read, has fewer games, or that game is broken (its
// FILE:LINE:COL). The game's source is the file.
PgnGame *pgn_db_read_game(const char *path, int number, const PgnPlace *place, char *err,
                          size_t errsz);

// How many games the file at path holds, as the reader counts them (broken
// ones too): 0 for a missing file, -1 with err when it cannot be read.
int pgn_db_count(const char *path, char *err, size_t errsz);

// Another game of a file that was changed follows the change: when it knew
// the file as it was before, its bytes move with the games before it and it
// knows the file as it is now; a file written anew has none of its old
// games, so other loses its source then. Games of other files are left.
void pgn_db_follow(PgnGame *other, const PgnFileChange *change);

// Whether a and b name the same existing file (through links and different
// spellings of the path).
bool pgn_db_same_file(const char *a, const char *b);

#endif
