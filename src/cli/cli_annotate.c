// SPDX-License-Identifier: GPL-3.0-or-later
// `patzer annotate FILE [--movetime MS] [--depth N] [--jobs N]`: reviews every
// game of a PGN file with the engine (src/game/review.h) and writes the games
// to standard output with evaluation comments, ?! ? ?? marks (as the NAGs $6
// $2 $4) and the engine's better lines as variations, plus an Annotator tag.
//
// - Games are reviewed in parallel, one engine per job (each game starts from
//   a fresh table), and written in the file's order: at a fixed depth the
//   output is the same for any number of jobs.
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
#include "src/game/theory.h"
#include "src/util/paths.h"
#include "src/util/jobs.h"
#include "src/util/text.h"

enum {
    ANNOTATE_DEFAULT_MOVETIME_MS = 500,
    ANNOTATE_MAX_MOVETIME_MS = 86400000,
    ANNOTATE_MAX_DEPTH = MAX_PLY - 2,
    STDIN_CHUNK = 1 << 16,
    GAMES_PER_JOB = 4, // games read ahead per job, so that no job waits long
};

static const char STDIN_NAME[] = "<stdin>";

static void usage(FILE *out) {
    fprintf(out,
            "usage: patzer annotate FILE [--movetime MS] [--depth N] [--jobs N] > OUT.pgn\n"
            "Reviews every game of the PGN file (\"-\" is standard input) with the engine\n"
            "and writes it to standard output annotated: the evaluation after each move\n"
            "(White's view), inaccuracies, mistakes and blunders marked ?!, ?, ?? (as $6,\n"
            "$2, $4) with the engine's better line as a variation.\n"
            "  --movetime MS  search time per position (default %d)\n"
            "  --depth N      search depth per position (alone: no time limit)\n"
            "  --jobs N       games reviewed at once (default: the number of cores)\n"
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

// One game read and, once reviewed, its annotated text.
typedef struct Item {
    PgnGame *game;
    int number;  // 1-based in the file
    char *text;  // NULL when the review failed (out of memory)
    size_t len;
} Item;

// The games of one batch, the engines (one per job) and what went wrong.
typedef struct Batch {
    Item *items;
    int count;
    Engine **engines;
    ReviewOptions *opts; // one per job (each with its own progress)
    Progress *progress;
    // Theory, whose moves are never marked: the named lines and the book.
    Openings *openings;
    Book *book;
    bool failed; // out of memory or the output failed: stop
} Batch;

// Reviews a game into its annotated text (on a worker thread).
static void review_item(int index, int worker, void *ctx) {
    Batch *b = ctx;
    Item *it = &b->items[index];
    PgnGame *g = it->game;
    it->text = NULL;
    int n = pgn_mainline_length(g);
    ReviewPly *plies = calloc((size_t)(n > 0 ? n : 1), sizeof *plies);
    if (!plies)
        return;
    b->progress[worker].game = it->number;
    ReviewOptions *opt = &b->opts[worker];
    opt->book_plies = theory_plies(g, b->openings, b->book);
    int reviewed = review_game(b->engines[worker], g, opt, plies);
    if (opt->progress)
        clear_progress();
    bool ok = reviewed >= 0 && review_annotate(g, plies, reviewed) &&
              pgn_set_tag(g, "Annotator", "patzer " PACKAGE_VERSION);
    free(plies);
    if (ok)
        it->text = pgn_write_string(g, &it->len);
}

// Writes a reviewed game to stdout, in order; false (reason on stderr) stops.
static bool write_item(int index, void *ctx) {
    Batch *b = ctx;
    Item *it = &b->items[index];
    if (!it->text) {
        fputs("patzer annotate: out of memory\n", stderr);
        b->failed = true;
        return false;
    }
    bool written = fwrite(it->text, 1, it->len, stdout) == it->len && fflush(stdout) == 0;
    free(it->text);
    it->text = NULL;
    if (!written) {
        fprintf(stderr, "patzer annotate: cannot write the output: %s\n", strerror(errno));
        b->failed = true;
    }
    return written;
}

int cli_annotate(int argc, char **argv) {
    const char *path = NULL;
    int64_t movetime = 0, depth = 0, jobs = jobs_cores();
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        bool is_movetime = strcmp(arg, "--movetime") == 0, is_depth = strcmp(arg, "--depth") == 0;
        bool is_jobs = strcmp(arg, "--jobs") == 0;
        const char *value = NULL;
        if (is_movetime || is_depth || is_jobs) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", arg);
            value = argv[++i];
        } else if (strncmp(arg, "--movetime=", 11) == 0) {
            is_movetime = true;
            value = arg + 11;
        } else if (strncmp(arg, "--depth=", 8) == 0) {
            is_depth = true;
            value = arg + 8;
        } else if (strncmp(arg, "--jobs=", 7) == 0) {
            is_jobs = true;
            value = arg + 7;
        } else if (arg[0] == '-' && arg[1]) {
            return usage_error("unknown option '%s'", arg);
        } else if (!path) {
            path = arg;
            continue;
        } else {
            return usage_error("only one FILE, please (got '%s' too)", arg);
        }
        if (is_movetime && !text_parse_i64(value, 1, ANNOTATE_MAX_MOVETIME_MS, &movetime))
            return usage_error("--movetime takes milliseconds, 1 or more, not '%s'", value);
        if (is_depth && !text_parse_i64(value, 1, ANNOTATE_MAX_DEPTH, &depth))
            return usage_error("--depth takes a number from 1 to 126, not '%s'", value);
        if (is_jobs && !text_parse_i64(value, 1, JOBS_MAX, &jobs))
            return usage_error("--jobs takes a number from 1 to 256, not '%s'", value);
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
    int njobs = (int)jobs;
    int cap = njobs * GAMES_PER_JOB;
    Batch batch = {
        .items = calloc((size_t)cap, sizeof *batch.items),
        .engines = calloc((size_t)njobs, sizeof *batch.engines),
        .opts = calloc((size_t)njobs, sizeof *batch.opts),
        .progress = calloc((size_t)njobs, sizeof *batch.progress),
    };
    char found[PATH_MAX_LEN];
    if (openings_find_path(paths_argv0(), found, sizeof found))
        batch.openings = openings_open(found); // names read once, from any thread
    paths_find_book(paths_argv0(), found, sizeof found);
    if (found[0]) // without the book, the named lines alone are theory
        batch.book = book_open(found, err, sizeof err);
    PgnError *error = malloc(sizeof *error);
    bool memory = batch.items && batch.engines && batch.opts && batch.progress && error;
    for (int i = 0; memory && i < cap; i++)
        memory = (batch.items[i].game = pgn_game_new()) != NULL;
    for (int i = 0; memory && i < njobs; i++) {
        memory = (batch.engines[i] = engine_new()) != NULL;
        batch.opts[i] = (ReviewOptions){
            .movetime_ms = movetime,
            .depth = (int)depth,
            .progress = isatty(STDERR_FILENO) ? show_progress : NULL,
            .ctx = &batch.progress[i],
        };
    }

    bool invalid = false, failed = !memory, more = memory;
    if (!memory)
        fputs("patzer annotate: out of memory\n", stderr);
    // Batches of games: read (errors reported in order as they are met),
    // reviewed in parallel, written in order.
    for (int games = 0; more && !failed;) {
        batch.count = 0;
        while (batch.count < cap) {
            Item *it = &batch.items[batch.count];
            int rc = pgn_reader_next(reader, it->game, error);
            if (rc == 0) {
                more = false;
                break;
            }
            games++;
            if (rc < 0) {
                if (is_input_failure(error)) {
                    fprintf(stderr, "patzer annotate: %s: %s\n", error->file, error->message);
                    failed = true;
                    more = false;
                    break;
                }
                fprintf(stderr, "%s:%d:%d: %s\n", error->file, error->line, error->column,
                        error->message);
                invalid = true;
                continue;
            }
            it->number = games;
            batch.count++;
        }
        if (batch.count > 0 && !jobs_run(njobs, batch.count, review_item, write_item, &batch))
            failed = true;
        failed |= batch.failed;
    }
    for (int i = 0; batch.items && i < cap; i++) {
        free(batch.items[i].text);
        pgn_game_free(batch.items[i].game);
    }
    for (int i = 0; batch.engines && i < njobs; i++)
        engine_free(batch.engines[i]);
    free(batch.items);
    free(batch.engines);
    free(batch.opts);
    free(batch.progress);
    free(error);
    openings_free(batch.openings);
    book_close(batch.book);
    pgn_reader_close(reader);
    return failed ? 2 : invalid ? 1 : 0;
}
