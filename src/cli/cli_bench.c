// SPDX-License-Identifier: GPL-3.0-or-later
// `patzer bench [DEPTH]`: searches the fixed bench positions and prints the
// node count of each, the total (the search's signature) and the speed.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/bench.h"
#include "engine/notation.h"
#include "src/cli/cli.h"

enum { BENCH_MAX_DEPTH = 30 };

int cli_bench(int argc, char **argv) {
    int depth = BENCH_DEFAULT_DEPTH;
    if (argc > 1) {
        fprintf(stderr, "usage: patzer bench [DEPTH]\n");
        return 2;
    }
    if (argc == 1) {
        char *end;
        long v = strtol(argv[0], &end, 10);
        if (end == argv[0] || *end || v < 1 || v > BENCH_MAX_DEPTH) {
            fprintf(stderr, "patzer bench: depth '%s' is not a number from 1 to %d\n", argv[0],
                    BENCH_MAX_DEPTH);
            return 2;
        }
        depth = (int)v;
    }
    BenchRunner *runner = bench_runner_new();
    if (!runner) {
        fprintf(stderr, "patzer bench: out of memory\n");
        return 1;
    }
    uint64_t total = 0;
    int64_t time_ms = 0;
    for (int i = 0; i < bench_position_count(); i++) {
        BenchResult r;
        if (!bench_run_position(runner, i, depth, &r)) {
            fprintf(stderr, "patzer bench: position %d failed\n", i + 1);
            bench_runner_free(runner);
            return 1;
        }
        char move[MOVE_TEXT_MAX];
        notation_to_uci(r.best, move);
        printf("%2d %10" PRIu64 " nodes  best %-5s  %s\n", i + 1, r.nodes, move,
               bench_position(i));
        fflush(stdout);
        total += r.nodes;
        time_ms += r.time_ms;
    }
    bench_runner_free(runner);
    printf("\n%" PRIu64 " nodes %" PRIu64 " nps %" PRId64 " ms\n", total,
           time_ms > 0 ? total * 1000 / (uint64_t)time_ms : total, time_ms);
    return 0;
}
