// SPDX-License-Identifier: GPL-3.0-or-later
// tools/nnue_train: the float model (data/NNUE.md: "Float model"), its gradient and Adam.
//
// A sample touches only the rows of its active features, forward and backward, so a batch
// costs about 2 x 32 x 256 multiply-adds each way per position. A batch is cut into one
// contiguous slice per thread; each thread sums its slice's gradient into its own buffer,
// and the buffers are added in thread order, so the result depends on the thread count but
// never on timing. A thread that cannot be started has its slice run by the caller, which
// gives the same numbers.
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/errmsg.h"
#include "tools/nnue_train.h"

enum { H = NT_HIDDEN, LANES = 8, MAX_THREADS = 256 };

// ------------------------------------------------------------------------------ PRNG

// splitmix64: one 64-bit word of state, which the checkpoint keeps.
static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Uniform in [-a, a).
static float rng_uniform(uint64_t *s, float a) {
    return ((float)(rng_next(s) >> 40) * (1.0f / 16777216.0f) * 2.0f - 1.0f) * a;
}

// ------------------------------------------------------------------------------ set-up

bool ntrain_init(Trainer *t, uint64_t seed) {
    memset(t, 0, sizeof *t);
    t->params = malloc(NT_PARAMS * sizeof *t->params);
    t->m = calloc(NT_PARAMS, sizeof *t->m);
    t->v = calloc(NT_PARAMS, sizeof *t->v);
    if (!t->params || !t->m || !t->v) {
        ntrain_free(t);
        return false;
    }
    // About 30 pieces add up in an accumulator: weights of +-0.15 spread it with a standard
    // deviation near 0.5, across SCReLU's live range [0, 1] rather than beyond it. The
    // output starts small (+-1/sqrt(2H)) so that the first predictions are near 0.5.
    uint64_t init = seed ^ 0x6E6E75652D696E69ULL;
    for (int i = 0; i < NT_INPUTS * H; i++)
        t->params[NT_FT_W + i] = rng_uniform(&init, 0.15f);
    // Every king bucket starts from the first's weights too (so a net of one starts as it
    // always did): positions with the king elsewhere are few, and those buckets learn from
    // a sensible start rather than from noise.
    for (int k = 1; k < NT_MAX_KING_BUCKETS; k++)
        memcpy(t->params + NT_FT_W + (size_t)k * NT_INPUTS * H, t->params + NT_FT_W,
               (size_t)NT_INPUTS * H * sizeof(float));
    for (int i = 0; i < H; i++)
        t->params[NT_FT_B + i] = 0.0f;
    // Every bucket starts from the same output weights (the first bucket's draw, so a net of
    // one bucket starts as it always did): they part as their positions teach them.
    float out_range = 1.0f / sqrtf(2.0f * H);
    for (int i = 0; i < 2 * H; i++)
        t->params[NT_OUT_W + i] = rng_uniform(&init, out_range);
    for (int k = 1; k < NT_MAX_BUCKETS; k++)
        memcpy(t->params + NT_OUT_W + k * 2 * H, t->params + NT_OUT_W, 2 * H * sizeof(float));
    for (int k = 0; k < NT_MAX_BUCKETS; k++)
        t->params[NT_OUT_B + k] = 0.0f;
    t->rng = seed;
    return true;
}

void ntrain_free(Trainer *t) {
    free(t->params);
    free(t->m);
    free(t->v);
    t->params = t->m = t->v = NULL;
}

// ------------------------------------------------------------------------------ one sample

static inline float screlu(float x) {
    float c = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    return c * c;
}

// The accumulators of both perspectives (side to move first) and the output.
// *bucket: the output bucket used.
static float forward(const float *restrict p, NtShape shape, const uint8_t *rec, bool mirror,
                     float acc[2][H], float act[2][H], uint16_t feat[2][NT_MAX_FEATURES],
                     int *count, int *bucket) {
    Color stm;
    int n = ntrain_features(rec, mirror, shape, feat[0], feat[1], &stm);
    *count = n;
    int ob = *bucket = ntrain_bucket(shape, n);
    // LANES partial sums let the compiler vectorise the dot product without reordering
    // float additions behind our back (the result stays exactly reproducible).
    float part[LANES] = { 0 };
    for (int s = 0; s < 2; s++) {
        float *restrict a = acc[s];
        memcpy(a, p + NT_FT_B, H * sizeof *a);
        for (int k = 0; k < n; k++) {
            const float *restrict row = p + NT_FT_W + (size_t)feat[s][k] * H;
            for (int i = 0; i < H; i++)
                a[i] += row[i];
        }
        const float *restrict w = p + NT_OUT_W + ob * 2 * H + s * H;
        for (int i = 0; i < H; i += LANES) {
            for (int j = 0; j < LANES; j++) {
                act[s][i + j] = screlu(a[i + j]);
                part[j] += act[s][i + j] * w[i + j];
            }
        }
    }
    float out = p[NT_OUT_B + ob];
    for (int j = 0; j < LANES; j++)
        out += part[j];
    return out;
}

float ntrain_forward(const float *params, NtShape shape, const uint8_t rec[TRAIN_RECORD_SIZE]) {
    float acc[2][H], act[2][H];
    uint16_t feat[2][NT_MAX_FEATURES];
    int n, bucket;
    return forward(params, shape, rec, false, acc, act, feat, &n, &bucket);
}

// Adds the sample's squared error to *loss and, with grad, its gradient times scale.
static void sample(const float *restrict p, const uint8_t *rec, bool mirror, NtObjective obj,
                   float *restrict grad, float scale, double *loss) {
    float acc[2][H], act[2][H], d[2][H];
    uint16_t feat[2][NT_MAX_FEATURES];
    int n, ob;
    float out = forward(p, obj.shape, rec, mirror, acc, act, feat, &n, &ob);
    // eval_cp = out * NT_SCALE, so the sigmoid's argument is out * slope.
    float slope = (float)(NT_SCALE / obj.scale);
    float pred = 1.0f / (1.0f + expf(-out * slope));
    float diff = pred - ntrain_target(rec, obj);
    *loss += (double)diff * diff;
    if (!grad)
        return;
    // d loss / d out, then down through the output layer and SCReLU (2x on (0, 1)).
    float g = 2.0f * diff * pred * (1.0f - pred) * slope * scale;
    grad[NT_OUT_B + ob] += g;
    for (int s = 0; s < 2; s++) {
        const float *restrict w = p + NT_OUT_W + ob * 2 * H + s * H;
        float *restrict gw = grad + NT_OUT_W + ob * 2 * H + s * H;
        for (int i = 0; i < H; i++) {
            gw[i] += g * act[s][i];
            float a = acc[s][i];
            d[s][i] = a > 0.0f && a < 1.0f ? 2.0f * a * g * w[i] : 0.0f;
        }
    }
    float *restrict gb = grad + NT_FT_B;
    for (int i = 0; i < H; i++)
        gb[i] += d[0][i] + d[1][i];
    for (int s = 0; s < 2; s++) {
        for (int k = 0; k < n; k++) {
            float *restrict row = grad + NT_FT_W + (size_t)feat[s][k] * H;
            for (int i = 0; i < H; i++)
                row[i] += d[s][i];
        }
    }
}

// ------------------------------------------------------------------------------ threads

typedef struct Work {
    const float *params;
    const NtRecords *records;
    const uint32_t *order; // the shuffled indices, or NULL for the records in order
    long long lo, hi;
    NtObjective obj;
    float *grad; // NULL: the loss only
    float scale;
    // With mirror, a record is fitted mirrored in every other epoch (odd record + epoch), so
    // that both of its halves are seen as often and the run stays reproducible.
    bool mirror;
    int epoch;
    double loss;
} Work;

static void *run_work(void *arg) {
    Work *w = arg;
    w->loss = 0;
    if (w->grad)
        memset(w->grad, 0, NT_PARAMS * sizeof *w->grad);
    for (long long i = w->lo; i < w->hi; i++) {
        long long r = w->order ? w->order[i] : i;
        const uint8_t *rec = w->records->rec[r];
        bool mirror = w->mirror && ((r + w->epoch) & 1) && ntrain_mirrorable(rec);
        sample(w->params, rec, mirror, w->obj, w->grad, w->scale, &w->loss);
    }
    return NULL;
}

// Runs work[0..n) on n threads (the caller's among them) and waits for them all.
static void run_parallel(Work *work, int n) {
    pthread_t tid[MAX_THREADS];
    bool started[MAX_THREADS] = { false };
    for (int k = 1; k < n; k++)
        started[k] = pthread_create(&tid[k], NULL, run_work, &work[k]) == 0;
    run_work(&work[0]);
    for (int k = 1; k < n; k++) {
        if (started[k])
            pthread_join(tid[k], NULL);
        else
            run_work(&work[k]);
    }
}

// Cuts [lo, hi) into n slices.
static void split(Work *work, int n, long long lo, long long hi, Work base) {
    for (int k = 0; k < n; k++) {
        work[k] = base;
        work[k].lo = lo + (hi - lo) * k / n;
        work[k].hi = lo + (hi - lo) * (k + 1) / n;
    }
}

static int clamp_threads(int threads) {
    return threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
}

double ntrain_loss(const float *params, const NtRecords *r, NtObjective obj, int threads) {
    if (r->count == 0)
        return 0;
    int n = clamp_threads(threads);
    Work work[MAX_THREADS];
    split(work, n, 0, r->count, (Work){ .params = params, .records = r, .obj = obj });
    run_parallel(work, n);
    double sum = 0;
    for (int k = 0; k < n; k++)
        sum += work[k].loss;
    return sum / (double)r->count;
}

// ------------------------------------------------------------------------------ Adam

// Adam on the first `count` parameters (the others stay as they are).
static void adam_step(Trainer *t, const float *restrict g, double lr, int count) {
    const float beta1 = 0.9f, beta2 = 0.999f, eps = 1e-8f;
    double step = (double)(t->step + 1);
    float c1 = (float)(1.0 - pow(beta1, step)), c2 = (float)(1.0 - pow(beta2, step));
    float rate = (float)lr;
    float *restrict p = t->params, *restrict m = t->m, *restrict v = t->v;
    for (int j = 0; j < count; j++) {
        m[j] = beta1 * m[j] + (1.0f - beta1) * g[j];
        v[j] = beta2 * v[j] + (1.0f - beta2) * g[j] * g[j];
        float x = p[j] - rate * (m[j] / c1) / (sqrtf(v[j] / c2) + eps);
        p[j] = x < -NT_CLIP ? -NT_CLIP : x > NT_CLIP ? NT_CLIP : x;
    }
    t->step++;
}

// Cosine decay from lr to lr / 100 over the whole run.
static double schedule(double lr, uint64_t step, uint64_t total) {
    const double pi = 3.14159265358979323846;
    double lr_end = lr / 100, frac = total ? (double)step / (double)total : 0;
    return lr_end + (lr - lr_end) * 0.5 * (1 + cos(pi * frac));
}

int ntrain_grid_epochs(const NtOptions *o) {
    return o->grid_epochs < o->epochs / 4 ? o->grid_epochs : o->epochs / 4;
}

// Rounding the output weights to steps of 1/QB costs the engine most of its error against
// the float model (their trained size is a few tenths: a few bits of the int16). So the last
// epochs put the output layer on the grid the file will hold and fit the feature layer
// around it; the file then holds those output weights exactly.
static void snap_output_layer(float *p) {
    for (int i = 0; i < NT_MAX_BUCKETS * 2 * H; i++)
        p[NT_OUT_W + i] = roundf(p[NT_OUT_W + i] * NT_QB) / NT_QB;
    for (int k = 0; k < NT_MAX_BUCKETS; k++)
        p[NT_OUT_B + k] = (float)(round((double)p[NT_OUT_B + k] * NT_QA * NT_QB) / (NT_QA * NT_QB));
}

bool ntrain_epoch(Trainer *t, const NtData *d, const NtOptions *o, const NtProgress *pr, char *err,
                  size_t errsz) {
    long long count = d->train.count;
    if (count > UINT32_MAX)
        return errmsg_set(err, errsz, "%lld positions: at most %lu fit an epoch (--limit)", count,
                          (unsigned long)UINT32_MAX);
    int n = clamp_threads(o->threads);
    uint32_t *order = malloc((size_t)count * sizeof *order);
    float *grads = malloc((size_t)n * NT_PARAMS * sizeof *grads);
    if (!order || !grads) {
        free(order);
        free(grads);
        return errmsg_set(err, errsz, "out of memory for an epoch of %lld positions", count);
    }
    // Fisher-Yates from the records' order, with the trainer's PRNG: the same shuffle again
    // when a checkpoint of the previous epoch is resumed.
    uint64_t rng = t->rng;
    for (long long i = 0; i < count; i++)
        order[i] = (uint32_t)i;
    for (long long i = count - 1; i > 0; i--) {
        long long j = (long long)(((rng_next(&rng) >> 32) * (uint64_t)(i + 1)) >> 32);
        uint32_t x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    long long batches = (count + o->batch - 1) / o->batch;
    uint64_t total = (uint64_t)batches * (uint64_t)o->epochs;
    double loss = 0;
    Work work[MAX_THREADS];
    bool on_grid = t->epoch >= o->epochs - ntrain_grid_epochs(o);
    if (on_grid)
        snap_output_layer(t->params);
    for (long long b = 0; b < batches; b++) {
        long long lo = b * o->batch, hi = lo + o->batch < count ? lo + o->batch : count;
        split(work, n, lo, hi,
              (Work){ .params = t->params,
                      .records = &d->train,
                      .order = order,
                      .obj = ntrain_objective(o),
                      .scale = 1.0f / (float)(hi - lo),
                      .mirror = o->mirror,
                      .epoch = t->epoch });
        for (int k = 0; k < n; k++)
            work[k].grad = grads + (size_t)k * NT_PARAMS;
        run_parallel(work, n);
        for (int k = 1; k < n; k++) {
            const float *restrict src = work[k].grad;
            for (int j = 0; j < NT_PARAMS; j++)
                grads[j] += src[j];
        }
        for (int k = 0; k < n; k++)
            loss += work[k].loss;
        adam_step(t, grads, schedule(o->lr, t->step, total), on_grid ? NT_OUT_W : NT_PARAMS);
        if (pr && pr->report)
            pr->report(pr->ctx, hi, count);
    }
    free(order);
    free(grads);
    t->rng = rng;
    t->epoch++;
    t->train_loss = loss / (double)count;
    t->held_loss = ntrain_loss(t->params, &d->held, ntrain_objective(o), n);
    return true;
}
