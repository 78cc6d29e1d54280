// SPDX-License-Identifier: GPL-3.0-or-later
// A reader of NNUE net files written straight from data/NNUE.md ("File format"), strict
// (every size, the checksum, no trailing bytes), and the engine's integer evaluation on
// what it read ("Quantisation"), for the suites that check the trainer's output and, later,
// that the engine loads and evaluates the same. Header-only, like tests/helpers.h.
#ifndef TESTS_NNUE_FILE_H
#define TESTS_NNUE_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tools/nnue_train.h"

// The net as data/NNUE.md's "File format" lays it out (v1, v2 or v3), read strictly.
enum { TEST_MAX_KING_BUCKETS = 8 };
typedef struct TestNet {
    uint32_t header[6];      // inputs, hidden, QA, QB, SCALE, description length
    uint32_t buckets, flags; // 1 and 0 for v1
    uint32_t king_buckets;   // 1 for v1 and v2
    uint8_t king_map[64];    // all 0 for v1 and v2
    char desc[NT_DESC_MAX + 1];
    int16_t ft_w[TEST_MAX_KING_BUCKETS * NT_INPUTS * NT_HIDDEN], ft_b[NT_HIDDEN];
    int16_t out_w[NT_MAX_BUCKETS * 2 * NT_HIDDEN];
    int32_t out_b[NT_MAX_BUCKETS];
} TestNet;

static inline uint32_t test_le32(const uint8_t *p) {
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline int16_t test_le16(const uint8_t *p) {
    return (int16_t)(uint16_t)(p[0] | p[1] << 8);
}

// Fills n from the file; false with what is wrong in why.
static inline bool test_read_net(const char *path, TestNet *n, char *why, size_t whysz) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return snprintf(why, whysz, "cannot open") < 0;
    static uint8_t buf[8 << 20];
    size_t size = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (size < 40)
        return snprintf(why, whysz, "length") < 0;
    int version = memcmp(buf, "PZNNUE01", 8) == 0   ? 1
                  : memcmp(buf, "PZNNUE02", 8) == 0 ? 2
                  : memcmp(buf, "PZNNUE03", 8) == 0 ? 3
                                                    : 0;
    if (!version)
        return snprintf(why, whysz, "magic") < 0;
    for (int i = 0; i < 5; i++)
        n->header[i] = test_le32(buf + 8 + 4 * i);
    n->buckets = version >= 2 ? test_le32(buf + 28) : 1;
    n->flags = version >= 2 ? test_le32(buf + 32) : 0;
    n->king_buckets = version == 3 ? test_le32(buf + 36) : 1;
    for (int sq = 0; sq < 64; sq++)
        n->king_map[sq] = version == 3 ? buf[40 + sq] : 0;
    size_t head = version == 1 ? 32 : version == 2 ? 40 : 108;
    n->header[5] = test_le32(buf + head - 4);
    if (n->header[0] != 768 || n->header[1] != NT_HIDDEN || n->header[2] != 255 ||
        n->header[3] != 64 || n->header[4] != 400 || n->buckets < 1 ||
        n->buckets > NT_MAX_BUCKETS || n->flags > 1 || n->king_buckets < 1 ||
        n->king_buckets > TEST_MAX_KING_BUCKETS)
        return snprintf(why, whysz, "sizes") < 0;
    for (int sq = 0; sq < 64; sq++)
        if (n->king_map[sq] >= n->king_buckets)
            return snprintf(why, whysz, "king bucket map") < 0;
    size_t len = n->header[5];
    if (len > NT_DESC_MAX)
        return snprintf(why, whysz, "description length") < 0;
    size_t want = head + len + 2 * (n->king_buckets * 768 * NT_HIDDEN + NT_HIDDEN) +
                  n->buckets * (2 * 2 * NT_HIDDEN + 4) + 4;
    if (size != want)
        return snprintf(why, whysz, "length %zu, not %zu", size, want) < 0;
    if (ntrain_fnv1a(buf, size - 4, 2166136261u) != test_le32(buf + size - 4))
        return snprintf(why, whysz, "checksum") < 0;
    memcpy(n->desc, buf + head, len);
    n->desc[len] = '\0';
    const uint8_t *p = buf + head + len;
    for (uint32_t i = 0; i < n->king_buckets * NT_INPUTS * NT_HIDDEN; i++, p += 2)
        n->ft_w[i] = test_le16(p);
    for (int i = 0; i < NT_HIDDEN; i++, p += 2)
        n->ft_b[i] = test_le16(p);
    for (uint32_t i = 0; i < n->buckets * 2 * NT_HIDDEN; i++, p += 2)
        n->out_w[i] = test_le16(p);
    for (uint32_t k = 0; k < n->buckets; k++, p += 4)
        n->out_b[k] = (int32_t)test_le32(p);
    return true;
}

// The engine's integer evaluation (data/NNUE.md: "Quantisation"), side to move's view.
static inline int test_net_eval(const TestNet *n, const uint8_t rec[TRAIN_RECORD_SIZE]) {
    uint16_t feat[2][NT_MAX_FEATURES];
    Color stm;
    NtShape shape = { .buckets = (int)n->buckets, .king_mirror = n->flags & 1, .king_buckets = 1 };
    int count = ntrain_features(rec, false, shape, feat[0], feat[1], &stm);
    // King bucket 0's features; each perspective's own king among them (pieces of its own
    // colour are 0-383, the king's 320-383) says where it stands as it sees the board, and
    // the file's map its bucket, whose block of rows the features then name.
    for (int s = 0; s < 2; s++) {
        int base = 0;
        for (int k = 0; k < count; k++)
            if (feat[s][k] >= 320 && feat[s][k] < 384)
                base = n->king_map[feat[s][k] - 320] * NT_INPUTS;
        for (int k = 0; k < count; k++)
            feat[s][k] = (uint16_t)(feat[s][k] + base);
    }
    // Bucket = (pieces - 2) / ceil(32 / buckets), at most buckets - 1 (data/NNUE.md).
    int per = (int)((32 + n->buckets - 1) / n->buckets), bucket = (count - 2) / per;
    bucket = bucket >= (int)n->buckets ? (int)n->buckets - 1 : bucket;
    const int16_t *out_w = n->out_w + bucket * 2 * NT_HIDDEN;
    int32_t sum = 0;
    for (int s = 0; s < 2; s++) {
        int16_t acc[NT_HIDDEN];
        memcpy(acc, n->ft_b, sizeof acc);
        for (int k = 0; k < count; k++)
            for (int i = 0; i < NT_HIDDEN; i++)
                acc[i] = (int16_t)(acc[i] + n->ft_w[feat[s][k] * NT_HIDDEN + i]);
        for (int i = 0; i < NT_HIDDEN; i++) {
            int16_t c = acc[i] < 0 ? 0 : acc[i] > 255 ? 255 : acc[i];
            int16_t cw = (int16_t)(c * out_w[s * NT_HIDDEN + i]);
            sum += (int32_t)cw * c;
        }
    }
    sum = sum / 255 + n->out_b[bucket];
    return sum * 400 / (255 * 64);
}

// The training record of b as the trainer reads it: a draw at ply 20, no score or move.
static inline void test_record_of_board(const Board *b, uint8_t rec[TRAIN_RECORD_SIZE]) {
    TrainPosition p;
    train_position_from_board(&p, b);
    p.ply = 20;
    p.score = 0;
    p.move = MOVE_NONE;
    p.result = TRAIN_DRAW;
    p.flags = 0;
    train_encode(&p, rec);
}

#endif
