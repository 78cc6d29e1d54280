// SPDX-License-Identifier: GPL-3.0-or-later
// The game list (see gamelist.h): the tag lexer, the distinct texts, the
// filter and the row layout.
#include "src/pgn/gamelist.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <wchar.h>

#include "src/pgn/pgn.h"
#include "src/util/paths.h"
#include "src/util/text.h"

enum {
    LINE_MAX_BYTES = 64 << 20, // the reader's own bound on a line
    VALUE_MAX = 256,           // bytes of a tag value kept (cut between characters)
    PROGRESS_GAMES = 4096,     // games between two progress reports
    GAP = 2,                   // blanks between two columns
    NAME_MIN = 6,              // a name or event column is never narrower
};

typedef enum { TAG_WHITE, TAG_BLACK, TAG_EVENT, TAG_DATE, TAG_ECO, TAG_OPENING, TAG_NB } Field;

// The result column: what the readers say, as a small code.
typedef enum { RES_NONE, RES_WHITE, RES_BLACK, RES_DRAW, RES_BROKEN } ResultCode;
static const char *const result_text[] = {"*", "1-0", "0-1", "1/2-1/2", "?"};

typedef struct Entry {
    uint32_t text[TAG_NB]; // ids of the distinct texts
    uint8_t result;        // ResultCode
    int line;              // where the game starts: its first line and byte
    long long start;
} Entry;

struct GameList {
    char path[PATH_MAX_LEN];
    struct stat st; // the file as it was read

    Entry *games;
    int count, cap;

    // The distinct texts: id -> offset in pool (id 0 is ""), and a hash
    // table of ids (id + 1; 0 is an empty slot).
    char *pool;
    size_t pool_len, pool_cap;
    uint32_t *offs;
    uint32_t texts, offs_cap;
    uint32_t *slots;
    uint32_t slot_mask;

    // The rows shown: game indexes, and the widest text of each variable
    // column among them (display columns).
    uint32_t *rows;
    int nrows;
    int widest[TAG_NB];
    bool all; // no filter: row i is game i
};

// ----------------------------------------------------------- distinct texts

static uint32_t hash_text(const char *s, size_t n) {
    uint32_t h = 2166136261u; // FNV-1a: short texts, few collisions
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static bool grow_slots(GameList *l) {
    uint32_t size = l->slots ? (l->slot_mask + 1) * 2 : 1024;
    uint32_t *slots = calloc(size, sizeof *slots);
    if (!slots)
        return false;
    for (uint32_t id = 0; id < l->texts; id++) {
        const char *s = l->pool + l->offs[id];
        uint32_t h = hash_text(s, strlen(s)) & (size - 1);
        while (slots[h])
            h = (h + 1) & (size - 1);
        slots[h] = id + 1;
    }
    free(l->slots);
    l->slots = slots;
    l->slot_mask = size - 1;
    return true;
}

// The id of the text s (n bytes), added when new. UINT32_MAX when out of memory.
static uint32_t intern(GameList *l, const char *s, size_t n) {
    if (!l->slots || l->texts * 2 >= l->slot_mask + 1)
        if (!grow_slots(l))
            return UINT32_MAX;
    uint32_t h = hash_text(s, n) & l->slot_mask;
    for (; l->slots[h]; h = (h + 1) & l->slot_mask) {
        const char *t = l->pool + l->offs[l->slots[h] - 1];
        if (strncmp(t, s, n) == 0 && t[n] == '\0')
            return l->slots[h] - 1;
    }
    if (l->texts == l->offs_cap) {
        uint32_t cap = l->offs_cap ? l->offs_cap * 2 : 1024;
        uint32_t *offs = realloc(l->offs, cap * sizeof *offs);
        if (!offs)
            return UINT32_MAX;
        l->offs = offs;
        l->offs_cap = cap;
    }
    if (l->pool_len + n + 1 > l->pool_cap) {
        size_t cap = l->pool_cap ? l->pool_cap * 2 : 64 * 1024;
        while (cap < l->pool_len + n + 1)
            cap *= 2;
        char *pool = realloc(l->pool, cap);
        if (!pool)
            return UINT32_MAX;
        l->pool = pool;
        l->pool_cap = cap;
    }
    memcpy(l->pool + l->pool_len, s, n);
    l->pool[l->pool_len + n] = '\0';
    l->offs[l->texts] = (uint32_t)l->pool_len;
    l->pool_len += n + 1;
    l->slots[h] = l->texts + 1;
    return l->texts++;
}

static const char *text_of(const GameList *l, uint32_t id) {
    return l->pool + l->offs[id];
}

// ------------------------------------------------------------ a game's tags

// The texts of one game as the lexer or the builder found them, and its
// result as the reader gives it.
typedef struct GameTags {
    char value[TAG_NB][VALUE_MAX];
    char utc_date[VALUE_MAX];
    char result[8];
} GameTags;

static const char *const tag_names[TAG_NB] = {"White", "Black", "Event", "Date", "ECO", "Opening"};

// The reader's visitor: keeps value under name when it is one of the tags
// listed. Values are cut between UTF-8 characters: a list shows no more
// than that.
static const char *keep_tag(void *ctx, const char *name, const char *value) {
    GameTags *t = ctx;
    char *to = NULL;
    for (int f = 0; f < TAG_NB && !to; f++)
        if (!strcmp(tag_names[f], name))
            to = t->value[f];
    if (!to && !strcmp(name, "UTCDate"))
        to = t->utc_date;
    if (to)
        text_copy(to, VALUE_MAX, value);
    return NULL;
}

// And the result, at the end of a game read without error.
static void keep_result(void *ctx, const char *result, const Board *final) {
    (void) final;
    GameTags *t = ctx;
    snprintf(t->result, sizeof t->result, "%s", result);
}

// "2024.05.??" -> "2024.05", "????.??.??" -> "": the parts of a date that are known.
static void known_date(const char *date, char *out, size_t outsz) {
    text_copy(out, outsz, date);
    size_t n = strlen(out);
    while (n > 0 && (out[n - 1] == '?' || out[n - 1] == '.'))
        n--;
    out[n] = '\0';
}

// Adds a game to the list. False when out of memory.
static bool add_game(GameList *l, GameTags *t, ResultCode result) {
    if (l->count == l->cap) {
        int cap = l->cap ? l->cap * 2 : 1024;
        Entry *games = realloc(l->games, (size_t)cap * sizeof *games);
        if (!games)
            return false;
        l->games = games;
        l->cap = cap;
    }
    char date[VALUE_MAX];
    known_date(t->value[TAG_DATE], date, sizeof date);
    if (!date[0])
        known_date(t->utc_date, date, sizeof date);
    snprintf(t->value[TAG_DATE], sizeof t->value[TAG_DATE], "%s", date);
    Entry *e = &l->games[l->count];
    for (int f = 0; f < TAG_NB; f++) {
        e->text[f] = intern(l, t->value[f], strlen(t->value[f]));
        if (e->text[f] == UINT32_MAX)
            return false;
    }
    e->result = (uint8_t)result;
    l->count++;
    return true;
}

static ResultCode result_code(const char *marker) {
    if (!strcmp(marker, "1-0"))
        return RES_WHITE;
    if (!strcmp(marker, "0-1"))
        return RES_BLACK;
    if (!strcmp(marker, "1/2-1/2"))
        return RES_DRAW;
    return RES_NONE;
}

// ------------------------------------------------------------------- reading

// Where the game just added starts, as the reader found it.
static void note_place(GameList *l, const PgnReader *r) {
    PgnSpan span;
    pgn_reader_span(r, &span);
    l->games[l->count - 1].start = span.start;
    l->games[l->count - 1].line = span.line;
}

bool gamelist_place(const GameList *l, int number, long long *start, int *line) {
    if (number < 1 || number > l->count)
        return false;
    *start = l->games[number - 1].start;
    *line = l->games[number - 1].line;
    return true;
}

static void report(GameListProgress progress, void *ctx, const PgnReader *r, long long size) {
    if (progress)
        progress(ctx, pgn_reader_offset(r), size);
}

// Every game of the file: the reader plays its moves (a game with an illegal
// move is listed broken) and hands its tags and result to the visitor.
static bool read_games(GameList *l, PgnReader *r, GameListProgress progress, void *ctx, char *err,
                       size_t errsz) {
    GameTags *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errsz, "out of memory");
        return false;
    }
    const PgnVisitor visitor = { .tag = keep_tag, .end = keep_result, .ctx = t };
    bool ok = true;
    for (;;) {
        PgnError perr;
        memset(t, 0, sizeof *t); // the next game's tags arrive as it is read
        int got = pgn_reader_visit(r, &visitor, &perr);
        if (got == 0)
            break;
        if (!add_game(l, t, got < 0 ? RES_BROKEN : result_code(t->result))) {
            snprintf(err, errsz, "out of memory listing %s", l->path);
            ok = false;
            break;
        }
        note_place(l, r);
        if (l->count % PROGRESS_GAMES == 0)
            report(progress, ctx, r, (long long)l->st.st_size);
    }
    free(t);
    return ok;
}

GameList *gamelist_read(const char *path, GameListProgress progress, void *ctx, char *err,
                        size_t errsz) {
    GameList *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    snprintf(l->path, sizeof l->path, "%s", path);
    if (stat(path, &l->st) != 0) {
        snprintf(err, errsz, "cannot open %s: %s", path, strerror(errno));
        gamelist_free(l);
        return NULL;
    }
    if (intern(l, "", 0) != 0) { // id 0: an absent tag
        snprintf(err, errsz, "out of memory");
        gamelist_free(l);
        return NULL;
    }
    PgnReader *r = pgn_reader_open(path, err, errsz);
    int rc = r && read_games(l, r, progress, ctx, err, errsz) ? 1 : -1;
    pgn_reader_close(r);
    if (rc < 0 || !gamelist_filter(l, NULL)) {
        if (rc >= 0)
            snprintf(err, errsz, "out of memory");
        gamelist_free(l);
        return NULL;
    }
    return l;
}

void gamelist_free(GameList *l) {
    if (!l)
        return;
    free(l->games);
    free(l->pool);
    free(l->offs);
    free(l->slots);
    free(l->rows);
    free(l);
}

const char *gamelist_path(const GameList *l) {
    return l->path;
}

bool gamelist_unchanged(const GameList *l) {
    struct stat st;
    return stat(l->path, &st) == 0 && st.st_size == l->st.st_size &&
           st.st_mtime == l->st.st_mtime && st.st_ino == l->st.st_ino &&
           st.st_dev == l->st.st_dev;
}

int gamelist_total(const GameList *l) {
    return l->count;
}

// ------------------------------------------------------------------- rows

// Display columns of a character (1 for what the locale cannot tell).
static int char_width(uint32_t cp) {
    if (cp < 0x80)
        return 1;
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w;
}

// Decodes the UTF-8 character at s (bytes into *len); a bad byte is itself.
static uint32_t decode(const char *s, int *len) {
    const unsigned char *u = (const unsigned char *)s;
    int n = u[0] >= 0xF0 ? 4 : u[0] >= 0xE0 ? 3 : u[0] >= 0xC0 ? 2 : 1;
    uint32_t cp = n == 1 ? u[0] : u[0] & (0x3F >> (n - 1));
    for (int i = 1; i < n; i++) {
        if ((u[i] & 0xC0) != 0x80) {
            *len = 1;
            return u[0];
        }
        cp = (cp << 6) | (u[i] & 0x3F);
    }
    *len = n;
    return cp;
}

static int text_width(const char *s) {
    int w = 0;
    for (int len; *s; s += len)
        w += char_width(decode(s, &len));
    return w;
}

static bool contains(const char *haystack, const char *needle, size_t n) {
    for (const char *h = haystack; *h; h++) {
        size_t i = 0;
        while (i < n && h[i] && tolower((unsigned char)h[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}

bool gamelist_filter(GameList *l, const char *text) {
    bool all = !text || !*text;
    uint32_t *rows = all ? NULL : malloc(((size_t)l->count + 1) * sizeof *rows);
    uint8_t *hit = all ? NULL : calloc(l->texts, 1);
    if (!all && (!rows || !hit)) {
        free(rows);
        free(hit);
        return false;
    }
    // Each distinct text is matched once, however many games share it.
    size_t n = all ? 0 : strlen(text);
    for (uint32_t id = 1; hit && id < l->texts; id++)
        hit[id] = contains(text_of(l, id), text, n);
    int nrows = 0;
    for (int g = 0; g < l->count && !all; g++) {
        const Entry *e = &l->games[g];
        bool match = false;
        for (int f = 0; f < TAG_NB && !match; f++)
            match = hit[e->text[f]];
        if (match)
            rows[nrows++] = (uint32_t)g;
    }
    free(hit);
    free(l->rows);
    l->rows = rows;
    l->nrows = all ? l->count : nrows;
    l->all = all;
    // The widest text of each column among the rows shown; a text shared by
    // many games is measured each time, which costs less than a table.
    memset(l->widest, 0, sizeof l->widest);
    for (int i = 0; i < l->nrows; i++) {
        const Entry *e = &l->games[all ? (uint32_t)i : rows[i]];
        for (int f = 0; f < TAG_NB; f++) {
            if (!e->text[f])
                continue;
            int w = text_width(text_of(l, e->text[f]));
            if (w > l->widest[f])
                l->widest[f] = w;
        }
    }
    return true;
}

int gamelist_count(const GameList *l) {
    return l->nrows;
}

static const Entry *row_entry(const GameList *l, int i) {
    if (i < 0 || i >= l->nrows)
        return NULL;
    return &l->games[l->all ? (uint32_t)i : l->rows[i]];
}

int gamelist_number(const GameList *l, int i) {
    const Entry *e = row_entry(l, i);
    return e ? (int)(e - l->games) + 1 : 0;
}

bool gamelist_fields(const GameList *l, int number, GameListFields *out) {
    if (number < 1 || number > l->count)
        return false;
    const Entry *e = &l->games[number - 1];
    out->white = text_of(l, e->text[TAG_WHITE]);
    out->black = text_of(l, e->text[TAG_BLACK]);
    out->event = text_of(l, e->text[TAG_EVENT]);
    out->date = text_of(l, e->text[TAG_DATE]);
    out->eco = text_of(l, e->text[TAG_ECO]);
    out->opening = text_of(l, e->text[TAG_OPENING]);
    out->result = result_text[e->result];
    return true;
}

// The widths of the name and event columns: each its widest text when the
// room holds them all, else the room shared so that no column gets more
// than it needs and the narrow ones are served first (max-min fairness).
static void share(const int need[3], int room, int out[3]) {
    int order[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++) // three items: a tiny sort by need
        for (int j = i + 1; j < 3; j++)
            if (need[order[j]] < need[order[i]]) {
                int tmp = order[i];
                order[i] = order[j];
                order[j] = tmp;
            }
    for (int i = 0; i < 3; i++) {
        int c = order[i], fair = room / (3 - i);
        out[c] = need[c] < fair ? need[c] : fair;
        if (out[c] < NAME_MIN && need[c] > out[c])
            out[c] = need[c] < NAME_MIN ? need[c] : NAME_MIN;
        room -= out[c];
        if (room < 0)
            room = 0;
    }
}

// Appends s to buf at *len, padded or cut to cols display columns (a cut
// falls between characters). Stops short when buf is full.
static void put_column(char *buf, size_t bufsz, size_t *len, const char *s, int cols, bool pad) {
    int used = 0;
    for (int n; *s; s += n) {
        int w = char_width(decode(s, &n));
        if (used + w > cols || *len + (size_t)n + 1 > bufsz)
            break;
        memcpy(buf + *len, s, (size_t)n);
        *len += (size_t)n;
        used += w;
    }
    while (pad && used < cols && *len + 2 <= bufsz) {
        buf[(*len)++] = ' ';
        used++;
    }
    buf[*len] = '\0';
}

void gamelist_row(const GameList *l, int i, int width, char *buf, size_t bufsz) {
    if (bufsz == 0)
        return;
    buf[0] = '\0';
    const Entry *e = row_entry(l, i);
    if (!e)
        return;
    // Fixed columns: the number, the result and, when any game has them,
    // the date and ECO.
    int number_w = snprintf(NULL, 0, "%d", l->count);
    int result_w = 7; // "1/2-1/2"
    int date_w = l->widest[TAG_DATE], eco_w = l->widest[TAG_ECO];
    // Four gaps: after the number, each name and the result (the event is last).
    int fixed = number_w + result_w + 4 * GAP;
    if (date_w)
        fixed += date_w + GAP;
    if (eco_w)
        fixed += eco_w + GAP;
    int need[3] = {l->widest[TAG_WHITE], l->widest[TAG_BLACK], l->widest[TAG_EVENT]};
    int got[3];
    share(need, width - fixed, got);

    size_t len = 0;
    char number[16];
    snprintf(number, sizeof number, "%*d", number_w, (int)(e - l->games) + 1);
    put_column(buf, bufsz, &len, number, number_w, true);
    put_column(buf, bufsz, &len, "", GAP, true);
    put_column(buf, bufsz, &len, text_of(l, e->text[TAG_WHITE]), got[0], true);
    put_column(buf, bufsz, &len, "", GAP, true);
    put_column(buf, bufsz, &len, text_of(l, e->text[TAG_BLACK]), got[1], true);
    put_column(buf, bufsz, &len, "", GAP, true);
    put_column(buf, bufsz, &len, result_text[e->result], result_w, true);
    if (date_w) {
        put_column(buf, bufsz, &len, "", GAP, true);
        put_column(buf, bufsz, &len, text_of(l, e->text[TAG_DATE]), date_w, true);
    }
    if (eco_w) {
        put_column(buf, bufsz, &len, "", GAP, true);
        put_column(buf, bufsz, &len, text_of(l, e->text[TAG_ECO]), eco_w, true);
    }
    put_column(buf, bufsz, &len, "", GAP, true);
    put_column(buf, bufsz, &len, text_of(l, e->text[TAG_EVENT]), got[2], false);
    while (len > 0 && buf[len - 1] == ' ') // no trailing blanks (an empty event)
        buf[--len] = '\0';
}
