// SPDX-License-Identifier: GPL-3.0-or-later
// Opening books in the Polyglot .bin format: 16-byte big-endian entries
// (key, move, weight, learn) sorted by key, with the standard Polyglot
// position key. Probing finds all entries of the position by binary search
// and picks one at random in proportion to its weight.
#ifndef ENGINE_BOOK_H
#define ENGINE_BOOK_H

#include "engine/board.h"

typedef struct Book Book;

typedef struct BookMove {
    Move move;     // converted to patzer's encoding, checked legal
    unsigned weight;
} BookMove;

// Opens a book file. NULL on failure with the reason in err (missing file,
// size not a multiple of 16, unsorted keys...).
Book *book_open(const char *path, char *err, size_t errsz);
void book_close(Book *book);
// The checks of book_open that need no reading (the file opens, is regular, and
// its size is a whole number of entries), for callers that read the book later.
bool book_check_file(const char *path, char *err, size_t errsz);
// Number of entries in the book.
size_t book_size(const Book *book);

// The Polyglot key of the position.
Key book_key(const Board *b);

// The legal book moves for b (at most max), best weight first; returns how
// many. Entries whose move is not legal in b are skipped.
int book_moves(const Book *book, const Board *b, BookMove *out, int max);

// A weighted random choice among the book moves, MOVE_NONE when out of book.
// rng is the caller's generator state (any non-zero seed).
Move book_pick(const Book *book, const Board *b, uint64_t *rng);

// The bytes of a book file: entries (key, Polyglot move, weight) are sorted
// (and reordered in place) and merged (same key and move: weights added, capped
// at 65535). Returns a new buffer of *len bytes for the caller to write (and
// free), or NULL when n is 0 or memory runs out. The engine does no file
// writing; src/util/paths.h's paths_write_atomic puts the bytes on disk.
typedef struct BookWriterEntry {
    Key key;
    uint16_t move; // Polyglot encoding, see book_encode_move
    uint32_t weight;
} BookWriterEntry;
unsigned char *book_encode(BookWriterEntry *entries, size_t n, size_t *len);
// patzer move -> Polyglot move encoding (castling as king takes rook; b is
// the position before the move, whose rooks Chess960 castling needs).
uint16_t book_encode_move(const Board *b, Move m);

#endif
