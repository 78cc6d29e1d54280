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
    CHUNK = 256 * 1024,        // the lexer's first buffer (grown for a longer line)
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
    bool twice;

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

// The texts of one game as the lexer or the builder found them.
typedef struct GameTags {
    char value[TAG_NB][VALUE_MAX];
    char utc_date[VALUE_MAX];
    char marker[8]; // the termination marker met ("" at a game's end without one)
    bool broken;    // the lexer met an error (the reader will too)
} GameTags;

static const char *const tag_names[TAG_NB] = {"White", "Black", "Event", "Date", "ECO", "Opening"};

// Keeps value under name when it is one of the tags listed. Values are
// cut between UTF-8 characters: a list shows no more than that.
static void keep_tag(GameTags *t, const char *name, size_t name_len, const char *value) {
    char *to = NULL;
    for (int f = 0; f < TAG_NB && !to; f++)
        if (strlen(tag_names[f]) == name_len && !memcmp(tag_names[f], name, name_len))
            to = t->value[f];
    if (!to && name_len == 7 && !memcmp(name, "UTCDate", 7))
        to = t->utc_date;
    if (to)
        text_copy(to, VALUE_MAX, value);
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

// ------------------------------------------------------------------- lexer

// What the lexer skips after a game with an error, as the reader does.
typedef enum { SKIP_NONE, SKIP_TAGS, SKIP_MOVES } SkipMode;

// The tag lexer over a file: line by line as the reader goes, the current
// line kept between games (a game may end where the next one starts).
typedef struct Lexer {
    FILE *fp;
    char *buf;
    size_t cap, start, end;
    bool eof, io_error;
    const char *line;
    size_t len, pos;
    long line_no;
    bool have_line;
    SkipMode skip;
} Lexer;

static inline bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static inline bool is_name_char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// What a symbol token (a move, a move number, a result) is made of, by
// table: the lexer looks at every byte of the move text.
static const bool symbol_chars[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
    ['8'] = 1, ['9'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1,
    ['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1,
    ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1,
    ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1,
    ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1,
    ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1,
    ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['_'] = 1, ['+'] = 1,
    ['#'] = 1, ['='] = 1, [':'] = 1, ['-'] = 1, ['/'] = 1,
};

static inline bool is_symbol_char(char c) {
    return symbol_chars[(unsigned char)c];
}

// Makes the next line current (without its line end). False at the end.
static bool next_line(Lexer *x) {
    for (;;) {
        char *s = x->buf + x->start;
        size_t avail = x->end - x->start;
        char *nl = avail ? memchr(s, '\n', avail) : NULL;
        if (nl) {
            x->line = s;
            x->len = (size_t)(nl - s);
            x->start += x->len + 1;
            break;
        }
        if (x->eof || x->io_error) {
            if (avail == 0) {
                x->have_line = false;
                return false;
            }
            x->line = s;
            x->len = avail;
            x->start = x->end;
            break;
        }
        if (x->start > 0) {
            memmove(x->buf, s, avail);
            x->end = avail;
            x->start = 0;
        }
        if (x->end == x->cap) {
            char *b = x->cap < LINE_MAX_BYTES ? realloc(x->buf, x->cap * 2) : NULL;
            if (!b) {
                x->io_error = true; // the reader gives up on such a line too
                continue;
            }
            x->buf = b;
            x->cap *= 2;
        }
        size_t got = fread(x->buf + x->end, 1, x->cap - x->end, x->fp);
        x->end += got;
        if (got == 0) {
            if (ferror(x->fp))
                x->io_error = true;
            else
                x->eof = true;
        }
    }
    x->line_no++;
    if (x->len > 0 && x->line[x->len - 1] == '\r')
        x->len--;
    if (x->line_no == 1 && x->len >= 3 && !memcmp(x->line, "\xEF\xBB\xBF", 3)) {
        x->line += 3;
        x->len -= 3;
    }
    x->pos = 0;
    x->have_line = true;
    return true;
}

// Passes over '%' escape lines, as the reader does in a game.
static bool next_text_line(Lexer *x) {
    while (next_line(x))
        if (x->len == 0 || x->line[0] != '%')
            return true;
    return false;
}

// A line of the form [Name "..."] (a tag pair starting in column 1).
static bool looks_like_tag_line(const char *s, size_t n) {
    size_t i = 0;
    if (n < 5 || s[i++] != '[')
        return false;
    while (i < n && is_space(s[i]))
        i++;
    size_t name = i;
    while (i < n && is_name_char(s[i]))
        i++;
    if (i == name)
        return false;
    while (i < n && is_space(s[i]))
        i++;
    if (i >= n || s[i] != '"')
        return false;
    while (n > i && is_space(s[n - 1]))
        n--;
    return s[n - 1] == ']';
}

// Skips the rest of a game that had an error, as the reader does.
static void skip_bad_game(Lexer *x) {
    SkipMode mode = x->skip;
    x->skip = SKIP_NONE;
    if (mode == SKIP_NONE)
        return;
    while (next_line(x)) {
        size_t i = 0;
        while (i < x->len && is_space(x->line[i]))
            i++;
        bool blank = i == x->len;
        bool tag = x->len > 0 && x->line[0] == '[';
        if (mode == SKIP_TAGS) {
            if (!tag)
                mode = SKIP_MOVES;
            continue;
        }
        if (tag && !blank)
            return;
    }
}

// An error in the game: it ends here, broken; the rest is skipped.
static int fail(Lexer *x, GameTags *t, SkipMode skip) {
    t->broken = true;
    x->skip = skip;
    return 1;
}

// Reads a tag pair at x->pos ('['). False on a malformed one.
static bool read_tag(Lexer *x, GameTags *t) {
    const char *s = x->line;
    size_t n = x->len, i = x->pos + 1;
    while (i < n && is_space(s[i]))
        i++;
    size_t name = i;
    while (i < n && is_name_char(s[i]))
        i++;
    size_t name_len = i - name;
    if (name_len == 0 || name_len > 255)
        return false;
    while (i < n && is_space(s[i]))
        i++;
    if (i >= n || s[i] != '"')
        return false;
    i++;
    char value[VALUE_MAX];
    size_t v = 0;
    for (;;) {
        if (i >= n)
            return false;
        char c = s[i++];
        if (c == '"')
            break;
        if (c == '\\' && i < n && (s[i] == '"' || s[i] == '\\'))
            c = s[i++];
        if ((unsigned char)c < ' ')
            c = ' ';
        if (v + 1 < sizeof value)
            value[v++] = c;
    }
    value[v] = '\0';
    while (i < n && is_space(s[i]))
        i++;
    if (i >= n || s[i] != ']')
        return false;
    x->pos = i + 1;
    keep_tag(t, s + name, name_len, value);
    return true;
}

// Lexes the next game into t (cleared first): 1 for a game (t->broken when
// it had an error the lexer can see), 0 at the end of the input. The rules
// for where a game starts and ends are read.c's read_game.
static int lex_game(Lexer *x, GameTags *t) {
    memset(t, 0, sizeof *t);
    skip_bad_game(x);
    bool begun = false, in_tags = true;
    int depth = 0;
    for (;;) {
        if (!x->have_line || x->pos >= x->len) {
            if (!next_text_line(x)) {
                if (!begun)
                    return 0;
                return depth > 0 ? fail(x, t, SKIP_NONE) : 1;
            }
            continue;
        }
        const char *s = x->line;
        char c = s[x->pos];
        if (is_space(c)) {
            x->pos++;
            continue;
        }
        begun = true;
        switch (c) {
        case '[':
            if (in_tags) {
                if (!read_tag(x, t))
                    return fail(x, t, SKIP_TAGS);
                break;
            }
            {
                size_t k = 0;
                while (k < x->pos && is_space(s[k]))
                    k++;
                if (k == x->pos && depth == 0)
                    return 1; // the next game's tags; this one had no result
                if (k == x->pos && looks_like_tag_line(s, x->len))
                    return fail(x, t, SKIP_NONE); // an unclosed variation
            }
            return fail(x, t, SKIP_MOVES);
        case '{': {
            in_tags = false;
            x->pos++;
            for (;;) {
                const char *close = memchr(s + x->pos, '}', x->len - x->pos);
                if (close) {
                    x->pos = (size_t)(close - s) + 1;
                    break;
                }
                if (!next_text_line(x) || looks_like_tag_line(x->line, x->len))
                    return fail(x, t, SKIP_NONE); // unclosed comment
                s = x->line;
            }
            break;
        }
        case ';':
            in_tags = false;
            x->pos = x->len;
            break;
        case '(':
            in_tags = false;
            depth++;
            x->pos++;
            break;
        case ')':
            if (depth == 0)
                return fail(x, t, in_tags ? SKIP_TAGS : SKIP_MOVES);
            depth--;
            x->pos++;
            break;
        case '$': {
            size_t i = x->pos + 1;
            int nag = 0, digits = 0;
            while (i < x->len && s[i] >= '0' && s[i] <= '9' && digits < 4) {
                nag = nag * 10 + (s[i++] - '0');
                digits++;
            }
            if (digits == 0 || nag > 255)
                return fail(x, t, in_tags ? SKIP_TAGS : SKIP_MOVES);
            x->pos = i;
            break;
        }
        case '!':
        case '?':
        case '.': x->pos++; break;
        case '*':
            if (depth > 0)
                return fail(x, t, SKIP_MOVES);
            x->pos++;
            strcpy(t->marker, "*");
            return 1;
        default: {
            if (!is_name_char(c) && c != '-')
                return fail(x, t, in_tags ? SKIP_TAGS : SKIP_MOVES);
            in_tags = false;
            size_t i = x->pos, tok;
            while (i < x->len && is_symbol_char(s[i]))
                i++;
            tok = i - x->pos;
            const char *w = s + x->pos;
            if ((tok == 3 && (!memcmp(w, "1-0", 3) || !memcmp(w, "0-1", 3))) ||
                (tok == 7 && !memcmp(w, "1/2-1/2", 7))) {
                if (depth > 0)
                    return fail(x, t, SKIP_MOVES);
                memcpy(t->marker, w, tok);
                t->marker[tok] = '\0';
                x->pos = i;
                return 1;
            }
            x->pos = i; // a move or a move number: not played here
            break;
        }
        }
    }
}

// -------------------------------------------------------------- reading

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

// The result the reader gives for a game read without error.
static ResultCode summary_result(const PgnSummary *sum) {
    return result_code(sum->result);
}

static void report(GameListProgress progress, void *ctx, const PgnReader *r, long long size) {
    if (progress)
        progress(ctx, pgn_reader_offset(r), size);
}

// Both readers in step: the tags from the lexer, the count and the results
// from the validating reader. -1 on an error (err says it), 0 when they
// disagree somewhere (the list is emptied for the building reader), 1 done.
static int read_in_step(GameList *l, PgnReader *r, Lexer *x, GameListProgress progress, void *ctx,
                        char *err, size_t errsz) {
    GameTags *t = malloc(sizeof *t);
    if (!t) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    int rc = 1;
    for (;;) {
        PgnSummary sum;
        PgnError perr;
        int got = pgn_reader_validate(r, &sum, &perr);
        int lexed = lex_game(x, t);
        if (got == 0 || lexed == 0) {
            if (got != 0 || lexed != 0 || x->io_error)
                rc = 0;
            break;
        }
        ResultCode res = got < 0 ? RES_BROKEN : summary_result(&sum);
        // The lexer sees the errors of form; the reader also those of play.
        // A game the reader read whole must be one the lexer read whole with
        // the same end, else the two have split the file differently.
        if (got > 0 && (t->broken || res != result_code(t->marker[0] ? t->marker : sum.result))) {
            rc = 0;
            break;
        }
        if (!add_game(l, t, res)) {
            snprintf(err, errsz, "out of memory listing %s", l->path);
            rc = -1;
            break;
        }
        note_place(l, r);
        if (l->count % PROGRESS_GAMES == 0)
            report(progress, ctx, r, (long long)l->st.st_size);
    }
    free(t);
    if (rc == 0)
        l->count = 0;
    return rc;
}

// The building reader alone: slower, the reader's own tags.
static bool read_building(GameList *l, PgnReader *r, GameListProgress progress, void *ctx, char *err,
                          size_t errsz) {
    PgnGame *g = pgn_game_new();
    GameTags *t = malloc(sizeof *t);
    bool ok = g && t;
    PgnError perr;
    int got;
    while (ok && (got = pgn_reader_next(r, g, &perr)) != 0) {
        memset(t, 0, sizeof *t);
        for (int f = 0; f < TAG_NB; f++) {
            const char *v = pgn_tag(g, tag_names[f]);
            text_copy(t->value[f], VALUE_MAX, v ? v : "");
        }
        const char *utc = pgn_tag(g, "UTCDate");
        text_copy(t->utc_date, VALUE_MAX, utc ? utc : "");
        ok = add_game(l, t, got < 0 ? RES_BROKEN : result_code(pgn_result(g)));
        if (ok)
            note_place(l, r);
        if (ok && l->count % PROGRESS_GAMES == 0)
            report(progress, ctx, r, (long long)l->st.st_size);
    }
    if (!ok)
        snprintf(err, errsz, "out of memory listing %s", l->path);
    free(t);
    pgn_game_free(g);
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
    Lexer x = {.cap = CHUNK};
    x.buf = malloc(x.cap);
    x.fp = fopen(path, "rb");
    int rc = -1;
    if (r && (!x.buf || !x.fp))
        snprintf(err, errsz, "%s: %s", x.buf ? "cannot open" : "out of memory", path);
    else if (r)
        rc = read_in_step(l, r, &x, progress, ctx, err, errsz);
    free(x.buf);
    if (x.fp)
        fclose(x.fp); // read only: nothing lost on a failed close
    pgn_reader_close(r);
    if (rc == 0) { // the two readers split the file differently
        l->twice = true;
        r = pgn_reader_open(path, err, errsz);
        rc = r && read_building(l, r, progress, ctx, err, errsz) ? 1 : -1;
        pgn_reader_close(r);
    }
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

bool gamelist_read_twice(const GameList *l) {
    return l->twice;
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
