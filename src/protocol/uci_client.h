// SPDX-License-Identifier: GPL-3.0-or-later
// A client for an external UCI engine (Stockfish, Ethereal, ...): runs the
// engine as a child process on two pipes, does the `uci`/`uciok` handshake,
// and then drives searches the way engine/engine.h drives the built-in one:
// uci_client_go returns at once and the results arrive through callbacks
// that run ON THE CLIENT'S READER THREAD. Every move the engine names is
// checked against the legal moves of the position searched: a PV stops at
// the first move that is not legal, and a bestmove that is not legal (or
// missing) is reported through on_failure, never passed on as a move.
//
// The line parsers are public and pure, for the tests.
#ifndef SRC_PROTOCOL_UCI_CLIENT_H
#define SRC_PROTOCOL_UCI_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/engine.h"
#include "engine/search.h"

enum {
    UCI_OPTION_NAME_MAX = 64,
    UCI_OPTION_VALUE_MAX = 128,
    UCI_OPTION_VARS_MAX = 256,
    UCI_NAME_MAX = 128,
    UCI_ERROR_MAX = 512,
};

typedef enum { UCI_SPIN, UCI_CHECK, UCI_COMBO, UCI_BUTTON, UCI_STRING } UciOptionType;

// One `option name ... type ...` line of the engine.
typedef struct UciOption {
    char name[UCI_OPTION_NAME_MAX];
    UciOptionType type;
    char def[UCI_OPTION_VALUE_MAX];   // the default (empty when none)
    int min, max;                     // UCI_SPIN
    char vars[UCI_OPTION_VARS_MAX];   // UCI_COMBO: the values, separated by '\t'
    char value[UCI_OPTION_VALUE_MAX]; // what we last set it to (the default at first)
} UciOption;

// ------------------------------------------------------------ line parsing

// `option name Skill Level type spin default 20 min -20 max 20`: false for
// any other line or a line without a name or a known type.
bool uci_parse_option(const char *line, UciOption *opt);
// `info ... score ... [pv ...]`: false for an info without a score (info
// string, currmove...) or a line that is not an info. The PV's moves are
// read against root and stop at the first one that is not legal there.
bool uci_parse_info(const char *line, const Board *root, SearchInfo *info);

typedef enum {
    UCI_BEST_MOVE,    // a legal move (in *best; *ponder may be MOVE_NONE)
    UCI_BEST_NONE,    // `bestmove (none)` or `0000`: no move (right only without legal moves)
    UCI_BEST_ILLEGAL, // a move that is not legal in root (its text in text)
    UCI_BEST_GARBLED, // a bestmove line without a move
    UCI_BEST_NOT,     // not a bestmove line
} UciBest;
// `bestmove e2e4 [ponder e7e5]`. text (MOVE_TEXT_MAX-ish, at least 16 bytes)
// gets the move as the engine wrote it.
UciBest uci_parse_bestmove(const char *line, const Board *root, Move *best, Move *ponder,
                           char *text, size_t textsz);

// The `go ...` line for the limits (without a newline); searchmoves last.
void uci_format_go(const SearchLimits *limits, char *buf, size_t bufsz);
// Checks a value for an option: false with the reason in err. A value of a
// combo is replaced by its spelling in the engine's list, a check's by
// true or false.
bool uci_option_check(const UciOption *opt, char *value, size_t valuesz, char *err, size_t errsz);

// ------------------------------------------------------------ the engine process

typedef struct UciClient UciClient;

typedef struct UciCallbacks {
    void (*on_info)(const SearchInfo *info, void *ctx);
    // Once per uci_client_go, when the engine says bestmove with a legal move
    // (MOVE_NONE when the position has no legal move).
    void (*on_bestmove)(Move best, Move ponder, void *ctx);
    // Instead of on_bestmove: the engine named an illegal move or none, or
    // died during the search (uci_client_error says what happened).
    void (*on_failure)(void *ctx);
    void *ctx;
} UciCallbacks;

// Starts the engine: argv[0] is looked up in PATH (and in /usr/games, where
// Debian puts engines). Waits up to timeout_ms for uciok and then readyok.
// NULL with the reason in err (not found, exited, no answer in time). The
// engine is in its own process group (a Ctrl-C at the terminal is ours to
// handle) and, on Linux, dies with us. SIGPIPE is ignored from then on, so
// that a dead engine is an error on write, not the end of the program.
UciClient *uci_client_start(char *const argv[], int timeout_ms, char *err, size_t errsz);
// Stops a search, sends quit, waits a moment for the process and kills it
// if it is still there; reaps it in every case.
void uci_client_free(UciClient *c);

// `id name`, or the command when the engine gave none.
const char *uci_client_name(const UciClient *c);
int uci_client_option_count(const UciClient *c);
const UciOption *uci_client_option(const UciClient *c, int index);
// By name, case-insensitive; NULL when the engine did not declare it.
const UciOption *uci_client_find_option(const UciClient *c, const char *name);
// Checks and sends `setoption`; with only_if_changed, nothing is sent when the
// option already has that value. False with the reason in err.
bool uci_client_set_option(UciClient *c, const char *name, const char *value, bool only_if_changed,
                           char *err, size_t errsz);

// ucinewgame, then isready; false when the engine did not answer in time.
bool uci_client_new_game(UciClient *c, int timeout_ms);
// Starts a search of the position after moves[0..n) from start; returns at
// once (false, with uci_client_error set, when the engine is gone). A search
// still running is stopped and waited for first.
bool uci_client_go(UciClient *c, const Board *start, const Move *moves, int n,
                   const SearchLimits *limits, const UciCallbacks *cb);
// Asks the engine to stop; its bestmove still comes through the callbacks.
void uci_client_stop(UciClient *c);
// Waits until the search has reported; false when it did not within timeout_ms.
bool uci_client_wait(UciClient *c, int timeout_ms);
bool uci_client_alive(UciClient *c);
// A blocking search, as engine_search is for the built-in engine: `lines`
// lines (MultiPV, when the engine has the option; else one), go, and a wait
// of timeout_ms, then stop and stop_ms more. The lines of the deepest
// iteration whose lines all came go to out (engine/engine.h's collector).
// False when the engine failed (uci_client_error may say how), named an
// illegal move, or did not answer in time.
bool uci_client_search(UciClient *c, const Board *start, const Move *moves, int n,
                       const SearchLimits *limits, int lines, int timeout_ms, int stop_ms,
                       EngineResult *out);
// What went wrong last (empty when nothing did).
void uci_client_error(UciClient *c, char *buf, size_t bufsz);

#endif
