#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end (tmux): the game list of a file of many games. A file of 3,000
# games (long names, lichess-style UTCDate only) is loaded: the pager lists
# them all (the last one reached with End), names whole at 120 columns, the
# date from UTCDate; a click on the last row opens game 3000; `games TEXT`
# narrows the list and `game 2999` typed opens that game.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
many=$tmp/many.pgn
for i in $(seq 1 3000); do
    printf '[Event "Rated Blitz game %d"]\n[UTCDate "2024.02.%02d"]\n' "$i" $((i % 28 + 1))
    printf '[White "Alexandra Konstantinopolous %d"]\n[Black "Bo %d"]\n[Result "1-0"]\n\n' "$i" "$i"
    printf '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
done >"$many"

write_tui_script "$tmp/run.sh" colour --no-book --time none --level 1
tmux_start 120 30 "bash $tmp/run.sh"
check "the board appears" wait_for 10 '^>'
keys "load $many" Enter
check "load lists every game" wait_for 10 '3000 of 3000 games in'
check "the first row, names whole" \
    wait_for 5 '^   1  Alexandra Konstantinopolous 1 +Bo 1 +1-0 +2024\.02\.02  Rated Blitz game 1$'
keys End
check "End shows the last game" wait_for 5 '^3000  Alexandra Konstantinopolous 3000 +Bo 3000 '
check "and the hint below it" wait_for 2 'game N \(or a click on its line\)'
check "the footer counts every row" wait_for 2 'of 3001'
click_text '^3000  Alexandra'
check "a click on the last row opens game 3000" \
    wait_for 10 'Game 3000: Alexandra Konstantinopolous 3000 - Bo 3000 1-0'
keys "games game 2999" Enter
check "games TEXT narrows the list" wait_for 5 '1 of 3000 games in .* matching .game 2999.'
keys q
keys "game 2999" Enter
check "game N typed opens a late game" \
    wait_for 10 'Game 2999: Alexandra Konstantinopolous 2999 - Bo 2999 1-0'
keys "quit" Enter
sleep 0.3
tmux_stop
finish
