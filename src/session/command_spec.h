// SPDX-License-Identifier: GPL-3.0-or-later
// The command table's entry type, shared by the table (command_table.c,
// made from command_list.def) and the parser, help and completion built on it (command.c). Internal
// to the session module: the public API is command.h.
#ifndef PATZER_SESSION_COMMAND_SPEC_H
#define PATZER_SESSION_COMMAND_SPEC_H

#include <stddef.h>

#include "src/session/command.h"

typedef enum {
    ARG_NONE,     // no arguments
    ARG_NEW,      // new's options, in any order
    ARG_PLAY,     // white|black|both|none
    ARG_NUMBER,   // one whole number in [min, max]
    ARG_TIME,     // a time control: the rest of the line
    ARG_OPT_MOVE, // at most one word
    ARG_REST,     // the rest of the line, required
    ARG_HELP,     // an optional command name
    ARG_OPT_REST, // the rest of the line, may be empty
    ARG_NAG,      // an optional NAG (!, ?, !!, ??, !?, ?!, $N)
} ArgKind;

enum {
    MAX_ALIASES = 3,
    // command_specs[] holds one entry per kind after CMD_MOVE, in the
    // enum's order: the spec of kind k is command_specs[k - COMMAND_SPEC_FIRST].
    COMMAND_SPEC_FIRST = CMD_MOVE + 1,
    COMMAND_SPEC_COUNT = CMD_COUNT - COMMAND_SPEC_FIRST,
    ECHO_MAX = 40,     // how much of a bad word we quote back
    USAGE_COLUMN = 28, // where the summaries start in the list
};

typedef struct CommandSpec {
    CommandKind kind;
    const char *name;
    const char *aliases[MAX_ALIASES]; // unused slots are NULL
    ArgKind arg;
    int min, max;     // ARG_NUMBER
    const char *what; // ARG_REST: what the argument is, for errors
    const char *usage;
    const char *summary; // one line in the list
    const char *help;    // a sentence or two
    unsigned modes;      // CMODE_* bits of the modes that accept it; 0: all
} CommandSpec;

extern const CommandSpec command_specs[];
extern const size_t command_spec_count;

#endif
