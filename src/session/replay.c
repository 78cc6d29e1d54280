// SPDX-License-Identifier: GPL-3.0-or-later
// The loaded game tree and the line through it being shown.
#include "src/session/replay.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/util/text.h"

struct Replay {
    PgnGame *game;
    char path[PATH_MAX_LEN];
    int number;
    const PgnNode *line[GAME_MAX_PLIES];
    int length, cursor;
    int start_fullmove; // the numbering of the game's first move
    Color start_side;
};

// Reads the numbering of the first move from the game's start position.
static void set_start(Replay *r) {
    r->start_fullmove = 1;
    r->start_side = WHITE;
    Board b;
    if (board_set_fen(&b, pgn_start_fen(r->game), NULL, 0)) {
        r->start_fullmove = b.fullmove;
        r->start_side = b.side;
    }
}

// The move that continues the line after ply `ply` plies: the first move of
// the game, or the next move of the node before.
static const PgnNode *continuation(const Replay *r, int ply) {
    return ply == 0 ? pgn_first(r->game) : r->line[ply - 1]->next;
}

// Keeps line[0..keep) and follows the continuations from there to the end.
static void extend(Replay *r, int keep) {
    r->length = keep;
    for (const PgnNode *n = continuation(r, keep); n && r->length < GAME_MAX_PLIES; n = n->next)
        r->line[r->length++] = n;
    if (r->cursor > r->length)
        r->cursor = r->length;
}

Replay *replay_open(const char *path, int number, char *err, size_t errsz) {
    PgnReader *reader = pgn_reader_open(path, err, errsz);
    if (!reader)
        return NULL;
    Replay *r = calloc(1, sizeof *r);
    PgnGame *g = pgn_game_new();
    if (!r || !g) {
        snprintf(err, errsz, "out of memory");
        free(r);
        pgn_game_free(g);
        pgn_reader_close(reader);
        return NULL;
    }
    PgnError perr;
    int got = 0;
    for (int i = 1; i <= number; i++) {
        got = pgn_reader_next(reader, g, &perr);
        if (got == 0)
            break; // a broken game before this one is skipped: the reader goes on after it
    }
    pgn_reader_close(reader);
    if (got <= 0) {
        if (got == 0)
            snprintf(err, errsz, "%s has no game %d", path, number);
        else
            snprintf(err, errsz, "%s:%d:%d: %s", perr.file, perr.line, perr.column, perr.message);
        free(r);
        pgn_game_free(g);
        return NULL;
    }
    r->game = g;
    snprintf(r->path, sizeof r->path, "%s", path);
    r->number = number;
    set_start(r);
    extend(r, 0);
    r->cursor = r->length;
    return r;
}

Replay *replay_adopt(PgnGame *g, const char *name) {
    Replay *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->game = g;
    const PgnSource *src = pgn_source(g);
    snprintf(r->path, sizeof r->path, "%s", src->path[0] ? src->path : name);
    r->number = src->path[0] ? src->number : 1;
    set_start(r);
    extend(r, 0);
    r->cursor = r->length;
    return r;
}

void replay_free(Replay *r) {
    if (!r)
        return;
    pgn_game_free(r->game);
    free(r);
}

PgnGame *replay_release(Replay *r) {
    PgnGame *g = r ? r->game : NULL;
    free(r);
    return g;
}

PgnGame *replay_game(Replay *r) { return r->game; }
const char *replay_path(const Replay *r) { return r->path; }
int replay_number(const Replay *r) { return r->number; }
int replay_line_length(const Replay *r) { return r->length; }
int replay_cursor(const Replay *r) { return r->cursor; }

const PgnNode *replay_line_node(const Replay *r, int ply) {
    return ply >= 0 && ply < r->length ? r->line[ply] : NULL;
}

bool replay_set_cursor(Replay *r, int ply) {
    if (ply < 0 || ply > r->length)
        return false;
    r->cursor = ply;
    return true;
}

int replay_variation_count(const Replay *r) {
    if (r->cursor >= r->length)
        return 0;
    int n = 0;
    for (const PgnNode *v = r->line[r->cursor]->variation; v; v = v->next_variation)
        n++;
    return n;
}

bool replay_enter_variation(Replay *r, int n) {
    if (r->cursor >= r->length || n < 1)
        return false;
    const PgnNode *v = r->line[r->cursor]->variation;
    for (int i = 1; v && i < n; i++)
        v = v->next_variation;
    if (!v)
        return false;
    r->line[r->cursor] = v;
    extend(r, r->cursor + 1);
    r->cursor++;
    return true;
}

bool replay_leave_variation(Replay *r) {
    // The deepest ply of the line that is not the plain continuation of the
    // ply before it is where the current variation starts.
    for (int ply = (r->cursor < r->length ? r->cursor : r->length - 1); ply >= 0; ply--) {
        const PgnNode *main = continuation(r, ply);
        if (ply < r->length && r->line[ply] != main) {
            r->line[ply] = main;
            extend(r, ply + 1);
            r->cursor = ply;
            return true;
        }
    }
    return false;
}

void replay_move_number(const Replay *r, int ply, int *fullmove, Color *side) {
    int t = (int)r->start_side + ply;
    *fullmove = r->start_fullmove + t / 2;
    *side = (Color)(t % 2);
}

int replay_segment_start(const Replay *r) {
    for (int ply = r->cursor; ply > 0; ply--)
        if (r->line[ply - 1]->move == MOVE_NULL)
            return ply;
    return 0;
}

bool replay_position(const Replay *r, int ply, Board *out) {
    const char *fen = pgn_start_fen(r->game);
    if (ply < 0 || ply > r->length || !board_set_fen(out, fen ? fen : BOARD_START_FEN, NULL, 0))
        return false;
    for (int i = 0; i < ply; i++)
        pgn_node_play(out, r->line[i]);
    return true;
}

bool replay_follow(Replay *r, const Move *moves, int n) {
    int base = replay_segment_start(r);
    Board board, *b = &board;
    if (!replay_position(r, base, b))
        return false;
    const PgnNode *after = base > 0 ? r->line[base - 1] : NULL;
    int end = base;
    for (int i = 0; i < n && end < GAME_MAX_PLIES; i++) {
        const PgnNode *node = pgn_add_move_after(r->game, after, moves[i], b);
        if (!node)
            return false;
        r->line[end++] = node;
        after = node;
        board_play(b, moves[i]);
    }
    extend(r, end);
    r->cursor = end;
    return true;
}

// Searches the line starting at n (at ply `at`) and its variations for
// target, writing the path into line; its length in *len when found.
static bool path_to(const PgnNode *n, const PgnNode *target, const PgnNode **line, int at,
                    int *len) {
    for (; n && at < GAME_MAX_PLIES; n = n->next, at++) {
        for (const PgnNode *v = n->variation; v; v = v->next_variation)
            if (path_to(v, target, line, at, len))
                return true;
        line[at] = n;
        if (n == target) {
            *len = at + 1;
            return true;
        }
    }
    return false;
}

bool replay_goto_node(Replay *r, const PgnNode *n) {
    const PgnNode *path[GAME_MAX_PLIES];
    int len = 0;
    if (!n || !path_to(pgn_first(r->game), n, path, 0, &len))
        return false;
    memcpy(r->line, path, (size_t)len * sizeof *path);
    extend(r, len);
    r->cursor = len;
    return true;
}

void replay_settings(const Replay *r, const GameSettings *base, GameSettings *out) {
    *out = *base;
    out->players[WHITE] = out->players[BLACK] = PLAYER_HUMAN;
    out->tc.untimed = true;
    out->tc.count = 0;
    const char *fen = pgn_start_fen(r->game);
    snprintf(out->start_fen, sizeof out->start_fen, "%s",
             fen && strcmp(fen, BOARD_START_FEN) != 0 ? fen : "");
    // After a null move the game on the board starts from the position it
    // left (a game cannot hold a null move).
    int seg = replay_segment_start(r);
    Board b;
    if (seg > 0 && replay_position(r, seg, &b))
        board_to_fen(&b, out->start_fen, sizeof out->start_fen);
    for (Color c = WHITE; c <= BLACK; c++) {
        const char *name = pgn_tag(r->game, c == WHITE ? "White" : "Black");
        text_copy(out->names[c], sizeof out->names[c], name ? name : "");
    }
}

// Case-insensitive substring test.
static bool contains(const char *haystack, const char *needle) {
    if (!haystack)
        return false;
    size_t n = strlen(needle);
    for (const char *h = haystack; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

static void copy_tag(const PgnGame *g, const char *name, char *out, size_t outsz) {
    const char *v = pgn_tag(g, name);
    text_copy(out, outsz, v ? v : "?");
}

int replay_list(const char *path, const char *filter, GameListEntry *out, int max, int *matches,
                int *total, char *err, size_t errsz) {
    PgnReader *reader = pgn_reader_open(path, err, errsz);
    if (!reader)
        return -1;
    PgnGame *g = pgn_game_new();
    if (!g) {
        pgn_reader_close(reader);
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int n = 0, found = 0, number = 0, got;
    PgnError perr;
    while ((got = pgn_reader_next(reader, g, &perr)) != 0) {
        number++;
        if (filter && *filter &&
            !(contains(pgn_tag(g, "White"), filter) || contains(pgn_tag(g, "Black"), filter) ||
              contains(pgn_tag(g, "Event"), filter)))
            continue;
        found++;
        if (n >= max)
            continue;
        GameListEntry *e = &out[n++];
        e->number = number;
        copy_tag(g, "White", e->white, sizeof e->white);
        copy_tag(g, "Black", e->black, sizeof e->black);
        copy_tag(g, "Event", e->event, sizeof e->event);
        copy_tag(g, "Date", e->date, sizeof e->date);
        copy_tag(g, "ECO", e->eco, sizeof e->eco);
        snprintf(e->result, sizeof e->result, "%s", got < 0 ? "?" : pgn_result(g));
    }
    pgn_game_free(g);
    pgn_reader_close(reader);
    *matches = found;
    *total = number;
    return n;
}
