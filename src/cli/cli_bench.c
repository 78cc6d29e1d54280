// SPDX-License-Identifier: GPL-3.0-or-later
// `patzer bench [DEPTH] [--threads N] [--eval-file NET|builtin|none]`: searches the fixed
// bench positions and prints the node count of each, the total (the search's signature, with
// one thread and the hand-crafted evaluation) and the speed; the time is the time to reach
// DEPTH. With a net (a file, or builtin: the one built into patzer) the searches evaluate
// with it (its own node count, and its speed); none is the hand-crafted default.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/bench.h"
#include "engine/notation.h"
#include "engine/search.h"
#include "src/cli/cli.h"
#include "src/util/netfile.h"

enum { BENCH_MAX_DEPTH = 30 };

static int usage_error(void) {
    fprintf(stderr, "usage: patzer bench [DEPTH] [--threads N] [--eval-file NET|builtin|none]\n");
    return 2;
}

int cli_bench(int argc, char **argv) {
    int depth = BENCH_DEFAULT_DEPTH, threads = 1;
    bool have_depth = false;
    const char *eval_file = NULL;
    for (int i = 0; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "--eval-file") == 0) {
            if (i + 1 >= argc)
                return usage_error();
            eval_file = argv[++i];
            continue;
        }
        if (strcmp(argv[i], "--threads") == 0) {
            if (i + 1 >= argc)
                return usage_error();
            const char *value = argv[++i];
            long v = strtol(value, &end, 10);
            if (end == value || *end || v < 1 || v > SEARCH_THREADS_MAX) {
                fprintf(stderr, "patzer bench: threads '%s' is not a number from 1 to %d\n",
                        value, SEARCH_THREADS_MAX);
                return 2;
            }
            threads = (int)v;
            continue;
        }
        if (have_depth || argv[i][0] == '-')
            return usage_error();
        long v = strtol(argv[i], &end, 10);
        if (end == argv[i] || *end || v < 1 || v > BENCH_MAX_DEPTH) {
            fprintf(stderr, "patzer bench: depth '%s' is not a number from 1 to %d\n", argv[i],
                    BENCH_MAX_DEPTH);
            return 2;
        }
        depth = (int)v;
        have_depth = true;
    }
    NnueNet *net = NULL;
    if (eval_file && strcmp(eval_file, "none") != 0) {
        char why[256];
        net = netfile_open(eval_file, why, sizeof why);
        if (!net) {
            fprintf(stderr, "patzer bench: %s: %s\n", eval_file, why);
            return 1;
        }
    }
    BenchRunner *runner = bench_runner_new();
    if (!runner) {
        fprintf(stderr, "patzer bench: out of memory\n");
        nnue_net_free(net);
        return 1;
    }
    bench_runner_set_net(runner, net);
    if (bench_runner_set_threads(runner, threads) != threads) {
        fprintf(stderr, "patzer bench: out of memory for %d threads\n", threads);
        bench_runner_free(runner);
        nnue_net_free(net);
        return 1;
    }
    uint64_t total = 0;
    int64_t time_ms = 0;
    for (int i = 0; i < bench_position_count(); i++) {
        BenchResult r;
        if (!bench_run_position(runner, i, depth, &r)) {
            fprintf(stderr, "patzer bench: position %d failed\n", i + 1);
            bench_runner_free(runner);
            nnue_net_free(net);
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
    nnue_net_free(net);
    // With one thread the last line is the signature line scripts read; more
    // threads say so after it (their node counts vary from run to run).
    printf("\n%" PRIu64 " nodes %" PRIu64 " nps %" PRId64 " ms", total,
           time_ms > 0 ? total * 1000 / (uint64_t)time_ms : total, time_ms);
    if (threads > 1)
        printf(" %d threads", threads);
    printf("\n");
    return 0;
}
