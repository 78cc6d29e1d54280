// SPDX-License-Identifier: GPL-3.0-or-later
// tools/nnue_train: quantisation (data/NNUE.md: "Quantisation") and the engine's integer
// evaluation on the quantised weights, so that a run can report what rounding costs (the
// output weights' steps of 1/64 most of all) next to its float losses.
#include <math.h>
#include <string.h>

#include "tools/nnue_train.h"

enum { H = NT_HIDDEN };

static int16_t q16(float x, float scale) {
    long v = lroundf(x * scale);
    return (int16_t)(v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : v);
}

void ntrain_quantise(const float *params, NtShape shape, NtQuantised *q) {
    memset(q, 0, sizeof *q);
    q->shape = shape;
    for (int i = 0; i < shape.king_buckets * NT_INPUTS * H; i++)
        q->ft_w[i] = q16(params[NT_FT_W + i], NT_QA);
    for (int i = 0; i < H; i++)
        q->ft_b[i] = q16(params[NT_FT_B + i], NT_QA);
    for (int i = 0; i < shape.buckets * 2 * H; i++)
        q->out_w[i] = q16(params[NT_OUT_W + i], NT_QB);
    for (int k = 0; k < shape.buckets; k++)
        q->out_b[k] = (int32_t)lround((double)params[NT_OUT_B + k] * NT_QA * NT_QB);
}

void ntrain_dequantise(const NtQuantised *q, float *params) {
    // Each value is the nearest float to q / scale, whose error (2^-24 of it at most) stays
    // far inside the half step that rounding forgives for any int16, and for an output bias
    // under 2^23 in size (a trained one is under 1.98 * QA * QB = 32,314), so ntrain_quantise
    // gives q back.
    for (int k = 0; k < NT_MAX_KING_BUCKETS; k++) {
        int from = k < q->shape.king_buckets ? k : 0;
        for (int i = 0; i < NT_INPUTS * H; i++)
            params[NT_FT_W + (size_t)k * NT_INPUTS * H + i] =
                (float)q->ft_w[(size_t)from * NT_INPUTS * H + i] / NT_QA;
    }
    for (int i = 0; i < H; i++)
        params[NT_FT_B + i] = (float)q->ft_b[i] / NT_QA;
    // Buckets beyond the net's are its first bucket again: a net of one bucket grows into
    // several that all evaluate as it did, until training parts them.
    for (int k = 0; k < NT_MAX_BUCKETS; k++) {
        int from = k < q->shape.buckets ? k : 0;
        for (int i = 0; i < 2 * H; i++)
            params[NT_OUT_W + k * 2 * H + i] = (float)q->out_w[from * 2 * H + i] / NT_QB;
        params[NT_OUT_B + k] = (float)((double)q->out_b[from] / ((double)NT_QA * NT_QB));
    }
}

int ntrain_quantised_eval(const NtQuantised *q, const uint8_t rec[TRAIN_RECORD_SIZE]) {
    uint16_t feat[2][NT_MAX_FEATURES];
    Color stm;
    int n = ntrain_features(rec, false, q->shape, feat[0], feat[1], &stm);
    int ob = ntrain_bucket(q->shape, n);
    int32_t sum = 0;
    for (int s = 0; s < 2; s++) {
        int16_t acc[H];
        memcpy(acc, q->ft_b, sizeof acc);
        for (int k = 0; k < n; k++) {
            const int16_t *row = q->ft_w + (size_t)feat[s][k] * H;
            for (int i = 0; i < H; i++)
                acc[i] = (int16_t)(acc[i] + row[i]);
        }
        // c * w fits an int16 (c <= 255, |w| <= 127): the engine's madd trick.
        const int16_t *w = q->out_w + ob * 2 * H + s * H;
        for (int i = 0; i < H; i++) {
            int16_t c = acc[i] < 0 ? 0 : acc[i] > NT_QA ? NT_QA : acc[i];
            sum += (int32_t)(int16_t)(c * w[i]) * c;
        }
    }
    sum = sum / NT_QA + q->out_b[ob];
    return (int)((int64_t)sum * NT_SCALE / (NT_QA * NT_QB));
}

void ntrain_quantisation_error(const float *params, const NtQuantised *q, const NtRecords *r,
                               long long max, NtObjective obj, NtQuantError *e) {
    long long n = r->count < max ? r->count : max;
    double total = 0, loss = 0, float_loss = 0;
    e->worst = 0;
    for (long long i = 0; i < n; i++) {
        int cp = ntrain_quantised_eval(q, r->rec[i]);
        double out = ntrain_forward(params, q->shape, r->rec[i]),
               target = ntrain_target(r->rec[i], obj);
        double diff = fabs(cp - out * NT_SCALE);
        double err = 1 / (1 + exp(-cp / obj.scale)) - target;
        double float_err = 1 / (1 + exp(-out * NT_SCALE / obj.scale)) - target;
        total += diff;
        loss += err * err;
        float_loss += float_err * float_err;
        e->worst = diff > e->worst ? diff : e->worst;
    }
    e->count = n;
    e->mean = n ? total / (double)n : 0;
    e->loss = n ? loss / (double)n : 0;
    e->float_loss = n ? float_loss / (double)n : 0;
}
