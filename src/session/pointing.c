// SPDX-License-Identifier: GPL-3.0-or-later
// Play by pointing in modes play and train: a square (typed alone, clicked,
// or under the cursor) selects one of the user's pieces, a second square
// plays it.
// While the engine thinks the move is queued as a premove and tried the
// moment the engine has moved. The state is the play mode's, not the game's:
// nothing here changes the game except through pointing_play.
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "engine/movegen.h"
#include "src/session/session_int.h"

static const char *const piece_names[PIECE_TYPE_NB] = {
    [PAWN] = "pawn", [KNIGHT] = "knight", [BISHOP] = "bishop",
    [ROOK] = "rook", [QUEEN] = "queen",   [KING] = "king",
};

const char *pointing_piece_name(PieceType t) { return piece_names[t]; }

// The side the user moves in g (the side to move when both are human);
// false when the engine plays both.
static bool user_side(const Game *g, Color *side) {
    Color turn = game_turn(g);
    *side = game_player(g, turn) == PLAYER_HUMAN ? turn : (Color)!turn;
    return game_player(g, *side) == PLAYER_HUMAN;
}

void pointing_reset(Session *s) {
    s->play.selected = SQ_NONE;
    s->play.premove = MOVE_NONE;
    s->play.promotion = MOVE_NONE;
}

// The legal moves from one square to another (several for a promotion).
static int moves_between(const Board *b, Square from, Square to, Move *out, int max) {
    MoveList list;
    movegen_legal(b, &list);
    int n = 0;
    for (int i = 0; i < list.count && n < max; i++)
        if (move_from(list.moves[i]) == from && move_to(list.moves[i]) == to)
            out[n++] = list.moves[i];
    return n;
}

// "e7e8q": the move as coordinates the game's parser takes.
static void move_text(Move m, PieceType promo, char *buf, size_t bufsz) {
    char from[3], to[3];
    square_name(move_from(m), from);
    square_name(move_to(m), to);
    static const char letters[PIECE_TYPE_NB] = {[KNIGHT] = 'n', [BISHOP] = 'b', [ROOK] = 'r',
                                                [QUEEN] = 'q'};
    snprintf(buf, bufsz, "%s%s%c", from, to, promo ? letters[promo] : '\0');
}

// Plays from/to on the user's turn; a promotion first asks for the piece.
static void play_from_to(Session *s, Move m, int64_t now) {
    Move legal[4];
    int n = moves_between(game_board(pointing_game(s)), move_from(m), move_to(m), legal, 4);
    char text[8];
    if (n == 0) {
        move_text(m, 0, text, sizeof text);
        session_say(s, MSG_ERROR, "%s is not a legal move.", text);
        return;
    }
    if (move_is_promotion(legal[0])) {
        s->play.promotion = move_make(move_from(m), move_to(m));
        session_say(s, MSG_INFO, "Promote to: q, r, b or n (Enter: queen, Esc: cancel)");
        session_changed(s);
        return;
    }
    move_text(m, 0, text, sizeof text);
    pointing_play(s, text, now);
}

void pointing_square(Session *s, Square sq, int64_t now) {
    const Game *g = pointing_game(s);
    Color me;
    if (game_is_over(g) || !user_side(g, &me)) {
        session_say(s, MSG_ERROR, game_is_over(g) ? "The game is over."
                                                  : "patzer plays both sides.");
        return;
    }
    const Board *b = game_board(g);
    Piece p = board_piece_on(b, sq);
    bool mine = p != NO_PIECE && piece_color(p) == me;
    bool my_turn = !game_engine_to_move(g);
    Square from = s->play.selected;
    s->play.promotion = MOVE_NONE;
    char name[3];
    square_name(sq, name);
    if (from != SQ_NONE && sq != from && !mine) {
        s->play.selected = SQ_NONE;
        Move legal[4];
        if (my_turn && moves_between(b, from, sq, legal, 4) > 0) {
            play_from_to(s, move_make(from, sq), now);
        } else if (!my_turn) {
            char text[8];
            s->play.premove = move_make(from, sq);
            move_text(s->play.premove, 0, text, sizeof text);
            session_say(s, MSG_INFO, "Premove %s: played when patzer has moved (Esc clears it).",
                        text);
        } else {
            session_say(s, MSG_INFO, "Selection cleared.");
        }
        session_changed(s);
        return;
    }
    if (mine && sq != from) {
        s->play.selected = sq;
        session_say(s, MSG_INFO, "Your %s on %s: where to?", piece_names[piece_type(p)], name);
    } else if (from != SQ_NONE) {
        s->play.selected = SQ_NONE;
        session_say(s, MSG_INFO, "Selection cleared.");
    } else {
        session_say(s, MSG_ERROR, "No piece of yours on %s.", name);
    }
    session_changed(s);
}

bool pointing_text(Session *s, const char *text, int64_t now) {
    char word[3] = "";
    if (strlen(text) != 2)
        return false;
    word[0] = (char)tolower((unsigned char)text[0]);
    word[1] = text[1];
    Square sq = square_from_name(word);
    if (sq == SQ_NONE)
        return false;
    const Game *g = pointing_game(s);
    Color me;
    Piece p = board_piece_on(game_board(g), sq);
    bool mine = user_side(g, &me) && p != NO_PIECE && piece_color(p) == me;
    // "e3" alone is also a pawn move: a square is pointing only when it holds
    // one of your pieces or a piece is selected.
    if (!mine && s->play.selected == SQ_NONE)
        return false;
    Move legal[4];
    if (!mine && !game_engine_to_move(g) &&
        moves_between(game_board(g), s->play.selected, sq, legal, 4) == 0) {
        // "e4" with the knight selected is the pawn's move (or an error).
        s->play.selected = SQ_NONE;
        session_changed(s);
        return false;
    }
    pointing_square(s, sq, now);
    return true;
}

bool pointing_queue_text(Session *s, const char *text) {
    char from[3] = "", to[3] = "";
    if (strlen(text) != 4)
        return false;
    memcpy(from, text, 2);
    memcpy(to, text + 2, 2);
    Square a = square_from_name(from), b = square_from_name(to);
    const Game *g = pointing_game(s);
    Color me;
    if (a == SQ_NONE || b == SQ_NONE || !user_side(g, &me))
        return false;
    Piece p = board_piece_on(game_board(g), a);
    if (p == NO_PIECE || piece_color(p) != me)
        return false;
    s->play.selected = SQ_NONE;
    s->play.premove = move_make(a, b);
    session_say(s, MSG_INFO, "Premove %s: played when patzer has moved (Esc clears it).", text);
    session_changed(s);
    return true;
}

bool pointing_promotion(Session *s, const char *text, int64_t now) {
    if (s->play.promotion == MOVE_NONE)
        return false;
    while (*text == ' ')
        text++;
    static const char *const choices = "qrbn";
    static const PieceType types[] = {QUEEN, ROOK, BISHOP, KNIGHT};
    const char *hit = !text[0]              ? choices // Enter: a queen
                      : strlen(text) == 1 ? strchr(choices, tolower((unsigned char)text[0]))
                                          : NULL;
    if (!hit) {
        s->play.promotion = MOVE_NONE; // anything else: the choice is dropped
        return false;
    }
    Move m = s->play.promotion;
    s->play.promotion = MOVE_NONE;
    char buf[8];
    move_text(m, types[hit - choices], buf, sizeof buf);
    pointing_play(s, buf, now);
    return true;
}

void pointing_after_engine(Session *s, int64_t now) {
    Move pm = s->play.premove;
    const Game *g = pointing_game(s);
    if (pm == MOVE_NONE || game_engine_to_move(g))
        return;
    s->play.premove = MOVE_NONE;
    char text[8];
    move_text(pm, 0, text, sizeof text);
    Move legal[4];
    if (game_is_over(g) || moves_between(game_board(g), move_from(pm), move_to(pm), legal, 4) == 0) {
        session_say(s, MSG_INFO, "Premove %s dropped: it is not legal now.", text);
        session_changed(s);
        return;
    }
    if (move_is_promotion(legal[0]))
        move_text(pm, QUEEN, text, sizeof text); // no one to ask in an instant: a queen
    pointing_play(s, text, now);
}

void pointing_targets(const Session *s, Bitboard *quiet, Bitboard *captures) {
    *quiet = *captures = 0;
    Square from = s->play.selected;
    const Game *g = pointing_game(s);
    if (from == SQ_NONE || game_engine_to_move(g) || game_is_over(g))
        return;
    const Board *b = game_board(g);
    MoveList list;
    movegen_legal(b, &list);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (move_from(m) != from)
            continue;
        bool capture = board_piece_on(b, move_to(m)) != NO_PIECE ||
                       move_kind(m) == MOVE_EN_PASSANT;
        *(capture ? captures : quiet) |= 1ULL << move_to(m);
    }
}
