// SPDX-License-Identifier: GPL-3.0-or-later
// The UCI front end: reads commands line by line, keeps the position for the
// next search and prints the engine's reports. Search callbacks print too,
// from the search thread, so all output goes through one lock.
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/engine.h"
#include "engine/fen.h"
#include "engine/line.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "src/protocol/protocol.h"
#include "src/util/netfile.h"
#include "src/util/paths.h"
#include "src/util/text.h"

enum {
    FEN_TEXT_MAX = 256,     // longest FEN text we try to parse
    OPTION_TEXT_MAX = 1024, // longest option name or value
    ECHO_MAX = 60,          // how much of a bad input we quote back
    UCI_PERFT_MAX = 8,      // perft blocks the command loop, so keep it short
};

// A line longer than this is refused rather than parsed (a move list of a
// few thousand plies is well under it).
static const size_t LINE_MAX_BYTES = (size_t)4 << 20;

typedef struct Uci {
    FILE *out;
    Engine *engine;
    pthread_mutex_t out_lock; // serialises output of both threads
    atomic_bool out_broken;   // a write failed: the GUI is gone
    Line line;                // the game the next `go` searches
    Line scratch;             // a game being built by `position`
    NetFile net;              // the net of EvalFile while UseNNUE is on
} Uci;

// ------------------------------------------------------------------ output

static void out_begin(Uci *u) {
    pthread_mutex_lock(&u->out_lock);
}

static void out_end(Uci *u) {
    if (fflush(u->out) == EOF || ferror(u->out))
        atomic_store(&u->out_broken, true);
    pthread_mutex_unlock(&u->out_lock);
}

// Prints one whole line (the newline is added) and flushes it.
__attribute__((format(printf, 2, 3))) static void say(Uci *u, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    out_begin(u);
    if (vfprintf(u->out, fmt, ap) < 0 || fputc('\n', u->out) == EOF)
        atomic_store(&u->out_broken, true);
    out_end(u);
    va_end(ap);
}

// ------------------------------------------------------------------ words

// Copies the next word at cursor into buf (cut to fit) without consuming it.
static void peek_word(const char *cursor, char *buf, size_t bufsz) {
    while (*cursor && text_is_blank(*cursor))
        cursor++;
    size_t n = 0;
    while (cursor[n] && !text_is_blank(cursor[n]) && n + 1 < bufsz) {
        buf[n] = cursor[n];
        n++;
    }
    buf[n] = '\0';
}

// ------------------------------------------------------------------ search reports

static void on_info(const SearchInfo *info, void *ctx) {
    Uci *u = ctx;
    out_begin(u);
    fprintf(u->out, "info depth %d seldepth %d multipv %d ", info->depth, info->seldepth,
            info->multipv);
    if (info->score >= VALUE_MATE_IN_MAX || info->score <= VALUE_MATED_IN_MAX)
        fprintf(u->out, "score mate %d", info->mate);
    else
        fprintf(u->out, "score cp %d", info->score);
    if (info->bound == BOUND_LOWER)
        fputs(" lowerbound", u->out);
    else if (info->bound == BOUND_UPPER)
        fputs(" upperbound", u->out);
    fprintf(u->out, " nodes %" PRIu64 " nps %" PRIu64 " hashfull %d time %" PRId64, info->nodes,
            info->nps, info->hashfull, info->time_ms);
    if (info->pv_length > 0) {
        fputs(" pv", u->out);
        for (int i = 0; i < info->pv_length; i++) {
            char move[MOVE_TEXT_MAX];
            // Any board of the game serves: castling squares do not change.
            notation_to_uci_in(engine_position(u->engine), info->pv[i], move);
            fprintf(u->out, " %s", move);
        }
    }
    if (fputc('\n', u->out) == EOF)
        atomic_store(&u->out_broken, true);
    out_end(u);
}

static void on_bestmove(Move best, Move ponder, void *ctx) {
    Uci *u = ctx;
    char b[MOVE_TEXT_MAX], p[MOVE_TEXT_MAX];
    const Board *root = engine_position(u->engine); // stable until the next go
    notation_to_uci_in(root, best, b);              // MOVE_NONE prints as 0000, as UCI wants
    if (best != MOVE_NONE && ponder != MOVE_NONE) {
        notation_to_uci_in(root, ponder, p);
        say(u, "bestmove %s ponder %s", b, p);
    } else {
        say(u, "bestmove %s", b);
    }
}

// ------------------------------------------------------------------ commands

static void cmd_uci(Uci *u) {
    say(u, "id name patzer %s", PACKAGE_VERSION);
    say(u, "id author the patzer developers");
    for (int i = 0; i < engine_option_count(); i++) {
        const EngineOption *o = engine_option(i);
        switch (o->type) {
        case OPTION_SPIN:
            say(u, "option name %s type spin default %s min %d max %d", o->name, o->default_value,
                o->min, o->max);
            break;
        case OPTION_CHECK:
            say(u, "option name %s type check default %s", o->name, o->default_value);
            break;
        case OPTION_STRING:
            // UCI has no way to write an empty default but "<empty>".
            say(u, "option name %s type string default %s", o->name,
                *o->default_value ? o->default_value : "<empty>");
            break;
        case OPTION_BUTTON: say(u, "option name %s type button", o->name); break;
        }
    }
    say(u, "uciok");
}

// setoption name <id, may have spaces> [value <x, may have spaces>]
static void cmd_setoption(Uci *u, char *rest) {
    char *w = text_next_word(&rest);
    if (!w || strcmp(w, "name") != 0) {
        say(u, "info string setoption: expected 'name'");
        return;
    }
    char name[OPTION_TEXT_MAX] = "";
    size_t len = 0;
    const char *value = NULL;
    while ((w = text_next_word(&rest)) != NULL) {
        if (strcmp(w, "value") == 0) {
            value = text_trim(rest); // the raw rest keeps the spacing of file names
            break;
        }
        size_t wl = strlen(w);
        if (len + wl + 2 > sizeof name) {
            say(u, "info string setoption: option name too long");
            return;
        }
        if (len)
            name[len++] = ' ';
        memcpy(name + len, w, wl + 1);
        len += wl;
    }
    if (!len) {
        say(u, "info string setoption: missing option name");
        return;
    }
    char err[256];
    if (!engine_set_option(u->engine, name, value, err, sizeof err)) {
        say(u, "info string setoption: %s", err);
        return;
    }
    // The net is read here, between searches, and what happened is said either way.
    if (strcasecmp(name, "EvalFile") == 0 || strcasecmp(name, "UseNNUE") == 0) {
        char msg[NNUE_DESC_MAX + 1200];
        if (netfile_sync(&u->net, u->engine, msg, sizeof msg) != NETFILE_QUIET)
            say(u, "info string %s", msg);
    }
}

// position startpos|fen <fen> [moves m1 m2 ...]. Nothing changes unless the
// whole command is valid.
static void cmd_position(Uci *u, char *rest) {
    char *w = text_next_word(&rest);
    char err[160];
    Board start;
    if (w && strcmp(w, "startpos") == 0) {
        board_set_start(&start);
        w = text_next_word(&rest);
    } else if (w && strcmp(w, "fen") == 0) {
        char fen[FEN_TEXT_MAX] = "";
        size_t len = 0;
        while ((w = text_next_word(&rest)) != NULL && strcmp(w, "moves") != 0) {
            size_t wl = strlen(w);
            if (len + wl + 2 > sizeof fen) {
                say(u, "info string position: FEN too long; position unchanged");
                return;
            }
            if (len)
                fen[len++] = ' ';
            memcpy(fen + len, w, wl + 1);
            len += wl;
        }
        if (!board_set_fen(&start, fen, err, sizeof err)) {
            say(u, "info string position: bad FEN '%s': %s; position unchanged", fen, err);
            return;
        }
    } else {
        say(u, "info string position: expected 'startpos' or 'fen'");
        return;
    }
    if (w && strcmp(w, "moves") != 0) {
        say(u, "info string position: expected 'moves', got '%.*s'; position unchanged", ECHO_MAX,
            w);
        return;
    }
    char chess960[8] = "";
    if (engine_get_option(u->engine, "UCI_Chess960", chess960, sizeof chess960) &&
        strcmp(chess960, "true") == 0)
        start.chess960 = true;
    line_init(&u->scratch, &start);
    int ply = 0;
    while (w && (w = text_next_word(&rest)) != NULL) {
        Move m;
        ply++;
        if (notation_parse_uci(&u->scratch.board, w, &m) != NOTATION_OK) {
            say(u,
                "info string position: illegal move '%.*s' (move %d of the list); "
                "position unchanged",
                ECHO_MAX, w, ply);
            return;
        }
        line_play(&u->scratch, m);
    }
    u->line = u->scratch;
}

static bool is_go_keyword(const char *w) {
    static const char *const keys[] = { "wtime",     "btime",    "winc",   "binc",
                                        "movestogo", "depth",    "nodes",  "mate",
                                        "movetime",  "infinite", "ponder", "searchmoves" };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(w, keys[i]) == 0)
            return true;
    return false;
}

// Reads the number after a go keyword; complains and returns false if bad.
static bool go_number(Uci *u, const char *key, char **rest, int64_t min, int64_t max,
                      int64_t *out) {
    char peek[16];
    peek_word(*rest, peek, sizeof peek);
    if (!*peek || is_go_keyword(peek)) {
        say(u, "info string go: missing value for %s", key); // the keyword is read next
        return false;
    }
    char *w = text_next_word(rest);
    if (text_parse_i64(w, min, max, out))
        return true;
    say(u, "info string go: bad value '%.*s' for %s", ECHO_MAX, w, key);
    return false;
}

// With no legal move the search can only answer "bestmove 0000"; the reason
// is said first, so that the GUI's user is not left guessing.
static void say_if_no_legal_move(Uci *u) {
    const Board *b = &u->line.board;
    if (movegen_count(b) == 0)
        say(u, "info string no legal moves: %s", board_in_check(b) ? "checkmate" : "stalemate");
}

static void cmd_go(Uci *u, char *rest) {
    SearchLimits limits;
    search_limits_init(&limits);
    const int64_t big = INT64_C(1) << 50;
    char *w;
    int64_t v;
    while ((w = text_next_word(&rest)) != NULL) {
        if (strcmp(w, "wtime") == 0 || strcmp(w, "btime") == 0) {
            // Some GUIs send a negative time once the flag has fallen.
            if (go_number(u, w, &rest, -big, big, &v))
                limits.time[w[0] == 'w' ? WHITE : BLACK] = v < 0 ? 0 : v;
        } else if (strcmp(w, "winc") == 0 || strcmp(w, "binc") == 0) {
            if (go_number(u, w, &rest, -big, big, &v))
                limits.inc[w[0] == 'w' ? WHITE : BLACK] = v < 0 ? 0 : v;
        } else if (strcmp(w, "movestogo") == 0) {
            if (go_number(u, w, &rest, 0, 100000, &v))
                limits.movestogo = (int)v;
        } else if (strcmp(w, "depth") == 0) {
            if (go_number(u, w, &rest, 1, big, &v))
                limits.depth = v >= MAX_PLY ? MAX_PLY - 1 : (int)v;
        } else if (strcmp(w, "nodes") == 0) {
            if (go_number(u, w, &rest, 1, INT64_MAX, &v))
                limits.nodes = (uint64_t)v;
        } else if (strcmp(w, "mate") == 0) {
            if (go_number(u, w, &rest, 1, big, &v))
                limits.mate = v > MAX_PLY / 2 ? MAX_PLY / 2 : (int)v;
        } else if (strcmp(w, "movetime") == 0) {
            if (go_number(u, w, &rest, 0, big, &v))
                limits.movetime = v > 0 ? v : 1;
        } else if (strcmp(w, "infinite") == 0) {
            limits.infinite = true;
        } else if (strcmp(w, "ponder") == 0) {
            limits.ponder = true;
        } else if (strcmp(w, "searchmoves") == 0) {
            for (;;) {
                char peek[16];
                peek_word(rest, peek, sizeof peek);
                if (!*peek || is_go_keyword(peek))
                    break; // the keyword that ends the list is read next
                w = text_next_word(&rest);
                Move m;
                if (notation_parse_uci(&u->line.board, w, &m) != NOTATION_OK)
                    say(u, "info string go: searchmoves: illegal move '%.*s' ignored", ECHO_MAX, w);
                else if (limits.searchmoves_count < MAX_MOVES)
                    limits.searchmoves[limits.searchmoves_count++] = m;
            }
        } else {
            say(u, "info string go: unknown parameter '%.*s' ignored", ECHO_MAX, w);
        }
    }
    // The position may be changed only while no search runs.
    engine_stop(u->engine);
    engine_wait(u->engine);
    engine_set_position(u->engine, &u->line.board, u->line.keys, u->line.ply);
    say_if_no_legal_move(u);
    EngineCallbacks cb = { .on_info = on_info, .on_bestmove = on_bestmove, .ctx = u };
    engine_go(u->engine, &limits, &cb);
}

// `d`: the current position, for people debugging by hand.
static void cmd_display(Uci *u) {
    char fen[FEN_MAX];
    board_to_fen(&u->line.board, fen, sizeof fen);
    static const char glyphs[] = "PpNnBbRrQqKk";
    out_begin(u);
    for (int rank = 7; rank >= 0; rank--) {
        fputs(" ", u->out);
        for (int file = 0; file < 8; file++) {
            Piece p = board_piece_on(&u->line.board, make_square(file, rank));
            fprintf(u->out, " %c", p == NO_PIECE ? '.' : glyphs[p]);
        }
        fprintf(u->out, "  %d\n", rank + 1);
    }
    fprintf(u->out, "   a b c d e f g h\nFen: %s\nKey: %016" PRIx64 "\n", fen, u->line.board.key);
    out_end(u);
}

static void cmd_perft(Uci *u, char *rest) {
    int64_t depth;
    char *w = text_next_word(&rest);
    if (!text_parse_i64(w, 0, UCI_PERFT_MAX, &depth)) {
        say(u, "info string perft: depth must be a number from 0 to %d", UCI_PERFT_MAX);
        return;
    }
    PerftDivide *d = malloc(sizeof *d);
    if (!d) {
        say(u, "info string perft: out of memory");
        return;
    }
    Board b = u->line.board;
    int64_t start = search_now_ms();
    perft_divide(&b, (int)depth, d);
    int64_t ms = search_now_ms() - start;
    for (int i = 0; i < d->count; i++) {
        char move[MOVE_TEXT_MAX];
        notation_to_uci_in(&b, d->moves[i], move);
        say(u, "%s: %" PRIu64, move, d->counts[i]);
    }
    say(u, "\nNodes searched: %" PRIu64 " (%" PRId64 " ms)", d->total, ms);
    free(d);
}

// Runs one command line (modified in place); returns true on `quit`.
static bool uci_command(Uci *u, char *line) {
    if (strlen(line) > LINE_MAX_BYTES) {
        say(u, "info string line of %zu bytes is too long, ignored", strlen(line));
        return false;
    }
    char *rest = line;
    char *w;
    // UCI asks to skip unknown words and try the rest of the line.
    const char *unknown = NULL;
    while ((w = text_next_word(&rest)) != NULL) {
        bool known = true;
        if (strcmp(w, "uci") == 0)
            cmd_uci(u);
        else if (strcmp(w, "isready") == 0)
            say(u, "readyok");
        else if (strcmp(w, "setoption") == 0)
            cmd_setoption(u, rest);
        else if (strcmp(w, "ucinewgame") == 0)
            engine_new_game(u->engine);
        else if (strcmp(w, "position") == 0)
            cmd_position(u, rest);
        else if (strcmp(w, "go") == 0)
            cmd_go(u, rest);
        else if (strcmp(w, "stop") == 0)
            engine_stop(u->engine);
        else if (strcmp(w, "ponderhit") == 0)
            engine_ponderhit(u->engine);
        else if (strcmp(w, "quit") == 0)
            return true;
        else if (strcmp(w, "d") == 0)
            cmd_display(u);
        else if (strcmp(w, "perft") == 0)
            cmd_perft(u, rest);
        else if (strcmp(w, "debug") == 0 || strcmp(w, "register") == 0)
            ; // nothing to debug or register
        else
            known = false;
        if (known) {
            if (unknown)
                say(u, "info string ignored unknown words before '%s'", w);
            return false;
        }
        if (!unknown)
            unknown = w;
    }
    if (unknown)
        say(u, "info string unknown command '%.*s'", ECHO_MAX, unknown);
    return false;
}

// Control bytes are no part of UCI: read as blanks, so that the rest of the
// line is still parsed as the protocol asks (a NUL would end it instead),
// and said once per line, never echoed raw.
static void scrub_controls(Uci *u, char *line, size_t len) {
    int first = text_first_control(line, len), count = 0;
    for (size_t i = first < 0 ? len : 0; i < len; i++) {
        if (text_first_control(line + i, 1) >= 0) {
            line[i] = ' ';
            count++;
        }
    }
    if (count)
        say(u, "info string ignored %d control byte%s (the first 0x%02X)", count,
            count == 1 ? "" : "s", first);
}

int uci_run(FILE *in, FILE *out, const char *first_line) {
    Uci *u = calloc(1, sizeof *u);
    if (!u) {
        fputs("patzer: out of memory\n", stderr);
        return 1;
    }
    u->out = out;
    u->engine = engine_new();
    if (!u->engine) {
        fputs("patzer: out of memory for the engine\n", stderr);
        free(u);
        return 1;
    }
    paths_set_default_book(u->engine);
    char msg[NNUE_DESC_MAX + 1200];
    if (netfile_sync(&u->net, u->engine, msg, sizeof msg) == NETFILE_ERROR)
        fprintf(out, "info string %s\n", msg);
    if (pthread_mutex_init(&u->out_lock, NULL) != 0) {
        fputs("patzer: cannot create a mutex\n", stderr);
        engine_free(u->engine);
        free(u);
        return 1;
    }
    atomic_init(&u->out_broken, false);
    Board start;
    board_set_start(&start);
    line_init(&u->line, &start);

    bool quit = false;
    if (first_line) {
        char *copy = strdup(first_line);
        if (copy) {
            quit = uci_command(u, copy);
            free(copy);
        }
    }
    char *line = NULL;
    size_t cap = 0;
    // End of input counts as quit: the GUI has gone away.
    ssize_t len;
    while (!quit && !atomic_load(&u->out_broken) && (len = getline(&line, &cap, in)) != -1) {
        scrub_controls(u, line, (size_t)len);
        quit = uci_command(u, line);
    }
    free(line);

    engine_stop(u->engine);
    engine_wait(u->engine); // the last bestmove is still printed
    netfile_release(&u->net, u->engine);
    engine_free(u->engine);
    pthread_mutex_destroy(&u->out_lock);
    free(u);
    return 0;
}
