// SPDX-License-Identifier: GPL-3.0-or-later
// The list of the games of a PGN file, to pick one from: every game of a
// file of any size, read once, filtered and laid out in rows of a given
// width without reading the file again.
//
// - Reading: the validating reader (src/pgn/read.h) plays every move, says
//   which games are broken and how many there are, and hands each tag pair
//   to the list as it meets it (pgn_reader_on_tag): one reader, one pass,
//   no tree built.
// - Memory: per game 40 bytes (six string ids, a result, where it starts);
//   each distinct text (a player's name, an event) is kept once.
// - Rows: number, White, Black, result, date, ECO, event. The name and event
//   columns are as wide as their longest text in the rows shown, shrunk
//   fairly (the narrowest need first) when the width does not hold them all;
//   the date and ECO columns go when no game has one.
// It knows nothing of the session or the screen.
#ifndef SRC_PGN_GAMELIST_H
#define SRC_PGN_GAMELIST_H

#include <stdbool.h>
#include <stddef.h>

typedef struct GameList GameList;

// Told now and then how far the reading is (bytes read of the file's size).
typedef void (*GameListProgress)(void *ctx, long long done, long long size);

// Reads the games of the file at path (progress may be NULL). NULL with the
// reason in err when it cannot be read or memory runs out. A file without a
// game gives an empty list.
GameList *gamelist_read(const char *path, GameListProgress progress, void *ctx, char *err,
                        size_t errsz);
void gamelist_free(GameList *l);

const char *gamelist_path(const GameList *l);
// Whether the file is still the one read (same size, time and inode), so
// that the list can be shown again without reading it.
bool gamelist_unchanged(const GameList *l);
// Games in the file, broken ones included.
int gamelist_total(const GameList *l);

// Shows the games whose White, Black, Event, date, ECO or Opening contain
// text (case-insensitive; NULL or "" for all). False when out of memory
// (the rows shown stay as they were).
bool gamelist_filter(GameList *l, const char *text);
// The rows shown (games matching the filter), in file order.
int gamelist_count(const GameList *l);
// The game number (1-based in the file) of row i, 0 when there is no row i.
int gamelist_number(const GameList *l, int i);

// Where game `number` (1-based) starts in the file: its first byte and
// line. False when there is no such game.
bool gamelist_place(const GameList *l, int number, long long *start, int *line);

// One game's texts as shown: an absent tag is "", the date is Date, else
// UTCDate, with unknown parts ("??") dropped, the result "?" for a broken game.
typedef struct GameListFields {
    const char *white, *black, *event, *date, *eco, *opening, *result;
} GameListFields;
// False when there is no game number (1-based).
bool gamelist_fields(const GameList *l, int number, GameListFields *out);

// Row i laid out for width columns into buf (cut between UTF-8 characters
// when bufsz is short); "" when there is no row i.
void gamelist_row(const GameList *l, int i, int width, char *buf, size_t bufsz);

#endif
