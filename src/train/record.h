// SPDX-License-Identifier: GPL-3.0-or-later
// Training positions and their 32-byte file record, written by `patzer datagen`
// and read by the tuner, the EPD converter and (later) a network trainer.
//
// A record, all integers little-endian:
//   bytes  0-7   occupancy bitboard (bit 0 = a1 ... bit 63 = h8)
//   bytes  8-23  one 4-bit code per occupied square in rising square order, the
//                first in the low nibble of byte 8: 0-11 the Piece values of
//                engine/types.h; 12 a rook that still has its castling right
//                (White on rank 1, Black on rank 8; in Chess960 anywhere on
//                it, the side of its king it stands on naming the right); 13 a pawn that has just
//                made a double step and can be taken en passant (the side not
//                to move); 14 and 15 are invalid
//   bytes 24-25  search score, int16, centipawns from WHITE's point of view
//                (mate scores as the engine reports them: +-(32000 - plies))
//   bytes 26-27  best move found by the search (engine/types.h Move)
//   bytes 28-29  ply of the game, counted from the position the game started
//                from (so the full-move number is ply / 2 + 1)
//   byte  30     half-move clock, capped at 255
//   byte  31     bit 0 side to move (1 = Black); bits 1-2 game result from
//                White's point of view (0 loss, 1 draw, 2 win); bits 3-6 the
//                TRAIN_FLAG_* bits; bit 7 zero
#ifndef SRC_TRAIN_RECORD_H
#define SRC_TRAIN_RECORD_H

#include <stdio.h>

#include "engine/board.h"
#include "engine/fen.h"

enum { TRAIN_RECORD_SIZE = 32 };

typedef enum { TRAIN_BLACK_WINS = 0, TRAIN_DRAW = 1, TRAIN_WHITE_WINS = 2 } TrainResult;

enum {
    TRAIN_FLAG_IN_CHECK = 1,   // the side to move is in check
    TRAIN_FLAG_NOISY_BEST = 2, // the best move captures or promotes
    TRAIN_FLAG_NOT_QUIET = 4,  // a capture search disagrees with the static evaluation
    TRAIN_FLAG_GAME_END = 8,   // the last record of its game (games are written whole)
    TRAIN_FLAGS_NOISY = TRAIN_FLAG_IN_CHECK | TRAIN_FLAG_NOISY_BEST | TRAIN_FLAG_NOT_QUIET,
};

// One training position, unpacked.
typedef struct TrainPosition {
    uint8_t squares[SQ_NB]; // Piece or NO_PIECE
    Color side;
    uint8_t castling; // CASTLE_* bits
    uint8_t castle_rook[4]; // the rook square of each right (Board.castle_rook)
    uint8_t ep;       // en-passant target square or SQ_NONE
    uint8_t halfmove;
    uint16_t ply;
    int16_t score; // centipawns, White's point of view
    Move move;
    TrainResult result;
    uint8_t flags; // TRAIN_FLAG_*
} TrainPosition;

// True when the position is quiet enough for tuning a static evaluation.
static inline bool train_is_quiet(const TrainPosition *p) {
    return (p->flags & TRAIN_FLAGS_NOISY) == 0;
}

// Takes the pieces, side, castling rights, en-passant square and half-move
// clock from b; the other fields are left for the caller.
void train_position_from_board(TrainPosition *p, const Board *b);
// Sets b up from the position (with an empty history). False with the reason
// in err when the position is not a legal chess position.
bool train_position_to_board(const TrainPosition *p, Board *b, char *err, size_t errsz);
// The position as FEN (buf at least FEN_MAX bytes).
void train_position_fen(const TrainPosition *p, char *buf, size_t bufsz);

// Packs p into a record. p must hold at most 32 pieces, castling rights only
// with king and rook at home, and an en-passant square behind a pawn.
void train_encode(const TrainPosition *p, uint8_t rec[TRAIN_RECORD_SIZE]);
// Unpacks a record; false with the reason in err for a malformed one.
bool train_decode(const uint8_t rec[TRAIN_RECORD_SIZE], TrainPosition *p, char *err, size_t errsz);

// Reads the records of one file or of every *.bin file in a directory (in
// name order). Owns its file handle and list; close frees them.
typedef struct TrainReader {
    char **paths;
    int path_count;
    int path_index;
    FILE *file;
    long long record; // index of the next record in the current file
} TrainReader;

// False with the reason in err when path cannot be read (a directory without
// .bin files is fine: it just yields nothing).
bool train_reader_open(TrainReader *r, const char *path, char *err, size_t errsz);
// 1 with *p filled, 0 at the end of the data, -1 with the file and record
// named in err for a malformed record or a read error.
int train_reader_next(TrainReader *r, TrainPosition *p, char *err, size_t errsz);
// Leaves the rest of the current file unread and goes on with the next one (a
// reader that wants only the first records of each file of a growing run then
// never meets a record being written).
void train_reader_skip_file(TrainReader *r);
void train_reader_close(TrainReader *r);

// Appends whole games to one file. Opening it cuts off a torn tail (records
// after the last TRAIN_FLAG_GAME_END, left by a killed run) and counts what
// stays, so a restarted run goes on from there.
typedef struct TrainWriter {
    FILE *file;
    long long games;   // whole games in the file
    long long records; // records in the file
} TrainWriter;

bool train_writer_open(TrainWriter *w, const char *path, char *err, size_t errsz);
// Writes the n positions of one game (setting TRAIN_FLAG_GAME_END on the last
// only) and flushes them to the file. False with the reason in err.
bool train_writer_add_game(TrainWriter *w, const TrainPosition *game, int n, char *err,
                           size_t errsz);
// Closes the file; false when the last flush failed.
bool train_writer_close(TrainWriter *w);

#endif
