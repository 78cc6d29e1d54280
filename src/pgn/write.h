// SPDX-License-Identifier: GPL-3.0-or-later
// PGN export: the export format of one game as text (seven tag roster, move
// text wrapped under 80 columns, comments that never break a clock command)
// and atomic saves of many games.
#ifndef SRC_PGN_WRITE_H
#define SRC_PGN_WRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "src/pgn/model.h"

// The export-format text of one game, ending with a blank line: the seven
// tag roster (missing ones as "?", "????.??.??" or the result), the other
// tags in order, then the move text wrapped under 80 columns. The caller
// frees it. NULL when out of memory.
char *pgn_write_string(const PgnGame *g, size_t *len);

// Writes games to path atomically: on any failure (unwritable path, full
// disk) the old file is left as it was and err says why.
bool pgn_save(const char *path, const PgnGame *const *games, int n, char *err, size_t errsz);


#endif
