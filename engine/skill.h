// SPDX-License-Identifier: GPL-3.0-or-later
// Strength levels: how a weakened search is limited and how it chooses its
// move. A level below SKILL_LEVEL_MAX searches shallowly (a depth cap and a
// node budget), keeps several candidate lines (MultiPV), and then picks
// among the candidates that are close to the best one, the better ones more
// often, with a little noise on their scores; a capture that wins a piece
// outright is always taken, as people take a free piece. Now and then (a
// "blind moment", more often at the lower levels) it overlooks what it
// searched: every legal move looks nearly as good as the lines it found, its
// own mate included, so it may hang a piece or miss a mate as people of its
// strength do (bench/humanlike.sh measures the size of its mistakes against
// rated human games). It never allows a mate in one when something else does
// not. SKILL_LEVEL_MAX is full strength: the search is exactly the
// unweakened one.
#ifndef ENGINE_SKILL_H
#define ENGINE_SKILL_H

#include "engine/board.h"

enum { SKILL_LEVEL_MIN = 1, SKILL_LEVEL_MAX = 20 };

typedef struct SkillLevel {
    int depth;           // deepest iteration searched
    uint64_t nodes;      // node budget per move (enforced after the first iteration)
    int lines;           // candidate lines searched (MultiPV)
    int margin;          // cp: a candidate must score within this of the best
    int temperature;     // cp: the weighted draw's softness (higher: flatter)
    int noise;           // cp: candidates' scores are shifted by up to +-noise
    int mistake_percent; // chance of a weighted draw among the candidates
                         // instead of playing the best (noisy) score
    int blind_permille;  // chance per move of a blind moment (see above)
} SkillLevel;

// The settings of a level; NULL for full strength (level <= 0 or >=
// SKILL_LEVEL_MAX), so that zero-initialised parameters mean "full".
const SkillLevel *skill_level(int level);
// The Elo label of a level, clamped to 1..SKILL_LEVEL_MAX.
int skill_level_elo(int level);
// The level whose label is nearest elo (the lower one on a tie).
int skill_level_for_elo(int elo);

// xorshift64*: the next number of the state (a zero state is replaced).
uint64_t skill_random(uint64_t *state);

// One searched line, as the picker sees it.
typedef struct SkillLine {
    Move move;
    int score; // exact score of the line, side to move's view
} SkillLine;

// Chooses the move to play from the candidate lines (sorted best first, n
// >= 1) of a search of b; others are the remaining legal moves, chosen only
// in a blind moment or when every candidate allows a mate in one. Returns
// the index of the chosen line in lines, or -1 - i when others[i] was
// chosen. b is restored.
int skill_pick(const SkillLevel *lvl, const Board *b, const SkillLine *lines, int n,
               const Move *others, int nothers, uint64_t *rng);

// True when after m (legal in b) the opponent has a mate in one. b is restored.
bool skill_allows_mate_in_one(const Board *b, Move m);

#endif
