// SPDX-License-Identifier: GPL-3.0-or-later
// Scharnagl's numbering: n % 4 places the light-squared bishop (files b, d, f,
// h), the next factor of 4 the dark-squared one (a, c, e, g), a factor of 6
// the queen on the free squares, the last factor of 10 the two knights, and
// rook, king, rook fill what is left from the a-side.
#include "engine/chess960.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "engine/fen.h"

// The knights' places among the five squares left after bishops and queen.
static const char knight_places[10][2] = { { 0, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 }, { 1, 2 },
                                           { 1, 3 }, { 1, 4 }, { 2, 3 }, { 2, 4 }, { 3, 4 } };

// Puts piece on the k-th still empty square of rank (0-based).
static void place_nth_free(char rank[9], int k, char piece) {
    for (int f = 0; f < 8; f++) {
        if (rank[f] != '.')
            continue;
        if (k-- == 0) {
            rank[f] = piece;
            return;
        }
    }
    assert(!"no free square");
}

void chess960_back_rank(int n, char out[9]) {
    assert(n >= 0 && n < CHESS960_COUNT);
    memset(out, '.', 8);
    out[8] = '\0';
    out[2 * (n % 4) + 1] = 'B';
    n /= 4;
    out[2 * (n % 4)] = 'B';
    n /= 4;
    place_nth_free(out, n % 6, 'Q');
    n /= 6;
    // The second knight's place counts the squares left after the first.
    place_nth_free(out, knight_places[n][0], 'N');
    place_nth_free(out, knight_places[n][1] - 1, 'N');
    place_nth_free(out, 0, 'R');
    place_nth_free(out, 0, 'K');
    place_nth_free(out, 0, 'R');
}

void chess960_fen(int n, char *fen, size_t fensz) {
    char white[9], black[9];
    chess960_back_rank(n, white);
    for (int f = 0; f < 9; f++)
        black[f] = (char)(white[f] ? white[f] - 'A' + 'a' : '\0');
    snprintf(fen, fensz, "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1", black, white);
}

void chess960_setup(Board *b, int n) {
    char fen[FEN_MAX];
    chess960_fen(n, fen, sizeof fen);
    bool ok = board_set_fen(b, fen, NULL, 0);
    assert(ok);
    (void)ok;
    b->chess960 = true;
}

int chess960_number(const Board *b) {
    static const char letters[PIECE_TYPE_NB] = { 'P', 'N', 'B', 'R', 'Q', 'K' };
    char rank[9];
    for (int f = 0; f < 8; f++) {
        Piece w = board_piece_on(b, make_square(f, 0)), bl = board_piece_on(b, make_square(f, 7));
        if (w == NO_PIECE || piece_color(w) != WHITE || bl != make_piece(BLACK, piece_type(w)) ||
            board_piece_on(b, make_square(f, 1)) != W_PAWN ||
            board_piece_on(b, make_square(f, 6)) != B_PAWN)
            return -1;
        rank[f] = letters[piece_type(w)];
    }
    rank[8] = '\0';
    if (bb_count(board_occupied(b)) != 32)
        return -1;
    for (int n = 0; n < CHESS960_COUNT; n++) {
        char candidate[9];
        chess960_back_rank(n, candidate);
        if (strcmp(candidate, rank) == 0)
            return n;
    }
    return -1;
}
