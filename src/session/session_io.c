// SPDX-License-Identifier: GPL-3.0-or-later
// Converting between the game record and PGN.
#include "src/session/session_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "src/pgn/pgn.h"
#include "src/util/paths.h"

// Tags of patzer's own that let a saved game be resumed as it was.
#define TAG_WHITE_PLAYER "PatzerWhite"
#define TAG_BLACK_PLAYER "PatzerBlack"
#define TAG_LEVEL "PatzerLevel"
#define TAG_TIME "PatzerTime"
#define TAG_CLOCKS "PatzerClocks"
// How the game ended, exactly ("resignation white": the ending and the side
// that mated, resigned, claimed or lost on time), which the standard
// Termination tag ("normal", "time forfeit") cannot say; read back so that a
// finished game is finished again (see session_load).
#define TAG_END "PatzerEnd"
// Written by the autosave of a finished game that is not in the archive yet
// (the archive could not be written): the next start archives it.
#define TAG_ARCHIVED "PatzerArchived"

// The words of TAG_END, indexed by GameEnd.
static const char *const end_names[] = {
    [END_NONE] = "none",
    [END_CHECKMATE] = "checkmate",
    [END_STALEMATE] = "stalemate",
    [END_INSUFFICIENT_MATERIAL] = "insufficient-material",
    [END_FIVEFOLD_REPETITION] = "fivefold-repetition",
    [END_SEVENTY_FIVE_MOVES] = "seventy-five-moves",
    [END_THREEFOLD_REPETITION] = "threefold-repetition",
    [END_FIFTY_MOVES] = "fifty-moves",
    [END_RESIGNATION] = "resignation",
    [END_AGREEMENT] = "agreement",
    [END_TIME_FORFEIT] = "time-forfeit",
    [END_TIME_DRAW] = "time-draw",
};
_Static_assert(sizeof end_names / sizeof end_names[0] == END_TIME_DRAW + 1,
               "one word per ending");

static const char *termination(const Game *g) {
    switch (game_end(g)) {
    case END_NONE:
        return "unterminated";
    case END_TIME_FORFEIT:
    case END_TIME_DRAW:
        return "time forfeit";
    default:
        return "normal";
    }
}

static void player_name(const Game *g, Color c, char *buf, size_t bufsz) {
    const GameSettings *s = game_settings(g);
    if (s->names[c][0])
        snprintf(buf, bufsz, "%s", s->names[c]);
    else if (game_player(g, c) == PLAYER_ENGINE)
        snprintf(buf, bufsz, "patzer level %d", s->level);
    else
        snprintf(buf, bufsz, "Human");
}

PgnGame *session_to_pgn(const Game *g, const Openings *o, int64_t now) {
    PgnGame *p = pgn_game_new();
    if (!p)
        return NULL;
    char buf[256];
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
    bool ok = pgn_set_tag(p, "Event", "patzer game") && pgn_set_tag(p, "Site", "patzer") &&
              pgn_set_tag(p, "Date", buf) && pgn_set_tag(p, "Round", "-");
    player_name(g, WHITE, buf, sizeof buf);
    ok = ok && pgn_set_tag(p, "White", buf);
    player_name(g, BLACK, buf, sizeof buf);
    ok = ok && pgn_set_tag(p, "Black", buf);
    const GameSettings *s = game_settings(g);
    if (s->start_fen[0]) {
        char err[160];
        ok = ok && pgn_set_start_fen(p, s->start_fen, err, sizeof err);
    }
    for (int i = 0; ok && i < game_ply_count(g); i++) {
        const GameMove *m = game_move(g, i);
        Color mover = (Color)((game_start_side(g) + i) & 1);
        char eval[64] = "";
        if (m->score != VALUE_NONE && m->depth > 0) {
            if (m->score >= VALUE_MATE_IN_MAX || m->score <= VALUE_MATED_IN_MAX)
                snprintf(eval, sizeof eval, "%s/%d", m->score > 0 ? "+M" : "-M", m->depth);
            else
                snprintf(eval, sizeof eval, "%+.2f/%d", m->score / 100.0, m->depth);
        }
        // The player's comment, then the engine's evaluation (read back apart).
        size_t len = (m->comment ? strlen(m->comment) : 0) + sizeof eval + 1;
        char *comment = malloc(len);
        if (!comment) {
            ok = false;
            break;
        }
        snprintf(comment, len, "%s%s%s", m->comment ? m->comment : "",
                 m->comment && eval[0] ? " " : "", eval);
        long long clock = game_clock(g)->tc.untimed ? -1 : (long long)m->clock_ms[mover];
        ok = pgn_append_move(p, m->move, m->san, clock, comment[0] ? comment : NULL);
        free(comment);
        if (ok && m->nag)
            ok = pgn_mainline_add_nag(p, i, m->nag);
    }
    pgn_set_result(p, game_result_text(g));
    char eco[8], name[160];
    if (o && openings_lookup(o, game_board(g), game_keys(g), game_ply_count(g), eco, sizeof eco,
                             name, sizeof name)) {
        if (eco[0])
            ok = ok && pgn_set_tag(p, "ECO", eco);
        ok = ok && pgn_set_tag(p, "Opening", name);
    }
    timecontrol_format_pgn(&game_clock(g)->tc, buf, sizeof buf);
    ok = ok && pgn_set_tag(p, "TimeControl", buf);
    ok = ok && pgn_set_tag(p, "Termination", termination(g));
    if (game_is_over(g)) {
        snprintf(buf, sizeof buf, "%s %s", end_names[game_end(g)],
                 game_end_side(g) == WHITE ? "white" : "black");
        ok = ok && pgn_set_tag(p, TAG_END, buf);
    }
    snprintf(buf, sizeof buf, "%d", game_ply_count(g));
    ok = ok && pgn_set_tag(p, "PlyCount", buf);
    ok = ok && pgn_set_tag(p, TAG_WHITE_PLAYER,
                           game_player(g, WHITE) == PLAYER_ENGINE ? "engine" : "human");
    ok = ok && pgn_set_tag(p, TAG_BLACK_PLAYER,
                           game_player(g, BLACK) == PLAYER_ENGINE ? "engine" : "human");
    snprintf(buf, sizeof buf, "%d", s->level);
    ok = ok && pgn_set_tag(p, TAG_LEVEL, buf);
    timecontrol_format(&game_clock(g)->tc, buf, sizeof buf);
    ok = ok && pgn_set_tag(p, TAG_TIME, buf);
    snprintf(buf, sizeof buf, "%lld %lld", (long long)clock_remaining(game_clock(g), WHITE, now),
             (long long)clock_remaining(game_clock(g), BLACK, now));
    ok = ok && pgn_set_tag(p, TAG_CLOCKS, buf);
    if (!ok) {
        pgn_game_free(p);
        return NULL;
    }
    return p;
}

bool session_autosave(const Game *g, const Openings *o, const char *path, bool in_archive,
                      int64_t now, char *err, size_t errsz) {
    if (!path || !path[0])
        return true;
    PgnGame *p = session_to_pgn(g, o, now);
    if (!p || (game_is_over(g) && !in_archive && !pgn_set_tag(p, TAG_ARCHIVED, "no"))) {
        pgn_game_free(p);
        snprintf(err, errsz, "out of memory saving the game");
        return false;
    }
    const PgnGame *games[1] = {p};
    bool ok = pgn_save(path, games, 1, err, errsz);
    pgn_game_free(p);
    return ok;
}

// Takes the engine's evaluation that session_to_pgn writes at the end of a
// comment ("+0.35/12", "-M/5") off it: into *score and *depth, the rest of
// the comment (NULL when none is left) into *rest, owned by the caller.
// False when out of memory.
static bool split_eval(const char *comment, char **rest, int *score, int *depth) {
    *rest = NULL;
    *score = VALUE_NONE;
    *depth = 0;
    if (!comment)
        return true;
    const char *last = strrchr(comment, ' ');
    last = last ? last + 1 : comment;
    double pawns;
    int d, used = 0;
    if ((last[0] == '+' || last[0] == '-') && last[1] == 'M' &&
        sscanf(last + 2, "/%d%n", &d, &used) == 1 && !last[2 + used] && d > 0) {
        *score = last[0] == '+' ? VALUE_MATE - 1 : -(VALUE_MATE - 1);
        *depth = d;
    } else if ((last[0] == '+' || last[0] == '-') &&
               sscanf(last, "%lf/%d%n", &pawns, &d, &used) == 2 && !last[used] && d > 0) {
        *score = (int)(pawns * 100 + (pawns < 0 ? -0.5 : 0.5));
        *depth = d;
    } else {
        last = comment + strlen(comment); // no evaluation: all of it is the player's
    }
    size_t n = (size_t)(last - comment);
    while (n > 0 && comment[n - 1] == ' ')
        n--;
    if (n == 0)
        return true;
    *rest = malloc(n + 1);
    if (!*rest)
        return false;
    memcpy(*rest, comment, n);
    (*rest)[n] = '\0';
    return true;
}

// Settings from patzer's own tags, where present.
static void settings_from_tags(const PgnGame *p, GameSettings *s) {
    const char *v;
    if ((v = pgn_tag(p, TAG_WHITE_PLAYER)))
        s->players[WHITE] = strcmp(v, "engine") == 0 ? PLAYER_ENGINE : PLAYER_HUMAN;
    if ((v = pgn_tag(p, TAG_BLACK_PLAYER)))
        s->players[BLACK] = strcmp(v, "engine") == 0 ? PLAYER_ENGINE : PLAYER_HUMAN;
    if ((v = pgn_tag(p, TAG_LEVEL))) {
        int level = atoi(v);
        if (level >= LEVEL_MIN && level <= LEVEL_MAX)
            s->level = level;
    }
    if ((v = pgn_tag(p, TAG_TIME))) {
        TimeControl tc;
        char err[160];
        if (timecontrol_parse(v, &tc, err, sizeof err))
            s->tc = tc;
    }
}

// Ends g as the record says it ended, when the moves alone do not end it:
// by patzer's own tag, else (a file from an older patzer) by the Result and
// Termination tags: a decisive result was a resignation or a flag, a draw a
// claim the position allows or an agreement.
static void restore_end(Game *g, const PgnGame *p, int64_t now) {
    const char *v = pgn_tag(p, TAG_END);
    char word[32], side[8];
    if (v && sscanf(v, "%31s %7s", word, side) == 2) {
        for (int e = END_NONE + 1; e <= END_TIME_DRAW; e++)
            if (strcmp(word, end_names[e]) == 0)
                game_restore_end(g, (GameEnd)e, strcmp(side, "black") == 0 ? BLACK : WHITE, now);
    }
    const char *result = pgn_result(p);
    if (game_is_over(g) || !result || !pgn_is_result(result) || strcmp(result, "*") == 0)
        return;
    const char *term = pgn_tag(p, "Termination");
    bool flag = term && strcasecmp(term, "time forfeit") == 0;
    if (strcmp(result, "1/2-1/2") == 0) {
        GameEnd claim = game_claimable(g);
        game_restore_end(g, flag ? END_TIME_DRAW : claim != END_NONE ? claim : END_AGREEMENT,
                         game_turn(g), now);
        return;
    }
    Color loser = strcmp(result, "1-0") == 0 ? BLACK : WHITE;
    game_restore_end(g, flag ? END_TIME_FORFEIT : END_RESIGNATION, loser, now);
}

bool session_load(Game *g, const char *path, int64_t now, bool *in_archive, char *err,
                  size_t errsz) {
    if (!path || !path[0]) {
        snprintf(err, errsz, "no file name");
        return false;
    }
    PgnReader *r = pgn_reader_open(path, err, errsz);
    if (!r)
        return false;
    PgnGame *p = pgn_game_new();
    if (!p) {
        pgn_reader_close(r);
        snprintf(err, errsz, "out of memory");
        return false;
    }
    PgnError perr;
    int got = pgn_reader_next(r, p, &perr);
    pgn_reader_close(r);
    if (got <= 0) {
        if (got == 0)
            snprintf(err, errsz, "%s: no game in the file", path);
        else
            snprintf(err, errsz, "%s:%d:%d: %s", perr.file, perr.line, perr.column, perr.message);
        pgn_game_free(p);
        return false;
    }

    // Build the new game aside, so that a failure leaves the current one.
    GameSettings settings = *game_settings(g);
    settings_from_tags(p, &settings);
    static const char standard[] = BOARD_START_FEN;
    const char *fen = pgn_start_fen(p);
    snprintf(settings.start_fen, sizeof settings.start_fen, "%s",
             fen && strcmp(fen, standard) != 0 ? fen : "");
    Game *fresh = game_new(&settings, err, errsz);
    bool ok = fresh != NULL;
    int64_t clocks[COLOR_NB] = {-1, -1};
    for (int i = 0; ok && i < pgn_mainline_length(p); i++) {
        if (game_play_move(fresh, pgn_mainline_move(p, i), VALUE_NONE, 0, now) != GAME_OK) {
            snprintf(err, errsz, "%s: move %d (%s) cannot be played", path, i + 1,
                     pgn_mainline_san(p, i));
            ok = false;
        }
        long long clk = pgn_mainline_clock(p, i);
        if (clk >= 0)
            clocks[(game_start_side(fresh) + i) & 1] = clk;
    }
    const char *saved = pgn_tag(p, TAG_CLOCKS);
    long long w, b;
    if (saved && sscanf(saved, "%lld %lld", &w, &b) == 2) {
        clocks[WHITE] = w;
        clocks[BLACK] = b;
    }
    if (ok && clocks[WHITE] >= 0 && clocks[BLACK] >= 0)
        game_set_clocks(fresh, clocks, now);
    if (ok) {
        // Swap the loaded game into place: the caller keeps its pointer. The
        // comments and NAGs come along, the evaluations back into the record.
        ok = game_reset(g, &settings, err, errsz);
        for (int i = 0; ok && i < game_ply_count(fresh); i++) {
            const PgnNode *node = pgn_mainline_node(p, i);
            char *comment;
            int score, depth;
            ok = split_eval(node->comment, &comment, &score, &depth);
            ok = ok && game_play_move(g, game_move(fresh, i)->move, score, depth, now) == GAME_OK;
            ok = ok && (!comment || game_set_comment(g, i, comment));
            ok = ok && (!node->nag_count || game_set_nag(g, i, node->nags[0]));
            free(comment);
            if (!ok)
                snprintf(err, errsz, "out of memory loading %s", path);
        }
        if (ok && clocks[WHITE] >= 0 && clocks[BLACK] >= 0)
            game_set_clocks(g, clocks, now);
        if (ok)
            restore_end(g, p, now);
        const char *archived = pgn_tag(p, TAG_ARCHIVED);
        if (ok && in_archive)
            *in_archive = !archived || strcmp(archived, "no") != 0;
    }
    game_free(fresh);
    pgn_game_free(p);
    return ok;
}

enum { ARCHIVE_MAX_BYTES = 256 << 20 };

// Writes the archive as its first `keep` bytes, a blank line and g.
static bool archive_write(const PgnGame *g, const char *path, const char *old, size_t keep,
                          ArchiveSpot *spot, char *err, size_t errsz) {
    size_t len = 0;
    char *text = pgn_write_string(g, &len);
    char *all = text ? malloc(keep + len + 2) : NULL;
    if (!all) {
        free(text);
        snprintf(err, errsz, "out of memory archiving the game");
        return false;
    }
    size_t n = 0;
    if (keep) {
        memcpy(all, old, keep);
        n = keep;
        if (all[n - 1] != '\n')
            all[n++] = '\n';
        all[n++] = '\n';
    }
    memcpy(all + n, text, len);
    bool ok = paths_write_atomic(path, all, n + len, err, errsz);
    if (ok && spot)
        *spot = (ArchiveSpot){.start = keep, .end = n + len};
    free(text);
    free(all);
    return ok;
}

// Reads the archive (NULL with *len 0 when there is none yet).
static bool archive_read(const char *path, char **old, size_t *len, char *err, size_t errsz) {
    *old = NULL;
    *len = 0;
    if (access(path, F_OK) != 0)
        return true;
    *old = paths_read_file(path, ARCHIVE_MAX_BYTES, len, err, errsz);
    return *old != NULL;
}

// Writes g into the archive after its first bytes: all of them (append),
// or up to the game at spot when `replace` and the file is as spot saw it.
static bool archive_update(const PgnGame *g, const char *path, ArchiveSpot *spot, bool replace,
                           char *err, size_t errsz) {
    if (!path || !path[0])
        return true;
    char *old;
    size_t len;
    if (!archive_read(path, &old, &len, err, errsz))
        return false;
    size_t keep = len;
    // Only the copy this session wrote is replaced, never another game.
    if (replace && spot->end && len == spot->end && spot->start <= len) {
        keep = spot->start;
        while (keep > 0 && (old[keep - 1] == '\n' || old[keep - 1] == '\r'))
            keep--;
    }
    bool ok = archive_write(g, path, old, keep, spot, err, errsz);
    free(old);
    return ok;
}

bool session_archive(const PgnGame *g, const char *path, ArchiveSpot *spot, char *err,
                     size_t errsz) {
    return archive_update(g, path, spot, false, err, errsz);
}

bool session_archive_replace(const PgnGame *g, const char *path, ArchiveSpot *spot, char *err,
                             size_t errsz) {
    return archive_update(g, path, spot, true, err, errsz);
}
