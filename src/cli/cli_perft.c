// SPDX-License-Identifier: GPL-3.0-or-later
// `patzer perft` and `patzer divide`: leaf counts of the legal move tree.
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "src/cli/cli.h"

enum { PERFT_MAX_DEPTH = 20 };

bool cli_join_args(int argc, char **argv, char *buf, size_t bufsz) {
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc; i++) {
        int n = snprintf(buf + len, bufsz - len, "%s%s", i ? " " : "", argv[i]);
        if (n < 0 || (size_t)n >= bufsz - len)
            return false;
        len += (size_t)n;
    }
    return true;
}

static bool parse_depth(const char *text, int *depth) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < 0 || v > PERFT_MAX_DEPTH)
        return false;
    *depth = (int)v;
    return true;
}

int cli_perft(int argc, char **argv, bool divide) {
    const char *name = divide ? "divide" : "perft";
    int depth;
    // --960: a Chess960 game (divide writes castling as king takes rook);
    // a FEN whose castling field names files or 960 squares says so itself.
    bool chess960 = false;
    if (argc >= 1 && strcmp(argv[0], "--960") == 0) {
        chess960 = true;
        argc--;
        argv++;
    }
    if (argc < 1) {
        fprintf(stderr, "patzer %s: missing DEPTH\nusage: patzer %s [--960] DEPTH [FEN]\n", name,
                name);
        return 2;
    }
    if (!parse_depth(argv[0], &depth)) {
        fprintf(stderr, "patzer %s: depth '%s' is not a number from 0 to %d\n", name, argv[0],
                PERFT_MAX_DEPTH);
        return 2;
    }

    Board board;
    char fen[512], err[160];
    if (argc == 2 && strcmp(argv[1], "startpos") == 0) {
        snprintf(fen, sizeof fen, "%s", BOARD_START_FEN); // UCI's name for it, typed by habit
    } else if (argc > 1) {
        if (!cli_join_args(argc - 1, argv + 1, fen, sizeof fen)) {
            fprintf(stderr, "patzer %s: FEN too long\n", name);
            return 2;
        }
    } else {
        snprintf(fen, sizeof fen, "%s", BOARD_START_FEN);
    }
    if (!board_set_fen(&board, fen, err, sizeof err)) {
        fprintf(stderr, "patzer %s: bad FEN: %s\n", name, err);
        return 2;
    }
    board.chess960 |= chess960;

    if (!divide) {
        printf("%" PRIu64 "\n", perft(&board, depth));
        return 0;
    }
    static PerftDivide result;
    perft_divide(&board, depth, &result);
    for (int i = 0; i < result.count; i++) {
        char move[MOVE_TEXT_MAX];
        notation_to_uci_in(&board, result.moves[i], move);
        printf("%s %" PRIu64 "\n", move, result.counts[i]);
    }
    printf("\nNodes: %" PRIu64 "\n", result.total);
    return 0;
}
