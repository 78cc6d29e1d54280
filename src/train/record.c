// SPDX-License-Identifier: GPL-3.0-or-later
// The 32-byte training record (layout in record.h): packing, unpacking, and
// reading and appending record files.
#include "src/train/record.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/errmsg.h"

enum { CODE_CASTLING_ROOK = 12, CODE_EP_PAWN = 13, CODES_VALID = 14 };
enum { PIECES_MAX = 32, READ_CHUNK_RECORDS = 4096 };

// ------------------------------------------------------------------------------ positions

void train_position_from_board(TrainPosition *p, const Board *b) {
    memcpy(p->squares, b->squares, SQ_NB);
    p->side = b->side;
    p->castling = b->castling;
    p->ep = b->ep;
    p->halfmove = b->halfmove > 255 ? 255 : (uint8_t)b->halfmove;
}

void train_position_fen(const TrainPosition *p, char *buf, size_t bufsz) {
    // The engine's one FEN writer, on a board holding just what it prints:
    // the pieces, the side to move, the rights, the en-passant square and the
    // counters (the full-move number from the ply).
    Board b;
    memset(&b, 0, sizeof b);
    for (Square s = 0; s < SQ_NB; s++)
        b.squares[s] = p->squares[s] < PIECE_NB ? p->squares[s] : NO_PIECE;
    b.side = p->side;
    b.castling = p->castling;
    b.ep = p->ep < SQ_NB ? p->ep : SQ_NONE;
    b.halfmove = p->halfmove;
    b.fullmove = (uint16_t)(p->ply / 2 + 1);
    board_to_fen(&b, buf, bufsz);
}

bool train_position_to_board(const TrainPosition *p, Board *b, char *err, size_t errsz) {
    char fen[FEN_MAX + 16];
    train_position_fen(p, fen, sizeof fen);
    char why[160];
    if (!board_set_fen(b, fen, why, sizeof why))
        return errmsg_set(err, errsz, "bad position %s: %s", fen, why);
    return true;
}

// ------------------------------------------------------------------------------ records

static void put16(uint8_t *at, unsigned v) {
    at[0] = (uint8_t)(v & 0xFF);
    at[1] = (uint8_t)(v >> 8);
}
static unsigned get16(const uint8_t *at) {
    return at[0] | (unsigned)at[1] << 8;
}

// The square of the pawn that made the double step behind the en-passant square ep.
static Square ep_pawn_square(Color side, Square ep) {
    return side == WHITE ? ep - 8 : ep + 8;
}

// The castling right a rook on s stands for, 0 if none.
static int castling_right_of(Square s) {
    switch (s) {
    case SQ_H1: return CASTLE_WK;
    case SQ_A1: return CASTLE_WQ;
    case SQ_H8: return CASTLE_BK;
    case SQ_A8: return CASTLE_BQ;
    default: return 0;
    }
}

void train_encode(const TrainPosition *p, uint8_t rec[TRAIN_RECORD_SIZE]) {
    memset(rec, 0, TRAIN_RECORD_SIZE);
    Bitboard occ = 0;
    int count = 0;
    Square ep_pawn = p->ep < SQ_NB ? ep_pawn_square(p->side, p->ep) : SQ_NONE;
    for (Square s = 0; s < SQ_NB; s++) {
        int piece = p->squares[s];
        if (piece >= PIECE_NB)
            continue;
        int code = piece;
        if (piece_type((Piece)piece) == ROOK && (p->castling & castling_right_of(s)))
            code = CODE_CASTLING_ROOK;
        else if (s == ep_pawn)
            code = CODE_EP_PAWN;
        occ |= bb_square(s);
        if (count < PIECES_MAX)
            rec[8 + count / 2] |= (uint8_t)(code << (4 * (count & 1)));
        count++;
    }
    for (int i = 0; i < 8; i++)
        rec[i] = (uint8_t)(occ >> (8 * i));
    put16(rec + 24, (uint16_t)p->score);
    put16(rec + 26, p->move);
    put16(rec + 28, p->ply);
    rec[30] = p->halfmove;
    rec[31] = (uint8_t)(p->side | (p->result << 1) | ((p->flags & 15) << 3));
}

bool train_decode(const uint8_t rec[TRAIN_RECORD_SIZE], TrainPosition *p, char *err, size_t errsz) {
    Bitboard occ = 0;
    for (int i = 0; i < 8; i++)
        occ |= (Bitboard)rec[i] << (8 * i);
    if (bb_count(occ) > PIECES_MAX)
        return errmsg_set(err, errsz, "%d pieces (at most 32)", bb_count(occ));
    memset(p->squares, NO_PIECE, sizeof p->squares);
    p->side = (Color)(rec[31] & 1);
    p->castling = 0;
    p->ep = SQ_NONE;
    for (int i = 0; occ; i++) {
        Square s = bb_pop(&occ);
        int code = (rec[8 + i / 2] >> (4 * (i & 1))) & 15;
        if (code >= CODES_VALID)
            return errmsg_set(err, errsz, "invalid piece code %d", code);
        if (code == CODE_CASTLING_ROOK) {
            int right = castling_right_of(s);
            if (!right)
                return errmsg_set(err, errsz,
                                  "castling rook on a square that has no castling right");
            p->castling |= (uint8_t)right;
            code = make_piece(square_rank(s) == 0 ? WHITE : BLACK, ROOK);
        } else if (code == CODE_EP_PAWN) {
            Color them = !p->side;
            if (relative_rank(them, s) != 3)
                return errmsg_set(err, errsz, "en-passant pawn off its fourth rank");
            p->ep = (uint8_t)(them == WHITE ? s - 8 : s + 8);
            code = make_piece(them, PAWN);
        }
        p->squares[s] = (uint8_t)code;
    }
    p->score = (int16_t)get16(rec + 24);
    p->move = (Move)get16(rec + 26);
    p->ply = (uint16_t)get16(rec + 28);
    p->halfmove = rec[30];
    int result = (rec[31] >> 1) & 3;
    if (result > TRAIN_WHITE_WINS)
        return errmsg_set(err, errsz, "invalid game result %d", result);
    if (rec[31] & 0x80)
        return errmsg_set(err, errsz, "reserved bit set");
    p->result = (TrainResult)result;
    p->flags = (rec[31] >> 3) & 15;
    return true;
}

// ------------------------------------------------------------------------------ reading

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool add_path(TrainReader *r, const char *dir, const char *name) {
    char **grown = realloc(r->paths, (size_t)(r->path_count + 1) * sizeof *grown);
    if (!grown)
        return false;
    r->paths = grown;
    size_t len = (dir ? strlen(dir) + 1 : 0) + strlen(name) + 1;
    char *path = malloc(len);
    if (!path)
        return false;
    if (dir)
        snprintf(path, len, "%s/%s", dir, name);
    else
        snprintf(path, len, "%s", name);
    r->paths[r->path_count++] = path;
    return true;
}

static bool list_directory(TrainReader *r, const char *dir, char *err, size_t errsz) {
    DIR *d = opendir(dir);
    if (!d)
        return errmsg_set(err, errsz, "%s: %s", dir, strerror(errno));
    struct dirent *e;
    bool ok = true;
    while (ok && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".bin") == 0)
            ok = add_path(r, dir, e->d_name);
    }
    closedir(d);
    if (!ok)
        return errmsg_set(err, errsz, "out of memory");
    if (r->path_count > 1) // an empty directory has no list at all
        qsort(r->paths, (size_t)r->path_count, sizeof *r->paths, compare_names);
    return true;
}

bool train_reader_open(TrainReader *r, const char *path, char *err, size_t errsz) {
    memset(r, 0, sizeof *r);
    struct stat st;
    if (stat(path, &st) != 0)
        return errmsg_set(err, errsz, "%s: %s", path, strerror(errno));
    bool ok = S_ISDIR(st.st_mode)
                  ? list_directory(r, path, err, errsz)
                  : (add_path(r, NULL, path) || errmsg_set(err, errsz, "out of memory"));
    if (!ok)
        train_reader_close(r);
    return ok;
}

int train_reader_next(TrainReader *r, TrainPosition *p, char *err, size_t errsz) {
    for (;;) {
        if (!r->file) {
            if (r->path_index >= r->path_count)
                return 0;
            r->file = fopen(r->paths[r->path_index], "rb");
            r->record = 0;
            if (!r->file) {
                errmsg_set(err, errsz, "%s: %s", r->paths[r->path_index], strerror(errno));
                return -1;
            }
        }
        uint8_t rec[TRAIN_RECORD_SIZE];
        size_t got = fread(rec, 1, sizeof rec, r->file);
        if (got == sizeof rec) {
            char why[128];
            if (!train_decode(rec, p, why, sizeof why)) {
                errmsg_set(err, errsz, "%s: record %lld: %s", r->paths[r->path_index], r->record,
                           why);
                return -1;
            }
            r->record++;
            return 1;
        }
        bool bad = ferror(r->file) || got != 0;
        fclose(r->file);
        r->file = NULL;
        if (bad) {
            errmsg_set(err, errsz, "%s: %s after record %lld", r->paths[r->path_index],
                       got ? "truncated record" : "read error", r->record);
            return -1;
        }
        r->path_index++;
    }
}

void train_reader_skip_file(TrainReader *r) {
    if (!r->file)
        return;
    fclose(r->file);
    r->file = NULL;
    r->path_index++;
}

void train_reader_close(TrainReader *r) {
    if (r->file)
        fclose(r->file);
    for (int i = 0; i < r->path_count; i++)
        free(r->paths[i]);
    free(r->paths);
    memset(r, 0, sizeof *r);
}

// ------------------------------------------------------------------------------ writing

// Counts the whole games of an existing file and the bytes they fill.
static bool scan_games(const char *path, long long *games, long long *records, off_t *keep,
                       char *err, size_t errsz) {
    *games = *records = 0;
    *keep = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno == ENOENT || errmsg_set(err, errsz, "%s: %s", path, strerror(errno));
    uint8_t *buf = malloc((size_t)READ_CHUNK_RECORDS * TRAIN_RECORD_SIZE);
    if (!buf) {
        fclose(f);
        return errmsg_set(err, errsz, "out of memory");
    }
    long long index = 0;
    size_t got;
    while ((got = fread(buf, TRAIN_RECORD_SIZE, READ_CHUNK_RECORDS, f)) > 0) {
        for (size_t i = 0; i < got; i++, index++) {
            if ((buf[i * TRAIN_RECORD_SIZE + 31] >> 3) & TRAIN_FLAG_GAME_END) {
                (*games)++;
                *records = index + 1;
            }
        }
    }
    bool ok = !ferror(f) || errmsg_set(err, errsz, "%s: read error", path);
    free(buf);
    fclose(f);
    *keep = (off_t)(*records * TRAIN_RECORD_SIZE);
    return ok;
}

bool train_writer_open(TrainWriter *w, const char *path, char *err, size_t errsz) {
    memset(w, 0, sizeof *w);
    off_t keep;
    if (!scan_games(path, &w->games, &w->records, &keep, err, errsz))
        return false;
    struct stat st;
    if (stat(path, &st) == 0 && st.st_size != keep && truncate(path, keep) != 0)
        return errmsg_set(err, errsz, "%s: cannot cut the unfinished game: %s", path,
                          strerror(errno));
    w->file = fopen(path, "ab");
    if (!w->file)
        return errmsg_set(err, errsz, "%s: %s", path, strerror(errno));
    return true;
}

bool train_writer_add_game(TrainWriter *w, const TrainPosition *game, int n, char *err,
                           size_t errsz) {
    if (n <= 0)
        return true;
    uint8_t *buf = malloc((size_t)n * TRAIN_RECORD_SIZE);
    if (!buf)
        return errmsg_set(err, errsz, "out of memory");
    for (int i = 0; i < n; i++) {
        TrainPosition p = game[i];
        p.flags =
            (uint8_t)((p.flags & ~TRAIN_FLAG_GAME_END) | (i == n - 1 ? TRAIN_FLAG_GAME_END : 0));
        train_encode(&p, buf + (size_t)i * TRAIN_RECORD_SIZE);
    }
    size_t put = fwrite(buf, TRAIN_RECORD_SIZE, (size_t)n, w->file);
    free(buf);
    if (put != (size_t)n || fflush(w->file) != 0)
        return errmsg_set(err, errsz, "write error: %s", strerror(errno));
    w->games++;
    w->records += n;
    return true;
}

bool train_writer_close(TrainWriter *w) {
    bool ok = true;
    if (w->file)
        ok = fclose(w->file) == 0;
    w->file = NULL;
    return ok;
}
