// SPDX-License-Identifier: GPL-3.0-or-later
// `patzer datagen`: runs self-play workers (one process each) that append
// training records to DIR/worker-NNN.bin, or workers that score the positions
// of games played elsewhere (--rescore), reports progress, and converts or
// summarises what is on disk (--to-epd, --stats).
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/fen.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "src/cli/cli.h"
#include "src/pgn/read.h"
#include "src/train/datagen.h"
#include "src/util/netfile.h"
#include "src/util/paths.h"
#include "src/util/text.h"

enum { JOBS_MAX = 256, BOOK_LINE_MAX = 512, DEFAULT_PROGRESS_SECONDS = 30 };
#define DEFAULT_DIR "train-data"

typedef enum { MODE_RUN, MODE_STATS, MODE_TO_EPD, MODE_HELP } Mode;

typedef struct Args {
    Mode mode;
    const char *dir;
    const char *epd_out;
    const char *book_path;
    const char *rescore_path; // --rescore: the PGN file whose games are scored
    const char *eval_file; // --eval-file: a net file, or "builtin"
    NnueNet *net;          // owned: the net loaded from it
    bool all;
    int jobs;
    long long positions;
    int progress_seconds;
    DatagenOptions opt;
    char **book; // owned: the opening FENs
    int book_count;
} Args;

static void usage(FILE *out) {
    fputs("usage: patzer datagen [--out DIR] [--positions N] [--jobs N] [--nodes N] [--seed N]\n"
          "                      [--random-plies N] [--book EPD | --960] [--hash MB]\n"
          "                      [--progress SEC] [--eval-file NET|builtin]\n"
          "       patzer datagen --rescore PGN [--out DIR] [--jobs N] [--nodes N] ...\n"
          "       patzer datagen --stats [--out DIR]\n"
          "       patzer datagen --to-epd FILE [--all] [--out DIR]\n"
          "Self-play training data in DIR (default " DEFAULT_DIR "), one file per worker;\n"
          "a stopped run continues where it stopped. Defaults: 1000000 positions, a job\n"
          "per core, 5000 nodes per move, seed 1, 8 random plies, 8 MB hash, progress\n"
          "every 30 s. --to-epd writes the quiet positions (all with --all) as EPD with\n"
          "ce (side to move), pm and the result in c9. --960 starts every game from a\n"
          "Chess960 position drawn at random (then the random plies). --eval-file plays\n"
          "the games with an NNUE net (builtin: the one built into patzer) instead of\n"
          "the hand-crafted evaluation. --rescore plays no games: it searches every\n"
          "position of the main lines of the PGN's finished games as self-play would\n"
          "(the game's moves are played, not the search's) and stores each with the\n"
          "game's result, until the file's end.\n",
          out);
}

static bool parse_number(const char *opt, const char *text, int64_t min, int64_t max,
                         int64_t *out) {
    if (text_parse_i64(text, min, max, out))
        return true;
    fprintf(stderr, "patzer datagen: %s needs a number from %" PRId64 " to %" PRId64 ", not '%s'\n",
            opt, min, max, text ? text : "");
    return false;
}

// Parses the options after "datagen". False after printing why.
static bool parse_args(int argc, char **argv, Args *a) {
    datagen_options_init(&a->opt);
    a->dir = DEFAULT_DIR;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    a->jobs = cores > 0 ? (int)(cores < JOBS_MAX ? cores : JOBS_MAX) : 1;
    a->positions = 1000000;
    a->progress_seconds = DEFAULT_PROGRESS_SECONDS;
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int64_t n = 0;
        bool takes_value = true, ok = true;
        if (strcmp(o, "--help") == 0 || strcmp(o, "-h") == 0) {
            a->mode = MODE_HELP;
            takes_value = false;
        } else if (strcmp(o, "--stats") == 0) {
            a->mode = MODE_STATS;
            takes_value = false;
        } else if (strcmp(o, "--all") == 0) {
            a->all = true;
            takes_value = false;
        } else if (strcmp(o, "--960") == 0) {
            a->opt.chess960 = true;
            takes_value = false;
        } else if (!v) {
            ok = false;
        } else if (strcmp(o, "--to-epd") == 0) {
            a->mode = MODE_TO_EPD;
            a->epd_out = v;
        } else if (strcmp(o, "--out") == 0) {
            a->dir = v;
        } else if (strcmp(o, "--book") == 0) {
            a->book_path = v;
        } else if (strcmp(o, "--rescore") == 0) {
            a->rescore_path = v;
        } else if (strcmp(o, "--eval-file") == 0) {
            a->eval_file = v;
        } else if (strcmp(o, "--positions") == 0) {
            ok = parse_number(o, v, 1, INT64_MAX / 2, &n);
            a->positions = n;
        } else if (strcmp(o, "--jobs") == 0) {
            ok = parse_number(o, v, 1, JOBS_MAX, &n);
            a->jobs = (int)n;
        } else if (strcmp(o, "--nodes") == 0) {
            ok = parse_number(o, v, 100, 100000000, &n);
            a->opt.nodes = (uint64_t)n;
        } else if (strcmp(o, "--seed") == 0) {
            ok = parse_number(o, v, 0, INT64_MAX, &n);
            a->opt.seed = (uint64_t)n;
        } else if (strcmp(o, "--random-plies") == 0) {
            ok = parse_number(o, v, 0, 40, &n);
            a->opt.random_plies = (int)n;
        } else if (strcmp(o, "--hash") == 0) {
            ok = parse_number(o, v, 1, 1024, &n);
            a->opt.hash_mb = (int)n;
        } else if (strcmp(o, "--progress") == 0) {
            ok = parse_number(o, v, 1, 86400, &n);
            a->progress_seconds = (int)n;
        } else {
            fprintf(stderr, "patzer datagen: unknown option '%s'\n", o);
            usage(stderr);
            return false;
        }
        if (!ok) {
            if (!v)
                fprintf(stderr, "patzer datagen: %s needs a value\n", o);
            return false;
        }
        i += takes_value;
    }
    return true;
}

// Loads the FEN fields of an EPD file into a->book.
static bool load_book(Args *a) {
    FILE *f = fopen(a->book_path, "r");
    if (!f) {
        fprintf(stderr, "patzer datagen: %s: %s\n", a->book_path, strerror(errno));
        return false;
    }
    char line[BOOK_LINE_MAX];
    long line_no = 0;
    Board board; // only to validate
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        line_no++;
        char *cursor = line, *fields[4];
        int n = 0;
        while (n < 4 && (fields[n] = text_next_word(&cursor)))
            n++;
        if (n == 0 || fields[0][0] == '#')
            continue;
        char fen[BOOK_LINE_MAX], err[160];
        snprintf(fen, sizeof fen, "%s %s %s %s", fields[0], n > 1 ? fields[1] : "",
                 n > 2 ? fields[2] : "", n > 3 ? fields[3] : "");
        if (n < 4 || !board_set_fen(&board, fen, err, sizeof err)) {
            fprintf(stderr, "patzer datagen: %s:%ld: bad FEN: %s\n", a->book_path, line_no,
                    n < 4 ? "fewer than four fields" : err);
            ok = false;
            break;
        }
        char **grown = realloc(a->book, (size_t)(a->book_count + 1) * sizeof *grown);
        char *copy = grown ? strdup(fen) : NULL;
        if (grown)
            a->book = grown;
        if (!copy) {
            fprintf(stderr, "patzer datagen: out of memory\n");
            ok = false;
            break;
        }
        a->book[a->book_count++] = copy;
    }
    fclose(f);
    if (ok && a->book_count == 0) {
        fprintf(stderr, "patzer datagen: %s: no positions\n", a->book_path);
        ok = false;
    }
    a->opt.book = (const char *const *)a->book;
    a->opt.book_count = a->book_count;
    return ok;
}

static void free_args(Args *a) {
    for (int i = 0; i < a->book_count; i++)
        free(a->book[i]);
    free(a->book);
    nnue_net_free(a->net);
}

// Loads the net of --eval-file; false after saying why.
static bool load_net(Args *a) {
    char err[256];
    a->net = netfile_open(a->eval_file, err, sizeof err);
    if (!a->net) {
        fprintf(stderr, "patzer datagen: --eval-file %s: %s\n", a->eval_file, err);
        return false;
    }
    a->opt.net = a->net;
    return true;
}

// Names the net by a checksum of its weights, so that a run is continued with the same one
// (a net of one output bucket by its one output layer, as before there were buckets; one
// with more by all of them and its shape; one with king buckets by their map too).
static uint32_t net_checksum(const NnueNet *net) {
    size_t ft_bytes = (size_t)net->king_buckets * NNUE_INPUTS * NNUE_HIDDEN * sizeof net->ft_w[0];
    uint32_t parts[3] = { nnue_fnv1a((const uint8_t *)net->ft_w, ft_bytes),
                          nnue_fnv1a((const uint8_t *)net->ft_b, sizeof net->ft_b),
                          nnue_fnv1a((const uint8_t *)net->out_w,
                                     (size_t)net->buckets * sizeof net->out_w[0]) };
    uint32_t sum = nnue_fnv1a((const uint8_t *)parts, sizeof parts);
    for (int k = 0; k < net->buckets; k++)
        sum ^= (uint32_t)net->out_b[k] * (2u * (uint32_t)k + 1);
    if (net->buckets > 1 || net->mirror)
        sum ^= nnue_fnv1a(
            (const uint8_t *)&(uint32_t[2]){ (uint32_t)net->buckets, (uint32_t)net->mirror }, 8);
    if (net->king_buckets > 1)
        sum ^= nnue_fnv1a(net->king_bucket_of, sizeof net->king_bucket_of);
    return sum;
}

static void worker_path(const Args *a, int worker, char *buf, size_t bufsz) {
    snprintf(buf, bufsz, "%s/worker-%03d.bin", a->dir, worker);
}

// ------------------------------------------------------------------------------ the run

// A worker's source of games: the next game's records into out, and how many; 0 when
// the worker is done, -1 when it failed (after saying why). w is the worker's file.
typedef int (*NextGame)(void *ctx, Datagen *d, const TrainWriter *w, TrainPosition *out);

// One worker process: appends the games of its source to its file until the source is done.
static int run_games(const Args *a, int worker, NextGame next, void *ctx) {
    char path[PATH_MAX_LEN], err[256];
    worker_path(a, worker, path, sizeof path);
    TrainWriter w;
    if (!train_writer_open(&w, path, err, sizeof err)) {
        fprintf(stderr, "patzer datagen: worker %d: %s\n", worker, err);
        return 1;
    }
    Datagen *d = datagen_new(&a->opt);
    TrainPosition *game = malloc(DATAGEN_PLIES_MAX * sizeof *game);
    int status = 0;
    if (!d || !game) {
        fprintf(stderr, "patzer datagen: worker %d: out of memory\n", worker);
        status = 1;
    }
    while (status == 0) {
        int n = next(ctx, d, &w, game);
        if (n <= 0) {
            status = n < 0;
            break;
        }
        if (!train_writer_add_game(&w, game, n, err, sizeof err)) {
            fprintf(stderr, "patzer datagen: %s: %s\n", path, err);
            status = 1;
        }
    }
    if (!train_writer_close(&w) && status == 0) {
        fprintf(stderr, "patzer datagen: %s: write error\n", path);
        status = 1;
    }
    free(game);
    datagen_free(d);
    return status;
}

// Self-play: games until the worker's file holds its share of the positions.
typedef struct SelfPlay {
    int worker;
    long long share;
} SelfPlay;

static int next_self_play(void *ctx, Datagen *d, const TrainWriter *w, TrainPosition *out) {
    const SelfPlay *sp = ctx;
    return w->records < sp->share ? datagen_play(d, sp->worker, w->games, out) : 0;
}

// A finished game's result; false for "*" (nothing to learn the outcome from).
static bool result_of(const char *text, TrainResult *out) {
    static const struct {
        const char *text;
        TrainResult result;
    } known[] = { { "1-0", TRAIN_WHITE_WINS }, { "0-1", TRAIN_BLACK_WINS },
                  { "1/2-1/2", TRAIN_DRAW } };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(text, known[i].text) == 0) {
            *out = known[i].result;
            return true;
        }
    return false;
}

// Rescoring: of the file's finished games that start with a legal move, every jobs-th from
// the worker's own number on. The games its file holds already are skipped, so a stopped
// run goes on where it stopped; broken games are skipped by every worker alike.
typedef struct Rescoring {
    int worker, jobs;
    PgnReader *games;
    Move moves[DATAGEN_PLIES_MAX];
    long long usable, mine; // finished games met, and this worker's among them
} Rescoring;

static int next_rescored(void *ctx, Datagen *d, const TrainWriter *w, TrainPosition *out) {
    Rescoring *rs = ctx;
    for (;;) {
        PgnSummary summary;
        PgnMainline line = { .moves = rs->moves, .max = DATAGEN_PLIES_MAX };
        PgnError error;
        int rc = pgn_reader_mainline(rs->games, &summary, &line, &error);
        if (rc == 0)
            return 0;
        if (rc < 0 && rs->worker == 0) // every worker meets it: one says so
            fprintf(stderr, "patzer datagen: %s:%d:%d: %s (skipped)\n", error.file,
                    error.line, error.column, error.message);
        TrainResult result;
        if (rc < 0 || line.count == 0 || !result_of(summary.result, &result) ||
            !movegen_is_legal(&line.start, line.moves[0]))
            continue;
        if (rs->usable++ % rs->jobs != rs->worker || rs->mine++ < w->games)
            continue;
        // At least the first position: its move is legal.
        return datagen_score_game(d, &line.start, line.moves, line.count, result, out);
    }
}

static int run_worker(const Args *a, int worker, long long share) {
    if (!a->rescore_path)
        return run_games(a, worker, next_self_play, &(SelfPlay){ worker, share });
    char err[320];
    Rescoring *rs = calloc(1, sizeof *rs);
    if (!rs) {
        fprintf(stderr, "patzer datagen: worker %d: out of memory\n", worker);
        return 1;
    }
    *rs = (Rescoring){ .worker = worker, .jobs = a->jobs };
    rs->games = pgn_reader_open(a->rescore_path, err, sizeof err);
    int status = 1;
    if (rs->games) {
        status = run_games(a, worker, next_rescored, rs);
        pgn_reader_close(rs->games);
    } else {
        fprintf(stderr, "patzer datagen: --rescore: %s\n", err);
    }
    free(rs);
    return status;
}

// What the monitor knows of one worker's file.
typedef struct FileCount {
    long long offset; // bytes read so far (whole records)
    long long records, games;
} FileCount;

// Reads the records appended since the last call.
static void count_file(const char *path, FileCount *fc) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    if (fseek(f, (long)fc->offset, SEEK_SET) == 0) {
        uint8_t rec[TRAIN_RECORD_SIZE];
        while (fread(rec, sizeof rec, 1, f) == 1) {
            fc->offset += TRAIN_RECORD_SIZE;
            fc->records++;
            if ((rec[31] >> 3) & TRAIN_FLAG_GAME_END)
                fc->games++;
        }
    }
    fclose(f);
}

static void format_duration(double seconds, char *buf, size_t bufsz) {
    long s = seconds > 0 && seconds < 1e9 ? (long)seconds : 0;
    if (s >= 3600)
        snprintf(buf, bufsz, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else
        snprintf(buf, bufsz, "%ldm%02lds", s / 60, s % 60);
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

// Sums the workers' files and prints one progress line (what is on disk
// already when start_time is negative).
static long long report(const Args *a, FileCount *counts, long long start_records,
                        double start_time) {
    long long records = 0, games = 0;
    for (int i = 0; i < a->jobs; i++) {
        char path[PATH_MAX_LEN];
        worker_path(a, i, path, sizeof path);
        count_file(path, &counts[i]);
        records += counts[i].records;
        games += counts[i].games;
    }
    if (start_time < 0) {
        printf("datagen: %lld games, %lld positions on disk\n", games, records);
        fflush(stdout);
        return records;
    }
    double elapsed = now_seconds() - start_time;
    double rate = elapsed > 0 ? (double)(records - start_records) / elapsed : 0;
    if (a->rescore_path) {
        // The file's end is the target: its size in positions is not known beforehand.
        printf("datagen: %lld games, %lld positions scored, %.0f positions/s\n", games, records,
               rate);
        fflush(stdout);
        return records;
    }
    char eta[32] = "-";
    if (rate > 0 && records < a->positions)
        format_duration((double)(a->positions - records) / rate, eta, sizeof eta);
    printf("datagen: %lld games, %lld positions (%.1f%%), %.0f positions/s, ETA %s\n", games,
           records, 100.0 * (double)records / (double)a->positions, rate, eta);
    fflush(stdout);
    return records;
}

// The settings that shape the data; a restart must use the same ones. A rescoring run
// names only what it uses: the games, and how each position is searched and shared out.
static void settings_text(const Args *a, char *buf, size_t bufsz) {
    const DatagenOptions *o = &a->opt;
    // A run with the hand-crafted evaluation keeps the text of the runs before nets.
    char eval[32] = "";
    if (a->net)
        snprintf(eval, sizeof eval, " eval nnue %08x", (unsigned)net_checksum(a->net));
    if (a->rescore_path) {
        snprintf(buf, bufsz, "rescore %s nodes %" PRIu64 " hash %d jobs %d%s format 1\n",
                 a->rescore_path, o->nodes, o->hash_mb, a->jobs, eval);
        return;
    }
    snprintf(buf, bufsz,
             "seed %" PRIu64 " nodes %" PRIu64 " hash %d jobs %d random-plies %d book %s "
             "opening-max %d win %d/%d draw %d/%d/%d%s format 1\n",
             o->seed, o->nodes, o->hash_mb, a->jobs, o->random_plies,
             o->chess960    ? "chess960"
             : a->book_path ? a->book_path
                            : "-",
             o->opening_max_cp, o->win_cp, o->win_plies, o->draw_cp, o->draw_plies, o->draw_min_ply,
             eval);
}

// Creates DIR and its settings file, or checks that a restart matches them.
static bool prepare_dir(const Args *a) {
    if (mkdir(a->dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "patzer datagen: %s: %s\n", a->dir, strerror(errno));
        return false;
    }
    char path[PATH_MAX_LEN], want[512], err[256];
    snprintf(path, sizeof path, "%s/settings.txt", a->dir);
    settings_text(a, want, sizeof want);
    size_t len;
    char *have = paths_read_file(path, 4096, &len, err, sizeof err);
    if (have) {
        bool same = strcmp(have, want) == 0;
        if (!same)
            fprintf(stderr,
                    "patzer datagen: %s holds data made with other settings:\n  %s"
                    "not\n  %sUse the same options to continue it, or another --out.\n",
                    a->dir, have, want);
        free(have);
        return same;
    }
    if (!paths_write_atomic(path, want, strlen(want), err, sizeof err)) {
        fprintf(stderr, "patzer datagen: %s: %s\n", path, err);
        return false;
    }
    return true;
}

// Cuts the torn game a stopped run may have left at the end of each worker's file, before
// the progress count reads them.
static bool recover_files(const Args *a) {
    for (int i = 0; i < a->jobs; i++) {
        char path[PATH_MAX_LEN], err[256];
        worker_path(a, i, path, sizeof path);
        TrainWriter w;
        if (!train_writer_open(&w, path, err, sizeof err)) {
            fprintf(stderr, "patzer datagen: %s: %s\n", path, err);
            return false;
        }
        if (!train_writer_close(&w)) {
            fprintf(stderr, "patzer datagen: %s: write error\n", path);
            return false;
        }
    }
    return true;
}

static int run(const Args *a) {
    if (!prepare_dir(a) || !recover_files(a))
        return 2;
    FileCount *counts = calloc((size_t)a->jobs, sizeof *counts);
    pid_t *pids = calloc((size_t)a->jobs, sizeof *pids);
    if (!counts || !pids) {
        free(counts);
        free(pids);
        fprintf(stderr, "patzer datagen: out of memory\n");
        return 1;
    }
    if (a->rescore_path)
        printf("datagen: %d workers, %" PRIu64 " nodes per move, the games of %s scored into %s\n",
               a->jobs, a->opt.nodes, a->rescore_path, a->dir);
    else
        printf("datagen: %d workers, %" PRIu64 " nodes per move, seed %" PRIu64
               ", %lld positions wanted in %s\n",
               a->jobs, a->opt.nodes, a->opt.seed, a->positions, a->dir);
    long long start_records = report(a, counts, 0, -1);
    double start = now_seconds();

    fflush(stdout);
    fflush(stderr);
    int started = 0;
    for (int i = 0; i < a->jobs; i++) {
        long long share = a->positions / a->jobs + (i < a->positions % a->jobs);
        pid_t pid = fork();
        if (pid == 0)
            _exit(run_worker(a, i, share));
        if (pid < 0) {
            fprintf(stderr, "patzer datagen: cannot start worker %d: %s\n", i, strerror(errno));
            break;
        }
        pids[started++] = pid;
    }

    // Report until every worker has finished.
    int running = started, failures = started < a->jobs;
    double next = start + a->progress_seconds;
    while (running > 0) {
        int st;
        pid_t done = waitpid(-1, &st, WNOHANG);
        if (done > 0) {
            running--;
            if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
                failures++;
            continue;
        }
        if (done < 0 && errno != EINTR)
            break;
        usleep(200 * 1000);
        if (now_seconds() >= next) {
            report(a, counts, start_records, start);
            next += a->progress_seconds;
        }
    }
    report(a, counts, start_records, start);
    free(counts);
    free(pids);
    if (failures)
        fprintf(stderr, "patzer datagen: %d worker(s) failed\n", failures);
    return failures ? 1 : 0;
}

// ------------------------------------------------------------------------------ reading

static const char *const RESULT_TEXT[3] = { "0-1", "1/2-1/2", "1-0" };

static int to_epd(const Args *a) {
    char err[320], tmp[PATH_MAX_LEN];
    TrainReader r;
    if (!train_reader_open(&r, a->dir, err, sizeof err)) {
        fprintf(stderr, "patzer datagen: %s\n", err);
        return 2;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", a->epd_out);
    FILE *out = fopen(tmp, "w");
    Board *b = malloc(sizeof *b);
    if (!out || !b) {
        fprintf(stderr, "patzer datagen: %s: %s\n", tmp, out ? "out of memory" : strerror(errno));
        if (out)
            fclose(out);
        free(b);
        train_reader_close(&r);
        return 1;
    }
    TrainPosition p;
    long long written = 0;
    int st;
    while ((st = train_reader_next(&r, &p, err, sizeof err)) == 1) {
        if (!a->all && !train_is_quiet(&p))
            continue;
        if (!train_position_to_board(&p, b, err, sizeof err)) {
            st = -1;
            break;
        }
        char fen[FEN_MAX], san[MOVE_TEXT_MAX] = "";
        train_position_fen(&p, fen, sizeof fen);
        // EPD has four FEN fields; the counters become hmvc and fmvn.
        char *cut = fen;
        for (int spaces = 0; *cut && spaces < 4; cut++)
            spaces += *cut == ' ';
        cut[-1] = '\0';
        if (movegen_is_legal(b, p.move))
            notation_to_san(b, p.move, san);
        int ce = p.side == WHITE ? p.score : -p.score;
        fprintf(out, "%s ce %d;%s%s%s c9 \"%s\"; hmvc %u; fmvn %u;\n", fen, ce,
                san[0] ? " pm " : "", san, san[0] ? ";" : "", RESULT_TEXT[p.result],
                (unsigned)p.halfmove, (unsigned)(p.ply / 2 + 1));
        written++;
    }
    train_reader_close(&r);
    free(b);
    bool ok = st == 0;
    if (!ok)
        fprintf(stderr, "patzer datagen: %s\n", err);
    if (fclose(out) != 0 && ok) {
        fprintf(stderr, "patzer datagen: %s: write error\n", tmp);
        ok = false;
    }
    if (ok && rename(tmp, a->epd_out) != 0) {
        fprintf(stderr, "patzer datagen: %s: %s\n", a->epd_out, strerror(errno));
        ok = false;
    }
    if (!ok) {
        remove(tmp);
        return 1;
    }
    fprintf(stderr, "datagen: %lld positions written to %s\n", written, a->epd_out);
    return 0;
}

// Counts by category for --stats.
typedef struct Stats {
    long long records, games, quiet, in_check, noisy_best, not_quiet;
    long long results[3];       // by game
    long long score_bucket[6];  // |score| < 50, 150, 400, 1000, 2000, more
    long long ply_bucket[5];    // ply < 20, 60, 120, 200, more
    long long pieces_bucket[4]; // pieces > 24, 16, 8, fewer
} Stats;

static void count_position(Stats *s, const TrainPosition *p) {
    static const int score_edges[5] = { 50, 150, 400, 1000, 2000 };
    static const int ply_edges[4] = { 20, 60, 120, 200 };
    s->records++;
    s->quiet += train_is_quiet(p);
    s->in_check += (p->flags & TRAIN_FLAG_IN_CHECK) != 0;
    s->noisy_best += (p->flags & TRAIN_FLAG_NOISY_BEST) != 0;
    s->not_quiet += (p->flags & TRAIN_FLAG_NOT_QUIET) != 0;
    if (p->flags & TRAIN_FLAG_GAME_END) {
        s->games++;
        s->results[p->result]++;
    }
    int mag = p->score < 0 ? -p->score : p->score, i = 0;
    while (i < 5 && mag >= score_edges[i])
        i++;
    s->score_bucket[i]++;
    for (i = 0; i < 4 && p->ply >= ply_edges[i];)
        i++;
    s->ply_bucket[i]++;
    int pieces = 0;
    for (Square q = 0; q < SQ_NB; q++)
        pieces += p->squares[q] != NO_PIECE;
    s->pieces_bucket[pieces > 24 ? 0 : pieces > 16 ? 1 : pieces > 8 ? 2 : 3]++;
}

static double pct(long long part, long long whole) {
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static int stats(const Args *a) {
    char err[320];
    TrainReader r;
    if (!train_reader_open(&r, a->dir, err, sizeof err)) {
        fprintf(stderr, "patzer datagen: %s\n", err);
        return 2;
    }
    Stats s = { 0 };
    TrainPosition p;
    int st;
    while ((st = train_reader_next(&r, &p, err, sizeof err)) == 1)
        count_position(&s, &p);
    int files = r.path_count;
    train_reader_close(&r);
    if (st < 0) {
        fprintf(stderr, "patzer datagen: %s\n", err);
        return 1;
    }
    long long n = s.records;
    printf("files      %d in %s\n", files, a->dir);
    printf("positions  %lld (%.1f per game), quiet %lld (%.1f%%)\n", n,
           s.games ? (double)n / (double)s.games : 0.0, s.quiet, pct(s.quiet, n));
    printf("noisy      in check %.1f%%, best move captures or promotes %.1f%%, "
           "capture search differs %.1f%%\n",
           pct(s.in_check, n), pct(s.noisy_best, n), pct(s.not_quiet, n));
    printf("games      %lld: 1-0 %.1f%%, draw %.1f%%, 0-1 %.1f%%\n", s.games,
           pct(s.results[TRAIN_WHITE_WINS], s.games), pct(s.results[TRAIN_DRAW], s.games),
           pct(s.results[TRAIN_BLACK_WINS], s.games));
    printf("|score|    <50 %.1f%%, <150 %.1f%%, <400 %.1f%%, <1000 %.1f%%, <2000 %.1f%%, "
           "more %.1f%%\n",
           pct(s.score_bucket[0], n), pct(s.score_bucket[1], n), pct(s.score_bucket[2], n),
           pct(s.score_bucket[3], n), pct(s.score_bucket[4], n), pct(s.score_bucket[5], n));
    printf("ply        <20 %.1f%%, <60 %.1f%%, <120 %.1f%%, <200 %.1f%%, more %.1f%%\n",
           pct(s.ply_bucket[0], n), pct(s.ply_bucket[1], n), pct(s.ply_bucket[2], n),
           pct(s.ply_bucket[3], n), pct(s.ply_bucket[4], n));
    printf("pieces     >24 %.1f%%, 17-24 %.1f%%, 9-16 %.1f%%, <=8 %.1f%%\n",
           pct(s.pieces_bucket[0], n), pct(s.pieces_bucket[1], n), pct(s.pieces_bucket[2], n),
           pct(s.pieces_bucket[3], n));
    return 0;
}

// Whether the games to rescore can be read, said before any worker starts.
static bool can_read_pgn(const char *path) {
    char err[320];
    PgnReader *r = pgn_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "patzer datagen: --rescore: %s\n", err);
        return false;
    }
    pgn_reader_close(r);
    return true;
}

int cli_datagen(int argc, char **argv) {
    Args a = { 0 };
    int status = 2;
    bool ok = parse_args(argc, argv, &a);
    if (ok && a.book_path && a.opt.chess960) {
        fprintf(stderr, "patzer datagen: --960 and --book exclude each other\n");
        ok = false;
    }
    if (ok && a.rescore_path && (a.book_path || a.opt.chess960)) {
        fprintf(stderr, "patzer datagen: --rescore takes the games' own starts: no --book or --960\n");
        ok = false;
    }
    if (ok && a.eval_file && a.mode == MODE_RUN)
        ok = load_net(&a);
    if (ok && a.rescore_path && a.mode == MODE_RUN)
        ok = can_read_pgn(a.rescore_path);
    if (ok && (!a.book_path || load_book(&a))) {
        switch (a.mode) {
        case MODE_RUN: status = run(&a); break;
        case MODE_STATS: status = stats(&a); break;
        case MODE_TO_EPD: status = to_epd(&a); break;
        case MODE_HELP:
            usage(stdout);
            status = 0;
            break;
        }
    }
    free_args(&a);
    return status;
}
