// SPDX-License-Identifier: GPL-3.0-or-later
// The configuration file ($XDG_CONFIG_HOME/patzer/patzer.conf): "key = value"
// lines setting the defaults of a new game, '#' comments. Bad lines and
// unknown keys are reported with the file and line, never fatal.
#ifndef SRC_CONFIG_H
#define SRC_CONFIG_H

#include "src/session/session.h"

typedef struct Config {
    SessionOptions session; // settings, book, hash
    bool ascii;
    bool no_color;
    char name[GAME_NAME_MAX]; // the human's name in saved games
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
// The documented, commented example file.
const char *config_example(void);

#endif
