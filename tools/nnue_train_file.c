// SPDX-License-Identifier: GPL-3.0-or-later
// tools/nnue_train: the files it writes. The net (data/NNUE.md: "Quantisation", "File format")
// and the checkpoint are both built whole in memory, checksummed, and written to a
// temporary file that is then renamed over the old one, so a run cut off at any moment
// leaves either the old file or the new one, never a torn one.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/errmsg.h"
#include "engine/nnue.h"
#include "src/util/text.h"
#include "tools/nnue_train.h"

enum { H = NT_HIDDEN };

static const char NET_MAGIC[8] = { 'P', 'Z', 'N', 'N', 'U', 'E', '0', '1' };
static const char NET_MAGIC_V2[8] = { 'P', 'Z', 'N', 'N', 'U', 'E', '0', '2' };
static const char NET_MAGIC_V3[8] = { 'P', 'Z', 'N', 'N', 'U', 'E', '0', '3' };
static const char CKPT_MAGIC[8] = { 'P', 'Z', 'N', 'N', 'C', 'K', 'P', '1' };

uint32_t ntrain_fnv1a(const uint8_t *bytes, size_t n, uint32_t hash) {
    for (size_t i = 0; i < n; i++)
        hash = (hash ^ bytes[i]) * 16777619u;
    return hash;
}

// ------------------------------------------------------------------------------ buffers

// A little-endian byte buffer of a known final size.
typedef struct Buf {
    uint8_t *data;
    size_t at, size;
} Buf;

static void put_bytes(Buf *b, const void *p, size_t n) {
    memcpy(b->data + b->at, p, n);
    b->at += n;
}
static void put32(Buf *b, uint32_t x) {
    for (int i = 0; i < 4; i++)
        b->data[b->at++] = (uint8_t)(x >> (8 * i));
}
static void put64(Buf *b, uint64_t x) {
    put32(b, (uint32_t)x);
    put32(b, (uint32_t)(x >> 32));
}
static void put_double(Buf *b, double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    put64(b, u);
}
static void put_floats(Buf *b, const float *x, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &x[i], sizeof u);
        put32(b, u);
    }
}

static uint32_t get32(Buf *b) {
    uint32_t x = 0;
    for (int i = 0; i < 4; i++)
        x |= (uint32_t)b->data[b->at++] << (8 * i);
    return x;
}
static uint64_t get64(Buf *b) {
    uint64_t lo = get32(b);
    return lo | (uint64_t)get32(b) << 32;
}
static double get_double(Buf *b) {
    uint64_t u = get64(b);
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}
static void get_floats(Buf *b, float *x, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint32_t u = get32(b);
        memcpy(&x[i], &u, sizeof u);
    }
}

static bool write_atomic(const char *path, const Buf *b, char *err, size_t errsz) {
    size_t len = strlen(path) + 5;
    char *tmp = malloc(len);
    if (!tmp)
        return errmsg_set(err, errsz, "out of memory");
    snprintf(tmp, len, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        errmsg_set(err, errsz, "%s: %s", tmp, strerror(errno));
        free(tmp);
        return false;
    }
    bool ok = fwrite(b->data, 1, b->size, f) == b->size;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        errmsg_set(err, errsz, "%s: %s", ok ? path : tmp, strerror(errno));
        remove(tmp);
        free(tmp);
        return false;
    }
    free(tmp);
    return true;
}

// ------------------------------------------------------------------------------ the net

// The format version a shape needs: the oldest that holds it.
static int net_version(NtShape shape) {
    return shape.king_buckets > 1 ? 3 : shape.buckets == 1 && !shape.king_mirror ? 1 : 2;
}

size_t ntrain_net_size(NtShape shape, size_t desc_len) {
    int v = net_version(shape);
    return (v == 1   ? NT_HEADER_SIZE
            : v == 2 ? NT_HEADER_V2
                     : NT_HEADER_V3) +
           desc_len + 2 * ((size_t)shape.king_buckets * NT_INPUTS * H + H) +
           (size_t)shape.buckets * (2 * 2 * H + 4) + 4;
}

static void put16(Buf *b, int16_t x) {
    uint16_t u = (uint16_t)x;
    b->data[b->at++] = (uint8_t)u;
    b->data[b->at++] = (uint8_t)(u >> 8);
}

bool ntrain_write_net(const char *path, const NtQuantised *q, const char *desc, char *err,
                      size_t errsz) {
    char text[NT_DESC_MAX + 1];
    size_t desc_len = text_copy(text, sizeof text, desc ? desc : "");
    Buf b = { .size = ntrain_net_size(q->shape, desc_len) };
    b.data = malloc(b.size);
    if (!b.data)
        return errmsg_set(err, errsz, "out of memory");
    int version = net_version(q->shape);
    put_bytes(&b,
              version == 1   ? NET_MAGIC
              : version == 2 ? NET_MAGIC_V2
                             : NET_MAGIC_V3,
              sizeof NET_MAGIC);
    const uint32_t header[] = { NT_INPUTS, H, NT_QA, NT_QB, NT_SCALE };
    for (size_t i = 0; i < sizeof header / sizeof *header; i++)
        put32(&b, header[i]);
    if (version >= 2) {
        put32(&b, (uint32_t)q->shape.buckets);
        put32(&b, q->shape.king_mirror ? NNUE_FLAG_MIRROR : 0);
    }
    if (version == 3) {
        put32(&b, (uint32_t)q->shape.king_buckets);
        for (int sq = 0; sq < 64; sq++)
            b.data[b.at++] = (uint8_t)ntrain_king_bucket(q->shape.king_buckets, sq);
    }
    put32(&b, (uint32_t)desc_len);
    put_bytes(&b, text, desc_len);
    for (int i = 0; i < q->shape.king_buckets * NT_INPUTS * H; i++)
        put16(&b, q->ft_w[i]);
    for (int i = 0; i < H; i++)
        put16(&b, q->ft_b[i]);
    for (int i = 0; i < q->shape.buckets * 2 * H; i++)
        put16(&b, q->out_w[i]);
    for (int k = 0; k < q->shape.buckets; k++)
        put32(&b, (uint32_t)q->out_b[k]);
    put32(&b, ntrain_fnv1a(b.data, b.at, NT_FNV_INIT));
    bool ok = write_atomic(path, &b, err, errsz);
    free(b.data);
    return ok;
}

// The trainer reads nets with the engine's reader, so what it fine-tunes from is exactly what
// the engine would play with; the two sides of data/NNUE.md must agree on the sizes.
_Static_assert((int)NT_INPUTS == (int)NNUE_INPUTS && (int)NT_HIDDEN == (int)NNUE_HIDDEN &&
                   (int)NT_QA == (int)NNUE_QA && (int)NT_QB == (int)NNUE_QB &&
                   (int)NT_SCALE == (int)NNUE_SCALE && (int)NT_DESC_MAX == (int)NNUE_DESC_MAX &&
                   (int)NT_HEADER_SIZE == (int)NNUE_HEADER_SIZE &&
                   (int)NT_HEADER_V2 == (int)NNUE_HEADER_V2 &&
                   (int)NT_HEADER_V3 == (int)NNUE_HEADER_V3 &&
                   (int)NT_MAX_BUCKETS == (int)NNUE_MAX_BUCKETS &&
                   (int)NT_MAX_KING_BUCKETS <= (int)NNUE_MAX_KING_BUCKETS,
               "the trainer and the engine disagree on the net (data/NNUE.md)");

bool ntrain_read_net(const char *path, NtParent *p, char *err, size_t errsz) {
    // One byte more than the largest valid file, so that trailing bytes are seen.
    size_t cap = nnue_file_size(3, NNUE_MAX_BUCKETS, NNUE_MAX_KING_BUCKETS, NNUE_DESC_MAX) + 1, len;
    uint8_t *bytes = malloc(cap);
    NnueNet *net = nnue_net_new();
    FILE *f = bytes && net ? fopen(path, "rb") : NULL;
    if (!f) {
        bool oom = !bytes || !net;
        free(bytes);
        nnue_net_free(net);
        return oom ? errmsg_set(err, errsz, "out of memory")
                   : errmsg_set(err, errsz, "--init %s: %s", path, strerror(errno));
    }
    len = fread(bytes, 1, cap, f);
    bool bad = ferror(f) != 0;
    fclose(f);
    char why[256];
    bool ok = !bad && nnue_net_load(net, bytes, len, why, sizeof why);
    // The trainer knows its own king bucket maps only (ntrain_king_bucket).
    bool own_map = ok && net->king_buckets <= NT_MAX_KING_BUCKETS;
    for (int sq = 0; own_map && sq < 64; sq++)
        own_map = net->king_bucket_of[sq] == ntrain_king_bucket(net->king_buckets, sq);
    if (ok && !own_map) {
        snprintf(why, sizeof why, "%d king buckets not laid out as the trainer lays them out",
                 net->king_buckets);
        ok = false;
    }
    if (!ok) {
        errmsg_set(err, errsz, "--init %s: %s", path, bad ? "read error" : why);
    } else {
        memcpy(p->q.ft_w, net->ft_w,
               (size_t)net->king_buckets * NT_INPUTS * NT_HIDDEN * sizeof p->q.ft_w[0]);
        memcpy(p->q.ft_b, net->ft_b, sizeof p->q.ft_b);
        _Static_assert(sizeof p->q.out_w == sizeof net->out_w, "output layers differ");
        memcpy(p->q.out_w, net->out_w, sizeof p->q.out_w);
        memcpy(p->q.out_b, net->out_b, sizeof p->q.out_b);
        p->q.shape = (NtShape){ .buckets = net->buckets,
                                .king_mirror = net->mirror,
                                .king_buckets = net->king_buckets };
        text_copy(p->desc, sizeof p->desc, net->desc);
        p->checksum = (uint32_t)bytes[len - 4] | (uint32_t)bytes[len - 3] << 8 |
                      (uint32_t)bytes[len - 2] << 16 | (uint32_t)bytes[len - 1] << 24;
    }
    free(bytes);
    nnue_net_free(net);
    return ok;
}

// ------------------------------------------------------------------------------ checkpoints

enum {
    // 2: the --init net's checksum (a run from one parent must not go on from another's);
    // 3: the eval scale; 4: --mirror; 5: the net's shape (buckets, king mirror); 6: king
    // buckets (and room for their weights).
    CKPT_VERSION = 6,
    CKPT_HEAD = 8 + 4 * 4 + 8 * 3 + 4 + 8 * 3 + 8 * 3 + 8 * 2 + 4 + 4 + 8 + 8 + 4 + 4 + 4 + 4,
    CKPT_SIZE = CKPT_HEAD + 3 * NT_PARAMS * 4 + 4,
};

void ntrain_run_key(const NtOptions *o, const NtData *d, const NtParent *parent, NtRunKey *k) {
    *k = (NtRunKey){ .seed = o->seed,
                     .parent = parent ? 1ULL << 32 | parent->checksum : 0,
                     .fingerprint = d->fingerprint,
                     .train_count = d->train.count,
                     .held_count = d->held.count,
                     .epochs = o->epochs,
                     .batch = o->batch,
                     .grid_epochs = ntrain_grid_epochs(o),
                     .mirror = o->mirror,
                     .buckets = o->buckets,
                     .king_mirror = o->king_mirror,
                     .king_buckets = o->king_buckets,
                     .lr = o->lr,
                     .lambda = o->lambda,
                     .eval_scale = o->eval_scale };
}

bool ntrain_save_checkpoint(const char *path, const Trainer *t, const NtRunKey *k, char *err,
                            size_t errsz) {
    Buf b = { .size = CKPT_SIZE };
    b.data = malloc(b.size);
    if (!b.data)
        return errmsg_set(err, errsz, "out of memory");
    put_bytes(&b, CKPT_MAGIC, sizeof CKPT_MAGIC);
    put32(&b, CKPT_VERSION);
    put32(&b, H);
    put32(&b, (uint32_t)t->epoch);
    put32(&b, (uint32_t)k->epochs);
    put64(&b, t->step);
    put64(&b, t->rng);
    put64(&b, k->seed);
    put32(&b, (uint32_t)k->batch);
    put_double(&b, k->lr);
    put_double(&b, k->lambda);
    put_double(&b, k->eval_scale);
    put64(&b, (uint64_t)k->train_count);
    put64(&b, (uint64_t)k->held_count);
    put64(&b, k->fingerprint);
    put_double(&b, t->train_loss);
    put_double(&b, t->held_loss);
    put32(&b, (uint32_t)k->grid_epochs);
    put32(&b, (uint32_t)t->best_epoch);
    put_double(&b, t->best_held);
    put64(&b, k->parent);
    put32(&b, (uint32_t)k->mirror);
    put32(&b, (uint32_t)k->buckets);
    put32(&b, (uint32_t)k->king_mirror);
    put32(&b, (uint32_t)k->king_buckets);
    put_floats(&b, t->params, NT_PARAMS);
    put_floats(&b, t->m, NT_PARAMS);
    put_floats(&b, t->v, NT_PARAMS);
    put32(&b, ntrain_fnv1a(b.data, b.at, NT_FNV_INIT));
    bool ok = write_atomic(path, &b, err, errsz);
    free(b.data);
    return ok;
}

static bool read_whole(const char *path, Buf *b, size_t want, char *err, size_t errsz) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return errmsg_set(err, errsz, "%s: %s", path, strerror(errno));
    b->data = malloc(want + 1);
    if (!b->data) {
        fclose(f);
        return errmsg_set(err, errsz, "out of memory");
    }
    b->size = fread(b->data, 1, want + 1, f);
    b->at = 0;
    bool bad = ferror(f);
    fclose(f);
    if (bad || b->size != want) {
        free(b->data);
        b->data = NULL;
        return bad ? errmsg_set(err, errsz, "%s: read error", path)
                   : errmsg_set(err, errsz, "%s: not a checkpoint of this trainer (%s)", path,
                                b->size < want ? "too short" : "too long");
    }
    return true;
}

bool ntrain_load_checkpoint(const char *path, Trainer *t, const NtRunKey *k, char *err,
                            size_t errsz) {
    Buf b;
    if (!read_whole(path, &b, CKPT_SIZE, err, errsz))
        return false;
    uint32_t sum = ntrain_fnv1a(b.data, CKPT_SIZE - 4, NT_FNV_INIT);
    b.at = CKPT_SIZE - 4;
    bool ok = false;
    if (memcmp(b.data, CKPT_MAGIC, sizeof CKPT_MAGIC) != 0)
        errmsg_set(err, errsz, "%s: not a checkpoint of this trainer (magic)", path);
    else if (get32(&b) != sum)
        errmsg_set(err, errsz, "%s: damaged checkpoint (checksum)", path);
    else
        ok = true;
    b.at = sizeof CKPT_MAGIC;
    uint32_t version = ok ? get32(&b) : 0, hidden = ok ? get32(&b) : 0;
    if (ok && (version != CKPT_VERSION || hidden != H))
        ok = errmsg_set(err, errsz, "%s: checkpoint version %u, hidden %u (want %d, %d)", path,
                        version, hidden, CKPT_VERSION, H);
    if (!ok) {
        free(b.data);
        return false;
    }
    int epoch = (int)get32(&b), epochs = (int)get32(&b);
    uint64_t step = get64(&b), rng = get64(&b), seed = get64(&b);
    int batch = (int)get32(&b);
    double lr = get_double(&b), lambda = get_double(&b), eval_scale = get_double(&b);
    long long train_count = (long long)get64(&b), held_count = (long long)get64(&b);
    uint64_t fingerprint = get64(&b);
    double train_loss = get_double(&b), held_loss = get_double(&b);
    int grid_epochs = (int)get32(&b), best_epoch = (int)get32(&b);
    double best_held = get_double(&b);
    uint64_t parent = get64(&b);
    int mirror = (int)get32(&b), buckets = (int)get32(&b), king_mirror = (int)get32(&b);
    int king_buckets = (int)get32(&b);
    // Resuming goes on exactly where the run stopped only with the same data and settings.
    const char *what = NULL;
    char was[96] = "", now[96] = "";
    if (train_count != k->train_count || held_count != k->held_count ||
        fingerprint != k->fingerprint) {
        what = "data";
        snprintf(was, sizeof was, "%lld + %lld held-out positions", train_count, held_count);
        snprintf(now, sizeof now, "%lld + %lld%s", k->train_count, k->held_count,
                 train_count == k->train_count && held_count == k->held_count ? ", others" : "");
    } else if (parent != k->parent) {
        what = "--init net";
        snprintf(was, sizeof was, parent ? "checksum %08x" : "none",
                 (unsigned)(parent & 0xFFFFFFFFu));
        snprintf(now, sizeof now, k->parent ? "checksum %08x" : "none",
                 (unsigned)(k->parent & 0xFFFFFFFFu));
    } else if (seed != k->seed) {
        what = "--seed";
        snprintf(was, sizeof was, "%llu", (unsigned long long)seed);
        snprintf(now, sizeof now, "%llu", (unsigned long long)k->seed);
    } else if (buckets != k->buckets || king_mirror != k->king_mirror ||
               king_buckets != k->king_buckets) {
        what = "net's shape";
        snprintf(was, sizeof was, "%d bucket%s%s, %d king bucket%s", buckets,
                 buckets == 1 ? "" : "s", king_mirror ? ", king mirror" : "", king_buckets,
                 king_buckets == 1 ? "" : "s");
        snprintf(now, sizeof now, "%d bucket%s%s, %d king bucket%s", k->buckets,
                 k->buckets == 1 ? "" : "s", k->king_mirror ? ", king mirror" : "", k->king_buckets,
                 k->king_buckets == 1 ? "" : "s");
    } else if (mirror != k->mirror) {
        what = "--mirror";
        snprintf(was, sizeof was, mirror ? "on" : "off");
        snprintf(now, sizeof now, k->mirror ? "on" : "off");
    } else if (epochs != k->epochs || batch != k->batch || grid_epochs != k->grid_epochs) {
        what = epochs != k->epochs ? "--epochs" : batch != k->batch ? "--batch" : "--grid-epochs";
        snprintf(was, sizeof was, "%d",
                 epochs != k->epochs ? epochs
                 : batch != k->batch ? batch
                                     : grid_epochs);
        snprintf(now, sizeof now, "%d",
                 epochs != k->epochs ? k->epochs
                 : batch != k->batch ? k->batch
                                     : k->grid_epochs);
    } else if (lr != k->lr || lambda != k->lambda) {
        what = lr != k->lr ? "--lr" : "--lambda";
        snprintf(was, sizeof was, "%g", lr != k->lr ? lr : lambda);
        snprintf(now, sizeof now, "%g", lr != k->lr ? k->lr : k->lambda);
    } else if (eval_scale != k->eval_scale) {
        what = "eval scale";
        snprintf(was, sizeof was, "%g cp", eval_scale);
        snprintf(now, sizeof now, "%g cp", k->eval_scale);
    } else if (epoch > epochs) {
        what = "epoch";
        snprintf(was, sizeof was, "%d", epoch);
        snprintf(now, sizeof now, "at most %d", epochs);
    }
    if (what) {
        errmsg_set(err, errsz, "%s: the checkpoint's %s is %s, this run's %s", path, what, was,
                   now);
        free(b.data);
        return false;
    }
    get_floats(&b, t->params, NT_PARAMS);
    get_floats(&b, t->m, NT_PARAMS);
    get_floats(&b, t->v, NT_PARAMS);
    free(b.data);
    t->epoch = epoch;
    t->step = step;
    t->rng = rng;
    t->train_loss = train_loss;
    t->held_loss = held_loss;
    t->best_epoch = best_epoch;
    t->best_held = best_held;
    return true;
}
