// SPDX-License-Identifier: GPL-3.0-or-later
// The move tree and the comment pane of the terminal game: fills the view's
// tree and comments from the session, Ctrl-O opens the comment in the move
// list's place (for small terminals and long comments) and Up/Down scroll it
// while it is open, and a click on the move list goes to that move.
#ifndef SRC_TERM_NOTES_H
#define SRC_TERM_NOTES_H

#include "src/session/session.h"
#include "ui/view.h"

typedef struct Notes {
    UiTreeItem *items; // the tree handed to the view (owned)
    int cap;
    bool open;                              // the comment fills the move list's place
    int scroll;                             // rows of the comment scrolled off
    const char *shown_before, *shown_after; // the comments last shown
    UiView last;                            // the view last drawn, to map clicks
    char *aside; // a text not asked for (a game's first comment), shown in the
                 // pane in place of the position's comments until cleared (owned)
} Notes;

void notes_free(Notes *n);
// Shows text in the comment pane, opened, until notes_clear_aside (the next
// command): the board stays in view. False when out of memory.
bool notes_set_aside(Notes *n, const char *text);
void notes_clear_aside(Notes *n);
// Fills the view's move tree and comment fields (and remembers the view
// for clicks: call it last, once the view is complete).
void notes_view(Notes *n, Session *s, UiView *v);
// Ctrl-O and, while the comment is open, Up/Down on an empty command line.
// True when the key was taken.
bool notes_key(Notes *n, Session *s, int key, bool line_empty);
// A mouse press at the cell ui_screen_mouse_cell gives: NOTES_OFF when it
// was not on a move of the move list, NOTES_MOVED when the session went to
// that move, NOTES_REFUSED when it could not (a message says why).
typedef enum { NOTES_OFF, NOTES_MOVED, NOTES_REFUSED } NotesClick;
NotesClick notes_click(Notes *n, Session *s, int64_t now);

#endif
