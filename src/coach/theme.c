// SPDX-License-Identifier: GPL-3.0-or-later
// Puzzle themes: the geometry of forks, pins, skewers and discovered
// attacks on the board after each of the player's moves (see theme.h).
#include "src/coach/theme.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/attacks.h"
#include "engine/bitboard.h"
#include "engine/movegen.h"
#include "engine/see.h"

enum { KING_VALUE = 100000 };

static const struct {
    const char *token, *words;
} names[THEME_NB] = {
    [THEME_MATE] = { "mate", "mate" },
    [THEME_PROMOTION] = { "promotion", "promotion" },
    [THEME_FORK] = { "fork", "fork" },
    [THEME_SKEWER] = { "skewer", "skewer" },
    [THEME_PIN] = { "pin", "pin" },
    [THEME_DISCOVERED] = { "discovered", "discovered attack" },
    [THEME_HANGING] = { "hanging", "hanging piece" },
    [THEME_DEFENCE] = { "defence", "defence" },
    [THEME_QUIET] = { "quiet", "quiet move" },
    [THEME_ADVANTAGE] = { "advantage", "advantage" },
};

static int value_of(Piece p) {
    return piece_type(p) == KING ? KING_VALUE : see_piece_value(piece_type(p));
}

static bool is_slider(PieceType t) {
    return t == BISHOP || t == ROOK || t == QUEEN;
}

// Material of side c (kings not counted).
static int material(const Board *b, Color c) {
    int sum = 0;
    for (PieceType t = PAWN; t < KING; t++)
        sum += bb_count(board_pieces(b, c, t)) * see_piece_value(t);
    return sum;
}

static bool defended(const Board *b, Square s, Color by) {
    // Attackers of s by `by` with s's own piece counted as present.
    return (board_attackers_to(b, s, board_occupied(b)) & b->colors[by]) != 0;
}

// The first occupied square beyond `from` going away from `origin` on
// their common line; SQ_NONE when the line leaves the board first.
static Square behind(const Board *b, Square origin, Square from) {
    int df = square_file(from) - square_file(origin), dr = square_rank(from) - square_rank(origin);
    df = (df > 0) - (df < 0);
    dr = (dr > 0) - (dr < 0);
    int f = square_file(from) + df, r = square_rank(from) + dr;
    for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
        Square s = make_square(f, r);
        if (board_piece_on(b, s) != NO_PIECE)
            return s;
    }
    return SQ_NONE;
}

// What piece p (now on `to` of `after`) attacks among the enemy's pieces.
static Bitboard attacked_by(const Board *after, Square to) {
    Piece p = board_piece_on(after, to);
    Color us = piece_color(p);
    Bitboard occ = board_occupied(after);
    Bitboard att =
        piece_type(p) == PAWN ? attacks_pawn(us, to) : attacks_piece(piece_type(p), to, occ);
    return att & after->colors[!us];
}

static bool is_fork(const Board *before, const Board *after, Move m) {
    Square to = move_to(m);
    Piece p = board_piece_on(after, to);
    if (!see_ge(before, m, 0))
        return false; // the forking piece is simply lost
    Color them = !piece_color(p);
    int targets = 0;
    for (Bitboard att = attacked_by(after, to); att;) {
        Square s = bb_pop(&att);
        Piece x = board_piece_on(after, s);
        if (piece_type(x) == KING || value_of(x) > value_of(p) || !defended(after, s, them))
            targets++;
    }
    return targets >= 2;
}

// Pins (front worth less than back) and skewers (front worth more).
static bool line_motif(const Board *after, Move m, bool skewer) {
    Square to = move_to(m);
    Piece p = board_piece_on(after, to);
    if (!is_slider(piece_type(p)))
        return false;
    Color them = !piece_color(p);
    for (Bitboard att = attacked_by(after, to); att;) {
        Square front = bb_pop(&att);
        Square back = behind(after, to, front);
        if (back == SQ_NONE || piece_color(board_piece_on(after, back)) != them)
            continue;
        Piece f = board_piece_on(after, front), k = board_piece_on(after, back);
        if (skewer && value_of(f) > value_of(k) && piece_type(k) != PAWN)
            return true;
        if (!skewer && value_of(k) > value_of(f) && piece_type(f) != KING)
            return true;
    }
    return false;
}

static bool is_discovered(const Board *before, const Board *after, Move m) {
    Color us = before->side, them = !us;
    Square from = move_from(m), to = move_to(m);
    Bitboard sliders = (board_pieces(after, us, BISHOP) | board_pieces(after, us, ROOK) |
                        board_pieces(after, us, QUEEN)) &
                       ~bb_square(to);
    for (Bitboard sl = sliders; sl;) {
        Square s = bb_pop(&sl);
        PieceType t = piece_type(board_piece_on(after, s));
        Bitboard was = attacks_piece(t, s, board_occupied(before));
        if (!bb_has(was, from))
            continue; // only a line through the square left can open
        Bitboard now = attacks_piece(t, s, board_occupied(after));
        for (Bitboard fresh = now & ~was & after->colors[them]; fresh;) {
            Square x = bb_pop(&fresh);
            Piece target = board_piece_on(after, x);
            if (piece_type(target) == KING || value_of(target) >= see_piece_value(ROOK) ||
                !defended(after, x, them))
                return true;
        }
    }
    return false;
}

// Whether the side to move is in check or has a piece en prise (see theme.h).
static bool threatened(const Board *b) {
    if (board_in_check(b))
        return true;
    Color us = b->side;
    Bitboard occ = board_occupied(b);
    for (PieceType t = KNIGHT; t < KING; t++)
        for (Bitboard own = board_pieces(b, us, t); own;) {
            Square s = bb_pop(&own);
            Bitboard attackers = board_attackers_to(b, s, occ) & b->colors[!us];
            if (!attackers)
                continue;
            if (!defended(b, s, us))
                return true;
            while (attackers) {
                Square a = bb_pop(&attackers);
                if (value_of(board_piece_on(b, a)) < see_piece_value(t))
                    return true;
            }
        }
    return false;
}

static bool checkmated(const Board *b) {
    return board_in_check(b) && movegen_count(b) == 0;
}

ThemeInfo theme_detect(const Board *start, const Move *moves, int n) {
    Board b = *start, positions[16];
    Move legal[16];
    int count = 0;
    for (int i = 0; i < n && i < 16; i++) {
        if (!movegen_is_legal(&b, moves[i]))
            break;
        positions[count] = b;
        legal[count++] = moves[i];
        board_play(&b, moves[i]);
    }
    if (count > 0 && count % 2 == 1 && checkmated(&b)) {
        int in = (count + 1) / 2;
        return (ThemeInfo){ THEME_MATE, in > THEME_MATE_MAX ? THEME_MATE_MAX : in };
    }
    for (int i = 0; i < count; i += 2) {
        const Board *before = &positions[i];
        Board after = *before;
        board_play(&after, legal[i]);
        if (move_is_promotion(legal[i]))
            return (ThemeInfo){ THEME_PROMOTION, 0 };
        if (is_fork(before, &after, legal[i]))
            return (ThemeInfo){ THEME_FORK, 0 };
        if (line_motif(&after, legal[i], true))
            return (ThemeInfo){ THEME_SKEWER, 0 };
        if (line_motif(&after, legal[i], false))
            return (ThemeInfo){ THEME_PIN, 0 };
        if (is_discovered(before, &after, legal[i]))
            return (ThemeInfo){ THEME_DISCOVERED, 0 };
    }
    if (count > 0) {
        Square to = move_to(legal[0]);
        Piece taken = board_piece_on(start, to);
        if (taken != NO_PIECE && piece_color(taken) != start->side &&
            !defended(start, to, piece_color(taken)))
            return (ThemeInfo){ THEME_HANGING, 0 };
    }
    Color us = start->side;
    int gain =
        (material(&b, us) - material(&b, !us)) - (material(start, us) - material(start, !us));
    if (gain > 0)
        return (ThemeInfo){ THEME_ADVANTAGE, 0 };
    return (ThemeInfo){ threatened(start) ? THEME_DEFENCE : THEME_QUIET, 0 };
}

const char *theme_name(PuzzleTheme t) {
    return t >= 0 && t < THEME_NB ? names[t].token : "?";
}

void theme_token(ThemeInfo t, char *buf, size_t bufsz) {
    if (t.theme == THEME_MATE && t.mate_in > 0)
        snprintf(buf, bufsz, "mate%d", t.mate_in);
    else
        snprintf(buf, bufsz, "%s", theme_name(t.theme));
}

void theme_words(ThemeInfo t, char *buf, size_t bufsz) {
    if (t.theme == THEME_MATE && t.mate_in > 0)
        snprintf(buf, bufsz, "mate in %d", t.mate_in);
    else if (t.theme >= 0 && t.theme < THEME_NB)
        snprintf(buf, bufsz, "%s", names[t.theme].words);
    else
        snprintf(buf, bufsz, "?");
}

bool theme_parse(const char *text, ThemeInfo *out) {
    int n;
    char tail;
    if (sscanf(text, "mate%d%c", &n, &tail) == 1 || sscanf(text, "mate in %d%c", &n, &tail) == 1) {
        if (n < 1 || n > THEME_MATE_MAX)
            return false;
        *out = (ThemeInfo){ THEME_MATE, n };
        return true;
    }
    for (int t = 0; t < THEME_NB; t++)
        if (!strcmp(text, names[t].token) || !strcmp(text, names[t].words)) {
            *out = (ThemeInfo){ (PuzzleTheme)t, 0 };
            return true;
        }
    if (!strcmp(text, "defense")) { // the American spelling
        *out = (ThemeInfo){ THEME_DEFENCE, 0 };
        return true;
    }
    return false;
}

bool theme_matches(ThemeInfo t, ThemeInfo want) {
    return t.theme == want.theme && (want.mate_in == 0 || t.mate_in == want.mate_in);
}
