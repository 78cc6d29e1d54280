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
#include "engine/notation.h"
#include "src/session/session_int.h"

static const char *const piece_names[PIECE_TYPE_NB] = {
    [PAWN] = "pawn", [KNIGHT] = "knight", [BISHOP] = "bishop",
    [ROOK] = "rook", [QUEEN] = "queen",   [KING] = "king",
};

const char *pointing_piece_name(PieceType t) {
    return piece_names[t];
}

// The side the user moves in g (the side to move when both are human);
// false when the engine plays both.
static bool user_side(const Game *g, Color *side) {
    Color turn = game_turn(g);
    *side = game_player(g, turn) == PLAYER_HUMAN ? turn : (Color)!turn;
    return game_player(g, *side) == PLAYER_HUMAN;
}

void pointing_play(Session *s, const char *text, int64_t now) {
    session_ops(s)->play_move(s, text, now);
}

void pointing_reset(Session *s) {
    s->pointing.selected = SQ_NONE;
    s->pointing.premove = MOVE_NONE;
    s->pointing.premove_text[0] = '\0';
    s->pointing.promotion = MOVE_NONE;
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

// Whether the piece on from has a legal move.
static bool moves_from(const Board *b, Square from) {
    MoveList list;
    movegen_legal(b, &list);
    for (int i = 0; i < list.count; i++)
        if (move_from(list.moves[i]) == from)
            return true;
    return false;
}

// "e7e8q": the move as coordinates the game's parser takes.
static void move_text(Move m, PieceType promo, char *buf, size_t bufsz) {
    char from[3], to[3];
    square_name(move_from(m), from);
    square_name(move_to(m), to);
    static const char letters[PIECE_TYPE_NB] = {
        [KNIGHT] = 'n', [BISHOP] = 'b', [ROOK] = 'r', [QUEEN] = 'q'
    };
    snprintf(buf, bufsz, "%s%s%c", from, to, promo ? letters[promo] : '\0');
}

// Queues m (named text) to be tried the moment the engine has moved.
static void queue(Session *s, Move m, const char *text) {
    s->pointing.selected = SQ_NONE;
    s->pointing.premove = m;
    snprintf(s->pointing.premove_text, sizeof s->pointing.premove_text, "%s", text);
    session_say(s, MSG_INFO, "Premove %s: played when patzer has moved (Esc clears it).", text);
    session_changed(s);
}

// Plays from/to on the user's turn; a promotion first asks for the piece.
static void play_from_to(Session *s, Move m, int64_t now) {
    Move legal[4];
    int n = moves_between(game_board(session_game(s)), move_from(m), move_to(m), legal, 4);
    char text[8];
    if (n == 0) {
        move_text(m, 0, text, sizeof text);
        session_say(s, MSG_ERROR, "%s is not a legal move.", text);
        return;
    }
    if (move_is_promotion(legal[0])) {
        s->pointing.promotion = move_make(move_from(m), move_to(m));
        session_say(s, MSG_INFO, "Promote to: q, r, b or n (Enter: queen, Esc: cancel)");
        session_changed(s);
        return;
    }
    move_text(m, 0, text, sizeof text);
    pointing_play(s, text, now);
}

// Whether the king on from may castle with its rook on to: Chess960's way to
// point at castling (the king's destination square works too, as a move).
static bool castles_onto_rook(const Board *b, Square from, Square to) {
    char text[8];
    Move m;
    square_name(from, text);
    square_name(to, text + 2);
    return board_piece_on(b, from) == make_piece(b->side, KING) &&
           notation_parse_uci(b, text, &m) == NOTATION_OK && move_kind(m) == MOVE_CASTLING;
}

void pointing_square(Session *s, Square sq, int64_t now) {
    const ModeOps *ops = session_ops(s);
    if (ops->looking_back && ops->looking_back(s)) {
        ops->play_move(s, "", now); // says where the moves are played and how to return
        return;
    }
    const Game *g = session_game(s);
    Color me;
    if (game_is_over(g) || !user_side(g, &me)) {
        session_say(s, MSG_ERROR,
                    game_is_over(g) ? "The game is over." : "patzer plays both sides.");
        return;
    }
    const Board *b = game_board(g);
    Piece p = board_piece_on(b, sq);
    bool mine = p != NO_PIECE && piece_color(p) == me;
    bool my_turn = !game_engine_to_move(g);
    Square from = s->pointing.selected;
    s->pointing.promotion = MOVE_NONE;
    char name[3];
    square_name(sq, name);
    if (from != SQ_NONE && mine && my_turn && castles_onto_rook(b, from, sq)) {
        s->pointing.selected = SQ_NONE;
        char text[8];
        move_text(move_make(from, sq), 0, text, sizeof text); // king takes rook: castling
        pointing_play(s, text, now);
        session_changed(s);
        return;
    }
    if (from != SQ_NONE && sq != from && !mine) {
        s->pointing.selected = SQ_NONE;
        Move legal[4];
        if (my_turn && moves_between(b, from, sq, legal, 4) > 0) {
            play_from_to(s, move_make(from, sq), now);
        } else if (!my_turn) {
            char text[8];
            move_text(move_make(from, sq), 0, text, sizeof text);
            queue(s, move_make(from, sq), text);
        } else {
            session_say(s, MSG_INFO, "Selection cleared.");
        }
        session_changed(s);
        return;
    }
    if (mine && sq != from && my_turn && !moves_from(b, sq)) {
        // Nothing to point at: asking "where to?" would leave the user guessing.
        s->pointing.selected = SQ_NONE;
        session_say(s, MSG_INFO, "Your %s on %s has no move.", piece_names[piece_type(p)], name);
    } else if (mine && sq != from) {
        s->pointing.selected = sq;
        session_say(s, MSG_INFO, "Your %s on %s: where to?", piece_names[piece_type(p)], name);
    } else if (from != SQ_NONE) {
        s->pointing.selected = SQ_NONE;
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
    const Game *g = session_game(s);
    Color me;
    Piece p = board_piece_on(game_board(g), sq);
    bool mine = user_side(g, &me) && p != NO_PIECE && piece_color(p) == me;
    // "e3" alone is also a pawn move: a square is pointing only when it holds
    // one of your pieces or a piece is selected.
    if (!mine && s->pointing.selected == SQ_NONE)
        return false;
    Move legal[4];
    if (!mine && !game_engine_to_move(g) &&
        moves_between(game_board(g), s->pointing.selected, sq, legal, 4) == 0) {
        // "e4" with the knight selected is the pawn's move; a square that no
        // move reaches is judged as the selected piece's: it is the knight
        // that cannot go there, not some pawn.
        Square from = s->pointing.selected;
        s->pointing.selected = SQ_NONE;
        session_changed(s);
        Move m;
        char err[200];
        if (notation_parse_move(game_board(g), word, &m, err, sizeof err) == NOTATION_OK)
            return false;
        Piece sel = board_piece_on(game_board(g), from);
        char from_name[3];
        square_name(from, from_name);
        session_say(s, MSG_ERROR, "Your %s on %s cannot reach %s.",
                    sel == NO_PIECE ? "piece" : piece_names[piece_type(sel)], from_name, word);
        return true;
    }
    pointing_square(s, sq, now);
    return true;
}

// A move in SAN names a move of the side to move: while the engine thinks it
// is read on the board with the turn passed to the user. Not when the engine
// is in check (there is no passing then): coordinates still work.
static NotationStatus parse_for_user(const Board *b, const char *text, Move *m, char *err,
                                     size_t errsz) {
    if (board_in_check(b))
        return NOTATION_UNPARSEABLE;
    Board mine = *b;
    Undo u;
    board_make_null(&mine, &u);
    return notation_parse_move(&mine, text, m, err, errsz);
}

bool pointing_queue_text(Session *s, const char *text) {
    const Game *g = session_game(s);
    Color me;
    if (!user_side(g, &me))
        return false;
    const Board *b = game_board(g);
    if (strlen(text) == 4) {
        // Any from/to of your piece: it may be legal once the engine has moved.
        char from[3] = "", to[3] = "";
        memcpy(from, text, 2);
        memcpy(to, text + 2, 2);
        Square a = square_from_name(from), z = square_from_name(to);
        Piece p = a == SQ_NONE ? NO_PIECE : board_piece_on(b, a);
        if (z != SQ_NONE && p != NO_PIECE && piece_color(p) == me) {
            queue(s, move_make(a, z), text);
            return true;
        }
    }
    Move m;
    char err[200];
    NotationStatus st = parse_for_user(b, text, &m, err, sizeof err);
    if (st == NOTATION_UNPARSEABLE)
        return false;
    if (st != NOTATION_OK) {
        session_say(s, MSG_ERROR, "Not queued as a premove: %s", err);
        return true;
    }
    char san[MOVE_TEXT_MAX];
    Board mine = *b;
    Undo u;
    board_make_null(&mine, &u);
    notation_to_san(&mine, m, san);
    queue(s, m, san);
    return true;
}

bool pointing_promotion(Session *s, const char *text, int64_t now) {
    if (s->pointing.promotion == MOVE_NONE)
        return false;
    while (*text == ' ')
        text++;
    static const char *const choices = "qrbn";
    static const PieceType types[] = { QUEEN, ROOK, BISHOP, KNIGHT };
    const char *hit = !text[0]            ? choices // Enter: a queen
                      : strlen(text) == 1 ? strchr(choices, tolower((unsigned char)text[0]))
                                          : NULL;
    if (!hit) {
        s->pointing.promotion = MOVE_NONE; // anything else: the choice is dropped
        return false;
    }
    Move m = s->pointing.promotion;
    s->pointing.promotion = MOVE_NONE;
    char buf[8];
    move_text(m, types[hit - choices], buf, sizeof buf);
    pointing_play(s, buf, now);
    return true;
}

bool pointing_prompt(const Session *s, char *buf, size_t bufsz) {
    if (s->pointing.promotion != MOVE_NONE) {
        snprintf(buf, bufsz, "promote to: q, r, b or n (Enter: queen, Esc: cancel)");
        return true;
    }
    const Game *g = session_game(s);
    Square from = s->pointing.selected;
    Piece p = from == SQ_NONE || game_is_over(g) ? NO_PIECE : board_piece_on(game_board(g), from);
    if (p == NO_PIECE)
        return false;
    char name[3];
    square_name(from, name);
    snprintf(buf, bufsz, "your %s on %s: where to?", piece_names[piece_type(p)], name);
    return true;
}

void pointing_after_engine(Session *s, int64_t now) {
    Move pm = s->pointing.premove;
    const Game *g = session_game(s);
    if (pm == MOVE_NONE || game_engine_to_move(g))
        return;
    char name[MOVE_TEXT_MAX];
    snprintf(name, sizeof name, "%s", s->pointing.premove_text);
    s->pointing.premove = MOVE_NONE;
    s->pointing.premove_text[0] = '\0';
    Move legal[4];
    if (game_is_over(g) ||
        moves_between(game_board(g), move_from(pm), move_to(pm), legal, 4) == 0) {
        session_say(s, MSG_INFO, "Premove %s dropped: it is not legal now.", name);
        session_changed(s);
        return;
    }
    // A promotion typed in SAN says its piece; else there is no one to ask
    // in an instant: a queen.
    PieceType promo = PAWN; // none
    if (move_is_promotion(legal[0]))
        promo = move_is_promotion(pm) ? move_promotion(pm) : QUEEN;
    char text[8];
    move_text(pm, promo, text, sizeof text);
    pointing_play(s, text, now);
}

void pointing_targets(const Session *s, Bitboard *quiet, Bitboard *captures) {
    *quiet = *captures = 0;
    Square from = s->pointing.selected;
    const Game *g = session_game(s);
    if (from == SQ_NONE || game_engine_to_move(g) || game_is_over(g))
        return;
    const Board *b = game_board(g);
    MoveList list;
    movegen_legal(b, &list);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (move_from(m) != from)
            continue;
        if (move_kind(m) == MOVE_CASTLING) {
            // The king's destination and its rook: either square castles.
            *quiet |= 1ULL << move_to(m) | 1ULL << b->castle_rook[castle_index_of(m)];
            continue;
        }
        bool capture = board_piece_on(b, move_to(m)) != NO_PIECE || move_kind(m) == MOVE_EN_PASSANT;
        *(capture ? captures : quiet) |= 1ULL << move_to(m);
    }
}
