// SPDX-License-Identifier: GPL-3.0-or-later
// Polyglot opening books: the Polyglot position key, probing a book held in memory, weighted
// random choice, and encoding a sorted book (the caller writes the file).
#include "engine/book.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/errmsg.h"
#include "engine/movegen.h"
#include "engine/polyglot_keys.h"
#include "engine/zobrist.h"

enum { ENTRY_SIZE = 16, WEIGHT_MAX = 65535 };

// The file as read: entries stay big-endian and are decoded on demand, so opening a book
// costs one read and no conversion pass.
struct Book {
    unsigned char *data;
    size_t count;
};

static uint64_t get_be(const unsigned char *p, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v = (v << 8) | p[i];
    return v;
}

static void put_be(unsigned char *p, uint64_t v, int bytes) {
    for (int i = bytes - 1; i >= 0; i--, v >>= 8)
        p[i] = (unsigned char)(v & 0xFF);
}

static Key entry_key(const Book *book, size_t i) {
    return get_be(book->data + i * ENTRY_SIZE, 8);
}

// Opens path and checks that it can be a book (a regular file whose size is a
// whole, non-zero number of entries); the size in *size. NULL with err set otherwise.
static FILE *open_checked(const char *path, size_t *size, char *err, size_t errsz) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        errmsg_set(err, errsz, "cannot open book %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        errmsg_set(err, errsz, "cannot read book %s: not a regular file", path);
        fclose(f);
        return NULL;
    }
    if (st.st_size == 0 || st.st_size % ENTRY_SIZE != 0) {
        errmsg_set(err, errsz, "bad book %s: size %lld is %s", path, (long long)st.st_size,
                   st.st_size == 0 ? "empty" : "not a multiple of 16 bytes");
        fclose(f);
        return NULL;
    }
    *size = (size_t)st.st_size;
    return f;
}

bool book_check_file(const char *path, char *err, size_t errsz) {
    size_t size;
    FILE *f = open_checked(path, &size, err, errsz);
    if (!f)
        return false;
    fclose(f);
    return true;
}

Book *book_open(const char *path, char *err, size_t errsz) {
    size_t size;
    FILE *f = open_checked(path, &size, err, errsz);
    if (!f)
        return NULL;
    Book *book = malloc(sizeof *book);
    unsigned char *data = malloc(size);
    if (!book || !data) {
        errmsg_set(err, errsz, "cannot load book %s: %s", path, strerror(ENOMEM));
        free(book);
        free(data);
        fclose(f);
        return NULL;
    }
    size_t got = fread(data, 1, size, f);
    bool read_error = ferror(f);
    fclose(f);
    if (got != size) {
        errmsg_set(err, errsz, "cannot read book %s: %s", path,
                read_error ? strerror(EIO) : "file shrank while reading");
        free(book);
        free(data);
        return NULL;
    }
    book->data = data;
    book->count = got / ENTRY_SIZE;
    // Probing is a binary search, so an unsorted book would silently miss positions.
    for (size_t i = 1; i < book->count; i++) {
        if (entry_key(book, i) < entry_key(book, i - 1)) {
            errmsg_set(err, errsz,
                       "bad book %s: entry %zu has a smaller key than entry %zu (not sorted)",
                       path, i, i - 1);
            book_close(book);
            return NULL;
        }
    }
    return book;
}

void book_close(Book *book) {
    if (!book)
        return;
    free(book->data);
    free(book);
}

size_t book_size(const Book *book) {
    return book ? book->count : 0;
}

// Polyglot's en-passant rule: the file counts when the opponent has just pushed a pawn two
// squares and a pawn of the side to move stands beside it, legal capture or not.
static int polyglot_ep_file(const Board *b) {
    Square target = b->ep;
    if (target == SQ_NONE) {
        // patzer drops the square when no legal capture exists (a pinned capturer); the
        // last move still tells whether there was a double push.
        Move last = board_last_move(b);
        if (last == MOVE_NONE || last == MOVE_NULL || move_kind(last) != MOVE_NORMAL)
            return -1;
        Square from = move_from(last), to = move_to(last);
        Color them = (Color)(b->side ^ 1);
        int dist = from > to ? from - to : to - from;
        if (board_piece_on(b, to) != make_piece(them, PAWN) || dist != 16)
            return -1;
        target = (from + to) / 2;
    }
    Square pawn_sq = target + (b->side == WHITE ? -8 : 8); // the pushed pawn
    Bitboard ours = board_pieces(b, b->side, PAWN);
    int file = square_file(target);
    if ((file > 0 && (ours & (1ULL << (pawn_sq - 1)))) ||
        (file < 7 && (ours & (1ULL << (pawn_sq + 1)))))
        return file;
    return -1;
}

Key book_key(const Board *b) {
    Key key = 0;
    Bitboard occ = board_occupied(b);
    while (occ) {
        Square s = bb_lsb(occ);
        occ &= occ - 1;
        Piece p = board_piece_on(b, s);
        // Polyglot orders the pieces black pawn, white pawn, black knight...
        int kind = 2 * piece_type(p) + (piece_color(p) == WHITE ? 1 : 0);
        key ^= polyglot_random64[POLYGLOT_PIECE + 64 * kind + s];
    }
    static const int rights[4] = { CASTLE_WK, CASTLE_WQ, CASTLE_BK, CASTLE_BQ };
    for (int i = 0; i < 4; i++) {
        if (!(b->castling & rights[i]))
            continue;
        key ^= polyglot_random64[POLYGLOT_CASTLE + i];
        // Polyglot knows only corner rooks: a Chess960 right with another
        // rook gets patzer's own key too, so that the explorer keeps such
        // positions apart from the standard ones.
        if (square_file(b->castle_rook[i]) != (i & 1 ? 0 : 7))
            key ^= zobrist_castling[i][square_file(b->castle_rook[i])];
    }
    int ep_file = polyglot_ep_file(b);
    if (ep_file >= 0)
        key ^= polyglot_random64[POLYGLOT_EP + ep_file];
    if (b->side == WHITE)
        key ^= polyglot_random64[POLYGLOT_TURN];
    return key;
}

// The legal move a Polyglot move stands for, MOVE_NONE if there is none.
static Move decode_move(const Board *b, const MoveList *legal, unsigned raw) {
    Square to = raw & 63, from = (raw >> 6) & 63;
    unsigned promo = (raw >> 12) & 7;
    if (promo > 4)
        return MOVE_NONE;
    // Castling is written as the king taking its own rook; patzer's move
    // names the king's destination (in Chess960 maybe a square it could step to).
    if (from == board_king(b, b->side) && promo == 0) {
        for (int i = castle_index(b->side, true); i <= castle_index(b->side, false); i++) {
            if ((b->castling & (1 << i)) && b->castle_rook[i] == to) {
                Move m = move_make_kind(from, castle_king_to(i), MOVE_CASTLING);
                return movelist_contains(legal, m) ? m : MOVE_NONE;
            }
        }
    }
    for (int i = 0; i < legal->count; i++) {
        Move m = legal->moves[i];
        if (move_from(m) != from || move_to(m) != to)
            continue;
        if (promo ? move_is_promotion(m) && move_promotion(m) == (PieceType)(KNIGHT + promo - 1)
                  : !move_is_promotion(m))
            return m;
    }
    return MOVE_NONE;
}

// Index of the first entry with the key, or count when there is none.
static size_t lower_bound(const Book *book, Key key) {
    size_t lo = 0, hi = book->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (entry_key(book, mid) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int book_moves(const Book *book, const Board *b, BookMove *out, int max) {
    if (!book || max <= 0)
        return 0;
    Key key = book_key(b);
    size_t i = lower_bound(book, key);
    if (i >= book->count || entry_key(book, i) != key)
        return 0;
    MoveList legal;
    movegen_legal(b, &legal);
    BookMove found[MAX_MOVES];
    int n = 0;
    for (; i < book->count && entry_key(book, i) == key; i++) {
        const unsigned char *e = book->data + i * ENTRY_SIZE;
        Move m = decode_move(b, &legal, (unsigned)get_be(e + 8, 2));
        if (m == MOVE_NONE)
            continue;
        unsigned weight = (unsigned)get_be(e + 10, 2);
        int j = 0;
        while (j < n && found[j].move != m)
            j++;
        if (j == n) {
            // Distinct legal moves never exceed MAX_MOVES, so found cannot overflow.
            found[n].move = m;
            found[n++].weight = 0;
        }
        found[j].weight += weight; // 65535 at most per entry: no real book overflows this
    }
    // Insertion sort, best weight first; stable, so equal weights keep the book's order.
    for (int a = 1; a < n; a++) {
        BookMove x = found[a];
        int c = a;
        for (; c > 0 && found[c - 1].weight < x.weight; c--)
            found[c] = found[c - 1];
        found[c] = x;
    }
    if (n > max)
        n = max;
    memcpy(out, found, (size_t)n * sizeof *out);
    return n;
}

// xorshift64*: small, fast and good enough for choosing among a few moves.
static uint64_t next_random(uint64_t *state) {
    uint64_t x = *state ? *state : 0x9E3779B97F4A7C15ULL;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1DULL;
}

Move book_pick(const Book *book, const Board *b, uint64_t *rng) {
    BookMove moves[MAX_MOVES];
    int n = book_moves(book, b, moves, MAX_MOVES);
    if (n == 0)
        return MOVE_NONE;
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += moves[i].weight;
    uint64_t r = next_random(rng);
    // Zero-weight entries are "known but not to be played" unless nothing else is left.
    if (total == 0)
        return moves[r % (uint64_t)n].move;
    r %= total;
    for (int i = 0; i < n; i++) {
        if (r < moves[i].weight)
            return moves[i].move;
        r -= moves[i].weight;
    }
    return moves[0].move; // not reached
}

uint16_t book_encode_move(const Board *b, Move m) {
    Square from = move_from(m), to = move_to(m);
    unsigned promo = 0;
    if (move_kind(m) == MOVE_CASTLING)
        to = b->castle_rook[castle_index_of(m)]; // king takes its own rook
    else if (move_is_promotion(m))
        promo = (unsigned)(move_promotion(m) - KNIGHT) + 1;
    return (uint16_t)(to | (from << 6) | (promo << 12));
}

static int cmp_key_move(const void *pa, const void *pb) {
    const BookWriterEntry *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->move > b->move) - (a->move < b->move);
}

// Within a position, heaviest first: some readers take the first entry as the best move.
static int cmp_key_weight(const void *pa, const void *pb) {
    const BookWriterEntry *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->weight != b->weight)
        return a->weight > b->weight ? -1 : 1;
    return (a->move > b->move) - (a->move < b->move);
}

unsigned char *book_encode(BookWriterEntry *entries, size_t n, size_t *len) {
    *len = 0;
    if (n == 0)
        return NULL;
    qsort(entries, n, sizeof *entries, cmp_key_move);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t w = entries[i].weight > WEIGHT_MAX ? WEIGHT_MAX : entries[i].weight;
        if (m > 0 && entries[m - 1].key == entries[i].key &&
            entries[m - 1].move == entries[i].move) {
            uint32_t sum = entries[m - 1].weight + w;
            entries[m - 1].weight = sum > WEIGHT_MAX ? WEIGHT_MAX : sum;
        } else {
            entries[m] = entries[i];
            entries[m++].weight = w;
        }
    }
    qsort(entries, m, sizeof *entries, cmp_key_weight);

    unsigned char *buf = malloc(m * ENTRY_SIZE);
    if (!buf)
        return NULL;
    for (size_t i = 0; i < m; i++) {
        unsigned char *e = buf + i * ENTRY_SIZE;
        put_be(e, entries[i].key, 8);
        put_be(e + 8, entries[i].move, 2);
        put_be(e + 10, entries[i].weight, 2);
        put_be(e + 12, 0, 4); // learn
    }
    *len = m * ENTRY_SIZE;
    return buf;
}
