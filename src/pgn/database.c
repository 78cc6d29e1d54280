// SPDX-License-Identifier: GPL-3.0-or-later
// Writing games into PGN files that hold others: in place, appended, or the
// file anew. The file is read whole, the new text put together in memory
// and written through paths_write_atomic.
#include "src/pgn/database.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "src/pgn/read.h"
#include "src/pgn/write.h"

static long long mtime_ns(const struct stat *st) {
    return (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
}

// The file's size and time before a write, into change (-1 when missing).
static void change_begin(PgnFileChange *change, const char *path) {
    memset(change, 0, sizeof *change);
    snprintf(change->path, sizeof change->path, "%s", path);
    struct stat st;
    bool there = stat(path, &st) == 0;
    change->old_size = there ? (long long)st.st_size : -1;
    change->old_mtime_ns = there ? mtime_ns(&st) : -1;
}

// Points g's source at bytes [start, end) of the file as it is now: the
// game is as written there.
static void set_place(PgnGame *g, const char *path, int number, size_t start, size_t end) {
    PgnSource src = { .number = number, .start = (long long)start, .end = (long long)end };
    snprintf(src.path, sizeof src.path, "%s", path);
    struct stat st;
    if (stat(path, &st) == 0) {
        src.file_size = (long long)st.st_size;
        src.file_mtime_ns = mtime_ns(&st);
    }
    pgn_set_source(g, &src);
    pgn_mark_saved(g);
}

// The file's text (NULL with *len 0 when it does not exist: that is no error).
static bool read_existing(const char *path, char **text, size_t *len, char *err, size_t errsz) {
    *text = NULL;
    *len = 0;
    struct stat st;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT)
            return true;
        snprintf(err, errsz, "cannot read %s: %s", path, strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errsz, "%s is a directory", path);
        return false;
    }
    if (!S_ISREG(st.st_mode)) { // a FIFO would block, a device read without end
        snprintf(err, errsz, "%s is not a regular file", path);
        return false;
    }
    *text = paths_read_file(path, PGN_DB_MAX_BYTES, len, err, errsz);
    return *text != NULL;
}

// Whether the file's lines end in CR LF, as its first line end does: a game
// written among them ends its lines the same way (no file of mixed ends).
static bool crlf_file(const char *before, size_t nbefore, const char *after, size_t nafter) {
    const char *nl = memchr(before, '\n', nbefore);
    if (nl)
        return nl > before && nl[-1] == '\r';
    nl = memchr(after, '\n', nafter);
    return nl && nl > after && nl[-1] == '\r';
}

// Copies text to dst with each line end as eol; the bytes written.
static size_t copy_lines(char *dst, const char *text, size_t len, const char *eol) {
    size_t n = 0, eol_len = strlen(eol);
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            memcpy(dst + n, eol, eol_len);
            n += eol_len;
        } else {
            dst[n++] = text[i];
        }
    }
    return n;
}

// before + g's text + after, written to path; g's text lands at [*at, *end).
// With `separate`, a blank line is put between before and the game where
// before does not end with one (appending to a file that ends without).
static bool write_around(const PgnGame *g, const char *path, const char *before, size_t nbefore,
                         bool separate, const char *after, size_t nafter, size_t *at, size_t *end,
                         char *err, size_t errsz) {
    size_t len = 0;
    char *text = pgn_write_string(g, &len);
    const char *eol = crlf_file(before, nbefore, after, nafter) ? "\r\n" : "\n";
    size_t e = nbefore; // before without its last line end
    bool ends_line = e > 0 && before[e - 1] == '\n';
    if (ends_line && --e > 0 && before[e - 1] == '\r')
        e--;
    bool ends_blank = ends_line && e > 0 && before[e - 1] == '\n';
    bool nl = separate && nbefore > 0 && !ends_line;
    bool blank = separate && nbefore > 0 && (nbefore < 2 || !ends_blank || nl);
    char *all = text ? malloc(nbefore + 4 + 2 * len + nafter + 1) : NULL;
    if (!all) {
        free(text);
        snprintf(err, errsz, "cannot write %s: out of memory", path);
        return false;
    }
    size_t n = 0;
    memcpy(all, before, nbefore);
    n += nbefore;
    if (nl)
        n += copy_lines(all + n, "\n", 1, eol);
    if (blank)
        n += copy_lines(all + n, "\n", 1, eol);
    *at = n;
    n += copy_lines(all + n, text, len, eol);
    *end = n;
    memcpy(all + n, after, nafter);
    n += nafter;
    bool ok = paths_write_atomic(path, all, n, err, errsz);
    free(text);
    free(all);
    return ok;
}

bool pgn_db_write_back(PgnGame *g, PgnFileChange *change, char *err, size_t errsz) {
    const PgnSource *src = pgn_source(g);
    if (!src->path[0]) {
        snprintf(err, errsz, "the game comes from no file: save FILE names one");
        return false;
    }
    char path[PATH_MAX_LEN];
    snprintf(path, sizeof path, "%s", src->path);
    int number = src->number;
    if (src->shares_line) {
        snprintf(err, errsz,
                 "game %d of %s shares a line with another game, so it cannot be written back "
                 "alone: save FILE writes it to another file",
                 number, path);
        return false;
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(err, errsz, "cannot write game %d back to %s: %s", number, path, strerror(errno));
        return false;
    }
    if ((long long)st.st_size != src->file_size || mtime_ns(&st) != src->file_mtime_ns) {
        snprintf(err, errsz,
                 "%s changed on disk since game %d was read: not written (load it again, or "
                 "save FILE to write this game elsewhere)",
                 path, number);
        return false;
    }
    char *old;
    size_t len;
    if (!read_existing(path, &old, &len, err, errsz))
        return false;
    if (!old || (long long)len != src->file_size || src->start < 0 || src->end < src->start ||
        src->end > (long long)len) {
        free(old);
        snprintf(err, errsz, "%s changed on disk since game %d was read: not written", path,
                 number);
        return false;
    }
    size_t start = (size_t)src->start, end = (size_t)src->end, at, new_end;
    PgnFileChange done;
    change_begin(&done, path);
    bool ok =
        write_around(g, path, old, start, false, old + end, len - end, &at, &new_end, err, errsz);
    free(old);
    if (ok) {
        set_place(g, path, number, at, new_end);
        done.start = (long long)start;
        done.old_end = (long long)end;
        done.new_end = (long long)new_end;
        if (change)
            *change = done;
    }
    return ok;
}

PgnGame *pgn_db_read_game(const char *path, int number, const PgnPlace *place, char *err,
                          size_t errsz) {
    bool jump = place && place->start > 0 && number > 1;
    PgnReader *r = jump ? pgn_reader_open_at(path, place->start, place->line, number - 1, err, errsz)
                        : pgn_reader_open(path, err, errsz);
    if (!r)
        return NULL;
    PgnGame *g = pgn_game_new();
    if (!g) {
        pgn_reader_close(r);
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    PgnError perr;
    int got = 0;
    // Broken games before it are passed over: only game `number` counts.
    for (int seen = jump ? number - 1 : 0; seen < number; seen++)
        if ((got = pgn_reader_next(r, g, &perr)) == 0)
            break;
    pgn_reader_close(r);
    if (got == 1 && pgn_source(g)->number == number)
        return g;
    if (got == 0)
        snprintf(err, errsz, "%s has no game %d", path, number);
    else if (got < 0)
        snprintf(err, errsz, "%s:%d:%d: %s", perr.file, perr.line, perr.column, perr.message);
    else
        snprintf(err, errsz, "%s changed since its games were listed: load it again", path);
    pgn_game_free(g);
    return NULL;
}

int pgn_db_count(const char *path, char *err, size_t errsz) {
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT)
        return 0;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        snprintf(err, errsz, "%s is not a regular file", path); // a FIFO would block
        return -1;
    }
    PgnReader *r = pgn_reader_open(path, err, errsz);
    if (!r)
        return -1;
    PgnSummary sum = { 0 };
    int count = 0;
    int rc;
    while ((rc = pgn_reader_validate(r, &sum, NULL)) != 0)
        count = sum.game_number;
    pgn_reader_close(r);
    return count;
}

bool pgn_db_append(PgnGame *g, const char *path, int *number, PgnFileChange *change, char *err,
                   size_t errsz) {
    PgnFileChange done;
    change_begin(&done, path);
    int count = pgn_db_count(path, err, errsz);
    if (count < 0)
        return false;
    char *old;
    size_t len;
    if (!read_existing(path, &old, &len, err, errsz))
        return false;
    size_t at, end;
    bool ok = write_around(g, path, old ? old : "", len, true, "", 0, &at, &end, err, errsz);
    free(old);
    if (ok) {
        *number = count + 1;
        set_place(g, path, count + 1, at, end);
        // Nothing moved: the game and the separator before it are new bytes at the end.
        done.start = done.old_end = (long long)len;
        done.new_end = (long long)end;
        if (change)
            *change = done;
    }
    return ok;
}

bool pgn_db_replace_file(PgnGame *g, const char *path, PgnFileChange *change, char *err,
                         size_t errsz) {
    PgnFileChange done;
    change_begin(&done, path);
    size_t at, end;
    if (!write_around(g, path, "", 0, false, "", 0, &at, &end, err, errsz))
        return false;
    set_place(g, path, 1, at, end);
    done.whole = true;
    done.new_end = (long long)end;
    if (change)
        *change = done;
    return true;
}

void pgn_db_follow(PgnGame *other, const PgnFileChange *change) {
    PgnSource src = *pgn_source(other);
    if (!src.path[0] || !pgn_db_same_file(src.path, change->path))
        return;
    if (change->whole) {
        pgn_set_source(other, NULL);
        return;
    }
    if (src.file_size != change->old_size || src.file_mtime_ns != change->old_mtime_ns)
        return; // it knew another state of the file: its write-back stays refused
    if (src.start >= change->old_end) {
        long long shift = change->new_end - change->old_end;
        src.start += shift;
        src.end += shift;
    } else if (src.end > change->start) {
        pgn_set_source(other, NULL); // overlapped what was written (cannot happen for a game)
        return;
    }
    struct stat st;
    if (stat(change->path, &st) != 0)
        return;
    src.file_size = (long long)st.st_size;
    src.file_mtime_ns = mtime_ns(&st);
    pgn_set_source(other, &src);
}

bool pgn_db_same_file(const char *a, const char *b) {
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}
