// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: the UCI client's parsers of what an external engine says
// (src/protocol/uci_client_parse.c). Input: an optional first line "fen FEN"
// choosing the position (else the start position), then one engine line per
// line, each given to the info, bestmove and option parsers.
// Checked: the position is unchanged by a parse; every PV is a line of legal
// moves from the position; an accepted bestmove (and its ponder move) is
// legal; an option has a name, its value is its default, and a spin's
// default checks as valid when it lies in its range.
#include "engine/fen.h"
#include "engine/movegen.h"
#include "src/protocol/uci_client.h"
#include "tests/fuzz/fuzz.h"

enum { MAX_LINES = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Board b;
    board_init_tables();
    char *text = fuzz_string(data, size);
    char err[256];
    char *save = NULL;
    char *line = strtok_r(text, "\n", &save);
    board_set_start(&b);
    if (line && strncmp(line, "fen ", 4) == 0) {
        if (!board_set_fen(&b, line + 4, err, sizeof err))
            board_set_start(&b);
        line = strtok_r(NULL, "\n", &save);
    }
    for (int n = 0; line && n < MAX_LINES; n++, line = strtok_r(NULL, "\n", &save)) {
        Board before = b;
        SearchInfo info;
        if (uci_parse_info(line, &b, &info)) {
            if (info.pv_length < 0 || info.pv_length > MAX_PLY || info.multipv < 1)
                fuzz_fail("info \"%s\": pv_length %d multipv %d", line, info.pv_length,
                          info.multipv);
            Board walk = b;
            for (int i = 0; i < info.pv_length; i++) {
                if (!movegen_is_legal(&walk, info.pv[i]))
                    fuzz_fail("info \"%s\": PV move %d is not legal", line, i + 1);
                board_play(&walk, info.pv[i]);
            }
        }
        Move best, ponder;
        char moved[32];
        UciBest r = uci_parse_bestmove(line, &b, &best, &ponder, moved, sizeof moved);
        if (r == UCI_BEST_MOVE) {
            if (!movegen_is_legal(&b, best))
                fuzz_fail("bestmove \"%s\" accepted an illegal move", line);
            Board after = b;
            board_play(&after, best);
            if (ponder != MOVE_NONE && !movegen_is_legal(&after, ponder))
                fuzz_fail("bestmove \"%s\" accepted an illegal ponder move", line);
        } else if (best != MOVE_NONE) {
            fuzz_fail("bestmove \"%s\" refused (%d) but set a move", line, (int)r);
        }
        UciOption opt;
        if (uci_parse_option(line, &opt)) {
            if (!opt.name[0])
                fuzz_fail("option \"%s\" has no name", line);
            if (strcmp(opt.value, opt.def) != 0)
                fuzz_fail("option \"%s\": value is not the default", line);
            char v[UCI_OPTION_VALUE_MAX], *end;
            snprintf(v, sizeof v, "%s", opt.def);
            long d = strtol(v, &end, 10);
            bool in_range = v[0] && !*end && strlen(v) < 10 && d >= opt.min && d <= opt.max;
            if (opt.type == UCI_SPIN && in_range && !uci_option_check(&opt, v, sizeof v, err,
                                                                      sizeof err))
                fuzz_fail("option \"%s\": default refused: %s", line, err);
        }
        if (memcmp(&b, &before, sizeof b) != 0)
            fuzz_fail("parsing \"%s\" changed the board", line);
        // Walk the game on when the line was a legal bestmove.
        if (r == UCI_BEST_MOVE)
            board_play(&b, best);
    }
    free(text);
    return 0;
}
