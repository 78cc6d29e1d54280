// SPDX-License-Identifier: GPL-3.0-or-later
// NNUE inference: the patzer networks of data/NNUE.md ((768 -> 256) x 2 -> 1 output, or one
// of up to 8 chosen by the number of pieces; SCReLU; v2 may mirror each perspective's board
// a<->h when its king stands on files e-h; v3 also gives each perspective one of up to 8
// sets of input weights, chosen by where its own king stands), their file format, the
// accumulators and the evaluation.
//
// The net is read-only once loaded and may be shared by any number of search threads; its
// owner (whoever loaded it) keeps it alive while searches use it. The engine does no I/O:
// nnue_net_load takes the bytes of a file the caller has read.
//
// Accumulators hold the first layer's sums for both perspectives (indexed by WHITE and
// BLACK, not by side to move), so a move only adds and removes the few features it
// changes, and a null move changes nothing. A NnueStack keeps one per search ply, filled
// lazily: making a move records what it changes and marks the child not computed; an
// evaluation walks back to the nearest computed ancestor and applies the changes forward
// (or refreshes from the board when that is cheaper).
//
// Everything has an AVX2 path (when compiled with __AVX2__) and a portable scalar one that
// gives bit-identical results; the *_scalar functions force the latter, for the tests.
#ifndef ENGINE_NNUE_H
#define ENGINE_NNUE_H

#include "engine/board.h"

enum {
    NNUE_INPUTS = 768,
    NNUE_HIDDEN = 256, // the only width accepted
    NNUE_MAX_BUCKETS = 8,
    NNUE_MAX_KING_BUCKETS = 8,
    NNUE_QA = 255,
    NNUE_QB = 64,
    NNUE_SCALE = 400,
    NNUE_DESC_MAX = 4096,  // bytes of description text at most
    NNUE_HEADER_SIZE = 32, // v1: magic and six uint32 before the description
    NNUE_HEADER_V2 = 40,   // v2: and the bucket count and the flags
    NNUE_HEADER_V3 = 108,  // v3: and the king bucket count and the 64-square bucket map
    NNUE_STACK_SIZE = MAX_PLY + 2,
};

#define NNUE_MAGIC    "PZNNUE01"
#define NNUE_MAGIC_V2 "PZNNUE02"
#define NNUE_MAGIC_V3 "PZNNUE03"
// v2 flags: each perspective's board mirrored a<->h while its own king is on files e-h.
enum { NNUE_FLAG_MIRROR = 1 };

typedef struct NnueNet {
    // King bucket by king bucket, each feature-major, as in the file; the buckets beyond
    // king_buckets are unused.
    _Alignas(64) int16_t ft_w[NNUE_MAX_KING_BUCKETS * NNUE_INPUTS * NNUE_HIDDEN];
    _Alignas(64) int16_t ft_b[NNUE_HIDDEN];
    // Per output bucket, the side to move's half first; buckets beyond `buckets` are zero.
    _Alignas(64) int16_t out_w[NNUE_MAX_BUCKETS][2 * NNUE_HIDDEN];
    int32_t out_b[NNUE_MAX_BUCKETS];
    int buckets; // 1 (v1) to NNUE_MAX_BUCKETS
    bool mirror; // NNUE_FLAG_MIRROR
    int king_buckets; // 1 (v1, v2) to NNUE_MAX_KING_BUCKETS
    // The king bucket of a perspective by its own king's square as it sees the board
    // (ranks flipped for Black, then the a<->h mirror): all 0 for v1 and v2.
    uint8_t king_bucket_of[64];
    // The bucket by number of pieces: min(buckets - 1, (n - 2) / ceil(32 / buckets)).
    uint8_t bucket_of[33];
    char desc[NNUE_DESC_MAX + 1]; // the file's description, NUL-terminated
} NnueNet;

// A net on the heap, aligned as its weights need (uninitialised); NULL when out of memory.
NnueNet *nnue_net_new(void);
void nnue_net_free(NnueNet *net);

// The exact size of a net file with a description of desc_len bytes: v1 (buckets 1, no
// flags, 1 king bucket: the old format), v2 (1 king bucket) or v3.
size_t nnue_file_size(int version, int buckets, int king_buckets, size_t desc_len);
// FNV-1a 32-bit, the file's checksum.
uint32_t nnue_fnv1a(const uint8_t *bytes, size_t n);

// Fills net from the len bytes of a net file. False, with net unspecified and what is wrong
// (magic, sizes, description length, total length, checksum) in err, for anything that
// does not match data/NNUE.md exactly, trailing bytes included.
bool nnue_net_load(NnueNet *net, const uint8_t *bytes, size_t len, char *err, size_t errsz);

// How perspective persp sees the board while its king stands on king_sq: its squares are
// xored with (view & 7), 7 (a<->h) for a mirroring net and a king on files e-h, and its
// features are those of king bucket view >> 3.
static inline int nnue_view(const NnueNet *net, Color persp, Square king_sq) {
    int flip = net->mirror && (king_sq & 7) >= 4 ? 7 : 0;
    int rel = (persp == WHITE ? king_sq : king_sq ^ 56) ^ flip;
    return net->king_bucket_of[rel] << 3 | flip;
}

// The input feature of piece pc on sq seen from persp (data/NNUE.md, "Features"); view is
// nnue_view's for persp.
static inline int nnue_feature(Color persp, Piece pc, Square sq, int view) {
    int rel = (persp == WHITE ? sq : sq ^ 56) ^ (view & 7);
    return (view >> 3) * NNUE_INPUTS + (piece_color(pc) == persp ? 0 : 384) + piece_type(pc) * 64 +
           rel;
}

// The output bucket of a position with `pieces` pieces on the board (kings included).
static inline int nnue_bucket(const NnueNet *net, int pieces) {
    return net->bucket_of[pieces < 0 ? 0 : pieces > 32 ? 32 : pieces];
}

typedef struct NnueAccumulator {
    _Alignas(64) int16_t v[COLOR_NB][NNUE_HIDDEN]; // by perspective
} NnueAccumulator;

// The accumulator of b computed from scratch.
void nnue_refresh(const NnueNet *net, const Board *b, NnueAccumulator *acc);
void nnue_refresh_scalar(const NnueNet *net, const Board *b, NnueAccumulator *acc);

// The evaluation for side to move stm in centipawns before the clamp (data/NNUE.md,
// "Quantisation"), and after it (strictly inside +-VALUE_EVAL_MAX), from an accumulator of
// a position with `pieces` pieces.
int nnue_output(const NnueNet *net, const NnueAccumulator *acc, Color stm, int pieces);
int nnue_output_scalar(const NnueNet *net, const NnueAccumulator *acc, Color stm, int pieces);
int nnue_evaluate_acc(const NnueNet *net, const NnueAccumulator *acc, Color stm, int pieces);
// The evaluation of b for its side to move, from a fresh accumulator (slow: for callers
// outside the search).
int nnue_evaluate(const NnueNet *net, const Board *b);

// What a move changes: pieces leaving squares (sub) and arriving on squares (add). At most
// two of each (castling: king and rook; a capturing promotion: pawn and victim leave). With
// the kings' squares before and after it: a king move that changes its perspective's view
// (nnue_view_changed: across the middle for a mirroring net, into another king bucket)
// changes every feature of that perspective, which must then be refreshed, not updated.
typedef struct NnueDelta {
    uint8_t nadd, nsub;
    uint8_t add_piece[2], add_sq[2];
    uint8_t sub_piece[2], sub_sq[2];
    uint8_t king_from[COLOR_NB], king_sq[COLOR_NB];
} NnueDelta;

// Whether the move of d changes how perspective persp sees the board.
static inline bool nnue_view_changed(const NnueNet *net, const NnueDelta *d, Color persp) {
    return d->king_from[persp] != d->king_sq[persp] &&
           nnue_view(net, persp, d->king_from[persp]) != nnue_view(net, persp, d->king_sq[persp]);
}

// The changes of legal move m made from b (b as it is before the move).
void nnue_delta(const Board *b, Move m, NnueDelta *d);
// to = from with the delta applied (to may be from); only a delta that changes neither
// perspective's view (else that perspective needs nnue_refresh).
void nnue_apply(const NnueNet *net, const NnueAccumulator *from, NnueAccumulator *to,
                const NnueDelta *d);
void nnue_apply_scalar(const NnueNet *net, const NnueAccumulator *from, NnueAccumulator *to,
                       const NnueDelta *d);

// One accumulator per search ply (ply 0 the root), parallel to the search stack.
typedef struct NnueStack {
    struct NnueEntry {
        NnueAccumulator acc;
        NnueDelta delta;         // from the position at the ply before
        bool computed[COLOR_NB]; // acc.v[c] is up to date with the position at this ply
    } ply[NNUE_STACK_SIZE];
} NnueStack;

// A stack on the heap, aligned; NULL when out of memory.
NnueStack *nnue_stack_new(void);
void nnue_stack_free(NnueStack *st);
// Sets ply 0 to the root position b (a full refresh).
void nnue_stack_reset(NnueStack *st, const NnueNet *net, const Board *b);
// Records move m, about to be made from b at ply: ply + 1 is not computed until asked.
static inline void nnue_stack_push(NnueStack *st, int ply, const Board *b, Move m) {
    nnue_delta(b, m, &st->ply[ply + 1].delta);
    st->ply[ply + 1].computed[WHITE] = st->ply[ply + 1].computed[BLACK] = false;
}
// Records a null move made from b at ply: the child has the same pieces, so its accumulator
// is a copy.
static inline void nnue_stack_push_null(NnueStack *st, int ply, const Board *b) {
    NnueDelta *d = &st->ply[ply + 1].delta;
    d->nadd = d->nsub = 0;
    d->king_from[WHITE] = d->king_sq[WHITE] = (uint8_t)board_king(b, WHITE);
    d->king_from[BLACK] = d->king_sq[BLACK] = (uint8_t)board_king(b, BLACK);
    st->ply[ply + 1].computed[WHITE] = st->ply[ply + 1].computed[BLACK] = false;
}
// Brings ply's accumulator up to date with b (the position at ply) and returns it.
const NnueAccumulator *nnue_stack_update(NnueStack *st, const NnueNet *net, const Board *b,
                                         int ply);
// The evaluation of b, the position at ply, for its side to move (clamped).
static inline int nnue_stack_evaluate(NnueStack *st, const NnueNet *net, const Board *b, int ply) {
    return nnue_evaluate_acc(net, nnue_stack_update(st, net, b, ply), b->side,
                             bb_count(board_occupied(b)));
}

#endif
