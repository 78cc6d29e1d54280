// SPDX-License-Identifier: GPL-3.0-or-later
// A puzzle set: puzzles with their theme and no schedule, the form of the
// set shipped in data/puzzles.txt (mined by `patzer puzzles mine`) that a
// player with no games of their own trains on. Read-only for the session:
// a puzzle served from it goes into the player's book (puzzlebook.h), which
// keeps its schedule.
//
// File format: UTF-8 text, one puzzle a line, fields separated by tabs;
// blank lines and lines starting with '#' are comments.
//   FEN SOLUTION PLAYED RATING THEME SOURCE
// SOLUTION is UCI moves separated by spaces (player, opponent, player, ...:
// an odd number, each legal in turn), PLAYED the move the game had (UCI),
// RATING the estimate of puzzle.h, THEME a theme_token ("fork", "mate2"),
// SOURCE where it came from ("Morphy.pgn#12 17. Qxf7"). Unlike the book, a
// bad line is an error that names it: the file is made by patzer and shipped.
#ifndef SRC_COACH_PUZZLESET_H
#define SRC_COACH_PUZZLESET_H

#include "src/coach/puzzle.h"
#include "src/coach/theme.h"

typedef struct SetPuzzle {
    Puzzle puzzle;
    ThemeInfo theme;
} SetPuzzle;

typedef struct PuzzleSet {
    SetPuzzle *items;
    int count, cap;
} PuzzleSet;

// The name the session looks for with paths_data_file, and its variable.
#define PUZZLESET_FILE "puzzles.txt"
#define PUZZLESET_ENV  "PATZER_PUZZLES"

void puzzleset_init(PuzzleSet *s);
void puzzleset_clear(PuzzleSet *s);

// Adds p with its theme; false when out of memory.
bool puzzleset_add(PuzzleSet *s, const Puzzle *p, ThemeInfo theme);
// Reads text's puzzles into s: false with "NAME:LINE: what" in err at the
// first bad line (s keeps the lines before it).
bool puzzleset_parse(PuzzleSet *s, const char *text, const char *name, char *err, size_t errsz);
// The file at path into s; false with err.
bool puzzleset_load(PuzzleSet *s, const char *path, char *err, size_t errsz);
// One puzzle as a line of the file (with its newline) into buf; false when
// it does not fit.
bool puzzleset_format_line(const SetPuzzle *p, char *buf, size_t bufsz);
// The set as text with a header comment (the caller frees it); NULL when
// out of memory.
char *puzzleset_format(const PuzzleSet *s, const char *header);

// Puzzles per theme: counts[theme], and mates[n] those of mate in n.
void puzzleset_theme_counts(const PuzzleSet *s, int counts[THEME_NB],
                            int mates[THEME_MATE_MAX + 1]);

#endif
