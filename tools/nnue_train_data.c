// SPDX-License-Identifier: GPL-3.0-or-later
// tools/nnue_train: the training positions. They are read with the datagen reader, filtered
// as the Texel tuner filters them (quiet, from --min-ply, within --max-score; every
// --held-out-th game kept apart), and stored as their 32-byte records; the features and
// the target are read straight from a record when a batch needs them.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bitboard.h"
#include "engine/errmsg.h"
#include "tools/nnue_train.h"

// The record's piece codes beyond the Piece values (src/train/record.h).
enum { CODE_CASTLING_ROOK = 12, CODE_EP_PAWN = 13 };

bool ntrain_records_add(NtRecords *r, const uint8_t rec[TRAIN_RECORD_SIZE]) {
    if (r->count == r->cap) {
        long long cap = r->cap ? r->cap * 2 : 65536;
        void *grown = realloc(r->rec, (size_t)cap * TRAIN_RECORD_SIZE);
        if (!grown)
            return false;
        r->rec = grown;
        r->cap = cap;
    }
    memcpy(r->rec[r->count++], rec, TRAIN_RECORD_SIZE);
    return true;
}

void ntrain_records_free(NtRecords *r) {
    free(r->rec);
    memset(r, 0, sizeof *r);
}

void ntrain_data_free(NtData *d) {
    ntrain_records_free(&d->train);
    ntrain_records_free(&d->held);
}

static uint64_t fnv64(const uint8_t *bytes, size_t n, uint64_t hash) {
    for (size_t i = 0; i < n; i++)
        hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
    return hash;
}

uint64_t ntrain_fingerprint(const NtData *d) {
    uint64_t h = 0xcbf29ce484222325ULL;
    const NtRecords *sets[2] = { &d->train, &d->held };
    for (int s = 0; s < 2; s++) {
        uint8_t count[8];
        for (int i = 0; i < 8; i++)
            count[i] = (uint8_t)((unsigned long long)sets[s]->count >> (8 * i));
        h = fnv64(count, sizeof count, h);
        if (sets[s]->count)
            h = fnv64(sets[s]->rec[0], (size_t)sets[s]->count * TRAIN_RECORD_SIZE, h);
    }
    return h;
}

static bool keep_position(const NtOptions *o, const TrainPosition *p) {
    int mag = p->score < 0 ? -p->score : p->score;
    return (o->all || train_is_quiet(p)) && mag <= o->max_score && p->ply >= o->min_ply;
}

bool ntrain_load(const NtOptions *o, NtData *d, char *err, size_t errsz) {
    memset(d, 0, sizeof *d);
    TrainReader r;
    if (!train_reader_open(&r, o->data, err, errsz))
        return false;
    int files = r.path_count;
    TrainPosition p;
    int st, file = -1;
    long long file_games = 0; // whole games read so far from the current file
    while ((st = train_reader_next(&r, &p, err, errsz)) == 1) {
        if (r.path_index != file) {
            file = r.path_index;
            file_games = 0;
        }
        d->records++;
        // The game this position belongs to is the one being counted, within its own file
        // (tools/tune counts over all files): so a game is held out or fitted whatever the
        // other files hold, a training on more of a growing run's files (a larger
        // --per-file, the next generation) holds out the same games as before, and a net
        // fine-tuned with --init is not measured on games its parent was fitted on.
        bool held = o->held_out && file_games % o->held_out == o->held_out - 1;
        if (p.flags & TRAIN_FLAG_GAME_END) {
            d->games++;
            file_games++;
            d->held_games += held;
        }
        // A growing run's files are read up to the same point each time, so that a training
        // on them reproduces; the rest of the file is not even read.
        if (r.record >= o->per_file)
            train_reader_skip_file(&r);
        if (!keep_position(o, &p))
            continue;
        uint8_t rec[TRAIN_RECORD_SIZE];
        train_encode(&p, rec);
        if (!ntrain_records_add(held ? &d->held : &d->train, rec)) {
            st = -1;
            errmsg_set(err, errsz, "out of memory after %lld positions",
                       d->train.count + d->held.count);
            break;
        }
        if (d->train.count + d->held.count >= o->limit)
            break;
    }
    train_reader_close(&r);
    if (st < 0) {
        ntrain_data_free(d);
        return false;
    }
    if (d->train.count == 0) {
        errmsg_set(err, errsz,
                   "%s: no positions to train on (%d .bin file%s, %lld records, %lld games, "
                   "%lld positions held out)",
                   o->data, files, files == 1 ? "" : "s", d->records, d->games, d->held.count);
        ntrain_data_free(d);
        return false;
    }
    d->fingerprint = ntrain_fingerprint(d);
    return true;
}

static int piece_code(const uint8_t rec[TRAIN_RECORD_SIZE], int n) {
    return (rec[8 + n / 2] >> (4 * (n & 1))) & 15;
}

bool ntrain_mirrorable(const uint8_t rec[TRAIN_RECORD_SIZE]) {
    Bitboard occ = 0;
    for (int i = 0; i < 8; i++)
        occ |= (Bitboard)rec[i] << (8 * i);
    int count = bb_count(occ);
    for (int n = 0; n < count && n < NT_MAX_FEATURES; n++)
        if (piece_code(rec, n) == CODE_CASTLING_ROOK)
            return false;
    return true;
}

int ntrain_features(const uint8_t rec[TRAIN_RECORD_SIZE], bool mirror, NtShape shape,
                    uint16_t us[NT_MAX_FEATURES], uint16_t them[NT_MAX_FEATURES], Color *stm) {
    Bitboard occ = 0;
    for (int i = 0; i < 8; i++)
        occ |= (Bitboard)rec[i] << (8 * i);
    Color side = (Color)(rec[31] & 1), other = (Color)!side;
    Square sqs[NT_MAX_FEATURES];
    Piece pcs[NT_MAX_FEATURES];
    Square king[COLOR_NB] = { SQ_A1, SQ_A1 };
    int n = 0;
    for (; occ && n < NT_MAX_FEATURES; n++) {
        Square s = bb_pop(&occ);
        int code = piece_code(rec, n);
        Piece pc = code == CODE_CASTLING_ROOK ? make_piece(s < 8 ? WHITE : BLACK, ROOK)
                   : code == CODE_EP_PAWN     ? make_piece(other, PAWN)
                                              : (Piece)code;
        // a-file <-> h-file: the same position to the evaluation once castling is gone.
        sqs[n] = mirror ? (Square)(s ^ 7) : s;
        pcs[n] = pc;
        if (piece_type(pc) == KING)
            king[piece_color(pc)] = sqs[n];
    }
    // The net's own mirror: each perspective sees its king on files a-d; and the block of
    // rows of its king's bucket.
    int flip_us = shape.king_mirror && (king[side] & 7) >= 4 ? 7 : 0;
    int flip_them = shape.king_mirror && (king[other] & 7) >= 4 ? 7 : 0;
    int rel_us = (side == WHITE ? king[side] : king[side] ^ 56) ^ flip_us;
    int rel_them = (other == WHITE ? king[other] : king[other] ^ 56) ^ flip_them;
    int base_us = ntrain_king_bucket(shape.king_buckets, rel_us) * NT_INPUTS;
    int base_them = ntrain_king_bucket(shape.king_buckets, rel_them) * NT_INPUTS;
    for (int k = 0; k < n; k++) {
        us[k] = (uint16_t)(base_us + ntrain_feature(side, pcs[k], (Square)(sqs[k] ^ flip_us)));
        them[k] =
            (uint16_t)(base_them + ntrain_feature(other, pcs[k], (Square)(sqs[k] ^ flip_them)));
    }
    *stm = side;
    return n;
}

// The record's search score and game result from the side to move's view.
static void score_and_result(const uint8_t rec[TRAIN_RECORD_SIZE], int *score, double *result) {
    *score = (int16_t)(rec[24] | rec[25] << 8);
    *result = ((rec[31] >> 1) & 3) / 2.0; // White's
    if (rec[31] & 1) {
        *score = -*score;
        *result = 1 - *result;
    }
}

float ntrain_target(const uint8_t rec[TRAIN_RECORD_SIZE], NtObjective obj) {
    int score;
    double result;
    score_and_result(rec, &score, &result);
    return (float)(obj.lambda * result + (1 - obj.lambda) / (1 + exp(-score / obj.scale)));
}

static double results_loss(const NtRecords *r, double scale) {
    double sum = 0;
    for (long long i = 0; i < r->count; i++) {
        int score;
        double result;
        score_and_result(r->rec[i], &score, &result);
        double diff = 1 / (1 + exp(-score / scale)) - result;
        sum += diff * diff;
    }
    return r->count ? sum / (double)r->count : 0;
}

double ntrain_fit_scale(const NtRecords *r) {
    double lo = 50, hi = 2000, g = (sqrt(5.0) - 1) / 2;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    double fa = results_loss(r, a), fb = results_loss(r, b);
    for (int i = 0; i < 30; i++) {
        if (fa < fb) {
            hi = b, b = a, fb = fa;
            a = hi - g * (hi - lo);
            fa = results_loss(r, a);
        } else {
            lo = a, a = b, fa = fb;
            b = lo + g * (hi - lo);
            fb = results_loss(r, b);
        }
    }
    return (lo + hi) / 2;
}
