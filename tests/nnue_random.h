// SPDX-License-Identifier: GPL-3.0-or-later
// Deterministic pseudo-random NNUE nets and their file bytes (v1, v2 with buckets and flags, v3
// with king buckets),
// written from data/NNUE.md
// ("File format") independently of the engine's loader and of the trainer's writer, for
// tests/test_nnue.c and tests/nnue_mknet.c (which writes one for the shell tests).
// Header-only, without Criterion.
#ifndef TESTS_NNUE_RANDOM_H
#define TESTS_NNUE_RANDOM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum {
    RNET_INPUTS = 768,
    RNET_HIDDEN = 256,
    RNET_HEADER = 32,
    // The weights' bytes after the description, checksum included.
    RNET_BODY = 2 * (RNET_INPUTS * RNET_HIDDEN + RNET_HIDDEN + 2 * RNET_HIDDEN) + 4 + 4,
};

typedef struct RandomNet {
    int16_t ft_w[RNET_INPUTS * RNET_HIDDEN], ft_b[RNET_HIDDEN], out_w[2 * RNET_HIDDEN];
    int32_t out_b;
} RandomNet;

// How large the random weights are: uniform in [-ft, ft], [bias_lo, bias_hi], [-out, out].
typedef struct RandomNetShape {
    int ft, bias_lo, bias_hi, out;
    int32_t out_b;
} RandomNetShape;

// Typical of a trained net: accumulators spread over both sides of the clamp [0, 255].
static const RandomNetShape RNET_TYPICAL = { 60, -40, 160, 127, 1234 };
// The largest weights data/NNUE.md allows (|ft| <= 1.98 * 255, |out| <= 1.98 * 64).
static const RandomNetShape RNET_EXTREME = { 505, -505, 505, 127, -32313 };

static inline uint64_t rnet_next(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int16_t rnet_uniform(uint64_t *state, int lo, int hi) {
    return (int16_t)(lo + (int)(rnet_next(state) % (uint64_t)(hi - lo + 1)));
}

static inline void random_net_fill(RandomNet *n, const RandomNetShape *shape, uint64_t seed) {
    uint64_t st = seed;
    for (int i = 0; i < RNET_INPUTS * RNET_HIDDEN; i++)
        n->ft_w[i] = rnet_uniform(&st, -shape->ft, shape->ft);
    for (int i = 0; i < RNET_HIDDEN; i++)
        n->ft_b[i] = rnet_uniform(&st, shape->bias_lo, shape->bias_hi);
    for (int i = 0; i < 2 * RNET_HIDDEN; i++)
        n->out_w[i] = rnet_uniform(&st, -shape->out, shape->out);
    n->out_b = shape->out_b;
}

static inline uint8_t *rnet_put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        *p++ = (uint8_t)(v >> (8 * i));
    return p;
}

static inline uint8_t *rnet_put16(uint8_t *p, int16_t v) {
    *p++ = (uint8_t)((uint16_t)v & 0xFF);
    *p++ = (uint8_t)((uint16_t)v >> 8);
    return p;
}

static inline uint32_t rnet_fnv1a(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

// The king bucket map of the v3 test nets: scattered over the board, so that most king
// moves change their side's bucket (a refresh), not only those across a rank.
static inline uint8_t rnet_king_bucket(int king_buckets, int sq) {
    return (uint8_t)((sq * 7 + sq / 8) % king_buckets);
}

// A file of the net (data/NNUE.md) into buf; the length. One bucket, no flags and one king
// bucket make the v1 file (RNET_HEADER + strlen(desc) + RNET_BODY bytes); more than one king
// bucket v3, with rnet_king_bucket's map and king bucket j's feature weights those of the v1
// net rotated by 131 * j; otherwise v2. Both with `buckets` output layers, bucket k's
// weights those of the v1 net rotated by 97 * k and its bias out_b + 1000 * k, and the flags.
enum { RNET_HEADER_V2 = 40, RNET_HEADER_V3 = 108 };
static inline size_t random_net_serialize_v3(const RandomNet *n, const char *desc, int buckets,
                                             uint32_t flags, int king_buckets, uint8_t *buf) {
    int version = king_buckets > 1 ? 3 : buckets == 1 && !flags ? 1 : 2;
    size_t dlen = strlen(desc);
    uint8_t *p = buf;
    memcpy(p, version == 1 ? "PZNNUE01" : version == 2 ? "PZNNUE02" : "PZNNUE03", 8);
    p += 8;
    static const uint32_t header[5] = { RNET_INPUTS, RNET_HIDDEN, 255, 64, 400 };
    for (int i = 0; i < 5; i++)
        p = rnet_put32(p, header[i]);
    if (version >= 2) {
        p = rnet_put32(p, (uint32_t)buckets);
        p = rnet_put32(p, flags);
    }
    if (version == 3) {
        p = rnet_put32(p, (uint32_t)king_buckets);
        for (int sq = 0; sq < 64; sq++)
            *p++ = rnet_king_bucket(king_buckets, sq);
    }
    p = rnet_put32(p, (uint32_t)dlen);
    memcpy(p, desc, dlen);
    p += dlen;
    for (int j = 0; j < king_buckets; j++)
        for (int i = 0; i < RNET_INPUTS * RNET_HIDDEN; i++)
            p = rnet_put16(p, n->ft_w[(i + 131 * j) % (RNET_INPUTS * RNET_HIDDEN)]);
    for (int i = 0; i < RNET_HIDDEN; i++)
        p = rnet_put16(p, n->ft_b[i]);
    for (int k = 0; k < buckets; k++)
        for (int i = 0; i < 2 * RNET_HIDDEN; i++)
            p = rnet_put16(p, n->out_w[(i + 97 * k) % (2 * RNET_HIDDEN)]);
    for (int k = 0; k < buckets; k++)
        p = rnet_put32(p, (uint32_t)(n->out_b + 1000 * k));
    p = rnet_put32(p, rnet_fnv1a(buf, (size_t)(p - buf)));
    return (size_t)(p - buf);
}

// The v1 or v2 file of the net.
static inline size_t random_net_serialize_v2(const RandomNet *n, const char *desc, int buckets,
                                             uint32_t flags, uint8_t *buf) {
    return random_net_serialize_v3(n, desc, buckets, flags, 1, buf);
}

// The v1 file of the net.
static inline size_t random_net_serialize(const RandomNet *n, const char *desc, uint8_t *buf) {
    return random_net_serialize_v2(n, desc, 1, 0, buf);
}

// Writes bytes to path; false when it cannot.
static inline bool rnet_write_file(const char *path, const uint8_t *bytes, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fwrite(bytes, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

#endif
