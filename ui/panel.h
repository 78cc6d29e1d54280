// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to ui/: the side panel (players and clocks, material and opening,
// the move list, the engine's thinking) and the text formats it uses.
#ifndef UI_PANEL_H
#define UI_PANEL_H

#include <curses.h>
#include <stddef.h>

#include "ui/view.h"

// "5:00", "0:07.3" under ten seconds, "1:02:03" from an hour up.
void panel_format_clock(long long ms, char *buf, size_t bufsz);
// "+0.35", "-1.20", "0.00" in pawns from centipawns; "#3" / "#-2" for mates.
void panel_format_score(int cp_white, int mate_white, char *buf, size_t bufsz);
// "950", "12.3k", "1.23M", "4.56G".
void panel_format_count(unsigned long long n, char *buf, size_t bufsz);

void panel_draw(WINDOW *w, const UiView *v);
// The move tree item at cell (y, x) of the panel window w, -1 for none.
int panel_move_at(WINDOW *w, const UiView *v, int y, int x);
// The comment's rows in all and the rows the panel shows of them.
void panel_comment_rows(WINDOW *w, const UiView *v, int *total, int *shown);

#endif
