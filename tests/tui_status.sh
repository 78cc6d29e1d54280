#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end (issue 22): the status line follows the state. The reported
# case: a pawn moved by two clicks, the engine answers with check; the status
# line must say it is White's move and the check, not still ask where the
# pawn should go.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp

write_tui_script "$tmp/run.sh" colour --no-book --time none --level 20
tmux_start 100 30 "bash $tmp/run.sh"
check "the board appears" wait_for 10 '^>'
keys "setboard 6k1/8/8/8/8/8/1p4PP/2R4K w - - 0 1" Enter
check "the position is set" wait_for 10 'Position set'
# ncurses turns mouse reports on with its first read of the keyboard: the
# first click is repeated until the program has seen one (a loaded machine).
selected() { wait_for 2 'Your pawn on h2: where to\?'; }
for _ in 1 2 3 4 5; do
    click h2
    selected && break
done
check "a click on the pawn selects it" selected
click h3
check "a click on h3 plays it, the engine answers" wait_for 60 '1\. h3 +[a-hNBRQKO][a-h1-8x=QRBN+#]*'
# The engine's reply is the check bxc1=Q+ (any reply: the side to move and a
# check, if there is one, are what the line says).
check "the status line says whose move it is" wait_for 10 'White to move.*\[play\]'
status_line=$(screen | grep -E 'White to move.*\[play\]')
check "no stale question on the status line" lacks "$status_line" 'where to'
if screen | grep -qE '1\. h3 +[^ ]*\+'; then
    check "the check is said" has "$status_line" 'check'
fi
keys "quit" Enter
finish
