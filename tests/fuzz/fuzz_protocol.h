// SPDX-License-Identifier: GPL-3.0-or-later
// Shared by fuzz_uci.c and fuzz_xboard.c: runs a protocol session on the
// fuzz input, after a rewrite that keeps each run short and harmless.
//
// The rewrite (documented in tests/fuzz/README) touches only lines that would
// make one run slow or huge, not what they exercise:
// - lines naming "perft", "hash" or "memory" (any case): every run of digits
//   is cut to two digits, each mapped to 0..2, so perft is at most depth 2 and
//   the hash table at most 22 MB (the real program honours up to 65536 MB,
//   which is over libFuzzer's memory limit);
// - lines naming "bookfile": '/' becomes '_', so a book path stays in the
//   working directory (no /dev/zero or /dev/stdin books).
// Searches need no limit: `go` (UCI) or a thinking/analysing engine (xboard)
// is stopped by the next search command and by the end of the input, which
// the protocols take as quit, so a run lasts as long as its commands take.
#ifndef TESTS_FUZZ_FUZZ_PROTOCOL_H
#define TESTS_FUZZ_FUZZ_PROTOCOL_H

#include <ctype.h>
#include <stdbool.h>

#include "engine/board.h"
#include "src/protocol/protocol.h"
#include "tests/fuzz/fuzz.h"

static bool fuzz_line_names(const char *line, size_t len, const char *word) {
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= len; i++) {
        size_t k = 0;
        while (k < n && tolower((unsigned char)line[i + k]) == word[k])
            k++;
        if (k == n)
            return true;
    }
    return false;
}

// Rewrites one line (line[0..len), without its newline) into out; returns
// the bytes written (at most len).
static size_t fuzz_rewrite_line(const char *line, size_t len, char *out) {
    bool numbers = fuzz_line_names(line, len, "perft") || fuzz_line_names(line, len, "hash") ||
                   fuzz_line_names(line, len, "memory");
    bool book = fuzz_line_names(line, len, "bookfile");
    size_t o = 0;
    int run = 0;
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if (numbers && c >= '0' && c <= '9') {
            if (++run > 2)
                continue;
            c = (char)('0' + (c - '0') % 3);
        } else {
            run = 0;
        }
        if (book && c == '/')
            c = '_';
        out[o++] = c;
    }
    return o;
}

// The whole input, rewritten line by line. The caller frees it.
static char *fuzz_rewrite(const uint8_t *data, size_t size, size_t *out_size) {
    char *out = malloc(size + 1);
    if (!out)
        abort();
    const char *text = (const char *)data;
    size_t o = 0, start = 0;
    while (start < size) {
        const char *nl = memchr(text + start, '\n', size - start);
        size_t end = nl ? (size_t)(nl - text) : size;
        o += fuzz_rewrite_line(text + start, end - start, out + o);
        if (nl)
            out[o++] = '\n';
        start = end + 1;
    }
    out[o] = '\0';
    *out_size = o;
    return out;
}

typedef int (*FuzzProtocolRun)(FILE *in, FILE *out, const char *first_line);

static int fuzz_protocol(const uint8_t *data, size_t size, FuzzProtocolRun run) {
    static FILE *devnull;
    board_init_tables();
    if (!devnull && !(devnull = fopen("/dev/null", "w")))
        abort();
    if (size == 0)
        return 0;
    size_t n;
    char *text = fuzz_rewrite(data, size, &n);
    FILE *in = n ? fmemopen(text, n, "r") : NULL;
    if (in) {
        int status = run(in, devnull, NULL);
        if (status != 0)
            fuzz_fail("the session ended with status %d", status);
        fclose(in);
    }
    free(text);
    return 0;
}

#endif
