// SPDX-License-Identifier: GPL-3.0-or-later
// Mouse, cursor and the keys of play by pointing (see pointer.h).
#include "src/term/pointer.h"

#include <string.h>

#include "ui/screen.h"

enum { KEY_ESC = 27, KEY_CTRL_V = 22, KEY_ENTER_LF = '\n', KEY_ENTER_CR = '\r' };

void pointer_init(Pointer *p) {
    p->cursor = SQ_NONE;
    p->pressed = SQ_NONE;
}

// The answer to the promotion chooser: "q", "r", "b", "n" or "" (a queen).
static void choose(Session *s, PieceType t, int64_t now) {
    static const char answers[PIECE_TYPE_NB][2] = {[QUEEN] = "q", [ROOK] = "r",
                                                   [BISHOP] = "b", [KNIGHT] = "n"};
    session_handle_line(s, answers[t], now);
}

// Press selects (or plays to) the square under the mouse; a release on
// another square after a press on a piece is a drag and plays the move.
// While the promotion chooser shows, a press on it picks the piece.
static void mouse(Pointer *p, Session *s, bool press, int64_t now) {
    int y, x;
    ui_screen_mouse_cell(&y, &x);
    if (session_promotion_square(s) != SQ_NONE) {
        PieceType t = ui_view_chooser_at(y, x);
        if (t != NO_PIECE_TYPE) {
            if (press)
                choose(s, t, now);
            p->pressed = SQ_NONE;
            return;
        }
    }
    Square sq = ui_view_square_at(y, x, session_flipped(s));
    if (press) {
        p->pressed = sq;
        if (sq != SQ_NONE)
            session_point(s, sq, now);
        else
            session_point_cancel(s); // a click off the board cancels
        return;
    }
    Square selected, from = p->pressed;
    Bitboard quiet, captures;
    Move premove;
    session_pointing(s, &selected, &quiet, &captures, &premove);
    p->pressed = SQ_NONE;
    if (sq != SQ_NONE && from != SQ_NONE && sq != from && selected == from)
        session_point(s, sq, now);
}

// The cursor steps on the screen: up is towards the top of the board
// whichever way round it is.
static void move_cursor(Pointer *p, const Session *s, int dx, int dy) {
    if (p->cursor == SQ_NONE) {
        p->cursor = session_flipped(s) ? make_square(4, 6) : make_square(4, 1); // e2 / e7
        return;
    }
    if (session_flipped(s)) {
        dx = -dx;
        dy = -dy;
    }
    int file = square_file(p->cursor) + dx, rank = square_rank(p->cursor) - dy;
    if (file >= 0 && file < 8 && rank >= 0 && rank < 8)
        p->cursor = make_square(file, rank);
}

bool pointer_key(Pointer *p, Session *s, int key, bool line_empty, int64_t now) {
    if (key == UI_KEY_PRESS || key == UI_KEY_RELEASE) {
        mouse(p, s, key == UI_KEY_PRESS, now);
        return true;
    }
    if (!line_empty || session_asking(s))
        return false;
    if (key == KEY_CTRL_V) {
        session_handle_line(s, "eval", now);
        return true;
    }
    if (!session_pointing_active(s))
        return false; // arrows step through a game in the other modes
    if (session_promotion_square(s) != SQ_NONE) {
        // The chooser takes q, r, b, n at once (no Enter), Enter for a queen.
        static const char keys[] = "qrbnQRBN";
        const char *hit = key > 0 && key < 128 ? strchr(keys, key) : NULL;
        if (hit) {
            choose(s, ui_chooser_pieces[(hit - keys) % 4], now);
            return true;
        }
        if (key == KEY_ENTER_LF || key == KEY_ENTER_CR) {
            choose(s, QUEEN, now);
            return true;
        }
    }
    if (key == KEY_ESC) {
        p->cursor = SQ_NONE;
        session_point_cancel(s);
        return true;
    }
    int dx, dy;
    if (ui_screen_arrow(key, &dx, &dy)) {
        move_cursor(p, s, dx, dy);
        return true;
    }
    if (p->cursor != SQ_NONE && (key == ' ' || key == KEY_ENTER_LF || key == KEY_ENTER_CR)) {
        session_point(s, p->cursor, now);
        return true;
    }
    return false;
}

void pointer_view(const Pointer *p, const Session *s, UiView *v) {
    Square selected;
    session_pointing(s, &selected, &v->quiet_targets, &v->capture_targets, &v->premove);
    v->selected = selected == SQ_NONE ? 0 : 1ULL << selected;
    v->cursor = p->cursor == SQ_NONE || !session_pointing_active(s) ? 0 : 1ULL << p->cursor;
    Square promo = session_promotion_square(s);
    v->choosing = promo != SQ_NONE;
    v->choose_square = promo == SQ_NONE ? 0 : promo;
    v->choose_side = game_turn(session_game(s));
    if (!session_eval_shown(s))
        memset(&v->thinking, 0, sizeof v->thinking);
}
