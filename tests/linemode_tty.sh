#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end (tmux): the line mode on a terminal (TERM=dumb) and Ctrl-C.
# Ctrl-C ended it at once, and the changes to a game of a file were lost
# without a word. Someone is at the terminal, so it now does what the
# terminal game does: it stops what runs (an analysis, the engine's
# thinking), and otherwise is quit, typed: changes not saved are named once,
# a second Ctrl-C leaves.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
need_file "$src/tests/data/explore/lines.pgn"
db=$tmp/db.pgn
cp --no-preserve=mode "$src/tests/data/explore/lines.pgn" "$db"
sum_before=$(cksum <"$db")

patzer=$(cd "$(dirname "$PATZER")" && pwd)/$(basename "$PATZER")
cat >"$tmp/run.sh" <<RUN
export HOME="$tmp" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" LANG=C.UTF-8
export TERM=dumb
unset LC_ALL
"$patzer" --new --level 1 --time none --no-book
echo "EXIT STATUS \$?"
sleep 600
RUN

# --- Ctrl-C stops an analysis, and patzer goes on ------------------------------
tmux_start 100 30 "bash $tmp/run.sh"
check "the line mode starts" wait_for 10 'using the line mode'
keys -l "analyze"
keys Enter
check "the analysis runs" wait_for 10 '^depth [0-9]+'
keys C-c
check "Ctrl-C stops the analysis" wait_for 10 'Analysis stopped|analysis stopped'
keys -l "fen"
keys Enter
check "and patzer still answers" wait_for 10 '^rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
check "it is still running" lacks "$(screen)" "EXIT STATUS"

# --- Ctrl-C with changes not saved: named once, the second leaves -------------
keys -l "load $db"
keys Enter
check "load lists the games" wait_for 10 '^200  White 200'
keys -l "game 8"
keys Enter
check "game 8 opens" wait_for 10 'Game 8: '
keys -l "comment kept by Ctrl-C"
keys Enter
check "its comment is made" wait_for 5 'kept by Ctrl-C'
keys C-c
check "Ctrl-C names the changes not saved" wait_for 5 'Changes to game 8 of .*db\.pgn are not saved'
check "and patzer goes on" lacks "$(screen)" "EXIT STATUS"
keys C-c
check "a second Ctrl-C leaves, as quit again does" wait_for 10 'EXIT STATUS 0'
check "the file is as it was" test "$(cksum <"$db")" = "$sum_before"
tmux_stop

# --- Ctrl-C with nothing to lose leaves at once --------------------------------
tmux_start 100 30 "bash $tmp/run.sh"
check "the line mode starts again" wait_for 10 'using the line mode'
check "its board is shown" wait_for 10 '^White to move'
keys C-c
check "Ctrl-C leaves as quit does" wait_for 10 'EXIT STATUS 0'
tmux_stop
finish
