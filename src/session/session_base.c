// SPDX-License-Identifier: GPL-3.0-or-later
// Services the session's modes share: messages to the front end, the live
// game's autosave and archive, and small views of a game as text.
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
    if (kind == MSG_INFO || kind == MSG_ERROR) {
        msglog_add(&s->messages, kind == MSG_ERROR, text);
        s->said_pending = true; // stamped when the event that said it is done
    }
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

// A write that keeps the games failed (err) or worked (err NULL). A failure
// is said at once, in the status line and the message log, and again only
// when its cause changes; the first success after it says the file works
// again. `failure` holds the failure as last said.
static void write_outcome(Session *s, char *failure, size_t failuresz, const char *what,
                          const char *path, const char *err, const char *retry) {
    if (!err) {
        if (failure[0])
            session_say(s, MSG_INFO, "%s works again: %s", what, path);
        failure[0] = '\0';
        return;
    }
    if (strcmp(failure, err) == 0)
        return; // said already: not after every move
    snprintf(failure, failuresz, "%s", err);
    snprintf(s->last_failure, sizeof s->last_failure, "%s failed: %s", what, err);
    s->write_failures++;
    session_say(s, MSG_ERROR, "%s failed: %s (%s)", what, err, retry);
}

// Appends one game to the archive; spot (may be NULL) learns where it went.
static bool archive_pgn(Session *s, PgnGame *pgn, PgnSource *spot) {
    char err[512];
    bool ok = gamefile_archive(pgn, s->opts.archive_path, spot, err, sizeof err);
    write_outcome(s, s->archive_failure, sizeof s->archive_failure, "The archive",
                  s->opts.archive_path, ok ? NULL : err, "tried again after each move");
    return ok;
}

// The games that could not be archived when they left the session, in order.
static bool archive_waiting(Session *s) {
    int done = 0;
    while (done < s->unarchived_count && archive_pgn(s, s->unarchived[done], NULL))
        pgn_game_free(s->unarchived[done++]);
    s->unarchived_count -= done;
    memmove(s->unarchived, s->unarchived + done, (size_t)s->unarchived_count * sizeof *s->unarchived);
    return s->unarchived_count == 0;
}

bool session_archive_live(Session *s, const Game *g, bool keep, int64_t now) {
    if (game_ply_count(g) == 0 || !s->opts.archive_path[0])
        return true; // a game without moves is not kept
    PgnGame *pgn = gamefile_to_pgn(g, s->openings, now);
    if (!pgn || (!game_is_over(g) && !pgn_set_tag(pgn, "Termination", "abandoned"))) {
        pgn_game_free(pgn);
        session_say(s, MSG_ERROR, "Cannot archive the game: out of memory");
        return false;
    }
    // Earlier games first, so that the archive keeps the order they were played.
    bool ok = archive_waiting(s) && archive_pgn(s, pgn, g == s->live ? &s->live_spot : NULL);
    enum { KEPT_MAX = sizeof s->unarchived / sizeof s->unarchived[0] };
    if (!ok && keep && s->unarchived_count < KEPT_MAX) {
        s->unarchived[s->unarchived_count++] = pgn;
        return false;
    }
    if (!ok && keep)
        session_say(s, MSG_ERROR, "%d games wait for the archive already: this one is dropped.",
                    KEPT_MAX);
    pgn_game_free(pgn);
    return ok;
}

static FileStamp file_stamp(const char *path) {
    FileStamp f = { .known = true };
    struct stat st;
    if (stat(path, &st) != 0)
        return f;
    f.exists = true;
    f.dev = (unsigned long long)st.st_dev;
    f.ino = (unsigned long long)st.st_ino;
    f.size = (unsigned long long)st.st_size;
    f.mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
    return f;
}

void session_stamp_autosave(Session *s) {
    if (s->opts.autosave_path[0])
        s->autosave_stamp = file_stamp(s->opts.autosave_path);
}

// Two patzers at once share the autosave: when the other one wrote it since
// this one last did, the game it left there (unfinished, or finished and not
// archived) goes to the archive before this session's game takes the file.
static void rescue_other_autosave(Session *s, int64_t now) {
    const char *path = s->opts.autosave_path;
    FileStamp was = s->autosave_stamp, is = file_stamp(path);
    if (!was.known || !is.exists ||
        (was.exists && was.dev == is.dev && was.ino == is.ino && was.size == is.size &&
         was.mtime_ns == is.mtime_ns))
        return;
    char why[512], moves[32];
    bool in_archive = true;
    Game *g = game_new(&s->opts.settings, why, sizeof why);
    if (g && gamefile_load(g, path, now, &in_archive, why, sizeof why) && game_ply_count(g) > 0 &&
        (!game_is_over(g) || !in_archive)) {
        bool archived = session_archive_live(s, g, true, now);
        session_say(s, MSG_ERROR,
                    "Another patzer left its game (%s) in the autosave: %s; this game is "
                    "autosaved in its place.",
                    session_moves_text(g, moves, sizeof moves),
                    archived ? "it is in the archive now"
                             : "it waits for the archive (tried after each move)");
    }
    game_free(g);
}

bool session_autosave_game(Session *s, const Game *g, bool in_archive, int64_t now) {
    char err[512];
    rescue_other_autosave(s, now);
    bool ok = gamefile_autosave(g, s->openings, s->opts.autosave_path, in_archive, now, err,
                               sizeof err);
    if (ok)
        session_stamp_autosave(s);
    write_outcome(s, s->autosave_failure, sizeof s->autosave_failure, "Autosave",
                  s->opts.autosave_path, ok ? NULL : err, "tried again after each move");
    return ok;
}

static bool autosave_live(Session *s, int64_t now) {
    return session_autosave_game(s, s->live, s->live_archived, now);
}

void session_live_changed(Session *s, int64_t now) {
    s->live_dirty = true;
    if (s->opts.archive_path[0])
        archive_waiting(s);
    if (game_is_over(s->live) && !s->live_archived)
        s->live_archived = session_archive_live(s, s->live, false, now);
    autosave_live(s, now);
}

bool session_save_all(Session *s, int64_t now) {
    bool ok = true;
    if (s->opts.archive_path[0]) {
        ok = archive_waiting(s);
        if (game_is_over(s->live) && !s->live_archived) {
            s->live_archived = session_archive_live(s, s->live, false, now);
            ok = ok && s->live_archived;
        }
    }
    // Only a game changed here: starting and quitting never overwrites the
    // autosave (it may hold an unfinished game not answered for yet).
    // A finished game of the last session, waiting in the autosave for the
    // archive, leaves it once archived (else the next start archives it again).
    bool taken = s->autosave_unarchived && s->unarchived_count == 0;
    if (s->live_dirty || taken) {
        bool saved = autosave_live(s, now);
        s->live_dirty = !saved;
        s->autosave_unarchived = s->autosave_unarchived && !saved;
        ok = ok && saved;
    }
    return ok;
}

unsigned session_write_failures(const Session *s) { return s->write_failures; }
const char *session_last_failure(const Session *s) { return s->last_failure; }

void session_say_goto_range(Session *s, const char *what, int number, int first, Color side,
                            int plies) {
    if (plies == 0) {
        session_say(s, MSG_ERROR, "No move %d: %s has no move yet (goto 0 is the start).", number,
                    what);
        return;
    }
    int last = first + (plies - 1 + (side == BLACK ? 1 : 0)) / 2;
    if (last == first)
        session_say(s, MSG_ERROR, "No move %d: %s has move %d only (goto 0 is the start).", number,
                    what, first);
    else
        session_say(s, MSG_ERROR, "No move %d: %s has moves %d to %d (goto 0 is the start).",
                    number, what, first, last);
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
