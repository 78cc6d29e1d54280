#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: puzzles in the real terminal game (tmux). train FILE on the
# blunder sample shows the first puzzle as soon as it is found, with what to
# find and the search's progress in the status line;
# clicks on two squares solve it, a click and a typed move solve a line of
# two moves, a wrong typed move is refuted, and Black's puzzle is shown with
# Black at the bottom. train theme fork serves a fork of the shipped set.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
sample=$src/tests/data/coach/blunders.pgn
need_file "$sample" "$src/data/puzzles.txt"
make_tmp
# One search thread: the puzzles are found in the file's order.
mkdir -p "$tmp/config/patzer"
echo 'threads = 1' >"$tmp/config/patzer/patzer.conf"
patzer=$(cd "$(dirname "$PATZER")" && pwd)/$(basename "$PATZER")
cat >"$tmp/run.sh" <<RUN
export HOME="$tmp" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data"
export LANG=C.UTF-8 TERM=xterm-256color PATZER_PUZZLES="$src/data/puzzles.txt"
unset NO_COLOR LC_ALL
exec "$patzer" --no-book --time none
RUN
tmux_start 100 30 "bash $tmp/run.sh"
check "the board appears" wait_for 10 '^>'
keys "train $sample" Enter
check "the mode is named" wait_for 10 '\[train\]'
check "the first puzzle is shown while the search goes on" \
    wait_for 30 'White to move: find the best move \(puzzle 1 of [0-9]+, rating [0-9]+; yours 1500\)'
# ncurses turns mouse reports on with its first read of the keyboard: the
# first click is repeated until the program has seen one (a loaded machine).
selected() { wait_for 2 'Your knight on f3: where to\?'; }
for _ in 1 2 3 4 5; do
    click f3
    selected && break
done
check "a click selects the knight" selected
click h4
check "a second click solves the puzzle" wait_for 10 'Solved'
keys next Enter
check "the next puzzle" wait_for 30 'find the best move \(puzzle 2 of'
# A click can be lost on a loaded machine: tried again until the line's
# reply is on the move list (which a stray second click does not change).
replied() { wait_for 3 'Rd8\+ +Rxd8'; }
for _ in 1 2 3; do
    click d2
    wait_for 3 'Your rook on d2: where to\?' || continue
    click d8
    replied && break
done
check "the reply is played" replied
check "the next move is asked for" wait_for 5 'find the next move|No piece of yours'
keys Rxd8 Enter
check "the typed move ends the line" wait_for 10 'Solved'
keys next Enter
check "the fork puzzle" wait_for 30 'find the best move \(puzzle 3 of'
keys Kd2 Enter
check "a wrong move is refuted" wait_for 20 'Wrong: 1\. Kd2 is met by'
keys next Enter
check "Black's puzzle" wait_for 30 'Black to move: find the best move \(puzzle 4 of'
check "Black at the bottom" test "$(rank_row 8)" -gt "$(rank_row 1)"
keys back Enter
check "back to the game" wait_for 10 '\[play\]'
keys "train theme fork" Enter
check "train theme fork shows a fork at once" wait_for 30 'fork: (White|Black) to move: find the best move'
keys back Enter
check "back again" wait_for 10 '\[play\]'
keys quit Enter
finish
