// SPDX-License-Identifier: GPL-3.0-or-later
// mkbook: builds a Polyglot opening book from text files of opening lines (one line of SAN
// moves per opening). Used at build time to make data/patzer.bin from data/openings.txt.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/book.h"
#include "src/game/openline.h"
#include "src/util/paths.h"

// Far more than any file of opening lines (the lichess data is about 400 KB).
enum { OPENINGS_TEXT_MAX = 256 << 20 };

typedef struct Entries {
    BookWriterEntry *items;
    size_t count, cap;
} Entries;

typedef struct Stats {
    long lines;     // opening lines read (lines with at least one move)
    long bad_lines; // lines cut short at a move that could not be played
} Stats;

static void usage(FILE *out) {
    fputs("usage: mkbook [--lenient] OUT.bin IN.txt...\n"
          "\n"
          "Reads opening lines, one per line: SAN moves from the start position, move numbers\n"
          "(\"1.\", \"1...\") allowed, '#' at the start of a word begins a comment. Every\n"
          "position along every line gets its next move, weighted by the number of lines\n"
          "that play it there, and the book is written to OUT.bin in Polyglot format.\n"
          "\n"
          "A move that cannot be played is an error and nothing is written; with --lenient\n"
          "it is a warning, the rest of that line is skipped and the book is written.\n",
          out);
}

static bool add_entry(Entries *e, Key key, uint16_t move) {
    if (e->count == e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 4096;
        BookWriterEntry *items = realloc(e->items, cap * sizeof *items);
        if (!items)
            return false;
        e->items = items;
        e->cap = cap;
    }
    e->items[e->count++] = (BookWriterEntry){ .key = key, .move = move, .weight = 1 };
    return true;
}

// What the reader calls back with: where, and how bad errors are.
typedef struct Reading {
    const char *file;
    bool lenient;
    Entries *entries;
    Stats *stats;
} Reading;

// Every move of every line: (position, move) for the book.
static bool on_move(void *ctx, const Board *before, Move m) {
    Reading *r = ctx;
    return add_entry(r->entries, book_key(before), book_encode_move(before, m));
}

static bool on_line(void *ctx, const Board *after, const char *comment, long lineno) {
    (void)after, (void)comment, (void)lineno;
    Reading *r = ctx;
    r->stats->lines++;
    return true;
}

// A move that cannot be played is reported and ends its line.
static void on_error(void *ctx, long lineno, int ply, const char *move, const char *why) {
    Reading *r = ctx;
    fprintf(stderr, "%s:%ld: %s: move %d '%s': %s\n", r->file, lineno,
            r->lenient ? "warning" : "error", ply / 2 + 1, move, why);
    r->stats->lines++; // a line, even if cut short
    r->stats->bad_lines++;
}

// Reads one file of opening lines. False on an I/O error or out of memory
// (reported).
static bool read_file(const char *path, bool lenient, Entries *e, Stats *st) {
    char err[512];
    char *text = paths_read_file(path, OPENINGS_TEXT_MAX, NULL, err, sizeof err);
    if (!text) {
        fprintf(stderr, "mkbook: %s\n", err);
        return false;
    }
    Reading r = { path, lenient, e, st };
    OpenLineVisitor v = { .move = on_move, .line = on_line, .error = on_error, .ctx = &r };
    bool ok = openline_read(text, &v);
    free(text);
    if (!ok)
        fprintf(stderr, "mkbook: out of memory\n");
    return ok;
}

static int cmp_key_move(const void *pa, const void *pb) {
    const BookWriterEntry *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->move > b->move) - (a->move < b->move);
}

// Distinct positions and distinct (position, move) pairs, as the book will hold them.
static void count_book(Entries *e, size_t *positions, size_t *entries) {
    qsort(e->items, e->count, sizeof *e->items, cmp_key_move);
    *positions = *entries = 0;
    for (size_t i = 0; i < e->count; i++) {
        if (i == 0 || e->items[i].key != e->items[i - 1].key)
            ++*positions;
        if (i == 0 || cmp_key_move(&e->items[i], &e->items[i - 1]) != 0)
            ++*entries;
    }
}

int main(int argc, char **argv) {
    bool lenient = false;
    int arg = 1;
    for (; arg < argc && argv[arg][0] == '-' && argv[arg][1]; arg++) {
        if (strcmp(argv[arg], "--lenient") == 0) {
            lenient = true;
        } else if (strcmp(argv[arg], "--help") == 0 || strcmp(argv[arg], "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(argv[arg], "--") == 0) {
            arg++;
            break;
        } else {
            fprintf(stderr, "mkbook: unknown option '%s'\n", argv[arg]);
            usage(stderr);
            return 2;
        }
    }
    if (argc - arg < 2) {
        usage(stderr);
        return 2;
    }
    const char *out = argv[arg++];

    board_init_tables();
    Entries e = { 0 };
    Stats st = { 0 };
    int status = 0;
    for (; arg < argc && status == 0; arg++)
        if (!read_file(argv[arg], lenient, &e, &st))
            status = 1;
    if (status == 0 && st.bad_lines > 0 && !lenient) {
        fprintf(stderr, "mkbook: %ld bad line%s, %s not written\n", st.bad_lines,
                st.bad_lines == 1 ? "" : "s", out);
        status = 1;
    }
    if (status == 0 && e.count == 0) {
        fprintf(stderr, "mkbook: no moves in the input, %s not written\n", out);
        status = 1;
    }
    if (status == 0) {
        size_t positions, entries;
        count_book(&e, &positions, &entries);
        char err[512] = "";
        size_t len;
        unsigned char *bytes = book_encode(e.items, e.count, &len);
        if (!bytes) {
            fprintf(stderr, "mkbook: out of memory encoding %s\n", out);
            status = 1;
        } else if (paths_write_atomic(out, (const char *)bytes, len, err, sizeof err)) {
            fprintf(stderr, "mkbook: %s: %ld lines, %zu positions, %zu entries\n", out, st.lines,
                    positions, entries);
        } else {
            fprintf(stderr, "mkbook: %s\n", err);
            status = 1;
        }
        free(bytes);
    }
    free(e.items);
    return status;
}
