// SPDX-License-Identifier: GPL-3.0-or-later
// Game review: the engine analyses every position of a game's main line and
// judges each move by how much of the evaluation it gave away, then the
// result is written into the game as evaluation comments, the NAGs ?! ? ??
// and the engine's better line as a variation. No I/O: the batch command
// (`patzer annotate`) and the terminal UI both drive it.
//
// Scores
// - Every score is from White's view, in centipawns, on one mate-aware scale:
//   evaluations are clamped to +-REVIEW_EVAL_MAX, "mate in N moves" is
//   +-(REVIEW_MATE - N) and a checkmate on the board is +-REVIEW_MATE. So
//   scores order correctly (a quicker mate is bigger) and an evaluation graph
//   can clamp them to any range it draws. The mate distance is also kept
//   apart in mate_white (0 when there is no forced mate).
// Two passes, so that a mark is one a deeper look agrees with
// - The quick pass searches every position of the game once (the position
//   after move k is the one before move k+1: n + 1 searches for n plies,
//   fewer when the game ends in checkmate or a draw the rules see), and
//   judges each move by its best score before and its score after.
// - The check: a move the quick pass marks (an inaccuracy or worse, a mate
//   given up or walked into) is searched again, deeper, from the position
//   before it, the played move and the quick pass's best move scored in one
//   search (MultiPV 2 over those two moves). The move keeps the lesser of the
//   two passes' marks: it is marked only as badly as both find it (the
//   check alone marked 0.71 of ?/?? right against Stockfish on the
//   benchmark's 26 games, both together 0.76; bench/results/
//   2026-11-26-review-judge-2.md), and the better move is the one that
//   scored better in the check (shown unless the net finds another, below).
//   A move the check exonerates keeps no mark.
// - The second opinion (ReviewOptions.confirm, on by default): a move the
//   check marks is searched once more as two positions, the one after the
//   played move and the one after the better move, each on its own with the
//   check's limits; the mark holds only when they too find the played move
//   an inaccuracy or more worse. The check's MultiPV search can misjudge a
//   tactic in its one tree; two trees a ply deeper rarely misjudge it the
//   same way (better moves the judge finds worse than the move played: 7 ->
//   3 on the 26 games, bench/results/2026-11-27-review-judge-3.md).
//   review_game asks the built-in net for it (ReviewOptions.second_net, on
//   by default) when the review's engine has no net: the net's marks are
//   the precise ones (a review by the net alone: 0.82 of its ?/?? right
//   against Stockfish, review-judge-5), the hand-crafted passes find more.
//   So a ?! that the net's two searches find a mistake becomes ?, outside
//   decided positions
//   (beyond REVIEW_RAISE_DECIDED_CP before the move) and mates: ?/??
//   precision / recall 0.82 / 0.70 -> 0.81 / 0.76 on the 26 benchmark
//   games, F1 0.673 -> 0.678 on the 12 calibration games
//   (bench/results/2026-11-27-review-judge-6.md). The same raise with the
//   hand-crafted second opinion lost precision on both (0.79 and 0.68).
// - The better move shown (ReviewOptions.own_better, on by default): the
//   check and the second opinion only compare the played move with the
//   quick pass's best. The net then searches the position before a mark on
//   its own; when its best is another move, and its scores of that move and
//   of the played move (the second opinion's) say the mark too, that move,
//   its line and those scores are shown; when its best is the played move,
//   no mark. Better moves that Stockfish finds worse than the move played 3
//   -> 2 on the 12 calibration games, better moves equal to its best 0.72 ->
//   0.77, the same marks (bench/results/2026-11-27-review-judge-9.md).
// - The searches of each pass run in parallel, one engine per core, each on
//   one thread from an empty hash table (of one size for all the engines)
//   and with a node limit by default, so that the marks are the same from
//   run to run and whichever engine searches a position.
//
// Judging a move (review_judge), with both scores from the mover's view,
// by the winning chances it gave away, as lichess does
// - best: the engine's score of the position before the move (its best move);
//   played: its score of the position after the move. The engine's own best
//   move always gets loss 0 and no mark, whatever the second search said.
// - Winning chances: win% = 50 + 50 * (2 / (1 + e^(-0.00368208 * cp)) - 1),
//   cp capped at +-REVIEW_CP_CAP, lichess's curve for Stockfish's centipawns.
//   patzer's scores are on another scale, so they are converted first: cp =
//   score * 100 / wc_pawn, where wc_pawn (ReviewOptions, default
//   REVIEW_WC_PAWN) is the score of patzer's engine that means what a pawn
//   (100) means to that curve, fitted against Stockfish 15.1 on 12 games
//   that are not the benchmark's: the value whose marks agree best with
//   Stockfish's there (F1 of ?/??, the whole review run at 70 to 95;
//   bench/results/2026-11-27-review-judge-3.md). A fit of the evaluations
//   themselves says 95, but patzer's search finds the losses of the moves
//   that matter smaller than Stockfish does, and the marks follow the losses.
//   Beyond REVIEW_KNEE_CP (5 pawns on lichess's scale) each centipawn counts
//   REVIEW_KNEE_PERCENT (35%) of one: there Stockfish's evaluations grow far
//   more slowly than patzer's (by patzer's score, Stockfish's are 1.1-1.3
//   times as large up to 5 pawns and 0.5-0.7 times beyond 8), so patzer's
//   swings in a decided position, a side lost by 4 pawns "losing" 4 more,
//   were a third of the false marks. Of the knees that keep the calibration
//   games' marks, this one fits their evaluations best; on the 26
//   benchmark games it takes the false ?/?? marks in decided positions from
//   8 to 4 and precision 0.78 -> 0.81 at the same recall
//   (bench/results/2026-11-27-review-judge-4.md).
//   A move that loses
//   REVIEW_BLUNDER_WC tenths of a point of win% (15.0) is ??,
//   REVIEW_MISTAKE_WC (10.0) ?, REVIEW_INACCURACY_WC (5.0) ?!. So a hundred
//   centipawns thrown away in a won position cost little and are not marked,
//   and the same hundred in a balanced one are a mistake.
// - Mates: giving up a forced mate is ?? when the move leaves less than
//   REVIEW_DECIDED_CP, ? below 2 * REVIEW_DECIDED_CP, else ?!. Walking into a
//   forced mate is ?? when the position was better than -REVIEW_DECIDED_CP,
//   ? when better than -2 * REVIEW_DECIDED_CP, else ?!. A slower mate, or
//   being mated sooner in a lost position, is not marked.
// - Theory is no error: the first moves of the game that the caller knows
//   as theory (ReviewOptions.book_plies: the opening book's moves, the named
//   lines) are never marked.
// - The loss is also kept in centipawns (scores clamped to +-REVIEW_LOSS_CAP,
//   mates count as the cap), for the accuracy of the report.
#ifndef SRC_REVIEW_H
#define SRC_REVIEW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/line.h"
#include "src/pgn/pgn.h"

enum {
    REVIEW_LINE_MAX = 16,   // moves kept of the engine's line
    REVIEW_MATE = 10000,    // a checkmate on the board; mate in N is REVIEW_MATE - N
    REVIEW_EVAL_MAX = 9000, // evaluations are clamped to this
    REVIEW_LOSS_CAP = 2000, // scores are clamped to this to measure a loss in centipawns
    REVIEW_CP_CAP = 1000,   // and to this to turn them into winning chances
    // patzer's score worth 100 centipawns of lichess's win% curve (see above):
    // the default, and the range ReviewOptions.wc_pawn takes.
    REVIEW_WC_PAWN = 80,
    REVIEW_WC_PAWN_MIN = 20,
    REVIEW_WC_PAWN_MAX = 1000,
    // Beyond REVIEW_KNEE_CP of lichess's scale a centipawn of patzer's counts
    // REVIEW_KNEE_PERCENT of one there (see above).
    REVIEW_KNEE_CP = 500,
    REVIEW_KNEE_PERCENT = 35,
    // Winning chances lost, in tenths of a point of win%, for ?!, ?, ??.
    REVIEW_INACCURACY_WC = 50,
    REVIEW_MISTAKE_WC = 100,
    REVIEW_BLUNDER_WC = 150,
    REVIEW_DECIDED_CP = 500,       // for mates given up or walked into
    REVIEW_RAISE_DECIDED_CP = 300, // no raise by the second opinion from here (see above)
    // Defaults (review_options_default): nodes per position of the quick
    // pass and per check; engines at once at most. The quick pass at 400,000
    // rather than 200,000: recall of ?/?? 0.64 -> 0.70 and precision 0.81 ->
    // 0.82 on the 26 benchmark games, F1 0.636 -> 0.674 on the 12
    // calibration games, a 40-move game 17 -> 22 s of CPU
    // (bench/results/2026-11-27-review-judge-5.md).
    REVIEW_NODES = 400000,
    REVIEW_VERIFY_NODES = 1000000,
    REVIEW_THREADS_MAX = 16,
    REVIEW_LINES_MAX = 2, // lines of a check
};

// The NAGs a review gives (PGN standard numbers).
enum { REVIEW_NAG_MISTAKE = 2, REVIEW_NAG_BLUNDER = 4, REVIEW_NAG_INACCURACY = 6 };

typedef struct ReviewPly {
    Move played;
    int score_white;      // the position AFTER the move (see Scores above)
    int mate_white;       // its mate distance in moves: > 0 White mates, < 0 Black mates
    Move best;            // the engine's move in the position BEFORE the move (MOVE_NONE: none)
    int best_score_white; // the score of the position before the move
    int best_mate_white;
    Move best_line[REVIEW_LINE_MAX]; // starts with best
    int best_line_len;
    int depth;    // of the search that scored the move (0: not searched)
    bool checked; // scored by the check (then the scores above and the loss are its,
                  // or the second opinion's when its own better move is shown)
    int loss;     // centipawns the mover lost against best, >= 0
    int loss_wc;  // winning chances lost, tenths of a point of win%, >= 0
    bool theory;  // a move of theory (never marked)
    int nag;      // 0, REVIEW_NAG_INACCURACY, REVIEW_NAG_MISTAKE or REVIEW_NAG_BLUNDER
} ReviewPly;

typedef struct ReviewOptions {
    // The quick pass, per position: at least one of these is set.
    uint64_t nodes;
    int64_t movetime_ms;
    int depth;
    // The check, per candidate: nodes, or when 0, the quick pass's limits
    // (depth + REVIEW_VERIFY_DEPTH_MORE, or verify_depth when set; movetime * 4,
    // nodes * 4).
    uint64_t verify_nodes;
    int verify_depth;
    // A second opinion on each move the check marks: the positions after
    // the played and after the better move searched apart, with the check's
    // limits; the mark holds only if they find at least an inaccuracy too.
    bool confirm;
    // The second opinion's nodes per position; 0: the check's limits.
    uint64_t second_nodes;
    // The second opinion by the evaluator's second evaluation
    // (ReviewEvaluator.search_second; review_game: the built-in net when e
    // has none), else by its first, as the passes.
    bool second_net;
    // The better move shown: the second opinion's evaluation's own best
    // move of the position before a mark, when it is another move than the
    // checked one and its scores say the mark (review.c's own_better); its
    // own best being the move played drops the mark. Only with second_net
    // and a second evaluation.
    bool own_better;
    // The quick pass and the check by the second evaluation too (as
    // second_net; benchmark settings, off by default).
    bool quick_net, check_net;
    // The quick pass by both evaluations: a move the first finds fine and
    // the second doubts is checked with the second's verdict.
    bool quick_both;
    // A checked move takes the check's class, not the lesser of the quick
    // pass's and the check's (benchmark setting, off by default).
    bool check_class;
    // review_game: the built-in net (netfile_builtin) for the second
    // evaluation, parsed once by a caller that reviews many games and
    // shared read-only; NULL: parsed for each review.
    const NnueNet *builtin_net;
    // The score of the second evaluation worth a pawn in winning chances,
    // for the passes it searches; 0: wc_pawn.
    int net_wc_pawn;
    int threads;    // engines searching at once (built-in engine); 0: one per core
    int wc_pawn;    // the score worth a pawn in winning chances; 0: REVIEW_WC_PAWN
    int book_plies; // the game's first moves that are theory: never marked
    // Called (on the caller's thread) once before the first search with done
    // 0 and after each move reviewed; returning false stops the review.
    // NULL for none.
    bool (*progress)(int done, int total, void *ctx);
    void *ctx;
    // Raised (from any thread): stop soon, as progress returning false does,
    // during the checks too (a move left unchecked keeps no mark). NULL: never.
    const atomic_bool *cancel;
} ReviewOptions;

// Defaults: REVIEW_NODES, REVIEW_VERIFY_NODES, the second opinion by the
// net, one engine per core, no theory, no progress.
void review_options_default(ReviewOptions *opt);

enum { REVIEW_VERIFY_DEPTH_MORE = 4 };

// One line of a search, as the engine reported it: scores from the side to
// move's view (engine/search.h's SearchInfo).
typedef struct ReviewLine {
    int score; // centipawns
    int mate;  // mate in N moves, negative when mated; 0 when none
    Move pv[REVIEW_LINE_MAX];
    int pv_length;
} ReviewLine;

// What one search of a position found: the lines of its deepest complete
// iteration, best first.
typedef struct ReviewSearch {
    Move best; // MOVE_NONE when none
    int depth;
    int line_count; // 0: no complete iteration (only best, if any, is known)
    ReviewLine lines[REVIEW_LINES_MAX];
} ReviewSearch;

// A blocking search's result (engine/engine.h) as a review's: its first
// REVIEW_LINES_MAX lines, each cut to REVIEW_LINE_MAX moves.
void review_search_from_result(const EngineResult *res, ReviewSearch *out);

// The engine a review asks: the built-in one (review_game) or any other,
// such as an external UCI engine, so that this module knows no protocol.
// Every move it names is checked again here: a PV stops at the first move
// that is not legal, and a best move that is not legal is dropped.
typedef struct ReviewEvaluator {
    // Searches the position at the end of l (its moves and keys are the game
    // so far, for repetitions) within limits (searchmoves included) for
    // multipv lines (1..REVIEW_LINES_MAX) and fills out; false when the
    // engine failed, which ends the review (review_game_with returns -1).
    // worker: 0..workers-1, which of the evaluator's engines searches (a
    // worker runs one search at a time; different workers run at once).
    // Each search should be alike whatever was searched before.
    bool (*search)(void *ctx, int worker, const Line *l, const SearchLimits *limits, int multipv,
                   ReviewSearch *out);
    // A second evaluation's searches, as search (review_game: the built-in
    // net), for the passes ReviewOptions gives it: by default the second
    // opinion (second_net), whose mistake also raises a ?! to ? when the
    // check's evaluation is the other one (see the second opinion above);
    // NULL: search for every pass, and no raise.
    bool (*search_second)(void *ctx, int worker, const Line *l, const SearchLimits *limits,
                          int multipv, ReviewSearch *out);
    // Called once before the first search (a new game; false ends the review
    // with -1) and once after the last one, even then. NULL for none.
    bool (*begin)(void *ctx);
    void (*end)(void *ctx);
    int workers; // searches it can run at once; 0 means 1
    void *ctx;
} ReviewEvaluator;

// Reviews the main line of g with the evaluator ev: fills
// out[0..pgn_mainline_length(g)) and returns how many plies were reviewed
// (fewer when progress stopped it), or -1 when out of memory, the options
// set no limit or the evaluator failed. Blocks until done.
int review_game_with(const ReviewEvaluator *ev, const PgnGame *g, const ReviewOptions *opt,
                     ReviewPly *out);

// review_game_with the built-in engine e (which must not be searching) and
// up to opt->threads - 1 more engines made for the review with e's network
// (engine/engine.h's blocking search: analysis at full strength, one thread
// each, each search from an empty table); the second opinion by the built-in
// net when opt->second_net and e has no net. e's options and net are left as
// they were.
int review_game(Engine *e, const PgnGame *g, const ReviewOptions *opt, ReviewPly *out);

// The mark for a move (0 or a REVIEW_NAG_*) from the best score and the
// played move's score, both from the mover's view on the review scale; the
// loss in centipawns goes to *loss and in winning chances (tenths of a
// point) to *loss_wc, when they are not NULL.
int review_judge(int best, int played, int *loss, int *loss_wc);
// review_judge with wc_pawn (REVIEW_WC_PAWN_MIN..REVIEW_WC_PAWN_MAX, else
// REVIEW_WC_PAWN) as the score worth a pawn in winning chances; review_judge
// uses REVIEW_WC_PAWN.
int review_judge_scaled(int best, int played, int wc_pawn, int *loss, int *loss_wc);
// Whether the review calls the move a mistake or worse (? or ??): what the
// puzzle miner takes for a real mistake.
bool review_is_mistake(const ReviewPly *p);
// A score on the review scale (the mover's view) as winning chances, 0..100.
double review_win_percent(int score);
// The same with wc_pawn as in review_judge_scaled.
double review_win_percent_scaled(int score, int wc_pawn);

// A score from White's view as text: "+0.35", "-1.20", "0.00", "#3" (White
// mates in 3), "#-2" (Black mates in 2), "#0" for a checkmate on the board.
void review_format_score(int score_white, char *buf, size_t bufsz);

// "Inaccuracy", "Mistake", "Blunder" for the review NAGs, else NULL.
const char *review_nag_word(int nag);

// Writes a review into g (the game it was made of): every move gets its
// evaluation appended to its comment ("+0.35", White's view; none after a
// checkmate); a marked move gets its NAG (unless it already has a move
// assessment, $1-$6) and sentences from White's point of view, "Mistake
// (+0.31 to -0.95). Better was 12... Nf6, keeping the balance. The move gave
// away 14% of the winning chances.", and the better move's line (from the
// check) as a variation commented with its evaluation. A ply whose
// move is not the game's is skipped. False when out of memory.
bool review_annotate(PgnGame *g, const ReviewPly *plies, int n);

#endif
