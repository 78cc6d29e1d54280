// SPDX-License-Identifier: GPL-3.0-or-later
// save: where the game shown goes in the files of games (src/pgn/database.h),
// the games of files edited and not saved yet, and quit's warning about them.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "src/pgn/database.h"
#include "src/session/session_int.h"
#include "src/util/paths.h"

// A file of games is a database: save writes a game back in its own place,
// adds it to another file, or creates one; replacing a file's games takes
// the word `replace` (and, on a screen, a yes).

// "FILE replace": the file, and whether its games are to be replaced.
static bool split_replace(const char *text, char *path, size_t pathsz) {
    static const char word[] = " replace";
    size_t n = strlen(text), w = sizeof word - 1;
    bool replace = n > w && strcmp(text + n - w, word) == 0;
    if (replace)
        n -= w;
    while (n > 0 && text[n - 1] == ' ')
        n--;
    snprintf(path, pathsz, "%.*s", (int)n, text);
    return replace;
}

// A save replaces the file (a new one renamed into place): other hard links
// to it keep the old text. Said at the save that splits them (links: the
// count before it).
static void say_links(Session *s, const char *path, unsigned links) {
    if (links > 1)
        session_say(s, MSG_INFO,
                    "Note: %s had %u hard links; it is a file of its own now, the other names "
                    "keep the old text (a save writes a new file, never half of one).",
                    path, links);
}

// The mode and the other games of the file held in memory learn where
// things are now.
static void tell_saved(Session *s, const PgnGame *g, const PgnFileChange *change) {
    if (session_ops(s)->saved)
        session_ops(s)->saved(s, g);
    for (int i = 0; i < s->edited_count; i++)
        pgn_db_follow(s->edited[i], change);
}

static void write_back(Session *s, PgnGame *g) {
    const PgnSource *src = pgn_source(g);
    int number = src->number;
    char path[PATH_MAX_LEN], err[PATH_MAX_LEN + 256];
    PgnFileChange change;
    snprintf(path, sizeof path, "%s", src->path);
    unsigned links = paths_hard_links(path);
    if (!pgn_modified(g)) {
        session_say(s, MSG_INFO, "Game %d of %s has no changes to save.", number, path);
    } else if (pgn_db_write_back(g, &change, err, sizeof err)) {
        tell_saved(s, g, &change);
        session_say(s, MSG_INFO, "Saved game %d back to %s; its other games are as they were.",
                    number, path);
        say_links(s, path, links);
    } else {
        session_say(s, MSG_ERROR, "Not saved: %s", err);
    }
}

static void replace_file(Session *s, PgnGame *g, const char *path) {
    char err[PATH_MAX_LEN + 256];
    PgnFileChange change;
    unsigned links = paths_hard_links(path);
    if (pgn_db_replace_file(g, path, &change, err, sizeof err)) {
        tell_saved(s, g, &change);
        session_say(s, MSG_INFO, "Replaced %s with this game.", path);
        say_links(s, path, links);
    } else {
        session_say(s, MSG_ERROR, "Not saved: %s", err);
    }
}

static void add_to_file(Session *s, PgnGame *g, const char *path) {
    char err[PATH_MAX_LEN + 256];
    PgnFileChange change;
    bool exists = access(path, F_OK) == 0;
    unsigned links = paths_hard_links(path);
    int number = 1;
    if (!(exists ? pgn_db_append(g, path, &number, &change, err, sizeof err)
                 : pgn_db_replace_file(g, path, &change, err, sizeof err))) {
        session_say(s, MSG_ERROR, "Not saved: %s", err);
        return;
    }
    tell_saved(s, g, &change);
    if (exists)
        session_say(s, MSG_INFO, "Added as game %d of %s.", number, path);
    else
        session_say(s, MSG_INFO, "Saved to %s.", path);
    say_links(s, path, links);
}

void save_command(Session *s, const char *text, int64_t now) {
    char path[PATH_MAX_LEN];
    bool replace = split_replace(text, path, sizeof path);
    PgnGame *g = session_ops(s)->to_pgn(s, now);
    if (!g) {
        session_say(s, MSG_ERROR, "Nothing to save here (or out of memory).");
        return;
    }
    const PgnSource *src = pgn_source(g);
    if (!path[0] && !src->path[0]) {
        session_say(s, MSG_ERROR,
                    "This game is in no file yet: save FILE writes it to a new file or adds it "
                    "to an existing one.");
    } else if (!path[0] || (!replace && src->path[0] && pgn_db_same_file(path, src->path))) {
        write_back(s, g);
    } else if (!replace) {
        add_to_file(s, g, path);
    } else {
        char err[PATH_MAX_LEN + 256];
        int count = pgn_db_count(path, err, sizeof err);
        if (count > 0 && s->opts.confirm_replace) {
            pgn_game_free(s->replace_pending);
            s->replace_pending = g; // the answer decides
            snprintf(s->replace_path, sizeof s->replace_path, "%s", path);
            session_say(s, MSG_INFO, "%s holds %d game%s: replace %s with this game? (y/n)", path,
                        count, count == 1 ? "" : "s", count == 1 ? "it" : "them all");
            return;
        }
        replace_file(s, g, path);
    }
    pgn_game_free(g);
}

// The answer to "replace the file's games?": only yes replaces them.
void save_answer_replace(Session *s, const char *line) {
    while (isspace((unsigned char)*line))
        line++;
    PgnGame *g = s->replace_pending;
    s->replace_pending = NULL;
    if (!strcasecmp(line, "y") || !strcasecmp(line, "yes"))
        replace_file(s, g, s->replace_path);
    else
        session_say(s, MSG_INFO, "Not saved; %s is as it was.", s->replace_path);
    pgn_game_free(g);
}

// ----------------------------------------------------------------- edited games

void session_keep_edited(Session *s, PgnGame *g) {
    if (s->edited_count == EDITED_MAX) {
        const PgnSource *old = pgn_source(s->edited[0]);
        session_say(s, MSG_ERROR,
                    "Too many games with changes not saved: those to game %d of %s "
                    "are dropped.",
                    old->number, old->path);
        pgn_game_free(s->edited[0]);
        memmove(s->edited, s->edited + 1, (size_t)(EDITED_MAX - 1) * sizeof s->edited[0]);
        s->edited_count--;
    }
    s->edited[s->edited_count++] = g;
}

PgnGame *session_take_edited(Session *s, const char *path, int number) {
    for (int i = 0; i < s->edited_count; i++) {
        const PgnSource *src = pgn_source(s->edited[i]);
        if (src->number == number && pgn_db_same_file(src->path, path)) {
            PgnGame *g = s->edited[i];
            memmove(s->edited + i, s->edited + i + 1,
                    (size_t)(s->edited_count - i - 1) * sizeof s->edited[0]);
            s->edited_count--;
            return g;
        }
    }
    return NULL;
}

// The first game of a file with changes not saved (the one shown first),
// into g (a copy the caller frees); false when there is none.
bool session_unsaved_changes(Session *s, int64_t now, char *buf, size_t bufsz) {
    PgnGame *shown = session_ops(s)->to_pgn(s, now);
    const PgnGame *g = shown && pgn_modified(shown) && pgn_source(shown)->path[0] ? shown : NULL;
    for (int i = 0; !g && i < s->edited_count; i++)
        if (pgn_modified(s->edited[i]) && pgn_source(s->edited[i])->path[0])
            g = s->edited[i];
    if (g)
        snprintf(buf, bufsz, "game %d of %.3000s", pgn_source(g)->number, pgn_source(g)->path);
    pgn_game_free(shown);
    return g != NULL;
}

// quit once more after a warning drops the changes not saved to a file's games.
void save_quit(Session *s, int64_t now) {
    char which[3100];
    if (!s->quit_warned && session_unsaved_changes(s, now, which, sizeof which)) {
        s->quit_warned = true;
        session_say(s, MSG_ERROR,
                    "Changes to %s are not saved: save writes them back (game N opens it); "
                    "quit again leaves without them.",
                    which);
        return;
    }
    s->quit = true;
}

// ----------------------------------------------------------------- recovery

// Closing the terminal or a kill leaves nobody to ask about the changes quit
// warns about: they go to recovered.pgn beside the autosave (patzer's own
// directory), never over the user's file, which may have changed meanwhile.
static bool beside_autosave(const Session *s, const char *name, char *buf, size_t bufsz) {
    const char *autosave = s->opts.autosave_path;
    const char *slash = strrchr(autosave, '/');
    if (!slash)
        return false;
    int n = snprintf(buf, bufsz, "%.*s/%s", (int)(slash - autosave), autosave, name);
    return n > 0 && (size_t)n < bufsz;
}

static bool recovery_path(const Session *s, char *buf, size_t bufsz) {
    return beside_autosave(s, "recovered.pgn", buf, bufsz);
}

// Adds a copy of g to the recovery file, with where it came from in a tag
// (left out if the path cannot be a tag's value: the game matters more).
static bool recover_game(const PgnGame *g, const char *path, char *err, size_t errsz) {
    PgnGame *copy = pgn_game_clone(g);
    if (!copy) {
        snprintf(err, errsz, "out of memory");
        return false;
    }
    char from[PATH_MAX_LEN + 32];
    snprintf(from, sizeof from, "game %d of %.*s", pgn_source(g)->number, PATH_MAX_LEN - 1,
             pgn_source(g)->path);
    (void)pgn_set_tag(copy, "PatzerRecoveredFrom", from);
    pgn_set_source(copy, NULL); // a new game of the recovery file
    int number;
    bool ok = pgn_db_append(copy, path, &number, NULL, err, errsz);
    pgn_game_free(copy);
    return ok;
}

int session_recover_unsaved(Session *s, int64_t now, char *path, size_t pathsz, char *err,
                            size_t errsz) {
    const PgnGame *games[EDITED_MAX + 1];
    int n = 0;
    PgnGame *shown = session_ops(s)->to_pgn(s, now);
    if (shown && pgn_modified(shown) && pgn_source(shown)->path[0])
        games[n++] = shown;
    for (int i = 0; i < s->edited_count; i++)
        if (pgn_modified(s->edited[i]) && pgn_source(s->edited[i])->path[0])
            games[n++] = s->edited[i];
    int kept = 0;
    if (n > 0 && !recovery_path(s, path, pathsz))
        snprintf(err, errsz, "no state directory to keep them in");
    else
        while (kept < n && recover_game(games[kept], path, err, errsz))
            kept++;
    pgn_game_free(shown);
    return kept == n ? n : -1;
}

// The recovery file is announced once for each state of it: recovered.seen beside it
// holds the size and time of the file last announced, so that the next starts stay quiet
// until a game is added to it (or the user changes it); the mark goes with the file.
enum { SEEN_STAMP_MAX = 64 };

static bool recovery_stamp(const char *path, char *stamp, size_t stampsz) {
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    int n = snprintf(stamp, stampsz, "%lld %lld %ld\n", (long long)st.st_size,
                     (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
    return n > 0 && (size_t)n < stampsz;
}

// Whether the file at path, as it is now, was announced already.
static bool recovery_seen(const char *seen, const char *stamp) {
    char err[256];
    size_t len;
    char *text = paths_read_file(seen, SEEN_STAMP_MAX, &len, err, sizeof err);
    bool same = text && strcmp(text, stamp) == 0;
    free(text);
    return same;
}

void save_say_recovered(Session *s) {
    char path[PATH_MAX_LEN], seen[PATH_MAX_LEN], stamp[SEEN_STAMP_MAX], err[512];
    if (!recovery_path(s, path, sizeof path) ||
        !beside_autosave(s, "recovered.seen", seen, sizeof seen))
        return;
    if (!recovery_stamp(path, stamp, sizeof stamp)) {
        (void)unlink(seen); // the file is gone: a new one is news (no mark is no harm)
        return;
    }
    if (recovery_seen(seen, stamp))
        return;
    int count = pgn_db_count(path, err, sizeof err);
    if (count > 0) {
        session_say(s, MSG_INFO,
                    "Changes not saved when patzer was closed (%d game%s) are in %s: load that "
                    "file to see %s, save FILE to keep %s elsewhere; delete it when done "
                    "(said once: `help quit` names the file).",
                    count, count == 1 ? "" : "s", path, count == 1 ? "it" : "them",
                    count == 1 ? "it" : "them");
        // A mark that cannot be written only makes the next start say it again.
        (void)paths_write_atomic(seen, stamp, strlen(stamp), err, sizeof err);
    } else if (count < 0) {
        session_say(s, MSG_ERROR, "Cannot read the recovered games: %s", err);
    }
}
