// SPDX-License-Identifier: GPL-3.0-or-later
// The engine facade: a small non-blocking interface to everything the search
// needs. An Engine owns the position to search (with its game history, for
// repetitions), the transposition table, the opening book, the options and
// one search thread. engine_go returns at once; results arrive through
// callbacks that run ON THE SEARCH THREAD, so a client must hand them over
// to its own thread if it needs to (the protocols just print under a lock).
// The engine never prints and never exits.
#ifndef ENGINE_ENGINE_H
#define ENGINE_ENGINE_H

#include "engine/nnue.h"
#include "engine/search.h"

typedef struct Engine Engine;

typedef struct EngineCallbacks {
    // After each completed iteration (one call per MultiPV line) and for
    // aspiration fail-high/low reports in long searches.
    void (*on_info)(const SearchInfo *info, void *ctx);
    // Exactly once per engine_go, when the search is over. In infinite or
    // ponder mode only after engine_stop (or engine_ponderhit and the end
    // of the timed search). best is MOVE_NONE when there is no legal move.
    void (*on_bestmove)(Move best, Move ponder, void *ctx);
    void *ctx;
} EngineCallbacks;

// A new engine with default options (16 MB hash, own book off until a book
// is set). NULL when out of memory. Costs almost nothing: the hash table is
// made when the Hash option or the first search fixes its size, and the book
// is read when a search first wants a move from it.
Engine *engine_new(void);
// Stops any search, joins the thread and frees everything.
void engine_free(Engine *e);

// Sets the position to search: b is copied, with the keys of the nkeys
// positions before it (oldest first, as a Line holds them; NULL and 0 for
// none), so that repetitions of earlier positions of the game are seen. Must
// not be called while a search runs (call engine_stop and engine_wait first).
void engine_set_position(Engine *e, const Board *b, const Key *keys, int nkeys);
// The current position (read-only; stable while no search runs).
const Board *engine_position(const Engine *e);

// Starts a search with the limits; returns at once. A search already running
// is stopped and waited for first. When the hash table cannot be had (out of
// memory), on_bestmove reports MOVE_NONE at once, on the calling thread.
void engine_go(Engine *e, const SearchLimits *limits, const EngineCallbacks *cb);
// Asks the running search to stop soon; it still reports its best move.
void engine_stop(Engine *e);
// Blocks until the running search (if any) has finished and reported.
void engine_wait(Engine *e);
// ------------------------------------------------------------ blocking search

// What a blocking search is asked: its limits (depth, nodes, movetime,
// searchmoves, ...; a limit must be set, or it never ends), the lines to
// score, and an optional observer of every report.
typedef struct EngineQuery {
    SearchLimits limits;
    int multipv;          // lines to score, 1..MAX_MULTIPV (0: 1)
    bool new_game;        // forget the table and the history first (engine_new_game),
                          // so that a search with a node or depth limit on one thread
                          // gives the same result every time
    SearchInfoFn on_info; // also sees every report, ON THE SEARCH THREAD (NULL: none)
    void *ctx;
} EngineQuery;

// One scored line of the deepest iteration a search completed.
typedef struct EngineLine {
    int score; // centipawns from the side to move's view, or a mate score
    int mate;  // 0, or mate in N moves (negative: getting mated)
    Move pv[MAX_PLY];
    int pv_length; // >= 1
} EngineLine;

// What it found.
typedef struct EngineResult {
    Move best, ponder; // the move the search settled on; MOVE_NONE with no legal move
    // The lines of the deepest completed iteration, best first (line_count
    // 0: none completed, only best is known). lines[0] is the PV; score and
    // mate repeat its own for convenience.
    int depth, line_count;
    int score, mate;
    EngineLine lines[MAX_MULTIPV];
    uint64_t nodes;
    int64_t time_ms;
} EngineResult;

// A query with no limit, one line and no observer.
void engine_query_init(EngineQuery *q);
// Searches the engine's position (engine_set_position) with q and fills out;
// blocks until the search is over. The search runs at full strength in
// analysis mode (no book, no contempt) with q->multipv lines, and the
// engine's own strength, analysis and MultiPV options are restored before it
// returns. engine_stop from another thread ends it early (out then holds
// what was found so far). False when nothing could be searched: no memory,
// or no legal move (then out->best is MOVE_NONE).
bool engine_search(Engine *e, const EngineQuery *q, EngineResult *out);

// The reports of a search gathered into a result as engine_search does,
// for searches run another way (an external engine): the lines of the
// deepest iteration whose `lines` exact lines have all been reported. best
// and ponder are the caller's to fill.
typedef struct EngineCollector {
    EngineResult *out;
    int want, depth, count;
    EngineLine lines[MAX_MULTIPV];
} EngineCollector;
void engine_collector_init(EngineCollector *c, EngineResult *out, int lines);
void engine_collector_info(EngineCollector *c, const SearchInfo *info);

// The expected reply was played while pondering: switch to the clock.
void engine_ponderhit(Engine *e);
bool engine_is_searching(Engine *e);
// Forgets the game: clears the hash table and history statistics.
void engine_new_game(Engine *e);

// Evaluates with the network net (engine/nnue.h) from the next search on, or with the
// hand-crafted evaluation for NULL. The engine only borrows it: the caller keeps it alive
// and unchanged until engine_set_net(e, NULL) or engine_free. Stops and waits for a search
// that is running; a new net also clears the hash table and the history (as a new game).
void engine_set_net(Engine *e, const NnueNet *net);
const NnueNet *engine_net(const Engine *e);

// Strength levels 1..ENGINE_LEVEL_MAX; the top level is full strength. Each
// level has an Elo label measured by matches (see docs/engine.md); the options
// UCI_LimitStrength and UCI_Elo choose the level nearest the Elo asked for.
// -e, elo = N and the elo command accept ENGINE_ELO_MIN..ENGINE_ELO_MAX: the
// labels of levels 1 and ENGINE_LEVEL_MAX (test_skill checks they agree).
enum { ENGINE_LEVEL_MAX = 20, ENGINE_ELO_MIN = 810, ENGINE_ELO_MAX = 2580 };
int engine_level_elo(int level);
int engine_level_for_elo(int elo);
// Sets the level directly (ENGINE_LEVEL_MAX: full strength).
// Also sets the options: UCI_LimitStrength true below the top level, and
// UCI_Elo to the level's label.
void engine_set_level(Engine *e, int level);
// The level searches use (from engine_set_level or the UCI options).
int engine_level(const Engine *e);
// Seeds the generator behind weakened play and the book's choice (seeded from
// the clock by engine_new), to make a game reproducible.
void engine_set_seed(Engine *e, uint64_t seed);

// Options, described for protocol front ends (UCI "option" lines).
typedef enum { OPTION_SPIN, OPTION_CHECK, OPTION_STRING, OPTION_BUTTON } OptionType;
typedef struct EngineOption {
    const char *name;
    OptionType type;
    const char *default_value;
    int min, max;
} EngineOption;
int engine_option_count(void);
const EngineOption *engine_option(int index);
// Sets an option by (case-insensitive) name. Returns false with the reason
// in err for an unknown name, a bad value or a book that fails to load.
bool engine_set_option(Engine *e, const char *name, const char *value, char *err, size_t errsz);
// The current value of an option as text (into buf); false if unknown.
bool engine_get_option(const Engine *e, const char *name, char *buf, size_t bufsz);

#endif
