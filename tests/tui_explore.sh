#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/tui_explore.sh: the opening explorer in the terminal game, through
# tmux: `index FILE` says it indexed the file in the status line, `explore`
# opens the table in the pager, and a click on a move's line closes the
# pager and plays that move on the board. Skipped (77) without tmux.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
need_file "$src/tests/data/explore/lines.pgn"
make_tmp
cp --no-preserve=mode "$src/tests/data/explore/lines.pgn" "$tmp/"
write_tui_script "$tmp/run.sh" mono --new
tmux_start 100 40 "bash $tmp/run.sh"
check "the board appears" wait_for 10 '^>'

keys -l "play both"
keys Enter
keys -l "index $tmp/lines.pgn"
keys Enter
check "indexing ends in the status line" wait_for 20 'Indexed .*lines\.pgn: 200 games'
check "the index is beside the file" test -s "$tmp/lines.pgn.pzx"

keys -l "explore"
keys Enter
check "explore opens the pager" wait_for 5 'q or Esc: close'
check "with the table's heads" wait_for 2 'move +games +white +draws +black +rating +book'
check "and the first moves" wait_for 2 '^ *e4 +[0-9]+ +[0-9]+%'

click_text '^ *d4 +[0-9]+ '
check "a click on a move's line closes the pager" wait_for 5 '1\. d4'
if screen | grep -q 'q or Esc: close'; then
    fail "the pager is closed"
else
    pass "the pager is closed"
fi

keys -l "explore"
keys Enter
check "the explorer follows the board" wait_for 5 'Black to move'
check "with the replies to 1. d4" wait_for 2 '^ *(d5|Nf6) +[0-9]+ +[0-9]+%'

finish
