// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to ui/: the window layout that screen.c computes and the panes
// draw into, plus the status-line note the command bar uses to list
// completions. Not for use outside ui/.
#ifndef UI_LAYOUT_H
#define UI_LAYOUT_H

#include <curses.h>
#include <stdbool.h>

typedef struct UiLayout {
    int cols, lines; // the terminal size the layout was made for
    bool too_small;  // no layout fits: only `full` exists
    int need_cols, need_lines;
    int sq_w, sq_h;   // one board square in cells
    bool panel_below; // the panel sits under the board (narrow, tall terminal)
    WINDOW *board, *panel, *status, *cmd;
    WINDOW *full; // the whole screen, for the "too small" message
} UiLayout;

// The current layout; every window is NULL while the screen is closed.
const UiLayout *ui_layout(void);

// The frame being drawn covers the whole screen (the pager): the next
// ui_screen_update leaves the command bar under it.
void ui_screen_cover_frame(void);

// Shows text on the status line in place of the status until it is cleared
// with NULL (the command bar lists completion matches this way). The status
// line is redrawn at once.
void ui_view_set_note(const char *text);

#endif
