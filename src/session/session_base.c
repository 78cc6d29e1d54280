// SPDX-License-Identifier: GPL-3.0-or-later
// Services the session's modes share: messages to the front end, the live
// game's autosave and archive, and small views of a game as text.
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "src/session/session_int.h"

void session_say(Session *s, MessageKind kind, const char *fmt, ...) {
    char text[MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    session_say_text(s, kind, text);
}

void session_say_text(Session *s, MessageKind kind, const char *text) {
    // Status messages are kept: the status line shows only the latest, and
    // only as much of it as fits.
    if (kind == MSG_INFO || kind == MSG_ERROR)
        msglog_add(&s->messages, kind == MSG_ERROR, text);
    if (s->hooks.message)
        s->hooks.message(kind, text, s->hooks.ctx);
}

void session_message(Session *s, MessageKind kind, const char *text) {
    session_say_text(s, kind, text);
}

void session_changed(Session *s) {
    if (s->hooks.position_changed)
        s->hooks.position_changed(s->hooks.ctx);
}

// Appends the live game to the archive once (finished, or abandoned when a
// new game replaces it unfinished). A game without moves is not kept.
void session_archive_live(Session *s, const Game *g, int64_t now) {
    if (game_ply_count(g) == 0 || !s->opts.archive_path[0])
        return;
    PgnGame *pgn = session_to_pgn(g, s->openings, now);
    char err[512] = "out of memory";
    if (!pgn || (!game_is_over(g) && !pgn_set_tag(pgn, "Termination", "abandoned")) ||
        !session_archive(pgn, s->opts.archive_path, g == s->live ? &s->live_spot : NULL, err,
                         sizeof err))
        session_say(s, MSG_ERROR, "Cannot archive the game: %s", err);
    pgn_game_free(pgn);
}

void session_live_changed(Session *s, int64_t now) {
    s->live_dirty = true;
    session_autosave(s->live, s->openings, s->opts.autosave_path, now);
    if (game_is_over(s->live) && !s->live_archived) {
        session_archive_live(s, s->live, now);
        s->live_archived = true;
    }
}

void session_last_move_text(const Game *g, int ply, char *buf, size_t bufsz) {
    buf[0] = '\0';
    if (ply <= 0 || ply > game_ply_count(g) + game_redo_available(g))
        return;
    const GameMove *m = game_move(g, ply - 1);
    int index = ply - 1 + (game_start_side(g) == BLACK);
    snprintf(buf, bufsz, "%d.%s %s", game_start_fullmove(g) + index / 2, index % 2 ? ".." : "",
             m->san);
}

void session_game_status(const Game *g, char *buf, size_t bufsz) {
    if (game_is_over(g)) {
        snprintf(buf, bufsz, "%s  %s", game_result_text(g), game_end_text(g));
        return;
    }
    bool check = board_in_check(game_board(g));
    snprintf(buf, bufsz, "%s to move%s", game_turn(g) == WHITE ? "White" : "Black",
             check ? " - check!" : "");
}

Game *session_game_from_line(const Session *s, const GameSettings *settings, const Move *moves,
                             int n, int cursor, char *err, size_t errsz) {
    (void)s;
    GameSettings both = *settings;
    both.players[WHITE] = both.players[BLACK] = PLAYER_HUMAN;
    Game *g = game_new(&both, err, errsz);
    if (!g)
        return NULL;
    int played = 0;
    while (played < n && game_play_move(g, moves[played], VALUE_NONE, 0, 0) == GAME_OK)
        played++; // a game may end (mate) before its line does
    for (int i = played; i > cursor && game_undo(g, 0) == GAME_OK; i--)
        ;
    return g;
}

bool session_complete_fen(const char *text, char *fen, size_t fensz, char *note, size_t notesz,
                          char *err, size_t errsz) {
    note[0] = '\0';
    if (!fen_is_placement_only(text)) {
        snprintf(fen, fensz, "%s", text);
        return true;
    }
    Board b;
    char castling[8];
    if (!board_set_placement(&b, text, castling, sizeof castling, err, errsz))
        return false;
    board_to_fen(&b, fen, fensz);
    if (strcmp(castling, "-") == 0)
        snprintf(note, notesz, "placement only: White to move, no castling rights inferred");
    else
        snprintf(note, notesz, "placement only: White to move, castling %s inferred", castling);
    return true;
}

void session_move_error(Session *s, const char *text, GameStatus st, const char *err) {
    // A word of letters only that is not a move was most likely meant as a
    // command: name the nearest one, or the help.
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    size_t n = 0;
    while (isalpha((unsigned char)p[n]))
        n++;
    bool word = n > 0 && (p[n] == '\0' || isspace((unsigned char)p[n]));
    if (st != GAME_ERR_PARSE || !word) {
        session_say(s, MSG_ERROR, "%s", err[0] ? err : "cannot do that now");
        return;
    }
    const char *near = command_suggest(p, 1u << s->mode);
    if (near)
        session_say(s, MSG_ERROR, "'%.*s' is not a move or command; did you mean %s?", (int)n, p,
                    near);
    else
        session_say(s, MSG_ERROR, "'%.*s' is not a move or command; type help for the list.",
                    (int)n, p);
}
