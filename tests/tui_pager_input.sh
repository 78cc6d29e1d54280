#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end (tmux, 100x30): pagers never steal input, and never hide a
# running clock. Typing `game 3` over the game list opens game 3; `/TEXT`
# finds a text in a pager; in a timed game `help` pauses the game (the
# pager's footer says "game paused") and the clock does not run under it.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
mkdir -p "$tmp/config/patzer"
echo "threads = 1" >"$tmp/config/patzer/patzer.conf" # the machine is shared
for i in 1 2 3 4; do
    printf '[Event "Club"]\n[White "White%d"]\n[Black "Black%d"]\n[Result "*"]\n\n1. e4 e5 *\n\n' \
        "$i" "$i"
done >"$tmp/four.pgn"

write_tui_script "$tmp/run.sh" colour --no-book --time none --level 1
tmux_start 100 30 "bash $tmp/run.sh"
check "the board appears" wait_for 10 '^>'
keys "load $tmp/four.pgn" Enter
check "load lists the games in the pager" wait_for 10 'White3'
check "the pager's footer says a command may be typed" wait_for 5 'or type a command'
keys 'game 3'
check "what is typed shows under the pager" wait_for 5 '^> game 3'
keys Enter
check "typing game 3 over the list opens game 3" wait_for 10 'Game 3: White3 - Black3'
check "the board is back" wait_for 5 'a +b +c +d +e +f +g +h'
keys help Enter
check "help opens the pager" wait_for 5 'q or Esc: close'
keys '/anything else' Enter
check "/TEXT finds a text in the pager" wait_for 5 'Anything else is taken as a move'
keys ':' q
check "after :, q goes to the command bar" wait_for 5 '^> q$'
keys BSpace Escape
check "Esc closes the pager" wait_gone 5 'q or Esc: close'
keys quit Enter
tmux_stop

write_tui_script "$tmp/timed.sh" colour --no-book --time 0:05 --level 1
tmux_start 100 30 "bash $tmp/timed.sh"
check "a timed game starts" wait_for 10 '^>'
keys e4 Enter
check "the engine answers" wait_for 20 '1\. e4 [a-hNBRQKO]'
keys help Enter
check "help over a game of yours pauses it and says so" wait_for 5 'game paused'
sleep 6 # longer than the 5 seconds the clock has: read for a while
keys q
check "the pager closes" wait_gone 5 'q or Esc: close'
keys d4 Enter
check "the clock did not run under help: the next move is played" wait_for 10 '2\. d4'
keys quit Enter
finish
