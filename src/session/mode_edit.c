// SPDX-License-Identifier: GPL-3.0-or-later
// Mode edit: the position editor. It edits a board of its own; done asks the
// core for a new game from it, cancel returns to where the editor was opened.
#include <stdio.h>
#include <string.h>

#include "src/session/session_int.h"

typedef struct EditState {
    Board board; // only squares, side to move
    char castling[5], ep[3];
} EditState;

static EditState *state(const Session *s) {
    return s->mode_state[SESSION_EDIT];
}

static const Transition stay = { .kind = TR_STAY };
static const char letters[] = "PpNnBbRrQqKk";

static void put(Board *b, Square sq, Piece p) {
    Piece old = (Piece)b->squares[sq];
    if (old != NO_PIECE) {
        b->pieces[piece_type(old)] &= ~bb_square(sq);
        b->colors[piece_color(old)] &= ~bb_square(sq);
    }
    b->squares[sq] = (uint8_t)p;
    if (p != NO_PIECE) {
        b->pieces[piece_type(p)] |= bb_square(sq);
        b->colors[piece_color(p)] |= bb_square(sq);
    }
}

// The editor's squares and fields from a board.
static void load_board(EditState *e, const Board *b) {
    memset(&e->board, 0, sizeof e->board);
    memset(e->board.squares, NO_PIECE, sizeof e->board.squares);
    for (Square sq = 0; sq < SQ_NB; sq++)
        put(&e->board, sq, (Piece)b->squares[sq]);
    e->board.side = b->side;
    e->board.ep = SQ_NONE;
    char fen[FEN_MAX], placement[80], side[2], castling[8], ep[4];
    board_to_fen(b, fen, sizeof fen);
    e->castling[0] = e->ep[0] = '\0';
    if (sscanf(fen, "%79s %1s %7s %3s", placement, side, castling, ep) == 4) {
        snprintf(e->castling, sizeof e->castling, "%.4s", castling);
        snprintf(e->ep, sizeof e->ep, "%.2s", ep);
    }
}

static bool edit_enter(Session *s, const ModeArgs *args, int64_t now) {
    (void)now;
    load_board(state(s), game_board(args->source));
    session_say(s, MSG_INFO,
                "Editing: put Qd4 / put pe5, remove e4, clear, side white|black, "
                "castling KQkq|-, ep e3|-, then done (or cancel).");
    return true;
}

static void edit_leave(Session *s, int64_t now) {
    (void)s, (void)now;
}

// The placement from the squares; the rest from the editor's fields.
static void edit_fen(const EditState *e, char *buf, size_t bufsz) {
    char placement[80];
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            Piece p = (Piece)e->board.squares[make_square(file, rank)];
            if (p == NO_PIECE) {
                empty++;
                continue;
            }
            if (empty)
                placement[n++] = (char)('0' + empty);
            empty = 0;
            placement[n++] = letters[p];
        }
        if (empty)
            placement[n++] = (char)('0' + empty);
        if (rank)
            placement[n++] = '/';
    }
    placement[n] = '\0';
    snprintf(buf, bufsz, "%s %c %s %s 0 1", placement, e->board.side == WHITE ? 'w' : 'b',
             e->castling[0] ? e->castling : "-", e->ep[0] ? e->ep : "-");
}

// "Qd4", "qd4", or "Q d4".
static bool put_piece(Session *s, const char *t) {
    const char *l = t[0] ? strchr(letters, t[0]) : NULL;
    const char *sq_text = t + 1;
    while (*sq_text == ' ')
        sq_text++;
    Square sq = square_from_name(sq_text);
    if (!l || sq == SQ_NONE || sq_text[2]) {
        session_say(s, MSG_ERROR,
                    "put needs a piece letter (KQRBNP white, kqrbnp black) and a "
                    "square, like Qd4 or pe5; not '%s'",
                    t);
        return false;
    }
    put(&state(s)->board, sq, (Piece)(l - letters));
    session_say(s, MSG_INFO, "Put %c on %s (editor)", *l, sq_text);
    return true;
}

static bool remove_piece(Session *s, const char *t) {
    Square sq = square_from_name(t);
    if (sq == SQ_NONE || t[2]) {
        session_say(s, MSG_ERROR, "remove needs a square like e4, not '%s'", t);
        return false;
    }
    put(&state(s)->board, sq, NO_PIECE);
    session_say(s, MSG_INFO, "Emptied %s (editor)", t);
    return true;
}

static bool set_field(Session *s, const Command *cmd) {
    EditState *e = state(s);
    const char *t = cmd->text;
    if (cmd->kind == CMD_SIDE) {
        if (t[0] != 'w' && t[0] != 'W' && t[0] != 'b' && t[0] != 'B') {
            session_say(s, MSG_ERROR, "side needs white or black, not '%s'", t);
            return false;
        }
        e->board.side = (t[0] == 'w' || t[0] == 'W') ? WHITE : BLACK;
        session_say(s, MSG_INFO, "%s to move (editor)", e->board.side == WHITE ? "White" : "Black");
    } else if (cmd->kind == CMD_CASTLING) {
        if (strlen(t) >= sizeof e->castling || strspn(t, "KQkq-") != strlen(t)) {
            session_say(s, MSG_ERROR, "castling needs rights like KQkq, Kq or -, not '%s'", t);
            return false;
        }
        snprintf(e->castling, sizeof e->castling, "%.4s", t);
        session_say(s, MSG_INFO, "Castling rights %s (editor)", t);
    } else {
        if (strcmp(t, "-") != 0 && (square_from_name(t) == SQ_NONE || t[2])) {
            session_say(s, MSG_ERROR, "ep needs a square like e3 or -, not '%s'", t);
            return false;
        }
        snprintf(e->ep, sizeof e->ep, "%.2s", t);
        session_say(s, MSG_INFO, "En-passant square %s (editor)", t);
    }
    return true;
}

// setboard in the editor: the position (a full FEN, or a placement alone)
// replaces the one being edited, to be changed further.
static bool set_board(Session *s, const char *text) {
    char fen[FEN_MAX * 2], note[128], err[256];
    Board b;
    if (!session_complete_fen(text, fen, sizeof fen, note, sizeof note, err, sizeof err) ||
        !board_set_fen(&b, fen, err, sizeof err)) {
        session_say(s, MSG_ERROR, "Bad FEN: %s", err);
        return false;
    }
    load_board(state(s), &b);
    session_say(s, MSG_INFO, "Position loaded into the editor%s%s%s; done uses it.",
                note[0] ? " (" : "", note, note[0] ? ")" : "");
    return true;
}

static Transition edit_handle(Session *s, const Command *cmd, int64_t now) {
    (void)now;
    Transition tr = stay;
    bool changed = false;
    switch (cmd->kind) {
    case CMD_PUT: changed = put_piece(s, cmd->text); break;
    case CMD_REMOVE: changed = remove_piece(s, cmd->text); break;
    case CMD_CLEAR:
        for (Square sq = 0; sq < SQ_NB; sq++)
            put(&state(s)->board, sq, NO_PIECE);
        state(s)->castling[0] = state(s)->ep[0] = '\0';
        session_say(s, MSG_INFO, "Board cleared (editor): put the kings back.");
        changed = true;
        break;
    case CMD_SIDE:
    case CMD_CASTLING:
    case CMD_EP: changed = set_field(s, cmd); break;
    case CMD_DONE: {
        // The core checks the position and starts the game, or says why not.
        tr.kind = TR_SETBOARD;
        edit_fen(state(s), tr.fen, sizeof tr.fen);
        break;
    }
    case CMD_SETBOARD: changed = set_board(s, cmd->text); break;
    case CMD_FEN:
        edit_fen(state(s), tr.fen, sizeof tr.fen);
        session_say(s, MSG_INFO, "%s", tr.fen);
        break;
    case CMD_CANCEL:
        session_say(s, MSG_INFO, "Editor closed; nothing changed.");
        tr.kind = TR_BACK;
        break;
    default: break;
    }
    if (changed)
        session_changed(s);
    return tr;
}

static Transition edit_poll(Session *s, const Event *ev, int64_t now) {
    (void)s, (void)ev, (void)now;
    return stay;
}

static const Game *edit_game(const Session *s) {
    return s->live;
}
static const Board *edit_board(const Session *s) {
    return &state(s)->board;
}

static void edit_status(const Session *s, char *buf, size_t bufsz) {
    snprintf(buf, bufsz, "%s to move (editor)", state(s)->board.side == WHITE ? "White" : "Black");
}

static PgnGame *edit_to_pgn(Session *s, int64_t now) {
    (void)s, (void)now;
    return NULL;
}

const ModeOps mode_edit_ops = {
    .state_size = sizeof(EditState),
    .enter = edit_enter,
    .leave = edit_leave,
    .handle = edit_handle,
    .poll = edit_poll,
    .game = edit_game,
    .board = edit_board,
    .status = edit_status,
    .to_pgn = edit_to_pgn,
    .refusal_hint = ": done uses the position, cancel leaves the editor",
    .hides_moves = true,
    .hides_opening = true,
};
