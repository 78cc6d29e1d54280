// SPDX-License-Identifier: GPL-3.0-or-later
// Hand-written tapered evaluation: every term is a middlegame/endgame pair, blended by the game
// phase and scaled down in drawish endings. Pawn and king-shelter terms live in a pawn hash.
// The weights are in engine/eval_weights.c (tuned from data); compiled with EVAL_TRACE this
// file also records which weights each evaluation used, for the tuner.
#include "engine/eval.h"

#include <stdlib.h>
#include <string.h>

#include "engine/eval_weights.h"

#define ALWAYS_INLINE inline __attribute__((always_inline))

// The same pair packed small for the pawn cache.
typedef struct Score16 {
    int16_t mg, eg;
} Score16;

// ------------------------------------------------------------------------------ constants

// Scale factors are out of SCALE_NORMAL; 0 means a dead draw.
enum { SCALE_NORMAL = 64 };

// The tunable weights (engine/eval_weights.h), under the names the code below uses.
#define PIECE_VALUE (eval_weights.piece_value[0])
#define PSQT (eval_weights.psqt)
#define MOBILITY_KNIGHT (eval_weights.mobility_knight[0])
#define MOBILITY_BISHOP (eval_weights.mobility_bishop[0])
#define MOBILITY_ROOK (eval_weights.mobility_rook[0])
#define MOBILITY_QUEEN (eval_weights.mobility_queen[0])
#define PASSED_PAWN (eval_weights.passed_pawn[0])
#define PAWN_PHALANX (eval_weights.pawn_phalanx[0])
#define PAWN_SUPPORTED (eval_weights.pawn_supported[0])
#define PAWN_DOUBLED (eval_weights.pawn_doubled[0][0])
#define PAWN_ISOLATED (eval_weights.pawn_isolated[0][0])
#define PAWN_BACKWARD (eval_weights.pawn_backward[0][0])
#define PAWN_WEAK_UNOPPOSED (eval_weights.pawn_weak_unopposed[0][0])
#define PASSED_FREE_STOP (eval_weights.passed_free_stop[0])
#define PASSED_SAFE_PATH (eval_weights.passed_safe_path[0])
#define PASSED_SUPPORTED (eval_weights.passed_supported[0])
#define PASSED_UNSTOPPABLE (eval_weights.passed_unstoppable[0][0])
#define KING_CENTRALISATION (eval_weights.king_centralisation[0])
#define KING_PAWN_DISTANCE (eval_weights.king_pawn_distance[0])
#define ROOK_OPEN_FILE (eval_weights.rook_open_file[0][0])
#define ROOK_HALF_OPEN_FILE (eval_weights.rook_half_open_file[0][0])
#define ROOK_ON_SEVENTH (eval_weights.rook_on_seventh[0][0])
#define QUEEN_ON_SEVENTH (eval_weights.queen_on_seventh[0][0])
#define BISHOP_PAIR (eval_weights.bishop_pair[0][0])
#define OUTPOST (eval_weights.outpost[0])
#define MINOR_BEHIND_PAWN (eval_weights.minor_behind_pawn[0][0])
#define BISHOP_PAWNS_SAME_COLOUR (eval_weights.bishop_pawns_same_colour[0][0])
#define SPACE (eval_weights.space[0][0])
#define THREAT_MINOR_ON_MINOR (eval_weights.threat_minor_on_minor[0][0])
#define THREAT_ROOK_ON_QUEEN (eval_weights.threat_rook_on_queen[0][0])
#define THREAT_PAWN_PUSH (eval_weights.threat_pawn_push[0][0])
#define THREAT_BY_PAWN (eval_weights.threat_by_pawn[0][0])
#define THREAT_MINOR_ON_MAJOR (eval_weights.threat_minor_on_major[0][0])
#define THREAT_HANGING (eval_weights.threat_hanging[0][0])
#define UNDEVELOPED_MINOR (eval_weights.undeveloped_minor[0][0])
#define EARLY_QUEEN (eval_weights.early_queen[0][0])
#define TEMPO (eval_weights.tempo[0][0])
#define KING_SHELTER (eval_weights.king_shelter)
#define KING_STORM (eval_weights.king_storm)
#define KING_OPEN_FILE (eval_weights.king_open_file[0][0])
#define PASSED_ENEMY_KING (eval_weights.passed_enemy_king[0])
#define PASSED_OWN_KING (eval_weights.passed_own_king[0])
#define KING_DANGER_ATTACKER (eval_weights.king_danger_attacker[0])
#define KING_DANGER_ZONE_HIT (eval_weights.king_danger_zone_hit[0][0])
#define KING_DANGER_SAFE_CHECK (eval_weights.king_danger_safe_check[0])
#define KING_DANGER_WEAK_SQUARE (eval_weights.king_danger_weak_square[0][0])
#define KING_DANGER_NO_QUEEN (eval_weights.king_danger_no_queen[0][0])
#define KING_DANGER_BASE (eval_weights.king_danger_base[0][0])

// Passed pawns: king distances to the stop square count up to this many steps.
static const int PASSED_KING_DIST_CAP = 5;

// King attack (the king_danger_* weights): it counts with at least this many attackers, and
// only while the attacker has a queen or at least this much piece material.
static const int KING_ATTACKERS_MIN = 2;
static const int KING_ATTACK_MIN_MATERIAL = 1300;

// Development: minor pieces still at home, and the queen out while they are.
static const int DEVELOPMENT_MIN_PHASE = 16;
static const int EARLY_QUEEN_MIN_UNDEVELOPED = 2;

// Drawish endings (factors out of SCALE_NORMAL).
static const int SCALE_LONE_MINOR = 0;         // no pawns, at most a minor piece
static const int SCALE_TWO_KNIGHTS = 2;        // no pawns, just two knights
static const int SCALE_NO_PAWNS_MINOR_UP = 10; // no pawns, up at most a minor (KR v KB)
static const int SCALE_OCB_BY_PAWN_DIFF[4] = { 8, 12, 26, 44 }; // bishops only
static const int SCALE_OCB_WITH_PIECES = 46;                    // and at most one rook each
static const int SCALE_ONE_PAWN_NO_EDGE = 40; // one pawn and no more pieces than the enemy

// Pawn hash: a power of two.
enum { PAWN_CACHE_ENTRIES = 16384 };

// ------------------------------------------------------------------------------ tracing

#ifdef EVAL_TRACE
// The trace being filled and the side whose terms are being added: thread-local state of the
// traced build only (tools/tune and its tests); the engine's build has none.
static _Thread_local EvalTrace *trace;
static _Thread_local int trace_sign;

static void trace_side(Color c) {
    trace_sign = c == WHITE ? 1 : -1;
}
// Counts n uses of weight w (ignored when w is not in the weight table).
static void trace_weight(const Score *w, int n) {
    ptrdiff_t i = w - &eval_weights.piece_value[0][0];
    if (trace && i >= 0 && i < EVAL_WEIGHT_COUNT)
        trace->coef[i] = (int16_t)(trace->coef[i] + trace_sign * n);
}
// Counts n of the king danger feature of weight w in the attack on king's king.
static void trace_danger(Color king, const Score *w, int n) {
    if (trace)
        trace->danger[king][w - &KING_DANGER_ATTACKER[0]] += (int16_t)n;
}
#else
static ALWAYS_INLINE void trace_side(Color c) {
    (void)c;
}
static ALWAYS_INLINE void trace_weight(const Score *w, int n) {
    (void)w;
    (void)n;
}
static ALWAYS_INLINE void trace_danger(Color king, const Score *w, int n) {
    (void)king;
    (void)w;
    (void)n;
}
#endif

// ------------------------------------------------------------------------------ helpers

// Adds a weight (once, or n times) to a side's sum; the tracer's side is the last trace_side.
static ALWAYS_INLINE void add(Score *a, const Score *w) {
    trace_weight(w, 1);
    a->mg += w->mg;
    a->eg += w->eg;
}
static ALWAYS_INLINE void add_n(Score *a, const Score *w, int n) {
    trace_weight(w, n);
    a->mg += w->mg * n;
    a->eg += w->eg * n;
}
// Adds n of a king danger feature to the danger to king's king (not linear: no trace_weight).
static ALWAYS_INLINE void add_danger(Score *d, Color king, const Score *w, int n) {
    trace_danger(king, w, n);
    d->mg += w->mg * n;
    d->eg += w->eg * n;
}
// Adds up sums (no weight).
static ALWAYS_INLINE void accumulate(Score *a, Score s) {
    a->mg += s.mg;
    a->eg += s.eg;
}
static ALWAYS_INLINE Score diff(Score w, Score b) {
    return (Score){ w.mg - b.mg, w.eg - b.eg };
}
static ALWAYS_INLINE Score16 pack(Score s) {
    return (Score16){ (int16_t)s.mg, (int16_t)s.eg };
}
static ALWAYS_INLINE Score unpack(Score16 s) {
    return (Score){ s.mg, s.eg };
}

static ALWAYS_INLINE int imin(int a, int b) {
    return a < b ? a : b;
}
static ALWAYS_INLINE int imax(int a, int b) {
    return a > b ? a : b;
}
static ALWAYS_INLINE int iabs(int a) {
    return a < 0 ? -a : a;
}

static ALWAYS_INLINE int distance(Square a, Square b) {
    return imax(iabs(square_file(a) - square_file(b)), iabs(square_rank(a) - square_rank(b)));
}

// The square one step in front of s for c.
static ALWAYS_INLINE Square forward_square(Color c, Square s) {
    return c == WHITE ? s + 8 : s - 8;
}

// The square as seen by White's tables.
static ALWAYS_INLINE Square relative_square(Color c, Square s) {
    return c == WHITE ? s : square_mirror(s);
}

// All squares on ranks strictly in front of s from c's point of view.
static ALWAYS_INLINE Bitboard forward_ranks(Color c, Square s) {
    int r = square_rank(s);
    if (c == WHITE)
        return r == 7 ? 0 : ~0ULL << (8 * (r + 1));
    return (1ULL << (8 * r)) - 1;
}

static ALWAYS_INLINE Bitboard adjacent_files(int file) {
    Bitboard f = bb_file(file);
    return bb_east(f) | bb_west(f);
}

// The square nearest to c's back rank among a non-empty set.
static ALWAYS_INLINE Square backmost(Color c, Bitboard b) {
    return c == WHITE ? bb_lsb(b) : bb_msb(b);
}

static int taper(Score s, int phase) {
    return (s.mg * phase + s.eg * (EVAL_PHASE_MAX - phase)) / EVAL_PHASE_MAX;
}

// ------------------------------------------------------------------------------ pawn cache

typedef struct PawnEntry {
    Key key;
    Bitboard passed;   // passed pawns of both colours
    Score16 structure; // white-relative, as are the three below
    Score16 psqt;      // pawns and kings
    Score16 shelter;   // pawn shield, storms and open files around the kings
    Score16 activity;  // endgame king centralisation and closeness to pawns
} PawnEntry;

struct PawnCache {
    PawnEntry entries[PAWN_CACHE_ENTRIES];
};

PawnCache *eval_pawn_cache_new(void) {
    // calloc leaves every key 0, which no real pawn key (it always has the two kings) matches
    // in practice.
    return calloc(1, sizeof(PawnCache));
}

void eval_pawn_cache_free(PawnCache *pc) {
    free(pc);
}

void eval_pawn_cache_clear(PawnCache *pc) {
    if (pc)
        memset(pc, 0, sizeof *pc);
}

// Structure and pawn/king piece-square terms of one side; also collects its passed pawns.
static void pawn_structure(const Board *b, Color us, Score *structure, Score *psqt,
                           Bitboard *passed) {
    Color them = !us;
    Bitboard own = board_pieces(b, us, PAWN);
    Bitboard enemy = board_pieces(b, them, PAWN);
    Bitboard own_att = bb_pawn_attacks(us, own);
    Bitboard enemy_att = bb_pawn_attacks(them, enemy);

    Bitboard bb = own;
    while (bb) {
        Square s = bb_pop(&bb);
        int f = square_file(s), r = relative_rank(us, s);
        Bitboard file = bb_file(f), adj = adjacent_files(f);
        Bitboard ahead = forward_ranks(us, s);
        Square stop = forward_square(us, s);

        add(psqt, &PSQT[PAWN][relative_square(us, s)]);

        bool opposed = enemy & ahead & file;
        bool doubled = own & ahead & file;
        bool supported = bb_has(own_att, s);
        bool phalanx = (bb_east(bb_square(s)) | bb_west(bb_square(s))) & own;

        if (!(enemy & ahead & (file | adj)) && !doubled) {
            add(structure, &PASSED_PAWN[r]);
            *passed |= bb_square(s);
        }
        if (doubled)
            add(structure, &PAWN_DOUBLED);
        if (supported)
            add(structure, &PAWN_SUPPORTED[r]);
        if (phalanx)
            add(structure, &PAWN_PHALANX[r]);

        if (!(own & adj)) {
            add(structure, &PAWN_ISOLATED);
            if (!opposed)
                add(structure, &PAWN_WEAK_UNOPPOSED);
        } else if (!supported && !phalanx && !(own & adj & ~ahead) && bb_has(enemy_att, stop)) {
            // Every neighbour has advanced past it and the square in front is guarded.
            add(structure, &PAWN_BACKWARD);
            if (!opposed)
                add(structure, &PAWN_WEAK_UNOPPOSED);
        }
    }
}

// Pawn shield and storm on the three files around us's king. The shield is our nearest pawn
// on each file by its relative rank (1 = second rank; 0 = none in front of the king), on the
// king's own file or a neighbour; the storm the nearest enemy pawn by its rank from our side
// (0 = none, 6 = still at home), free or blocked by one of ours.
static Score king_shelter(const Board *b, Color us, Square ksq) {
    Color them = !us;
    Bitboard mask = forward_ranks(us, ksq) | bb_rank(square_rank(ksq));
    Bitboard own = board_pieces(b, us, PAWN) & mask;
    Bitboard enemy = board_pieces(b, them, PAWN) & mask;
    int centre = imin(imax(square_file(ksq), 1), 6);
    Score s = { 0, 0 };

    for (int f = centre - 1; f <= centre + 1; f++) {
        Bitboard ours = own & bb_file(f), theirs = enemy & bb_file(f);
        int our_rank = ours ? relative_rank(us, backmost(us, ours)) : 0;
        int their_rank = theirs ? relative_rank(us, backmost(us, theirs)) : 0;
        add(&s, &KING_SHELTER[f != square_file(ksq)][our_rank]);
        if (their_rank) {
            bool blocked = our_rank && our_rank == their_rank - 1;
            add(&s, &KING_STORM[blocked][their_rank]);
        }
        if (!ours && !(board_pieces(b, them, PAWN) & bb_file(f)))
            add(&s, &KING_OPEN_FILE);
    }
    return s;
}

// Endgame king activity: centralisation and closeness to the pawns.
static Score king_activity(const Board *b, Square ksq) {
    Score s = { 0, 0 };
    int f = square_file(ksq), r = square_rank(ksq);
    int centre = imax(f < 4 ? 3 - f : f - 4, r < 4 ? 3 - r : r - 4);
    add(&s, &KING_CENTRALISATION[centre]);

    Bitboard pawns = b->pieces[PAWN];
    if (pawns) {
        int best = 7;
        while (pawns && best > 1)
            best = imin(best, distance(ksq, bb_pop(&pawns)));
        add(&s, &KING_PAWN_DISTANCE[best]);
    }
    return s;
}

static void pawn_entry_compute(const Board *b, PawnEntry *e) {
    Score structure[COLOR_NB] = { { 0, 0 }, { 0, 0 } };
    Score psqt[COLOR_NB] = { { 0, 0 }, { 0, 0 } };
    Score shelter[COLOR_NB], activity[COLOR_NB];
    Bitboard passed = 0;

    for (Color c = WHITE; c <= BLACK; c++) {
        Square k = board_king(b, c);
        trace_side(c);
        pawn_structure(b, c, &structure[c], &psqt[c], &passed);
        add(&psqt[c], &PSQT[KING][relative_square(c, k)]);
        shelter[c] = king_shelter(b, c, k);
        activity[c] = king_activity(b, k);
    }
    e->key = b->pawn_key;
    e->passed = passed;
    e->structure = pack(diff(structure[WHITE], structure[BLACK]));
    e->psqt = pack(diff(psqt[WHITE], psqt[BLACK]));
    e->shelter = pack(diff(shelter[WHITE], shelter[BLACK]));
    e->activity = pack(diff(activity[WHITE], activity[BLACK]));
}

// ------------------------------------------------------------------------------ evaluation

// The terms eval_explain reports, in this order.
enum {
    TERM_MATERIAL,
    TERM_PSQT,
    TERM_PAWNS,
    TERM_PASSED,
    TERM_MOBILITY,
    TERM_KING_SAFETY,
    TERM_PIECES,
    TERM_THREATS,
    TERM_DEVELOPMENT,
    TERM_KING_ACTIVITY,
    TERM_TEMPO,
    TERM_NB
};
static const char *const TERM_NAMES[TERM_NB + 1] = {
    "material", "psqt",    "pawns",       "passed pawns",  "mobility", "king safety",
    "pieces",   "threats", "development", "king activity", "tempo",    "scaling",
};

// Everything one evaluation learns about the position; terms are kept per side.
typedef struct EvalInfo {
    const Board *b;
    Bitboard occ;
    Bitboard pawn_att[COLOR_NB];
    Bitboard att[COLOR_NB];        // everything c attacks
    Bitboard att_pieces[COLOR_NB]; // c's attacks without its king
    Bitboard att_by[COLOR_NB][PIECE_TYPE_NB];
    Bitboard mob_area[COLOR_NB];
    Bitboard king_zone[COLOR_NB];  // zone around c's king
    int zone_hits[COLOR_NB];       // enemy zone squares c's pieces attack, summed over them
    // c's pieces attacking the enemy king zone, by type.
    int zone_attackers[COLOR_NB][PIECE_TYPE_NB];
    int npm[COLOR_NB];             // non-pawn material, middlegame values
    Score term[TERM_NB][COLOR_NB]; // per side, subtracted at the end
} EvalInfo;

// Mobility, attack maps and the piece-specific terms of one piece type of one side.
static ALWAYS_INLINE void eval_pieces(EvalInfo *ei, Color us, PieceType t) {
    const Board *b = ei->b;
    Color them = !us;
    Bitboard bb = board_pieces(b, us, t);
    Score *psqt = &ei->term[TERM_PSQT][us], *mob = &ei->term[TERM_MOBILITY][us];
    Score *pieces = &ei->term[TERM_PIECES][us];
    Bitboard their_zone = ei->king_zone[them];
    Bitboard own_pawns = board_pieces(b, us, PAWN);
    trace_side(us);

    while (bb) {
        Square s = bb_pop(&bb);
        Bitboard a = attacks_piece(t, s, ei->occ);
        ei->att_by[us][t] |= a;
        add(psqt, &PSQT[t][relative_square(us, s)]);

        int n = bb_count(a & ei->mob_area[us]);
        switch (t) {
        case KNIGHT: add(mob, &MOBILITY_KNIGHT[n]); break;
        case BISHOP: add(mob, &MOBILITY_BISHOP[n]); break;
        case ROOK: add(mob, &MOBILITY_ROOK[n]); break;
        default: add(mob, &MOBILITY_QUEEN[n]); break;
        }

        if (a & their_zone) {
            ei->zone_attackers[us][t]++;
            ei->zone_hits[us] += bb_count(a & their_zone);
        }

        if (t == KNIGHT || t == BISHOP) {
            // An outpost: a square in the enemy half no enemy pawn can ever attack, held by a pawn.
            int r = relative_rank(us, s);
            if (r >= 3 && r <= 5 && bb_has(ei->pawn_att[us], s) &&
                !(forward_ranks(us, s) & adjacent_files(square_file(s)) &
                  board_pieces(b, them, PAWN)))
                add(pieces, &OUTPOST[t == BISHOP]);
            if (r < 7 && bb_has(own_pawns, forward_square(us, s)))
                add(pieces, &MINOR_BEHIND_PAWN);
            if (t == BISHOP)
                add_n(pieces, &BISHOP_PAWNS_SAME_COLOUR,
                      bb_count(own_pawns & (bb_has(BB_LIGHT_SQUARES, s) ? BB_LIGHT_SQUARES
                                                                          : ~BB_LIGHT_SQUARES)));
        }
        if (t == ROOK || t == QUEEN) {
            // Seventh rank: it cuts off the enemy king or eats the pawns still at home.
            if (relative_rank(us, s) == 6 &&
                (relative_rank(us, board_king(b, them)) == 7 ||
                 (board_pieces(b, them, PAWN) & bb_rank(square_rank(s)))))
                add(pieces, t == ROOK ? &ROOK_ON_SEVENTH : &QUEEN_ON_SEVENTH);
        }
        if (t == ROOK) {
            Bitboard file = bb_file(square_file(s));
            if (!(b->pieces[PAWN] & file))
                add(pieces, &ROOK_OPEN_FILE);
            else if (!(own_pawns & file))
                add(pieces, &ROOK_HALF_OPEN_FILE);
        }
    }
}

// Danger to us's king from the enemy's attacks (engine/eval_weights.h explains the form);
// needs both attack maps complete.
static Score king_danger(const EvalInfo *ei, Color us) {
    const Board *b = ei->b;
    Color them = !us;
    const int *attackers = ei->zone_attackers[them];
    bool queen = board_pieces(b, them, QUEEN);
    if (attackers[KNIGHT] + attackers[BISHOP] + attackers[ROOK] + attackers[QUEEN] <
        KING_ATTACKERS_MIN)
        return (Score){ 0, 0 };
    if (!queen && ei->npm[them] < KING_ATTACK_MIN_MATERIAL)
        return (Score){ 0, 0 };

    Square k = board_king(b, us);
    Score d = { 0, 0 };
    add_danger(&d, us, &KING_DANGER_BASE, 1);
    for (PieceType t = KNIGHT; t <= QUEEN; t++)
        add_danger(&d, us, &KING_DANGER_ATTACKER[t - KNIGHT], attackers[t]);
    add_danger(&d, us, &KING_DANGER_ZONE_HIT, ei->zone_hits[them]);
    add_danger(&d, us, &KING_DANGER_NO_QUEEN, !queen);

    // Checks from squares we do not guard and they do not occupy.
    Bitboard safe = ~b->colors[them] & ~ei->att[us];
    Bitboard diag = attacks_bishop(k, ei->occ), ortho = attacks_rook(k, ei->occ);
    Bitboard checks[PIECE_TYPE_NB] = {
        [KNIGHT] = attacks_knight(k), [BISHOP] = diag, [ROOK] = ortho, [QUEEN] = diag | ortho
    };
    for (PieceType t = KNIGHT; t <= QUEEN; t++)
        if (checks[t] & ei->att_by[them][t] & safe)
            add_danger(&d, us, &KING_DANGER_SAFE_CHECK[t - KNIGHT], 1);

    // Zone squares they attack that only our king defends.
    add_danger(&d, us, &KING_DANGER_WEAK_SQUARE,
               bb_count(ei->king_zone[us] & ei->att[them] & ~ei->att_pieces[us]));

    int mg = imax(d.mg, 0), eg = imax(d.eg, 0);
    return (Score){ -mg * mg / EVAL_DANGER_MG_DIVISOR, -eg / EVAL_DANGER_EG_DIVISOR };
}

// The piece-dependent passed-pawn terms of one side. Returns the number of moves its fastest
// unstoppable pawn needs to queen counted from White's move (a large number if none).
static int eval_passed(EvalInfo *ei, Color us, Bitboard passed) {
    const Board *b = ei->b;
    Color them = !us;
    Score *t = &ei->term[TERM_PASSED][us];
    Square own_k = board_king(b, us), their_k = board_king(b, them);
    int fastest = 99;
    trace_side(us);

    while (passed) {
        Square s = bb_pop(&passed);
        int r = relative_rank(us, s);
        Square stop = forward_square(us, s);
        Bitboard path = forward_ranks(us, s) & bb_file(square_file(s));

        // A pawn ending: can the lone enemy king still catch it?
        if (ei->npm[them] == 0 && !(path & ei->occ)) {
            Square queen_sq = backmost(them, path);
            int moves = 7 - r - (r == 1);
            int king_moves = distance(their_k, queen_sq) - (b->side == them);
            if (king_moves > moves)
                fastest = imin(fastest, moves + (b->side != us));
        }

        if (r < 3)
            continue;
        // The enemy king far away is good, our own king far away is bad.
        add_n(t, &PASSED_ENEMY_KING[r], imin(distance(their_k, stop), PASSED_KING_DIST_CAP));
        add_n(t, &PASSED_OWN_KING[r], imin(distance(own_k, stop), PASSED_KING_DIST_CAP));
        if (!bb_has(ei->occ, stop)) {
            add(t, &PASSED_FREE_STOP[r]);
            if (!(path & (ei->occ | ei->att[them])))
                add(t, &PASSED_SAFE_PATH[r]);
        }
        if (bb_has(ei->att[us], stop) || bb_has(ei->pawn_att[us], s))
            add(t, &PASSED_SUPPORTED[r]);
    }
    return fastest;
}

// How far to trust the score in favour of strong (out of SCALE_NORMAL).
static int scale_factor(const Board *b, const int npm[COLOR_NB], Color strong) {
    Color weak = !strong;
    int strong_pawns = bb_count(board_pieces(b, strong, PAWN));
    int bishop = PIECE_VALUE[BISHOP].mg, rook = PIECE_VALUE[ROOK].mg;

    if (strong_pawns == 0) {
        // Without pawns a lone minor cannot mate, two knights cannot force it, and a minor
        // piece up (rook against minor, rook and minor against rook) is seldom enough.
        if (npm[strong] <= bishop)
            return SCALE_LONE_MINOR;
        if (npm[strong] == 2 * PIECE_VALUE[KNIGHT].mg &&
            bb_count(board_pieces(b, strong, KNIGHT)) == 2)
            return SCALE_TWO_KNIGHTS;
        if (npm[strong] - npm[weak] <= bishop)
            return SCALE_NO_PAWNS_MINOR_UP;
    }

    Bitboard bishops = b->pieces[BISHOP];
    if (bb_count(board_pieces(b, WHITE, BISHOP)) == 1 &&
        bb_count(board_pieces(b, BLACK, BISHOP)) == 1 && (bishops & BB_LIGHT_SQUARES) &&
        (bishops & BB_DARK_SQUARES)) {
        // Opposite-coloured bishops: the defender blockades on the other colour.
        if (npm[WHITE] == bishop && npm[BLACK] == bishop) {
            int d = iabs(strong_pawns - bb_count(board_pieces(b, weak, PAWN)));
            return SCALE_OCB_BY_PAWN_DIFF[imin(d, 3)];
        }
        if (npm[WHITE] <= bishop + rook && npm[BLACK] <= bishop + rook)
            return SCALE_OCB_WITH_PIECES;
    }

    if (strong_pawns == 1 && npm[weak] > 0 && npm[strong] <= npm[weak])
        return SCALE_ONE_PAWN_NO_EDGE;
    return SCALE_NORMAL;
}

int eval_phase(const Board *b) {
    int p = bb_count(b->pieces[KNIGHT] | b->pieces[BISHOP]) + 2 * bb_count(b->pieces[ROOK]) +
            4 * bb_count(b->pieces[QUEEN]);
    return imin(p, EVAL_PHASE_MAX);
}

int eval_piece_value(PieceType t) {
    return t < PIECE_TYPE_NB ? PIECE_VALUE[t].mg : 0;
}

// The full evaluation: returns the score for the side to move and fills terms (white-relative,
// TERM_NB entries).
static int evaluate(const Board *b, PawnCache *pc, Score *terms) {
    EvalInfo ei;
    ei.b = b;
    ei.occ = board_occupied(b);

    // Step 1. Material and phase.
    for (Color c = WHITE; c <= BLACK; c++) {
        Score m = { 0, 0 };
        int npm = 0;
        trace_side(c);
        for (PieceType t = PAWN; t < KING; t++) {
            int n = bb_count(board_pieces(b, c, t));
            add_n(&m, &PIECE_VALUE[t], n);
            if (t != PAWN)
                npm += n * PIECE_VALUE[t].mg;
        }
        ei.term[TERM_MATERIAL][c] = m;
        ei.npm[c] = npm;
        for (int i = TERM_PSQT; i < TERM_NB; i++)
            ei.term[i][c] = (Score){ 0, 0 };
    }
    int phase = eval_phase(b);

    // Step 2. Pawn structure, shelter and pawn/king squares from the pawn hash.
    PawnEntry local, *pe = &local;
    if (pc) {
        pe = &pc->entries[b->pawn_key & (PAWN_CACHE_ENTRIES - 1)];
        if (pe->key != b->pawn_key)
            pawn_entry_compute(b, pe);
    } else {
        pawn_entry_compute(b, pe);
    }

    // Step 3. Pawn and king attacks, mobility areas and king zones.
    for (Color c = WHITE; c <= BLACK; c++) {
        Square k = board_king(b, c);
        ei.pawn_att[c] = bb_pawn_attacks(c, board_pieces(b, c, PAWN));
        ei.att_by[c][PAWN] = ei.pawn_att[c];
        ei.att_by[c][KING] = attacks_king(k);
        ei.att_by[c][KNIGHT] = ei.att_by[c][BISHOP] = 0;
        ei.att_by[c][ROOK] = ei.att_by[c][QUEEN] = 0;
        // The zone reaches one rank further towards the enemy, where attacks come from.
        Bitboard zone = attacks_king(k) | bb_square(k);
        ei.king_zone[c] = zone | bb_forward(c, zone);
        memset(ei.zone_attackers[c], 0, sizeof ei.zone_attackers[c]);
        ei.zone_hits[c] = 0;
    }
    for (Color c = WHITE; c <= BLACK; c++)
        ei.mob_area[c] = ~b->colors[c] & ~ei.pawn_att[!c];

    // Step 4. Pieces: squares, mobility, attacks on the king zone, files and the seventh.
    for (Color c = WHITE; c <= BLACK; c++) {
        eval_pieces(&ei, c, KNIGHT);
        eval_pieces(&ei, c, BISHOP);
        eval_pieces(&ei, c, ROOK);
        eval_pieces(&ei, c, QUEEN);
        ei.att_pieces[c] = ei.att_by[c][PAWN] | ei.att_by[c][KNIGHT] | ei.att_by[c][BISHOP] |
                           ei.att_by[c][ROOK] | ei.att_by[c][QUEEN];
        ei.att[c] = ei.att_pieces[c] | ei.att_by[c][KING];
    }

    // Step 5. King safety from the attack counts.
    for (Color c = WHITE; c <= BLACK; c++)
        ei.term[TERM_KING_SAFETY][c] = king_danger(&ei, c);

    // Step 6. Passed pawns against the pieces; the race of unstoppable pawns in pawn endings.
    int fastest[COLOR_NB];
    for (Color c = WHITE; c <= BLACK; c++)
        fastest[c] = eval_passed(&ei, c, pe->passed & b->colors[c]);
    for (Color c = WHITE; c <= BLACK; c++) {
        if (fastest[c] < fastest[!c]) {
            trace_side(c);
            add(&ei.term[TERM_PASSED][c], &PASSED_UNSTOPPABLE);
        }
    }

    // Step 7. Bishop pair, threats and development.
    for (Color c = WHITE; c <= BLACK; c++) {
        Color them = !c;
        Bitboard bishops = board_pieces(b, c, BISHOP);
        trace_side(c);
        if ((bishops & BB_LIGHT_SQUARES) && (bishops & BB_DARK_SQUARES))
            add(&ei.term[TERM_PIECES][c], &BISHOP_PAIR);

        Bitboard targets = b->colors[them] & ~b->pieces[PAWN] & ~b->pieces[KING];
        Bitboard majors = b->colors[them] & (b->pieces[ROOK] | b->pieces[QUEEN]);
        Score *th = &ei.term[TERM_THREATS][c];
        add_n(th, &THREAT_BY_PAWN, bb_count(ei.pawn_att[c] & targets));
        add_n(th, &THREAT_MINOR_ON_MAJOR,
              bb_count((ei.att_by[c][KNIGHT] | ei.att_by[c][BISHOP]) & majors));
        add_n(th, &THREAT_HANGING, bb_count(targets & ei.att[c] & ~ei.att[them]));
        Bitboard minors = b->colors[them] & (b->pieces[KNIGHT] | b->pieces[BISHOP]);
        add_n(th, &THREAT_MINOR_ON_MINOR,
              bb_count((ei.att_by[c][KNIGHT] | ei.att_by[c][BISHOP]) & minors));
        add_n(th, &THREAT_ROOK_ON_QUEEN,
              bb_count(ei.att_by[c][ROOK] & b->colors[them] & b->pieces[QUEEN]));
        // Pawn pushes to squares the enemy does not hold that would attack a piece.
        Bitboard pushes = bb_forward(c, board_pieces(b, c, PAWN)) & ~ei.occ;
        pushes |= bb_forward(c, pushes & (c == WHITE ? BB_RANK_3 : BB_RANK_6)) & ~ei.occ;
        pushes &= ~ei.pawn_att[them] & (ei.att[c] | ~ei.att[them]);
        add_n(th, &THREAT_PAWN_PUSH, bb_count(bb_pawn_attacks(c, pushes) & targets));

        // Space: squares in the centre files of our half behind or free of our pawns that
        // enemy pawns do not attack; those right behind our pawns count twice.
        if (phase >= DEVELOPMENT_MIN_PHASE) {
            Bitboard centre = (bb_file(2) | bb_file(3) | bb_file(4) | bb_file(5)) &
                              (c == WHITE ? BB_RANK_2 | BB_RANK_3 | BB_RANK_4
                                          : BB_RANK_7 | BB_RANK_6 | BB_RANK_5);
            Bitboard own_pawns = board_pieces(b, c, PAWN);
            Bitboard safe = centre & ~own_pawns & ~ei.pawn_att[them];
            Bitboard behind = own_pawns;
            behind |= c == WHITE ? behind >> 8 : behind << 8;
            behind |= c == WHITE ? behind >> 16 : behind << 16;
            add_n(&ei.term[TERM_PIECES][c], &SPACE, bb_count(safe) + bb_count(safe & behind));
        }

        if (phase >= DEVELOPMENT_MIN_PHASE) {
            Bitboard home_knights = c == WHITE ? bb_square(SQ_B1) | bb_square(SQ_G1)
                                               : bb_square(SQ_B8) | bb_square(SQ_G8);
            Bitboard home_bishops = c == WHITE ? bb_square(SQ_C1) | bb_square(SQ_F1)
                                               : bb_square(SQ_C8) | bb_square(SQ_F8);
            Bitboard queen_home = bb_square(c == WHITE ? SQ_D1 : SQ_D8);
            if (b->chess960) { // the pieces start anywhere on the back rank
                home_knights = home_bishops = queen_home = bb_rank(c == WHITE ? 0 : 7);
            }
            int undeveloped = bb_count(board_pieces(b, c, KNIGHT) & home_knights) +
                              bb_count(bishops & home_bishops);
            Score *dev = &ei.term[TERM_DEVELOPMENT][c];
            add_n(dev, &UNDEVELOPED_MINOR, undeveloped);
            Bitboard queens = board_pieces(b, c, QUEEN);
            if (undeveloped >= EARLY_QUEEN_MIN_UNDEVELOPED && queens && !(queens & queen_home))
                add_n(dev, &EARLY_QUEEN, undeveloped);
        }
    }

    // Step 8. Sum up white-relative, add the cached terms and the tempo.
    Score total = { 0, 0 };
    for (int i = 0; i < TERM_NB; i++) {
        terms[i] = diff(ei.term[i][WHITE], ei.term[i][BLACK]);
        if (i == TERM_PSQT)
            accumulate(&terms[i], unpack(pe->psqt));
        else if (i == TERM_PAWNS)
            accumulate(&terms[i], unpack(pe->structure));
        else if (i == TERM_KING_SAFETY)
            accumulate(&terms[i], unpack(pe->shelter));
        else if (i == TERM_KING_ACTIVITY)
            accumulate(&terms[i], unpack(pe->activity));
        else if (i == TERM_TEMPO) {
            trace_side(WHITE);
            terms[i] = (Score){ 0, 0 };
            add_n(&terms[i], &TEMPO, b->side == WHITE ? 1 : -1);
        }
        accumulate(&total, terms[i]);
    }

    // Step 9. Blend by phase, scale drawish endings, clamp, and turn to the side to move.
    int v = taper(total, phase);
    int scale = scale_factor(b, ei.npm, v >= 0 ? WHITE : BLACK);
    v = v * scale / SCALE_NORMAL;
    v = imax(imin(v, VALUE_EVAL_MAX - 1), -(VALUE_EVAL_MAX - 1));
#ifdef EVAL_TRACE
    if (trace) {
        trace->phase = phase;
        trace->scale = scale;
        trace->eval = v;
    }
#endif
    return b->side == WHITE ? v : -v;
}

#ifdef EVAL_TRACE
void eval_trace(const Board *b, EvalTrace *t) {
    memset(t, 0, sizeof *t);
    Score terms[TERM_NB];
    trace = t;
    evaluate(b, NULL, terms);
    trace = NULL;
}
#endif

int eval_evaluate(const Board *b, PawnCache *pc) {
    Score terms[TERM_NB];
    return evaluate(b, pc, terms);
}

// The terms are white-relative mg/eg pairs before blending. Their blended sum differs from the
// final score by the drawish-ending scaling and the clamp, so a last "scaling" term (mg = eg)
// carries that difference; blending each term separately may still be off by rounding.
int eval_explain(const Board *b, EvalTerm *terms, int max) {
    Score t[TERM_NB];
    int v = evaluate(b, NULL, t);
    int white_v = b->side == WHITE ? v : -v;
    int phase = eval_phase(b);
    Score total = { 0, 0 };
    int n = 0;
    for (int i = 0; i < TERM_NB && n < max; i++, n++) {
        terms[n] = (EvalTerm){ TERM_NAMES[i], t[i].mg, t[i].eg };
        accumulate(&total, t[i]);
    }
    if (n < max) {
        int rest = white_v - taper(total, phase);
        terms[n++] = (EvalTerm){ TERM_NAMES[TERM_NB], rest, rest };
    }
    return n;
}
