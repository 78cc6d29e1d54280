// SPDX-License-Identifier: GPL-3.0-or-later
// The puzzle book: the player's puzzles with their spaced-repetition state,
// the games already searched for puzzles, and the player's puzzle rating, in
// one text file ($XDG_DATA_HOME/patzer/puzzles) written atomically.
//
// File format: UTF-8 text, one record per line, fields separated by tabs;
// blank lines and lines starting with '#' are comments.
//   player  RATING ATTEMPTS                 the player's puzzle rating
//   scanned KEY                              a game searched (16 hex digits)
//   puzzle  FEN SOLUTION PLAYED RATING DUE INTERVAL EASE REPS ATTEMPTS SOLVED FAILED SOURCE
// SOLUTION is UCI moves separated by spaces, PLAYED the game's move (UCI),
// DUE a Unix time, INTERVAL days, EASE the SM-2 ease factor in percent. A line
// that cannot be read is reported with its line number and kept as it is
// (written back unchanged), the rest of the book is used.
//
// Spaced repetition (SM-2): a grade of 5 (solved), 3 (solved after a hint)
// or 1 (failed, or the solution asked for) changes the ease by
// 10 * (0.1 - (5-q) * (0.08 + (5-q) * 0.02)) points (at least 130). Solved:
// the interval becomes 1 day, then 6, then interval * ease; failed: the
// interval is reset and the puzzle is due at once (the session shows it again
// after PUZZLEBOOK_RETRY_AFTER other puzzles, waiting for puzzles still being
// found, else at the end of its queue; it also leads the next session).
//
// Rating: Elo against the puzzle's rating, on the first attempt of each
// puzzle only (a retry after seeing the solution proves little): expected
// E = 1 / (1 + 10^((Rp - R) / 400)), R += K * (S - E) with S = 1 solved,
// 0.5 solved after a hint, 0 failed; K = 32 for the first 20 rated puzzles,
// then 16. The player starts at PUZZLEBOOK_START_RATING.
#ifndef SRC_COACH_PUZZLEBOOK_H
#define SRC_COACH_PUZZLEBOOK_H

#include <stdint.h>

#include "src/coach/puzzle.h"

enum {
    PUZZLEBOOK_START_RATING = 1500,
    PUZZLEBOOK_START_EASE = 250,
    PUZZLEBOOK_MIN_EASE = 130,
    PUZZLEBOOK_RETRY_AFTER = 3,
    PUZZLEBOOK_WARN_MAX = 1024,
};

typedef struct PuzzleEntry {
    Puzzle puzzle;
    int64_t due;  // Unix seconds
    int interval; // days
    int ease;     // percent
    int reps;     // successes in a row
    int attempts, solved, failed;
} PuzzleEntry;

typedef struct PuzzleBook {
    PuzzleEntry *items;
    int count, cap;
    uint64_t *scanned;
    int scanned_count, scanned_cap;
    int rating, rated; // the player's rating and the puzzles it was rated on
    char **kept;       // lines that could not be read, written back as they were
    int kept_count, kept_cap;
} PuzzleBook;

typedef enum { GRADE_SOLVED, GRADE_HINTED, GRADE_FAILED } PuzzleGrade;

// An empty book (rating PUZZLEBOOK_START_RATING); NULL when out of memory.
PuzzleBook *puzzlebook_new(void);
void puzzlebook_free(PuzzleBook *b);

// Reads the records of text into b. Lines that cannot be read are kept and
// named in warn ("puzzles:7: bad FEN ...; 2 more"), warn empty when none.
// False only when out of memory.
bool puzzlebook_parse(PuzzleBook *b, const char *text, const char *name, char *warn, size_t warnsz);
// The file at path into b: a missing file is an empty book. False with err
// when it cannot be read; warn as for puzzlebook_parse.
bool puzzlebook_load(PuzzleBook *b, const char *path, char *warn, size_t warnsz, char *err,
                     size_t errsz);
// The book as text (the caller frees it); NULL when out of memory.
char *puzzlebook_format(const PuzzleBook *b);
// Writes the book atomically (temp file + rename).
bool puzzlebook_save(const PuzzleBook *b, const char *path, char *err, size_t errsz);

// Adds a new puzzle, due now. -1 when out of memory; the index of the puzzle
// of the same position when the book has it already (nothing added).
int puzzlebook_add(PuzzleBook *b, const Puzzle *p, int64_t now_s);
// Games searched for puzzles, by key (puzzlebook_game_key).
bool puzzlebook_is_scanned(const PuzzleBook *b, uint64_t key);
bool puzzlebook_mark_scanned(PuzzleBook *b, uint64_t key);
// A key for a game: its players, date, round, start position and moves.
uint64_t puzzlebook_game_key(const PgnGame *g);

// The puzzles due at now_s whose source starts with prefix (NULL: all):
// those seen before first, the earliest due first, then the new ones in the
// order they were found. Fills out (indexes into items) up to max.
int puzzlebook_due(const PuzzleBook *b, int64_t now_s, const char *prefix, int *out, int max);

// Records an attempt at puzzle i: its schedule and the player's rating.
void puzzlebook_grade(PuzzleBook *b, int i, PuzzleGrade grade, int64_t now_s);
// Elo: the new rating of a player rated `player` after score (0, 0.5, 1)
// against a puzzle rated `puzzle`, with factor k.
int puzzlebook_elo(int player, int puzzle, double score, int k);

#endif
