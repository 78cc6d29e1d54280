// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to ui/: draws the board with its coordinates into a window of
// 2 + 8 * sq_w columns and 8 * sq_h + 1 rows.
#ifndef UI_BOARDVIEW_H
#define UI_BOARDVIEW_H

#include <curses.h>

#include "ui/view.h"

// The square at cell (y, x) of the board window, SQ_NONE off the squares.
Square boardview_square_at(int y, int x, bool flipped, int sq_w, int sq_h);

// The top-left cell of square sq in the board window.
void boardview_square_cell(Square sq, bool flipped, int sq_w, int sq_h, int *y, int *x);

void boardview_draw(WINDOW *w, const UiView *v, int sq_w, int sq_h);

#endif
