// SPDX-License-Identifier: GPL-3.0-or-later
// Games to and from PGN files: the automatic save after every move (which
// --resume reads back, clocks and settings included), save and load.
#ifndef SRC_GAME_GAMEFILE_H
#define SRC_GAME_GAMEFILE_H

#include "src/game/game.h"
#include "src/game/openings.h"
#include "src/pgn/pgn.h"

// Writes the game to path atomically (nothing when path is empty). A finished
// game that is not in the archive (in_archive false: its archive write
// failed) is marked so, for the next start to archive it. False with the
// reason (the file and the system's words) when the write failed; the file
// is then as it was.
bool gamefile_autosave(const Game *g, const Openings *o, const char *path, bool in_archive,
                       int64_t now, char *err, size_t errsz);
// The game as PGN: tags (with patzer's own for resuming, and ECO/Opening
// when o knows the opening; o may be NULL), moves with clock comments and the
// engine's evaluations. NULL when out of memory.
PgnGame *gamefile_to_pgn(const Game *g, const Openings *o, int64_t now);
// Takes the engine's evaluations that gamefile_to_pgn writes after the
// comments off the main line of p ("+0.35/12"): a review writes its own.
// False when out of memory.
bool gamefile_strip_evals(PgnGame *p);
// Replaces the game with the first game of a PGN file and continues from the
// end of its main line. Settings saved by patzer (players, level, time
// control, clocks) are restored; for other files the current players and
// level stay. A finished game is finished again, however it ended (the
// PatzerEnd tag, else Result and Termination). *in_archive (when not NULL)
// tells whether the game is in the archive already (false only for a
// finished game its autosave marks as not archived). On failure the game is
// unchanged and err says why.
bool gamefile_load(Game *g, const char *path, int64_t now, bool *in_archive, char *err,
                   size_t errsz);
// How the record p of the game g (its moves played) says the game ended,
// when the moves alone do not end it ("1-0  Black resigns"), read as
// gamefile_load reads it; false when p says no result.
bool gamefile_recorded_end(const PgnGame *p, const Game *g, char *buf, size_t bufsz);

// The archive is a PGN file like any other (src/pgn/database.h): a game is
// added to it, and its place (place, may be NULL) is then its source there.
// Silently nothing when path is empty.
bool gamefile_archive(PgnGame *g, const char *path, PgnSource *place, char *err, size_t errsz);
// Writes g in the place of the game at place (an annotated copy replacing
// the plain one), every other game kept byte for byte; when the archive has
// changed since, g is added instead. Updates place.
bool gamefile_archive_replace(PgnGame *g, const char *path, PgnSource *place, char *err,
                              size_t errsz);

#endif
