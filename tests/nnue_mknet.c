// SPDX-License-Identifier: GPL-3.0-or-later
// nnue_mknet PATH [SEED]: writes a deterministic pseudo-random NNUE v1 net file (of
// tests/nnue_random.h) for the shell tests, which need a valid net without training one.
#include <stdlib.h>

#include "tests/nnue_random.h"

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3) {
        fputs("usage: nnue_mknet PATH [SEED]\n", stderr);
        return 2;
    }
    uint64_t seed = argc == 3 ? strtoull(argv[2], NULL, 10) : 1;
    static RandomNet net;
    static uint8_t bytes[RNET_HEADER + 64 + RNET_BODY];
    random_net_fill(&net, &RNET_TYPICAL, seed);
    size_t len = random_net_serialize(&net, "nnue_mknet random test net", bytes);
    if (!rnet_write_file(argv[1], bytes, len)) {
        fprintf(stderr, "nnue_mknet: cannot write %s\n", argv[1]);
        return 1;
    }
    return 0;
}
