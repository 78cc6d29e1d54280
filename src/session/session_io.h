// SPDX-License-Identifier: GPL-3.0-or-later
// Games to and from PGN files: the automatic save after every move (which
// --resume reads back, clocks and settings included), save and load.
#ifndef SRC_SESSION_IO_H
#define SRC_SESSION_IO_H

#include "src/game/game.h"
#include "src/game/openings.h"
#include "src/pgn/pgn.h"

// Writes the game to path atomically; silently does nothing when path is
// empty. Returns false when the write failed.
bool session_autosave(const Game *g, const Openings *o, const char *path, int64_t now);
// The game as PGN: tags (with patzer's own for resuming, and ECO/Opening
// when o knows the opening; o may be NULL), moves with clock comments and the
// engine's evaluations. NULL when out of memory.
PgnGame *session_to_pgn(const Game *g, const Openings *o, int64_t now);
// Writes the game to path (atomically), with the reason on failure.
bool session_save(const Game *g, const Openings *o, const char *path, int64_t now, char *err,
                  size_t errsz);
// Replaces the game with the first game of a PGN file and continues from the
// end of its main line. Settings saved by patzer (players, level, time
// control, clocks) are restored; for other files the current players and
// level stay. On failure the game is unchanged and err says why.
bool session_load(Game *g, const char *path, int64_t now, char *err, size_t errsz);

// Where a game was written into the archive: bytes [start, end) of the file
// as it was then (end 0: nowhere).
typedef struct ArchiveSpot {
    size_t start, end;
} ArchiveSpot;

// Appends the game to the archive at path (atomically: the whole file is
// rewritten through a temporary file) and tells where it went when spot is
// not NULL. Silently nothing when path is empty.
bool session_archive(const PgnGame *g, const char *path, ArchiveSpot *spot, char *err,
                     size_t errsz);
// Writes g in the place of the game at spot (an annotated copy replacing the
// plain one), the same way; when the file has changed since (its size is not
// spot->end), g is appended instead. Updates spot.
bool session_archive_replace(const PgnGame *g, const char *path, ArchiveSpot *spot, char *err,
                             size_t errsz);

#endif
