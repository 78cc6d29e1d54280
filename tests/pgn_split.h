// SPDX-License-Identifier: GPL-3.0-or-later
// A PGN file as its games' bytes: each game's bytes by the reader's spans
// (pgn_reader_span: from the line it starts on to the line the next starts
// on) and the bytes no game claims, in order. Shared by the suites that check
// that a write changed only the game it meant to (test_random_session,
// test_roundtrip). Header-only, static inline; failures are assertions.
#ifndef TESTS_PGN_SPLIT_H
#define TESTS_PGN_SPLIT_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "src/pgn/pgn.h"
#include "src/util/paths.h"

typedef struct Split {
    bool exists;
    int count, max;
    char **game;  // game i's bytes, NULL for a game that did not read
    size_t *len;
    char *rest;   // the bytes no game claims
    size_t rest_len;
} Split;

static inline void split_free(Split *sp) {
    for (int i = 0; i < sp->count; i++)
        free(sp->game[i]);
    free(sp->game);
    free(sp->len);
    free(sp->rest);
    memset(sp, 0, sizeof *sp);
}

// Reads the file at path into sp (sp->exists false when there is none);
// `why` names the run in a failure's message.
static inline void split_read(const char *path, Split *sp, const char *why) {
    memset(sp, 0, sizeof *sp);
    char err[512];
    size_t size;
    char *text = paths_read_file(path, 1 << 30, &size, err, sizeof err);
    if (!text)
        return; // no file (yet)
    sp->exists = true;
    sp->rest = malloc(size + 1);
    cr_assert_not_null(sp->rest);
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    cr_assert_not_null(r, "%s: %s", err, why);
    PgnGame *g = pgn_game_new();
    cr_assert_not_null(g);
    size_t at = 0; // the bytes before here are claimed or copied to rest
    int rc;
    while ((rc = pgn_reader_next(r, g, NULL)) != 0) {
        if (sp->count == sp->max) {
            sp->max = sp->max ? 2 * sp->max : 64;
            sp->game = realloc(sp->game, (size_t)sp->max * sizeof *sp->game);
            sp->len = realloc(sp->len, (size_t)sp->max * sizeof *sp->len);
            cr_assert(sp->game && sp->len);
        }
        int i = sp->count++;
        sp->game[i] = NULL;
        sp->len[i] = 0;
        if (rc < 0)
            continue; // a broken game: its bytes go with the rest
        PgnSpan span;
        pgn_reader_span(r, &span);
        long long start = span.start, end = span.end;
        cr_assert(start >= (long long)at && end >= start && end <= (long long)size,
                  "game %d of %s spans [%lld, %lld) in %zu bytes: %s", i + 1, path, start, end,
                  size, why);
        memcpy(sp->rest + sp->rest_len, text + at, (size_t)start - at);
        sp->rest_len += (size_t)start - at;
        sp->len[i] = (size_t)(end - start);
        sp->game[i] = malloc(sp->len[i] + 1);
        cr_assert_not_null(sp->game[i]);
        memcpy(sp->game[i], text + start, sp->len[i]);
        sp->game[i][sp->len[i]] = '\0'; // read as a string (strspn) by the checks
        at = (size_t)end;
    }
    memcpy(sp->rest + sp->rest_len, text + at, size - at);
    sp->rest_len += size - at;
    pgn_game_free(g);
    pgn_reader_close(r);
    free(text);
}

// Whether game i is the same bytes in a and b (both broken counts as same).
static inline bool split_same(const Split *a, const Split *b, int i) {
    if (!a->game[i] || !b->game[i])
        return a->game[i] == b->game[i];
    return a->len[i] == b->len[i] && memcmp(a->game[i], b->game[i], a->len[i]) == 0;
}

#endif
