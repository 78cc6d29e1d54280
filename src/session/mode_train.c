// SPDX-License-Identifier: GPL-3.0-or-later
// Mode train: puzzles. Entering it serves at once the puzzles due from the
// puzzle book in the user data folder, else puzzles of the set shipped in
// data/puzzles.txt (mined by patzer from masters' games); meanwhile the
// miner (src/coach/miner.h) searches a PGN file (the player's archive, or
// train FILE) on every core for new puzzles, skipping the games searched
// before, and each one found joins the queue, the first shown as soon as it
// is found. train theme NAME serves the shipped puzzles of one theme.
// A right move (the solution's, a mate, or any move the engine verifies
// keeps the win) is answered by the solution's reply until the line ends; a
// wrong one by the engine's refutation, and the puzzle fails. Every result
// goes to the book at once (schedule and rating).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "src/coach/judge.h"
#include "src/coach/miner.h"
#include "src/coach/puzzleset.h"
#include "src/pgn/read.h"
#include "src/session/session_int.h"
#include "src/util/paths.h"
#include "src/util/text.h"

enum {
    REFUTE_DEPTH = 10, // the search that verifies another move or answers a wrong one
    // The session's mining depths: about 60 CPU seconds for a 232-game file,
    // 31 s on two free cores (bench/coach.sh); the shipped set used them too.
    MINE_REVIEW_DEPTH = 8,
    MINE_VERIFY_DEPTH = 10,
};

// The mode's state, private to this file (ModeOps.state_size).
typedef struct TrainState {
    // The search for puzzles (src/coach/miner.h): workers with engines of
    // their own; what they find waits in `pending` (under pending_lock)
    // until the main thread takes it on EV_TRAIN_PROGRESS, so the first
    // puzzle is shown as soon as it is found while the rest are searched.
    struct Miner *miner;
    Book *theory_book; // the session's opening book while mining: theory is no mistake
    bool running;
    unsigned id; // events of older searches are dropped
    EventQueue *events;
    pthread_mutex_t pending_lock;
    bool lock_ready; // pending_lock is initialised
    Puzzle *pending;
    int pending_count, pending_cap;
    uint64_t *pending_keys; // the games searched
    int pending_key_count, pending_key_cap;
    uint64_t *scanned; // the book's searched games at the start, sorted (read by workers)
    int scanned_count;
    int added, games_searched;           // this search's new puzzles, and its games
    Engine *engine;                      // the solver's: verifies other moves, refutes wrong ones
    NetFile net;                         // its own copy of the built-in engine's net
    char path[4096];                     // the file searched (empty: none)
    const char *mine_path, *mine_name;   // the miner's list of one file and its name
    bool archive;                        // the player's archive: only the player's moves count
    char names[COLOR_NB][GAME_NAME_MAX]; // the player's names (games without patzer's tags)
    // The shipped set (data/puzzles.txt) and the order its puzzles are
    // served in: nearest the player's rating first, of the theme asked for.
    PuzzleSet shipped;
    int *shipped_order;
    int shipped_count, shipped_next;
    bool by_theme;
    ThemeInfo theme;
    // The book and this session's queue of puzzles.
    PuzzleBook *book;
    char book_path[4096];
    char prefix[4100]; // "FILE#": train FILE serves that file's puzzles (empty: all)
    int *queue;        // book indexes, in the order shown
    int queue_len, queue_cap, pos;
    // Failed puzzles, shown again once `wait` others have been (or when
    // nothing else is left), whatever joins the queue meanwhile.
    struct TrainRetry {
        int index, wait;
    } * retry;
    int retry_count, retry_cap;
    int index;  // the puzzle shown (-1: none)
    Game *game; // its position and the moves played on it, both sides human
    int step;   // solution plies played
    bool over, failed, hinted;
    int solved_count, failed_count;
} TrainState;

static TrainState *state(const Session *s) {
    return s->mode_state[SESSION_TRAIN];
}

static const Transition stay = { .kind = TR_STAY };

// The time the book's schedule counts in (wall clock, unlike the session's).
static int64_t wall_now(void) {
    return (int64_t)time(NULL);
}

// Room for `need` elements in a growing array.
static bool reserve(void **items, int *cap, int need, size_t size) {
    if (need <= *cap)
        return true;
    int n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *p = realloc(*items, (size_t)n * size);
    if (!p)
        return false;
    *items = p;
    *cap = n;
    return true;
}

// ------------------------------------------------------------ the miner's callbacks
//
// Called on the workers, one at a time; they touch only what the main
// thread does not change while the miner runs (names, scanned) and the
// pending lists under their lock.

// The sides whose moves count in an archived game: patzer's tags say who was
// human; else a side named as the player is (or "Human", "You").
static void player_sides(const PgnGame *g, bool sides[COLOR_NB], void *ctx) {
    const TrainState *t = ctx;
    static const char *const kind_tags[] = { "PatzerWhite", "PatzerBlack" };
    static const char *const name_tags[] = { "White", "Black" };
    for (Color c = WHITE; c <= BLACK; c++) {
        const char *kind = pgn_tag(g, kind_tags[c]), *name = pgn_tag(g, name_tags[c]);
        if (kind)
            sides[c] = strcmp(kind, "human") == 0;
        else
            sides[c] = name && ((t->names[c][0] && !strcmp(name, t->names[c])) ||
                                !strcmp(name, "Human") || !strcmp(name, "You"));
    }
}

static int compare_keys(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static bool skip_scanned(int file, int number, uint64_t key, void *ctx) {
    (void)file, (void)number;
    const TrainState *t = ctx;
    return t->scanned_count &&
           bsearch(&key, t->scanned, (size_t)t->scanned_count, sizeof key, compare_keys);
}

static void push_event(TrainState *t, EventKind kind) {
    Event ev = { .kind = kind, .request = t->id };
    eventq_push(t->events, &ev);
}

static void on_game(const MinerGame *g, void *ctx) {
    TrainState *t = ctx;
    pthread_mutex_lock(&t->pending_lock);
    bool ok = reserve((void **)&t->pending, &t->pending_cap, t->pending_count + g->count,
                      sizeof *t->pending) &&
              reserve((void **)&t->pending_keys, &t->pending_key_cap, t->pending_key_count + 1,
                      sizeof *t->pending_keys);
    if (ok) {
        memcpy(t->pending + t->pending_count, g->puzzles, (size_t)g->count * sizeof *g->puzzles);
        t->pending_count += g->count;
        t->pending_keys[t->pending_key_count++] = g->key;
    } // else the game is searched again next time
    pthread_mutex_unlock(&t->pending_lock);
    push_event(t, EV_TRAIN_PROGRESS);
}

static void on_done(void *ctx) {
    push_event(ctx, EV_TRAIN_DONE);
}

static void stop_mining(TrainState *t) {
    if (!t->miner)
        return;
    miner_cancel(t->miner);
    miner_free(t->miner);
    t->miner = NULL;
    book_close(t->theory_book);
    t->theory_book = NULL;
    t->running = false;
}

static void release(TrainState *t) {
    stop_mining(t);
    if (t->engine)
        netfile_release(&t->net, t->engine);
    engine_free(t->engine);
    puzzlebook_free(t->book);
    puzzleset_clear(&t->shipped);
    game_free(t->game);
    free(t->pending);
    free(t->pending_keys);
    free(t->scanned);
    free(t->shipped_order);
    free(t->queue);
    free(t->retry);
    if (t->lock_ready)
        pthread_mutex_destroy(&t->pending_lock);
    unsigned id = t->id; // keeps counting, so that old events stay old
    memset(t, 0, sizeof *t);
    t->id = id;
    t->index = -1;
}

// ------------------------------------------------------------ the book and the queue

static void save_book(Session *s) {
    TrainState *t = state(s);
    char err[512];
    if (t->book_path[0] && !puzzlebook_save(t->book, t->book_path, err, sizeof err))
        session_say(s, MSG_ERROR, "Cannot save the puzzles: %s", err);
}

static bool queue_push(TrainState *t, int index, int at) {
    if (!reserve((void **)&t->queue, &t->queue_cap, t->queue_len + 1, sizeof *t->queue))
        return false;
    if (at > t->queue_len)
        at = t->queue_len;
    memmove(t->queue + at + 1, t->queue + at, (size_t)(t->queue_len - at) * sizeof *t->queue);
    t->queue[at] = index;
    t->queue_len++;
    return true;
}

static ThemeInfo theme_of(const Puzzle *p) {
    Board b;
    if (!board_set_fen(&b, p->fen, NULL, 0))
        return (ThemeInfo){ THEME_ADVANTAGE, 0 };
    return theme_detect(&b, p->solution, p->length);
}

// Queues the book's puzzles due now: of the file trained on, or of the
// theme asked for, or all.
static void queue_due(TrainState *t) {
    int count = t->book->count;
    int *due = malloc((size_t)(count ? count : 1) * sizeof *due);
    int n =
        due ? puzzlebook_due(t->book, wall_now(), t->prefix[0] ? t->prefix : NULL, due, count) : 0;
    for (int i = 0; i < n; i++)
        if (!t->by_theme || theme_matches(theme_of(&t->book->items[due[i]].puzzle), t->theme))
            queue_push(t, due[i], t->queue_len);
    free(due);
}

typedef struct Ranked {
    int distance, index;
} Ranked;

static int by_distance(const void *a, const void *b) {
    const Ranked *x = a, *y = b;
    return x->distance != y->distance ? x->distance - y->distance : x->index - y->index;
}

// The shipped puzzles to serve (of the theme asked for), nearest the
// player's rating first. False when out of memory.
static bool order_shipped(TrainState *t) {
    int n = t->shipped.count ? t->shipped.count : 1;
    Ranked *ranked = malloc((size_t)n * sizeof *ranked);
    t->shipped_order = malloc((size_t)n * sizeof *t->shipped_order);
    if (!ranked || !t->shipped_order) {
        free(ranked);
        return false;
    }
    t->shipped_count = t->shipped_next = 0;
    for (int i = 0; i < t->shipped.count; i++)
        if (!t->by_theme || theme_matches(t->shipped.items[i].theme, t->theme))
            ranked[t->shipped_count++] =
                (Ranked){ abs(t->shipped.items[i].puzzle.rating - t->book->rating), i };
    qsort(ranked, (size_t)t->shipped_count, sizeof *ranked, by_distance);
    for (int i = 0; i < t->shipped_count; i++)
        t->shipped_order[i] = ranked[i].index;
    free(ranked);
    return true;
}

// Queues the next shipped puzzle the player has not tried (it joins the
// book, which keeps its schedule). False when there is none.
static bool queue_shipped(TrainState *t) {
    while (t->shipped_next < t->shipped_count) {
        const Puzzle *p = &t->shipped.items[t->shipped_order[t->shipped_next++]].puzzle;
        int before = t->book->count;
        int i = puzzlebook_add(t->book, p, wall_now());
        if (i < 0)
            return false;
        if (t->book->count > before || t->book->items[i].attempts == 0) {
            bool queued = false;
            for (int k = t->pos; k < t->queue_len && !queued; k++)
                queued = t->queue[k] == i;
            if (!queued)
                return queue_push(t, i, t->queue_len);
        }
    }
    return false;
}

// "mate in 1 (120), fork (80), ...": the shipped set's themes.
static void theme_list(const TrainState *t, char *buf, size_t bufsz) {
    int counts[THEME_NB], mates[THEME_MATE_MAX + 1];
    puzzleset_theme_counts(&t->shipped, counts, mates);
    size_t len = 0;
    buf[0] = '\0';
    for (int th = 0; th < THEME_NB; th++)
        for (int n = th == THEME_MATE ? 1 : 0; n <= (th == THEME_MATE ? THEME_MATE_MAX : 0); n++) {
            int c = th == THEME_MATE ? mates[n] : counts[th];
            char words[THEME_TEXT_MAX], token[THEME_TEXT_MAX];
            ThemeInfo info = { (PuzzleTheme)th, n };
            theme_words(info, words, sizeof words);
            theme_token(info, token, sizeof token);
            if (c && len < bufsz)
                len +=
                    (size_t)snprintf(buf + len, bufsz - len, "%s%s %d", len ? ", " : "", token, c);
        }
}

// ------------------------------------------------------------ showing puzzles

// A game of the position shown, both sides human, no clock.
static Game *position_game(const Session *s, const char *fen) {
    GameSettings settings = s->opts.settings;
    snprintf(settings.start_fen, sizeof settings.start_fen, "%s", fen ? fen : "");
    memset(&settings.tc, 0, sizeof settings.tc);
    memset(settings.names, 0, sizeof settings.names);
    char err[256];
    return session_game_from_line(s, &settings, NULL, 0, 0, err, sizeof err);
}

static const Puzzle *shown(const Session *s) {
    const TrainState *t = state(s);
    return t->book && t->index >= 0 ? &t->book->items[t->index].puzzle : NULL;
}

static const char *side_name(Color c) {
    return c == WHITE ? "White" : "Black";
}

// Puts retry k into the queue at pos (shown next).
static bool take_retry(TrainState *t, int k) {
    int index = t->retry[k].index;
    memmove(t->retry + k, t->retry + k + 1, (size_t)(t->retry_count - k - 1) * sizeof *t->retry);
    t->retry_count--;
    return queue_push(t, index, t->pos);
}

// Shows puzzle number pos of the queue: a failed puzzle whose wait is over
// comes first; when the queue is done, a shipped puzzle joins it, else a
// failed one that was still waiting. False when there is none.
static bool show_puzzle(Session *s) {
    TrainState *t = state(s);
    t->index = -1;
    t->over = t->failed = t->hinted = false;
    t->step = 0;
    pointing_reset(s);
    for (int k = 0; k < t->retry_count; k++)
        if (t->retry[k].wait <= 0) {
            take_retry(t, k);
            break;
        }
    // When the queue is done: the puzzles failed, then the shipped set, which
    // serves a player with nothing of their own: while the player's games are
    // still searched the next one found is waited for (so what is served does
    // not depend on how fast the search is).
    if (t->pos >= t->queue_len && !(t->retry_count && !t->running && take_retry(t, 0)) &&
        (t->running || !queue_shipped(t)))
        return false;
    const Puzzle *p = &t->book->items[t->queue[t->pos]].puzzle;
    Game *g = position_game(s, p->fen);
    if (!g) {
        session_say(s, MSG_ERROR, "out of memory showing a puzzle");
        return false;
    }
    game_free(t->game);
    t->game = g;
    t->index = t->queue[t->pos];
    s->flipped = game_turn(g) == BLACK;
    session_changed(s);
    return true;
}

static void summary(Session *s) {
    TrainState *t = state(s);
    session_say(s, MSG_INFO,
                "No more puzzles due: %d solved, %d failed this time. Your puzzle rating: %d. "
                "back returns to your game.",
                t->solved_count, t->failed_count, t->book->rating);
}

// The next puzzle of the queue (or the end of it).
static void next_puzzle(Session *s) {
    TrainState *t = state(s);
    if (t->index >= 0) {
        t->pos++;
        for (int k = 0; k < t->retry_count; k++)
            t->retry[k].wait--;
    }
    // The status line says what to find (a message would hide it on a screen).
    if (show_puzzle(s)) {
        return;
    } else if (t->running) {
        session_changed(s);
        session_say(s, MSG_INFO, "No puzzle due yet: the next one found is shown at once.");
    } else {
        summary(s);
        session_changed(s);
    }
}

// Takes what the miner found so far into the book and the queue; shows the
// first puzzle when none is shown.
static void take_found(Session *s) {
    TrainState *t = state(s);
    pthread_mutex_lock(&t->pending_lock);
    int64_t when = wall_now();
    int added = 0;
    for (int i = 0; i < t->pending_count; i++) {
        int before = t->book->count;
        int k = puzzlebook_add(t->book, &t->pending[i], when);
        if (k < 0)
            break;
        if (t->book->count > before && queue_push(t, k, t->queue_len))
            added++;
    }
    for (int i = 0; i < t->pending_key_count; i++)
        puzzlebook_mark_scanned(t->book, t->pending_keys[i]);
    t->games_searched += t->pending_key_count;
    t->pending_count = t->pending_key_count = 0;
    pthread_mutex_unlock(&t->pending_lock);
    t->added += added;
    if (added)
        save_book(s);
    if (t->index < 0 && t->pos < t->queue_len)
        show_puzzle(s);
    session_changed(s); // the progress in the status line
}

// The search is over: what it found is in the book and the queue.
static Transition mining_done(Session *s) {
    TrainState *t = state(s);
    take_found(s);
    char err[512];
    snprintf(err, sizeof err, "%s", t->miner ? miner_error(t->miner) : "");
    // Games passed over unread were not said at all: "Searched 0 games" of a
    // file of one game left the user to guess why.
    char unread[MINER_UNREAD_TEXT_SIZE] = "";
    char unread_text[MINER_UNREAD_TEXT_SIZE + 4] = "";
    if (t->miner && miner_unread_text(t->miner, unread, sizeof unread) > 0)
        snprintf(unread_text, sizeof unread_text, " %s.", unread);
    stop_mining(t);
    save_book(s);
    if (err[0])
        session_say(s, MSG_ERROR, "%s", err);
    // With a puzzle shown, its status line said the progress: no message to hide it.
    if (t->index < 0)
        session_say(s, MSG_INFO, "Searched %d %s for puzzles: %d new.%s", t->games_searched,
                    text_plural(t->games_searched, "game", "games"), t->added, unread_text);
    if (t->index < 0 && !show_puzzle(s)) {
        session_say(s, MSG_INFO, "No puzzles due%s. Your puzzle rating: %d.",
                    t->book->count ? " (the others come back later)" : "", t->book->rating);
        return (Transition){ .kind = TR_BACK };
    }
    session_changed(s);
    return stay;
}

// ------------------------------------------------------------ enter, leave

// Loads the shipped set; a missing or broken one is said only when it was
// needed (train theme, or no puzzles of one's own).
static bool load_shipped(Session *s, bool needed) {
    TrainState *t = state(s);
    char path[PATH_MAX_LEN], err[1024];
    if (!paths_data_file(PUZZLESET_FILE, PUZZLESET_ENV, paths_argv0(), path, sizeof path)) {
        if (needed)
            session_say(s, MSG_ERROR, "The shipped puzzles (%s) are not installed.",
                        PUZZLESET_FILE);
        return false;
    }
    if (!puzzleset_load(&t->shipped, path, err, sizeof err)) {
        puzzleset_clear(&t->shipped);
        session_say(s, MSG_ERROR, "%s", err);
        return false;
    }
    return true;
}

// Starts the miner on t->path; false (said) when it cannot start.
static bool start_mining(Session *s) {
    TrainState *t = state(s);
    t->scanned = malloc((size_t)(t->book->scanned_count + 1) * sizeof *t->scanned);
    if (!t->scanned)
        return false;
    if (t->book->scanned_count > 0) // a new book has no list to copy (NULL)
        memcpy(t->scanned, t->book->scanned, (size_t)t->book->scanned_count * sizeof *t->scanned);
    t->scanned_count = t->book->scanned_count;
    qsort(t->scanned, (size_t)t->scanned_count, sizeof *t->scanned, compare_keys);
    const char *base = strrchr(t->path, '/');
    t->mine_path = t->path;
    t->mine_name = t->archive && base ? base + 1 : t->path;
    // The hand-crafted evaluation (net NULL), as `patzer puzzles mine` and the review use:
    // the review's judgement that finds the mistakes is fitted to its centipawns.
    MinerOptions mo = { .net = NULL,
                        .paths = &t->mine_path,
                        .path_count = 1,
                        .names = &t->mine_name,
                        .skip = skip_scanned,
                        .sides = t->archive ? player_sides : NULL,
                        .on_game = on_game,
                        .on_done = on_done,
                        .ctx = t };
    mo.jobs = s->opts.threads; // 0: every core, as for the search
    puzzle_options_default(&mo.puzzle);
    mo.puzzle.review_depth = MINE_REVIEW_DEPTH;
    mo.puzzle.verify_depth = MINE_VERIFY_DEPTH;
    char err[512];
    // Theory as the review knows it; without the book, the named lines alone.
    book_close(t->theory_book);
    t->theory_book = s->opts.book_path[0] ? book_open(s->opts.book_path, err, sizeof err) : NULL;
    mo.puzzle.openings = s->openings;
    mo.puzzle.book = t->theory_book;
    t->miner = miner_start(&mo, err, sizeof err);
    if (!t->miner) {
        book_close(t->theory_book);
        t->theory_book = NULL;
        session_say(s, MSG_ERROR, "Cannot search for puzzles: %s", err);
        return false;
    }
    t->running = true;
    return true;
}

// "theme fork" and the like: true with the theme in t (or a refusal said).
// "theme", "theme NAME" or "themes" (a file named so is given as ./theme).
static bool is_theme_arg(const char *text) {
    return !strncmp(text, "theme", 5) && (!text[5] || text[5] == ' ' || !strcmp(text, "themes"));
}

static bool parse_theme_args(Session *s, const char *text, bool *ok) {
    TrainState *t = state(s);
    *ok = true;
    if (!is_theme_arg(text))
        return false;
    const char *name = text[5] == ' ' ? text + 6 : "";
    while (*name == ' ')
        name++;
    char list[512];
    theme_list(t, list, sizeof list);
    if (!*name || !strcmp(text, "themes")) {
        session_say(s, MSG_INFO, "Themes of the shipped puzzles: %s. train theme NAME picks one.",
                    list[0] ? list : "none");
        *ok = false;
    } else if (!theme_parse(name, &t->theme)) {
        session_say(s, MSG_ERROR, "No theme '%s'. Themes: %s.", name, list[0] ? list : "none");
        *ok = false;
    }
    t->by_theme = *ok;
    return true;
}

static bool train_enter(Session *s, const ModeArgs *args, int64_t now) {
    (void)now;
    TrainState *t = state(s);
    release(t); // train again while training: start over
    pthread_mutex_init(&t->pending_lock, NULL);
    t->lock_ready = true;
    t->book = puzzlebook_new();
    t->engine = engine_new();
    if (t->engine)
        netfile_attach(&t->net, t->engine, s->think.engine);
    t->game = position_game(s, NULL);
    t->events = s->think.events;
    if (!t->book || !t->engine || !t->game) {
        release(t);
        session_say(s, MSG_ERROR, "out of memory starting the training");
        return false;
    }
    const char *arg = args->path ? args->path : "";
    bool theme_ok;
    bool shipped = load_shipped(s, !args->path || is_theme_arg(arg));
    if (parse_theme_args(s, arg, &theme_ok) && !theme_ok) {
        release(t);
        return false;
    }
    if (args->path && !t->by_theme && access(arg, R_OK) != 0) {
        session_say(s, MSG_ERROR, "Cannot read %s: %s", arg, strerror(errno));
        release(t);
        return false;
    }
    char warn[PUZZLEBOOK_WARN_MAX], err[512];
    if (!paths_user_data_file("puzzles", t->book_path, sizeof t->book_path, true))
        t->book_path[0] = '\0';
    if (t->book_path[0] &&
        !puzzlebook_load(t->book, t->book_path, warn, sizeof warn, err, sizeof err)) {
        session_say(s, MSG_ERROR, "%s", err);
        release(t);
        return false;
    }
    if (t->book_path[0] && warn[0])
        session_say(s, MSG_ERROR, "%s", warn);
    // What to search: train FILE, else the archive when there is one.
    if (t->by_theme) {
        t->path[0] = '\0';
    } else if (args->path) {
        snprintf(t->path, sizeof t->path, "%s", arg);
        snprintf(t->prefix, sizeof t->prefix, "%s#", arg);
    } else if (s->opts.archive_path[0] && access(s->opts.archive_path, R_OK) == 0) {
        t->archive = true;
        snprintf(t->path, sizeof t->path, "%s", s->opts.archive_path);
    }
    for (Color c = WHITE; c <= BLACK; c++)
        memcpy(t->names[c], s->opts.settings.names[c], sizeof t->names[c]);
    // The shipped puzzles serve train and train theme, not train FILE.
    bool serve_shipped = !args->path || t->by_theme;
    if (shipped && serve_shipped && !order_shipped(t)) {
        release(t);
        session_say(s, MSG_ERROR, "out of memory starting the training");
        return false;
    }
    if (!shipped && t->by_theme) {
        release(t);
        return false;
    }
    t->id++;
    think_cancel(&s->think);
    memset(&s->think.thinking, 0, sizeof s->think.thinking);
    queue_due(t);
    if (t->path[0] && !start_mining(s)) {
        release(t);
        return false;
    }
    int jobs = s->opts.threads > 0 ? s->opts.threads : miner_default_jobs();
    if (t->running)
        session_say(s, MSG_INFO,
                    "Looking for puzzles in %s%s (%d %s); each one found joins the queue (stop "
                    "ends the search).",
                    t->archive ? "your games, " : "", t->path, jobs,
                    text_plural(jobs, "thread", "threads"));
    else if (!args->path && !t->by_theme)
        session_say(s, MSG_INFO,
                    "No games of yours yet: puzzles from masters' games shipped "
                    "with patzer (train FILE finds puzzles in your own games).");
    if (!args->path && !t->by_theme && t->shipped.count) {
        char list[512];
        theme_list(t, list, sizeof list);
        session_say(s, MSG_INFO, "Themes: %s. train theme NAME picks one.", list);
    }
    t->pos = 0;
    t->index = -1;
    if (!show_puzzle(s) && !t->running) {
        char theme[THEME_TEXT_MAX] = "";
        if (t->by_theme)
            theme_words(t->theme, theme, sizeof theme);
        session_say(s, MSG_INFO, "No puzzles%s%s due%s. Your puzzle rating: %d.",
                    theme[0] ? " of theme " : "", theme,
                    t->book->count ? " (the others come back later)" : "", t->book->rating);
        release(t);
        return false;
    }
    return true;
}

static void train_leave(Session *s, int64_t now) {
    (void)now;
    release(state(s));
    pointing_reset(s);
}

// ------------------------------------------------------------ solving

// "12... Qxe4+": move m of board b with its number.
static void numbered(const Board *b, Move m, char *buf, size_t bufsz) {
    notation_line(b, &m, 1, buf, bufsz);
}

// Records the result of the puzzle shown; note gets the rating's change when
// it counted (the first attempt) and where the puzzle came from.
static void grade(Session *s, PuzzleGrade g, char *note, size_t notesz) {
    TrainState *t = state(s);
    int before = t->book->rating;
    bool rated = t->book->items[t->index].attempts == 0;
    puzzlebook_grade(t->book, t->index, g, wall_now());
    save_book(s);
    t->over = true;
    if (g == GRADE_FAILED) {
        t->failed = true;
        t->failed_count++;
        // Back after a few others in this session (and first in the next).
        if (reserve((void **)&t->retry, &t->retry_cap, t->retry_count + 1, sizeof *t->retry))
            t->retry[t->retry_count++] =
                (struct TrainRetry){ t->index, PUZZLEBOOK_RETRY_AFTER + 1 };
    } else {
        t->solved_count++;
    }
    session_changed(s);
    char rating[64] = "";
    if (rated)
        snprintf(rating, sizeof rating, " Rating %d -> %d.", before, t->book->rating);
    snprintf(note, notesz, "%s (The game: %s.)", rating, shown(s)->source);
}

static void show_solution(Session *s, int64_t now) {
    TrainState *t = state(s);
    const Puzzle *p = shown(s);
    char text[256] = "";
    puzzle_solution_text(p, text, sizeof text);
    Game *g = position_game(s, p->fen);
    if (g) {
        for (int i = 0; i < p->length; i++)
            if (game_play_move(g, p->solution[i], VALUE_NONE, 0, now) != GAME_OK)
                break;
        game_free(t->game);
        t->game = g;
    }
    t->step = p->length;
    char note[PUZZLE_SOURCE_MAX + 64] = "";
    if (!t->over)
        grade(s, GRADE_FAILED, note, sizeof note); // redraws
    else
        session_changed(s);
    session_say(s, MSG_INFO, "Solution: %s.%s next: the next puzzle.", text, note);
}

// A wrong move m: the engine's refutation (in a), on the board and in words.
static void wrong(Session *s, Move m, const PuzzleAnswer *a, int64_t now) {
    TrainState *t = state(s);
    Board before = *game_board(t->game);
    char played[32];
    numbered(&before, m, played, sizeof played);
    game_play_move(t->game, m, VALUE_NONE, 0, now);
    if (a->line_length > 0)
        game_play_move(t->game, a->line[0], VALUE_NONE, 0, now);
    char refutation[160] = "", eval[16] = "";
    if (a->line_length > 0) {
        Board after = before;
        board_play(&after, m);
        notation_line(&after, a->line, a->line_length, refutation, sizeof refutation);
        // The score is the mover's; shown from White's view like the analysis.
        review_format_score(before.side == WHITE ? a->score : -a->score, eval, sizeof eval);
    }
    char solution[256] = "";
    puzzle_solution_text(shown(s), solution, sizeof solution);
    char note[PUZZLE_SOURCE_MAX + 64];
    grade(s, GRADE_FAILED, note, sizeof note);
    if (a->line_length > 0)
        session_say(s, MSG_INFO,
                    "Wrong: %s is met by %s (%s). The solution: %s.%s solution shows it; next: "
                    "the next puzzle.",
                    played, refutation, eval, solution, note);
    else
        session_say(s, MSG_INFO, "Wrong: %s. The solution: %s.%s next: the next puzzle.", played,
                    solution, note);
}

// Another move that keeps the win: solved, and the puzzle's own line said.
static void also_wins(Session *s, Move m, const PuzzleAnswer *a, int64_t now) {
    TrainState *t = state(s);
    Board before = *game_board(t->game);
    char mine[32], eval[16], solution[256] = "";
    numbered(&before, m, mine, sizeof mine);
    review_format_score(before.side == WHITE ? a->score : -a->score, eval, sizeof eval);
    game_play_move(t->game, m, VALUE_NONE, 0, now);
    puzzle_solution_text(shown(s), solution, sizeof solution);
    char note[PUZZLE_SOURCE_MAX + 64];
    grade(s, t->hinted ? GRADE_HINTED : GRADE_SOLVED, note, sizeof note);
    session_say(s, MSG_INFO,
                "%s also wins (%s): solved%s! The puzzle's line was %s.%s next: the next puzzle.",
                mine, eval, t->hinted ? " with a hint" : "", solution, note);
}

// "; looking for puzzles: 40 of 232 games, 17 found" while the miner runs.
static void progress_text(const TrainState *t, char *buf, size_t bufsz) {
    buf[0] = '\0';
    if (!t->running)
        return;
    int done, found, total;
    miner_progress(t->miner, &done, &found, &total);
    char of[32] = "";
    if (total >= 0)
        snprintf(of, sizeof of, " of %d", total);
    snprintf(buf, bufsz, "Looking for puzzles: %d%s %s, %d found", done, of,
             text_plural(total >= 0 ? total : done, "game", "games"), found);
}

// Before the first puzzle found in your games, the board is your game's:
// a hint, solution or move there has nothing to work on yet: true after
// saying so.
static bool puzzle_waited_for(Session *s) {
    TrainState *t = state(s);
    if (shown(s) || !t->running)
        return false;
    char mining[128];
    progress_text(t, mining, sizeof mining);
    session_say(s, MSG_ERROR,
                "No puzzle yet: the first one is shown as soon as the search finds it (%s).",
                mining);
    return true;
}

static void try_move(Session *s, const char *text, int64_t now) {
    TrainState *t = state(s);
    const Puzzle *p = shown(s);
    if (puzzle_waited_for(s))
        return;
    if (!p || t->over) {
        session_say(s, MSG_ERROR,
                    p ? "This puzzle is over: next for the next one."
                      : "No puzzle to solve: back returns to your game.");
        return;
    }
    if (pointing_text(s, text, now))
        return;
    const Board *b = game_board(t->game);
    Move m;
    char err[512] = "";
    NotationStatus st = notation_parse_move(b, text, &m, err, sizeof err);
    if (st != NOTATION_OK) {
        GameStatus why = st == NOTATION_AMBIGUOUS ? GAME_ERR_AMBIGUOUS
                         : st == NOTATION_ILLEGAL ? GAME_ERR_ILLEGAL
                                                  : GAME_ERR_PARSE;
        session_move_error(s, text, why, err);
        return;
    }
    pointing_reset(s);
    PuzzleAnswer answer;
    JudgeVerdict verdict = puzzle_judge(t->engine, p, t->step, b, m, REFUTE_DEPTH, &answer);
    if (verdict == JUDGE_WRONG) {
        wrong(s, m, &answer, now);
        return;
    }
    if (verdict == JUDGE_ALSO_WINS) {
        also_wins(s, m, &answer, now);
        return;
    }
    char mine[32];
    numbered(b, m, mine, sizeof mine);
    game_play_move(t->game, m, VALUE_NONE, 0, now);
    t->step++;
    if (t->step >= p->length || game_is_over(t->game)) {
        char note[PUZZLE_SOURCE_MAX + 64];
        grade(s, t->hinted ? GRADE_HINTED : GRADE_SOLVED, note, sizeof note);
        session_say(s, MSG_INFO, "%s: right. Solved%s!%s next: the next puzzle.", mine,
                    t->hinted ? " with a hint" : "", note);
        return;
    }
    Move reply = p->solution[t->step];
    char theirs[32];
    numbered(game_board(t->game), reply, theirs, sizeof theirs);
    game_play_move(t->game, reply, VALUE_NONE, 0, now);
    t->step++;
    session_changed(s);
    session_say(s, MSG_INFO, "%s: right. %s replies %s; find the next move.", mine,
                side_name(!game_turn(t->game)), theirs);
}

static void hint(Session *s) {
    TrainState *t = state(s);
    const Puzzle *p = shown(s);
    if (puzzle_waited_for(s))
        return;
    if (!p || t->over) {
        session_say(s, MSG_ERROR, "No puzzle to give a hint for.");
        return;
    }
    Move m = p->solution[t->step];
    Piece piece = board_piece_on(game_board(t->game), move_from(m));
    char from[3];
    square_name(move_from(m), from);
    t->hinted = true;
    session_say(s, MSG_INFO, "Hint: move your %s on %s.", pointing_piece_name(piece_type(piece)),
                from);
}

static Transition train_handle(Session *s, const Command *cmd, int64_t now) {
    TrainState *t = state(s);
    switch (cmd->kind) {
    case CMD_MOVE: try_move(s, cmd->text, now); break;
    case CMD_HINT: hint(s); break;
    case CMD_SOLUTION:
        if (shown(s))
            show_solution(s, now);
        else if (!puzzle_waited_for(s))
            session_say(s, MSG_ERROR, "No puzzle shown.");
        break;
    case CMD_NEXT: next_puzzle(s); break;
    case CMD_STOP:
        if (t->running) {
            miner_cancel(t->miner);
            return mining_done(s);
        }
        session_say(s, MSG_ERROR, "Nothing to stop; back returns to your game.");
        break;
    default: session_say(s, MSG_ERROR, "'%s' does nothing here.", command_name(cmd->kind));
    }
    return stay;
}

static Transition train_poll(Session *s, const Event *ev, int64_t now) {
    (void)now;
    TrainState *t = state(s);
    if (!ev || ev->request != t->id || !t->running)
        return stay;
    if (ev->kind == EV_TRAIN_DONE)
        return mining_done(s);
    if (ev->kind == EV_TRAIN_PROGRESS)
        take_found(s);
    return stay;
}

// The puzzle's game; the live game when none could be made (a new train
// failed while training).
static const Game *train_game(const Session *s) {
    return state(s)->game ? state(s)->game : s->live;
}
static const Board *train_board(const Session *s) {
    return game_board(train_game(s));
}

// The puzzle's position has no players: you move first, the other side is
// the opponent (its game's names are not kept with the puzzle).
static bool train_player_name(const Session *s, Color c, char *buf, size_t bufsz) {
    const TrainState *t = state(s);
    if (!shown(s) || !t->game)
        return false;
    snprintf(buf, bufsz, "%s", c == game_start_side(t->game) ? "You" : "Opponent");
    return true;
}

static void train_status(const Session *s, char *buf, size_t bufsz) {
    const TrainState *t = state(s);
    const Puzzle *p = shown(s);
    char mining[128], tail[140] = "";
    progress_text(t, mining, sizeof mining);
    if (mining[0])
        snprintf(tail, sizeof tail, " · %s", mining);
    if (!p && t->running) {
        snprintf(buf, bufsz, "%s...  [train]", mining);
    } else if (!p) {
        snprintf(buf, bufsz, "No puzzle: back returns to your game  [train]");
    } else if (t->over) {
        snprintf(buf, bufsz,
                 "%s (puzzle %d of %d; your rating %d): next for the next one%s  [train]",
                 t->failed ? "Failed" : "Solved", t->pos + 1, t->queue_len, t->book->rating, tail);
    } else {
        // The theme only for train theme, where it was asked for: elsewhere
        // it would give the answer away.
        char theme[THEME_TEXT_MAX + 2] = "";
        if (t->by_theme) {
            theme_words(theme_of(p), theme, sizeof theme - 2);
            strcat(theme, ": ");
        }
        snprintf(buf, bufsz,
                 "%s%s to move: find the %s move (puzzle %d of %d, rating %d; yours %d)%s"
                 "  [train]",
                 theme, side_name(game_turn(t->game)), t->step ? "next" : "best", t->pos + 1,
                 t->queue_len, p->rating, t->book->rating, tail);
    }
}

static PgnGame *train_to_pgn(Session *s, int64_t now) {
    return gamefile_to_pgn(state(s)->game, s->openings, now);
}

// Searching the games for puzzles.
// Busy (the line mode waits) only until a puzzle shows: then the player
// solves while the search goes on.
static void train_destroy(Session *s) {
    release(state(s));
}

static bool train_busy(const Session *s) {
    return state(s)->running && state(s)->index < 0;
}

const ModeOps mode_train_ops = {
    .state_size = sizeof(TrainState),
    .destroy = train_destroy,
    .enter = train_enter,
    .leave = train_leave,
    .handle = train_handle,
    .poll = train_poll,
    .game = train_game,
    .board = train_board,
    .status = train_status,
    .to_pgn = train_to_pgn,
    .refusal_hint = " (back returns to your game)",
    .points = true,
    .hides_opening = true,
    .busy = train_busy,
    .player_name = train_player_name,
    .play_move = try_move,
};
