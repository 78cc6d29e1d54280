// SPDX-License-Identifier: GPL-3.0-or-later
// The command table: command_specs[] made from the list in command_list.def,
// one entry per CommandKind after CMD_MOVE, in the list's order.
#include "src/session/command_spec.h"

#include "engine/engine.h" // the elo command's range

const CommandSpec command_specs[] = {
#define COMMAND(KIND, ...) { .kind = CMD_##KIND, __VA_ARGS__ },
#include "src/session/command_list.def"
#undef COMMAND
};

const size_t command_spec_count = sizeof command_specs / sizeof command_specs[0];
// Both are made from the one list; this catches an entry lost to a stray #if.
_Static_assert(sizeof command_specs / sizeof command_specs[0] == COMMAND_SPEC_COUNT,
               "command_specs[] and CommandKind disagree");
