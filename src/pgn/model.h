// SPDX-License-Identifier: GPL-3.0-or-later
// The PGN game model: tags, a start position, a result and a tree of moves
// with comments, NAGs and clocks; navigation of the main line; annotation;
// a deep clone. No text parsing or writing here (src/pgn/read.h, write.h).
//
// - A game (PgnGame, opaque) keeps every string and node in an arena owned by
//   the game: pgn_game_clear() resets it (keeping the memory), pgn_game_free()
//   releases it. Reading many games into one PgnGame therefore allocates
//   nothing once the largest game has been seen.
// - The tree: a PgnNode is one move. `next` continues its line; `variation`
//   is the first move of the first alternative to this move (a RAV written
//   after it), and alternatives are chained through `next_variation` of their
//   first moves. So "1. e4 (1. d4) (1. c4) e5" is e4 -> e5 with e4.variation =
//   d4 and d4.next_variation = c4. Every node knows its `parent`, the move
//   its position comes from (NULL for the game's first moves): an
//   alternative has the parent of the move it replaces (d4 and c4: NULL).
// - Comments are normalised (runs of blanks and line ends become one space,
//   trimmed). `pre` is a comment before the move (start of a line, or after
//   the previous move's variations), `comment` follows the move (before its
//   variations), `trail` follows the variations of the last move of a line.
// - SAN is stored as the canonical SAN of the move (notation_to_san), so the
//   writer always writes export-format SAN whatever the input looked like.
// - A null move (PGN "--", also read as "Z0") is a node with move MOVE_NULL
//   and SAN "--": it passes the turn (side to move flipped, no en passant).
//   It is kept, cloned and written back, but never added by pgn_append_move
//   or pgn_add_move_after: no one plays a null move on the board.
#ifndef SRC_PGN_MODEL_H
#define SRC_PGN_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/board.h"
#include "engine/fen.h"
#include "engine/notation.h"
#include "src/util/paths.h"

enum { PGN_MAX_NAGS = 8, PGN_MAX_DEPTH = 64 };

typedef struct PgnNode PgnNode;
struct PgnNode {
    Move move;
    int ply;                 // plies from the game's start position (0 = first move)
    char san[MOVE_TEXT_MAX]; // canonical SAN
    long long clock_ms;      // from [%clk ...], -1 when none
    const char *pre;         // comment before the move, NULL when none
    const char *comment;     // comment after the move, NULL when none
    const char *trail;       // comment after this move's variations (last move of a line only)
    PgnNode *parent;         // the move before (NULL: a move from the start position)
    PgnNode *next;           // the following move of this line
    PgnNode *variation;      // first move of the first alternative to this move
    PgnNode *next_variation; // (on a variation's first move) the next alternative
    unsigned char nags[PGN_MAX_NAGS];
    int nag_count;
};

typedef struct PgnGame PgnGame;

// Where a game was read from: its file, its number there and its bytes in
// the file as it was then, so that it can be written back in its place
// (src/pgn/database.h). An empty path: a game of no file (played here, or
// read from a string). The bytes run from the line the game starts on to the
// line the next game starts on (its blank lines after it included), so the
// games of a file tile it but for lines no game claims ('%' escapes).
typedef struct PgnSource {
    char path[PATH_MAX_LEN];
    int number;            // 1-based, as the reader counts games (broken ones too)
    long long start, end;  // bytes [start, end) of the file
    long long file_size;   // the file when it was read: a later change shows
    long long file_mtime_ns;
    bool shares_line;      // starts or ends on a line with another game's text
} PgnSource;

PgnGame *pgn_game_new(void); // NULL when out of memory
// A deep copy of g (tags, start position, result, the whole tree with its
// comments, NAGs and clocks) that shares nothing with it. NULL when out of memory.
PgnGame *pgn_game_clone(const PgnGame *g);
void pgn_game_free(PgnGame *g);
// Back to an empty game from the standard position with result "*" and no source.
void pgn_game_clear(PgnGame *g);

// Whether the game changed (tags, moves, comments, NAGs, result) since it
// was read, or since pgn_mark_saved; a clone has its original's state.
bool pgn_modified(const PgnGame *g);
void pgn_mark_saved(PgnGame *g);

// The game's source (path empty when none); a clone has its original's.
const PgnSource *pgn_source(const PgnGame *g);
void pgn_set_source(PgnGame *g, const PgnSource *source); // NULL: none

// Tags keep the order they were first set in; setting an existing one
// replaces its value. Names are letters, digits and '_'. False on a bad name
// or value (a line end in it) or when out of memory.
bool pgn_set_tag(PgnGame *g, const char *name, const char *value);
const char *pgn_tag(const PgnGame *g, const char *name); // NULL when absent
void pgn_remove_tag(PgnGame *g, const char *name);       // nothing when absent
// Removes every tag but SetUp and FEN (the start position).
void pgn_clear_tags(PgnGame *g);
int pgn_tag_count(const PgnGame *g);
const char *pgn_tag_name(const PgnGame *g, int i);
const char *pgn_tag_value(const PgnGame *g, int i);

// Sets the start position of a game that has no moves yet and the SetUp and
// FEN tags (both removed again for the standard position).
bool pgn_set_start_fen(PgnGame *g, const char *fen, char *err, size_t errsz);
const char *pgn_start_fen(const PgnGame *g);

// "1-0", "0-1", "1/2-1/2" or "*": the game termination marker, also written
// to the Result tag by pgn_set_result.
const char *pgn_result(const PgnGame *g);
bool pgn_is_result(const char *s); // one of the four markers
void pgn_set_result(PgnGame *g, const char *result); // ignored unless one of the four

// Appends a move to the main line. m must be legal at its end; san may be
// NULL (computed then). clock_ms -1 for none, comment NULL for none (blanks
// in it are folded as the reader does; a blank comment is none). False on an
// illegal move or when out of memory.
bool pgn_append_move(PgnGame *g, Move m, const char *san, long long clock_ms, const char *comment);

// Cuts the main line after its first len moves: the moves after them (and
// their variations) leave the game, which goes on from there; the comment
// before a first move cut stays as the game's opening comment. False when
// len is out of range.
bool pgn_mainline_truncate(PgnGame *g, int len);

// Adds move m after the node `after` (NULL: as a first move of the game),
// where `before` is the position before m. When the line already goes on
// with m (as its next move or one of its variations) that node is returned;
// at the end of a line m becomes its continuation (extending the main line
// when that is the main line); otherwise m starts a new variation, the last
// alternative. NULL for an illegal move (MOVE_NULL included) or when out of
// memory.
const PgnNode *pgn_add_move_after(PgnGame *g, const PgnNode *after, Move m, const Board *before);

// The main line by ply (0-based). Out-of-range plies give MOVE_NONE / NULL / -1.
int pgn_mainline_length(const PgnGame *g);
Move pgn_mainline_move(const PgnGame *g, int ply);
const char *pgn_mainline_san(const PgnGame *g, int ply);
long long pgn_mainline_clock(const PgnGame *g, int ply);
const char *pgn_mainline_comment(const PgnGame *g, int ply);
const PgnNode *pgn_mainline_node(const PgnGame *g, int ply);
// The first move of the game (the tree's root line), NULL when none, and a
// comment before it when the game has no moves (else it is first->pre).
const PgnNode *pgn_first(const PgnGame *g);
const char *pgn_lead_comment(const PgnGame *g);
// The position after the main line's first `ply` moves (0 = start position),
// null moves passed. False when ply is out of range.
bool pgn_position_at(const PgnGame *g, int ply, Board *out);

// Annotating the main line (e.g. a review): ply is 0-based as above; all are
// false for an out-of-range ply or when out of memory.
// Adds NAG nag (1..255) after the move; already there is success, a full
// list (PGN_MAX_NAGS) or a bad nag is failure.
bool pgn_mainline_add_nag(PgnGame *g, int ply, int nag);
// Appends text to the comment after the move (joined with a space; blanks are
// folded as the reader does; a blank text changes nothing).
bool pgn_mainline_append_comment(PgnGame *g, int ply, const char *text);
// Adds moves[0..n) as the last alternative to the move at ply, played from
// the position before it; comment (NULL for none) follows the variation's
// first move. False also when n < 1 or a move is illegal (nothing is added).
bool pgn_mainline_add_variation(PgnGame *g, int ply, const Move *moves, int n,
                                const char *comment);

// Editing a node of g's tree (n must belong to g; the const of the pointer
// is the reader's view). False when out of memory or on a bad NAG; nothing
// changes then.
// Replaces the comment after n (NULL or blank removes it; blanks folded).
bool pgn_node_set_comment(PgnGame *g, const PgnNode *n, const char *text);
// Sets the clock after move n: the mover's remaining time (-1: none).
void pgn_node_set_clock(PgnGame *g, const PgnNode *n, long long clock_ms);
// Sets n's NAG: a move assessment (1..9) replaces the one n has, another
// (10..255) is added; 0 removes every NAG of n.
bool pgn_node_set_nag(PgnGame *g, const PgnNode *n, int nag);
// Replaces the game's opening comment (before its first move, or of a game
// without moves); NULL or blank removes it.
bool pgn_set_lead_comment(PgnGame *g, const char *text);

// Plays node n's move on b, the position before it (a null move passes
// the turn).
void pgn_node_play(Board *b, const PgnNode *n);

#endif
