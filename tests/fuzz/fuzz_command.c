// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: the command bar / line mode parser (command_parse) and the
// help lookup (command_help). Each input line is parsed on its own.
// Checked: a refusal has a message; texts handed back are NUL-terminated
// within their buffer; numbers are in the ranges the commands promise.
#include "src/session/command.h"
#include "tests/fuzz/fuzz.h"

enum { MAX_LINES = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text = fuzz_string(data, size);
    char *save = NULL;
    int n = 0;
    for (char *line = strtok_r(text, "\n", &save); line && n < MAX_LINES;
         line = strtok_r(NULL, "\n", &save), n++) {
        Command cmd;
        char err[256];
        if (!command_parse(line, &cmd, err, sizeof err)) {
            if (!err[0])
                fuzz_fail("command_parse refused \"%s\" without a message", line);
            if (!memchr(err, '\0', sizeof err))
                fuzz_fail("unterminated message");
            continue;
        }
        if (!memchr(cmd.text, '\0', sizeof cmd.text))
            fuzz_fail("command_parse(\"%s\"): unterminated text", line);
        if (cmd.kind == CMD_LEVEL && (cmd.number < 1 || cmd.number > 20))
            fuzz_fail("command_parse(\"%s\"): level %d out of range", line, cmd.number);
        if (cmd.kind == CMD_NEW && cmd.has_level && (cmd.level < 1 || cmd.level > 20))
            fuzz_fail("command_parse(\"%s\"): new level %d out of range", line, cmd.level);
        if (cmd.kind == CMD_HELP) {
            const char *h = command_help(cmd.text);
            if (!h)
                fuzz_fail("help for \"%s\" (from \"%s\") not found", cmd.text, line);
        }
        // save alone writes a game back to its own file: only these need a word.
        if ((cmd.kind == CMD_LOAD || cmd.kind == CMD_SETBOARD) && !cmd.text[0])
            fuzz_fail("command_parse(\"%s\"): empty argument accepted", line);
        (void)command_help(line);
    }
    free(text);
    return 0;
}
