// SPDX-License-Identifier: GPL-3.0-or-later
// patzer's entry point: picks the face of the program from the first argument.
#include <stdio.h>
#include <string.h>

#include "engine/board.h"
#include "src/cli.h"

static void usage(FILE *out) {
    fputs("usage: patzer [--help] [--version]\n"
          "       patzer perft DEPTH [FEN]    count the leaf nodes of the move tree\n"
          "       patzer divide DEPTH [FEN]   the same, per root move\n"
          "       patzer bench [DEPTH]        search the bench positions, print nodes and speed\n"
          "\n"
          "The FEN may be one quoted argument or the remaining arguments.\n",
          out);
}

int main(int argc, char **argv) {
    board_init_tables();
    if (argc < 2) {
        usage(stdout);
        return 0;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "perft") == 0 || strcmp(cmd, "divide") == 0)
        return cli_perft(argc - 2, argv + 2, cmd[0] == 'd');
    if (strcmp(cmd, "bench") == 0)
        return cli_bench(argc - 2, argv + 2);
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("patzer %s\n", PACKAGE_VERSION);
        return 0;
    }
    fprintf(stderr, "patzer: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
