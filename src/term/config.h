// SPDX-License-Identifier: GPL-3.0-or-later
// The configuration file ($XDG_CONFIG_HOME/patzer/patzer.conf): "key = value"
// lines setting the defaults of a new game, '#' comments. Bad lines and
// unknown keys are reported with the file and line, never fatal.
#ifndef SRC_CONFIG_H
#define SRC_CONFIG_H

#include "src/session/session.h"
#include "ui/themes.h"

enum { CONFIG_PIECES_MAX = 16 };

typedef struct Config {
    SessionOptions session; // settings, book, hash
    bool ascii;
    bool no_color;
    char name[GAME_NAME_MAX]; // the human's name in saved games
    // The board view: theme and piece set names (empty: the defaults), the
    // bell, and the user's themes ("theme.NAME = light=#eeeed2 dark=...").
    char theme[UI_THEME_NAME_MAX];
    char pieces[CONFIG_PIECES_MAX];
    bool bell;
    UiTheme user_themes[UI_THEMES_MAX];
    int user_theme_count;
} Config;

// Built-in defaults: human White against level 10 at 5+3, book on.
void config_defaults(Config *c);
// Reads path into c. Returns the number of problems; each one is reported
// through report(text, ctx) as "FILE:LINE: message". A missing file is
// not a problem.
int config_load(Config *c, const char *path, void (*report)(const char *text, void *ctx),
                void *ctx);
// Sets one key from text (also used for command-line options).
bool config_set(Config *c, const char *key, const char *value, char *err, size_t errsz);
// Writes "key = value" into the file at path atomically: the lines that set
// key get the new value, or the line is added at the end; every other line
// and comment stays as it was. A missing file is created.
bool config_write_key(const char *path, const char *key, const char *value, char *err,
                      size_t errsz);
// The documented, commented example file.
const char *config_example(void);

#endif
