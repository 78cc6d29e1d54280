// SPDX-License-Identifier: GPL-3.0-or-later
// `patzer annotate FILE [--movetime MS] [--depth N]`: reviews every game of a
// PGN file with the engine (src/game/review.h) and writes the games to standard
// output with evaluation comments, ?! ? ?? marks (as the NAGs $6 $2 $4) and
// the engine's better lines as variations, plus an Annotator tag.
//
// - "-" reads standard input. A game with an error is reported on stderr as
//   FILE:LINE:COL: game N: reason and left out of the output; the others
//   are still annotated.
// - Progress goes to stderr, and only when stderr is a terminal.
// - Exit status: 2 for bad usage, an input that cannot be read or output
//   that cannot be written; else 1 when some game had an error; else 0.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "src/cli/cli.h"
#include "src/pgn/pgn.h"
#include "src/game/review.h"

enum {
    ANNOTATE_DEFAULT_MOVETIME_MS = 500,
    ANNOTATE_MAX_MOVETIME_MS = 86400000,
    ANNOTATE_MAX_DEPTH = MAX_PLY - 2,
    STDIN_CHUNK = 1 << 16,
};

static const char STDIN_NAME[] = "<stdin>";

static void usage(FILE *out) {
    fprintf(out,
            "usage: patzer annotate FILE [--movetime MS] [--depth N] > OUT.pgn\n"
            "Reviews every game of the PGN file (\"-\" is standard input) with the engine\n"
            "and writes it to standard output annotated: the evaluation after each move\n"
            "(White's view), inaccuracies, mistakes and blunders marked ?!, ?, ?? (as $6,\n"
            "$2, $4) with the engine's better line as a variation.\n"
            "  --movetime MS  search time per position (default %d)\n"
            "  --depth N      search depth per position (alone: no time limit)\n"
            "A game with an error is reported as FILE:LINE:COL on standard error and left\n"
            "out. Exit status: 0 when every game was annotated, 1 when some had errors, 2\n"
            "for bad usage or a file that cannot be read or written.\n",
            ANNOTATE_DEFAULT_MOVETIME_MS);
}

static int usage_error(const char *fmt, const char *arg) {
    fputs("patzer annotate: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr);
    return 2;
}

// Parses a whole decimal number in [min, max].
static bool parse_number(const char *s, long long min, long long max, long long *out) {
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

// Reads all of standard input into a NUL-terminated string (the caller frees
// it); NULL with the reason on stderr.
static char *slurp_stdin(void) {
    size_t cap = STDIN_CHUNK, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (cap - len < 2) {
            char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, stdin);
        len += n;
        if (n == 0)
            break;
    }
    if (!buf) {
        fprintf(stderr, "patzer annotate: %s: out of memory\n", STDIN_NAME);
        return NULL;
    }
    if (ferror(stdin)) {
        fprintf(stderr, "patzer annotate: %s: read error\n", STDIN_NAME);
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        fprintf(stderr, "patzer annotate: %s: not a text file (it holds a NUL byte)\n", STDIN_NAME);
        free(buf);
        return NULL;
    }
    return buf;
}

// The progress line on a terminal.
typedef struct Progress {
    int game;
} Progress;

static bool show_progress(int done, int total, void *ctx) {
    const Progress *p = ctx;
    fprintf(stderr, "\rpatzer annotate: game %d, ply %d of %d ", p->game, done, total);
    return true;
}

static void clear_progress(void) {
    fputs("\r\033[K", stderr);
}

// A failure of the input itself rather than of one game's text.
static bool is_input_failure(const PgnError *e) {
    return strstr(e->message, ": read error") != NULL ||
           strstr(e->message, ": out of memory") != NULL;
}

// Reviews g and writes it annotated to stdout; false (reason on stderr) when
// out of memory or the output fails.
static bool annotate_game(Engine *engine, PgnGame *g, ReviewOptions *opt) {
    int n = pgn_mainline_length(g);
    ReviewPly *plies = calloc((size_t)(n > 0 ? n : 1), sizeof *plies);
    if (!plies) {
        fputs("patzer annotate: out of memory\n", stderr);
        return false;
    }
    int reviewed = review_game(engine, g, opt, plies);
    if (opt->progress)
        clear_progress();
    bool ok = reviewed >= 0 && review_annotate(g, plies, reviewed) &&
              pgn_set_tag(g, "Annotator", "patzer " PACKAGE_VERSION);
    free(plies);
    if (!ok) {
        fputs("patzer annotate: out of memory\n", stderr);
        return false;
    }
    size_t len;
    char *text = pgn_write_string(g, &len);
    if (!text) {
        fputs("patzer annotate: out of memory\n", stderr);
        return false;
    }
    bool written = fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0;
    free(text);
    if (!written)
        fprintf(stderr, "patzer annotate: cannot write the output: %s\n", strerror(errno));
    return written;
}

int cli_annotate(int argc, char **argv) {
    const char *path = NULL;
    long long movetime = 0, depth = 0;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        bool is_movetime = strcmp(arg, "--movetime") == 0, is_depth = strcmp(arg, "--depth") == 0;
        const char *value = NULL;
        if (is_movetime || is_depth) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", arg);
            value = argv[++i];
        } else if (strncmp(arg, "--movetime=", 11) == 0) {
            is_movetime = true;
            value = arg + 11;
        } else if (strncmp(arg, "--depth=", 8) == 0) {
            is_depth = true;
            value = arg + 8;
        } else if (arg[0] == '-' && arg[1]) {
            return usage_error("unknown option '%s'", arg);
        } else if (!path) {
            path = arg;
            continue;
        } else {
            return usage_error("only one FILE, please (got '%s' too)", arg);
        }
        if (is_movetime && !parse_number(value, 1, ANNOTATE_MAX_MOVETIME_MS, &movetime))
            return usage_error("--movetime takes milliseconds, 1 or more, not '%s'", value);
        if (is_depth && !parse_number(value, 1, ANNOTATE_MAX_DEPTH, &depth))
            return usage_error("--depth takes a number from 1 to 126, not '%s'", value);
    }
    if (!path)
        return usage_error("missing FILE%s", "");
    if (!movetime && !depth)
        movetime = ANNOTATE_DEFAULT_MOVETIME_MS;

    char err[512];
    PgnReader *reader;
    if (strcmp(path, "-") == 0) {
        char *text = slurp_stdin();
        if (!text)
            return 2;
        reader = pgn_reader_from_string(text, STDIN_NAME);
        free(text);
        if (!reader) {
            fprintf(stderr, "patzer annotate: %s: out of memory\n", STDIN_NAME);
            return 2;
        }
    } else {
        reader = pgn_reader_open(path, err, sizeof err);
        if (!reader) {
            fprintf(stderr, "patzer annotate: %s\n", err);
            return 2;
        }
    }
    Engine *engine = engine_new();
    PgnGame *g = pgn_game_new();
    PgnError *error = malloc(sizeof *error);
    if (!engine || !g || !error) {
        fputs("patzer annotate: out of memory\n", stderr);
        engine_free(engine);
        pgn_game_free(g);
        free(error);
        pgn_reader_close(reader);
        return 2;
    }

    Progress progress = { 0 };
    ReviewOptions opt = {
        .movetime_ms = movetime,
        .depth = (int)depth,
        .progress = isatty(STDERR_FILENO) ? show_progress : NULL,
        .ctx = &progress,
    };
    bool invalid = false, failed = false;
    for (int games = 1; !failed; games++) {
        int rc = pgn_reader_next(reader, g, error);
        if (rc == 0)
            break;
        if (rc < 0) {
            if (is_input_failure(error)) {
                fprintf(stderr, "patzer annotate: %s: %s\n", error->file, error->message);
                failed = true;
            } else {
                fprintf(stderr, "%s:%d:%d: %s\n", error->file, error->line, error->column,
                        error->message);
                invalid = true;
            }
            continue;
        }
        progress.game = games;
        failed = !annotate_game(engine, g, &opt);
    }
    engine_free(engine);
    pgn_game_free(g);
    free(error);
    pgn_reader_close(reader);
    return failed ? 2 : invalid ? 1 : 0;
}
