// SPDX-License-Identifier: GPL-3.0-or-later
// The position index of a PGN file: built by replaying each game's main
// line, sorted by a radix sort on the key, written atomically, looked up by
// binary search over the mapped file.
#include "src/explore/index.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/book.h"
#include "src/pgn/read.h"
#include "src/util/digest.h"
#include "src/util/paths.h"

enum {
    INDEX_VERSION = 1,
    BYTE_ORDER_MARK = 0x01020304,
    EDGE_BYTES = 1024,      // hashed at each end of the source
    PROGRESS_GAMES = 1024,  // games between progress reports
    RESULT_WHITE = 0, RESULT_DRAW = 1, RESULT_BLACK = 2, RESULT_OTHER = 3,
};

static const char MAGIC[8] = { 'P', 'Z', 'X', 'I', 'N', 'D', 'E', 'X' };

typedef struct Record {
    uint64_t key;     // Polyglot key of the position
    uint16_t move;    // Polyglot move played from it
    uint16_t elo[2];  // White's and Black's rating, 0: none
    uint8_t result;   // RESULT_*
    uint8_t spare;
} Record;
_Static_assert(sizeof(Record) == 16, "records are 16 bytes on disk");

typedef struct Header {
    char magic[8];
    uint32_t version, byte_order;
    uint64_t source_size;
    int64_t source_mtime_sec, source_mtime_nsec;
    uint64_t source_hash; // of the first and last EDGE_BYTES
    uint64_t games, records;
    uint32_t max_plies, record_size;
    uint64_t records_hash;
    uint64_t reserved;    // 0; keeps the records 16-byte aligned
    uint64_t header_hash; // of every field above
} Header;
_Static_assert(sizeof(Header) == 96, "the header is 96 bytes on disk");

typedef struct Fingerprint {
    uint64_t size, hash;
    int64_t mtime_sec, mtime_nsec;
} Fingerprint;

struct ExploreIndex {
    char source[PATH_MAX_LEN];
    Header header;
    void *map;
    size_t map_len;
    const Record *records;
};

// ------------------------------------------------------------ hashing

// Word at a time: the records of a large index are hashed at every open.
static uint64_t hash_records(const Record *r, uint64_t n) {
    uint64_t h = DIGEST_BASIS;
    const uint64_t *w = (const uint64_t *)(const void *)r;
    for (uint64_t i = 0; i < 2 * n; i++) {
        h ^= w[i];
        h *= 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    return h;
}

static uint64_t hash_header(const Header *h) {
    return digest_bytes(DIGEST_BASIS, h, offsetof(Header, header_hash));
}

// Size, mtime and a hash of both ends: a file appended to or rewritten in
// place shows up in one of them, without reading it all.
static bool fingerprint(const char *path, Fingerprint *fp, char *err, size_t errsz) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(err, errsz, "cannot read %s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return false;
    }
    fp->size = (uint64_t)st.st_size;
    fp->mtime_sec = (int64_t)st.st_mtim.tv_sec;
    fp->mtime_nsec = (int64_t)st.st_mtim.tv_nsec;
    unsigned char buf[EDGE_BYTES];
    ssize_t a = pread(fd, buf, sizeof buf, 0);
    uint64_t h = digest_bytes(DIGEST_BASIS, buf, a > 0 ? (size_t)a : 0);
    off_t tail = st.st_size > EDGE_BYTES ? st.st_size - EDGE_BYTES : 0;
    ssize_t b = pread(fd, buf, sizeof buf, tail);
    fp->hash = digest_bytes(h, buf, b > 0 ? (size_t)b : 0);
    close(fd);
    if (a < 0 || b < 0) {
        snprintf(err, errsz, "cannot read %s: %s", path, strerror(errno));
        return false;
    }
    return true;
}

// ------------------------------------------------------------ where

static bool dir_writable(const char *path) {
    char dir[PATH_MAX_LEN];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    return access(dir, W_OK) == 0;
}

bool index_path_for(const char *pgn_path, char *buf, size_t bufsz, bool create) {
    char beside[PATH_MAX_LEN + 8];
    snprintf(beside, sizeof beside, "%s.pzx", pgn_path);
    char why[16];
    if (dir_writable(pgn_path) ||
        (access(beside, R_OK) == 0 && index_check(pgn_path, beside, why, sizeof why) == INDEX_FRESH)) {
        int n = snprintf(buf, bufsz, "%s", beside);
        return n >= 0 && (size_t)n < bufsz;
    }
    char dir[PATH_MAX_LEN], real[PATH_MAX];
    if (!paths_cache_dir(dir, sizeof dir, create))
        return false;
    const char *full = realpath(pgn_path, real) ? real : pgn_path;
    const char *base = strrchr(pgn_path, '/');
    base = base ? base + 1 : pgn_path;
    uint64_t h = digest_bytes(DIGEST_BASIS, full, strlen(full));
    int n = snprintf(buf, bufsz, "%s/%.200s-%016llx.pzx", dir, base, (unsigned long long)h);
    return n >= 0 && (size_t)n < bufsz;
}

// ------------------------------------------------------------ checking

static IndexState read_header(int fd, Header *h, uint64_t file_size, char *why, size_t whysz) {
    if (file_size < sizeof *h || pread(fd, h, sizeof *h, 0) != (ssize_t)sizeof *h) {
        snprintf(why, whysz, "too short for an index (truncated)");
        return INDEX_BAD;
    }
    if (memcmp(h->magic, MAGIC, sizeof MAGIC) != 0) {
        snprintf(why, whysz, "not a patzer index");
        return INDEX_BAD;
    }
    if (h->version != INDEX_VERSION || h->byte_order != BYTE_ORDER_MARK ||
        h->record_size != sizeof(Record)) {
        snprintf(why, whysz, "an index of another version or machine");
        return INDEX_BAD;
    }
    if (h->header_hash != hash_header(h)) {
        snprintf(why, whysz, "its header is corrupted");
        return INDEX_BAD;
    }
    if (h->records > (UINT64_MAX - sizeof *h) / sizeof(Record) ||
        file_size != sizeof *h + h->records * sizeof(Record)) {
        snprintf(why, whysz, "truncated or extended (%llu bytes, %llu records)",
                 (unsigned long long)file_size, (unsigned long long)h->records);
        return INDEX_BAD;
    }
    return INDEX_FRESH;
}

static bool same_source(const Header *h, const Fingerprint *fp) {
    return h->source_size == fp->size && h->source_mtime_sec == fp->mtime_sec &&
           h->source_mtime_nsec == fp->mtime_nsec && h->source_hash == fp->hash;
}

IndexState index_check(const char *pgn_path, const char *index_path, char *why, size_t whysz) {
    int fd = open(index_path, O_RDONLY);
    if (fd < 0) {
        snprintf(why, whysz, "no index yet");
        return INDEX_MISSING;
    }
    struct stat st;
    Header h;
    IndexState state = fstat(fd, &st) == 0 ? read_header(fd, &h, (uint64_t)st.st_size, why, whysz)
                                           : INDEX_BAD;
    close(fd);
    if (state != INDEX_FRESH)
        return state;
    Fingerprint fp;
    if (!fingerprint(pgn_path, &fp, why, whysz))
        return INDEX_BAD;
    if (!same_source(&h, &fp)) {
        snprintf(why, whysz, "the file changed since it was indexed");
        return INDEX_STALE;
    }
    return INDEX_FRESH;
}

// ------------------------------------------------------------ building

typedef struct Records {
    Record *items;
    size_t count, cap;
} Records;

static bool push(Records *r, const Record *rec) {
    if (r->count == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 1 << 16;
        Record *p = realloc(r->items, cap * sizeof *p);
        if (!p)
            return false;
        r->items = p;
        r->cap = cap;
    }
    r->items[r->count++] = *rec;
    return true;
}

// Byte d of a record's sort order, least significant first: the move's two
// bytes, then the key's eight.
static unsigned digit(const Record *r, int d) {
    return d < 2 ? (r->move >> (8 * d)) & 255 : (unsigned)(r->key >> (8 * (d - 2))) & 255;
}

// LSD radix sort by key, then move, a byte at a time (stable passes, the
// least significant first); a byte that is the same in every record costs
// only its count. The moves of a position then come in runs, which a
// lookup of a position with many games sums without searching.
// False when out of memory.
static bool sort_records(Record *items, size_t n) {
    Record *tmp = n ? malloc(n * sizeof *tmp) : NULL;
    if (n && !tmp)
        return false;
    Record *src = items, *dst = tmp;
    for (int d = 0; d < 10; d++) {
        size_t count[256] = { 0 };
        for (size_t i = 0; i < n; i++)
            count[digit(&src[i], d)]++;
        if (n == 0 || count[digit(&src[0], d)] == n)
            continue;
        size_t pos = 0;
        for (int b = 0; b < 256; b++) {
            size_t c = count[b];
            count[b] = pos;
            pos += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[digit(&src[i], d)]++] = src[i];
        Record *t = src;
        src = dst;
        dst = t;
    }
    if (src != items)
        memcpy(items, src, n * sizeof *items);
    free(tmp);
    return true;
}

static int result_code(const char *result) {
    if (!strcmp(result, "1-0"))
        return RESULT_WHITE;
    if (!strcmp(result, "0-1"))
        return RESULT_BLACK;
    if (!strcmp(result, "1/2-1/2"))
        return RESULT_DRAW;
    return RESULT_OTHER;
}

static bool seen_before(const uint64_t *keys, int n, uint64_t key) {
    for (int i = 0; i < n; i++)
        if (keys[i] == key)
            return true;
    return false;
}

// The main line's first moves and the positions before them (the line
// holds at most max_plies moves). A game that comes back to a position
// (1.Nf3 Nf6 2.Ng1 Ng8) counts there once, with the move it played first:
// the explorer counts games, not visits.
static bool add_game(Records *r, PgnMainline *line, const char *result) {
    Record rec = { .result = (uint8_t)result_code(result),
                   .elo = { (uint16_t)line->elo[WHITE], (uint16_t)line->elo[BLACK] } };
    Board *b = &line->start;
    uint64_t keys[INDEX_PLIES_MAX];
    int seen = 0;
    for (int i = 0; i < line->count && i < INDEX_PLIES_MAX; i++) {
        Move m = line->moves[i];
        if (m == MOVE_NULL)
            break; // a null move has no Polyglot code, and what follows is no opening
        rec.key = book_key(b);
        if (!seen_before(keys, seen, rec.key)) {
            keys[seen++] = rec.key;
            rec.move = book_encode_move(b, m);
            if (!push(r, &rec))
                return false;
        }
        board_play(b, m);
    }
    return true;
}

static bool write_file(const char *path, const Header *h, const Record *items, char *err,
                       size_t errsz) {
    char tmp[PATH_MAX_LEN + 16];
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errsz, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    bool ok = true;
    const char *parts[2] = { (const char *)h, (const char *)items };
    size_t lens[2] = { sizeof *h, (size_t)h->records * sizeof *items };
    for (int i = 0; i < 2 && ok; i++) {
        for (size_t done = 0; ok && done < lens[i];) {
            ssize_t w = write(fd, parts[i] + done, lens[i] - done);
            if (w < 0 && errno == EINTR)
                continue;
            ok = w > 0;
            done += w > 0 ? (size_t)w : 0;
        }
    }
    // No fsync: after a crash a torn index fails its checks and is rebuilt,
    // and the wait for the disk would double the time indexing takes.
    ok = ok && fchmod(fd, 0644) == 0;
    int saved = errno;
    ok = close(fd) == 0 && ok;
    if (ok && rename(tmp, path) == 0)
        return true;
    snprintf(err, errsz, "cannot write %s: %s", path, strerror(ok ? errno : saved));
    unlink(tmp);
    return false;
}

bool index_build(const char *pgn_path, const char *index_path, int max_plies,
                 IndexProgressFn progress, void *ctx, IndexProgress *done, char *err,
                 size_t errsz) {
    if (max_plies <= 0)
        max_plies = INDEX_PLIES_DEFAULT;
    if (max_plies > INDEX_PLIES_MAX)
        max_plies = INDEX_PLIES_MAX;
    IndexProgress p = { 0 };
    Fingerprint fp;
    if (!fingerprint(pgn_path, &fp, err, errsz))
        return false;
    p.total_bytes = (long long)fp.size;
    PgnReader *reader = pgn_reader_open(pgn_path, err, errsz);
    if (!reader)
        return false;
    Move *moves = malloc((size_t)max_plies * sizeof *moves);
    PgnMainline *line = malloc(sizeof *line);
    PgnSummary *summary = malloc(sizeof *summary);
    Records r = { 0 };
    PgnError perr;
    bool ok = moves && line && summary, cancelled = false;
    if (ok)
        *line = (PgnMainline){ .moves = moves, .max = max_plies };
    int rc;
    while (ok && (rc = pgn_reader_mainline(reader, summary, line, &perr)) != 0) {
        if (rc < 0) {
            p.bad_games++;
            continue;
        }
        size_t before = r.count;
        ok = add_game(&r, line, summary->result);
        p.games++;
        p.positions += (long long)(r.count - before);
        if (progress && p.games % PROGRESS_GAMES == 0) {
            p.bytes = pgn_reader_offset(reader);
            cancelled = !progress(&p, ctx);
            ok = ok && !cancelled;
        }
    }
    pgn_reader_close(reader);
    free(moves);
    free(line);
    free(summary);
    p.bytes = p.total_bytes;
    if (ok && progress && !progress(&p, ctx))
        ok = !(cancelled = true);
    if (ok && !sort_records(r.items, r.count))
        ok = false;
    if (!ok) {
        snprintf(err, errsz, cancelled ? "indexing %s was cancelled" : "out of memory indexing %s",
                 pgn_path);
        free(r.items);
        return false;
    }
    Header h = { .version = INDEX_VERSION,
                 .byte_order = BYTE_ORDER_MARK,
                 .source_size = fp.size,
                 .source_mtime_sec = fp.mtime_sec,
                 .source_mtime_nsec = fp.mtime_nsec,
                 .source_hash = fp.hash,
                 .games = (uint64_t)p.games,
                 .records = r.count,
                 .max_plies = (uint32_t)max_plies,
                 .record_size = sizeof(Record) };
    memcpy(h.magic, MAGIC, sizeof MAGIC);
    h.records_hash = hash_records(r.items, r.count);
    h.header_hash = hash_header(&h);
    ok = write_file(index_path, &h, r.items, err, errsz);
    free(r.items);
    if (ok && done)
        *done = p;
    return ok;
}

// ------------------------------------------------------------ reading

ExploreIndex *index_open(const char *pgn_path, const char *index_path, char *err, size_t errsz) {
    char why[256];
    if (index_check(pgn_path, index_path, why, sizeof why) != INDEX_FRESH) {
        snprintf(err, errsz, "%s: %s", index_path, why);
        return NULL;
    }
    ExploreIndex *ix = calloc(1, sizeof *ix);
    int fd = open(index_path, O_RDONLY);
    struct stat st;
    if (!ix || fd < 0 || fstat(fd, &st) != 0 ||
        read_header(fd, &ix->header, (uint64_t)st.st_size, why, sizeof why) != INDEX_FRESH) {
        snprintf(err, errsz, "%s: %s", index_path, ix ? "cannot read it" : "out of memory");
        if (fd >= 0)
            close(fd);
        free(ix);
        return NULL;
    }
    snprintf(ix->source, sizeof ix->source, "%s", pgn_path);
    ix->map_len = (size_t)st.st_size;
    ix->map = mmap(NULL, ix->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (ix->map == MAP_FAILED) {
        snprintf(err, errsz, "%s: cannot map it: %s", index_path, strerror(errno));
        free(ix);
        return NULL;
    }
    ix->records = (const Record *)(const void *)((const char *)ix->map + sizeof(Header));
    if (hash_records(ix->records, ix->header.records) != ix->header.records_hash) {
        snprintf(err, errsz, "%s: its records are corrupted", index_path);
        index_close(ix);
        return NULL;
    }
    return ix;
}

void index_close(ExploreIndex *ix) {
    if (!ix)
        return;
    if (ix->map && ix->map != MAP_FAILED)
        munmap(ix->map, ix->map_len);
    free(ix);
}

long long index_games(const ExploreIndex *ix) { return (long long)ix->header.games; }
long long index_positions(const ExploreIndex *ix) { return (long long)ix->header.records; }

bool index_current(const ExploreIndex *ix) {
    Fingerprint fp;
    char err[64];
    return fingerprint(ix->source, &fp, err, sizeof err) && same_source(&ix->header, &fp);
}

int index_lookup(const ExploreIndex *ix, const Board *b, IndexMove *out, int count, int max) {
    uint64_t key = book_key(b);
    size_t lo = 0, hi = (size_t)ix->header.records;
    while (lo < hi) { // the first record with a key >= key
        size_t mid = lo + (hi - lo) / 2;
        if (ix->records[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    int k = -1; // the entry of the last record's move: moves come in runs
    for (size_t i = lo; i < ix->header.records && ix->records[i].key == key; i++) {
        const Record *r = &ix->records[i];
        if (k < 0 || out[k].code != r->move) {
            k = 0;
            while (k < count && out[k].code != r->move)
                k++;
            if (k == count) {
                if (count == max) {
                    k = -1;
                    continue;
                }
                out[count++] = (IndexMove){ .code = r->move };
            }
        }
        IndexMove *m = &out[k];
        m->games++;
        m->white += r->result == RESULT_WHITE;
        m->draws += r->result == RESULT_DRAW;
        m->black += r->result == RESULT_BLACK;
        int rated = (r->elo[0] > 0) + (r->elo[1] > 0);
        if (rated) {
            m->rating_sum += (r->elo[0] + r->elo[1]) / rated;
            m->rated++;
        }
    }
    return count;
}
