// SPDX-License-Identifier: GPL-3.0-or-later
// bench/review_replay: `patzer annotate` for experiments on the review's
// rules, with every search it asks kept in a cache file, so that a change
// of the rules or of the scale costs only the searches it adds.
//
//   bench/review_replay [--nodes N] [--verify-nodes N] [--second-nodes N]
//                       [--wc-pawn CP] [--net-wc-pawn CP]
//                       [--quick-net] [--quick-both] [--check-net] [--check-class]
//                       [--no-confirm] [--no-second-net] [--no-own-better]
//                       [--eval-file builtin] [--jobs N]
//                       [--cache FILE] [--openings FILE] [--book FILE]
//                       GAMES.pgn > OUT.pgn
//
// The defaults are the review's (review_options_default), two jobs;
// --no-confirm leaves out the second opinion (ReviewOptions.confirm),
// --no-second-net has the review's own evaluation give it
// (ReviewOptions.second_net); --no-own-better shows the quick pass's best
// move as before round 9 (ReviewOptions.own_better); --quick-net and
// --check-net have the net search the quick pass or the check
// (ReviewOptions.quick_net, check_net), its scores judged with
// --net-wc-pawn (ReviewOptions.net_wc_pawn); --check-class gives a checked
// move the check's class (ReviewOptions.check_class).
// The searches are the review's own (src/game/review.h's evaluator
// interface): the built-in engine, one thread, an empty 16 MB table each,
// node limits; a search is named in the cache by the position, the game's
// keys before it (repetitions), its limits, its MultiPV, its moves and the
// evaluation, so a cached answer is the answer the search gives. The games
// are written as annotate writes them; bench/review_judge scores the file.
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/fen.h"
#include "engine/nnue.h"
#include "src/game/openings.h"
#include "src/game/review.h"
#include "src/game/theory.h"
#include "src/pgn/pgn.h"
#include "src/util/netfile.h"

enum { JOBS_MAX = 16, CACHE_CAP = 1 << 20, KEY_MAX = 256 };

typedef struct Entry {
    char key[KEY_MAX];
    ReviewSearch found;
} Entry;

typedef struct Replay {
    Engine *engines[JOBS_MAX];
    Engine *second[JOBS_MAX]; // the second opinion's, when it has an evaluation of its own
    int jobs;
    char net_name[32]; // in the cache's keys: "hce", or the net named by its description
    char second_name[32];
    pthread_mutex_t lock;
    Entry *cache;
    int count, hits, misses;
    FILE *out;
} Replay;

static uint64_t history_hash(const Line *l) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < l->ply; i++)
        h = (h ^ l->keys[i]) * 1099511628211ull;
    return h;
}

static void make_key(const char *net_name, const Line *l, const SearchLimits *lim, int multipv,
                     char *key) {
    char fen[FEN_MAX];
    board_to_fen(&l->board, fen, sizeof fen);
    int n = snprintf(key, KEY_MAX, "%s|%016" PRIx64 "|n%" PRIu64 " d%d t%" PRId64 " m%d %s", fen,
                     history_hash(l), lim->nodes, lim->depth, (int64_t)lim->movetime, multipv,
                     net_name);
    for (int i = 0; i < lim->searchmoves_count && n < KEY_MAX - 8; i++)
        n += snprintf(key + n, (size_t)(KEY_MAX - n), " %u", (unsigned)lim->searchmoves[i]);
}

static Entry *lookup(Replay *r, const char *key) {
    for (int i = r->count - 1; i >= 0; i--)
        if (strcmp(r->cache[i].key, key) == 0)
            return &r->cache[i];
    return NULL;
}

// One cache line: KEY \t best depth count { score mate len pv... }.
static void save(Replay *r, const char *key, const ReviewSearch *f) {
    if (r->count < CACHE_CAP) {
        Entry *e = &r->cache[r->count++];
        snprintf(e->key, sizeof e->key, "%s", key);
        e->found = *f;
    }
    if (!r->out)
        return;
    fprintf(r->out, "%s\t%u %d %d", key, (unsigned)f->best, f->depth, f->line_count);
    for (int i = 0; i < f->line_count; i++) {
        const ReviewLine *x = &f->lines[i];
        fprintf(r->out, " %d %d %d", x->score, x->mate, x->pv_length);
        for (int k = 0; k < x->pv_length; k++)
            fprintf(r->out, " %u", (unsigned)x->pv[k]);
    }
    fputc('\n', r->out);
    fflush(r->out);
}

static void load(Replay *r, const char *path) {
    FILE *f = fopen(path, "r");
    char line[2048];
    while (f && fgets(line, sizeof line, f) && r->count < CACHE_CAP) {
        char *tab = strchr(line, '\t');
        if (!tab || tab - line >= KEY_MAX)
            continue;
        *tab = '\0';
        Entry *e = &r->cache[r->count];
        memset(e, 0, sizeof *e);
        memcpy(e->key, line, (size_t)(tab - line) + 1);
        char *p = tab + 1, *end;
        unsigned long v[3];
        bool ok = true;
        for (int i = 0; i < 3 && ok; i++) {
            v[i] = strtoul(p, &end, 10);
            ok = end != p;
            p = end;
        }
        e->found.best = (Move)v[0];
        e->found.depth = (int)v[1];
        e->found.line_count = (int)v[2];
        for (int i = 0; ok && i < e->found.line_count && i < REVIEW_LINES_MAX; i++) {
            ReviewLine *x = &e->found.lines[i];
            x->score = (int)strtol(p, &end, 10);
            x->mate = (int)strtol(end, &p, 10);
            x->pv_length = (int)strtol(p, &end, 10);
            p = end;
            for (int k = 0; k < x->pv_length && k < REVIEW_LINE_MAX; k++) {
                x->pv[k] = (Move)strtoul(p, &end, 10);
                p = end;
            }
        }
        if (ok)
            r->count++;
    }
    if (f)
        fclose(f);
    r->out = fopen(path, "a");
}

static bool cached_search(Replay *r, Engine *eng, const char *net_name, const Line *l,
                          const SearchLimits *limits, int multipv, ReviewSearch *out) {
    char key[KEY_MAX];
    make_key(net_name, l, limits, multipv, key);
    pthread_mutex_lock(&r->lock);
    const Entry *e = lookup(r, key);
    if (e) {
        *out = e->found;
        r->hits++;
    }
    pthread_mutex_unlock(&r->lock);
    if (e)
        return true;
    EngineQuery q;
    engine_query_init(&q);
    q.limits = *limits;
    q.multipv = multipv;
    q.new_game = true;
    EngineResult *res = malloc(sizeof *res);
    if (!res)
        return false;
    engine_set_position(eng, &l->board, l->keys, l->ply);
    (void)engine_search(eng, &q, res);
    review_search_from_result(res, out);
    free(res);
    pthread_mutex_lock(&r->lock);
    r->misses++;
    save(r, key, out);
    pthread_mutex_unlock(&r->lock);
    return true;
}

static bool replay_search(void *ctx, int worker, const Line *l, const SearchLimits *limits,
                          int multipv, ReviewSearch *out) {
    Replay *r = ctx;
    return cached_search(r, r->engines[worker], r->net_name, l, limits, multipv, out);
}

static bool replay_second(void *ctx, int worker, const Line *l, const SearchLimits *limits,
                          int multipv, ReviewSearch *out) {
    Replay *r = ctx;
    return cached_search(r, r->second[worker], r->second_name, l, limits, multipv, out);
}

int main(int argc, char **argv) {
    ReviewOptions opt;
    review_options_default(&opt);
    const char *cache = "review_replay.cache", *openings = NULL, *book_path = NULL, *games = NULL;
    Replay r = { .jobs = 2, .net_name = "hce" };
    bool nnue = false, second_nnue = false;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--nodes") && v)
            opt.nodes = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--verify-nodes") && v)
            opt.verify_nodes = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--second-nodes") && v)
            opt.second_nodes = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--wc-pawn") && v)
            opt.wc_pawn = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--net-wc-pawn") && v)
            opt.net_wc_pawn = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick-net"))
            opt.quick_net = true;
        else if (!strcmp(argv[i], "--no-quick-net"))
            opt.quick_net = false;
        else if (!strcmp(argv[i], "--no-own-better"))
            opt.own_better = false;
        else if (!strcmp(argv[i], "--quick-both"))
            opt.quick_both = true;
        else if (!strcmp(argv[i], "--check-class"))
            opt.check_class = true;
        else if (!strcmp(argv[i], "--check-net"))
            opt.check_net = true;
        else if (!strcmp(argv[i], "--confirm"))
            opt.confirm = true;
        else if (!strcmp(argv[i], "--no-confirm"))
            opt.confirm = false;
        else if (!strcmp(argv[i], "--jobs") && v)
            r.jobs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cache") && v)
            cache = argv[++i];
        else if (!strcmp(argv[i], "--openings") && v)
            openings = argv[++i];
        else if (!strcmp(argv[i], "--book") && v)
            book_path = argv[++i];
        else if (!strcmp(argv[i], "--eval-file") && v && !strcmp(v, "builtin")) {
            nnue = true;
            i++;
        } else if (!strcmp(argv[i], "--no-second-net"))
            opt.second_net = false;
        else if (argv[i][0] != '-' && !games)
            games = argv[i];
        else {
            fprintf(stderr, "review_replay: bad argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!games || r.jobs < 1 || r.jobs > JOBS_MAX || !opt.nodes) {
        fprintf(stderr,
                "usage: review_replay [--nodes N] [--verify-nodes N] [--second-nodes N] "
                "[--wc-pawn CP] [--net-wc-pawn CP] [--quick-net] [--quick-both] [--check-net] "
                "[--check-class] "
                "[--no-confirm] [--no-second-net] [--no-own-better] [--eval-file builtin] "
                "[--jobs N] "
                "[--cache FILE] "
                "[--openings FILE] [--book FILE] GAMES.pgn > OUT.pgn\n");
        return 2;
    }
    char err[256];
    NnueNet *net = NULL;
    // The second opinion by the net, as review_game gives it.
    second_nnue =
        ((opt.confirm && opt.second_net) || opt.quick_net || opt.quick_both || opt.check_net) &&
        !nnue;
    if ((nnue || second_nnue) && !(net = netfile_builtin(err, sizeof err))) {
        fprintf(stderr, "review_replay: %s\n", err);
        return 1;
    }
    // A net is named by a hash of its description, so that the searches of
    // another net (an older built-in one) are never taken for its own.
    char named[32] = "hce";
    if (net)
        snprintf(named, sizeof named, "nnue-%08" PRIx32,
                 nnue_fnv1a((const uint8_t *)net->desc, strlen(net->desc)));
    snprintf(r.net_name, sizeof r.net_name, "%s", nnue ? named : "hce");
    snprintf(r.second_name, sizeof r.second_name, "%s", second_nnue ? named : r.net_name);
    r.cache = calloc(CACHE_CAP, sizeof *r.cache);
    if (!r.cache || pthread_mutex_init(&r.lock, NULL) != 0)
        return 1;
    for (int i = 0; i < r.jobs; i++) {
        r.engines[i] = engine_new();
        if (!r.engines[i])
            return 1;
        (void)engine_set_option(r.engines[i], "Threads", "1", NULL, 0);
        if (nnue)
            engine_set_net(r.engines[i], net);
        if (!second_nnue || nnue) {
            r.second[i] = r.engines[i]; // the same evaluation, the same engine
            continue;
        }
        r.second[i] = engine_new();
        if (!r.second[i])
            return 1;
        (void)engine_set_option(r.second[i], "Threads", "1", NULL, 0);
        engine_set_net(r.second[i], net);
    }
    load(&r, cache);
    if (openings && access(openings, R_OK) != 0) { // read lazily: check it now
        fprintf(stderr, "review_replay: %s: %s\n", openings, strerror(errno));
        return 1;
    }
    Openings *o = openings ? openings_open(openings) : NULL;
    Book *book = book_path ? book_open(book_path, err, sizeof err) : NULL;
    if (book_path && !book) { // a review without its book marks theory: refuse, do not guess
        fprintf(stderr, "review_replay: %s\n", err);
        return 1;
    }
    PgnReader *rd = pgn_reader_open(games, err, sizeof err);
    PgnGame *g = pgn_game_new();
    PgnError *perr = malloc(sizeof *perr);
    if (!rd || !g || !perr) {
        fprintf(stderr, "review_replay: %s\n", rd ? "out of memory" : err);
        return 1;
    }
    ReviewEvaluator re = { .search = replay_search,
                           .search_second = second_nnue ? replay_second : NULL,
                           .workers = r.jobs,
                           .ctx = &r };
    while (pgn_reader_next(rd, g, perr) > 0) {
        int n = pgn_mainline_length(g);
        ReviewPly *plies = calloc((size_t)n + 1, sizeof *plies);
        if (!plies)
            return 1;
        opt.book_plies = theory_plies(g, o, book);
        int done = review_game_with(&re, g, &opt, plies);
        size_t len;
        char *text = NULL;
        if (done < 0 || !review_annotate(g, plies, done) ||
            !pgn_set_tag(g, "Annotator", "review_replay") || !(text = pgn_write_string(g, &len))) {
            fprintf(stderr, "review_replay: a game failed\n");
            return 1;
        }
        fwrite(text, 1, len, stdout);
        free(text);
        free(plies);
    }
    fprintf(stderr, "review_replay: %d searches cached, %d made\n", r.hits, r.misses);
    for (int i = 0; i < r.jobs; i++) {
        if (r.second[i] != r.engines[i])
            engine_free(r.second[i]);
        engine_free(r.engines[i]);
    }
    if (r.out)
        fclose(r.out);
    nnue_net_free(net);
    return 0;
}
