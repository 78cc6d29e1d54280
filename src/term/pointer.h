// SPDX-License-Identifier: GPL-3.0-or-later
// Play by pointing in the terminal game: mouse clicks and drags on the
// board, the keyboard cursor (arrows on an empty command line in mode play,
// Enter or Space to pick up and drop), Esc to clear a selection or premove,
// Ctrl-V to show or hide the engine's evaluation. The selection itself is
// the session's; this keeps only the cursor and the square a drag began on.
#ifndef SRC_TERM_POINTER_H
#define SRC_TERM_POINTER_H

#include "src/session/session.h"
#include "ui/view.h"

typedef struct Pointer {
    Square cursor;   // the keyboard cursor (SQ_NONE: hidden until an arrow is pressed)
    Square pressed;  // where the mouse button went down (SQ_NONE: off the board)
} Pointer;

void pointer_init(Pointer *p);
// Handles key when it is a pointing key; line_empty says whether the
// command line is empty. False when the key is not for pointing.
bool pointer_key(Pointer *p, Session *s, int key, bool line_empty, int64_t now);
// Fills the view's selection, targets, cursor and premove, and hides the
// engine's thinking when the session says so.
void pointer_view(const Pointer *p, const Session *s, UiView *v);

#endif
