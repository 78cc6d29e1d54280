// SPDX-License-Identifier: GPL-3.0-or-later
// Converting between the game record and PGN.
#include "src/game/gamefile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "src/pgn/database.h"
#include "src/pgn/pgn.h"
#include "src/util/paths.h"

// Tags of patzer's own beside those the game writes (src/game/game.c).
#define TAG_CLOCKS "PatzerClocks"
// Written by the autosave of a finished game that is not in the archive yet
// (the archive could not be written): the next start archives it.
#define TAG_ARCHIVED "PatzerArchived"
#define TAG_WHITE_PLAYER "PatzerWhite"
#define TAG_BLACK_PLAYER "PatzerBlack"
#define TAG_LEVEL "PatzerLevel"
#define TAG_TIME "PatzerTime"
#define TAG_END "PatzerEnd"

// The engine's evaluation of a move as written after its comment:
// "+0.35/12", "-M/5" (read back apart by split_eval).
static void eval_text(int score, int depth, char *buf, size_t bufsz) {
    buf[0] = '\0';
    if (score == VALUE_NONE || depth <= 0)
        return;
    if (score >= VALUE_MATE_IN_MAX || score <= VALUE_MATED_IN_MAX)
        snprintf(buf, bufsz, "%s/%d", score > 0 ? "+M" : "-M", depth);
    else
        snprintf(buf, bufsz, "%+.2f/%d", score / 100.0, depth);
}

// Appends the engine's evaluations to the comments of doc's moves.
static bool write_evals(const Game *g, PgnGame *doc) {
    for (int i = 0; i < game_ply_count(g); i++) {
        const GameMove *m = game_move(g, i);
        char eval[64];
        eval_text(m->score, m->depth, eval, sizeof eval);
        if (eval[0] && !pgn_mainline_append_comment(doc, i, eval))
            return false;
    }
    return true;
}

PgnGame *gamefile_to_pgn(const Game *g, const Openings *o, int64_t now) {
    PgnGame *p = game_document(g);
    if (!p)
        return NULL;
    char buf[256];
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%Y.%m.%d", &tm);
    bool ok = write_evals(g, p) && pgn_set_tag(p, "Date", buf);
    char eco[8], name[160];
    if (o && openings_lookup(o, game_board(g), game_keys(g), game_ply_count(g), eco, sizeof eco,
                             name, sizeof name)) {
        if (eco[0])
            ok = ok && pgn_set_tag(p, "ECO", eco);
        ok = ok && pgn_set_tag(p, "Opening", name);
    }
    snprintf(buf, sizeof buf, "%d", game_ply_count(g));
    ok = ok && pgn_set_tag(p, "PlyCount", buf);
    snprintf(buf, sizeof buf, "%lld %lld", (long long)clock_remaining(game_clock(g), WHITE, now),
             (long long)clock_remaining(game_clock(g), BLACK, now));
    ok = ok && pgn_set_tag(p, TAG_CLOCKS, buf);
    pgn_remove_tag(p, TAG_ARCHIVED); // said by the autosave alone
    if (!ok) {
        pgn_game_free(p);
        return NULL;
    }
    return p;
}

bool gamefile_autosave(const Game *g, const Openings *o, const char *path, bool in_archive,
                      int64_t now, char *err, size_t errsz) {
    if (!path || !path[0])
        return true;
    PgnGame *p = gamefile_to_pgn(g, o, now);
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

// Takes the engine's evaluation that gamefile_to_pgn writes at the end of a
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

// How a saved game ended, as its tags say; copied before the game takes
// the document.
typedef struct SavedEnd {
    GameEnd end;     // patzer's own tag (END_NONE: none)
    Color side;
    char result[8];  // else the Result and Termination tags
    bool flag;
} SavedEnd;

static void saved_end(const PgnGame *p, SavedEnd *e) {
    const char *v = pgn_tag(p, TAG_END);
    char word[32], side[8];
    e->end = v && sscanf(v, "%31s %7s", word, side) == 2 ? game_end_from_word(word) : END_NONE;
    e->side = e->end != END_NONE && strcmp(side, "black") == 0 ? BLACK : WHITE;
    snprintf(e->result, sizeof e->result, "%s", pgn_result(p));
    const char *term = pgn_tag(p, "Termination");
    e->flag = term && strcasecmp(term, "time forfeit") == 0;
}

// How a record without patzer's own tag ended, from its Result and
// Termination tags (a file from an older patzer, or from elsewhere): a
// decisive result was a resignation or a flag, a draw a claim the position
// allows or an agreement. False when the record says no result.
static bool end_from_result(const Game *g, const SavedEnd *e, GameEnd *end, Color *side) {
    if (!pgn_is_result(e->result) || strcmp(e->result, "*") == 0)
        return false;
    if (strcmp(e->result, "1/2-1/2") == 0) {
        GameEnd claim = game_claimable(g);
        *end = e->flag ? END_TIME_DRAW : claim != END_NONE ? claim : END_AGREEMENT;
        *side = game_turn(g);
        return true;
    }
    *end = e->flag ? END_TIME_FORFEIT : END_RESIGNATION;
    *side = strcmp(e->result, "1-0") == 0 ? BLACK : WHITE; // the loser
    return true;
}

// Ends g as the record said it ended, when the moves alone do not end it: by
// patzer's own tag, else by the Result and Termination tags.
static void restore_end(Game *g, const SavedEnd *e, int64_t now) {
    if (e->end != END_NONE)
        game_restore_end(g, e->end, e->side, now);
    GameEnd end;
    Color side;
    if (!game_is_over(g) && end_from_result(g, e, &end, &side))
        game_restore_end(g, end, side, now);
}

bool gamefile_recorded_end(const PgnGame *p, const Game *g, char *buf, size_t bufsz) {
    SavedEnd e;
    saved_end(p, &e);
    GameEnd end = e.end;
    Color side = e.side;
    if (end == END_NONE && !end_from_result(g, &e, &end, &side))
        return false;
    Outcome o = { .end = end, .side = side };
    char text[OUTCOME_TEXT_MAX];
    outcome_describe(&o, text, sizeof text);
    snprintf(buf, bufsz, "%s  %s", e.result, text);
    return true;
}

// The first game of a file, read whole. NULL with the reason in err.
static PgnGame *read_first(const char *path, char *err, size_t errsz) {
    PgnReader *r = pgn_reader_open(path, err, errsz);
    if (!r)
        return NULL;
    PgnGame *p = pgn_game_new();
    if (!p) {
        pgn_reader_close(r);
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    PgnError perr;
    int got = pgn_reader_next(r, p, &perr);
    pgn_reader_close(r);
    if (got == 1)
        return p;
    if (got == 0)
        snprintf(err, errsz, "%s: no game in the file", path);
    else
        snprintf(err, errsz, "%s:%d:%d: %s", perr.file, perr.line, perr.column, perr.message);
    pgn_game_free(p);
    return NULL;
}

// Takes the engine's evaluations off the comments of p's main line into
// scores and depths (n entries; NULL: not kept). False when out of memory.
static bool take_evals(PgnGame *p, int n, int *scores, int *depths) {
    for (int i = 0; i < n; i++) {
        const PgnNode *node = pgn_mainline_node(p, i);
        char *rest;
        int score, depth;
        if (!split_eval(node->comment, &rest, &score, &depth))
            return false;
        bool ok = depth == 0 || pgn_node_set_comment(p, node, rest);
        free(rest);
        if (!ok)
            return false;
        if (scores)
            scores[i] = score;
        if (depths)
            depths[i] = depth;
    }
    return true;
}

bool gamefile_strip_evals(PgnGame *p) {
    return take_evals(p, pgn_mainline_length(p), NULL, NULL);
}

bool gamefile_load(Game *g, const char *path, int64_t now, bool *in_archive, char *err,
                  size_t errsz) {
    if (!path || !path[0]) {
        snprintf(err, errsz, "no file name");
        return false;
    }
    PgnGame *p = read_first(path, err, errsz);
    if (!p)
        return false;
    // The autosave is the game's keeper, not a file of games the user edits:
    // a resumed game answers to autosave and archive, and quit does not ask
    // to write it back.
    pgn_set_source(p, NULL);
    int n = pgn_mainline_length(p);
    int *scores = malloc(((size_t)n + 1) * sizeof *scores);
    int *depths = malloc(((size_t)n + 1) * sizeof *depths);
    // What the tags say, kept before the game takes the document.
    GameSettings settings = *game_settings(g);
    settings_from_tags(p, &settings);
    SavedEnd end;
    saved_end(p, &end);
    const char *saved = pgn_tag(p, TAG_CLOCKS), *archived = pgn_tag(p, TAG_ARCHIVED);
    long long w, b;
    bool clocks = saved && sscanf(saved, "%lld %lld", &w, &b) == 2;
    bool not_archived = archived && strcmp(archived, "no") == 0;
    bool ok = scores && depths && take_evals(p, n, scores, depths);
    if (!ok)
        snprintf(err, errsz, "out of memory loading %s", path);
    // The game takes the document, with its players, level and time control;
    // on failure they are put back as they were.
    GameSettings before = *game_settings(g);
    if (ok) {
        game_set_players(g, settings.players[WHITE], settings.players[BLACK]);
        game_set_level(g, settings.level);
        game_set_time_control(g, &settings.tc, now);
        ok = game_take_document(g, p, now, err, errsz);
        if (ok) {
            p = NULL;
        } else {
            game_set_players(g, before.players[WHITE], before.players[BLACK]);
            game_set_level(g, before.level);
            game_set_time_control(g, &before.tc, now);
            char why[512];
            snprintf(why, sizeof why, "%s", err);
            snprintf(err, errsz, "%s: %s", path, why);
        }
    }
    if (ok) {
        for (int i = 0; i < n; i++)
            game_set_eval(g, i, scores[i], depths[i]);
        if (clocks)
            game_set_clocks(g, (const int64_t[COLOR_NB]){(int64_t)w, (int64_t)b}, now);
        restore_end(g, &end, now);
        if (in_archive)
            *in_archive = !not_archived;
    }
    free(scores);
    free(depths);
    pgn_game_free(p);
    return ok;
}

// Looking for a game's id among the archive's tags.
typedef struct IdSearch {
    const char *id;
    bool found;
} IdSearch;

static const char *id_tag(void *ctx, const char *name, const char *value) {
    IdSearch *search = ctx;
    if (!strcmp(name, GAME_TAG_ID) && !strcmp(value, search->id))
        search->found = true;
    return NULL;
}

// The number of the archive's game with this id (the last, should there be
// several) and where it starts, so that it is read without scanning the file
// again; 0 when none or the file cannot be read (the game is then added).
static int archived_number(const char *path, const char *id, PgnPlace *place) {
    char err[64];
    PgnReader *r = access(path, F_OK) == 0 ? pgn_reader_open(path, err, sizeof err) : NULL;
    if (!r)
        return 0;
    IdSearch search = { id, false };
    PgnVisitor v = { .tag = id_tag, .ctx = &search };
    PgnError error;
    int number = 0, at = 0, rc;
    while ((rc = pgn_reader_visit(r, &v, &error)) != 0) {
        at++;
        if (search.found) {
            PgnSpan span;
            pgn_reader_span(r, &span);
            number = at;
            *place = (PgnPlace){ .start = span.start, .line = span.line };
        }
        search.found = false;
    }
    pgn_reader_close(r);
    return number;
}

bool gamefile_archive(PgnGame *g, const char *path, PgnSource *place, char *err, size_t errsz) {
    if (!path || !path[0])
        return true;
    // A game already in the archive (an earlier state of it, archived by
    // another session that found it in the autosave) is written in its place.
    const char *id = pgn_tag(g, GAME_TAG_ID);
    PgnPlace spot = { 0, 0 };
    int there = id ? archived_number(path, id, &spot) : 0;
    PgnGame *old = there ? pgn_db_read_game(path, there, &spot, err, errsz) : NULL;
    if (old) {
        pgn_set_source(g, pgn_source(old));
        pgn_game_free(old);
        if (pgn_db_write_back(g, NULL, err, errsz)) {
            if (place)
                *place = *pgn_source(g);
            return true;
        }
        pgn_set_source(g, NULL); // the file changed meanwhile: added instead
    }
    int number;
    if (!pgn_db_append(g, path, &number, NULL, err, errsz))
        return false;
    if (place)
        *place = *pgn_source(g);
    return true;
}

bool gamefile_archive_replace(PgnGame *g, const char *path, PgnSource *place, char *err,
                             size_t errsz) {
    if (!path || !path[0])
        return true;
    // Only the copy this session wrote is replaced, never another game: when
    // the archive changed since, the game is added instead.
    struct stat st;
    bool same = place->path[0] && stat(place->path, &st) == 0 &&
                (long long)st.st_size == place->file_size && pgn_db_same_file(place->path, path);
    if (same) {
        pgn_set_source(g, place);
        if (!pgn_db_write_back(g, NULL, err, errsz))
            return false;
        *place = *pgn_source(g);
        return true;
    }
    return gamefile_archive(g, path, place, err, errsz);
}
