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
// - It tells what it meets (tags, the start position, moves, NAGs,
//   comments, variations, the end) to a PgnVisitor, and knows no consumer:
//   the tree builder (pgn_reader_next, src/pgn/build.c), the validator
//   (pgn_reader_validate: no visitor, it only plays the moves), the
//   explorer's main line (pgn_reader_mainline) and the game list's tags are
//   visitors of this one reader.
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

// What the reader tells a consumer of one game, in the order of the input;
// any callback may be NULL. A callback that fails returns the reason (such as
// "out of memory"), which becomes the game's error at the place it was met;
// NULL goes on. ctx is passed to every callback.
typedef struct PgnVisitor {
    // A tag pair: its name, and its value with the escapes undone.
    const char *(*tag)(void *ctx, const char *name, const char *value);
    // The game's start position (from its FEN tag), before its first move.
    void (*start)(void *ctx, const Board *start);
    // A move (MOVE_NULL: a null move) played from before, in the main line
    // (depth 0) or a variation (depth 1 and more); ply counts from the game's
    // start position (0 for the first move).
    const char *(*move)(void *ctx, const Board *before, Move m, int depth, int ply);
    // A NAG (1..255; suffixes such as "!?" as theirs) on the move before it.
    const char *(*nag)(void *ctx, int nag);
    // A comment ("{...}" or "; ..."), blanks folded into single spaces; text
    // is the reader's buffer, which the visitor may change. With no comment
    // callback the reader does not collect the text at all.
    const char *(*comment)(void *ctx, char *text, size_t len);
    // A variation opens (an alternative to the move before it) or closes.
    void (*variation)(void *ctx, bool open);
    // The game is over: its result (the termination marker, else the Result
    // tag, else "*") and the position at the end of its main line.
    void (*end)(void *ctx, const char *result, const Board *final);
    void *ctx;
} PgnVisitor;

// Reads the next game, telling v (NULL: only checks it). Returns as
// pgn_reader_next.
int pgn_reader_visit(PgnReader *r, const PgnVisitor *v, PgnError *error);

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

// How many bytes of the input the reader has consumed (for progress: the
// file's size is the end).
long long pgn_reader_offset(const PgnReader *r);

#endif
