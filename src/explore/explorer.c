// SPDX-License-Identifier: GPL-3.0-or-later
// The opening explorer: aggregates the indexes and the book for a position
// and formats the table.
#include "src/explore/explorer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/movegen.h"

// Most games first; among moves no game played, the heaviest book move.
static int cmp_rows(const void *pa, const void *pb) {
    const ExplorerRow *a = pa, *b = pb;
    if (a->games != b->games)
        return a->games > b->games ? -1 : 1;
    if (a->book_weight != b->book_weight)
        return a->book_weight > b->book_weight ? -1 : 1;
    return strcmp(a->san, b->san);
}

void explorer_collect(Explorer *e, const Board *b, ExploreIndex *const *indexes, int n,
                      const Book *book) {
    memset(e, 0, sizeof *e);
    IndexMove played[MAX_MOVES];
    int count = 0;
    for (int i = 0; i < n; i++)
        if (indexes[i])
            count = index_lookup(indexes[i], b, played, count, MAX_MOVES);
    BookMove bm[MAX_MOVES];
    int nbook = book ? book_moves(book, b, bm, MAX_MOVES) : 0;
    MoveList legal;
    movegen_legal(b, &legal);
    for (int i = 0; i < legal.count; i++) {
        Move m = legal.moves[i];
        ExplorerRow row = { .move = m };
        uint16_t code = book_encode_move(b, m);
        for (int k = 0; k < count; k++) {
            if (played[k].code != code)
                continue;
            row.games = played[k].games;
            row.white = played[k].white;
            row.draws = played[k].draws;
            row.black = played[k].black;
            row.rating_sum = played[k].rating_sum;
            row.rated = played[k].rated;
        }
        for (int k = 0; k < nbook; k++)
            if (bm[k].move == m)
                row.book_weight = bm[k].weight;
        if (row.games == 0 && row.book_weight == 0)
            continue;
        notation_to_san(b, m, row.san);
        e->games += row.games;
        e->book_total += row.book_weight;
        e->rows[e->count++] = row;
    }
    qsort(e->rows, (size_t)e->count, sizeof e->rows[0], cmp_rows);
}

static int percent(long long part, long long whole) {
    return whole > 0 ? (int)((200 * part + whole) / (2 * whole)) : 0;
}

void explorer_format(const Explorer *e, const char *title, const char *sources, char *buf,
                     size_t bufsz) {
    size_t len = 0;
#define OUT(...)                                                                                   \
    do {                                                                                           \
        if (len < bufsz) {                                                                         \
            int n_ = snprintf(buf + len, bufsz - len, __VA_ARGS__);                                \
            len += n_ > 0 ? (size_t)n_ : 0;                                                        \
        }                                                                                          \
    } while (0)
    if (bufsz)
        buf[0] = '\0';
    OUT("%s\n", title);
    OUT("%s\n", sources);
    if (e->count == 0) {
        OUT("No game reached this position, and it is not in the book.\n");
        return;
    }
    OUT("%-8s %8s %6s %6s %6s %7s %6s\n", "move", "games", "white", "draws", "black", "rating",
        "book");
    for (int i = 0; i < e->count; i++) {
        const ExplorerRow *r = &e->rows[i];
        long long decided = r->white + r->draws + r->black;
        char games[24] = "-", w[8] = "-", d[8] = "-", bl[8] = "-", rating[12] = "-", book[8] = "-";
        if (r->games) {
            snprintf(games, sizeof games, "%lld", r->games);
        }
        if (decided) {
            snprintf(w, sizeof w, "%d%%", percent(r->white, decided));
            snprintf(d, sizeof d, "%d%%", percent(r->draws, decided));
            snprintf(bl, sizeof bl, "%d%%", percent(r->black, decided));
        }
        if (r->rated)
            snprintf(rating, sizeof rating, "%lld", (r->rating_sum + r->rated / 2) / r->rated);
        if (r->book_weight) {
            int p = percent((long long)r->book_weight, (long long)e->book_total);
            snprintf(book, sizeof book, p ? "%d%%" : "<1%%", p);
        }
        OUT("%-8s %8s %6s %6s %6s %7s %6s\n", r->san, games, w, d, bl, rating, book);
    }
    OUT("Type a move (or click its line) to play it.\n");
#undef OUT
}

int explorer_row_at(const Explorer *e, const char *line) {
    while (*line == ' ')
        line++;
    for (int i = 0; i < e->count; i++) {
        size_t n = strlen(e->rows[i].san);
        if (strncmp(line, e->rows[i].san, n) == 0 && line[n] == ' ')
            return i;
    }
    return -1;
}
