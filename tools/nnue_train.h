// SPDX-License-Identifier: GPL-3.0-or-later
// tools/nnue_train: the trainer of the patzer NNUE v1 network (data/NNUE.md: (768 -> 256) x 2
// -> 1, SCReLU), private to tools/nnue_train*.c and the tests of the trainer.
//
// The positions stay in memory as their 32-byte datagen records (src/train/record.h) and are
// turned into features batch by batch, so tens of millions fit. The float model, its Adam
// state and the epoch count make up a Trainer; one epoch shuffles the training records with
// the trainer's own PRNG and runs the batches, each split over threads with a gradient
// buffer per thread summed in thread order, so a run is the same for a seed and a thread
// count, and a run resumed from a checkpoint is the same as one never stopped.
#ifndef TOOLS_NNUE_TRAIN_H
#define TOOLS_NNUE_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/types.h"
#include "src/train/record.h"

// The network and its quantisation (data/NNUE.md).
enum {
    NT_INPUTS = 768,
    NT_HIDDEN = 256,
    NT_QA = 255,
    NT_QB = 64,
    NT_SCALE = 400,
    NT_DESC_MAX = 4096,  // bytes of provenance text at most
    NT_HEADER_SIZE = 32, // v1: magic and six uint32 before the description
    NT_HEADER_V2 = 40,   // v2: and the bucket count and the flags
    NT_HEADER_V3 = 108,  // v3: and the king bucket count and map
    NT_MAX_FEATURES = 32,
    NT_MAX_BUCKETS = 8,
    NT_MAX_KING_BUCKETS = 4, // the trainer's schemes: 1, 2 or 4 (ntrain_king_bucket)
};

// The net's shape beyond its sizes (data/NNUE.md): output buckets by the number of pieces,
// each perspective mirrored a<->h while its own king is on files e-h, and king buckets: a
// set of input weights for each, chosen by the rank of the perspective's own king. One
// bucket, no mirror and one king bucket is the v1 net; more than one king bucket is v3.
typedef struct NtShape {
    int buckets;
    bool king_mirror;
    int king_buckets;
} NtShape;

// The king bucket of a perspective whose own king stands on rel_sq as it sees the board
// (ranks flipped for Black, mirrored a<->h if the net does): 2 buckets part the first rank
// from the rest, 4 the first rank, the second, the third and fourth, and the rest. Where
// a castled or sheltered king stands is where the evaluation of everything else changes
// most, and most positions have the king there, so those squares get buckets of their own.
static inline int ntrain_king_bucket(int king_buckets, int rel_sq) {
    int rank = rel_sq >> 3;
    if (king_buckets == 2)
        return rank > 0;
    if (king_buckets == 4)
        return rank == 0 ? 0 : rank == 1 ? 1 : rank <= 3 ? 2 : 3;
    return 0;
}

// The output bucket of a position of `pieces` pieces, as the engine's nnue_bucket.
static inline int ntrain_bucket(NtShape shape, int pieces) {
    int per = (32 + shape.buckets - 1) / shape.buckets;
    int k = (pieces - 2) / per;
    return k < 0 ? 0 : k >= shape.buckets ? shape.buckets - 1 : k;
}

// The parameters as one float array: the feature weights (per king bucket, feature-major,
// as in the file), the feature biases, the output weights (per bucket, side to move's half
// first) and the output biases, room for NT_MAX_KING_BUCKETS and NT_MAX_BUCKETS whatever the
// shape uses (the others stay unused).
enum {
    NT_FT_W = 0,
    NT_FT_ROWS = NT_MAX_KING_BUCKETS * NT_INPUTS, // feature rows of every king bucket
    NT_FT_B = NT_FT_W + NT_FT_ROWS * NT_HIDDEN,
    NT_OUT_W = NT_FT_B + NT_HIDDEN,
    NT_OUT_B = NT_OUT_W + NT_MAX_BUCKETS * 2 * NT_HIDDEN,
    NT_PARAMS = NT_OUT_B + NT_MAX_BUCKETS,
};

// Every parameter stays within this after each optimiser step, so the quantised products
// fit the engine's integer types (an output weight held on the 1/64 grid may be 127/64,
// 1.984: still 127 in the file).
#define NT_CLIP 1.98f

// ------------------------------------------------------------------------------ options

typedef struct NtOptions {
    const char *data;       // a datagen file or directory
    const char *out;        // the quantised net
    const char *checkpoint; // NULL: OUT.ckpt
    const char *init;       // a net file to start from (fine-tuning), or NULL: random weights
    bool resume;            // go on from the checkpoint when there is one
    bool all;               // keep the positions that are not quiet too
    bool last;              // write every epoch's net, not only the best on the held-out games
    bool mirror;            // also fit each position without castling rights mirrored (a<->h)
    int buckets;            // output buckets (1: the v1 net)
    bool king_mirror;       // the net mirrors a perspective whose king is on files e-h
    int king_buckets;       // input weight sets by the king's rank (1, 2 or 4; over 1: v3)
    long long limit;        // positions kept at most
    long long per_file;     // records read from the start of each file at most
    int min_ply;
    int max_score;     // positions whose search score is beyond this are left out
    int held_out;      // every held_out-th game of each file is kept for the validation loss
                       // (0: none)
    double lambda;     // the game result's share of the target (the rest: the search score)
    double eval_scale; // centipawns per unit of the sigmoid (0: fitted on the data's results)
    int epochs;
    int batch;
    double lr;       // Adam's first step size; cosine decay to lr / 100 at the end
    int grid_epochs; // the last ones fit with the output layer fixed on its quantised grid
    uint64_t seed;
    int threads;
} NtOptions;

// The default first step size, from random weights and from a net (--init) alike: fine-tuning
// at a third of it fitted fresh data less well and kept no more of the parent's
// (bench/results/2026-11-26-nnue-gen1.md).
#define NT_LR 0.001

void ntrain_options_default(NtOptions *o);
// Parses the command line (argv[0] is the program); false with the reason in err.
bool ntrain_parse_args(int argc, char **argv, NtOptions *o, char *err, size_t errsz);
// The usage text.
const char *ntrain_usage(void);

// ------------------------------------------------------------------------------ data

// Records kept as they are in the files, 32 bytes each.
typedef struct NtRecords {
    uint8_t (*rec)[TRAIN_RECORD_SIZE];
    long long count, cap;
} NtRecords;

typedef struct NtData {
    NtRecords train, held; // the fitted positions and those of the held-out games
    long long records;     // records read (within --per-file)
    long long games;       // games read
    long long held_games;
    uint64_t fingerprint; // of every kept record in order: a checkpoint fits only this data
} NtData;

// Reads and filters the positions. False with the reason in err (unreadable or malformed
// data, no usable positions, out of memory).
bool ntrain_load(const NtOptions *o, NtData *d, char *err, size_t errsz);
// Appends one record (for tests that build data in memory); false when out of memory.
bool ntrain_records_add(NtRecords *r, const uint8_t rec[TRAIN_RECORD_SIZE]);
void ntrain_records_free(NtRecords *r);
void ntrain_data_free(NtData *d);
uint64_t ntrain_fingerprint(const NtData *d);

// The feature of a piece seen from persp (data/NNUE.md: "Features") in king bucket 0.
static inline int ntrain_feature(Color persp, Piece pc, Square sq) {
    int rel = persp == WHITE ? sq : sq ^ 56;
    return (piece_color(pc) == persp ? 0 : 384) + piece_type(pc) * 64 + rel;
}

// The active features of a record from the side to move's view and from the other side's,
// in the same piece order; returns the count, and the side to move in *stm. Reads the
// record directly (the pieces are all the model needs); the record must be valid. mirror
// flips the board from a-file to h-file (only for a record ntrain_mirrorable accepts);
// the net's shape flips each perspective whose own king is on files e-h (king_mirror) and
// puts its features in its king's bucket.
int ntrain_features(const uint8_t rec[TRAIN_RECORD_SIZE], bool mirror, NtShape shape,
                    uint16_t us[NT_MAX_FEATURES], uint16_t them[NT_MAX_FEATURES], Color *stm);
// Whether a record's position may be mirrored left to right without changing its value: no
// side may still castle (a castling right names its rook's file).
bool ntrain_mirrorable(const uint8_t rec[TRAIN_RECORD_SIZE]);
// What the model is fitted to (data/NNUE.md: "Training"): its prediction is
// sigmoid(eval_cp / scale) and its target lambda * result + (1 - lambda) * sigmoid(score /
// scale). One scale for both, the one that best predicts the results from the search scores,
// keeps the net's centipawns those of the search that made the data, so the search's margins
// (futility, delta pruning, ...) mean the same with the net as without it.
// It carries the net's shape too, which every evaluation of the model needs.
typedef struct NtObjective {
    double lambda;
    double scale;
    NtShape shape;
} NtObjective;

// The v1 shape: one output bucket, no mirror, one king bucket.
#define NT_PLAIN ((NtShape){ .buckets = 1, .king_mirror = false, .king_buckets = 1 })

static inline NtShape ntrain_shape(const NtOptions *o) {
    return (NtShape){ .buckets = o->buckets,
                      .king_mirror = o->king_mirror,
                      .king_buckets = o->king_buckets };
}

static inline NtObjective ntrain_objective(const NtOptions *o) {
    return (NtObjective){ .lambda = o->lambda, .scale = o->eval_scale, .shape = ntrain_shape(o) };
}

// The training target of a record.
float ntrain_target(const uint8_t rec[TRAIN_RECORD_SIZE], NtObjective obj);
// The scale (centipawns) at which sigmoid(score / scale) predicts the records' game results
// best (least squares, golden-section search over 50..2000).
double ntrain_fit_scale(const NtRecords *r);

// ------------------------------------------------------------------------------ the model

typedef struct Trainer {
    float *params;     // NT_PARAMS
    float *m, *v;      // Adam's moments
    int epoch;         // epochs done
    uint64_t step;     // optimiser steps done
    uint64_t rng;      // the shuffling PRNG, as it is after `epoch` epochs
    double train_loss; // of the last epoch (mean over its batches)
    double held_loss;  // on the held-out positions after the last epoch (0: none)
    int best_epoch;    // the epoch whose net was written last (0: none yet): the
    double best_held;  // program's choice, kept in the checkpoint; and its held-out loss
} Trainer;

// Allocates the trainer and sets seeded initial weights; false when out of memory.
bool ntrain_init(Trainer *t, uint64_t seed);
void ntrain_free(Trainer *t);

// The float model's output for a record (eval_cp = out * NT_SCALE, side to move's view).
float ntrain_forward(const float *params, NtShape shape, const uint8_t rec[TRAIN_RECORD_SIZE]);
// Mean squared error of the model over the records.
double ntrain_loss(const float *params, const NtRecords *r, NtObjective obj, int threads);
// How many of the last epochs keep the output layer on its quantised grid: --grid-epochs,
// but at most a quarter of the run.
int ntrain_grid_epochs(const NtOptions *o);

typedef struct NtProgress {
    void (*report)(void *ctx, long long done, long long total); // may be NULL
    void *ctx;
} NtProgress;

// Runs one epoch over d->train (shuffle, batches, Adam, clipping), then measures the held-out
// loss. False, with the trainer unchanged, when the epoch's buffers cannot be allocated (a
// thread that cannot start has its share run by the caller: the same numbers, more slowly).
bool ntrain_epoch(Trainer *t, const NtData *d, const NtOptions *o, const NtProgress *pr, char *err,
                  size_t errsz);

// ------------------------------------------------------------------------------ quantisation

// The network as the file holds it and the engine computes with it.
typedef struct NtQuantised {
    int16_t ft_w[NT_FT_ROWS * NT_HIDDEN], ft_b[NT_HIDDEN]; // per king bucket, as in the parameters
    int16_t out_w[NT_MAX_BUCKETS * 2 * NT_HIDDEN]; // per bucket, as in the parameters
    int32_t out_b[NT_MAX_BUCKETS];
    NtShape shape;
} NtQuantised;

void ntrain_quantise(const float *params, NtShape shape, NtQuantised *q);
// The float weights a quantised net stands for (ft_w = q / QA, ft_b = q / QA, out_w = q / QB,
// out_b = q / (QA * QB)): quantising them again gives q exactly.
// Buckets and king buckets beyond q's own repeat its first (a net fine-tuned into more of
// them starts as its parent).
void ntrain_dequantise(const NtQuantised *q, float *params);
// The engine's evaluation of a record in centipawns, side to move's view (before its clamp
// to +-VALUE_EVAL_MAX).
int ntrain_quantised_eval(const NtQuantised *q, const uint8_t rec[TRAIN_RECORD_SIZE]);
// Over the first max records: the mean and the worst |quantised - float| evaluation in
// centipawns, the quantised net's loss (its eval in place of the float one's) and the float
// one's.
typedef struct NtQuantError {
    double mean, worst, loss, float_loss;
    long long count;
} NtQuantError;
void ntrain_quantisation_error(const float *params, const NtQuantised *q, const NtRecords *r,
                               long long max, NtObjective obj, NtQuantError *e);

// ------------------------------------------------------------------------------ files

uint32_t ntrain_fnv1a(const uint8_t *bytes, size_t n, uint32_t hash);
#define NT_FNV_INIT 2166136261u
// The size of a net file of that shape with a description of desc_len bytes (v1 for one
// bucket and no mirror, else v2).
size_t ntrain_net_size(NtShape shape, size_t desc_len);
// Writes the net file atomically (path.tmp, then rename). The description is cut (between
// UTF-8 characters) to NT_DESC_MAX bytes.
bool ntrain_write_net(const char *path, const NtQuantised *q, const char *desc, char *err,
                      size_t errsz);

// A net file read back (--init): its weights, description and checksum.
typedef struct NtParent {
    NtQuantised q;
    char desc[NT_DESC_MAX + 1];
    uint32_t checksum; // the file's last four bytes: names the net in a child's provenance
} NtParent;

// Reads a net file with the engine's strict reader (engine/nnue.c: magic, sizes, length,
// checksum). False with the file and what is wrong (e.g. "hidden is 512, expected 256") in
// err.
bool ntrain_read_net(const char *path, NtParent *p, char *err, size_t errsz);

// What a checkpoint must agree on with the run that resumes it.
typedef struct NtRunKey {
    uint64_t seed;
    uint64_t parent; // 1 << 32 | the --init net's checksum, or 0 without --init
    uint64_t fingerprint;
    long long train_count, held_count;
    int epochs, batch, grid_epochs, mirror, buckets, king_mirror, king_buckets;
    double lr, lambda, eval_scale;
} NtRunKey;

// parent: the --init net, or NULL.
void ntrain_run_key(const NtOptions *o, const NtData *d, const NtParent *parent, NtRunKey *k);
// Writes the trainer (weights, Adam state, epoch, step, PRNG, losses, best epoch) and the key
// atomically (path.tmp, then rename).
bool ntrain_save_checkpoint(const char *path, const Trainer *t, const NtRunKey *k, char *err,
                            size_t errsz);
// Reads a checkpoint into an initialised trainer; false with the reason (unreadable,
// malformed, or made by a run with other data or options: which) in err.
bool ntrain_load_checkpoint(const char *path, Trainer *t, const NtRunKey *k, char *err,
                            size_t errsz);

#endif
