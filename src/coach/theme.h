// SPDX-License-Identifier: GPL-3.0-or-later
// Puzzle themes: what a puzzle's solution does, found from the position and
// the solution's moves alone (no search), so that the shipped set, the
// player's own puzzles and `train theme NAME` agree. No I/O.
//
// Method (the first rule that holds names the theme)
// 1. mate: the solution ends in checkmate; N is the player's moves.
// 2. For each move of the player in turn (the first, then the later ones),
//    the first of these that holds:
//    - promotion: the move promotes a pawn;
//    - fork: the moved piece, safe where it lands (the exchange there loses
//      it nothing), attacks two or more targets: the king, a piece worth more
//      than itself, or a piece no one defends;
//    - skewer: the moved piece (a slider) attacks the king, or a piece worth
//      more than the one behind it on the same line, and behind it stands an
//      enemy piece other than a pawn;
//    - pin: the moved slider attacks an enemy piece with a more valuable
//      enemy piece (or the king) behind it on the same line;
//    - discovered attack: moving the piece opens a line of another of the
//      player's sliders onto the king or onto a piece worth a rook or more,
//      or one no one defends.
// 3. hanging piece: the first move takes a piece that no one defended.
// 4. With no more material at the end of the solution than at the start:
//    defence when the player starts in check or with a piece en prise (a
//    piece other than a pawn attacked by a lesser piece, or by any piece
//    and not defended): the move holds rather than wins; else quiet (a
//    quiet move that keeps the advantage).
// 5. advantage: anything else (a material gain by another motif).
#ifndef SRC_COACH_THEME_H
#define SRC_COACH_THEME_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/board.h"

typedef enum {
    THEME_MATE,
    THEME_PROMOTION,
    THEME_FORK,
    THEME_SKEWER,
    THEME_PIN,
    THEME_DISCOVERED,
    THEME_HANGING,
    THEME_DEFENCE,
    THEME_QUIET,
    THEME_ADVANTAGE,
    THEME_NB
} PuzzleTheme;

enum { THEME_TEXT_MAX = 32, THEME_MATE_MAX = 9 };

typedef struct ThemeInfo {
    PuzzleTheme theme;
    int mate_in; // THEME_MATE: the player's moves to mate (1..THEME_MATE_MAX); else 0
} ThemeInfo;

// The theme of the solution moves[0..n) (player, opponent, player, ...)
// from b. Moves that are not legal end the solution there.
ThemeInfo theme_detect(const Board *b, const Move *moves, int n);

// The theme's word in files and commands: "mate2", "fork", "discovered", ...
void theme_token(ThemeInfo t, char *buf, size_t bufsz);
// The words a person reads: "mate in 2", "discovered attack", ...
void theme_words(ThemeInfo t, char *buf, size_t bufsz);
// A theme's word (theme_token's, or its name for people: "mate", "mate in 2",
// "hanging piece"): true with *out. "mate" alone is mate_in 0 (any mate).
bool theme_parse(const char *text, ThemeInfo *out);
// Whether t is what `want` asks for (mate_in 0 in want: any mate).
bool theme_matches(ThemeInfo t, ThemeInfo want);
// The name of a theme (the bare "mate" for THEME_MATE).
const char *theme_name(PuzzleTheme t);

#endif
