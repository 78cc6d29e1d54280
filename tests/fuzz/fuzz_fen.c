// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: the FEN parser (board_set_fen). The input is one FEN text.
// Checked: a rejected FEN leaves a message; an accepted one gives a
// consistent board whose own FEN reads back to the same FEN, and every legal
// move of it can be made and unmade keeping the board consistent.
#include "engine/fen.h"
#include "engine/movegen.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    Board b, again;
    board_init_tables();
    char *text = fuzz_string(data, size);
    char err[256] = "", why[256];
    if (!board_set_fen(&b, text, err, sizeof err)) {
        if (!err[0])
            fuzz_fail("board_set_fen rejected \"%s\" without a message", text);
        free(text);
        return 0;
    }
    if (!board_check(&b, why, sizeof why))
        fuzz_fail("board_set_fen(\"%s\") gave an inconsistent board: %s", text, why);
    char fen[FEN_MAX], fen2[FEN_MAX];
    board_to_fen(&b, fen, sizeof fen);
    if (!board_set_fen(&again, fen, err, sizeof err))
        fuzz_fail("our own FEN \"%s\" (from \"%s\") is rejected: %s", fen, text, err);
    board_to_fen(&again, fen2, sizeof fen2);
    if (strcmp(fen, fen2) != 0 || again.key != b.key)
        fuzz_fail("FEN round trip: \"%s\" -> \"%s\" -> \"%s\"", text, fen, fen2);

    MoveList list;
    movegen_legal(&b, &list);
    for (int i = 0; i < list.count; i++) {
        Board before = b;
        Undo u;
        board_make_move(&b, list.moves[i], &u);
        if (!board_check(&b, why, sizeof why))
            fuzz_fail("\"%s\": move %d of %d leaves an inconsistent board: %s", fen, i,
                      list.count, why);
        (void)movegen_count(&b);
        board_unmake_move(&b, &u);
        if (memcmp(&b, &before, sizeof b) != 0)
            fuzz_fail("\"%s\": unmaking move %d does not restore the board", fen, i);
    }
    (void)movegen_is_checkmate(&b);
    (void)movegen_is_stalemate(&b);
    (void)board_insufficient_material(&b);
    free(text);
    return 0;
}
