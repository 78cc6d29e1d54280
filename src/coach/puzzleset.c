// SPDX-License-Identifier: GPL-3.0-or-later
// A puzzle set: reading and writing its text file (see puzzleset.h).
#include "src/coach/puzzleset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/notation.h"
#include "src/util/paths.h"

enum { SET_FIELDS = 6, SET_FILE_MAX = 16 << 20, SET_LINE_MAX = 1024 };

void puzzleset_init(PuzzleSet *s) {
    memset(s, 0, sizeof *s);
}

void puzzleset_clear(PuzzleSet *s) {
    free(s->items);
    puzzleset_init(s);
}

bool puzzleset_add(PuzzleSet *s, const Puzzle *p, ThemeInfo theme) {
    if (s->count == s->cap) {
        int cap = s->cap ? s->cap * 2 : 256;
        SetPuzzle *items = realloc(s->items, (size_t)cap * sizeof *items);
        if (!items)
            return false;
        s->items = items;
        s->cap = cap;
    }
    s->items[s->count++] = (SetPuzzle){ .puzzle = *p, .theme = theme };
    return true;
}

// UCI moves separated by spaces, each legal in turn from b.
static bool moves_from_text(const char *text, Board b, Move *out, int max, int *n) {
    char buf[128];
    if (snprintf(buf, sizeof buf, "%s", text) >= (int)sizeof buf)
        return false;
    *n = 0;
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (*n >= max || notation_parse_uci(&b, w, &out[*n]) != NOTATION_OK)
            return false;
        board_play(&b, out[(*n)++]);
    }
    return *n > 0;
}

static bool parse_rating(const char *text, int *out) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < PUZZLE_RATING_MIN || v > PUZZLE_RATING_MAX)
        return false;
    *out = (int)v;
    return true;
}

// One line (changed in place) into out; false with why.
static bool parse_line(char *line, SetPuzzle *out, const char **why) {
    char *f[SET_FIELDS + 1];
    int n = 0;
    for (char *p = line; n <= SET_FIELDS;) {
        f[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            break;
        *tab = '\0';
        p = tab + 1;
    }
    memset(out, 0, sizeof *out);
    Puzzle *p = &out->puzzle;
    Board b;
    int played_n;
    if (n != SET_FIELDS)
        *why = "expected 6 tab-separated fields (FEN SOLUTION PLAYED RATING THEME SOURCE)";
    else if (strlen(f[0]) >= sizeof p->fen || !board_set_fen(&b, f[0], NULL, 0))
        *why = "bad FEN";
    else if (!moves_from_text(f[1], b, p->solution, PUZZLE_PLIES_MAX, &p->length) ||
             p->length % 2 == 0)
        *why = "bad solution (legal UCI moves, an odd number)";
    else if (!moves_from_text(f[2], b, &p->played, 1, &played_n))
        *why = "bad played move";
    else if (!parse_rating(f[3], &p->rating))
        *why = "bad rating";
    else if (!theme_parse(f[4], &out->theme))
        *why = "unknown theme";
    else {
        snprintf(p->fen, sizeof p->fen, "%s", f[0]);
        snprintf(p->source, sizeof p->source, "%s", f[5]);
        return true;
    }
    return false;
}

bool puzzleset_parse(PuzzleSet *s, const char *text, const char *name, char *err, size_t errsz) {
    int number = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        number++;
        char line[SET_LINE_MAX];
        if (len >= sizeof line) {
            snprintf(err, errsz, "%s:%d: line too long", name, number);
            return false;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        if (len && line[len - 1] == '\r')
            line[len - 1] = '\0';
        p = nl ? nl + 1 : p + len;
        if (!line[0] || line[0] == '#')
            continue;
        SetPuzzle sp;
        const char *why = "";
        if (!parse_line(line, &sp, &why)) {
            snprintf(err, errsz, "%s:%d: %s", name, number, why);
            return false;
        }
        if (!puzzleset_add(s, &sp.puzzle, sp.theme)) {
            snprintf(err, errsz, "%s: out of memory", name);
            return false;
        }
    }
    return true;
}

bool puzzleset_load(PuzzleSet *s, const char *path, char *err, size_t errsz) {
    size_t len;
    char *text = paths_read_file(path, SET_FILE_MAX, &len, err, errsz);
    if (!text)
        return false;
    bool ok = puzzleset_parse(s, text, path, err, errsz);
    free(text);
    return ok;
}

bool puzzleset_format_line(const SetPuzzle *sp, char *buf, size_t bufsz) {
    const Puzzle *p = &sp->puzzle;
    char moves[PUZZLE_PLIES_MAX * MOVE_TEXT_MAX] = "", uci[MOVE_TEXT_MAX], played[MOVE_TEXT_MAX];
    for (int k = 0; k < p->length; k++) {
        notation_to_uci(p->solution[k], uci);
        strcat(moves, k ? " " : "");
        strcat(moves, uci);
    }
    notation_to_uci(p->played, played);
    char theme[THEME_TEXT_MAX], source[PUZZLE_SOURCE_MAX];
    theme_token(sp->theme, theme, sizeof theme);
    snprintf(source, sizeof source, "%s", p->source);
    for (char *c = source; *c; c++)
        if (*c == '\t' || *c == '\n' || *c == '\r')
            *c = ' ';
    int n = snprintf(buf, bufsz, "%s\t%s\t%s\t%d\t%s\t%s\n", p->fen, moves, played, p->rating,
                     theme, source);
    return n > 0 && (size_t)n < bufsz;
}

char *puzzleset_format(const PuzzleSet *s, const char *header) {
    size_t cap = strlen(header) + 2 + (size_t)s->count * SET_LINE_MAX, len = 0;
    char *out = malloc(cap);
    if (!out)
        return NULL;
    len = (size_t)snprintf(out, cap, "%s", header);
    for (int i = 0; i < s->count; i++) {
        if (!puzzleset_format_line(&s->items[i], out + len, cap - len)) {
            free(out);
            return NULL;
        }
        len += strlen(out + len);
    }
    return out;
}

void puzzleset_theme_counts(const PuzzleSet *s, int counts[THEME_NB],
                            int mates[THEME_MATE_MAX + 1]) {
    memset(counts, 0, THEME_NB * sizeof *counts);
    memset(mates, 0, (THEME_MATE_MAX + 1) * sizeof *mates);
    for (int i = 0; i < s->count; i++) {
        ThemeInfo t = s->items[i].theme;
        counts[t.theme]++;
        if (t.theme == THEME_MATE)
            mates[t.mate_in]++;
    }
}
