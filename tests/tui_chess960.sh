#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: a Chess960 game in the real terminal game (tmux). new 960 3
# (BQNNRKRB) shows its number in the panel; White castles by clicking the
# king onto its rook (king and rook swap squares), Black by clicking the king
# onto its destination square (c8); the move list and the FEN show both.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp

write_tui_script "$tmp/run.sh" colour --no-book --time none --level 1
tmux_start 100 30 "bash $tmp/run.sh"
check "the board appears" wait_for 10 '^>'
keys "new 960 3 time none" Enter
check "the panel shows the start position's number" wait_for 10 'Chess960 #3'
keys "play both" Enter
check "both sides are the user's" wait_for 5 'You play both sides'
# ncurses turns mouse reports on with its first read of the keyboard: the
# first click is repeated until the program has seen one (a loaded machine).
selected() { wait_for 2 "Your king on f1: where to\\?"; }
for _ in 1 2 3 4 5; do
    click f1
    selected && break
done
check "a click on the king selects it" selected
click g1
check "the king onto its rook castles: 1. O-O" wait_for 10 '1\. O-O'
for m in Nb6 a3 Ne6 h3; do
    keys "$m" Enter
    sleep 0.3
done
check "the moves are played" wait_for 10 '3\. h3'
click f8
check "Black's king is selected" wait_for 5 'Your king on f8: where to\?'
click c8
check "the king onto its destination castles: 3... O-O-O" wait_for 10 'O-O-O'
keys "fen" Enter
check "the position after both castlings" \
    wait_for 10 'bqkr2rb/pppppppp/1n2n3/8/8/P6P/1PPPPPP1/BQNNRRKB w - - 1 4'
keys "quit" Enter
keys "quit" Enter
sleep 0.3
tmux_stop
finish
