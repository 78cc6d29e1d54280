// SPDX-License-Identifier: GPL-3.0-or-later
// The bench positions and the runner.
#include "engine/bench.h"

#include <stdlib.h>

#include "engine/fen.h"
#include "engine/search.h"
#include "engine/tt.h"

enum { BENCH_HASH_MB = 16 };

// Openings (from the shared balanced set), middlegames with tactics (from the
// perft suite), and endings of several kinds.
static const char *const positions[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1rk1/ppp2pbp/3p1np1/4P3/2P1P3/2N2N2/PP2BPPP/R1BQK2R b KQ - 0 1",
    "r1bqk2r/pp2npbp/2np2p1/2p1p3/4PP2/2NP2PN/PPP3BP/R1BQK2R w KQkq - 0 1",
    "rnb1kb1r/pp3ppp/4pn2/2pq4/3P4/2P2N2/PP3PPP/RNBQKB1R w KQkq - 0 1",
    "r1bqkb1r/pp1p1ppp/2n1pn2/8/2PN4/2N5/PP2PPPP/R1BQKB1R w KQkq - 0 1",
    "r1bqk1nr/pp1p1pbp/4p1p1/2p5/3nP3/3PB1P1/PPP1NPBP/R2QK1NR b KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/5n2/1B2p3/3NP3/2N5/PPPP1PPP/R1BQK2R b KQkq - 0 1",
    "r1bqkb1r/pp3ppp/2n2n2/2pp4/3P4/2N1PN2/PP3PPP/R1BQKB1R w KQkq - 0 1",
    "r1bqkbnr/1pp3pp/p1p2p2/4p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 0 1",
    "rnbqkb1r/pp3ppp/3ppn2/1B6/3NP3/2N5/PPP2PPP/R1BQK2R b KQkq - 0 1",
    "r1bqk2r/ppp2ppp/2n5/2bnp3/8/2N2NP1/PP1PPPBP/R1BQK2R w KQkq - 0 1",
    "rnbqk2r/ppp2ppp/4p3/3p4/2PPn3/P1Q5/1P2PPPP/R1B1KBNR w KQkq - 0 1",
    "r1bqk2r/ppp2pp1/2np1n1p/2b1p3/2P5/2NP1NP1/PP2PPBP/R1BQK2R w KQkq - 0 1",
    "rnb1kb1r/pp3ppp/1q2pn2/2pp2B1/3P4/2P1PN2/PP3PPP/RN1QKB1R w KQkq - 0 1",
    "rnbq1rk1/ppp1bpp1/4pn1p/3p4/2PP3B/2N1PN2/PP3PPP/R2QKB1R b KQ - 0 1",
    "r1b1kbnr/pppp1ppp/2n5/8/3PPp1q/2N5/PPP1K1PP/R1BQ1BNR b kq - 0 1",
    "rnbq1rk1/ppp2ppp/4pb2/8/3PN3/5N2/PPP2PPP/R2QKB1R w KQ - 0 1",
    "r1bqk2r/pppp1ppp/2n2n2/3Np3/1bP5/6P1/PP1PPPBP/R1BQK1NR b KQkq - 0 1",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P1B2/2PB1N2/PP1N1PPP/R2QK2R w KQ - 4 10",
    "2rq1rk1/pb1nbppp/1p2pn2/2pp4/2PP4/1PN1PN2/PB2BPPP/2RQ1RK1 w - - 2 12",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2NB4/PPP3PP/R3QR1K b - - 3 14",
    "3r1rk1/pp3pp1/2p1bq1p/4n3/4P3/1BN2Q2/PPP3PP/3R1R1K w - - 0 20",
    "r4rk1/1b2qppp/p2bpn2/1p6/3N4/P1N1B3/1PP1QPPP/3R1RK1 w - - 0 16",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/4k3/8/2p5/8/1P2K3/8 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 1",
    "8/8/1p6/1Pp2k2/2P5/4K3/8/8 w - - 0 1",
    "6k1/8/6PP/8/8/8/1r6/5K2 b - - 0 1",
    "8/2k5/8/3KP3/8/8/8/8 w - - 0 1",
    "8/8/8/4k3/8/3BN3/8/4K3 w - - 0 1",
    "5rk1/5ppp/8/8/8/8/5PPP/2R3K1 w - - 0 1",
    "8/3k4/8/8/2q5/8/4K3/7Q w - - 0 1",
    "2r3k1/pp3ppp/8/3p4/3P4/P7/1P3PPP/2R3K1 w - - 0 25",
    "8/p4pk1/1p4p1/2b5/4P3/1P3P2/P3BPPP/6K1 b - - 0 30",
    "1k6/ppp5/8/8/8/8/PPP3r1/1K3R2 w - - 0 1",
    "4r1k1/1q3ppp/p2b4/1p1P4/8/1P1Q2P1/P3RP1P/4R1K1 w - - 0 24",
};

struct BenchRunner {
    TTable *tt;
    Searcher *searcher;
    atomic_bool stop;
    const NnueNet *net; // NULL: the hand-crafted evaluation (the signature's)
};

int bench_position_count(void) { return (int)(sizeof positions / sizeof positions[0]); }

const char *bench_position(int index) {
    return index >= 0 && index < bench_position_count() ? positions[index] : NULL;
}

BenchRunner *bench_runner_new(void) {
    BenchRunner *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    atomic_init(&r->stop, false);
    r->tt = tt_new(BENCH_HASH_MB);
    r->searcher = r->tt ? search_new(r->tt, &r->stop) : NULL;
    if (!r->searcher) {
        tt_free(r->tt);
        free(r);
        return NULL;
    }
    return r;
}

void bench_runner_free(BenchRunner *r) {
    if (!r)
        return;
    search_free(r->searcher);
    tt_free(r->tt);
    free(r);
}

int bench_runner_set_threads(BenchRunner *r, int threads) {
    return search_set_threads(r->searcher, threads);
}

void bench_runner_set_net(BenchRunner *r, const NnueNet *net) { r->net = net; }

bool bench_run_position(BenchRunner *r, int index, int depth, BenchResult *out) {
    Board board;
    char err[128];
    if (!bench_position(index) || !board_set_fen(&board, positions[index], err, sizeof err))
        return false;
    tt_clear(r->tt);
    search_clear(r->searcher);
    SearchLimits limits;
    search_limits_init(&limits);
    limits.depth = depth;
    SearchParams params = {.multipv = 1, .contempt_percent = 100, .analysis = false,
                           .move_overhead = 0, .net = r->net};
    SearchResult result;
    int64_t start = search_now_ms();
    search_run(r->searcher, &board, NULL, 0, &limits, &params, NULL, NULL, &result);
    out->time_ms = search_now_ms() - start;
    out->nodes = result.nodes;
    out->best = result.best;
    out->score = result.score;
    return true;
}
