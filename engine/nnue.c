// SPDX-License-Identifier: GPL-3.0-or-later
// NNUE inference (engine/nnue.h; the network and file format in data/NNUE.md): the file
// loader, the accumulator kernels (AVX2 and scalar), move deltas and the lazy ply stack.
#include "engine/nnue.h"

#include <stdlib.h>
#include <string.h>

#ifdef __AVX2__
#include <immintrin.h>
#endif

#include "engine/errmsg.h"

// An evaluation more than this many plies above the nearest computed accumulator
// refreshes from the board: about the point where the updates cost more than the ~32 rows
// of a refresh.
enum { REFRESH_AFTER_PLIES = 8 };

// ------------------------------------------------------------------ allocation

NnueNet *nnue_net_new(void) {
    return aligned_alloc(64, sizeof(NnueNet));
}

void nnue_net_free(NnueNet *net) {
    free(net);
}

NnueStack *nnue_stack_new(void) {
    NnueStack *st = aligned_alloc(64, sizeof(NnueStack));
    if (st)
        memset(st, 0, sizeof *st);
    return st;
}

void nnue_stack_free(NnueStack *st) {
    free(st);
}

// ------------------------------------------------------------------ file

static uint32_t le32(const uint8_t *p) {
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int16_t le16(const uint8_t *p) {
    return (int16_t)(uint16_t)(p[0] | p[1] << 8);
}

size_t nnue_file_size(int version, int buckets, int king_buckets, size_t desc_len) {
    size_t header = version == 1   ? NNUE_HEADER_SIZE
                    : version == 2 ? NNUE_HEADER_V2
                                   : NNUE_HEADER_V3;
    return header + desc_len +
           2 * ((size_t)king_buckets * NNUE_INPUTS * NNUE_HIDDEN + NNUE_HIDDEN) +
           (size_t)buckets * (2 * 2 * NNUE_HIDDEN + 4) + 4;
}

uint32_t nnue_fnv1a(const uint8_t *bytes, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ bytes[i]) * 16777619u;
    return h;
}

bool nnue_net_load(NnueNet *net, const uint8_t *bytes, size_t len, char *err, size_t errsz) {
    if (len < NNUE_HEADER_SIZE)
        return errmsg_set(err, errsz, "truncated: %zu bytes, shorter than the %d-byte header", len,
                          NNUE_HEADER_SIZE);
    int version = memcmp(bytes, NNUE_MAGIC, 8) == 0      ? 1
                  : memcmp(bytes, NNUE_MAGIC_V2, 8) == 0 ? 2
                  : memcmp(bytes, NNUE_MAGIC_V3, 8) == 0 ? 3
                                                         : 0;
    if (!version)
        return errmsg_set(err, errsz, "bad magic: not a patzer NNUE file (%s, %s or %s)",
                          NNUE_MAGIC, NNUE_MAGIC_V2, NNUE_MAGIC_V3);
    size_t header = version == 1   ? NNUE_HEADER_SIZE
                    : version == 2 ? NNUE_HEADER_V2
                                   : NNUE_HEADER_V3;
    if (len < header)
        return errmsg_set(err, errsz, "truncated: %zu bytes, shorter than the %zu-byte header", len,
                          header);
    static const uint32_t want[5] = { NNUE_INPUTS, NNUE_HIDDEN, NNUE_QA, NNUE_QB, NNUE_SCALE };
    static const char *const names[5] = { "inputs", "hidden", "QA", "QB", "SCALE" };
    for (int i = 0; i < 5; i++) {
        uint32_t v = le32(bytes + 8 + 4 * i);
        if (v != want[i])
            return errmsg_set(err, errsz, "wrong sizes: %s is %u, expected %u", names[i],
                              (unsigned)v, (unsigned)want[i]);
    }
    uint32_t buckets = 1, flags = 0, king_buckets = 1;
    if (version >= 2) {
        buckets = le32(bytes + 28);
        flags = le32(bytes + 32);
        if (buckets < 1 || buckets > NNUE_MAX_BUCKETS)
            return errmsg_set(err, errsz, "wrong sizes: %u output buckets, expected 1 to %d",
                              (unsigned)buckets, NNUE_MAX_BUCKETS);
        if (flags & ~(uint32_t)NNUE_FLAG_MIRROR)
            return errmsg_set(err, errsz, "unknown flags %#x", (unsigned)flags);
    }
    if (version == 3) {
        king_buckets = le32(bytes + 36);
        if (king_buckets < 1 || king_buckets > NNUE_MAX_KING_BUCKETS)
            return errmsg_set(err, errsz, "wrong sizes: %u king buckets, expected 1 to %d",
                              (unsigned)king_buckets, NNUE_MAX_KING_BUCKETS);
        for (int sq = 0; sq < 64; sq++)
            if (bytes[40 + sq] >= king_buckets)
                return errmsg_set(err, errsz, "bad king bucket map: square %d has bucket %u of %u",
                                  sq, (unsigned)bytes[40 + sq], (unsigned)king_buckets);
    }
    uint32_t desc_len = le32(bytes + header - 4);
    if (desc_len > NNUE_DESC_MAX)
        return errmsg_set(err, errsz, "description length %u is over the limit of %d bytes",
                          (unsigned)desc_len, NNUE_DESC_MAX);
    size_t size = nnue_file_size(version, (int)buckets, (int)king_buckets, desc_len);
    if (len != size)
        return errmsg_set(err, errsz, "wrong length: %zu bytes, expected %zu (%s)", len, size,
                          len < size ? "truncated" : "trailing bytes");
    uint32_t sum = nnue_fnv1a(bytes, len - 4), stored = le32(bytes + len - 4);
    if (sum != stored)
        return errmsg_set(err, errsz, "checksum mismatch: file says %08x, contents give %08x",
                          (unsigned)stored, (unsigned)sum);

    memcpy(net->desc, bytes + header, desc_len);
    net->desc[desc_len] = '\0';
    net->buckets = (int)buckets;
    net->mirror = flags & NNUE_FLAG_MIRROR;
    net->king_buckets = (int)king_buckets;
    for (int sq = 0; sq < 64; sq++)
        net->king_bucket_of[sq] = version == 3 ? bytes[40 + sq] : 0;
    int span = (32 + net->buckets - 1) / net->buckets;
    for (int n = 0; n <= 32; n++) {
        int k = n < 2 ? 0 : (n - 2) / span;
        net->bucket_of[n] = (uint8_t)(k < net->buckets ? k : net->buckets - 1);
    }
    const uint8_t *p = bytes + header + desc_len;
    for (int i = 0; i < net->king_buckets * NNUE_INPUTS * NNUE_HIDDEN; i++, p += 2)
        net->ft_w[i] = le16(p);
    for (int i = 0; i < NNUE_HIDDEN; i++, p += 2)
        net->ft_b[i] = le16(p);
    memset(net->out_w, 0, sizeof net->out_w);
    memset(net->out_b, 0, sizeof net->out_b);
    for (int k = 0; k < net->buckets; k++)
        for (int i = 0; i < 2 * NNUE_HIDDEN; i++, p += 2)
            net->out_w[k][i] = le16(p);
    for (int k = 0; k < net->buckets; k++, p += 4)
        net->out_b[k] = (int32_t)le32(p);
    return true;
}

// ------------------------------------------------------------------ kernels
//
// int16 sums wrap in both paths (gcc's conversions are modular), and the output's int32 sum
// is taken modulo 2^32 in both (unsigned in the scalar path), so the two agree bit for bit
// whatever the weights, and no path has undefined behaviour on a hostile file.

static const int16_t *ft_row(const NnueNet *net, int feature) {
    return net->ft_w + (size_t)feature * NNUE_HIDDEN;
}

// out = in + the add rows - the sub rows, over one perspective's NNUE_HIDDEN values.
static void add_sub_scalar(int16_t *out, const int16_t *in, const int16_t *const *add, int nadd,
                           const int16_t *const *sub, int nsub) {
    for (int i = 0; i < NNUE_HIDDEN; i++) {
        int v = in[i];
        for (int k = 0; k < nadd; k++)
            v += add[k][i];
        for (int k = 0; k < nsub; k++)
            v -= sub[k][i];
        out[i] = (int16_t)v;
    }
}

// Sum over i of (int16)(clamp(acc[i]) * w[i]) * clamp(acc[i]), modulo 2^32.
static uint32_t screlu_dot_scalar(const int16_t *acc, const int16_t *w) {
    uint32_t sum = 0;
    for (int i = 0; i < NNUE_HIDDEN; i++) {
        int c = acc[i] < 0 ? 0 : acc[i] > NNUE_QA ? NNUE_QA : acc[i];
        int16_t cw = (int16_t)(c * w[i]);
        sum += (uint32_t)(cw * c);
    }
    return sum;
}

#ifdef __AVX2__
enum { LANES = 16 }; // int16 values in a 256-bit register

static void add_sub_avx2(int16_t *out, const int16_t *in, const int16_t *const *add, int nadd,
                         const int16_t *const *sub, int nsub) {
    for (int i = 0; i < NNUE_HIDDEN; i += LANES) {
        __m256i v = _mm256_load_si256((const __m256i *)(in + i));
        for (int k = 0; k < nadd; k++)
            v = _mm256_add_epi16(v, _mm256_load_si256((const __m256i *)(add[k] + i)));
        for (int k = 0; k < nsub; k++)
            v = _mm256_sub_epi16(v, _mm256_load_si256((const __m256i *)(sub[k] + i)));
        _mm256_store_si256((__m256i *)(out + i), v);
    }
}

// The "madd trick": c * w fits int16 for a sane net, and madd multiplies it by c again and
// adds neighbouring pairs into int32 lanes.
static uint32_t screlu_dot_avx2(const int16_t *acc, const int16_t *w) {
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(NNUE_QA);
    __m256i sum = zero;
    for (int i = 0; i < NNUE_HIDDEN; i += LANES) {
        __m256i c = _mm256_load_si256((const __m256i *)(acc + i));
        c = _mm256_min_epi16(_mm256_max_epi16(c, zero), qa);
        __m256i cw = _mm256_mullo_epi16(c, _mm256_load_si256((const __m256i *)(w + i)));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(cw, c));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(1, 0, 3, 2)));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, _MM_SHUFFLE(2, 3, 0, 1)));
    return (uint32_t)_mm_cvtsi128_si32(s);
}
#endif

static void add_sub(int16_t *out, const int16_t *in, const int16_t *const *add, int nadd,
                    const int16_t *const *sub, int nsub, bool simd) {
#ifdef __AVX2__
    if (simd) {
        add_sub_avx2(out, in, add, nadd, sub, nsub);
        return;
    }
#endif
    (void)simd;
    add_sub_scalar(out, in, add, nadd, sub, nsub);
}

static uint32_t screlu_dot(const int16_t *acc, const int16_t *w, bool simd) {
#ifdef __AVX2__
    if (simd)
        return screlu_dot_avx2(acc, w);
#endif
    (void)simd;
    return screlu_dot_scalar(acc, w);
}

// ------------------------------------------------------------------ accumulators

static void refresh_persp(const NnueNet *net, const Board *b, NnueAccumulator *acc, Color persp,
                          bool simd) {
    int16_t *out = acc->v[persp];
    int view = nnue_view(net, persp, board_king(b, persp));
    memcpy(out, net->ft_b, sizeof acc->v[persp]);
    // Four rows at a time: one pass over the accumulator per four pieces.
    const int16_t *rows[4];
    int n = 0;
    Bitboard occ = board_occupied(b);
    while (occ) {
        Square sq = bb_pop(&occ);
        rows[n++] = ft_row(net, nnue_feature(persp, board_piece_on(b, sq), sq, view));
        if (n == 4 || !occ) {
            add_sub(out, out, rows, n, NULL, 0, simd);
            n = 0;
        }
    }
}

void nnue_refresh(const NnueNet *net, const Board *b, NnueAccumulator *acc) {
    refresh_persp(net, b, acc, WHITE, true);
    refresh_persp(net, b, acc, BLACK, true);
}

void nnue_refresh_scalar(const NnueNet *net, const Board *b, NnueAccumulator *acc) {
    refresh_persp(net, b, acc, WHITE, false);
    refresh_persp(net, b, acc, BLACK, false);
}

static void apply_persp(const NnueNet *net, const NnueAccumulator *from, NnueAccumulator *to,
                        const NnueDelta *d, Color persp, bool simd) {
    const int16_t *add[2], *sub[2];
    int view = nnue_view(net, persp, d->king_sq[persp]);
    for (int k = 0; k < d->nadd; k++)
        add[k] = ft_row(net, nnue_feature(persp, d->add_piece[k], d->add_sq[k], view));
    for (int k = 0; k < d->nsub; k++)
        sub[k] = ft_row(net, nnue_feature(persp, d->sub_piece[k], d->sub_sq[k], view));
    add_sub(to->v[persp], from->v[persp], add, d->nadd, sub, d->nsub, simd);
}

void nnue_apply(const NnueNet *net, const NnueAccumulator *from, NnueAccumulator *to,
                const NnueDelta *d) {
    apply_persp(net, from, to, d, WHITE, true);
    apply_persp(net, from, to, d, BLACK, true);
}

void nnue_apply_scalar(const NnueNet *net, const NnueAccumulator *from, NnueAccumulator *to,
                       const NnueDelta *d) {
    apply_persp(net, from, to, d, WHITE, false);
    apply_persp(net, from, to, d, BLACK, false);
}

// ------------------------------------------------------------------ evaluation

static int output(const NnueNet *net, const NnueAccumulator *acc, Color stm, int pieces,
                  bool simd) {
    int k = nnue_bucket(net, pieces);
    uint32_t sum = screlu_dot(acc->v[stm], net->out_w[k], simd) +
                   screlu_dot(acc->v[!stm], net->out_w[k] + NNUE_HIDDEN, simd);
    // In 64 bits from here, so that no weights can overflow what follows.
    int64_t v = (int64_t)(int32_t)sum / NNUE_QA + net->out_b[k];
    return (int)(v * NNUE_SCALE / (NNUE_QA * NNUE_QB));
}

int nnue_output(const NnueNet *net, const NnueAccumulator *acc, Color stm, int pieces) {
    return output(net, acc, stm, pieces, true);
}

int nnue_output_scalar(const NnueNet *net, const NnueAccumulator *acc, Color stm, int pieces) {
    return output(net, acc, stm, pieces, false);
}

int nnue_evaluate_acc(const NnueNet *net, const NnueAccumulator *acc, Color stm, int pieces) {
    int v = output(net, acc, stm, pieces, true);
    if (v >= VALUE_EVAL_MAX)
        return VALUE_EVAL_MAX - 1;
    return v <= -VALUE_EVAL_MAX ? -(VALUE_EVAL_MAX - 1) : v;
}

int nnue_evaluate(const NnueNet *net, const Board *b) {
    NnueAccumulator acc;
    nnue_refresh(net, b, &acc);
    return nnue_evaluate_acc(net, &acc, b->side, bb_count(board_occupied(b)));
}

// ------------------------------------------------------------------ moves and the stack

static void delta_add(NnueDelta *d, Piece p, Square sq) {
    d->add_piece[d->nadd] = (uint8_t)p;
    d->add_sq[d->nadd++] = (uint8_t)sq;
}

static void delta_sub(NnueDelta *d, Piece p, Square sq) {
    d->sub_piece[d->nsub] = (uint8_t)p;
    d->sub_sq[d->nsub++] = (uint8_t)sq;
}

void nnue_delta(const Board *b, Move m, NnueDelta *d) {
    Square from = move_from(m), to = move_to(m);
    Piece piece = board_piece_on(b, from);
    Color us = b->side;
    d->nadd = d->nsub = 0;
    d->king_from[WHITE] = d->king_sq[WHITE] = (uint8_t)board_king(b, WHITE);
    d->king_from[BLACK] = d->king_sq[BLACK] = (uint8_t)board_king(b, BLACK);
    // A castling move names the king's destination too (see makemove.c).
    if (piece_type(piece) == KING)
        d->king_sq[us] = (uint8_t)to;
    delta_sub(d, piece, from);
    switch (move_kind(m)) {
    case MOVE_CASTLING: {
        // The move names the king's destination; the rook comes from its
        // home square (Chess960: anywhere on the rank) as in makemove.c.
        int i = castle_index_of(m);
        Piece rook = make_piece(us, ROOK);
        delta_add(d, piece, to);
        delta_sub(d, rook, b->castle_rook[i]);
        delta_add(d, rook, castle_rook_to(i));
        break;
    }
    case MOVE_EN_PASSANT:
        delta_sub(d, make_piece(!us, PAWN), to + (us == WHITE ? -8 : 8));
        delta_add(d, piece, to);
        break;
    default:
        if (board_piece_on(b, to) != NO_PIECE)
            delta_sub(d, board_piece_on(b, to), to);
        delta_add(d, move_is_promotion(m) ? make_piece(us, move_promotion(m)) : piece, to);
        break;
    }
}

void nnue_stack_reset(NnueStack *st, const NnueNet *net, const Board *b) {
    nnue_refresh(net, b, &st->ply[0].acc);
    st->ply[0].computed[WHITE] = st->ply[0].computed[BLACK] = true;
}

// Each perspective on its own: a king move that changes its view refreshes only its own
// side's half, from the board at ply (the plies between are left not computed).
const NnueAccumulator *nnue_stack_update(NnueStack *st, const NnueNet *net, const Board *b,
                                         int ply) {
    struct NnueEntry *e = st->ply;
    for (int persp = WHITE; persp <= BLACK; persp++) {
        int q = ply;
        bool crossed = false;
        while (q > 0 && !e[q].computed[persp]) {
            crossed |= nnue_view_changed(net, &e[q].delta, (Color)persp);
            q--;
        }
        if (crossed || !e[q].computed[persp] || ply - q > REFRESH_AFTER_PLIES) {
            refresh_persp(net, b, &e[ply].acc, (Color)persp, true);
        } else {
            for (int p = q + 1; p <= ply; p++) {
                apply_persp(net, &e[p - 1].acc, &e[p].acc, &e[p].delta, (Color)persp, true);
                e[p].computed[persp] = true;
            }
        }
        e[ply].computed[persp] = true;
    }
    return &e[ply].acc;
}
