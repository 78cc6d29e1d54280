// SPDX-License-Identifier: GPL-3.0-or-later
// The streaming PGN reader: lexer, tag pairs, move text with variations,
// comments and NAGs, error positions and recovery.
#include "src/pgn/read.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/movegen.h"
#include "src/pgn/build.h"
#include "src/pgn/lex.h"

enum { READ_CHUNK = 64 * 1024, LINE_MAX_BYTES = 64 * 1024 * 1024 };

// What the reader skips after a game with an error.
typedef enum { SKIP_NONE, SKIP_TAGS, SKIP_MOVES } SkipMode;

// One line of play: the main line (level 0) or an open variation.
typedef struct Level {
    Board board; // position after the last move of this line
    Undo undo;   // that move's undo record: a variation starts from its take-back
    bool has_move;
    int next_ply;
    int open_line, open_col; // where its '(' is
} Level;

struct PgnReader {
    FILE *fp;
    char name[PATH_MAX_LEN];
    char *buf;
    size_t cap, start, end;
    bool eof, io_error, io_reported;
    int io_errno;
    long long bytes_read; // from the file so far (the buffer's unread part included)

    const char *line; // current line (without its line end)
    long long line_offset; // where it starts in the input
    size_t len, pos;
    int line_no;
    bool have_line;
    SkipMode skip;
    int game_number;
    // The input as opened (a file's size and time), and the bytes of the
    // game read last, for the games' sources.
    long long file_size, file_mtime_ns;
    long long game_start, game_end;
    int game_line;
    bool game_shares_line;

    Board *standard; // the standard start position, copied for each game
    char *scratch;   // comment text and tag values
    size_t slen, scap;
    Level *levels;
    int levels_cap;

    // Per game.
    const PgnVisitor *v; // told what is read
    PgnError *err;
    PgnError spare_err; // where errors go when the caller passes no PgnError
    int depth;
    bool in_tags; // still before the move text
    bool started; // the start position has been set up
    bool fen_seen;
    char fen[FEN_MAX * 2];
    int fen_line, fen_col;
    bool setup_zero;
    char variant[64]; // a Variant tag naming a game other than chess ("" else)
    int variant_line, variant_col;
    char tag_result[8];
    char result[8];
};

static PgnReader *reader_new(const char *name) {
    board_init_tables();
    PgnReader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->standard = malloc(sizeof *r->standard);
    if (!r->standard) {
        free(r);
        return NULL;
    }
    board_set_start(r->standard);
    snprintf(r->name, sizeof r->name, "%s", name ? name : "<string>");
    return r;
}

PgnReader *pgn_reader_open(const char *path, char *err, size_t errsz) {
    PgnReader *r = reader_new(path);
    if (!r) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    r->cap = READ_CHUNK;
    r->buf = malloc(r->cap);
    if (!r->buf) {
        pgn_reader_close(r);
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    r->fp = fopen(path, "rb");
    if (!r->fp) {
        snprintf(err, errsz, "cannot open %s: %s", path, strerror(errno));
        pgn_reader_close(r);
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(r->fp), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            // It opens but fails at the first read: said here, where no line is.
            snprintf(err, errsz, "cannot read %s: %s", path, strerror(EISDIR));
            pgn_reader_close(r);
            return NULL;
        }
        r->file_size = (long long)st.st_size;
        r->file_mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    }
    return r;
}

PgnReader *pgn_reader_open_at(const char *path, long long offset, int line, int games_before,
                              char *err, size_t errsz) {
    PgnReader *r = pgn_reader_open(path, err, errsz);
    if (!r || offset <= 0)
        return r;
    if (fseeko(r->fp, (off_t)offset, SEEK_SET) != 0) {
        snprintf(err, errsz, "cannot read %s: %s", path, strerror(errno));
        pgn_reader_close(r);
        return NULL;
    }
    r->bytes_read = offset;
    r->line_no = line > 0 ? line - 1 : 0;
    r->game_number = games_before;
    return r;
}

PgnReader *pgn_reader_from_string(const char *text, const char *name) {
    PgnReader *r = reader_new(name);
    if (!r)
        return NULL;
    size_t n = strlen(text);
    r->buf = malloc(n + 1);
    if (!r->buf) {
        pgn_reader_close(r);
        return NULL;
    }
    memcpy(r->buf, text, n + 1);
    r->cap = n + 1;
    r->end = n;
    r->eof = true;
    return r;
}

void pgn_reader_close(PgnReader *r) {
    if (!r)
        return;
    if (r->fp)
        fclose(r->fp); // read-only: nothing to lose on a failed close
    free(r->buf);
    free(r->standard);
    free(r->scratch);
    free(r->levels);
    free(r);
}

// Makes the next line current. False at the end of input (or on a read error).
static bool next_line(PgnReader *r) {
    for (;;) {
        char *s = r->buf + r->start;
        size_t avail = r->end - r->start;
        char *nl = avail ? memchr(s, '\n', avail) : NULL;
        r->line_offset = pgn_reader_offset(r);
        if (nl) {
            r->line = s;
            r->len = (size_t)(nl - s);
            r->start += r->len + 1;
            break;
        }
        if (r->eof || r->io_error) {
            if (avail == 0) {
                r->have_line = false;
                return false;
            }
            r->line = s;
            r->len = avail;
            r->start = r->end;
            break;
        }
        if (r->start > 0) {
            memmove(r->buf, s, avail);
            r->end = avail;
            r->start = 0;
        }
        if (r->end == r->cap) {
            // A line longer than the buffer: grow (bounded by the longest line).
            char *b = r->cap < LINE_MAX_BYTES ? realloc(r->buf, r->cap * 2) : NULL;
            if (!b) {
                r->io_error = true;
                r->io_errno = ENOMEM;
                continue;
            }
            r->buf = b;
            r->cap *= 2;
        }
        size_t got = fread(r->buf + r->end, 1, r->cap - r->end, r->fp);
        r->end += got;
        r->bytes_read += (long long)got;
        if (got == 0) {
            if (ferror(r->fp)) {
                r->io_error = true;
                r->io_errno = errno ? errno : EIO;
            } else {
                r->eof = true;
            }
        }
    }
    r->line_no++;
    if (r->len > 0 && r->line[r->len - 1] == '\r')
        r->len--;
    if (r->line_no == 1 && r->len >= 3 && !memcmp(r->line, "\xEF\xBB\xBF", 3)) {
        r->line += 3;
        r->len -= 3;
        r->line_offset += 3;
    }
    r->pos = 0;
    r->have_line = true;
    return true;
}

// Like next_line but passes over '%' escape lines.
static bool next_text_line(PgnReader *r) {
    while (next_line(r))
        if (r->len == 0 || r->line[0] != '%')
            return true;
    return false;
}


static int fail_at(PgnReader *r, int line, int col, SkipMode skip, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail_at(PgnReader *r, int line, int col, SkipMode skip, const char *fmt, ...) {
    PgnError *e = r->err;
    snprintf(e->file, sizeof e->file, "%s", r->name);
    e->line = line;
    e->column = col;
    e->game_number = r->game_number;
    int n = snprintf(e->message, sizeof e->message, "game %d: ", r->game_number);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof e->message)
        vsnprintf(e->message + n, sizeof e->message - (size_t)n, fmt, ap);
    va_end(ap);
    r->skip = skip;
    return -1;
}

static int fail_here(PgnReader *r, const char *fmt, const char *arg) {
    return fail_at(r, r->line_no, (int)r->pos + 1, r->in_tags ? SKIP_TAGS : SKIP_MOVES, fmt, arg);
}

// Skips the rest of a game that had an error; see SkipMode.
static void skip_bad_game(PgnReader *r) {
    SkipMode mode = r->skip;
    r->skip = SKIP_NONE;
    if (mode == SKIP_NONE)
        return;
    while (next_line(r)) {
        size_t i = 0;
        while (i < r->len && is_space(r->line[i]))
            i++;
        bool blank = i == r->len;
        bool tag = r->len > 0 && r->line[0] == '[';
        if (mode == SKIP_TAGS) {
            if (!tag)
                mode = SKIP_MOVES;
            continue;
        }
        if (tag && !blank)
            return; // the next game starts here; the line stays current
    }
}

static bool scratch_reserve(PgnReader *r, size_t more) {
    if (r->slen + more + 1 <= r->scap)
        return true;
    size_t cap = r->scap ? r->scap : 1024;
    while (r->slen + more + 1 > cap)
        cap *= 2;
    char *s = realloc(r->scratch, cap);
    if (!s)
        return false;
    r->scratch = s;
    r->scap = cap;
    return true;
}

// Appends comment text with blank runs folded into single spaces.
static bool scratch_add_text(PgnReader *r, const char *s, size_t n) {
    if (!scratch_reserve(r, n + 1))
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (is_space(c) || c == '\n') {
            if (r->slen > 0 && r->scratch[r->slen - 1] != ' ')
                r->scratch[r->slen++] = ' ';
        } else {
            r->scratch[r->slen++] = c;
        }
    }
    r->scratch[r->slen] = '\0';
    return true;
}

static Level *level(PgnReader *r) {
    return &r->levels[r->depth];
}

static bool ensure_levels(PgnReader *r, int depth) {
    if (depth < r->levels_cap)
        return true;
    int cap = r->levels_cap ? r->levels_cap * 2 : 4;
    while (cap <= depth)
        cap *= 2;
    Level *l = realloc(r->levels, (size_t)cap * sizeof *l);
    if (!l)
        return false;
    r->levels = l;
    r->levels_cap = cap;
    return true;
}

// Whether a Variant tag names a game whose moves are not chess moves (the
// names lichess, chess.com and xboard write). A list of the others rather
// than of chess's names: tools write chess itself in many ways ("Standard",
// "From Position", "normal", "Chess 960"), and those must still be read.
static bool variant_is_not_chess(const char *value) {
    static const char *const others[] = {
        "crazyhouse", "antichess", "atomic",    "horde",   "kingofthehill", "koth",
        "racingkings", "threecheck", "3check",  "suicide", "giveaway",      "losers",
        "bughouse",   "shatranj",  "xiangqi",   "shogi",   "capablanca",    "gothic",
        "seirawan",   "makruk",    "knightmate", "twokings", "placement",   "fairy",
    };
    char key[64];
    size_t n = 0;
    for (const char *p = value; *p; p++) {
        if (*p == ' ' || *p == '-' || *p == '_') // "King of the Hill", "three-check"
            continue;
        bool lower = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9');
        if ((!lower && !(*p >= 'A' && *p <= 'Z')) || n + 1 >= sizeof key)
            return false; // no name of the list (and nothing raw to print back)
        key[n++] = lower ? *p : (char)(*p - 'A' + 'a');
    }
    key[n] = '\0';
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        if (!strcmp(key, others[i]))
            return true;
    return false;
}

// Sets up level 0 from the FEN tag or the standard position.
static int start_game_position(PgnReader *r) {
    if (r->started)
        return 0;
    r->started = true;
    r->in_tags = false;
    // Read as chess, such a game's moves fail far from the cause ("unreadable
    // move 'P'" for a drop), or worse are read as a chess game that was never
    // played (an atomic capture leaves no explosion).
    if (r->variant[0])
        return fail_at(r, r->variant_line, r->variant_col, SKIP_MOVES,
                       "a game of the variant '%s': patzer reads chess and Chess960 only",
                       r->variant);
    Level *l = &r->levels[0];
    if (r->fen_seen && !r->setup_zero) {
        char why[160];
        if (!board_set_fen(&l->board, r->fen, why, sizeof why))
            return fail_at(r, r->fen_line, r->fen_col, SKIP_MOVES, "bad FEN tag: %s", why);
    } else {
        l->board = *r->standard;
    }
    if (r->v->start)
        r->v->start(r->v->ctx, &l->board);
    return 0;
}

// A finished comment (in r->scratch) goes to the visitor.
static int attach_comment(PgnReader *r) {
    if (!r->v->comment)
        return 0;
    const char *why = r->v->comment(r->v->ctx, r->scratch, r->slen);
    return why ? fail_here(r, "%s", why) : 0;
}

// Scans a comment from r->pos (just after '{') to its '}', across lines.
static int read_brace_comment(PgnReader *r) {
    int open_line = r->line_no, open_col = (int)r->pos;
    r->slen = 0;
    if (r->scratch)
        r->scratch[0] = '\0';
    for (;;) {
        const char *s = r->line + r->pos;
        size_t n = r->len - r->pos;
        const char *close = memchr(s, '}', n);
        size_t take = close ? (size_t)(close - s) : n;
        if (r->v->comment && !scratch_add_text(r, s, take))
            return fail_here(r, "%s", "out of memory");
        if (close) {
            r->pos += take + 1;
            return attach_comment(r);
        }
        if (r->v->comment && !scratch_add_text(r, " ", 1))
            return fail_here(r, "%s", "out of memory");
        if (!next_text_line(r))
            return fail_at(r, open_line, open_col, SKIP_NONE,
                           "unclosed comment: '{' has no matching '}'");
        if (pgn_lex_tag_line(r->line, r->len))
            return fail_at(r, open_line, open_col, SKIP_NONE,
                           "unclosed comment: '{' has no matching '}' before the next game's tags");
    }
}

// A control byte or a byte of a non-ASCII character where PGN expects
// none: named by its value, never written raw to a terminal.
static bool is_raw_byte(char c) {
    return (unsigned char)c < 0x20 || (unsigned char)c >= 0x7f;
}

// Reads a tag pair at r->pos ('[').
static int read_tag(PgnReader *r) {
    const char *s = r->line;
    size_t n = r->len, i = r->pos + 1;
    int tag_col = (int)r->pos + 1;
    while (i < n && is_space(s[i]))
        i++;
    size_t name = i;
    while (i < n && is_name_char(s[i]))
        i++;
    size_t name_len = i - name;
    r->pos = i;
    if (i < n && is_raw_byte(s[i]) && !is_space(s[i]))
        return fail_at(r, r->line_no, (int)i + 1, r->in_tags ? SKIP_TAGS : SKIP_MOVES,
                       "bad tag: unexpected byte 0x%02X", (unsigned)(unsigned char)s[i]);
    if (name_len == 0 || name_len > 255)
        return fail_here(r, "bad tag: %s", "expected a tag name after '['");
    while (i < n && is_space(s[i]))
        i++;
    r->pos = i;
    if (i >= n || s[i] != '"')
        return fail_here(r, "bad tag: %s", "expected '\"' before the tag value");
    i++;
    r->slen = 0;
    for (;;) {
        if (i >= n) {
            r->pos = i;
            return fail_here(r, "bad tag: %s", "the tag value has no closing '\"'");
        }
        char c = s[i++];
        if (c == '"')
            break;
        if (c == '\\' && i < n && (s[i] == '"' || s[i] == '\\'))
            c = s[i++];
        // A stray carriage return (or other control character) in a value
        // is read as a blank: tag values are one line.
        if ((unsigned char)c < ' ')
            c = ' ';
        if (!scratch_reserve(r, 1))
            return fail_here(r, "%s", "out of memory");
        r->scratch[r->slen++] = c;
    }
    // An empty value may be the first use of the buffer.
    if (!scratch_reserve(r, 1))
        return fail_here(r, "%s", "out of memory");
    r->scratch[r->slen] = '\0';
    while (i < n && is_space(s[i]))
        i++;
    r->pos = i;
    if (i >= n || s[i] != ']')
        return fail_here(r, "bad tag: %s", "expected ']' after the tag value");
    r->pos = i + 1;

    char tag_name[256];
    memcpy(tag_name, s + name, name_len);
    tag_name[name_len] = '\0';
    if (!strcmp(tag_name, "FEN")) {
        r->fen_seen = true;
        snprintf(r->fen, sizeof r->fen, "%s", r->scratch);
        r->fen_line = r->line_no;
        r->fen_col = tag_col;
    } else if (!strcmp(tag_name, "SetUp")) {
        r->setup_zero = !strcmp(r->scratch, "0");
    } else if (!strcmp(tag_name, "Variant")) {
        bool other = variant_is_not_chess(r->scratch);
        snprintf(r->variant, sizeof r->variant, "%s", other ? r->scratch : "");
        r->variant_line = r->line_no;
        r->variant_col = tag_col;
    } else if (!strcmp(tag_name, "Result") && pgn_is_result(r->scratch)) {
        strcpy(r->tag_result, r->scratch);
    }
    const char *why = r->v->tag ? r->v->tag(r->v->ctx, tag_name, r->scratch) : NULL;
    return why ? fail_here(r, "bad tag: %s", why) : 0;
}

// The part of a notation message after "'text': ".
static const char *reason_of(const char *msg) {
    const char *p = strstr(msg, "': ");
    return p ? p + 3 : msg;
}


// Plays the move text s (n bytes, suffix annotations already split off): a
// move or a null move.
static int play_move(PgnReader *r, const char *s, size_t n, int col) {
    int rc = start_game_position(r);
    if (rc)
        return rc;
    Level *l = level(r);
    Move m = MOVE_NONE;
    char why[256];
    NotationStatus st = notation_parse_move_n(&l->board, s, n, &m, why, sizeof why);
    if (st == NOTATION_UNPARSEABLE && pgn_lex_null_move(s, n)) {
        // Passing the turn in check would leave a king en prise.
        if (board_in_check(&l->board))
            return fail_at(r, r->line_no, col, SKIP_MOVES,
                           "null move '%.*s' at move %d (%s) while in check", (int)n, s,
                           l->board.fullmove, l->board.side == WHITE ? "White" : "Black");
        m = MOVE_NULL;
        st = NOTATION_OK;
    }
    if (st != NOTATION_OK) {
        char text[64];
        snprintf(text, sizeof text, "%.*s", (int)(n < 60 ? n : 60), s);
        char fen[FEN_MAX];
        board_to_fen(&l->board, fen, sizeof fen);
        const char *kind = st == NOTATION_AMBIGUOUS ? "ambiguous"
                           : st == NOTATION_ILLEGAL ? "illegal"
                                                    : "unreadable";
        const char *detail = st == NOTATION_UNPARSEABLE ? "not a move" : reason_of(why);
        return fail_at(r, r->line_no, col, SKIP_MOVES,
                       "%s move '%s' at move %d (%s), position: %s: %s%s", kind, text,
                       l->board.fullmove, l->board.side == WHITE ? "White" : "Black", fen,
                       st == NOTATION_AMBIGUOUS ? "could be " : "", detail);
    }
    const char *fault =
        r->v->move ? r->v->move(r->v->ctx, &l->board, m, r->depth, l->next_ply) : NULL;
    if (fault)
        return fail_at(r, r->line_no, col, SKIP_MOVES, "%s", fault);
    if (m == MOVE_NULL)
        board_make_null(&l->board, &l->undo);
    else
        board_make_move(&l->board, m, &l->undo);
    l->has_move = true;
    l->next_ply++;
    return 0;
}

static int add_nag(PgnReader *r, int nag, int col) {
    Level *l = level(r);
    if (!l->has_move)
        return fail_at(r, r->line_no, col, SKIP_MOVES, "annotation before any move");
    const char *why = r->v->nag ? r->v->nag(r->v->ctx, nag) : NULL;
    return why ? fail_at(r, r->line_no, col, SKIP_MOVES, "%s", why) : 0;
}


static int open_variation(PgnReader *r) {
    int rc = start_game_position(r);
    if (rc)
        return rc;
    Level *l = level(r);
    if (!l->has_move)
        return fail_here(r, "%s", "a variation must follow the move it replaces");
    if (r->depth + 1 > PGN_MAX_DEPTH)
        return fail_here(r, "%s", "variations nested too deeply");
    if (!ensure_levels(r, r->depth + 1))
        return fail_here(r, "%s", "out of memory");
    l = level(r); // the array may have moved
    Level *v = &r->levels[r->depth + 1];
    // The position before the line's last move: a copy of the line's board
    // with that move taken back. Variations need no further history.
    v->board = l->board;
    if (l->undo.move == MOVE_NULL)
        board_unmake_null(&v->board, &l->undo);
    else
        board_unmake_move(&v->board, &l->undo);
    v->has_move = false;
    v->next_ply = l->next_ply - 1;
    v->open_line = r->line_no;
    v->open_col = (int)r->pos + 1;
    if (r->v->variation)
        r->v->variation(r->v->ctx, true);
    r->depth++;
    r->pos++;
    return 0;
}

static int close_variation(PgnReader *r) {
    if (r->depth == 0)
        return fail_here(r, "%s", "')' without a matching '('");
    Level *v = level(r);
    if (!v->has_move)
        return fail_at(r, v->open_line, v->open_col, SKIP_MOVES, "empty variation");
    if (r->v->variation)
        r->v->variation(r->v->ctx, false);
    r->depth--;
    r->pos++;
    return 0;
}

static int unclosed_variation(PgnReader *r, SkipMode skip) {
    Level *v = level(r);
    return fail_at(r, v->open_line, v->open_col, skip,
                   "unclosed variation: '(' has no matching ')'");
}

// The game is over: a result, a new game's tags or the end of input.
// Where the game just finished ends in the input: at the line the next game
// starts on (blank lines after a termination marker are the game's), or
// within the line when more text follows the marker on it.
static void note_game_end(PgnReader *r, bool after_marker) {
    r->game_end = -1;
    if (after_marker) {
        for (;;) {
            while (r->have_line && r->pos < r->len && is_space(r->line[r->pos]))
                r->pos++;
            if (r->have_line && r->pos < r->len) {
                bool rest_of_line = r->pos > 0;
                r->game_end = r->line_offset + (long long)(rest_of_line ? r->pos : 0);
                r->game_shares_line |= rest_of_line;
                return;
            }
            if (!next_line(r))
                break;
        }
    } else if (r->have_line && r->pos < r->len) {
        r->game_end = r->line_offset; // a tag pair starts the next game on this line
        return;
    }
    r->game_end = pgn_reader_offset(r);
}

static int finish_game(PgnReader *r, const char *result) {
    int rc = start_game_position(r);
    if (rc)
        return rc;
    note_game_end(r, result != NULL);
    snprintf(r->result, sizeof r->result, "%s",
             result             ? result
             : r->tag_result[0] ? r->tag_result
                                : "*");
    if (r->v->end)
        r->v->end(r->v->ctx, r->result, &r->levels[0].board);
    return 1;
}

// Reads a symbol token at r->pos: a move number, a result or a move.
static int read_symbol(PgnReader *r) {
    const char *s = r->line + r->pos;
    size_t n = r->len - r->pos, i = 0;
    int col = (int)r->pos + 1;
    while (i < n && is_symbol_char(s[i]))
        i++;
    size_t tok = i;
    r->in_tags = false;
    // Move number: digits, then any dots.
    size_t d = 0;
    while (d < tok && s[d] >= '0' && s[d] <= '9')
        d++;
    if (d == tok) {
        while (i < n && s[i] == '.')
            i++;
        r->pos += i;
        return 0;
    }
    if ((tok == 3 && (!memcmp(s, "1-0", 3) || !memcmp(s, "0-1", 3))) ||
        (tok == 7 && !memcmp(s, "1/2-1/2", 7))) {
        if (r->depth > 0)
            return unclosed_variation(r, SKIP_MOVES);
        char res[8];
        memcpy(res, s, tok);
        res[tok] = '\0';
        r->pos += tok;
        return finish_game(r, res);
    }
    // A byte that ends the token inside a move (a NUL, a zero-width space
    // pasted with it) is the error, not the piece of the move before it.
    if (i < n && is_raw_byte(s[i]) && !is_space(s[i]) && s[i] != '\n')
        return fail_at(r, r->line_no, col + (int)i, SKIP_MOVES, "unexpected byte 0x%02X",
                       (unsigned)(unsigned char)s[i]);
    // Suffix annotation glued to the move.
    size_t a = i;
    while (a < n && (s[a] == '!' || s[a] == '?'))
        a++;
    r->in_tags = false;
    int rc = play_move(r, s, tok, col);
    if (rc)
        return rc;
    if (a > i) {
        int nag = pgn_lex_suffix_nag(s + i, a - i);
        if (!nag)
            return fail_at(r, r->line_no, (int)(r->pos + i) + 1, SKIP_MOVES,
                           "bad annotation '%.*s'", (int)(a - i), s + i);
        rc = add_nag(r, nag, (int)(r->pos + i) + 1);
        if (rc)
            return rc;
    }
    r->pos += a;
    return 0;
}

// Reads one game. 1 = read, 0 = end of input, -1 = error.
static int read_game(PgnReader *r) {
    skip_bad_game(r);
    r->depth = 0;
    r->in_tags = true;
    r->started = false;
    r->fen_seen = false;
    r->setup_zero = false;
    r->variant[0] = '\0';
    r->tag_result[0] = '\0';
    r->result[0] = '\0';
    if (!ensure_levels(r, 0))
        return -2;
    Level *l = &r->levels[0];
    l->has_move = false;
    l->next_ply = 0;
    bool begun = false;
    for (;;) {
        if (!r->have_line || r->pos >= r->len) {
            if (!next_text_line(r)) {
                if (r->io_error && !r->io_reported) {
                    r->io_reported = true;
                    if (!begun)
                        r->game_number++;
                    return fail_at(r, r->line_no, 1, SKIP_NONE, "read error: %s",
                                   strerror(r->io_errno));
                }
                if (!begun)
                    return 0;
                if (r->depth > 0)
                    return unclosed_variation(r, SKIP_NONE);
                return finish_game(r, NULL);
            }
            continue;
        }
        char c = r->line[r->pos];
        if (is_space(c) || c == '\n') {
            r->pos++;
            continue;
        }
        if (!begun) {
            begun = true;
            r->game_number++;
            // Text of the game before on this line: the game starts where it does.
            size_t k = 0;
            while (k < r->pos && is_space(r->line[k]))
                k++;
            r->game_shares_line = k < r->pos;
            r->game_line = r->line_no;
            r->game_start = r->line_offset + (long long)(k < r->pos ? r->pos : 0);
        }
        int rc = 0;
        switch (c) {
        case '[':
            if (r->in_tags) {
                rc = read_tag(r);
            } else {
                size_t k = 0;
                while (k < r->pos && is_space(r->line[k]))
                    k++;
                if (k == r->pos && r->depth == 0)
                    return finish_game(r, NULL); // next game; no result given
                if (k == r->pos && pgn_lex_tag_line(r->line, r->len))
                    return unclosed_variation(r, SKIP_NONE);
                rc = fail_here(r, "%s", "unexpected '['");
            }
            break;
        case '{':
            r->in_tags = false;
            r->pos++;
            rc = read_brace_comment(r);
            break;
        case ';':
            r->in_tags = false;
            r->slen = 0;
            if (r->v->comment && !scratch_add_text(r, r->line + r->pos + 1, r->len - r->pos - 1))
                rc = fail_here(r, "%s", "out of memory");
            r->pos = r->len;
            if (!rc)
                rc = attach_comment(r);
            break;
        case '(':
            r->in_tags = false;
            rc = open_variation(r);
            break;
        case ')': rc = close_variation(r); break;
        case '$': {
            size_t i = r->pos + 1;
            int nag = 0, digits = 0;
            while (i < r->len && r->line[i] >= '0' && r->line[i] <= '9' && digits < 4) {
                nag = nag * 10 + (r->line[i++] - '0');
                digits++;
            }
            if (digits == 0 || nag > 255)
                rc = fail_here(r, "%s", "bad NAG: expected $0 to $255");
            else
                rc = add_nag(r, nag, (int)r->pos + 1);
            if (!rc)
                r->pos = i;
            break;
        }
        case '!':
        case '?': {
            size_t i = r->pos;
            while (i < r->len && (r->line[i] == '!' || r->line[i] == '?'))
                i++;
            int nag = pgn_lex_suffix_nag(r->line + r->pos, i - r->pos);
            if (!nag)
                rc = fail_at(r, r->line_no, (int)r->pos + 1, SKIP_MOVES, "bad annotation '%.*s'",
                             (int)(i - r->pos), r->line + r->pos);
            else
                rc = add_nag(r, nag, (int)r->pos + 1);
            if (!rc)
                r->pos = i;
            break;
        }
        case '*':
            if (r->depth > 0)
                return unclosed_variation(r, SKIP_MOVES);
            r->pos++;
            return finish_game(r, "*");
        case '.': r->pos++; break;
        default:
            if (is_name_char(c) || c == '-') // '-': a null move "--"
                rc = read_symbol(r);
            else if (is_raw_byte(c)) // no raw byte on a terminal
                rc = fail_at(r, r->line_no, (int)r->pos + 1, r->in_tags ? SKIP_TAGS : SKIP_MOVES,
                             "unexpected byte 0x%02X", (unsigned)(unsigned char)c);
            else
                rc = fail_at(r, r->line_no, (int)r->pos + 1, r->in_tags ? SKIP_TAGS : SKIP_MOVES,
                             "unexpected character '%c'", c);
            break;
        }
        if (rc)
            return rc;
    }
}

int pgn_reader_visit(PgnReader *r, const PgnVisitor *v, PgnError *error) {
    static const PgnVisitor none = { 0 };
    r->err = error ? error : &r->spare_err;
    r->v = v ? v : &none;
    int rc = read_game(r);
    r->v = &none;
    if (rc == -2) {
        // Nowhere to keep even the main line's board.
        r->game_number++;
        return fail_at(r, r->line_no, 1, SKIP_MOVES, "out of memory");
    }
    return rc;
}

int pgn_reader_next(PgnReader *r, PgnGame *out, PgnError *error) {
    pgn_game_clear(out);
    PgnBuilder builder;
    PgnVisitor v;
    pgn_builder_init(&builder, out, &v);
    int rc = pgn_reader_visit(r, &v, error);
    if (rc == 1 && r->fp) {
        PgnSource src = {.number = r->game_number,
                         .start = r->game_start,
                         .end = r->game_end,
                         .file_size = r->file_size,
                         .file_mtime_ns = r->file_mtime_ns,
                         .shares_line = r->game_shares_line};
        snprintf(src.path, sizeof src.path, "%s", r->name);
        pgn_set_source(out, &src);
    }
    pgn_mark_saved(out); // as read: building it was no change
    return rc;
}

void pgn_reader_span(const PgnReader *r, PgnSpan *span) {
    span->start = r->game_start;
    span->end = r->game_end;
    span->line = r->game_line;
}

// The main-line visitor: the start position, the first moves of the main
// line and the players' ratings, into a PgnMainline.
static void mainline_start(void *ctx, const Board *start) {
    PgnMainline *ml = ctx;
    ml->start = *start;
}

static const char *mainline_move(void *ctx, const Board *before, Move m, int depth, int ply) {
    (void)before, (void)ply;
    PgnMainline *ml = ctx;
    if (depth == 0 && ml->count < ml->max)
        ml->moves[ml->count++] = m;
    return NULL;
}

static const char *mainline_tag(void *ctx, const char *name, const char *value) {
    PgnMainline *ml = ctx;
    if (strcmp(name, "WhiteElo") != 0 && strcmp(name, "BlackElo") != 0)
        return NULL;
    char *end;
    long elo = strtol(value, &end, 10);
    ml->elo[name[0] == 'W' ? WHITE : BLACK] =
        end != value && *end == '\0' && elo > 0 && elo < 65536 ? (int)elo : 0;
    return NULL;
}

// The summary of the game read last, whatever the visitor.
static void summarise(const PgnReader *r, int rc, PgnSummary *summary) {
    if (!summary)
        return;
    summary->game_number = r->game_number;
    summary->plies = 0;
    snprintf(summary->result, sizeof summary->result, "%s", r->result);
    summary->final_fen[0] = '\0';
    if (rc == 1) {
        summary->plies = r->levels[0].next_ply;
        board_to_fen(&r->levels[0].board, summary->final_fen, sizeof summary->final_fen);
    }
}

int pgn_reader_mainline(PgnReader *r, PgnSummary *summary, PgnMainline *line, PgnError *error) {
    line->count = 0;
    line->elo[WHITE] = line->elo[BLACK] = 0;
    PgnVisitor v = {
        .tag = mainline_tag, .start = mainline_start, .move = mainline_move, .ctx = line
    };
    int rc = pgn_reader_visit(r, &v, error);
    summarise(r, rc, summary);
    return rc;
}

long long pgn_reader_offset(const PgnReader *r) {
    return r->fp ? r->bytes_read - (long long)(r->end - r->start) : (long long)r->start;
}

int pgn_reader_validate(PgnReader *r, PgnSummary *summary, PgnError *error) {
    int rc = pgn_reader_visit(r, NULL, error);
    summarise(r, rc, summary);
    return rc;
}
