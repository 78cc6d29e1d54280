// SPDX-License-Identifier: GPL-3.0-or-later
// `patzer pgn FILE...`: replays every game of PGN files (variations too) and
// prints one line per valid game, N<TAB>RESULT<TAB>PLIES<TAB>FINAL-FEN.
//
// - N counts the games of all files together, from 1, in the order read; an
//   invalid game uses up its number too, so N is the game's place in the
//   input. PLIES and FINAL-FEN are those of the main line.
// - An invalid game prints nothing on stdout, only FILE:LINE:COL: game N:
//   reason on stderr, so scripts reading stdout see valid games only.
// - "-" reads standard input (read whole, then validated; named <stdin>).
// - A file that cannot be opened or read, or a binary file, is reported on
//   stderr and the other files are still read.
// - Exit status: 2 for bad usage or an I/O error (after reading all the
//   files), else 1 when some game was invalid, else 0.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/cli/cli.h"
#include "src/pgn/pgn.h"
#include "src/util/paths.h"

enum { STDIN_CHUNK = 1 << 16 };

static const char STDIN_NAME[] = "<stdin>";

static void usage(FILE *out) {
    fputs("usage: patzer pgn FILE...\n"
          "Replays every game of the PGN files (\"-\" is standard input), checking every\n"
          "move of the main line and the variations, and prints one line per valid game:\n"
          "  N<TAB>RESULT<TAB>PLIES<TAB>FINAL-FEN\n"
          "N counts the games of all the files together from 1; PLIES and FINAL-FEN are\n"
          "those of the main line. An invalid game prints nothing on standard output,\n"
          "only FILE:LINE:COL: game N: reason on standard error.\n"
          "Exit status: 0 when every game is valid, 1 when some are not, 2 for bad\n"
          "usage or a file that cannot be read.\n",
          out);
}

// What the run has met so far.
typedef struct PgnRun {
    int games;      // games met in all the inputs so far (the last N)
    bool invalid;   // some game had an error
    bool io_failed; // some input could not be opened or read
} PgnRun;

// Reads all of standard input into a NUL-terminated string (the caller frees
// it). NULL with the reason on stderr on a read error, when out of memory, or
// when the input holds a NUL byte (the string reader could not see past it).
static char *slurp_stdin(void) {
    size_t cap = STDIN_CHUNK, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, "patzer pgn: %s: out of memory\n", STDIN_NAME);
        return NULL;
    }
    for (;;) {
        if (cap - len < 2) {
            char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                fprintf(stderr, "patzer pgn: %s: out of memory\n", STDIN_NAME);
                free(buf);
                return NULL;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, stdin);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(stdin)) {
        fprintf(stderr, "patzer pgn: %s: read error\n", STDIN_NAME);
        free(buf);
        return NULL;
    }
    if (memchr(buf, '\0', len)) {
        fprintf(stderr, "patzer pgn: %s: not a text file (it holds a NUL byte)\n", STDIN_NAME);
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

// The reader's message without its own "game K: " prefix (K counts the games
// of one input; the run's N replaces it).
static const char *reason_of(const PgnError *e) {
    char prefix[32];
    int n = snprintf(prefix, sizeof prefix, "game %d: ", e->game_number);
    if (n > 0 && (size_t)n < sizeof prefix && strncmp(e->message, prefix, (size_t)n) == 0)
        return e->message + n;
    return e->message;
}

// A failure of the input itself rather than of the game's text; the reader
// reports those as game errors with these reasons.
static bool is_input_failure(const char *reason) {
    return strncmp(reason, "read error", 10) == 0 || strcmp(reason, "out of memory") == 0;
}

// Validates every game of one open reader, printing as described above.
static void run_reader(PgnReader *r, const char *name, PgnRun *run) {
    static PgnSummary summary;
    static PgnError error;
    int base = run->games;
    for (;;) {
        int rc = pgn_reader_validate(r, &summary, &error);
        if (rc == 0)
            break;
        if (rc == 1) {
            run->games = base + summary.game_number;
            printf("%d\t%s\t%d\t%s\n", run->games, summary.result, summary.plies,
                   summary.final_fen);
            continue;
        }
        const char *reason = reason_of(&error);
        // Keeps the messages in order with the lines when both go to one file.
        if (fflush(stdout) != 0)
            run->io_failed = true;
        if (is_input_failure(reason)) {
            // Not a game: the numbers of the games that follow stay as they are.
            run->io_failed = true;
            fprintf(stderr, "patzer pgn: %s: %s\n", name, reason);
        } else {
            run->games = base + error.game_number;
            run->invalid = true;
            fprintf(stderr, "%s:%d:%d: game %d: %s\n", name, error.line, error.column, run->games,
                    reason);
        }
    }
    // Nothing on stdout and a status of 0 would pass an empty file for a good one.
    if (run->games == base && !run->io_failed)
        fprintf(stderr, "patzer pgn: %s: no game in it\n", name);
}

static void run_file(const char *path, PgnRun *run) {
    PgnReader *r;
    const char *name = path;
    if (strcmp(path, "-") == 0) {
        name = STDIN_NAME;
        char *text = slurp_stdin();
        if (!text) {
            run->io_failed = true;
            return;
        }
        r = pgn_reader_from_string(text, name);
        free(text);
        if (!r) {
            fprintf(stderr, "patzer pgn: %s: out of memory\n", name);
            run->io_failed = true;
            return;
        }
    } else {
        if (paths_looks_binary(path)) {
            // One message, as load gives, not one per "game" of bad bytes.
            fprintf(stderr, "patzer pgn: %s is a binary file, not a PGN text file\n", path);
            run->io_failed = true;
            return;
        }
        char err[PATH_MAX_LEN + 160];
        r = pgn_reader_open(path, err, sizeof err);
        if (!r) {
            fprintf(stderr, "patzer pgn: %s\n", err);
            run->io_failed = true;
            return;
        }
    }
    run_reader(r, name, run);
    pgn_reader_close(r);
}

int cli_pgn(int argc, char **argv) {
    // Options first: --help, and "--" before file names that start with '-'.
    int first = 0;
    while (first < argc && argv[first][0] == '-' && argv[first][1] != '\0') {
        const char *opt = argv[first];
        if (strcmp(opt, "--") == 0) {
            first++;
            break;
        }
        if (strcmp(opt, "-h") == 0 || strcmp(opt, "--help") == 0) {
            usage(stdout);
            return fflush(stdout) == 0 ? 0 : 2;
        }
        fprintf(stderr, "patzer pgn: unknown option '%s'\n", opt);
        usage(stderr);
        return 2;
    }
    if (first >= argc) {
        fputs("patzer pgn: no FILE given\n", stderr);
        usage(stderr);
        return 2;
    }

    PgnRun run = { 0 };
    for (int i = first; i < argc; i++) {
        run_file(argv[i], &run);
        if (fflush(stdout) != 0) {
            perror("patzer pgn: standard output");
            return 2;
        }
    }
    if (ferror(stdout)) {
        fputs("patzer pgn: error writing standard output\n", stderr);
        return 2;
    }
    if (run.io_failed)
        return 2;
    return run.invalid ? 1 : 0;
}
