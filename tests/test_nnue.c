// SPDX-License-Identifier: GPL-3.0-or-later
// NNUE inference (engine/nnue.c) with deterministic pseudo-random nets (tests/nnue_random.h):
// the loader against the file format (and every way a file can be wrong), the lazy
// accumulator stack along random search-like walks (moves, take-backs and null moves from
// positions with castling, en passant, every promotion and captures of promoted pieces)
// against full refreshes, the AVX2 path against the scalar one, the evaluation against
// tests/nnue_file.h's reading of data/NNUE.md, colour symmetry, and searches with a net.
#include <criterion/criterion.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/nnue.h"
#include "engine/search.h"
#include "tests/helpers.h"
#include "tests/nnue_file.h"
#include "tests/nnue_random.h"

static RandomNet rnet;
// Room for a v3 net of 4 king buckets and 8 output buckets.
static uint8_t bytes[RNET_HEADER_V3 + 64 + 4 * RNET_BODY + 8 * 1028 + 1];
static size_t nbytes;
static NnueNet *net;
static TestNet ref; // the same net as tests/nnue_file.h reads it

// Makes the random net of the shape, its file bytes (v1 for one bucket, no flags and one king
// bucket, v3 for more king buckets, else v2), the engine's net and the reference's.
static void make_net_kb(const RandomNetShape *shape, uint64_t seed, int buckets, uint32_t flags,
                        int king_buckets) {
    board_init_tables();
    random_net_fill(&rnet, shape, seed);
    nbytes = random_net_serialize_v3(&rnet, "random test net", buckets, flags, king_buckets, bytes);
    net = nnue_net_new();
    cr_assert_not_null(net);
    char err[256] = "";
    cr_assert(nnue_net_load(net, bytes, nbytes, err, sizeof err), "%s", err);
    char path[256];
    int fd = test_temp_file(path, sizeof path, "patzer-nnue");
    close(fd);
    cr_assert(rnet_write_file(path, bytes, nbytes));
    char why[128] = "";
    cr_assert(test_read_net(path, &ref, why, sizeof why), "%s", why);
    unlink(path);
}

static void make_net_v(const RandomNetShape *shape, uint64_t seed, int buckets, uint32_t flags) {
    make_net_kb(shape, seed, buckets, flags, 1);
}

static void make_net(const RandomNetShape *shape, uint64_t seed) {
    make_net_v(shape, seed, 1, 0);
}
static void typical_net(void) {
    make_net(&RNET_TYPICAL, 12345);
}
static void extreme_net(void) {
    make_net(&RNET_EXTREME, 777);
}
static void typical_v2_net(void) {
    make_net_v(&RNET_TYPICAL, 4242, 8, NNUE_FLAG_MIRROR);
}
static void extreme_v2_net(void) {
    make_net_v(&RNET_EXTREME, 99, 8, NNUE_FLAG_MIRROR);
}
static void typical_v3_net(void) {
    make_net_kb(&RNET_TYPICAL, 31337, 8, NNUE_FLAG_MIRROR, 4);
}
static void extreme_v3_net(void) {
    make_net_kb(&RNET_EXTREME, 5150, 8, NNUE_FLAG_MIRROR, 4);
}
static void plain_v3_net(void) { // king buckets alone: no mirror, one output bucket
    make_net_kb(&RNET_TYPICAL, 8086, 1, 0, 3);
}
static void free_net(void) {
    nnue_net_free(net);
}

// ------------------------------------------------------------------ the loader

static void expect_rejected(const uint8_t *b, size_t len, const char *word) {
    char err[256] = "";
    cr_expect_not(nnue_net_load(net, b, len, err, sizeof err), "accepted a file with bad %s", word);
    cr_expect(strstr(err, word) != NULL, "the message '%s' does not say '%s'", err, word);
}

Test(nnue_file, loads_what_the_spec_lays_out, .init = typical_net, .fini = free_net) {
    cr_assert_eq(nbytes, nnue_file_size(1, 1, 1, strlen("random test net")));
    cr_expect_str_eq(net->desc, "random test net");
    cr_expect(memcmp(net->ft_w, rnet.ft_w, sizeof rnet.ft_w) == 0);
    cr_expect(memcmp(net->ft_b, rnet.ft_b, sizeof rnet.ft_b) == 0);
    cr_expect(memcmp(net->out_w[0], rnet.out_w, sizeof rnet.out_w) == 0);
    cr_expect_eq(net->out_b[0], rnet.out_b);
    cr_expect_eq(net->buckets, 1);
    cr_expect_not(net->mirror);
    cr_expect_eq((uintptr_t)net->ft_w % 64, 0);
    cr_expect_eq((uintptr_t)net->out_w % 64, 0);
}

Test(nnue_file, rejects_every_kind_of_bad_file, .init = typical_net, .fini = free_net) {
    static uint8_t bad[sizeof bytes];
    memcpy(bad, bytes, nbytes);
    bad[0] = 'X';
    expect_rejected(bad, nbytes, "magic");

    memcpy(bad, bytes, nbytes);
    bad[12] = 128; // hidden 128
    expect_rejected(bad, nbytes, "sizes");
    memcpy(bad, bytes, nbytes);
    bad[16] = 254; // QA
    expect_rejected(bad, nbytes, "sizes");

    memcpy(bad, bytes, nbytes);
    bad[28] = 0x88, bad[29] = 0x13; // a description of 5000 bytes
    expect_rejected(bad, nbytes, "description length");

    expect_rejected(bytes, nbytes - 1, "truncated");
    expect_rejected(bytes, 20, "truncated");
    memcpy(bad, bytes, nbytes);
    bad[nbytes] = 0;
    expect_rejected(bad, nbytes + 1, "trailing");

    memcpy(bad, bytes, nbytes);
    bad[nbytes / 2] ^= 1; // one weight changed
    expect_rejected(bad, nbytes, "checksum");
    memcpy(bad, bytes, nbytes);
    bad[nbytes - 1] ^= 0x80; // the checksum itself
    expect_rejected(bad, nbytes, "checksum");
}

Test(nnue_file, v2_loads_and_rejects_bad_shapes, .init = typical_v2_net, .fini = free_net) {
    cr_assert_eq(nbytes, nnue_file_size(2, 8, 1, strlen("random test net")));
    cr_expect_eq(net->buckets, 8);
    cr_expect(net->mirror);
    cr_expect_eq(net->out_b[3], rnet.out_b + 3000);
    cr_expect_eq(net->out_w[2][0], rnet.out_w[2 * 97]);
    static uint8_t bad[sizeof bytes];
    memcpy(bad, bytes, nbytes);
    bad[28] = 9; // nine buckets
    expect_rejected(bad, nbytes, "buckets");
    memcpy(bad, bytes, nbytes);
    bad[28] = 0;
    expect_rejected(bad, nbytes, "buckets");
    memcpy(bad, bytes, nbytes);
    bad[32] = 2; // an unknown flag
    expect_rejected(bad, nbytes, "flags");
    memcpy(bad, bytes, nbytes);
    bad[28] = 4; // fewer buckets than the file holds
    expect_rejected(bad, nbytes, "trailing");
    expect_rejected(bytes, nbytes - 4, "truncated");
}

Test(nnue_file, v3_loads_and_rejects_bad_king_buckets, .init = typical_v3_net, .fini = free_net) {
    cr_assert_eq(nbytes, nnue_file_size(3, 8, 4, strlen("random test net")));
    cr_expect_eq(net->buckets, 8);
    cr_expect(net->mirror);
    cr_expect_eq(net->king_buckets, 4);
    for (int sq = 0; sq < 64; sq++)
        cr_expect_eq(net->king_bucket_of[sq], rnet_king_bucket(4, sq));
    // King bucket 2's first weight is the v1 net's 2 * 131st.
    cr_expect_eq(net->ft_w[2 * NNUE_INPUTS * NNUE_HIDDEN], rnet.ft_w[2 * 131]);
    static uint8_t bad[sizeof bytes];
    memcpy(bad, bytes, nbytes);
    bad[36] = 0; // no king bucket
    expect_rejected(bad, nbytes, "king buckets");
    memcpy(bad, bytes, nbytes);
    bad[36] = 9; // more than the engine holds
    expect_rejected(bad, nbytes, "king buckets");
    memcpy(bad, bytes, nbytes);
    bad[40 + 17] = 4; // square 17 in a bucket the net does not have
    expect_rejected(bad, nbytes, "king bucket map");
    memcpy(bad, bytes, nbytes);
    bad[36] = 3, bad[40 + 17] = bad[40 + 21] = 0; // fewer king buckets than the file holds
    for (int sq = 0; sq < 64; sq++)
        bad[40 + sq] = bad[40 + sq] == 3 ? 0 : bad[40 + sq];
    expect_rejected(bad, nbytes, "trailing");
    expect_rejected(bytes, nbytes - 4, "truncated");
}

// ------------------------------------------------------------------ random walks

static const char *const walk_fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "4k3/1P6/8/2pP4/8/8/6p1/4K3 w - c6 0 1",
    // Chess960: the king stays or lands on its rook's square, rooks inside.
    "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w AEae - 0 1",
    "1r4kr/1p1pp1p1/8/8/8/8/1P1PP1P1/1R4KR w HBhb - 0 1",
};

enum { WALK_MAX = 48, GAMES_PER_FEN = 12, STEPS = 220 };

typedef struct Stats {
    int castle_k, castle_q, ep, promo[4], promoted_taken, nulls, checks, ref_checks, crossings,
        file_flips;
} Stats;

typedef struct Walk {
    Board b;
    Undo undo[WALK_MAX];
    bool null[WALK_MAX];
    Bitboard promoted[WALK_MAX + 1]; // squares holding promoted pieces, per ply
    int ply;
    NnueStack *st;
    NnueAccumulator shadow[WALK_MAX + 1]; // computed eagerly with the scalar kernels
    uint64_t rng;
    Stats stats;
} Walk;

// The colour-mirrored position: ranks flipped, colours swapped, the other side to move.
static void mirror(const Board *b, Board *out) {
    char fen[128];
    int n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Piece p = board_piece_on(b, make_square(file, 7 - rank));
            if (p == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                fen[n++] = (char)('0' + empty), empty = 0;
            fen[n++] = "PpNnBbRrQqKk"[p ^ 1];
        }
        if (empty)
            fen[n++] = (char)('0' + empty);
        fen[n++] = rank ? '/' : ' ';
    }
    fen[n++] = b->side == WHITE ? 'b' : 'w';
    fen[n++] = ' ';
    int before = n;
    // Shredder-FEN letters (the rook's file), which Chess960 rooks need.
    static const struct {
        int index;
        char a;
    } rights[4] = { { 2, 'A' }, { 3, 'A' }, { 0, 'a' }, { 1, 'a' } };
    for (int i = 0; i < 4; i++)
        if (b->castling & (1 << rights[i].index))
            fen[n++] = (char)(rights[i].a + square_file(b->castle_rook[rights[i].index]));
    if (n == before)
        fen[n++] = '-';
    fen[n++] = ' ';
    if (b->ep == SQ_NONE) {
        fen[n++] = '-';
    } else {
        square_name(square_mirror(b->ep), fen + n);
        n += 2;
    }
    snprintf(fen + n, sizeof fen - (size_t)n, " %d 1", b->halfmove);
    test_board_from_fen(out, fen);
}

// The a<->h image of a position without castling rights or en-passant square.
static void flip_files(const Board *b, Board *out) {
    char fen[128];
    int n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 7; file >= 0; file--) {
            Piece p = board_piece_on(b, make_square(file, rank));
            if (p == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                fen[n++] = (char)('0' + empty), empty = 0;
            fen[n++] = "PpNnBbRrQqKk"[p];
        }
        if (empty)
            fen[n++] = (char)('0' + empty);
        fen[n++] = rank ? '/' : ' ';
    }
    snprintf(fen + n, sizeof fen - (size_t)n, "%c - - %d 1", b->side == WHITE ? 'w' : 'b',
             b->halfmove);
    test_board_from_fen(out, fen);
}

// Everything there is to compare at the walk's current ply.
static void check_ply(Walk *w, bool with_reference) {
    const NnueAccumulator *acc = nnue_stack_update(w->st, net, &w->b, w->ply);
    static NnueAccumulator full, full_scalar;
    nnue_refresh(net, &w->b, &full);
    nnue_refresh_scalar(net, &w->b, &full_scalar);
    cr_assert(memcmp(acc, &full, sizeof full) == 0, "incremental != refresh at ply %d", w->ply);
    cr_assert(memcmp(&full, &full_scalar, sizeof full) == 0, "AVX2 != scalar refresh");
    cr_assert(memcmp(&w->shadow[w->ply], &full, sizeof full) == 0, "scalar updates != refresh");
    int pieces = bb_count(board_occupied(&w->b));
    int v = nnue_output(net, acc, w->b.side, pieces);
    cr_assert_eq(v, nnue_output_scalar(net, acc, w->b.side, pieces), "AVX2 != scalar output");
    cr_assert_eq(nnue_stack_evaluate(w->st, net, &w->b, w->ply), nnue_evaluate(net, &w->b));
    w->stats.checks++;
    if (!with_reference)
        return;
    uint8_t rec[TRAIN_RECORD_SIZE];
    test_record_of_board(&w->b, rec);
    cr_assert_eq(v, test_net_eval(&ref, rec), "engine != tests/nnue_file.h");
    Board m;
    mirror(&w->b, &m);
    cr_assert_eq(nnue_evaluate(net, &w->b), nnue_evaluate(net, &m), "mirror differs");
    w->stats.ref_checks++;
    // A mirroring net sees each side's king on files a-d: the a<->h image is the same.
    if (net->mirror && !w->b.castling && w->b.ep == SQ_NONE) {
        flip_files(&w->b, &m);
        cr_assert_eq(nnue_evaluate(net, &w->b), nnue_evaluate(net, &m), "a<->h image differs");
        w->stats.file_flips++;
    }
}

// Captures, castling, en passant and promotions, which the walk prefers half the time.
static bool special(const Board *b, Move m) {
    return move_kind(m) != MOVE_NORMAL || board_is_capture(b, m);
}

static void count_move(Walk *w, Move m) {
    Stats *s = &w->stats;
    Bitboard promoted = w->promoted[w->ply];
    Square from = move_from(m), to = move_to(m);
    if (move_kind(m) == MOVE_CASTLING)
        square_file(to) > 4 ? s->castle_k++ : s->castle_q++;
    if (move_kind(m) == MOVE_EN_PASSANT)
        s->ep++;
    if (bb_has(promoted, to)) {
        s->promoted_taken++;
        promoted &= ~bb_square(to);
    }
    if (bb_has(promoted, from))
        promoted ^= bb_square(from) | bb_square(to);
    if (move_is_promotion(m)) {
        s->promo[move_promotion(m) - KNIGHT]++;
        promoted |= bb_square(to);
    }
    w->promoted[w->ply + 1] = promoted;
}

static void take_back(Walk *w) {
    w->ply--;
    if (w->null[w->ply])
        board_unmake_null(&w->b, &w->undo[w->ply]);
    else
        board_unmake_move(&w->b, &w->undo[w->ply]);
}

static void walk_step(Walk *w) {
    int r = (int)(test_rng_next(&w->rng) % 100);
    if (w->ply > 0 && (r < 22 || w->ply == WALK_MAX)) {
        take_back(w);
        return;
    }
    if (r < 30 && w->ply > 0 && !w->null[w->ply - 1] && !board_in_check(&w->b)) {
        nnue_stack_push_null(w->st, w->ply, &w->b);
        w->shadow[w->ply + 1] = w->shadow[w->ply];
        w->promoted[w->ply + 1] = w->promoted[w->ply];
        board_make_null(&w->b, &w->undo[w->ply]);
        w->null[w->ply++] = true;
        w->stats.nulls++;
        return;
    }
    MoveList list, pick;
    movegen_legal(&w->b, &list);
    if (list.count == 0) {
        if (w->ply > 0)
            take_back(w);
        return;
    }
    pick.count = 0;
    for (int i = 0; i < list.count; i++)
        if (special(&w->b, list.moves[i]))
            pick.moves[pick.count++] = list.moves[i];
    const MoveList *from = pick.count && test_rng_next(&w->rng) % 2 ? &pick : &list;
    Move m = from->moves[test_rng_next(&w->rng) % (uint64_t)from->count];
    count_move(w, m);
    NnueDelta d;
    nnue_delta(&w->b, m, &d);
    nnue_stack_push(w->st, w->ply, &w->b, m);
    board_make_move(&w->b, m, &w->undo[w->ply]);
    // A king crossing the middle (a mirroring net) or into another king bucket changes
    // the whole view of its side.
    if (nnue_view_changed(net, &d, WHITE) || nnue_view_changed(net, &d, BLACK)) {
        nnue_refresh_scalar(net, &w->b, &w->shadow[w->ply + 1]);
        w->stats.crossings++;
    } else {
        nnue_apply_scalar(net, &w->shadow[w->ply], &w->shadow[w->ply + 1], &d);
    }
    w->null[w->ply++] = false;
}

static void run_walks(Stats *total) {
    static Walk w;
    memset(&w, 0, sizeof w);
    w.st = nnue_stack_new();
    cr_assert_not_null(w.st);
    w.rng = 2024;
    for (size_t f = 0; f < sizeof walk_fens / sizeof walk_fens[0]; f++) {
        for (int g = 0; g < GAMES_PER_FEN; g++) {
            test_board_from_fen(&w.b, walk_fens[f]);
            w.ply = 0;
            w.promoted[0] = 0;
            nnue_stack_reset(w.st, net, &w.b);
            nnue_refresh_scalar(net, &w.b, &w.shadow[0]);
            for (int step = 0; step < STEPS; step++) {
                walk_step(&w);
                // Not every ply is evaluated, so that the stack walks back over several.
                uint64_t r = test_rng_next(&w.rng) % 8;
                if (r < 3)
                    check_ply(&w, r == 0);
            }
        }
    }
    nnue_stack_free(w.st);
    *total = w.stats;
}

static void expect_coverage(const Stats *s) {
    cr_expect_gt(s->castle_k, 0, "no kingside castling");
    cr_expect_gt(s->castle_q, 0, "no queenside castling");
    cr_expect_gt(s->ep, 0, "no en passant");
    for (int i = 0; i < 4; i++)
        cr_expect_gt(s->promo[i], 0, "no promotion to %c", "nbrq"[i]);
    cr_expect_gt(s->promoted_taken, 0, "no capture of a promoted piece");
    cr_expect_gt(s->nulls, 0, "no null move");
    cr_expect_gt(s->ref_checks, 500, "only %d positions checked against the reference",
                 s->ref_checks);
}

Test(nnue_walk, incremental_equals_refresh_and_reference, .init = typical_net, .fini = free_net) {
    Stats s;
    run_walks(&s);
    expect_coverage(&s);
    cr_log_info("%d positions compared, %d with the reference; castling %d/%d, ep %d, "
                "promotions %d/%d/%d/%d, promoted pieces taken %d, null moves %d",
                s.checks, s.ref_checks, s.castle_k, s.castle_q, s.ep, s.promo[0], s.promo[1],
                s.promo[2], s.promo[3], s.promoted_taken, s.nulls);
}

// The largest weights the format allows: the int16 products and int32 sums at their limits
// still agree between the paths and with the reference.
Test(nnue_walk, extreme_weights_agree, .init = extreme_net, .fini = free_net) {
    Stats s;
    run_walks(&s);
    expect_coverage(&s);
}

// v2: eight output buckets and the king mirror. Kings crossing the middle refresh their
// side's half of the accumulator; the a<->h image evaluates the same.
static void expect_v2_coverage(const Stats *s) {
    expect_coverage(s);
    cr_expect_gt(s->crossings, 100, "only %d king crossings", s->crossings);
    cr_expect_gt(s->file_flips, 100, "only %d a<->h images", s->file_flips);
}

Test(nnue_walk, v2_buckets_and_king_mirror_agree, .init = typical_v2_net, .fini = free_net) {
    cr_assert_eq(net->buckets, 8);
    cr_assert(net->mirror);
    Stats s;
    run_walks(&s);
    expect_v2_coverage(&s);
    cr_log_info("v2: %d positions compared, %d king crossings, %d a<->h images", s.checks,
                s.crossings, s.file_flips);
}

Test(nnue_walk, v2_extreme_weights_agree, .init = extreme_v2_net, .fini = free_net) {
    Stats s;
    run_walks(&s);
    expect_v2_coverage(&s);
}

// v3: king buckets. Most king moves change their side's bucket (the map is scattered), which
// refreshes its half of the accumulator; the rest of a walk updates it.
Test(nnue_walk, v3_king_buckets_agree, .init = typical_v3_net, .fini = free_net) {
    cr_assert_eq(net->king_buckets, 4);
    Stats s;
    run_walks(&s);
    expect_v2_coverage(&s);
    cr_log_info("v3: %d positions compared, %d view changes", s.checks, s.crossings);
}

Test(nnue_walk, v3_extreme_weights_agree, .init = extreme_v3_net, .fini = free_net) {
    Stats s;
    run_walks(&s);
    expect_v2_coverage(&s);
}

Test(nnue_walk, v3_king_buckets_without_mirror_agree, .init = plain_v3_net, .fini = free_net) {
    cr_assert_not(net->mirror);
    Stats s;
    run_walks(&s);
    expect_coverage(&s);
    cr_expect_gt(s.crossings, 100, "only %d king bucket changes", s.crossings);
}

Test(nnue_eval, clamped_inside_eval_max, .init = extreme_net, .fini = free_net) {
    Board b;
    test_board_from_fen(&b, walk_fens[1]);
    int v = nnue_evaluate(net, &b);
    cr_expect(v > -VALUE_EVAL_MAX && v < VALUE_EVAL_MAX, "%d", v);
}

// ------------------------------------------------------------------ search

static void search_with_net(int threads, const char *fen) {
    atomic_bool stop;
    atomic_init(&stop, false);
    TTable *tt = tt_new(8);
    cr_assert_not_null(tt);
    Searcher *s = search_new(tt, &stop);
    cr_assert_not_null(s);
    cr_assert_eq(search_set_threads(s, threads), threads);
    Board b;
    test_board_from_fen(&b, fen);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = 7;
    SearchParams params = { .multipv = 1, .contempt_percent = 100, .net = net };
    SearchResult r;
    search_run(s, &b, NULL, 0, &limits, &params, NULL, NULL, &r);
    cr_expect(movegen_is_legal(&b, r.best), "%d threads, %s: no legal move", threads, fen);
    cr_expect_gt(r.nodes, 0);
    search_free(s);
    tt_free(tt);
}

Test(nnue_search, legal_moves_at_one_and_two_threads, .init = typical_net, .fini = free_net) {
    for (size_t f = 0; f < sizeof walk_fens / sizeof walk_fens[0]; f++) {
        search_with_net(1, walk_fens[f]);
        search_with_net(2, walk_fens[f]);
    }
}
