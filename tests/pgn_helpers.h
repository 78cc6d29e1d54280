// SPDX-License-Identifier: GPL-3.0-or-later
// Games read from PGN files and text, written back and compared, with failures
// reported as assertions: shared by the PGN suites and those that review or
// report on games. Header-only, static inline.
#ifndef TESTS_PGN_HELPERS_H
#define TESTS_PGN_HELPERS_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/pgn/pgn.h"
#include "tests/helpers.h"

static inline void data_path(const char *name, char *buf, size_t bufsz) {
    snprintf(buf, bufsz, "%s/pgn/%s", test_data_dir(), name);
}

static inline char *slurp(const char *path) {
    char err[256];
    size_t len;
    char *s = paths_read_file(path, 16 << 20, &len, err, sizeof err);
    cr_assert_not_null(s, "%s", err);
    return s;
}

// Every game of a file; errors are counted, not collected.
typedef struct Games {
    PgnGame *g[32];
    int n, errors;
    PgnError err[8];
} Games;

static inline void read_reader(PgnReader *r, Games *out) {
    memset(out, 0, sizeof *out);
    for (;;) {
        PgnGame *g = pgn_game_new();
        cr_assert_not_null(g);
        PgnError e;
        int rc = pgn_reader_next(r, g, &e);
        if (rc == 0) {
            pgn_game_free(g);
            break;
        }
        if (rc < 0) {
            if (out->errors < 8)
                out->err[out->errors] = e;
            out->errors++;
            pgn_game_free(g);
            continue;
        }
        cr_assert_lt(out->n, 32);
        out->g[out->n++] = g;
    }
    pgn_reader_close(r);
}

static inline void read_file(const char *name, Games *out) {
    char path[PATH_MAX_LEN], err[256];
    data_path(name, path, sizeof path);
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    read_reader(r, out);
}

static inline void read_text(const char *text, Games *out) {
    PgnReader *r = pgn_reader_from_string(text, "text.pgn");
    cr_assert_not_null(r);
    read_reader(r, out);
}

static inline void free_games(Games *gs) {
    for (int i = 0; i < gs->n; i++)
        pgn_game_free(gs->g[i]);
    gs->n = 0;
}

// The text of all games, as pgn_save would write it.
static inline char *write_all(const Games *gs) {
    size_t total = 0;
    char *all = calloc(1, 1);
    cr_assert_not_null(all);
    for (int i = 0; i < gs->n; i++) {
        size_t len;
        char *s = pgn_write_string(gs->g[i], &len);
        cr_assert_not_null(s);
        char *grown = realloc(all, total + len + 1);
        cr_assert_not_null(grown);
        all = grown;
        memcpy(all + total, s, len + 1);
        total += len;
        free(s);
    }
    return all;
}

static inline bool same_str(const char *a, const char *b) {
    return (!a && !b) || (a && b && !strcmp(a, b));
}

// Structural equality of two move trees.
static inline void assert_same_line(const PgnNode *a, const PgnNode *b) {
    for (; a || b; a = a->next, b = b->next) {
        cr_assert(a && b, "lines of different length");
        cr_assert_eq(a->move, b->move);
        cr_assert_str_eq(a->san, b->san);
        cr_assert_eq(a->ply, b->ply);
        cr_assert_eq(a->clock_ms, b->clock_ms, "%s: clock %lld vs %lld", a->san, a->clock_ms,
                     b->clock_ms);
        cr_assert(same_str(a->pre, b->pre), "%s: pre '%s' vs '%s'", a->san, a->pre, b->pre);
        cr_assert(same_str(a->comment, b->comment), "%s: comment '%s' vs '%s'", a->san, a->comment,
                  b->comment);
        cr_assert(same_str(a->trail, b->trail), "%s: trail", a->san);
        cr_assert_eq(a->nag_count, b->nag_count, "%s: NAGs", a->san);
        cr_assert_eq(memcmp(a->nags, b->nags, (size_t)a->nag_count), 0);
        const PgnNode *va = a->variation, *vb = b->variation;
        for (; va || vb; va = va->next_variation, vb = vb->next_variation) {
            cr_assert(va && vb, "%s: different number of variations", a->san);
            assert_same_line(va, vb);
        }
    }
}

// b was read back from what the writer made of a: the same tags, except that
// the writer fills in the seven tag roster.
static inline void assert_same_game(const PgnGame *a, const PgnGame *b) {
    static const char *const roster[] = { "Event", "Site",  "Date",  "Round",
                                          "White", "Black", "Result" };
    for (int i = 0; i < pgn_tag_count(a); i++) {
        const char *name = pgn_tag_name(a, i);
        cr_assert(same_str(pgn_tag(b, name), pgn_tag_value(a, i)), "tag %s", name);
    }
    for (int i = 0; i < pgn_tag_count(b); i++) {
        const char *name = pgn_tag_name(b, i);
        bool in_roster = false;
        for (int k = 0; k < 7; k++)
            in_roster |= !strcmp(name, roster[k]);
        cr_assert(pgn_tag(a, name) || in_roster, "tag %s appeared", name);
    }
    cr_assert_str_eq(pgn_result(a), pgn_result(b));
    cr_assert_str_eq(pgn_start_fen(a), pgn_start_fen(b));
    cr_assert(same_str(pgn_lead_comment(a), pgn_lead_comment(b)));
    assert_same_line(pgn_first(a), pgn_first(b));
}

// The first game of text (the caller frees it with pgn_game_free).
static inline PgnGame *test_read_game(const char *text) {
    PgnReader *r = pgn_reader_from_string(text, "test");
    cr_assert_not_null(r);
    PgnGame *g = pgn_game_new();
    cr_assert_not_null(g);
    PgnError e;
    int rc = pgn_reader_next(r, g, &e);
    cr_assert_eq(rc, 1, "%s:%d:%d: %s", e.file, e.line, e.column, e.message);
    pgn_reader_close(r);
    return g;
}

#endif
