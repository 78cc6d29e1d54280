// SPDX-License-Identifier: GPL-3.0-or-later
// The puzzle miner: worker threads sharing one reader of the files (see
// miner.h).
#include "src/coach/miner.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "src/coach/puzzlebook.h"
#include "src/pgn/read.h"
#include "src/util/netfile.h"

// The table of each worker's engine (the Hash option).
#define MINER_HASH_MB "4"

typedef struct Worker {
    Miner *m;
    pthread_t thread;
    bool started;
    Engine *engine;
    PgnGame *game;
    Puzzle *found;
    bool counts; // the worker that counts the games before it mines
} Worker;

// A game searched before one that was read earlier: held until that one is
// done, so that games are reported in the order they were read.
typedef struct Held {
    int seq; // the game's place in the order read, from 0
    MinerGame game;
    Puzzle *puzzles; // owned (NULL: nothing to report, e.g. a skipped game)
    bool report;
} Held;

struct Miner {
    MinerOptions opt;
    pthread_mutex_t lock;
    // Under the lock: the reader of file `file`, the games read of it.
    PgnReader *reader;
    int file, number;
    int read;     // games read of all files
    int reported; // games done in the order read (reported or skipped)
    Held *held;   // games done out of order
    int held_count, held_cap;
    int running; // workers not yet finished
    char error[512];
    int unread;             // games that could not be read (broken), under the lock
    char first_unread[PATH_MAX_LEN + 400]; // where and why the first one could not
    atomic_bool cancel;
    atomic_int done, puzzles, total;
    Worker workers[MINER_JOBS_MAX];
    int jobs;
    NnueNet *builtin; // the reviews' built-in net, parsed once (NULL: the engines' own net)
};

int miner_default_jobs(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MINER_JOBS_MAX ? MINER_JOBS_MAX : (int)n;
}

static const char *file_name(const Miner *m, int file) {
    return m->opt.names && m->opt.names[file] ? m->opt.names[file] : m->opt.paths[file];
}

static void set_error(Miner *m, const char *text) {
    if (!m->error[0])
        snprintf(m->error, sizeof m->error, "%s", text);
}

// The games of every file, read without building trees.
static int count_games(const Miner *m) {
    int total = 0;
    for (int i = 0; i < m->opt.path_count && !atomic_load(&m->cancel); i++) {
        char err[256];
        PgnReader *r = pgn_reader_open(m->opt.paths[i], err, sizeof err);
        if (!r)
            continue;
        PgnSummary sum;
        PgnError pe;
        int status;
        while ((status = pgn_reader_validate(r, &sum, &pe)) != 0 && !atomic_load(&m->cancel) &&
               (m->opt.max_games <= 0 || total < m->opt.max_games))
            total++;
        pgn_reader_close(r);
    }
    return total;
}

// Reports, under the lock, the held games that are next in the order read.
static void flush_held(Miner *m) {
    for (int i = 0; i < m->held_count;) {
        Held *h = &m->held[i];
        if (h->seq != m->reported) {
            i++;
            continue;
        }
        if (h->report && m->opt.on_game)
            m->opt.on_game(&h->game, m->opt.ctx);
        free(h->puzzles);
        m->held[i] = m->held[--m->held_count];
        m->reported++;
        i = 0; // the next one may be anywhere
    }
}

// Game seq is done, under the lock: g (NULL: nothing to report) is reported
// once every game read before it is done. False when out of memory.
static bool game_done(Miner *m, int seq, const MinerGame *g) {
    if (m->held_count == m->held_cap) {
        int cap = m->held_cap ? 2 * m->held_cap : 16;
        Held *p = realloc(m->held, (size_t)cap * sizeof *p);
        if (!p)
            return false;
        m->held = p;
        m->held_cap = cap;
    }
    Held h = { .seq = seq, .report = g != NULL };
    if (g) {
        h.game = *g;
        // At least one element: callbacks may copy from it even when empty.
        h.puzzles = malloc((size_t)(g->count > 0 ? g->count : 1) * sizeof *h.puzzles);
        if (!h.puzzles)
            return false;
        if (g->count > 0)
            memcpy(h.puzzles, g->puzzles, (size_t)g->count * sizeof *h.puzzles);
        h.game.puzzles = h.puzzles;
    }
    m->held[m->held_count++] = h;
    flush_held(m);
    return true;
}

// A game that gives nothing to report (broken, skipped, no side to search).
static void game_skipped(Miner *m, int seq) {
    atomic_fetch_add(&m->done, 1);
    if (!game_done(m, seq, NULL)) {
        set_error(m, "out of memory finding puzzles");
        atomic_store(&m->cancel, true);
    }
}

// The next game to search into w->game, under the lock, with its place in
// the order read: false when there is none (all read, or cancelled).
// Skipped and broken games are counted as done here.
static bool next_game(Worker *w, int *seq, int *file, int *number, uint64_t *key,
                      bool sides[COLOR_NB]) {
    Miner *m = w->m;
    while (!atomic_load(&m->cancel) && m->file < m->opt.path_count &&
           (m->opt.max_games <= 0 || m->read < m->opt.max_games)) {
        if (!m->reader) {
            char err[400];
            m->reader = pgn_reader_open(m->opt.paths[m->file], err, sizeof err);
            m->number = 0;
            if (!m->reader) {
                set_error(m, err);
                m->file++;
                continue;
            }
        }
        PgnError pe;
        int status = pgn_reader_next(m->reader, w->game, &pe);
        if (status == 0) {
            pgn_reader_close(m->reader);
            m->reader = NULL;
            m->file++;
            continue;
        }
        m->number++;
        *seq = m->read++;
        if (status < 0) {
            if (m->unread++ == 0)
                snprintf(m->first_unread, sizeof m->first_unread, "%s:%d:%d: %s", pe.file,
                         pe.line, pe.column, pe.message);
            game_skipped(m, *seq); // a broken game: the others still count
            continue;
        }
        *file = m->file;
        *number = m->number;
        *key = puzzlebook_game_key(w->game);
        if (m->opt.skip && m->opt.skip(*file, *number, *key, m->opt.ctx)) {
            game_skipped(m, *seq);
            continue;
        }
        memcpy(sides, m->opt.puzzle.sides, sizeof m->opt.puzzle.sides);
        if (m->opt.sides)
            m->opt.sides(w->game, sides, m->opt.ctx);
        if (!sides[WHITE] && !sides[BLACK]) {
            game_skipped(m, *seq);
            continue;
        }
        return true;
    }
    return false;
}

static void *work(void *arg) {
    Worker *w = arg;
    Miner *m = w->m;
    if (w->counts)
        atomic_store(&m->total, count_games(m));
    PuzzleOptions opt = m->opt.puzzle;
    opt.cancel = &m->cancel;
    for (;;) {
        int seq, file, number;
        uint64_t key;
        pthread_mutex_lock(&m->lock);
        bool have = next_game(w, &seq, &file, &number, &key, opt.sides);
        pthread_mutex_unlock(&m->lock);
        if (!have)
            break;
        char source[PUZZLE_SOURCE_MAX];
        snprintf(source, sizeof source, "%.400s#%d", file_name(m, file), number);
        engine_new_game(w->engine);
        int n = puzzle_find(w->engine, w->game, source, &opt, w->found, MINER_GAME_PUZZLES_MAX);
        if (atomic_load(&m->cancel))
            break; // this game is not finished: not reported
        pthread_mutex_lock(&m->lock);
        MinerGame g = {
            .file = file, .number = number, .key = key, .puzzles = w->found, .count = n
        };
        if (n < 0 || !game_done(m, seq, &g)) {
            set_error(m, "out of memory finding puzzles");
            atomic_store(&m->cancel, true);
        } else {
            atomic_fetch_add(&m->puzzles, n);
            atomic_fetch_add(&m->done, 1);
        }
        pthread_mutex_unlock(&m->lock);
    }
    pthread_mutex_lock(&m->lock);
    if (--m->running == 0 && m->opt.on_done)
        m->opt.on_done(m->opt.ctx);
    pthread_mutex_unlock(&m->lock);
    return NULL;
}

static void free_worker(Worker *w) {
    engine_free(w->engine);
    pgn_game_free(w->game);
    free(w->found);
}

Miner *miner_start(const MinerOptions *opt, char *err, size_t errsz) {
    Miner *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errsz, "out of memory starting the search for puzzles");
        return NULL;
    }
    m->opt = *opt;
    m->jobs = opt->jobs > 0 ? opt->jobs : miner_default_jobs();
    if (m->jobs > MINER_JOBS_MAX)
        m->jobs = MINER_JOBS_MAX;
    atomic_init(&m->cancel, false);
    atomic_init(&m->done, 0);
    atomic_init(&m->puzzles, 0);
    atomic_init(&m->total, -1);
    pthread_mutex_init(&m->lock, NULL);
    // The second opinion's net, shared read-only by every review rather than
    // parsed for each game; not needed when the engines have a net.
    if (!opt->net && !(m->builtin = netfile_builtin(err, errsz))) {
        pthread_mutex_destroy(&m->lock);
        free(m);
        return NULL;
    }
    m->opt.puzzle.builtin_net = m->builtin;
    // Every file must open now: a typo is said at once, not after minutes.
    for (int i = 0; i < opt->path_count; i++) {
        PgnReader *r = pgn_reader_open(opt->paths[i], err, errsz);
        if (!r) {
            nnue_net_free(m->builtin);
            pthread_mutex_destroy(&m->lock);
            free(m);
            return NULL;
        }
        pgn_reader_close(r);
    }
    for (int i = 0; i < m->jobs; i++) {
        Worker *w = &m->workers[i];
        w->m = m;
        w->counts = i == 0;
        w->engine = engine_new();
        if (w->engine) {
            engine_set_net(w->engine, opt->net);
            // Every search starts from a cleared table, whose pages the kernel zeroes again
            // as the search touches them: a small table for these shallow searches (the
            // default 16 MB spent a sixth of the mining in the kernel).
            (void)engine_set_option(w->engine, "Hash", MINER_HASH_MB, NULL, 0);
        }
        w->game = pgn_game_new();
        w->found = malloc(MINER_GAME_PUZZLES_MAX * sizeof *w->found);
        if (!w->engine || !w->game || !w->found) {
            snprintf(err, errsz, "out of memory starting the search for puzzles");
            m->jobs = i + 1;
            miner_free(m);
            return NULL;
        }
    }
    // Held while starting, so that no worker can finish (and find itself the
    // last one running) before all are counted.
    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < m->jobs; i++) {
        Worker *w = &m->workers[i];
        if (pthread_create(&w->thread, NULL, work, w) != 0) {
            atomic_store(&m->cancel, true);
            m->opt.on_game = NULL; // the caller hears nothing of a miner it never got
            m->opt.on_done = NULL;
            pthread_mutex_unlock(&m->lock);
            snprintf(err, errsz, "cannot start a thread to search for puzzles");
            miner_free(m);
            return NULL;
        }
        w->started = true;
        m->running++;
    }
    pthread_mutex_unlock(&m->lock);
    return m;
}

void miner_cancel(Miner *m) {
    if (!m)
        return;
    atomic_store(&m->cancel, true);
    for (int i = 0; i < m->jobs; i++)
        if (m->workers[i].engine)
            engine_stop(m->workers[i].engine);
}

void miner_free(Miner *m) {
    if (!m)
        return;
    for (int i = 0; i < m->jobs; i++) {
        Worker *w = &m->workers[i];
        if (w->started)
            pthread_join(w->thread, NULL);
        free_worker(w);
    }
    if (m->reader)
        pgn_reader_close(m->reader);
    for (int i = 0; i < m->held_count; i++)
        free(m->held[i].puzzles); // behind a game cancelled: searched next time
    free(m->held);
    nnue_net_free(m->builtin); // after the workers that read it
    pthread_mutex_destroy(&m->lock);
    free(m);
}

void miner_progress(const Miner *m, int *games_done, int *puzzles, int *games_total) {
    *games_done = atomic_load(&m->done);
    *puzzles = atomic_load(&m->puzzles);
    *games_total = atomic_load(&m->total);
}

const char *miner_error(const Miner *m) {
    return m->error;
}

int miner_unread(const Miner *m, const char **first) {
    *first = m->first_unread;
    return m->unread;
}

_Static_assert(MINER_UNREAD_TEXT_SIZE >= sizeof((Miner *)0)->first_unread + 64,
               "the sentence holds the first unread game's description whole");

int miner_unread_text(const Miner *m, char *out, size_t outsz) {
    if (outsz > 0)
        out[0] = '\0';
    if (m->unread > 0)
        snprintf(out, outsz, "%d game%s could not be read (the first: %s)", m->unread,
                 m->unread == 1 ? "" : "s", m->first_unread);
    return m->unread;
}
