// SPDX-License-Identifier: GPL-3.0-or-later
// The moves of a game that theory knows.
#include "src/game/theory.h"

#include <string.h>

enum { BOOK_MOVES_MAX = 64 };

// Whether the book holds m in b.
static bool in_book(const Book *book, const Board *b, Move m) {
    if (!book)
        return false;
    BookMove moves[BOOK_MOVES_MAX];
    int n = book_moves(book, b, moves, BOOK_MOVES_MAX);
    for (int i = 0; i < n; i++)
        if (moves[i].move == m)
            return true;
    return false;
}

int theory_plies(const PgnGame *g, const Openings *o, const Book *book) {
    if (strcmp(pgn_start_fen(g), BOARD_START_FEN) != 0)
        return 0; // theory starts from the standard position
    Board b;
    board_set_start(&b);
    int n = pgn_mainline_length(g);
    for (int ply = 0; ply < n; ply++) {
        Move m = pgn_mainline_move(g, ply);
        if (m == MOVE_NULL)
            return ply;
        bool book_move = in_book(book, &b, m);
        board_play(&b, m);
        // A named position: the move is on the line of a named opening.
        if (!book_move && !(o && openings_lookup(o, &b, NULL, 0, NULL, 0, NULL, 0)))
            return ply;
    }
    return n;
}
