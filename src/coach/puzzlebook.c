// SPDX-License-Identifier: GPL-3.0-or-later
// The puzzle book: parsing and writing its text file, SM-2 scheduling and
// the player's Elo-like puzzle rating.
#include "src/coach/puzzlebook.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/notation.h"
#include "src/util/digest.h"
#include "src/util/paths.h"
#include "src/util/strbuf.h"

enum {
    BOOK_FILE_MAX = 64 << 20,
    PUZZLE_FIELDS = 12, // after the word "puzzle"
    DAY_S = 86400,
    RATED_NOVICE = 20, // K = 32 below this many rated puzzles
};

PuzzleBook *puzzlebook_new(void) {
    PuzzleBook *b = calloc(1, sizeof *b);
    if (b)
        b->rating = PUZZLEBOOK_START_RATING;
    return b;
}

void puzzlebook_free(PuzzleBook *b) {
    if (!b)
        return;
    for (int i = 0; i < b->kept_count; i++)
        free(b->kept[i]);
    free(b->kept);
    free(b->items);
    free(b->scanned);
    free(b);
}

// Room for one more element in a growing array.
static bool grow(void **items, int *cap, int count, size_t size) {
    if (count < *cap)
        return true;
    int n = *cap ? *cap * 2 : 16;
    void *p = realloc(*items, (size_t)n * size);
    if (!p)
        return false;
    *items = p;
    *cap = n;
    return true;
}

// ------------------------------------------------------------ reading

// Splits line (changed in place) at tabs; returns the number of fields.
static int split(char *line, char **fields, int max) {
    int n = 0;
    char *p = line;
    while (n < max) {
        fields[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            break;
        *tab = '\0';
        p = tab + 1;
    }
    return n;
}

static bool whole_number(const char *s, long long lo, long long hi, long long *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_int(const char *s, int lo, int hi, int *out) {
    long long v;
    if (!whole_number(s, lo, hi, &v))
        return false;
    *out = (int)v;
    return true;
}

// UCI moves separated by spaces, each legal in turn from b.
static bool parse_moves(const char *text, Board b, Move *out, int max, int *n) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", text);
    *n = 0;
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        Move m;
        if (*n >= max || notation_parse_uci(&b, w, &m) != NOTATION_OK)
            return false;
        out[(*n)++] = m;
        board_play(&b, m);
    }
    return true;
}

// One puzzle record (fields after the word); why says what is wrong.
static bool parse_puzzle(char **f, int n, PuzzleEntry *e, const char **why) {
    memset(e, 0, sizeof *e);
    Puzzle *p = &e->puzzle;
    Board b;
    if (n != PUZZLE_FIELDS) {
        *why = "wrong number of fields";
        return false;
    }
    if (strlen(f[0]) >= sizeof p->fen || !board_set_fen(&b, f[0], NULL, 0)) {
        *why = "bad FEN";
        return false;
    }
    snprintf(p->fen, sizeof p->fen, "%s", f[0]);
    if (!parse_moves(f[1], b, p->solution, PUZZLE_PLIES_MAX, &p->length) || p->length % 2 == 0) {
        *why = "bad solution";
        return false;
    }
    int played_n;
    Move played[1];
    if (!parse_moves(f[2], b, played, 1, &played_n) || played_n != 1) {
        *why = "bad played move";
        return false;
    }
    p->played = played[0];
    long long due;
    if (!parse_int(f[3], PUZZLE_RATING_MIN, PUZZLE_RATING_MAX, &p->rating) ||
        !whole_number(f[4], 0, INT64_MAX, &due) || !parse_int(f[5], 0, 100000, &e->interval) ||
        !parse_int(f[6], PUZZLEBOOK_MIN_EASE, 1000, &e->ease) ||
        !parse_int(f[7], 0, 1000000, &e->reps) || !parse_int(f[8], 0, 1000000, &e->attempts) ||
        !parse_int(f[9], 0, 1000000, &e->solved) || !parse_int(f[10], 0, 1000000, &e->failed)) {
        *why = "bad number";
        return false;
    }
    e->due = due;
    snprintf(p->source, sizeof p->source, "%s", f[11]);
    return true;
}

static bool keep_line(PuzzleBook *b, const char *line) {
    if (!grow((void **)&b->kept, &b->kept_cap, b->kept_count, sizeof *b->kept))
        return false;
    char *copy = strdup(line);
    if (!copy)
        return false;
    b->kept[b->kept_count++] = copy;
    return true;
}

// Reads one line; false when it is bad (why says how).
static bool parse_line(PuzzleBook *b, char *line, const char **why, bool *oom) {
    char *f[PUZZLE_FIELDS + 2];
    int n = split(line, f, PUZZLE_FIELDS + 2);
    long long v;
    if (!strcmp(f[0], "player")) {
        if (n != 3 || !parse_int(f[1], 0, 4000, &b->rating) ||
            !parse_int(f[2], 0, 100000000, &b->rated)) {
            *why = "bad player rating";
            return false;
        }
        return true;
    }
    if (!strcmp(f[0], "scanned")) {
        char *end;
        errno = 0;
        v = (long long)strtoull(n == 2 ? f[1] : "", &end, 16);
        if (n != 2 || errno || end == f[1] || *end) {
            *why = "bad game key";
            return false;
        }
        *oom = !puzzlebook_mark_scanned(b, (uint64_t)v);
        return true;
    }
    if (!strcmp(f[0], "puzzle")) {
        PuzzleEntry e;
        if (!parse_puzzle(f + 1, n - 1, &e, why))
            return false;
        if (!grow((void **)&b->items, &b->cap, b->count, sizeof *b->items)) {
            *oom = true;
            return true;
        }
        b->items[b->count++] = e;
        return true;
    }
    *why = "unknown record";
    return false;
}

bool puzzlebook_parse(PuzzleBook *b, const char *text, const char *name, char *warn,
                      size_t warnsz) {
    if (warn && warnsz)
        warn[0] = '\0';
    int bad = 0, number = 0;
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        number++;
        char *line = malloc(len + 1), *copy = malloc(len + 1);
        if (!line || !copy) {
            free(line);
            free(copy);
            return false;
        }
        memcpy(line, p, len);
        line[len] = '\0';
        if (len && line[len - 1] == '\r')
            line[len - 1] = '\0';
        memcpy(copy, line, strlen(line) + 1);
        bool oom = false;
        const char *why = "";
        if (line[0] && line[0] != '#' && !parse_line(b, line, &why, &oom)) {
            if (bad++ == 0 && warn)
                snprintf(warn, warnsz, "%s:%d: %s (the line is kept; the other puzzles are used)",
                         name, number, why);
            oom = !keep_line(b, copy);
        }
        free(line);
        free(copy);
        if (oom)
            return false;
        p = end ? end + 1 : p + len;
    }
    if (bad > 1 && warn) {
        size_t n = strlen(warn);
        snprintf(warn + n, warnsz - n, "; %d more bad lines", bad - 1);
    }
    return true;
}

bool puzzlebook_load(PuzzleBook *b, const char *path, char *warn, size_t warnsz, char *err,
                     size_t errsz) {
    if (warn && warnsz)
        warn[0] = '\0';
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT)
        return true; // no puzzles yet
    size_t len;
    char *text = paths_read_file(path, BOOK_FILE_MAX, &len, err, errsz);
    if (!text)
        return false;
    bool ok = puzzlebook_parse(b, text, path, warn, warnsz);
    free(text);
    if (!ok)
        snprintf(err, errsz, "%s: out of memory", path);
    return ok;
}

// ------------------------------------------------------------ writing

// A source with no tab or newline (they separate fields and records).
static void clean_source(const char *src, char *out, size_t outsz) {
    snprintf(out, outsz, "%s", src);
    for (char *c = out; *c; c++)
        if (*c == '\t' || *c == '\n' || *c == '\r')
            *c = ' ';
}

char *puzzlebook_format(const PuzzleBook *b) {
    StrBuf o = { 0 };
    strbuf_puts(&o, "# patzer puzzles: player RATING ATTEMPTS; scanned GAME-KEY; puzzle FEN "
                    "SOLUTION PLAYED RATING DUE INTERVAL EASE REPS ATTEMPTS SOLVED FAILED SOURCE "
                    "(tab-separated)\n");
    strbuf_printf(&o, "player\t%d\t%d\n", b->rating, b->rated);
    for (int i = 0; i < b->scanned_count; i++)
        strbuf_printf(&o, "scanned\t%016" PRIx64 "\n", b->scanned[i]);
    for (int i = 0; i < b->count; i++) {
        const PuzzleEntry *e = &b->items[i];
        const Puzzle *p = &e->puzzle;
        char moves[PUZZLE_PLIES_MAX * 6 + 1] = "", uci[MOVE_TEXT_MAX], played[MOVE_TEXT_MAX];
        for (int k = 0; k < p->length; k++) {
            notation_to_uci(p->solution[k], uci);
            strcat(moves, k ? " " : "");
            strcat(moves, uci);
        }
        notation_to_uci(p->played, played);
        char source[PUZZLE_SOURCE_MAX];
        clean_source(p->source, source, sizeof source);
        strbuf_printf(&o, "puzzle\t%s\t%s\t%s\t%d\t%" PRId64 "\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n",
                      p->fen, moves, played, p->rating, e->due, e->interval, e->ease, e->reps,
                      e->attempts, e->solved, e->failed, source);
    }
    for (int i = 0; i < b->kept_count; i++)
        strbuf_printf(&o, "%s\n", b->kept[i]);
    return strbuf_take(&o, NULL);
}

bool puzzlebook_save(const PuzzleBook *b, const char *path, char *err, size_t errsz) {
    char *text = puzzlebook_format(b);
    if (!text) {
        snprintf(err, errsz, "out of memory writing the puzzles");
        return false;
    }
    bool ok = paths_write_atomic(path, text, strlen(text), err, errsz);
    free(text);
    return ok;
}

// ------------------------------------------------------------ contents

int puzzlebook_add(PuzzleBook *b, const Puzzle *p, int64_t now_s) {
    for (int i = 0; i < b->count; i++)
        if (!strcmp(b->items[i].puzzle.fen, p->fen))
            return i;
    if (!grow((void **)&b->items, &b->cap, b->count, sizeof *b->items))
        return -1;
    b->items[b->count] = (PuzzleEntry){ .puzzle = *p, .due = now_s, .ease = PUZZLEBOOK_START_EASE };
    return b->count++;
}

bool puzzlebook_is_scanned(const PuzzleBook *b, uint64_t key) {
    for (int i = 0; i < b->scanned_count; i++)
        if (b->scanned[i] == key)
            return true;
    return false;
}

bool puzzlebook_mark_scanned(PuzzleBook *b, uint64_t key) {
    if (puzzlebook_is_scanned(b, key))
        return true;
    if (!grow((void **)&b->scanned, &b->scanned_cap, b->scanned_count, sizeof *b->scanned))
        return false;
    b->scanned[b->scanned_count++] = key;
    return true;
}

uint64_t puzzlebook_game_key(const PgnGame *g) {
    uint64_t h = DIGEST_BASIS;
    static const char *const tags[] = { "White", "Black", "Date", "Round", "Event" };
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        const char *v = pgn_tag(g, tags[i]);
        h = digest_string(h, v ? v : "");
    }
    const char *fen = pgn_start_fen(g);
    h = digest_string(h, fen ? fen : "");
    for (int i = 0; i < pgn_mainline_length(g); i++) {
        char uci[MOVE_TEXT_MAX];
        notation_to_uci(pgn_mainline_move(g, i), uci);
        h = digest_string(h, uci);
    }
    return h;
}

// ------------------------------------------------------------ schedule

int puzzlebook_due(const PuzzleBook *b, int64_t now_s, const char *prefix, int *out, int max) {
    int n = 0;
    size_t plen = prefix ? strlen(prefix) : 0;
    // Seen puzzles first, by due time (a simple insertion: the book is small).
    for (int i = 0; i < b->count; i++) {
        const PuzzleEntry *e = &b->items[i];
        if (e->attempts == 0 || e->due > now_s || (plen && strncmp(e->puzzle.source, prefix, plen)))
            continue;
        if (n == max)
            break;
        int k = n++;
        while (k > 0 && b->items[out[k - 1]].due > e->due) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = i;
    }
    for (int i = 0; i < b->count && n < max; i++) {
        const PuzzleEntry *e = &b->items[i];
        if (e->attempts == 0 && e->due <= now_s &&
            !(plen && strncmp(e->puzzle.source, prefix, plen)))
            out[n++] = i;
    }
    return n;
}

int puzzlebook_elo(int player, int puzzle, double score, int k) {
    double expected = 1.0 / (1.0 + pow(10.0, (puzzle - player) / 400.0));
    return player + (int)lround(k * (score - expected));
}

void puzzlebook_grade(PuzzleBook *b, int i, PuzzleGrade grade, int64_t now_s) {
    PuzzleEntry *e = &b->items[i];
    int q = grade == GRADE_SOLVED ? 5 : grade == GRADE_HINTED ? 3 : 1;
    if (e->attempts == 0) {
        double score = grade == GRADE_SOLVED ? 1.0 : grade == GRADE_HINTED ? 0.5 : 0.0;
        int k = b->rated < RATED_NOVICE ? 32 : 16;
        b->rating = puzzlebook_elo(b->rating, e->puzzle.rating, score, k);
        b->rated++;
    }
    e->attempts++;
    int d = 5 - q;
    e->ease += (int)lround(100.0 * (0.1 - d * (0.08 + d * 0.02)));
    if (e->ease < PUZZLEBOOK_MIN_EASE)
        e->ease = PUZZLEBOOK_MIN_EASE;
    if (q >= 3) {
        e->solved++;
        e->reps++;
        e->interval = e->reps == 1   ? 1
                      : e->reps == 2 ? 6
                                     : (int)lround(e->interval * e->ease / 100.0);
        e->due = now_s + (int64_t)e->interval * DAY_S;
    } else {
        e->failed++;
        e->reps = 0;
        e->interval = 0;
        e->due = now_s;
    }
}
