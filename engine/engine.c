// SPDX-License-Identifier: GPL-3.0-or-later
// The engine facade: options, the opening book and the search thread.
#include "engine/engine.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/book.h"
#include "engine/errmsg.h"
#include "engine/fen.h"
#include "engine/line.h"
#include "engine/movegen.h"
#include "engine/skill.h"

enum {
    HASH_DEFAULT_MB = 16,
    OVERHEAD_DEFAULT_MS = 50,
    CONTEMPT_DEFAULT_PERCENT = 100,
    BOOK_PATH_MAX = 1024,
    ELO_DEFAULT = 1500,
};

// The hash table, the searcher and the book are made when first needed (the
// table at its final size once a Hash option or the first search fixes it), so
// that a program which starts and quits, or only answers "uci", costs nothing.
struct Engine {
    Board board;
    Key keys[LINE_MAX]; // of the positions before board, for repetitions
    int nkeys;
    TTable *tt;         // NULL until the Hash option or the first search
    Searcher *searcher; // NULL until the first search
    Book *book;         // NULL until a search first wants a book move
    const NnueNet *net; // the caller's network, NULL for the hand-crafted evaluation
    bool book_tried;    // book_path was opened (or failed to open) already
    char book_path[BOOK_PATH_MAX];
    char eval_file[BOOK_PATH_MAX]; // the EvalFile option
    bool use_nnue;                 // the UseNNUE option
    bool chess960;                 // the UCI_Chess960 option
    bool own_book;
    bool ponder_option;
    bool analyse_mode;
    int hash_mb, multipv, contempt_percent, overhead_ms, threads;
    uint64_t rng;
    // Strength: level is what the search uses (ENGINE_LEVEL_MAX: full);
    // UCI_LimitStrength and UCI_Elo set it, and engine_set_level sets them.
    int level;
    bool limit_strength;
    int elo;

    pthread_t thread;
    bool thread_joinable;
    atomic_bool stop;
    atomic_bool pondering; // a ponder search that has not had its ponderhit
    pthread_mutex_t lock;
    pthread_cond_t wake;
    SearchLimits limits;
    EngineCallbacks cb;
};

// Not const only because UCI_Elo's range comes from the level table
// (the labels of the weakest and the strongest weakened level): see
// fill_options.
static EngineOption options[] = {
    { "Hash", OPTION_SPIN, "16", TT_MB_MIN, TT_MB_MAX },
    { "Clear Hash", OPTION_BUTTON, "", 0, 0 },
    { "Threads", OPTION_SPIN, "1", 1, SEARCH_THREADS_MAX },
    { "MultiPV", OPTION_SPIN, "1", 1, MAX_MULTIPV },
    { "Contempt", OPTION_SPIN, "100", 0, 200 },
    { "Move Overhead", OPTION_SPIN, "50", 0, 5000 },
    { "Ponder", OPTION_CHECK, "false", 0, 0 },
    { "OwnBook", OPTION_CHECK, "false", 0, 0 },
    { "BookFile", OPTION_STRING, "", 0, 0 },
    { "UCI_AnalyseMode", OPTION_CHECK, "false", 0, 0 },
    { "UCI_LimitStrength", OPTION_CHECK, "false", 0, 0 },
    { "UCI_Elo", OPTION_SPIN, "1500", 0, 0 }, // min, max: set by fill_options
    // The network: only remembered here; the program reads the file and hands the net over
    // with engine_set_net (the engine does no I/O).
    { "EvalFile", OPTION_STRING, "", 0, 0 },
    // On by default: the built-in net beats the hand-crafted evaluation by more than the
    // +80 Elo over 400 games at 10+0.1 that issue 23 set (bench/results/2026-11-27-nnue-gen5.md).
    { "UseNNUE", OPTION_CHECK, "true", 0, 0 },
    // Chess960: every position set is marked as one (castling written as
    // king takes rook), and the book, which knows standard chess only, is off.
    { "UCI_Chess960", OPTION_CHECK, "false", 0, 0 },
};
enum { OPTION_UCI_ELO = 11, OPTION_EVAL_FILE = 12, OPTION_USE_NNUE = 13, OPTION_CHESS960 = 14 };

static pthread_once_t options_once = PTHREAD_ONCE_INIT;

// UCI_Elo's range is that of the level table's labels, so what a GUI offers
// is what the levels play: the weakest level's label to the strongest
// weakened level's (full strength is UCI_LimitStrength off).
static void fill_options(void) {
    options[OPTION_UCI_ELO].min = engine_level_elo(1);
    options[OPTION_UCI_ELO].max = engine_level_elo(ENGINE_LEVEL_MAX - 1);
}

static void init_options(void) {
    pthread_once(&options_once, fill_options);
}

int engine_option_count(void) {
    return (int)(sizeof options / sizeof options[0]);
}

const EngineOption *engine_option(int index) {
    init_options();
    return index >= 0 && index < engine_option_count() ? &options[index] : NULL;
}

// ------------------------------------------------------------------ levels

int engine_level_elo(int level) {
    return skill_level_elo(level);
}

int engine_level_for_elo(int elo) {
    return skill_level_for_elo(elo);
}

void engine_set_level(Engine *e, int level) {
    if (level < 1)
        level = 1;
    if (level > ENGINE_LEVEL_MAX)
        level = ENGINE_LEVEL_MAX;
    e->level = level;
    e->limit_strength = level < ENGINE_LEVEL_MAX;
    if (e->limit_strength)
        e->elo = engine_level_elo(level);
}

int engine_level(const Engine *e) {
    return e->level;
}

void engine_set_seed(Engine *e, uint64_t seed) {
    e->rng = seed ? seed : 1;
}

static void update_level(Engine *e) {
    e->level = e->limit_strength ? engine_level_for_elo(e->elo) : ENGINE_LEVEL_MAX;
}

Engine *engine_new(void) {
    board_init_tables();
    init_options();
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->hash_mb = HASH_DEFAULT_MB;
    atomic_init(&e->stop, false);
    atomic_init(&e->pondering, false);
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->wake, NULL);
    e->multipv = 1;
    e->contempt_percent = CONTEMPT_DEFAULT_PERCENT;
    e->overhead_ms = OVERHEAD_DEFAULT_MS;
    e->threads = 1;
    e->rng = 0x2545F4914F6CDD1DULL ^ (uint64_t)search_now_ms();
    e->level = ENGINE_LEVEL_MAX;
    e->elo = ELO_DEFAULT;
    board_set_start(&e->board);
    // The switches start as the option table says (UseNNUE on), so that a default lives
    // in one place.
    for (int i = 0; i < engine_option_count(); i++)
        if (options[i].type == OPTION_CHECK)
            (void)engine_set_option(e, options[i].name, options[i].default_value, NULL, 0);
    return e;
}

void engine_free(Engine *e) {
    if (!e)
        return;
    engine_stop(e);
    engine_wait(e);
    search_free(e->searcher);
    tt_free(e->tt);
    book_close(e->book);
    pthread_mutex_destroy(&e->lock);
    pthread_cond_destroy(&e->wake);
    free(e);
}

void engine_set_position(Engine *e, const Board *b, const Key *keys, int nkeys) {
    e->board = *b;
    e->board.chess960 |= e->chess960;
    // Only positions since the last irreversible move can repeat.
    int n = nkeys < b->halfmove ? nkeys : b->halfmove;
    n = n < LINE_MAX ? n : LINE_MAX;
    if (n > 0)
        memcpy(e->keys, keys + nkeys - n, (size_t)n * sizeof *keys);
    e->nkeys = n > 0 ? n : 0;
}

const Board *engine_position(const Engine *e) {
    return &e->board;
}

// Makes the hash table and the searcher if they are not there yet.
static bool prepare_search(Engine *e) {
    if (!e->tt)
        e->tt = tt_new((size_t)e->hash_mb);
    if (e->tt && !e->searcher)
        e->searcher = search_new(e->tt, &e->stop);
    // Helpers are made (or freed) here, when a search needs them; with too
    // little memory for all, it searches with the threads it could have.
    if (e->searcher && search_threads(e->searcher) != e->threads)
        search_set_threads(e->searcher, e->threads);
    return e->searcher != NULL;
}

// The book, opened the first time a search asks for it. A book that has gone
// bad since BookFile was checked is left alone: the engine searches instead.
static const Book *current_book(Engine *e) {
    if (!e->book_tried && e->book_path[0]) {
        e->book_tried = true;
        e->book = book_open(e->book_path, NULL, 0);
    }
    return e->book;
}

static bool must_wait_for_stop(Engine *e) {
    return e->limits.infinite || atomic_load(&e->pondering);
}

static void *search_thread(void *arg) {
    Engine *e = arg;
    Move best = MOVE_NONE, ponder = MOVE_NONE;

    // The book holds standard chess: a Chess960 game never asks it (even from
    // the classical start, where the book's other lines would be wrong).
    if (e->own_book && !e->limits.infinite && !e->analyse_mode && !e->limits.searchmoves_count &&
        !e->limits.ponder && !e->board.chess960 && current_book(e))
        best = book_pick(e->book, &e->board, &e->rng);

    if (best == MOVE_NONE) {
        SearchParams params = {
            .multipv = e->multipv,
            .contempt_percent = e->contempt_percent,
            .analysis = e->analyse_mode || e->limits.infinite,
            .move_overhead = e->overhead_ms,
            .level = e->level,
            .rng = &e->rng,
            // A weakened level plays with the hand-crafted evaluation: its Elo label was
            // measured with it (make calibrate), and the net would move it.
            .net = e->level > 0 && e->level < ENGINE_LEVEL_MAX ? NULL : e->net,
        };
        SearchResult result;
        search_run(e->searcher, &e->board, e->keys, e->nkeys, &e->limits, &params, e->cb.on_info,
                   e->cb.ctx, &result);
        best = result.best;
        ponder = result.ponder;
    }

    // UCI forbids a best move during infinite analysis or pondering before
    // the GUI says stop (or ponderhit).
    pthread_mutex_lock(&e->lock);
    while (must_wait_for_stop(e) && !atomic_load(&e->stop))
        pthread_cond_wait(&e->wake, &e->lock);
    pthread_mutex_unlock(&e->lock);

    if (e->cb.on_bestmove)
        e->cb.on_bestmove(best, ponder, e->cb.ctx);
    return NULL;
}

void engine_go(Engine *e, const SearchLimits *limits, const EngineCallbacks *cb) {
    engine_stop(e);
    engine_wait(e);
    e->limits = *limits;
    e->cb = *cb;
    if (!prepare_search(e)) {
        // No memory for the search: answer at once rather than never.
        if (cb->on_bestmove)
            cb->on_bestmove(MOVE_NONE, MOVE_NONE, cb->ctx);
        return;
    }
    atomic_store(&e->stop, false);
    atomic_store(&e->pondering, limits->ponder);
    if (pthread_create(&e->thread, NULL, search_thread, e) == 0) {
        e->thread_joinable = true;
    } else {
        // No thread to be had: search here rather than never answer.
        search_thread(e);
    }
}

void engine_stop(Engine *e) {
    pthread_mutex_lock(&e->lock);
    atomic_store(&e->stop, true);
    pthread_cond_broadcast(&e->wake);
    pthread_mutex_unlock(&e->lock);
}

void engine_wait(Engine *e) {
    if (e->thread_joinable) {
        pthread_join(e->thread, NULL);
        e->thread_joinable = false;
    }
}

void engine_ponderhit(Engine *e) {
    pthread_mutex_lock(&e->lock);
    if (atomic_load(&e->pondering) && e->searcher) {
        atomic_store(&e->pondering, false);
        search_ponderhit(e->searcher);
    }
    pthread_cond_broadcast(&e->wake);
    pthread_mutex_unlock(&e->lock);
}

bool engine_is_searching(Engine *e) {
    return e->thread_joinable;
}

void engine_new_game(Engine *e) {
    engine_stop(e);
    engine_wait(e);
    if (e->tt)
        tt_clear(e->tt);
    if (e->searcher)
        search_clear(e->searcher);
}

void engine_set_net(Engine *e, const NnueNet *net) {
    engine_stop(e);
    engine_wait(e);
    if (net == e->net)
        return;
    e->net = net;
    // The table's static evaluations and the eval correction history were learnt from the
    // other evaluation: a new start suits the new one better.
    engine_new_game(e);
}

const NnueNet *engine_net(const Engine *e) {
    return e->net;
}

// ------------------------------------------------------------------ options

static bool parse_int(const char *value, int min, int max, int *out) {
    char *end;
    long v = strtol(value, &end, 10);
    if (end == value || *end || v < min || v > max)
        return false;
    *out = (int)v;
    return true;
}

// What is wrong with a spin option's value parse_int refused: a GUI's user
// reads this, so a missing value or a word is told apart from a number out
// of range, and the option's range is given.
static bool spin_value_error(const EngineOption *opt, const char *value, char *err,
                             size_t errsz) {
    if (!*value)
        return errmsg_set(err, errsz, "option %s needs a value from %d to %d", opt->name,
                          opt->min, opt->max);
    char *end;
    (void)strtol(value, &end, 10);
    if (end == value || *end)
        return errmsg_set(err, errsz, "option value '%s' is not a number (%s takes %d..%d)",
                          value, opt->name, opt->min, opt->max);
    return errmsg_set(err, errsz, "option value '%s' out of range %d..%d", value, opt->min,
                      opt->max);
}

static bool parse_bool(const char *value, bool *out) {
    if (strcasecmp(value, "true") == 0 || strcmp(value, "1") == 0) {
        *out = true;
        return true;
    }
    if (strcasecmp(value, "false") == 0 || strcmp(value, "0") == 0) {
        *out = false;
        return true;
    }
    return false;
}

static bool set_book(Engine *e, const char *path, char *err, size_t errsz) {
    if (!*path || strcmp(path, "<empty>") == 0) {
        book_close(e->book);
        e->book = NULL;
        e->book_path[0] = '\0';
        return true;
    }
    if (strlen(path) >= BOOK_PATH_MAX)
        return errmsg_set(err, errsz, "book path too long: %s", path);
    // Checked now, so that a wrong path is reported where it is set; read when
    // a search first wants a book move.
    char why[256];
    if (!book_check_file(path, why, sizeof why))
        return errmsg_set(err, errsz, "cannot load book %s: %s", path, why);
    book_close(e->book);
    e->book = NULL;
    e->book_tried = false;
    snprintf(e->book_path, sizeof e->book_path, "%s", path);
    return true;
}

bool engine_set_option(Engine *e, const char *name, const char *value, char *err, size_t errsz) {
    init_options();
    const EngineOption *opt = NULL;
    for (int i = 0; i < engine_option_count(); i++)
        if (strcasecmp(options[i].name, name) == 0)
            opt = &options[i];
    if (!opt)
        return errmsg_set(err, errsz, "unknown option '%s'", name);
    if (!value)
        value = "";
    if (e->thread_joinable && (opt->type != OPTION_CHECK || opt == &options[10])) {
        engine_stop(e);
        engine_wait(e);
    }
    int n = 0;
    bool flag = false;
    if (opt->type == OPTION_SPIN && !parse_int(value, opt->min, opt->max, &n))
        return spin_value_error(opt, value, err, errsz);
    if (opt->type == OPTION_CHECK && !*value)
        return errmsg_set(err, errsz, "option %s needs a value, true or false", opt->name);
    if (opt->type == OPTION_CHECK && !parse_bool(value, &flag))
        return errmsg_set(err, errsz, "option value '%s' is not true or false", value);

    if (opt == &options[0]) {
        // The first size set is the table's only allocation; later ones resize.
        bool ok;
        if (e->tt) {
            ok = tt_resize(e->tt, (size_t)n);
        } else {
            e->tt = tt_new((size_t)n);
            ok = e->tt != NULL;
        }
        if (!ok)
            return errmsg_set(err, errsz, "not enough memory for %s MB of hash", value);
        e->hash_mb = n;
    } else if (opt == &options[1]) {
        if (e->tt)
            tt_clear(e->tt);
    } else if (opt == &options[2]) {
        e->threads = n;
    } else if (opt == &options[3]) {
        e->multipv = n;
    } else if (opt == &options[4]) {
        e->contempt_percent = n;
    } else if (opt == &options[5]) {
        e->overhead_ms = n;
    } else if (opt == &options[6]) {
        e->ponder_option = flag;
    } else if (opt == &options[7]) {
        e->own_book = flag;
    } else if (opt == &options[8]) {
        return set_book(e, value, err, errsz);
    } else if (opt == &options[9]) {
        e->analyse_mode = flag;
    } else if (opt == &options[10]) {
        e->limit_strength = flag;
        update_level(e);
    } else if (opt == &options[OPTION_UCI_ELO]) {
        e->elo = n;
        update_level(e);
    } else if (opt == &options[OPTION_EVAL_FILE]) {
        if (strlen(value) >= sizeof e->eval_file)
            return errmsg_set(err, errsz, "EvalFile path too long: %s", value);
        snprintf(e->eval_file, sizeof e->eval_file, "%s",
                 strcmp(value, "<empty>") == 0 ? "" : value);
    } else if (opt == &options[OPTION_USE_NNUE]) {
        e->use_nnue = flag;
    } else if (opt == &options[OPTION_CHESS960]) {
        e->chess960 = flag;
    }
    return true;
}

bool engine_get_option(const Engine *e, const char *name, char *buf, size_t bufsz) {
    struct {
        const char *name;
        int value;
    } ints[] = { { "Hash", e->hash_mb },
                 { "Threads", e->threads },
                 { "MultiPV", e->multipv },
                 { "Contempt", e->contempt_percent },
                 { "Move Overhead", e->overhead_ms },
                 { "Ponder", e->ponder_option },
                 { "OwnBook", e->own_book },
                 { "UCI_AnalyseMode", e->analyse_mode },
                 { "UCI_LimitStrength", e->limit_strength },
                 { "UCI_Elo", e->elo },
                 { "UseNNUE", e->use_nnue },
                 { "UCI_Chess960", e->chess960 } };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        if (strcasecmp(ints[i].name, name) == 0) {
            const EngineOption *opt = NULL;
            for (int j = 0; j < engine_option_count(); j++)
                if (strcasecmp(options[j].name, name) == 0)
                    opt = &options[j];
            if (opt && opt->type == OPTION_CHECK)
                snprintf(buf, bufsz, "%s", ints[i].value ? "true" : "false");
            else
                snprintf(buf, bufsz, "%d", ints[i].value);
            return true;
        }
    }
    if (strcasecmp(name, "BookFile") == 0) {
        snprintf(buf, bufsz, "%s", e->book_path);
        return true;
    }
    if (strcasecmp(name, "EvalFile") == 0) {
        snprintf(buf, bufsz, "%s", e->eval_file);
        return true;
    }
    return false;
}

// ------------------------------------------------------------ blocking search

void engine_query_init(EngineQuery *q) {
    memset(q, 0, sizeof *q);
    search_limits_init(&q->limits);
    q->multipv = 1;
}

void engine_collector_init(EngineCollector *c, EngineResult *out, int lines) {
    memset(c, 0, sizeof *c);
    memset(out, 0, sizeof *out);
    c->out = out;
    c->want = lines < 1 ? 1 : lines > MAX_MULTIPV ? MAX_MULTIPV : lines;
    c->depth = -1;
}

void engine_collector_info(EngineCollector *c, const SearchInfo *info) {
    if (info->bound != BOUND_EXACT || info->pv_length < 1 || info->multipv < 1 ||
        info->multipv > MAX_MULTIPV)
        return;
    if (info->multipv == 1 || info->depth != c->depth) {
        c->depth = info->depth;
        c->count = 0;
    }
    if (info->multipv != c->count + 1)
        return; // a line out of turn: wait for the next iteration
    EngineLine *l = &c->lines[c->count++];
    l->score = info->score;
    l->mate = info->mate;
    l->pv_length = info->pv_length < MAX_PLY ? info->pv_length : MAX_PLY;
    memcpy(l->pv, info->pv, (size_t)l->pv_length * sizeof l->pv[0]);
    EngineResult *out = c->out;
    out->nodes = info->nodes;
    out->time_ms = info->time_ms;
    if (c->count == c->want) {
        out->depth = c->depth;
        out->line_count = c->count;
        memcpy(out->lines, c->lines, (size_t)c->count * sizeof c->lines[0]);
        out->score = c->lines[0].score;
        out->mate = c->lines[0].mate;
    }
}

// One blocking search: the collector and the query's observer.
typedef struct Gather {
    const EngineQuery *q;
    EngineCollector c;
} Gather;

static void gather_info(const SearchInfo *info, void *ctx) {
    Gather *g = ctx;
    if (g->q->on_info)
        g->q->on_info(info, g->q->ctx);
    engine_collector_info(&g->c, info);
}

static void gather_bestmove(Move best, Move ponder, void *ctx) {
    Gather *g = ctx;
    g->c.out->best = best;
    g->c.out->ponder = ponder;
}

bool engine_search(Engine *e, const EngineQuery *q, EngineResult *out) {
    engine_stop(e);
    engine_wait(e);
    memset(out, 0, sizeof *out);
    MoveList legal;
    movegen_legal(&e->board, &legal);
    int roots = legal.count;
    if (q->limits.searchmoves_count > 0) {
        roots = 0;
        for (int i = 0; i < legal.count; i++)
            for (int j = 0; j < q->limits.searchmoves_count; j++)
                roots += legal.moves[i] == q->limits.searchmoves[j];
    }
    if (roots == 0)
        return false;
    if (q->new_game)
        engine_new_game(e);
    // The options a search of this kind sets for itself, kept to be restored.
    bool analyse = e->analyse_mode, limit = e->limit_strength;
    int level = e->level, multipv = e->multipv;
    e->analyse_mode = true;
    e->limit_strength = false;
    e->level = ENGINE_LEVEL_MAX;
    e->multipv = q->multipv < 1 ? 1 : q->multipv > MAX_MULTIPV ? MAX_MULTIPV : q->multipv;
    Gather *g = calloc(1, sizeof *g);
    if (g) {
        g->q = q;
        engine_collector_init(&g->c, out, e->multipv < roots ? e->multipv : roots);
        EngineCallbacks cb = { .on_info = gather_info, .on_bestmove = gather_bestmove, .ctx = g };
        engine_go(e, &q->limits, &cb);
        engine_wait(e);
    }
    e->analyse_mode = analyse;
    e->limit_strength = limit;
    e->level = level;
    e->multipv = multipv;
    bool searched = g != NULL && out->best != MOVE_NONE;
    free(g);
    return searched;
}
