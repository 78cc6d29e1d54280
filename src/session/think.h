// SPDX-License-Identifier: GPL-3.0-or-later
// The session's engine link (think.c, engine_cmd.c): the built-in engine or
// an external UCI one, one request at a time, its replies turned into the
// lines the screen shows; and the external engine as the review's evaluator
// (review_uci.c).
#ifndef SRC_SESSION_THINK_H
#define SRC_SESSION_THINK_H

#include "src/game/review.h"
#include "src/protocol/uci_client.h"
#include "src/session/command.h"
#include "src/util/eventq.h"
#include "src/session/session.h"
#include "src/util/netfile.h"

// The session's engine, shared by play (moves, hints) and analysis: one
// request at a time, replies to older requests dropped as stale.

typedef enum { REQ_NONE, REQ_MOVE, REQ_HINT, REQ_ANALYSIS } RequestKind;

typedef struct Think {
    Engine *engine;
    NetFile net; // the net of the engine's EvalFile while UseNNUE is on
    EventQueue *events;
    unsigned request; // id of the current request (read by the search thread)
    RequestKind kind;
    unsigned gen; // generation of the game the request was made for
    bool busy;
    int engine_score; // the engine's last exact score, from its own side
    int lines;        // MultiPV of the current request
    int done_depth;   // the last depth whose lines were all reported
    Board root;       // the position searched, to turn PVs into SAN
    SessionThinking thinking;
    // An external UCI engine (`engine CMD`) in place of the built-in one for
    // moves, hints and analysis; NULL: the built-in engine.
    Session *session; // for messages about it
    UciClient *uci;
    char uci_command[COMMAND_TEXT_MAX];
    // Its command's words, each ended by a NUL, to start another instance
    // of it (the review's).
    char uci_args[COMMAND_TEXT_MAX];
    int uci_argc;
    bool elo_said; // its strength limit was explained once
    bool fallback; // the built-in engine answers the current request instead
    // The current request, to hand it to the built-in engine when the
    // external one fails.
    Board start;
    Move moves[GAME_MAX_PLIES];
    Key keys[GAME_MAX_PLIES];
    int plies;
    SearchLimits limits;
    int level;
} Think;

void think_cancel(Think *t);
// Asks the search to end now; its best move arrives as usual.
void think_stop(Think *t);
// A new game: the engine forgets what it learnt.
void think_new_game(Think *t);
// EV_ENGINE_FAILED of the current request: says what the external engine
// did and has the built-in engine answer the request instead (for good when
// the external engine is gone).
void think_failed(Think *t);
// Uses the external engine started by the words of argv (false, with the
// reason said, when it does not start: the engine in use stays), or the
// built-in one (argv NULL).
bool think_use_engine(Think *t, char *const argv[]);
// `engine ...`: the engine in use, its options, setting them, changing engine.
void think_engine_command(Think *t, const char *arg);
void think_free(Think *t);
// Ends the external engine (if any) without touching the request in flight:
// the built-in engine is the one in use from then on.
void think_drop_uci(Think *t);
// The name of the engine in use, for messages: "patzer" or the external one's.
const char *think_engine_name(const Think *t);
// Sets the engine's search threads; 0 means one per core.
void think_set_threads(Think *t, int threads);
// The game's own contempt, phase-dependent (50/25/0 cp at 100%), whatever the
// UCI default is: set on the built-in engine when the session starts.
enum { THINK_CONTEMPT_PERCENT = 100 };
void think_set_contempt(Think *t, int percent);
// The contempt in centipawns the game uses for its draw offers and claims in
// position b: the built-in engine's Contempt setting (a user may change it).
int think_contempt_cp(const Think *t, const Board *b);
void think_start(Think *t, const Game *g, RequestKind kind, const SearchLimits *limits, int level,
                 int lines);
// Takes one info of the current request; true when it completed a depth
// (every line of it is in), so the lines can be reported.
bool think_info(Think *t, const SearchInfo *info);
// The analysis lines as text, one per line: "depth 14 score +0.31 nodes 2.1M  1. e4 e5".
void think_format(const Think *t, const char *prefix, char *buf, size_t bufsz);

// The external engine as the review's evaluator (review_uci.c): a second
// instance of the session's, so that the review thread has one of its own.

typedef struct ReviewUci ReviewUci;
// Starts another instance of t's external engine with the options set on
// t's (strength and analysis ones aside: the review wants full strength);
// NULL with the reason in err.
ReviewUci *review_uci_start(const Think *t, char *err, size_t errsz);
void review_uci_free(ReviewUci *u);
// The evaluator for review_game_with (u outlives the review).
ReviewEvaluator review_uci_evaluator(ReviewUci *u);
// Ends the search in flight early (from any thread).
void review_uci_stop(ReviewUci *u);
// The engine's name ("Stockfish 15.1").
const char *review_uci_name(const ReviewUci *u);
// Why its last search failed (empty when it did not).
void review_uci_error(ReviewUci *u, char *buf, size_t bufsz);

#endif
