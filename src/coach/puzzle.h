// SPDX-License-Identifier: GPL-3.0-or-later
// Puzzles from mistakes: the positions of a game where the side to move went
// wrong (as game review judges it) and one move was clearly best, with the
// forcing line that follows. No I/O: the session's train mode and the tests
// drive it with an engine of their own. Blocks while it searches.
//
// Method
// - Review (review_game) marks every move with the review's own judgement
//   (puzzle_review_options: its scale, its check and second opinion, theory
//   never marked) at opt->review_depth, the checks at opt->verify_depth. A
//   candidate is the position before a move marked ? or ?? (a mistake or a
//   blunder, review_is_mistake): puzzles are built from real mistakes only.
// - A candidate is kept when a deeper search (opt->verify_depth, MultiPV 2)
//   shows one move clearly best (puzzle_clear_best): it mates in N and the
//   second line does not mate, or mates PUZZLE_MATE_MARGIN moves later or
//   more (a mate in 2 beside a mate in 4 is a puzzle: find the quicker); or
//   it leads the second by PUZZLE_MARGIN_CP or more while
//   the second stays under PUZZLE_SECOND_MAX_CP (a second move that also wins
//   makes no puzzle). The best move must differ from the move played, and the
//   mover needs two legal moves at least.
// - The solution is that move, then while the line goes on (its PV) the
//   opponent's reply and the player's next move, as long as that next move is
//   clearly best by the same test, up to opt->max_moves player moves.
// - With opt->punish, also the position after each move marked ? or ??, for
//   the side that can punish it (when sides counts that side), by the same
//   test; its move played is the game's next move, which may be the solution.
// - Rating estimate: 800 + 60 per ply of the depth at which the search first
//   settled on the best move as clearly best, + 150 per player move after the
//   first, + 100 when the first move is quiet (no capture, no check), kept in
//   PUZZLE_RATING_MIN..PUZZLE_RATING_MAX.
#ifndef SRC_COACH_PUZZLE_H
#define SRC_COACH_PUZZLE_H

#include "engine/book.h"
#include "engine/engine.h"
#include "engine/fen.h"
#include "engine/line.h"
#include "src/game/openings.h"
#include "src/game/review.h"
#include "src/pgn/pgn.h"

enum {
    PUZZLE_MARGIN_CP = 150,     // the best move leads the second by this much
    PUZZLE_SECOND_MAX_CP = 300, // ... and the second scores less than this
    PUZZLE_WIN_CP = 300,        // a position the mover wins (judge.h)
    PUZZLE_MATE_MARGIN = 2,     // a mate in N is clear when the second mates in N + 2 or later
    PUZZLE_MOVES_MAX = 3,       // player moves in a solution at most
    PUZZLE_PLIES_MAX = 2 * PUZZLE_MOVES_MAX - 1,
    PUZZLE_SOURCE_MAX = 512,
    PUZZLE_RATING_MIN = 600,
    PUZZLE_RATING_MAX = 2800,
    PUZZLE_REVIEW_DEPTH = 10, // defaults of the session
    PUZZLE_VERIFY_DEPTH = 12,
};

typedef struct Puzzle {
    char fen[FEN_MAX];               // the position, the player to move
    Move solution[PUZZLE_PLIES_MAX]; // player, opponent, player, ...; odd length
    int length;
    Move played;                    // the move the game had instead
    int rating;                     // the estimate (see Method)
    char source[PUZZLE_SOURCE_MAX]; // "FILE#N" and the move: where it came from
} Puzzle;

typedef struct PuzzleOptions {
    int review_depth;     // the review's depth per position
    int verify_depth;     // the MultiPV 2 search that keeps a candidate
    int max_moves;        // player moves of a solution (1..PUZZLE_MOVES_MAX)
    bool sides[COLOR_NB]; // whose mistakes count
    bool punish;          // also the position after each ? or ??, for the other side
    // Theory, never a mistake (theory.h): borrowed, NULL for none known.
    const Openings *openings;
    const Book *book;
    // The review's built-in net, parsed once for many games (ReviewOptions
    // builtin_net): borrowed, NULL to have each review parse its own.
    const NnueNet *builtin_net;
    atomic_bool *cancel; // raised: stop soon (NULL: never)
} PuzzleOptions;

// The outcome of the two-line search of one position.
typedef struct PuzzleCheck {
    bool clear; // one move clearly best
    Move best;
    int best_score;   // mover's view on the review scale (review.h), mates included
    int second_score; // likewise; meaningless when has_second is false
    bool has_second;
    int settled_depth; // the first depth from which best was clearly best to the end
    Move pv[PUZZLE_PLIES_MAX + 1];
    int pv_length;
} PuzzleCheck;

// Defaults: the depths above, PUZZLE_MOVES_MAX, both sides.
void puzzle_options_default(PuzzleOptions *opt);

// The review that finds the candidates of game g: the review's defaults
// (review_options_default: its scale, the second opinion) at opt's depths on
// one engine, g's theory from opt's openings and book never marked, and
// opt's cancel stopping it.
void puzzle_review_options(const PuzzleOptions *opt, const PgnGame *g, ReviewOptions *out);

// Searches l's position with two lines to depth (the engine's MultiPV and
// analysis options are restored afterwards) and says whether one move is
// clearly best. False when the position has fewer than two legal moves or
// the search gave nothing; out is filled either way.
bool puzzle_clear_best(Engine *e, const Line *l, int depth, PuzzleCheck *out);

// The puzzles of one game: fills out[0..max) and returns how many, -1 when
// out of memory. source names the game ("games.pgn#3"); each puzzle's source
// adds the move ("games.pgn#3 12... Qh4").
int puzzle_find(Engine *e, const PgnGame *g, const char *source, const PuzzleOptions *opt,
                Puzzle *out, int max);

// The engine's answer to b (the position after a wrong move), searched to
// depth: its line of legal moves into line (up to max) and its score for the
// side to move on the review scale into *score. Returns the line's length, 0
// when there is none (b is over, or the search gave nothing).
int puzzle_refutation(Engine *e, const Board *b, int depth, Move *line, int max, int *score);

// Whether move m, played in the puzzle at solution step `ply` (even: a
// player's move) on board b, is right: the solution's move, or any mate.
bool puzzle_move_is_right(const Puzzle *p, int ply, const Board *b, Move m);

// The solution as SAN from the puzzle's position with move numbers:
// "3. Nxh4 Qd8 4. Nf5". False when the stored moves are not legal there.
bool puzzle_solution_text(const Puzzle *p, char *buf, size_t bufsz);

#endif
