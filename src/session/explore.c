// SPDX-License-Identifier: GPL-3.0-or-later
// The opening explorer in the session: `index FILE...` and `explore`. The
// indexes are built on a thread of their own (one file after another) that
// reports progress through the session's event queue; the session keeps
// the indexes open for lookups, and the last table shown so that a click on
// one of its rows plays that move.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/fen.h"
#include "engine/search.h"
#include "src/util/paths.h"
#include "src/session/session_int.h"

// The opening explorer (explore.c): the files given to `index`, the
// player's archive, and the thread that builds their indexes.
enum { EXPLORE_SOURCES_MAX = 16 };
typedef struct ExploreSource {
    char path[PATH_MAX_LEN];
    char index_path[PATH_MAX_LEN];
    ExploreIndex *index; // open while up to date
} ExploreSource;

typedef struct ExploreJob {
    char path[PATH_MAX_LEN], index_path[PATH_MAX_LEN];
    bool ok; // written by the thread, read after it is joined
    char err[512];
    IndexProgress done;
    int64_t ms;
} ExploreJob;

struct ExploreState {
    ExploreSource sources[EXPLORE_SOURCES_MAX]; // remembered across sessions
    int count;
    bool loaded; // the list of earlier sessions was read
    ExploreSource archive;
    Book *book; // the session's book, for its moves and weights
    bool book_tried;
    Explorer shown; // the last table, for clicks on its rows
    char *text;
    bool pending; // show the explorer when indexing ends
    // The indexing thread.
    pthread_t thread;
    bool running;
    atomic_bool cancel;
    EventQueue *events;
    ExploreJob jobs[EXPLORE_SOURCES_MAX + 1];
    int job_count;
    atomic_int job_now;
    atomic_llong bytes, total_bytes, games, positions, job_start_ms;
    int64_t last_push_ms; // the thread's own
};

enum { PROGRESS_EVERY_MS = 250, BAR_WIDTH = 12 };

static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

// ------------------------------------------------------------ the thread

static bool on_progress(const IndexProgress *p, void *ctx) {
    ExploreState *x = ctx;
    atomic_store(&x->bytes, p->bytes);
    atomic_store(&x->total_bytes, p->total_bytes);
    atomic_store(&x->games, p->games);
    atomic_store(&x->positions, p->positions);
    int64_t now = search_now_ms();
    if (now - x->last_push_ms >= PROGRESS_EVERY_MS) { // only this thread writes it
        x->last_push_ms = now;
        eventq_push(x->events, &(Event){ .kind = EV_INDEX_PROGRESS });
    }
    return !atomic_load(&x->cancel);
}

static void *index_thread(void *arg) {
    ExploreState *x = arg;
    for (int i = 0; i < x->job_count && !atomic_load(&x->cancel); i++) {
        ExploreJob *j = &x->jobs[i];
        atomic_store(&x->job_now, i);
        atomic_store(&x->bytes, 0);
        atomic_store(&x->games, 0);
        atomic_store(&x->positions, 0);
        int64_t start = search_now_ms();
        atomic_store(&x->job_start_ms, start);
        j->ok = index_build(j->path, j->index_path, 0, on_progress, x, &j->done, j->err,
                            sizeof j->err);
        j->ms = search_now_ms() - start;
    }
    eventq_push(x->events, &(Event){ .kind = EV_INDEX_DONE });
    return NULL;
}

static void join(ExploreState *x) {
    if (!x->running)
        return;
    atomic_store(&x->cancel, true);
    pthread_join(x->thread, NULL);
    x->running = false;
}

// ------------------------------------------------------------ sources

// Opens a source's index when it is up to date; else queues a build (after
// saying why an existing index is not used). False when it cannot be queued.
static bool prepare(Session *s, ExploreSource *src) {
    ExploreState *x = s->explore;
    if (src->index && index_current(src->index))
        return true;
    index_close(src->index);
    src->index = NULL;
    if (!index_path_for(src->path, src->index_path, sizeof src->index_path, true)) {
        session_say(s, MSG_ERROR, "No place to keep the index of %s.", src->path);
        return false;
    }
    char why[512], err[1024];
    IndexState st = index_check(src->path, src->index_path, why, sizeof why);
    if (st == INDEX_FRESH) {
        src->index = index_open(src->path, src->index_path, err, sizeof err);
        if (src->index)
            return true;
        session_say(s, MSG_ERROR, "%s; indexing %s again.", err, src->path);
    } else if (st == INDEX_BAD) {
        session_say(s, MSG_ERROR, "%s: %s; indexing %s again.", src->index_path, why, src->path);
    } else if (st == INDEX_STALE) {
        session_say(s, MSG_INFO, "%s: %s; indexing it again.", src->path, why);
    }
    if (x->job_count == EXPLORE_SOURCES_MAX + 1)
        return false;
    ExploreJob *j = &x->jobs[x->job_count++];
    memset(j, 0, sizeof *j);
    snprintf(j->path, sizeof j->path, "%s", src->path);
    snprintf(j->index_path, sizeof j->index_path, "%s", src->index_path);
    return true;
}

static bool start_jobs(Session *s) {
    ExploreState *x = s->explore;
    if (x->job_count == 0)
        return false;
    if (!x->events)
        x->events = s->think.events;
    atomic_store(&x->cancel, false);
    x->last_push_ms = 0;
    if (pthread_create(&x->thread, NULL, index_thread, x) != 0) {
        session_say(s, MSG_ERROR, "Cannot start indexing: %s", strerror(errno));
        x->job_count = 0;
        return false;
    }
    x->running = true;
    return true;
}

// ------------------------------------------------------------ the list of files
// The files given to `index` are remembered in $XDG_STATE_HOME/patzer/explore
// (one absolute path a line), so that explore shows them in later sessions.

static const char FILES_NAME[] = "explore";

static void save_files(Session *s) {
    ExploreState *x = s->explore;
    char path[PATH_MAX_LEN], err[512];
    if (!paths_state_file(FILES_NAME, path, sizeof path, true))
        return;
    size_t cap = (size_t)x->count * PATH_MAX_LEN + 128, len = 0;
    char *text = malloc(cap);
    if (!text)
        return;
    len += (size_t)snprintf(text, cap, "# The PGN files patzer's explore shows (index FILE adds one).\n");
    for (int i = 0; i < x->count && len < cap; i++)
        len += (size_t)snprintf(text + len, cap - len, "%s\n", x->sources[i].path);
    if (!paths_write_atomic(path, text, len, err, sizeof err))
        session_say(s, MSG_ERROR, "Cannot keep the explorer's files: %s", err);
    free(text);
}

// Adds a file to the list (once); its index if any. NULL when the list is full.
static ExploreSource *add_file(ExploreState *x, const char *file) {
    for (int i = 0; i < x->count; i++)
        if (!strcmp(x->sources[i].path, file))
            return &x->sources[i];
    if (x->count == EXPLORE_SOURCES_MAX)
        return NULL;
    ExploreSource *src = &x->sources[x->count++];
    memset(src, 0, sizeof *src);
    snprintf(src->path, sizeof src->path, "%s", file);
    return src;
}

// The list of earlier sessions, read once; files that are gone are dropped.
static void load_files(Session *s) {
    ExploreState *x = s->explore;
    if (x->loaded)
        return;
    x->loaded = true;
    char path[PATH_MAX_LEN], err[512];
    size_t len;
    char *text = paths_state_file(FILES_NAME, path, sizeof path, false)
                     ? paths_read_file(path, 1 << 20, &len, err, sizeof err)
                     : NULL;
    bool dropped = false;
    for (char *save = NULL, *line = text ? strtok_r(text, "\n", &save) : NULL; line;
         line = strtok_r(NULL, "\n", &save)) {
        if (line[0] != '/')
            continue; // comments; the list holds absolute paths only
        if (access(line, R_OK) != 0) {
            session_say(s, MSG_INFO, "%s is gone; explore leaves it out.", line);
            dropped = true;
        } else {
            add_file(x, line);
        }
    }
    free(text);
    if (dropped)
        save_files(s);
}

// The sources explore shows: the files indexed, else the player's archive.
static int sources(Session *s, ExploreSource **out) {
    ExploreState *x = s->explore;
    load_files(s);
    int n = 0;
    for (int i = 0; i < x->count; i++)
        out[n++] = &x->sources[i];
    if (n == 0 && s->opts.archive_path[0] && access(s->opts.archive_path, R_OK) == 0) {
        snprintf(x->archive.path, sizeof x->archive.path, "%s", s->opts.archive_path);
        out[n++] = &x->archive;
    }
    return n;
}

// ------------------------------------------------------------ showing

static void show(Session *s) {
    ExploreState *x = s->explore;
    ExploreSource *src[EXPLORE_SOURCES_MAX + 1];
    int n = sources(s, src);
    ExploreIndex *ix[EXPLORE_SOURCES_MAX + 1];
    long long total = 0;
    char names[1024] = "";
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        ix[i] = src[i]->index;
        total += ix[i] ? index_games(ix[i]) : 0;
        if (len < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
                                    base_name(src[i]->path));
    }
    if (!x->book_tried && s->opts.book_path[0]) {
        char err[512];
        x->book_tried = true;
        x->book = book_open(s->opts.book_path, err, sizeof err);
    }
    const Board *b = session_display_board(s);
    explorer_collect(&x->shown, b, ix, n, x->book);
    char title[256], what[1400];
    const char *opening = session_opening(s);
    char fen[FEN_MAX];
    board_to_fen(b, fen, sizeof fen);
    // The placement, side, castling and en passant fields: the position, whatever the counters.
    bool start = !strncmp(fen, BOARD_START_FEN, sizeof BOARD_START_FEN - 5);
    snprintf(title, sizeof title, "Opening explorer: %s, %s to move",
             opening ? opening : start ? "the starting position" : "no opening name",
             b->side == WHITE ? "White" : "Black");
    if (n)
        snprintf(what, sizeof what, "%lld of %lld games in %s%s%.200s", x->shown.games, total, names,
                 x->book ? "; book " : "", x->book ? base_name(s->opts.book_path) : "");
    else
        snprintf(what, sizeof what, "No games to explore (index FILE..., or play games for your "
                                    "archive)%s%.200s",
                 x->book ? "; book " : "", x->book ? base_name(s->opts.book_path) : "");
    size_t cap = strlen(title) + strlen(what) + 128 + (size_t)(x->shown.count + 1) * 80;
    char *text = malloc(cap);
    if (!text) {
        session_say(s, MSG_ERROR, "out of memory showing the explorer");
        return;
    }
    explorer_format(&x->shown, title, what, text, cap);
    free(x->text);
    x->text = text;
    session_say_text(s, MSG_TEXT, text);
}

// ------------------------------------------------------------ commands

void explore_command(Session *s) {
    ExploreState *x = s->explore;
    if (x->running) {
        x->pending = true;
        session_say(s, MSG_INFO, "Indexing is under way; the explorer opens when it is done.");
        return;
    }
    ExploreSource *src[EXPLORE_SOURCES_MAX + 1];
    int n = sources(s, src);
    x->job_count = 0;
    for (int i = 0; i < n; i++)
        prepare(s, src[i]);
    if (start_jobs(s)) {
        x->pending = true;
        return;
    }
    show(s);
}

void index_command(Session *s, const char *text) {
    ExploreState *x = s->explore;
    if (x->running) {
        session_say(s, MSG_ERROR, "Indexing is under way already; wait until it is done.");
        return;
    }
    load_files(s);
    x->job_count = 0;
    char words[COMMAND_TEXT_MAX];
    snprintf(words, sizeof words, "%s", text);
    int given = 0, fresh = 0, before = x->count;
    for (char *save = NULL, *w = strtok_r(words, " \t", &save); w;
         w = strtok_r(NULL, " \t", &save)) {
        struct stat st;
        char *real = access(w, R_OK) == 0 ? realpath(w, NULL) : NULL;
        if (!real) {
            session_say(s, MSG_ERROR, "Cannot read %s: %s", w, strerror(errno));
            continue;
        }
        if (stat(real, &st) != 0 || !S_ISREG(st.st_mode)) {
            session_say(s, MSG_ERROR, "%s is not a PGN file.", w);
            free(real);
            continue;
        }
        ExploreSource *src = add_file(x, real);
        free(real);
        if (!src) {
            session_say(s, MSG_ERROR, "At most %d files are explored at once.",
                        EXPLORE_SOURCES_MAX);
            break;
        }
        given++;
        int queued = x->job_count;
        if (prepare(s, src) && x->job_count == queued) {
            fresh++;
            session_say(s, MSG_INFO, "%s: indexed already (%lld games, %lld positions).", w,
                        index_games(src->index), index_positions(src->index));
        }
    }
    if (x->count > before)
        save_files(s);
    if (given && !start_jobs(s) && fresh == 0)
        session_say(s, MSG_ERROR, "Nothing to index.");
}

// ------------------------------------------------------------ events

static void say_progress(Session *s) {
    ExploreState *x = s->explore;
    int job = atomic_load(&x->job_now);
    long long bytes = atomic_load(&x->bytes), total = atomic_load(&x->total_bytes),
              positions = atomic_load(&x->positions), games = atomic_load(&x->games);
    int64_t ms = search_now_ms() - atomic_load(&x->job_start_ms);
    double frac = total > 0 ? (double)bytes / (double)total : 0;
    char bar[BAR_WIDTH + 1];
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < (int)(frac * BAR_WIDTH + 0.5) ? '#' : '-';
    bar[BAR_WIDTH] = '\0';
    // Short enough for an 80-column status line with a short file name.
    double rate = ms > 0 ? (double)positions * 1000.0 / (double)ms : 0;
    char rate_text[16];
    if (rate >= 1e6)
        snprintf(rate_text, sizeof rate_text, "%.2fM", rate / 1e6);
    else
        snprintf(rate_text, sizeof rate_text, "%.0fk", rate / 1e3);
    long eta = frac > 0 ? (long)((double)ms / 1000.0 * (1 - frac) / frac + 0.5) : 0;
    char eta_text[24];
    if (eta >= 60)
        snprintf(eta_text, sizeof eta_text, "%ldm%02lds", eta / 60, eta % 60);
    else
        snprintf(eta_text, sizeof eta_text, "%lds", eta);
    char jobs[32] = "";
    if (x->job_count > 1)
        snprintf(jobs, sizeof jobs, " (%d/%d)", job + 1, x->job_count);
    session_say(s, MSG_PROGRESS, "Indexing %s%s [%s] %d%%, %lld games, %s positions/s, ETA %s",
                base_name(x->jobs[job].path), jobs, bar, (int)(frac * 100), games, rate_text,
                eta_text);
}

void explore_event(Session *s, const Event *ev) {
    ExploreState *x = s->explore;
    if (!x->running)
        return;
    if (ev->kind == EV_INDEX_PROGRESS) {
        say_progress(s);
        return;
    }
    bool stopped = atomic_load(&x->cancel); // by stop (join sets it too)
    join(x);
    char err[1024];
    for (int i = 0; i < x->job_count; i++) {
        ExploreJob *j = &x->jobs[i];
        if (!j->ok) {
            if (!stopped && j->err[0])
                session_say(s, MSG_ERROR, "%s", j->err);
            continue;
        }
        long long rate = j->done.positions * 1000 / (j->ms > 0 ? j->ms : 1);
        char bad[64] = "";
        if (j->done.bad_games)
            snprintf(bad, sizeof bad, ", %lld games with errors skipped", j->done.bad_games);
        session_say(s, MSG_INFO,
                    "Indexed %s: %lld games, %lld positions in %.1f s (%lld positions/s)%s; "
                    "index %s.",
                    base_name(j->path), j->done.games, j->done.positions, (double)j->ms / 1000.0, rate, bad,
                    j->index_path);
        // The sources that were waiting for this file.
        ExploreSource *all[EXPLORE_SOURCES_MAX + 1];
        int n = 0;
        for (int k = 0; k < x->count; k++)
            all[n++] = &x->sources[k];
        all[n++] = &x->archive;
        for (int k = 0; k < n; k++) {
            if (all[k]->index || strcmp(all[k]->path, j->path) != 0)
                continue;
            all[k]->index = index_open(j->path, j->index_path, err, sizeof err);
            if (!all[k]->index)
                session_say(s, MSG_ERROR, "%s", err);
        }
    }
    x->job_count = 0;
    if (x->pending) {
        x->pending = false;
        show(s);
    }
}

bool explore_busy(const Session *s) { return s->explore->running; }

bool explore_stop(Session *s) {
    ExploreState *x = s->explore;
    if (!x->running)
        return false;
    atomic_store(&x->cancel, true); // the thread ends at its next progress report
    x->pending = false;
    session_say(s, MSG_INFO, "Indexing stopped; explore or index starts it again.");
    return true;
}

bool explore_init(Session *s) {
    s->explore = calloc(1, sizeof *s->explore);
    return s->explore != NULL;
}

void explore_free(Session *s) {
    ExploreState *x = s->explore;
    if (!x)
        return;
    join(x);
    for (int i = 0; i < x->count; i++)
        index_close(x->sources[i].index);
    index_close(x->archive.index);
    book_close(x->book);
    free(x->text);
    free(x);
    s->explore = NULL;
}

bool session_is_explorer(const Session *s, const char *text) {
    return s->explore->text && strcmp(s->explore->text, text) == 0;
}

bool session_explorer_move(const Session *s, const char *line, char *san, size_t sansz) {
    int row = s->explore->text ? explorer_row_at(&s->explore->shown, line) : -1;
    if (row < 0)
        return false;
    snprintf(san, sansz, "%s", s->explore->shown.rows[row].san);
    return true;
}
