// SPDX-License-Identifier: GPL-3.0-or-later
// The status line: the state's own line (the mode's status, the opening,
// the question pending) and the last message while the state it was said
// in lasts (a stamp of that state tells).
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "src/session/session_int.h"
#include "src/util/digest.h"
#include "src/util/text.h"

// "1 move", "2 moves": a game's length in full moves, as said to the player.
const char *session_moves_text(const Game *g, char *buf, size_t bufsz) {
    int n = (game_ply_count(g) + 1) / 2;
    snprintf(buf, bufsz, "%d move%s", n, n == 1 ? "" : "s");
    return buf;
}

// The one wording of the question about an unfinished game (the message
// and the status line while it waits).
void session_resume_question(const Game *g, char *buf, size_t bufsz) {
    char moves[32];
    snprintf(buf, bufsz, "An unfinished game (%s) was saved. Resume it? (y/n)",
             session_moves_text(g, moves, sizeof moves));
}

void session_status(const Session *s, char *buf, size_t bufsz) {
    if (s->asking_resume) {
        session_resume_question(s->pending, buf, bufsz);
        return;
    }
    if (s->replace_pending) {
        snprintf(buf, bufsz, "Replace the games of %s with this game? (y/n)", s->replace_path);
        return;
    }
    char text[512];
    session_ops(s)->status(s, text, sizeof text);
    // The question the pointing state asks (which square, which piece), from
    // the state itself: it goes when the state does, whatever was said.
    char prompt[160];
    if (session_pointing_active(s) && pointing_prompt(s, prompt, sizeof prompt)) {
        size_t n = strlen(text);
        snprintf(text + n, sizeof text - n, " - %s", prompt);
    }
    char tag[256] = "";
    if (session_ops(s)->status_tag)
        session_ops(s)->status_tag(s, tag, sizeof tag);
    snprintf(buf, bufsz, "%s%s", text, tag);
}

uint64_t session_state_stamp(const Session *s) {
    uint64_t h = DIGEST_BASIS;
    const Game *g = session_ops(s)->game(s);
    const Board *b = session_ops(s)->board(s);
    h = digest_u64(h, (uint64_t)s->mode);
    h = digest_u64(h, s->lines);
    h = digest_u64(h, b ? b->key : 0);
    h = digest_u64(h, (uint64_t)session_shown_ply(s));
    h = digest_u64(h, g ? game_generation(g) : 0);
    h = digest_u64(h, g ? (uint64_t)game_is_over(g) : 0); // a flag falls without a move
    h = digest_u64(h, (uint64_t)s->pointing.selected);
    h = digest_u64(h, (uint64_t)s->pointing.promotion);
    h = digest_u64(h, (uint64_t)s->pointing.premove);
    h = digest_u64(h, (uint64_t)s->asking_resume);
    h = digest_u64(h, s->replace_pending != NULL);
    return h;
}

void session_settle(Session *s) {
    if (!s->said_pending)
        return;
    s->said_pending = false;
    s->said_stamp = session_state_stamp(s);
}

SessionStatusKind session_status_line(const Session *s, char *buf, size_t bufsz, bool *cut) {
    *cut = false;
    int n = msglog_count(&s->messages);
    const MsgLogEntry *last = n > 0 ? msglog_get(&s->messages, n - 1) : NULL;
    bool current_message =
        last && last->text && (s->said_pending || s->said_stamp == session_state_stamp(s));
    if (!current_message) {
        session_status(s, buf, bufsz);
        return STATUS_STATE;
    }
    // The message's first line (cut between characters), and always the mode.
    char mode[24];
    snprintf(mode, sizeof mode, "  [%s]", session_mode_name(s->mode));
    size_t room = bufsz > strlen(mode) ? bufsz - strlen(mode) : 1;
    size_t line = strcspn(last->text, "\n");
    char first[MESSAGE_MAX];
    snprintf(first, sizeof first, "%.*s", (int)line, last->text);
    size_t copied = text_copy(buf, room, first);
    *cut = copied < strlen(last->text);
    snprintf(buf + copied, bufsz - copied, "%s", mode);
    return last->error ? STATUS_ERROR : STATUS_INFO;
}

void session_player_label(const Session *s, Color c, char *name, size_t namesz, char *detail,
                          size_t detailsz) {
    const Game *g = session_ops(s)->players ? session_ops(s)->players(s) : session_ops(s)->game(s);
    const GameSettings *st = game_settings(g);
    bool engine = game_player(g, c) == PLAYER_ENGINE;
    // Only the live game knows who plays: every other game (of a file, under
    // review) is shown with both sides "human", which says nothing of its players.
    bool known = g == s->live;
    // The live game's engine is the one that will move, external or not: it
    // is named from the start, not only once its first move names it in the
    // game.
    bool external = engine && g == s->live && s->think.uci && !s->think.fallback;
    // The mode's own name for the side first (train's puzzles name no one).
    bool named = session_ops(s)->player_name && session_ops(s)->player_name(s, c, name, namesz);
    if (!named)
        snprintf(name, namesz, "%s",
                 st->names[c][0] ? st->names[c]
                 : engine        ? think_engine_name(&s->think)
                                 : "You");
    if (external)
        snprintf(detail, detailsz, "UCI engine");
    else if (engine)
        snprintf(detail, detailsz, "level %d (~%d Elo)", st->level, engine_level_elo(st->level));
    else if (known)
        snprintf(detail, detailsz, "human");
    else if (detailsz > 0)
        detail[0] = '\0';
}

bool session_review_progress(const Session *s, int *done, int *total) {
    return session_ops(s)->progress && session_ops(s)->progress(s, done, total);
}
