// SPDX-License-Identifier: GPL-3.0-or-later
// `patzer annotate FILE [--nodes N] [--verify-nodes N] [--movetime MS] [--depth N]
// [--jobs N] [--wc-pawn CP]`: reviews every
// game of a PGN file with the engine (src/game/review.h) and writes the games
// to standard output with evaluation comments, ?! ? ?? marks (as the NAGs $6
// $2 $4) and the engine's better lines as variations, plus an Annotator tag.
//
// - Games are reviewed in parallel, one engine per job, and the positions of
//   a game too when there are fewer games than jobs; every search starts
//   from an empty table, and the games are written in the file's order: with
//   node or depth limits (the default is nodes) the output is the same for
//   any number of jobs.
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
#include "src/game/review.h"
#include "src/game/theory.h"
#include "src/pgn/pgn.h"
#include "src/util/jobs.h"
#include "src/util/netfile.h"
#include "src/util/paths.h"
#include "src/util/text.h"

enum {
    ANNOTATE_MAX_MOVETIME_MS = 86400000,
    ANNOTATE_MAX_DEPTH = MAX_PLY - 2,
    ANNOTATE_MAX_NODES = 1000000000,
    STDIN_CHUNK = 1 << 16,
    GAMES_PER_JOB = 4, // games read ahead per job, so that no job waits long
};

static const char STDIN_NAME[] = "<stdin>";

static void usage(FILE *out) {
    fprintf(out,
            "usage: patzer annotate FILE [--nodes N] [--verify-nodes N] [--movetime MS]\n"
            "                        [--depth N] [--jobs N] [--wc-pawn CP]\n"
            "                        [--eval-file NET|builtin|none] > OUT.pgn\n"
            "Reviews every game of the PGN file (\"-\" is standard input) with the engine\n"
            "and writes it to standard output annotated: the evaluation after each move\n"
            "(White's view), inaccuracies, mistakes and blunders marked ?!, ?, ?? (as $6,\n"
            "$2, $4) with the engine's better line as a variation. A move is marked only\n"
            "when a deeper search of the played and the better move confirms the loss.\n"
            "  --nodes N         nodes per position of the quick pass (default %d)\n"
            "  --verify-nodes N  nodes per check of a doubtful move (default %d)\n"
            "  --movetime MS     search time per position instead of nodes\n"
            "  --depth N         search depth per position instead of nodes\n"
            "                    (with either, a check searches 4 times as long or\n"
            "                    4 plies deeper unless --verify-nodes is given)\n"
            "  --jobs N          engines at once (default: the number of cores)\n"
            "  --wc-pawn CP      the engine's score worth a pawn in winning chances\n"
            "                    (default %d; moves are judged by the winning chances\n"
            "                    they lose: 10 points a mistake, 15 a blunder)\n"
            "  --eval-file NET   evaluate with that NNUE net (builtin: the one built into\n"
            "                    patzer; none: the hand-crafted evaluation)\n"
            "A game with an error is reported as FILE:LINE:COL on standard error and left\n"
            "out. Exit status: 0 when every game was annotated, 1 when some had errors, 2\n"
            "for bad usage or a file that cannot be read or written.\n",
            REVIEW_NODES, REVIEW_VERIFY_NODES, REVIEW_WC_PAWN);
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
    int number; // 1-based in the file
    char *text; // NULL when the review failed (out of memory)
    size_t len;
} Item;

// The games of one batch, the engines (one per job) and what went wrong.
typedef struct Batch {
    Item *items;
    int count;
    Engine **engines;
    ReviewOptions *opts; // one per job (each with its own progress)
    Progress *progress;
    int jobs;
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
    // Fewer games than jobs: the positions of each game in parallel too.
    opt->threads = b->jobs / b->count > 1 ? b->jobs / b->count : 1;
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

// The options that take a number: name, range, and what a bad value is told.
typedef struct NumberOption {
    const char *name;
    int64_t min, max;
    const char *what;
} NumberOption;

enum { OPT_NODES, OPT_VERIFY_NODES, OPT_MOVETIME, OPT_DEPTH, OPT_JOBS, OPT_WC_PAWN, OPT_COUNT };

static const NumberOption number_options[OPT_COUNT] = {
    [OPT_NODES] = { "--nodes", 1, ANNOTATE_MAX_NODES, "a number of nodes, 1 or more" },
    [OPT_VERIFY_NODES] = { "--verify-nodes", 1, ANNOTATE_MAX_NODES,
                           "a number of nodes, 1 or more" },
    [OPT_MOVETIME] = { "--movetime", 1, ANNOTATE_MAX_MOVETIME_MS, "milliseconds, 1 or more" },
    [OPT_DEPTH] = { "--depth", 1, ANNOTATE_MAX_DEPTH, "a number from 1 to 126" },
    [OPT_JOBS] = { "--jobs", 1, JOBS_MAX, "a number from 1 to 256" },
    [OPT_WC_PAWN] = { "--wc-pawn", REVIEW_WC_PAWN_MIN, REVIEW_WC_PAWN_MAX,
                      "a score from 20 to 1000 (centipawns)" },
};

// Which number option arg names ("--nodes" or "--nodes=N"); its value, if
// inline, to *inline_value. -1 for none.
static int number_option(const char *arg, const char **inline_value) {
    for (int k = 0; k < OPT_COUNT; k++) {
        size_t n = strlen(number_options[k].name);
        if (strncmp(arg, number_options[k].name, n) != 0)
            continue;
        if (arg[n] == '\0') {
            *inline_value = NULL;
            return k;
        }
        if (arg[n] == '=') {
            *inline_value = arg + n + 1;
            return k;
        }
    }
    return -1;
}

int cli_annotate(int argc, char **argv) {
    const char *path = NULL;
    int64_t values[OPT_COUNT] = { [OPT_JOBS] = jobs_cores(), [OPT_WC_PAWN] = REVIEW_WC_PAWN };
    bool given[OPT_COUNT] = { false };
    // --eval-file: NET, builtin or none. The hand-crafted evaluation unless told: the
    // review's winning chances are fitted to its centipawns (src/game/review.h).
    const char *eval_file = "none";
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strncmp(arg, "--eval-file=", 12) == 0) {
            eval_file = arg + 12;
            continue;
        }
        if (strcmp(arg, "--eval-file") == 0) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", arg);
            eval_file = argv[++i];
            continue;
        }
        const char *value = NULL;
        int k = number_option(arg, &value);
        if (k < 0) {
            if (arg[0] == '-' && arg[1])
                return usage_error("unknown option '%s'", arg);
            if (path)
                return usage_error("only one FILE, please (got '%s' too)", arg);
            path = arg;
            continue;
        }
        if (!value) {
            if (i + 1 >= argc)
                return usage_error("%s needs a value", arg);
            value = argv[++i];
        }
        const NumberOption *o = &number_options[k];
        if (!text_parse_i64(value, o->min, o->max, &values[k])) {
            fprintf(stderr, "patzer annotate: %s takes %s, not '%s'\n", o->name, o->what, value);
            usage(stderr);
            return 2;
        }
        given[k] = true;
    }
    if (!path)
        return usage_error("missing FILE%s", "");
    ReviewOptions defaults;
    review_options_default(&defaults);
    if (given[OPT_MOVETIME] || given[OPT_DEPTH]) {
        // Time or depth instead of nodes, for the check too unless told.
        defaults.nodes = (uint64_t)values[OPT_NODES];
        defaults.verify_nodes = 0;
    } else if (given[OPT_NODES]) {
        defaults.nodes = (uint64_t)values[OPT_NODES];
    }
    if (given[OPT_VERIFY_NODES])
        defaults.verify_nodes = (uint64_t)values[OPT_VERIFY_NODES];
    defaults.movetime_ms = values[OPT_MOVETIME];
    defaults.depth = (int)values[OPT_DEPTH];
    defaults.wc_pawn = (int)values[OPT_WC_PAWN];
    int64_t jobs = values[OPT_JOBS];

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
        if (paths_looks_binary(path)) {
            // As pgn and load: said once, not as a bad move per "game".
            fprintf(stderr, "patzer annotate: %s is a binary file, not a PGN text file\n", path);
            return 2;
        }
        reader = pgn_reader_open(path, err, sizeof err);
        if (!reader) {
            fprintf(stderr, "patzer annotate: %s\n", err);
            return 2;
        }
    }
    int njobs = (int)jobs;
    int cap = njobs * GAMES_PER_JOB;
    Batch batch = {
        .jobs = njobs,
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
        batch.opts[i] = defaults;
        batch.opts[i].progress = isatty(STDERR_FILENO) ? show_progress : NULL;
        batch.opts[i].ctx = &batch.progress[i];
    }

    // One net for all the engines, which only read it.
    NetFile net = { 0 };
    char net_msg[NNUE_DESC_MAX + 1200];
    bool net_ok =
        !memory || netfile_choose(&net, batch.engines[0], eval_file, net_msg, sizeof net_msg);
    for (int i = 1; memory && i < njobs; i++)
        engine_set_net(batch.engines[i], net.net);
    // The built-in net of the second opinion, parsed once for every game
    // rather than by each review (the engines only read it).
    NnueNet *second = NULL;
    bool engines = memory; // netfile_choose ran: its net to release
    if (memory && net_ok && !net.net && defaults.confirm && defaults.second_net) {
        memory = (second = netfile_builtin(err, sizeof err)) != NULL;
        for (int i = 0; memory && i < njobs; i++)
            batch.opts[i].builtin_net = second;
    }
    bool invalid = false, failed = !memory || !net_ok, more = memory && net_ok;
    if (!memory)
        fputs("patzer annotate: out of memory\n", stderr);
    else if (!net_ok)
        fprintf(stderr, "patzer annotate: %s\n", net_msg);
    // Batches of games: read (errors reported in order as they are met),
    // reviewed in parallel, written in order.
    int games = 0;
    while (more && !failed) {
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
    // No output and a status of 0 would pass an empty file for a good one.
    if (memory && net_ok && !failed && games == 0)
        fprintf(stderr, "patzer annotate: %s: no game in it\n",
                strcmp(path, "-") == 0 ? STDIN_NAME : path);
    for (int i = 0; batch.items && i < cap; i++) {
        free(batch.items[i].text);
        pgn_game_free(batch.items[i].game);
    }
    if (engines)
        netfile_release(&net, batch.engines[0]);
    nnue_net_free(second);
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
