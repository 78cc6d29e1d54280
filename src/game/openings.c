// SPDX-License-Identifier: GPL-3.0-or-later
// Opening names: every line of the openings file is played from the start position, and the
// key of its final position maps to its "ECO Name" in a sorted array searched by bisection.
// The file is read the first time a name is asked for, not when the program starts.
#include "src/game/openings.h"

#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fen.h"
#include "src/game/openline.h"
#include "src/util/paths.h"

// The lichess data is about 400 KB; anything far larger is not an openings file.
enum { OPENINGS_FILE_MAX = 16 << 20, FIRST_ERROR_MAX = 256 };

typedef struct Entry {
    Key key;
    uint32_t off;  // "ECO Name" in the arena
    uint32_t line; // order in the file: the first line reaching a position wins
    uint8_t eco_len;
} Entry;

struct Openings {
    // Loading state: the file is parsed by the first query (under lock), so
    // queries on a const Openings may fill the table in.
    pthread_mutex_t lock;
    bool loaded;
    char *path;
    Key start_key; // the start position, never named: asking for it loads nothing

    Entry *entries;
    int count, cap;
    char *arena;
    size_t arena_len, arena_cap;
    int errors;
    char first_error[FIRST_ERROR_MAX];
};

static bool reserve_entry(Openings *o) {
    if (o->count < o->cap)
        return true;
    int cap = o->cap ? o->cap * 2 : 4096;
    Entry *e = realloc(o->entries, (size_t)cap * sizeof *e);
    if (!e)
        return false;
    o->entries = e;
    o->cap = cap;
    return true;
}

// Appends eco, a space when both parts are there, and name, NUL-terminated; offsets rather
// than pointers keep the entries valid across reallocations.
static bool arena_add(Openings *o, const char *eco, size_t eco_len, const char *name,
                      size_t name_len, uint32_t *off) {
    size_t need = eco_len + 1 + name_len + 1;
    if (o->arena_len + need > UINT32_MAX)
        return false;
    if (o->arena_len + need > o->arena_cap) {
        size_t cap = o->arena_cap ? o->arena_cap * 2 : 64 * 1024;
        while (cap < o->arena_len + need)
            cap *= 2;
        char *a = realloc(o->arena, cap);
        if (!a)
            return false;
        o->arena = a;
        o->arena_cap = cap;
    }
    char *p = o->arena + o->arena_len;
    *off = (uint32_t)o->arena_len;
    memcpy(p, eco, eco_len);
    p += eco_len;
    if (eco_len && name_len)
        *p++ = ' ';
    memcpy(p, name, name_len);
    p[name_len] = '\0';
    o->arena_len = (size_t)(p + name_len + 1 - o->arena);
    return true;
}

// Counts a skipped line and keeps a message for the first one. move is NULL when the line
// itself is at fault rather than one of its moves.
static void line_error(Openings *o, long lineno, int ply, const char *move, const char *why) {
    if (o->errors++ > 0)
        return;
    if (move)
        snprintf(o->first_error, sizeof o->first_error, "line %ld: move %d '%s': %s", lineno,
                 ply / 2 + 1, move, why);
    else
        snprintf(o->first_error, sizeof o->first_error, "line %ld: %s", lineno, why);
}

static bool is_eco(const char *s, size_t len) {
    return len == 3 && s[0] >= 'A' && s[0] <= 'E' && isdigit((unsigned char)s[1]) &&
           isdigit((unsigned char)s[2]);
}

static void on_error(void *ctx, long lineno, int ply, const char *move, const char *why) {
    line_error(ctx, lineno, ply, move, why);
}

// A line with moves: the position it reaches gets its "ECO Name". False only
// when out of memory.
static bool on_line(void *ctx, const Board *after, const char *comment, long lineno) {
    Openings *o = ctx;
    // "ECO Name", trimmed; the code is optional.
    const char *c = comment ? comment : "";
    while (isspace((unsigned char)*c))
        c++;
    size_t len = strlen(c);
    while (len && isspace((unsigned char)c[len - 1]))
        len--;
    size_t word = 0;
    while (word < len && !isspace((unsigned char)c[word]))
        word++;
    size_t eco_len = is_eco(c, word) ? word : 0;
    const char *name = c + eco_len;
    size_t name_len = len - eco_len;
    while (name_len && isspace((unsigned char)*name)) {
        name++;
        name_len--;
    }
    if (!name_len) {
        line_error(o, lineno, 0, NULL, "moves without a \"# ECO Name\" comment");
        return true;
    }

    if (!reserve_entry(o))
        return false;
    Entry *e = &o->entries[o->count];
    if (!arena_add(o, c, eco_len, name, name_len, &e->off))
        return false;
    e->key = after->key;
    e->line = (uint32_t)lineno;
    e->eco_len = (uint8_t)eco_len;
    o->count++;
    return true;
}

static int cmp_entry(const void *pa, const void *pb) {
    const Entry *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

// Sorts by key and keeps the first-listed line of each position.
static void sort_entries(Openings *o) {
    if (o->count == 0)
        return; // no array at all: qsort must not see NULL
    qsort(o->entries, (size_t)o->count, sizeof *o->entries, cmp_entry);
    int n = 0;
    for (int i = 0; i < o->count; i++) {
        if (n == 0 || o->entries[n - 1].key != o->entries[i].key)
            o->entries[n++] = o->entries[i];
    }
    o->count = n;
}

static bool parse_text(Openings *o, char *text) {
    OpenLineVisitor v = { .line = on_line, .error = on_error, .ctx = o };
    return openline_read(text, &v);
}

Openings *openings_open(const char *path) {
    board_init_tables();
    Openings *o = calloc(1, sizeof *o);
    Board *start = malloc(sizeof *start);
    if (!o || !start || !(o->path = strdup(path)) || pthread_mutex_init(&o->lock, NULL) != 0) {
        if (o)
            free(o->path);
        free(o);
        free(start);
        return NULL;
    }
    board_set_start(start);
    o->start_key = start->key;
    free(start);
    return o;
}

// Reads and parses the file once. False with err set when it cannot be read or memory runs
// out; the table is then left empty.
static bool load_table(Openings *o, char *err, size_t errsz) {
    o->loaded = true;
    char *text = paths_read_file(o->path, OPENINGS_FILE_MAX, NULL, err, errsz);
    if (!text)
        return false;
    bool ok = parse_text(o, text);
    free(text);
    if (!ok) {
        free(o->entries);
        free(o->arena);
        o->entries = NULL;
        o->arena = NULL;
        o->count = 0;
        if (err && errsz)
            snprintf(err, errsz, "out of memory reading %s", o->path);
        return false;
    }
    sort_entries(o);
    return true;
}

// The table, loaded on first use. The object is not const (openings_open made it on the
// heap); only the lazily filled cache behind the const pointer changes.
static const Openings *ensure_loaded(const Openings *co) {
    Openings *o = (Openings *)co;
    pthread_mutex_lock(&o->lock);
    if (!o->loaded)
        load_table(o, NULL, 0);
    pthread_mutex_unlock(&o->lock);
    return o;
}

Openings *openings_load(const char *path, char *err, size_t errsz) {
    Openings *o = openings_open(path);
    if (!o) {
        if (err && errsz)
            snprintf(err, errsz, "out of memory reading %s", path);
        return NULL;
    }
    if (!load_table(o, err, errsz)) {
        openings_free(o);
        return NULL;
    }
    return o;
}

void openings_free(Openings *o) {
    if (!o)
        return;
    pthread_mutex_destroy(&o->lock);
    free(o->entries);
    free(o->arena);
    free(o->path);
    free(o);
}

int openings_count(const Openings *o) {
    return o ? ensure_loaded(o)->count : 0;
}

int openings_errors(const Openings *o) {
    return o ? ensure_loaded(o)->errors : 0;
}

const char *openings_first_error(const Openings *o) {
    return o ? ensure_loaded(o)->first_error : "";
}

static const Entry *find(const Openings *o, Key key) {
    int lo = 0, hi = o->count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (o->entries[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < o->count && o->entries[lo].key == key ? &o->entries[lo] : NULL;
}

static void copy_out(char *buf, size_t bufsz, const char *s, size_t len) {
    if (buf && bufsz)
        snprintf(buf, bufsz, "%.*s", (int)len, s);
}

const char *openings_lookup(const Openings *o, const Board *b, const Key *keys, int nkeys,
                            char *eco, size_t ecosz, char *name, size_t namesz) {
    copy_out(eco, ecosz, "", 0);
    copy_out(name, namesz, "", 0);
    if (!o || !b)
        return NULL;
    // Every named line has moves, so the start position itself never has a name: the
    // first screen of a new game need not read the file.
    if (nkeys == 0 && b->key == o->start_key)
        return NULL;
    o = ensure_loaded(o);
    const Entry *e = find(o, b->key);
    for (int i = nkeys - 1; !e && i >= 0; i--)
        e = find(o, keys[i]);
    if (!e)
        return NULL;
    const char *s = o->arena + e->off;
    const char *n = s + e->eco_len + (e->eco_len ? 1 : 0);
    copy_out(eco, ecosz, s, e->eco_len);
    copy_out(name, namesz, n, strlen(n));
    return s;
}

bool openings_find_path(const char *argv0, char *buf, size_t bufsz) {
    return paths_data_file("openings.txt", "PATZER_OPENINGS", argv0, buf, bufsz);
}
