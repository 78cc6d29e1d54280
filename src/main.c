// SPDX-License-Identifier: GPL-3.0-or-later
// patzer's entry point: picks the face of the program from the first argument.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/board.h"
#include "src/cli.h"
#include "src/protocol.h"

static void usage(FILE *out) {
    fputs("usage: patzer [--help] [--version]\n"
          "       patzer perft DEPTH [FEN]    count the leaf nodes of the move tree\n"
          "       patzer divide DEPTH [FEN]   the same, per root move\n"
          "       patzer uci                  talk UCI to a chess GUI on stdin/stdout\n"
          "       patzer xboard               talk xboard (CECP) to a chess GUI\n"
          "       patzer epd FILE [--movetime MS]  solve the positions of an EPD test suite\n"
          "       patzer bench [DEPTH]        search the bench positions, print nodes and speed\n"
          "\n"
          "The FEN may be one quoted argument or the remaining arguments.\n"
          "With no arguments and input from a pipe, a first line 'uci' or 'xboard'\n"
          "starts that protocol.\n",
          out);
}

// No arguments and input from a pipe: a GUI that did not say which protocol
// on the command line says it with its first line.
static int detect_protocol(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, stdin);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' ' ||
                     line[n - 1] == '\t'))
        line[--n] = '\0';
    const char *first = n >= 0 ? line : "";
    while (*first == ' ' || *first == '\t')
        first++;
    int status;
    if (strcmp(first, "uci") == 0) {
        status = uci_run(stdin, stdout, first);
    } else if (strcmp(first, "xboard") == 0) {
        status = xboard_run(stdin, stdout, first);
    } else {
        fputs("patzer: the line-mode game is not available yet; expected 'uci' or 'xboard'\n",
              stderr);
        status = 2;
    }
    free(line);
    return status;
}

int main(int argc, char **argv) {
    board_init_tables();
    if (argc < 2) {
        if (!isatty(STDIN_FILENO))
            return detect_protocol();
        usage(stdout);
        return 0;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "perft") == 0 || strcmp(cmd, "divide") == 0)
        return cli_perft(argc - 2, argv + 2, cmd[0] == 'd');
    if (strcmp(cmd, "uci") == 0)
        return uci_run(stdin, stdout, NULL);
    if (strcmp(cmd, "xboard") == 0)
        return xboard_run(stdin, stdout, NULL);
    if (strcmp(cmd, "epd") == 0)
        return cli_epd(argc - 2, argv + 2);
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
