// SPDX-License-Identifier: GPL-3.0-or-later
// Reading patzer.conf.
#include "src/term/config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "src/util/paths.h"
#include "src/util/text.h"

enum { CONFIG_MAX_BYTES = 1 << 20, LINE_MAX_LEN = 1024 };

void config_defaults(Config *c) {
    memset(c, 0, sizeof *c);
    game_settings_default(&c->session.settings);
    c->session.own_book = true;
    c->session.hash_mb = 64;
    c->session.pace_ms = -1; // the session's default
}

static bool parse_bool(const char *v, bool *out) {
    if (!strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcasecmp(v, "on") || !strcmp(v, "1"))
        *out = true;
    else if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcasecmp(v, "off") ||
             !strcmp(v, "0"))
        *out = false;
    else
        return false;
    return true;
}

static bool parse_int(const char *v, long min, long max, long *out) {
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end || n < min || n > max)
        return false;
    *out = n;
    return true;
}

// theme, pieces and theme.NAME: names are checked here, the theme named by
// "theme" when the screen opens (a user theme may be defined after it).
static bool set_look(Config *c, const char *key, const char *value, char *err, size_t errsz) {
    if (!strcmp(key, "pieces")) {
        for (int i = 0; i < UI_PIECES_NB; i++)
            if (!strcasecmp(value, ui_pieces_name((UiPieces)i))) {
                snprintf(c->pieces, sizeof c->pieces, "%s", ui_pieces_name((UiPieces)i));
                return true;
            }
        snprintf(err, errsz, "pieces must be filled, outline or letters, not '%s'", value);
        return false;
    }
    if (!strcmp(key, "theme")) {
        if (!*value || strlen(value) >= sizeof c->theme) {
            snprintf(err, errsz, "theme needs a name (see the theme command), not '%.40s'", value);
            return false;
        }
        snprintf(c->theme, sizeof c->theme, "%s", value);
        return true;
    }
    UiTheme t;
    if (!ui_theme_parse(key + 6, value, &t, err, errsz))
        return false;
    int slot = 0;
    while (slot < c->user_theme_count && strcasecmp(c->user_themes[slot].name, t.name))
        slot++;
    if (slot == UI_THEMES_MAX) {
        snprintf(err, errsz, "too many themes (at most %d)", UI_THEMES_MAX);
        return false;
    }
    c->user_themes[slot] = t;
    if (slot == c->user_theme_count)
        c->user_theme_count++;
    return true;
}

bool config_set(Config *c, const char *key, const char *value, char *err, size_t errsz) {
    GameSettings *s = &c->session.settings;
    long n;
    bool b;
    if (!strcmp(key, "side")) {
        if (!strcasecmp(value, "white") || !strcasecmp(value, "black")) {
            Color human = tolower((unsigned char)value[0]) == 'w' ? WHITE : BLACK;
            s->players[human] = PLAYER_HUMAN;
            s->players[!human] = PLAYER_ENGINE;
            return true;
        }
        snprintf(err, errsz, "side must be white or black, not '%s'", value);
        return false;
    }
    if (!strcmp(key, "level")) {
        if (parse_int(value, LEVEL_MIN, LEVEL_MAX, &n)) {
            s->level = (int)n;
            return true;
        }
        snprintf(err, errsz, "level must be a number from %d to %d, not '%s'", LEVEL_MIN,
                 LEVEL_MAX, value);
        return false;
    }
    if (!strcmp(key, "elo")) {
        if (parse_int(value, ENGINE_ELO_MIN, ENGINE_ELO_MAX, &n)) {
            s->level = engine_level_for_elo((int)n);
            return true;
        }
        snprintf(err, errsz, "elo must be a number from %d to %d, not '%s'", ENGINE_ELO_MIN,
                 ENGINE_ELO_MAX, value);
        return false;
    }
    if (!strcmp(key, "time")) {
        char why[256];
        if (timecontrol_parse(value, &s->tc, why, sizeof why))
            return true;
        snprintf(err, errsz, "%s", why);
        return false;
    }
    if (!strcmp(key, "hash")) {
        if (parse_int(value, 1, 65536, &n)) {
            c->session.hash_mb = (int)n;
            return true;
        }
        snprintf(err, errsz, "hash must be a size in MB from 1 to 65536, not '%s'", value);
        return false;
    }
    if (!strcmp(key, "threads")) {
        if (parse_int(value, 0, SEARCH_THREADS_MAX, &n)) {
            c->session.threads = (int)n;
            return true;
        }
        snprintf(err, errsz, "threads must be a number from 0 (one per core) to %d, not '%s'",
                 SEARCH_THREADS_MAX, value);
        return false;
    }
    if (!strcmp(key, "book")) {
        snprintf(c->session.book_path, sizeof c->session.book_path, "%s", value);
        return true;
    }
    bool *flag = !strcmp(key, "own-book") ? &c->session.own_book
                 : !strcmp(key, "ascii")  ? &c->ascii
                 : !strcmp(key, "no-color") ? &c->no_color
                                            : NULL;
    if (flag) {
        if (parse_bool(value, &b)) {
            *flag = b;
            return true;
        }
        snprintf(err, errsz, "%s must be true or false, not '%s'", key, value);
        return false;
    }
    if (!strcmp(key, "theme") || !strncmp(key, "theme.", 6) || !strcmp(key, "pieces"))
        return set_look(c, key, value, err, errsz);
    if (!strcmp(key, "bell")) {
        if (parse_bool(value, &c->bell))
            return true;
        snprintf(err, errsz, "bell must be on or off, not '%s'", value);
        return false;
    }
    if (!strcmp(key, "engine")) { // an external UCI engine's command line (started by the session)
        if (strlen(value) >= sizeof c->session.engine_cmd) {
            snprintf(err, errsz, "engine command too long");
            return false;
        }
        snprintf(c->session.engine_cmd, sizeof c->session.engine_cmd, "%s", value);
        return true;
    }
    if (!strcmp(key, "name")) {
        snprintf(c->name, sizeof c->name, "%s", value);
        return true;
    }
    snprintf(err, errsz, "unknown key '%s'", key);
    return false;
}

// Where the comment of a line starts, or NULL. '#' starts a comment except
// in a colour value: '#' and six hex digits after '=', a blank or a comma.
static char *comment_start(char *line) {
    for (char *p = strchr(line, '#'); p; p = strchr(p + 1, '#')) {
        bool after_sep = p > line && strchr("= \t,", p[-1]);
        bool hex6 = strspn(p + 1, "0123456789abcdefABCDEF") >= 6 &&
                    (p[7] == '\0' || strchr(" \t,", p[7]));
        if (!(after_sep && hex6))
            return p;
    }
    return NULL;
}

int config_load(Config *c, const char *path, void (*report)(const char *text, void *ctx),
                void *ctx) {
    char err[512];
    size_t len;
    FILE *probe = fopen(path, "r");
    if (!probe)
        return 0; // no file: the defaults stand
    fclose(probe);
    char *text = paths_read_file(path, CONFIG_MAX_BYTES, &len, err, sizeof err);
    if (!text) {
        if (report)
            report(err, ctx);
        return 1;
    }
    int problems = 0, lineno = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        char *hash = comment_start(line);
        if (hash)
            *hash = '\0';
        char *l = text_trim(line);
        if (!*l)
            continue;
        char *eq = strchr(l, '=');
        char msg[1024];
        if (!eq) {
            snprintf(msg, sizeof msg, "%s:%d: expected 'key = value', got '%.60s'", path, lineno, l);
        } else {
            *eq = '\0';
            char *key = text_trim(l), *value = text_trim(eq + 1);
            if (config_set(c, key, value, err, sizeof err))
                continue;
            snprintf(msg, sizeof msg, "%s:%d: %s", path, lineno, err);
        }
        problems++;
        if (report)
            report(msg, ctx);
    }
    free(text);
    return problems;
}

// The key a line sets (trimmed, copied into key), or false for blank and
// comment lines.
static bool line_key(const char *line, size_t len, char *key, size_t keysz) {
    char buf[LINE_MAX_LEN];
    if (len >= sizeof buf)
        return false;
    memcpy(buf, line, len);
    buf[len] = '\0';
    char *hash = comment_start(buf);
    if (hash)
        *hash = '\0';
    char *eq = strchr(buf, '=');
    if (!eq)
        return false;
    *eq = '\0';
    snprintf(key, keysz, "%s", text_trim(buf));
    return key[0] != '\0';
}

bool config_write_key(const char *path, const char *key, const char *value, char *err,
                      size_t errsz) {
    size_t len = 0;
    char *old = NULL;
    FILE *probe = fopen(path, "r");
    if (probe) {
        fclose(probe);
        old = paths_read_file(path, CONFIG_MAX_BYTES, &len, err, errsz);
        if (!old)
            return false;
    }
    size_t cap = len + strlen(key) + strlen(value) + 16, used = 0;
    char *out = malloc(cap + LINE_MAX_LEN);
    if (!out) {
        free(old);
        snprintf(err, errsz, "out of memory");
        return false;
    }
    bool written = false;
    for (size_t at = 0; at < len;) {
        const char *line = old + at;
        const char *nl = memchr(line, '\n', len - at);
        size_t n = nl ? (size_t)(nl - line) : len - at;
        char k[LINE_MAX_LEN];
        if (line_key(line, n, k, sizeof k) && !strcmp(k, key)) {
            if (!written) // later lines setting the same key would override it: drop them
                used += (size_t)snprintf(out + used, cap + LINE_MAX_LEN - used, "%s = %s\n", key,
                                         value);
            written = true;
        } else {
            memcpy(out + used, line, n);
            used += n;
            out[used++] = '\n';
        }
        at += n + 1;
    }
    if (!written)
        used += (size_t)snprintf(out + used, cap + LINE_MAX_LEN - used, "%s = %s\n", key, value);
    bool ok = paths_write_atomic(path, out, used, err, errsz);
    free(out);
    free(old);
    return ok;
}

const char *config_example(void) {
    return "# patzer.conf: defaults for new games. Lines are 'key = value'; '#' starts a comment.\n"
           "# side = white          # the side you play: white or black\n"
           "# level = 10            # engine level 1..20 (20 is full strength)\n"
           "# elo = 1500            # or an Elo rating, 810 to 2580; the nearest level is used\n"
           "# time = 5+3            # 5+3, 40/90+30, \"40/90+30, 30+30\", 5d3, none\n"
           "# book = /path/to.bin   # a Polyglot opening book (default: the shipped one)\n"
           "# own-book = true       # whether the engine plays book moves\n"
           "# hash = 64             # hash table size in MB\n"
           "# threads = 0           # search threads; 0 uses every core\n"
           "# engine = stockfish    # play and analyse with this UCI engine (default: built-in)\n"
           "# ascii = false         # ASCII board instead of Unicode pieces\n"
           "# no-color = false      # monochrome even when the terminal has colours\n"
           "# name = Anna           # your name in saved games\n"
           "# theme = classic       # board colours: classic, green, blue, contrast, paper\n"
           "# pieces = filled       # filled, outline or letters\n"
           "# bell = off            # ring on the engine's move and when your time runs low\n"
           "# theme.mine = light=#eeeed2 dark=#769656 white=231 black=16  # a theme of your\n"
           "#   own: light dark white black last hint check text accent alert, 0-255 or #rrggbb\n";
}
