// SPDX-License-Identifier: GPL-3.0-or-later
// `patzer puzzles`: mines puzzles from PGN files into a puzzle set (the way
// data/puzzles.txt is made) on every core, resumable, and checks a set.
//
// A run appends each game searched to OUT.part (its puzzles, then a line
// saying the game is done), so a stopped run continues where it stopped;
// at the end the puzzles are written to OUT in the order of the files and
// games, a position found twice kept once, and OUT.part is removed.
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "src/cli/cli.h"
#include "src/coach/miner.h"
#include "src/coach/puzzleset.h"
#include "src/game/openings.h"
#include "src/util/paths.h"
#include "src/util/text.h"

enum { FILES_MAX = 256, LINE_MAX_LEN = 2048, PROGRESS_EVERY_MS = 2000 };

// A puzzle with where it was found, for the file order at the end.
typedef struct Found {
    int file, number, index;
    SetPuzzle p;
} Found;

typedef struct Run {
    pthread_mutex_t lock; // the main thread reads what the workers write
    FILE *part;
    int file_count;
    const char *names[FILES_MAX];
    char name_buf[FILES_MAX][256];
    // Games done before (from OUT.part) and in this run: a bitmap per file.
    unsigned char *done[FILES_MAX];
    int done_cap[FILES_MAX];
    Found *found;
    int count, cap;
    bool write_failed;
    bool finished;
    double start, first; // seconds; first < 0 until a puzzle is found
    int games_run;       // games searched by this run (not skipped)
} Run;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(FILE *out) {
    fputs("usage: patzer puzzles mine --out FILE [--jobs N] [--review-depth N]\n"
          "                           [--verify-depth N] [--moves N] [--max-games N] [--punish]\n"
          "                           PGN...\n"
          "       patzer puzzles check FILE\n"
          "       patzer puzzles retheme FILE\n"
          "mine searches the games of the PGN files for puzzles (positions where a side\n"
          "went wrong and one move was clearly best) on N threads (default: one per core),\n"
          "names each puzzle's theme and writes them to FILE as a puzzle set; a stopped run\n"
          "continues where it stopped (FILE.part). --max-games reads only the first N games\n"
          "of the files in turn; --punish also makes puzzles of the position after each\n"
          "mistake, for the side that can punish it. Defaults: review depth 8, verify\n"
          "depth 10, 3 moves. check reads a set, checks every line and prints the puzzles\n"
          "per theme; retheme names every puzzle's theme again (after a change to the\n"
          "detector).\n",
          out);
}

static bool mark_done(Run *r, int file, int number) {
    if (file < 0 || file >= r->file_count || number < 1)
        return false;
    if (number >= r->done_cap[file] * 8) {
        int cap = r->done_cap[file] ? r->done_cap[file] : 64;
        while (number >= cap * 8)
            cap *= 2;
        unsigned char *d = realloc(r->done[file], (size_t)cap);
        if (!d)
            return false;
        memset(d + r->done_cap[file], 0, (size_t)(cap - r->done_cap[file]));
        r->done[file] = d;
        r->done_cap[file] = cap;
    }
    r->done[file][number / 8] |= (unsigned char)(1u << (number % 8));
    return true;
}

static bool is_done(const Run *r, int file, int number) {
    return number / 8 < r->done_cap[file] && (r->done[file][number / 8] >> (number % 8)) & 1;
}

static bool add_found(Run *r, int file, int number, int index, const SetPuzzle *p) {
    if (r->count == r->cap) {
        int cap = r->cap ? r->cap * 2 : 256;
        Found *f = realloc(r->found, (size_t)cap * sizeof *f);
        if (!f)
            return false;
        r->found = f;
        r->cap = cap;
    }
    r->found[r->count++] = (Found){ file, number, index, *p };
    return true;
}

// ------------------------------------------------------------ the checkpoint

// Reads OUT.part: the games done and their puzzles. A puzzle line of a game
// with no done line (the run stopped in between) is dropped: the game is
// searched again.
static bool read_part(Run *r, const char *path, const char *settings, char *err, size_t errsz) {
    FILE *f = fopen(path, "r");
    if (!f && errno == ENOENT)
        return true; // a fresh run
    if (!f) {
        snprintf(err, errsz, "%.400s: %s", path, strerror(errno));
        return false;
    }
    char line[LINE_MAX_LEN];
    int number = 0, kept = r->count;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        number++;
        size_t len = strlen(line);
        if (len == 0 || line[len - 1] != '\n')
            break; // the last line, cut short when the run stopped
        line[len - 1] = '\0';
        int file, game, index, used = 0;
        if (!strncmp(line, "settings\t", 9)) {
            if (strcmp(line + 9, settings)) {
                snprintf(err, errsz,
                         "%.400s:%d: made with other settings (%.100s); give the same "
                         "or remove it",
                         path, number, line + 9);
                ok = false;
            }
        } else if (sscanf(line, "file\t%d\t%n", &file, &used) == 1 && used) {
            if (file < 0 || file >= r->file_count || strcmp(line + used, r->names[file])) {
                snprintf(err, errsz,
                         "%.400s:%d: made from other files (%s); give the same files or remove it",
                         path, number, line + used);
                ok = false;
            }
        } else if (sscanf(line, "game\t%d\t%d", &file, &game) == 2) {
            ok = mark_done(r, file, game);
        } else if (sscanf(line, "puzzle\t%d\t%d\t%d\t%n", &file, &game, &index, &used) == 3 &&
                   used) {
            PuzzleSet one;
            puzzleset_init(&one);
            char why[512];
            if (!puzzleset_parse(&one, line + used, path, why, sizeof why) || one.count != 1) {
                snprintf(err, errsz, "%.400s:%d: bad puzzle line", path, number);
                ok = false;
            } else {
                ok = add_found(r, file, game, index, &one.items[0]);
            }
            puzzleset_clear(&one);
        } else if (line[0] && line[0] != '#') {
            snprintf(err, errsz, "%.400s:%d: unknown line", path, number);
            ok = false;
        }
    }
    fclose(f);
    // Drop the puzzles of unfinished games.
    for (int i = kept; ok && i < r->count; i++)
        if (!is_done(r, r->found[i].file, r->found[i].number))
            r->found[i--] = r->found[--r->count];
    return ok;
}

static bool skip(int file, int number, uint64_t key, void *ctx) {
    (void)key;
    return is_done(ctx, file, number);
}

static void on_game(const MinerGame *g, void *ctx) {
    Run *r = ctx;
    pthread_mutex_lock(&r->lock);
    r->games_run++;
    for (int i = 0; i < g->count; i++) {
        const Puzzle *p = &g->puzzles[i];
        Board b;
        if (!board_set_fen(&b, p->fen, NULL, 0))
            continue;
        SetPuzzle sp = { .puzzle = *p, .theme = theme_detect(&b, p->solution, p->length) };
        char line[LINE_MAX_LEN];
        if (!puzzleset_format_line(&sp, line, sizeof line) ||
            !add_found(r, g->file, g->number, i, &sp))
            continue;
        if (r->first < 0)
            r->first = now_s() - r->start;
        if (fprintf(r->part, "puzzle\t%d\t%d\t%d\t%s", g->file, g->number, i, line) < 0)
            r->write_failed = true;
    }
    if (fprintf(r->part, "game\t%d\t%d\n", g->file, g->number) < 0 || fflush(r->part) != 0)
        r->write_failed = true;
    mark_done(r, g->file, g->number);
    pthread_mutex_unlock(&r->lock);
}

static void on_done(void *ctx) {
    Run *r = ctx;
    pthread_mutex_lock(&r->lock);
    r->finished = true;
    pthread_mutex_unlock(&r->lock);
}

static int by_place(const void *a, const void *b) {
    const Found *x = a, *y = b;
    if (x->file != y->file)
        return x->file - y->file;
    if (x->number != y->number)
        return x->number - y->number;
    return x->index - y->index;
}

// The puzzles in file order, each position once, to out.
static bool write_set(Run *r, const char *out, const char *header, int *written, char *err,
                      size_t errsz) {
    if (r->count > 1) // with none found, r->found is NULL, which qsort must not be given
        qsort(r->found, (size_t)r->count, sizeof *r->found, by_place);
    PuzzleSet set;
    puzzleset_init(&set);
    bool ok = true;
    for (int i = 0; i < r->count && ok; i++) {
        bool seen = false;
        for (int k = 0; k < set.count && !seen; k++)
            seen = !strcmp(set.items[k].puzzle.fen, r->found[i].p.puzzle.fen);
        if (!seen)
            ok = puzzleset_add(&set, &r->found[i].p.puzzle, r->found[i].p.theme);
    }
    char *text = ok ? puzzleset_format(&set, header) : NULL;
    ok = text && paths_write_atomic(out, text, strlen(text), err, errsz);
    if (!text)
        snprintf(err, errsz, "out of memory writing %s", out);
    *written = set.count;
    free(text);
    puzzleset_clear(&set);
    return ok;
}

// ------------------------------------------------------------ mine

static int mine(int argc, char **argv) {
    const char *out = NULL;
    int64_t jobs = 0, review = 8, verify = 10, moves = PUZZLE_MOVES_MAX, max_games = 0;
    int first_file = argc;
    bool punish = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int64_t *target = !strcmp(a, "--jobs")           ? &jobs
                          : !strcmp(a, "--review-depth") ? &review
                          : !strcmp(a, "--verify-depth") ? &verify
                          : !strcmp(a, "--moves")        ? &moves
                          : !strcmp(a, "--max-games")    ? &max_games
                                                         : NULL;
        if (!strcmp(a, "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--punish")) {
            punish = true;
        } else if (target) {
            int64_t max = target == &jobs        ? MINER_JOBS_MAX
                          : target == &moves     ? PUZZLE_MOVES_MAX
                          : target == &max_games ? 100000000
                                                 : 40;
            int64_t min = target == &jobs || target == &max_games ? 0 : 1;
            if (i + 1 >= argc || !text_parse_i64(argv[i + 1], min, max, target)) {
                fprintf(stderr, "patzer puzzles mine: %s needs a number from %lld to %lld\n", a,
                        (long long)min, (long long)max);
                return 2;
            }
            i++;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "patzer puzzles mine: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else {
            first_file = i;
            break;
        }
    }
    int files = argc - first_file;
    if (!out || files < 1 || files > FILES_MAX) {
        usage(stderr);
        return 2;
    }
    static Run run; // large; one run per process
    Run *r = &run;
    pthread_mutex_init(&r->lock, NULL);
    r->file_count = files;
    for (int i = 0; i < files; i++) {
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", argv[first_file + i]);
        snprintf(r->name_buf[i], sizeof r->name_buf[i], "%s", basename(copy));
        r->names[i] = r->name_buf[i];
    }
    char part[4200], err[4600];
    snprintf(part, sizeof part, "%s.part", out);
    char settings[128];
    snprintf(settings, sizeof settings, "review-depth %d verify-depth %d moves %d%s", (int)review,
             (int)verify, (int)moves, punish ? " punish" : "");
    if (!read_part(r, part, settings, err, sizeof err)) {
        fprintf(stderr, "patzer puzzles mine: %s\n", err);
        return 2;
    }
    bool fresh = access(part, F_OK) != 0;
    r->part = fopen(part, "a");
    if (!r->part) {
        fprintf(stderr, "patzer puzzles mine: %s: %s\n", part, strerror(errno));
        return 2;
    }
    if (fresh)
        fprintf(r->part, "settings\t%s\n", settings);
    if (fresh)
        for (int i = 0; i < files; i++)
            fprintf(r->part, "file\t%d\t%s\n", i, r->names[i]);
    if (!fresh)
        fprintf(stderr, "patzer puzzles mine: continuing %s (%d puzzles so far)\n", part, r->count);

    MinerOptions mo = { .paths = (const char *const *)argv + first_file,
                        .path_count = files,
                        .names = r->names,
                        .jobs = (int)jobs,
                        .max_games = (int)max_games,
                        .skip = skip,
                        .on_game = on_game,
                        .on_done = on_done,
                        .ctx = r };
    puzzle_options_default(&mo.puzzle);
    // Theory, never a mistake, as annotate knows it: the named lines and the book.
    char data[PATH_MAX_LEN];
    Openings *openings = openings_find_path(paths_argv0(), data, sizeof data)
                             ? openings_open(data) // read once, from any thread
                             : NULL;
    paths_find_book(paths_argv0(), data, sizeof data);
    Book *book = data[0] ? book_open(data, err, sizeof err) : NULL;
    mo.puzzle.openings = openings;
    mo.puzzle.book = book;
    mo.puzzle.review_depth = (int)review;
    mo.puzzle.verify_depth = (int)verify;
    mo.puzzle.max_moves = (int)moves;
    mo.puzzle.punish = punish;
    r->start = now_s();
    r->first = -1;
    Miner *m = miner_start(&mo, err, sizeof err);
    if (!m) {
        fprintf(stderr, "patzer puzzles mine: %s\n", err);
        fclose(r->part);
        book_close(book);
        openings_free(openings);
        return 2;
    }
    int used_jobs = jobs > 0 ? (int)jobs : miner_default_jobs();
    for (bool finished = false; !finished;) {
        struct timespec pause = { 0, 100 * 1000000L };
        nanosleep(&pause, NULL);
        static double last;
        pthread_mutex_lock(&r->lock);
        finished = r->finished;
        pthread_mutex_unlock(&r->lock);
        double t = now_s();
        if (t - last >= PROGRESS_EVERY_MS / 1000.0 || finished) {
            int done, found, total;
            miner_progress(m, &done, &found, &total);
            fprintf(stderr, "mine: %d of %d games, %d puzzles, %.1f s\n", done, total, found,
                    t - r->start);
            last = t;
        }
    }
    double elapsed = now_s() - r->start;
    char miner_err[512];
    snprintf(miner_err, sizeof miner_err, "%s", miner_error(m));
    // Said, as the games searched are counted: "games 5 searched 1" alone
    // left the four passed over unexplained.
    char unread[MINER_UNREAD_TEXT_SIZE];
    if (miner_unread_text(m, unread, sizeof unread) > 0)
        fprintf(stderr, "patzer puzzles mine: %s\n", unread);
    int done, found, total;
    miner_progress(m, &done, &found, &total);
    miner_free(m);
    book_close(book);
    openings_free(openings);
    bool write_failed = r->write_failed;
    if (fclose(r->part) != 0)
        write_failed = true;
    if (miner_err[0] || write_failed) {
        fprintf(stderr, "patzer puzzles mine: %s\n",
                miner_err[0] ? miner_err : "cannot write the checkpoint");
        return 1;
    }
    char header[1024];
    int hn = snprintf(
        header, sizeof header,
        "# patzer puzzle set: FEN SOLUTION PLAYED RATING THEME SOURCE (tab-separated)\n"
        "# made by: patzer puzzles mine --review-depth %d --verify-depth %d --moves %d"
        "%s --max-games %lld",
        (int)review, (int)verify, (int)moves, punish ? " --punish" : "", (long long)max_games);
    for (int i = 0; i < files && hn > 0 && (size_t)hn < sizeof header; i++)
        hn += snprintf(header + hn, sizeof header - (size_t)hn, " %s", r->names[i]);
    if (hn > 0 && (size_t)hn < sizeof header - 1)
        snprintf(header + hn, sizeof header - (size_t)hn, "\n");
    int written = 0;
    if (!write_set(r, out, header, &written, err, sizeof err)) {
        fprintf(stderr, "patzer puzzles mine: %s\n", err);
        return 1;
    }
    if (remove(part) != 0)
        fprintf(stderr, "patzer puzzles mine: cannot remove %s: %s\n", part, strerror(errno));
    printf("games %d searched %d puzzles %d jobs %d seconds %.2f first-puzzle %.2f "
           "games/s/job %.3f\n",
           total, r->games_run, written, used_jobs, elapsed, r->first,
           elapsed > 0 ? r->games_run / elapsed / used_jobs : 0.0);
    for (int i = 0; i < files; i++)
        free(r->done[i]);
    free(r->found);
    return 0;
}

// ------------------------------------------------------------ check

static int check(int argc, char **argv) {
    if (argc != 1) {
        usage(stderr);
        return 2;
    }
    PuzzleSet set;
    puzzleset_init(&set);
    char err[1024];
    if (!puzzleset_load(&set, argv[0], err, sizeof err)) {
        fprintf(stderr, "patzer puzzles check: %s\n", err);
        puzzleset_clear(&set);
        return 2;
    }
    int counts[THEME_NB], mates[THEME_MATE_MAX + 1];
    puzzleset_theme_counts(&set, counts, mates);
    printf("%s: %d puzzles\n", argv[0], set.count);
    for (int t = 0; t < THEME_NB; t++) {
        if (t == THEME_MATE) {
            for (int n = 1; n <= THEME_MATE_MAX; n++)
                if (mates[n])
                    printf("  mate%d\t%d\n", n, mates[n]);
        } else {
            printf("  %s\t%d\n", theme_name((PuzzleTheme)t), counts[t]);
        }
    }
    puzzleset_clear(&set);
    return 0;
}

// ------------------------------------------------------------ retheme

// The themes of a set again, from the detector of this build (after a change
// to it); the comment lines at the top are kept.
static int retheme(int argc, char **argv) {
    if (argc != 1) {
        usage(stderr);
        return 2;
    }
    const char *path = argv[0];
    char err[1024];
    size_t len;
    char *text = paths_read_file(path, 64 << 20, &len, err, sizeof err);
    PuzzleSet set;
    puzzleset_init(&set);
    if (!text || !puzzleset_parse(&set, text, path, err, sizeof err)) {
        fprintf(stderr, "patzer puzzles retheme: %s\n", err);
        free(text);
        puzzleset_clear(&set);
        return 2;
    }
    size_t header = 0; // the leading comment lines
    while (text[header] == '#') {
        const char *nl = strchr(text + header, '\n');
        header = nl ? (size_t)(nl - text) + 1 : len;
    }
    text[header] = '\0';
    int changed = 0;
    for (int i = 0; i < set.count; i++) {
        Puzzle *p = &set.items[i].puzzle;
        Board b;
        if (!board_set_fen(&b, p->fen, NULL, 0))
            continue; // parsing checked it
        ThemeInfo t = theme_detect(&b, p->solution, p->length);
        changed += t.theme != set.items[i].theme.theme || t.mate_in != set.items[i].theme.mate_in;
        set.items[i].theme = t;
    }
    char *out = puzzleset_format(&set, text);
    bool ok = out && paths_write_atomic(path, out, strlen(out), err, sizeof err);
    if (!out)
        snprintf(err, sizeof err, "out of memory");
    if (ok)
        printf("%s: %d puzzles, %d themes changed\n", path, set.count, changed);
    else
        fprintf(stderr, "patzer puzzles retheme: %s\n", err);
    free(out);
    free(text);
    puzzleset_clear(&set);
    return ok ? 0 : 1;
}

int cli_puzzles(int argc, char **argv) {
    if (argc >= 1 && !strcmp(argv[0], "mine"))
        return mine(argc - 1, argv + 1);
    if (argc >= 1 && !strcmp(argv[0], "check"))
        return check(argc - 1, argv + 1);
    if (argc >= 1 && !strcmp(argv[0], "retheme"))
        return retheme(argc - 1, argv + 1);
    if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h"))) {
        usage(stdout);
        return 0;
    }
    // The usage alone did not say what was wrong with the line typed.
    if (argc >= 1)
        fprintf(stderr, "patzer puzzles: unknown command '%s' (mine, check or retheme)\n",
                argv[0]);
    else
        fprintf(stderr, "patzer puzzles: no command given (mine, check or retheme)\n");
    usage(stderr);
    return 2;
}
