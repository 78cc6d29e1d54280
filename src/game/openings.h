// SPDX-License-Identifier: GPL-3.0-or-later
// Opening names: loads data/openings.txt (SAN lines with "# ECO Name" comments) into a table
// keyed by position, and names the deepest named position a game has passed through.
#ifndef SRC_OPENINGS_H
#define SRC_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/board.h"

typedef struct Openings Openings;

// Reads a file of opening lines: one per line, SAN moves from the start position (move
// numbers such as "1." and "1..." allowed), then a comment from a '#' that starts a word:
// "ECO Name" ("C50 Italian Game"; the ECO code is optional, names may be UTF-8). Blank and
// comment-only lines are ignored. Each line is played from the start position and its name
// is recorded for the position after its last move.
//
// A line that cannot be used (a move that is unparseable, illegal or ambiguous, or moves
// without a name) is skipped and counted, see openings_errors; it never fails the load.
// When two lines reach the same position (a transposition), the one listed first keeps it.
//
// Returns NULL with a message in err only when the file cannot be read or memory runs out.
// Calls board_init_tables itself.
Openings *openings_load(const char *path, char *err, size_t errsz);
// The same table, read from path the first time it is queried (a start that shows only the
// start position reads nothing). A file that cannot be read then gives an empty table. NULL
// only when out of memory. Queries may come from any thread.
Openings *openings_open(const char *path);
void openings_free(Openings *o);

// Named positions held (distinct positions; transposed duplicates are not counted).
int openings_count(const Openings *o);
// Lines skipped by openings_load, and a message for the first of them ("line 12: move 3
// 'Nf9': ..."), empty when there were none.
int openings_errors(const Openings *o);
const char *openings_first_error(const Openings *o);

// The name of the deepest named position of the game so far: the current position b, then the
// nkeys earlier ones (keys, oldest first, as game_keys gives them) back to the start of the
// game, the first match wins. Returns "ECO Name" (owned by o, valid until openings_free) or
// NULL when no position matches. eco and name, when not NULL, receive the two parts
// separately ("C50" and "Italian Game"; eco is "" when the line had no code), or "" when NULL
// is returned; they are truncated to their sizes. With no keys, b is looked up alone.
const char *openings_lookup(const Openings *o, const Board *b, const Key *keys, int nkeys,
                            char *eco, size_t ecosz, char *name, size_t namesz);

// Finds the opening names file: $PATZER_OPENINGS when set (taken as it is, so that a wrong
// path shows up as an error from openings_load), then data/openings.txt next to the program
// (argv0's directory/../data), then the installed $(pkgdatadir)/openings.txt. Returns false
// and leaves buf empty when none is found. (In a VPATH build tree the file is in the source
// tree only, so it is found through $PATZER_OPENINGS or the installed copy.)
bool openings_find_path(const char *argv0, char *buf, size_t bufsz);

#endif
