// SPDX-License-Identifier: GPL-3.0-or-later
// PGN import: a streaming reader of the import format (many games per file,
// variations, comments, NAGs, null moves), with errors at FILE:LINE:COL.
//
// - It works line by line over a 64 KB buffer (grown only for a longer line)
//   with a hand-written lexer. Moves are matched by notation_parse_move_n,
//   the engine's one SAN parser (lenient, and it explains a failure), where
//   they stand in the buffer. Variations are played on copies of the board
//   at their branch point, so they are validated too. A null move, "--" or
//   "Z0", passes the turn (in the main line too, unlike pgn-extract without
//   --allownullmoves); one in check is an error. A comment with a
//   [%clk h:mm:ss(.f)] command after a move gives the node's clock_ms.
// - It builds the tree through the model's builder (src/pgn/tree.h); the
//   validation-only mode builds nothing and only plays the moves.
// - Errors: the reader reports the first error of a game with its position,
//   skips to the next game (the next line that starts with '[' after the
//   bad game's move text) and carries on. An unclosed comment or variation is
//   noticed at the next tag-pair line, which then starts the next game.
//   Columns count bytes from 1; a UTF-8 byte-order mark is skipped.
#ifndef SRC_PGN_READ_H
#define SRC_PGN_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "src/pgn/model.h"
#include "src/util/paths.h"

typedef struct PgnError {
    char file[PATH_MAX_LEN];
    int line, column; // 1-based; column in bytes
    int game_number;  // 1-based count of games met in the input
    char message[320];
} PgnError;

// What the validation-only reader reports for a game.
typedef struct PgnSummary {
    int game_number;
    int plies;               // main line
    char result[8];          // the termination marker (or the Result tag without one)
    char final_fen[FEN_MAX]; // after the main line
} PgnSummary;

typedef struct PgnReader PgnReader;

// NULL on failure, with the reason in err.
PgnReader *pgn_reader_open(const char *path, char *err, size_t errsz);
// Reads from a copy of text; name is used in error positions. NULL when out of memory.
PgnReader *pgn_reader_from_string(const char *text, const char *name);
void pgn_reader_close(PgnReader *r);

// Reads the next game into out (cleared first). Returns 1 for a game read
// without error, 0 at the end of input, -1 when this game had an error:
// error is filled, out holds what was read up to the error, and the next call
// continues with the following game. An I/O error also returns -1 and then 0.
// A game read from a file has that file as its source (pgn_source).
int pgn_reader_next(PgnReader *r, PgnGame *out, PgnError *error);

// Where the game read last (by any of the readers) is in the input: bytes
// [start, end) from the line it starts on to the line the next one starts
// on (end only for a game read without error), and its first line.
typedef struct PgnSpan {
    long long start, end;
    int line; // 1-based
} PgnSpan;
void pgn_reader_span(const PgnReader *r, PgnSpan *span);

// Opens path at byte offset, the start of a game found before (a PgnSpan's
// start and line), as if the games_before games before it had been read:
// error positions and game numbers are those of the whole file.
PgnReader *pgn_reader_open_at(const char *path, long long offset, int line, int games_before,
                              char *err, size_t errsz);

// Like pgn_reader_next but builds no tree: it plays and checks every move
// (variations too) and reports the main line's length, result and final FEN.
int pgn_reader_validate(PgnReader *r, PgnSummary *summary, PgnError *error);

// What pgn_reader_mainline gives for a game besides the summary.
typedef struct PgnMainline {
    Move *moves;   // the caller's buffer of max moves: the main line's first
    int max;       // moves (MOVE_NULL for a null move)
    int count;     // how many are stored
    Board start;   // the game's start position
    int elo[COLOR_NB]; // the WhiteElo and BlackElo tags, 0 when absent or not a number
} PgnMainline;

// Like pgn_reader_validate (every move checked, no tree built), and also
// gives the main line's first line->max moves, its start position and the
// players' ratings: what an index of the games needs, read fast.
int pgn_reader_mainline(PgnReader *r, PgnSummary *summary, PgnMainline *line, PgnError *error);

// Told every tag pair as the reader meets it (name, and the value with its
// escapes undone), whichever way it reads: what a consumer that wants a
// game's tags but not its tree (a list of the games) visits. NULL: none.
typedef void (*PgnTagVisitor)(void *ctx, const char *name, const char *value);
void pgn_reader_on_tag(PgnReader *r, PgnTagVisitor visit, void *ctx);

// How many bytes of the input the reader has consumed (for progress: the
// file's size is the end).
long long pgn_reader_offset(const PgnReader *r);

#endif
