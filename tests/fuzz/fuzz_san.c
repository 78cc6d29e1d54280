// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: the move parsers (notation_parse_move, lenient SAN and
// coordinates, and notation_parse_uci). Input: an optional first line
// "fen FEN" choosing the position (else the start position), then one move
// text per line; accepted moves are played, so a line of moves walks a game.
// Checked: the board is unchanged by a parse; an accepted move is legal; the
// canonical SAN and coordinate forms of it parse back to the same move;
// every refusal has a message.
#include "engine/fen.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "tests/fuzz/fuzz.h"

enum { MAX_LINES = 64 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Board b;
    board_init_tables();
    char *text = fuzz_string(data, size);
    char err[256], why[256];
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
        Move m = MOVE_NONE, u = MOVE_NONE;
        err[0] = '\0';
        NotationStatus st = notation_parse_move(&b, line, &m, err, sizeof err);
        if (memcmp(&b, &before, sizeof b) != 0)
            fuzz_fail("notation_parse_move(\"%s\") changed the board", line);
        NotationStatus su = notation_parse_uci(&b, line, &u);
        if (su == NOTATION_OK && !movegen_is_legal(&b, u))
            fuzz_fail("notation_parse_uci accepted an illegal move \"%s\"", line);
        if (st != NOTATION_OK) {
            if (!err[0])
                fuzz_fail("notation_parse_move refused \"%s\" (status %d) without a message", line,
                          (int)st);
            continue;
        }
        if (!movegen_is_legal(&b, m))
            fuzz_fail("notation_parse_move accepted an illegal move \"%s\"", line);
        char san[MOVE_TEXT_MAX], coord[MOVE_TEXT_MAX];
        notation_to_san(&b, m, san);
        if (memcmp(&b, &before, sizeof b) != 0)
            fuzz_fail("notation_to_san changed the board");
        notation_to_uci_in(&b, m, coord); // a Chess960 castling as king takes rook
        Move back = MOVE_NONE;
        if (notation_parse_move(&b, san, &back, err, sizeof err) != NOTATION_OK || back != m)
            fuzz_fail("SAN \"%s\" of \"%s\" does not parse back: %s", san, line, err);
        if (notation_parse_uci(&b, coord, &back) != NOTATION_OK || back != m)
            fuzz_fail("coordinates \"%s\" of \"%s\" do not parse back", coord, line);
        board_play(&b, m);
        if (!board_check(&b, why, sizeof why))
            fuzz_fail("after \"%s\" the board is inconsistent: %s", line, why);
    }
    free(text);
    return 0;
}
