// SPDX-License-Identifier: GPL-3.0-or-later
// `patzer epd FILE [--movetime MS] [--depth N] [--nodes N] [--jobs N]`: searches
// each position of an EPD test suite for a fixed time (or depth, or node count)
// and checks the move against its bm/am operations. Positions are searched in
// parallel, one engine per job, each from a fresh table; the report keeps the
// file's order, so a fixed-depth or fixed-node run prints the same whatever the
// number of jobs and the machine's load.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/fen.h"
#include "engine/notation.h"
#include "src/protocol/protocol.h"
#include "src/util/jobs.h"
#include "src/util/netfile.h"
#include "src/util/text.h"

enum {
    EPD_DEFAULT_MOVETIME_MS = 1000,
    EPD_MOVES_MAX = 16, // moves in one bm or am operation
    EPD_ID_MAX = 128,
    EPD_FEN_MAX = 160,
    EPD_MAX_DEPTH = MAX_PLY - 2,
};
#define EPD_MAX_NODES 1000000000000LL

// One test position and what the search made of it.
typedef struct EpdRun {
    const char *file;
    long line_no;
    Board board;
    char id[EPD_ID_MAX];
    Move bm[EPD_MOVES_MAX], am[EPD_MOVES_MAX];
    int bm_count, am_count;
    bool usable; // parsed; else reported as unusable
    int number;  // 1-based among the file's positions
    // What the search found (engine_search, on a worker thread).
    EngineResult result;
} EpdRun;

// Parses the SAN moves of a bm or am operation into moves[]. Returns false
// with a message on stderr for a move that is not legal here.
static bool parse_moves(EpdRun *run, const char *op, char *operands, Move *moves, int *count) {
    char *save = NULL;
    for (char *w = strtok_r(operands, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        char err[256];
        Move m;
        if (notation_parse_move(&run->board, w, &m, err, sizeof err) != NOTATION_OK) {
            fprintf(stderr, "%s:%ld: bad move '%s' in %s: %s\n", run->file, run->line_no, w, op,
                    err);
            return false;
        }
        if (*count < EPD_MOVES_MAX)
            moves[(*count)++] = m;
    }
    if (*count == 0) {
        fprintf(stderr, "%s:%ld: %s without moves\n", run->file, run->line_no, op);
        return false;
    }
    return true;
}

// Parses one EPD line: four FEN fields, then `opcode operands;` operations.
// Returns false (with the reason on stderr) for a line that cannot be used.
static bool parse_epd(EpdRun *run, char *line) {
    char fen[EPD_FEN_MAX] = "";
    size_t len = 0;
    char *p = line;
    for (int field = 0; field < 4; field++) {
        while (*p && text_is_blank(*p))
            p++;
        char *start = p;
        while (*p && !text_is_blank(*p))
            p++;
        size_t n = (size_t)(p - start);
        if (n == 0 || len + n + 2 > sizeof fen) {
            fprintf(stderr, "%s:%ld: expected four FEN fields\n", run->file, run->line_no);
            return false;
        }
        if (len)
            fen[len++] = ' ';
        memcpy(fen + len, start, n);
        len += n;
        fen[len] = '\0';
    }
    char err[160];
    if (!board_set_fen(&run->board, fen, err, sizeof err)) {
        fprintf(stderr, "%s:%ld: bad FEN: %s\n", run->file, run->line_no, err);
        return false;
    }

    // Operations end at ';' (outside quotes).
    while (*p) {
        while (*p && (text_is_blank(*p) || *p == ';'))
            p++;
        if (!*p)
            break;
        char *op = p;
        while (*p && !text_is_blank(*p) && *p != ';')
            p++;
        char *op_end = p;
        bool has_operands = text_is_blank(*p);
        bool quoted = false;
        while (*p && (quoted || *p != ';')) {
            if (*p == '"')
                quoted = !quoted;
            p++;
        }
        if (*p)
            *p++ = '\0';
        char *operands = has_operands ? op_end + 1 : op_end;
        *op_end = '\0';

        if (strcmp(op, "bm") == 0) {
            if (!parse_moves(run, "bm", operands, run->bm, &run->bm_count))
                return false;
        } else if (strcmp(op, "am") == 0) {
            if (!parse_moves(run, "am", operands, run->am, &run->am_count))
                return false;
        } else if (strcmp(op, "id") == 0) {
            char *s = operands;
            while (*s && (text_is_blank(*s) || *s == '"'))
                s++;
            size_t n = strlen(s);
            while (n > 0 && (text_is_blank(s[n - 1]) || s[n - 1] == '"'))
                n--;
            snprintf(run->id, sizeof run->id, "%.*s", (int)n, s);
        }
        // Other operations (c0, hmvc, ...) do not matter here.
    }
    if (run->bm_count == 0 && run->am_count == 0) {
        fprintf(stderr, "%s:%ld: no bm or am operation\n", run->file, run->line_no);
        return false;
    }
    return true;
}

static bool contains(const Move *moves, int count, Move m) {
    for (int i = 0; i < count; i++)
        if (moves[i] == m)
            return true;
    return false;
}

// Writes the moves of an operation in SAN, space-separated.
static void format_moves(EpdRun *run, const Move *moves, int count, char *buf, size_t bufsz) {
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < count && len < bufsz; i++) {
        char san[MOVE_TEXT_MAX];
        notation_to_san(&run->board, moves[i], san);
        int n = snprintf(buf + len, bufsz - len, "%s%s", i ? " " : "", san);
        if (n < 0)
            return;
        len += (size_t)n;
    }
}

// Searches one parsed position (on a worker thread).
static void search_position(Engine *engine, EpdRun *run, const SearchLimits *limits) {
    EngineQuery q;
    engine_query_init(&q);
    q.limits.movetime = limits->movetime;
    q.limits.depth = limits->depth;
    q.limits.nodes = limits->nodes;
    q.new_game = true; // each position on its own, not helped by the last
    engine_set_position(engine, &run->board, NULL, 0);
    (void)engine_search(engine, &q, &run->result); // nothing found: reported as such
}

// Prints the line of a searched position; returns true if solved.
static bool report(EpdRun *run) {
    int number = run->number;

    Move best = run->result.best;
    bool ok = best != MOVE_NONE && (!run->bm_count || contains(run->bm, run->bm_count, best)) &&
              !contains(run->am, run->am_count, best);
    char expected[EPD_MOVES_MAX * MOVE_TEXT_MAX + 8] = "";
    if (run->bm_count) {
        format_moves(run, run->bm, run->bm_count, expected, sizeof expected);
    } else {
        format_moves(run, run->am, run->am_count, expected, sizeof expected);
    }
    char found[MOVE_TEXT_MAX] = "none";
    if (best != MOVE_NONE)
        notation_to_san(&run->board, best, found);
    char score[32] = "?";
    int depth = 0;
    if (run->result.line_count > 0) {
        const EngineResult *i = &run->result;
        depth = i->depth;
        if (i->score >= VALUE_MATE_IN_MAX || i->score <= VALUE_MATED_IN_MAX)
            snprintf(score, sizeof score, "mate %d", i->mate);
        else
            snprintf(score, sizeof score, "%+.2f", i->score / 100.0);
    }
    printf("%d %s %s %s %s found %s (depth %d, score %s, %llu nodes)\n", number, run->id,
           ok ? "ok" : "FAIL", run->bm_count ? "bm" : "am", expected, found, depth, score,
           (unsigned long long)run->result.nodes);
    if (fflush(stdout) == EOF)
        perror("patzer epd: stdout");
    return ok;
}

static int usage_error(const char *why) {
    fprintf(stderr,
            "patzer epd: %s\nusage: patzer epd FILE [--movetime MS] [--depth N] [--nodes N]\n"
            "                 [--jobs N] [--eval-file NET|builtin|none]\n",
            why);
    return 2;
}

// The whole suite: its positions, one engine per job, and the tally.
typedef struct Suite {
    EpdRun *runs;
    int count, cap;
    Engine **engines;    // one per job
    SearchLimits limits; // movetime, depth and nodes: the same for every position
    int solved;
    uint64_t nodes; // over the searched positions
    bool output_failed;
} Suite;

static void work(int index, int worker, void *ctx) {
    Suite *s = ctx;
    EpdRun *run = &s->runs[index];
    if (run->usable)
        search_position(s->engines[worker], run, &s->limits);
}

static bool deliver(int index, void *ctx) {
    Suite *s = ctx;
    EpdRun *run = &s->runs[index];
    if (!run->usable) {
        printf("%d %s FAIL (unusable line, see the message)\n", run->number, run->id);
        if (fflush(stdout) == EOF) {
            perror("patzer epd: stdout");
            s->output_failed = true;
            return false;
        }
        return true;
    }
    if (report(run))
        s->solved++;
    s->nodes += run->result.nodes;
    return true;
}

// Reads and parses every position of f into s->runs; false when out of memory.
static bool read_suite(Suite *s, FILE *f, const char *path) {
    char *line = NULL;
    size_t cap = 0;
    long line_no = 0;
    bool ok = true;
    while (ok && getline(&line, &cap, f) != -1) {
        line_no++;
        char *p = line;
        while (*p && text_is_blank(*p))
            p++;
        if (!*p || *p == '#')
            continue;
        if (s->count == s->cap) {
            int bigger = s->cap ? s->cap * 2 : 64;
            EpdRun *r = realloc(s->runs, (size_t)bigger * sizeof *r);
            if (!r) {
                ok = false;
                break;
            }
            s->runs = r;
            s->cap = bigger;
        }
        EpdRun *run = &s->runs[s->count++];
        memset(run, 0, sizeof *run);
        run->file = path;
        run->line_no = line_no;
        run->number = s->count;
        snprintf(run->id, sizeof run->id, "line%ld", line_no);
        run->usable = parse_epd(run, p);
    }
    free(line);
    return ok;
}

static bool parse_option_number(const char *value, long long min, long long max, long long *out) {
    char *end;
    errno = 0;
    long long v = strtoll(value, &end, 10);
    if (errno || end == value || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

int cli_epd(int argc, char **argv) {
    const char *path = NULL;
    long long movetime = 0, depth = 0, nodes = 0, jobs = jobs_cores();
    const char *eval_file = NULL; // --eval-file: NET, builtin or none
    for (int i = 0; i < argc; i++) {
        static const char *const names[] = { "--movetime", "--depth", "--jobs", "--eval-file",
                                             "--nodes" };
        int which = -1;
        const char *value = NULL;
        for (int n = 0; n < 5 && which < 0; n++) {
            size_t len = strlen(names[n]);
            if (strcmp(argv[i], names[n]) == 0) {
                if (i + 1 >= argc) {
                    fprintf(stderr, "patzer epd: %s needs a value\n", names[n]);
                    return usage_error("bad arguments");
                }
                which = n;
                value = argv[++i];
            } else if (strncmp(argv[i], names[n], len) == 0 && argv[i][len] == '=') {
                which = n;
                value = argv[i] + len + 1;
            }
        }
        if (which < 0) {
            if (argv[i][0] == '-' && argv[i][1]) {
                fprintf(stderr, "patzer epd: unknown option '%s'\n", argv[i]);
                return usage_error("bad arguments");
            }
            if (path)
                return usage_error("only one FILE, please");
            path = argv[i];
        } else if (which == 0 && !parse_option_number(value, 1, 86400000, &movetime)) {
            return usage_error("--movetime takes milliseconds, 1 or more");
        } else if (which == 1 && !parse_option_number(value, 1, EPD_MAX_DEPTH, &depth)) {
            return usage_error("--depth takes a number from 1 to 126");
        } else if (which == 2 && !parse_option_number(value, 1, JOBS_MAX, &jobs)) {
            return usage_error("--jobs takes a number from 1 to 256");
        } else if (which == 3) {
            eval_file = value;
        } else if (which == 4 && !parse_option_number(value, 1, EPD_MAX_NODES, &nodes)) {
            return usage_error("--nodes takes a number from 1 to 10^12");
        }
    }
    if (!path)
        return usage_error("missing FILE");
    if (!movetime && !depth && !nodes)
        movetime = EPD_DEFAULT_MOVETIME_MS;

    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f) {
        fprintf(stderr, "patzer epd: cannot open %s: %s\n", path, strerror(errno));
        return 2;
    }
    Suite suite = {
        .limits = { .movetime = movetime, .depth = (int)depth, .nodes = (uint64_t)nodes },
    };
    bool read_ok = read_suite(&suite, f, path);
    bool read_error = ferror(f) != 0;
    if (f != stdin && fclose(f) != 0)
        read_error = true;
    if (read_error) {
        fprintf(stderr, "patzer epd: error reading %s\n", path);
        free(suite.runs);
        return 2;
    }
    int usable = 0;
    for (int i = 0; i < suite.count; i++)
        usable += suite.runs[i].usable;
    if (read_ok && usable == 0) {
        // Not a suite with failures but no suite at all: nothing to report as run.
        fprintf(stderr,
                "patzer epd: %s has no usable EPD line (a FEN's first four fields, "
                "then operations such as bm Qd5; id \"x\";)\n",
                path);
        free(suite.runs);
        return 2;
    }
    int njobs = suite.count < (int)jobs ? suite.count : (int)jobs;
    if (njobs < 1)
        njobs = 1;
    suite.engines = calloc((size_t)njobs, sizeof *suite.engines);
    bool memory = read_ok && suite.engines;
    for (int i = 0; memory && i < njobs; i++)
        memory = (suite.engines[i] = engine_new()) != NULL;
    // One net for all the engines, which only read it.
    NetFile net = { 0 };
    char msg[NNUE_DESC_MAX + 1200];
    bool net_ok = !memory || netfile_choose(&net, suite.engines[0], eval_file, msg, sizeof msg);
    for (int i = 1; memory && i < njobs; i++)
        engine_set_net(suite.engines[i], net.net);
    if (!net_ok)
        fprintf(stderr, "patzer epd: %s\n", msg);
    else if (memory)
        jobs_run(njobs, suite.count, work, deliver, &suite);
    if (memory)
        netfile_release(&net, suite.engines[0]);
    for (int i = 0; suite.engines && i < njobs; i++)
        engine_free(suite.engines[i]);
    free(suite.engines);
    free(suite.runs);
    if (!memory) {
        fputs("patzer epd: out of memory\n", stderr);
        return 2;
    }
    if (!net_ok || suite.output_failed)
        return 2;
    // Nodes, not time: at a fixed depth or node count the report stays the same for any
    // --jobs and any load, and two builds or evaluations compare by it.
    printf("searched %llu nodes\n", (unsigned long long)suite.nodes);
    printf("solved %d of %d\n", suite.solved, suite.count);
    return fflush(stdout) == EOF ? 2 : 0;
}
