#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: replaying and analysing a loaded game in the real terminal game
# (tmux). Opens a PGN file with several games, picks one from the list, steps
# through it with the keys and commands, enters a variation, analyses a
# position with several lines and reviews the game.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
patzer=$(cd "$(dirname "$PATZER")" && pwd)/$(basename "$PATZER")
pgn=${TEST_DATADIR:-$src/tests/data}/pgn/cli_games.pgn
need_file "$pgn"
tmux_start 140 45 "env -u LC_ALL HOME=$tmp XDG_STATE_HOME=$tmp/state \
    XDG_CONFIG_HOME=$tmp/config LANG=C.UTF-8 $patzer --pgn $pgn; sleep 30"

check "the game list of the file is shown" wait_for 10 '3 of 3 games'
check "the list has players, results and dates" wait_for 2 'White, W\. +Black, B\. +1-0 .*2024\.03\.01'
keys Escape
keys "game 1" Enter
check "game 1 opens at its end" wait_for 5 '4\. Qxf7#'
check "the move list shows the game" wait_for 2 '3\. Qh5 Nf6'

keys Home
check "Home goes to the start" wait_for 5 'Start of the game'
keys Right
check "the right arrow steps forward" wait_for 5 '^1\. e4'
keys Right Right
check "comments are shown with their move" wait_for 5 '2\. Bc4 .*aiming at f7'
keys "goto 3" Enter
check "goto 3 shows White's third move" wait_for 5 '^3\. Qh5'
check "the variation of the next move is announced" wait_for 2 '1 variation'
keys PageDown
check "Page Down enters the variation" wait_for 5 '^3\.\.\. g6'
keys PageUp
check "Page Up leaves it again" wait_for 5 '^3\. Qh5 .*1 variation'
keys Left
check "the left arrow steps back" wait_for 5 '^2\.\.\. Nc6'

keys "lines 3" Enter
keys "analyze" Enter
check "analysis starts" wait_for 10 'Analysis'
check "three analysis lines" wait_for 15 '^ *3 +[-+#]'
check "an evaluation bar" wait_for 5 '\[.*\]'
keys "next" Enter
check "analysis follows the position" wait_for 10 'Analysis'
keys "stop" Enter
check "stop ends the analysis" wait_gone 5 'Analysis: running'

keys "review" Enter
check "review opens the game report" wait_for 60 'Game report'
check "the report gives each side's accuracy" wait_for 2 'White: accuracy [0-9]+%'
keys q
check "review reports in the status line" wait_for 5 'Review: [0-9]+ inaccurac'
check "the evaluation graph is drawn" wait_for 5 'Evaluation'
keys "save $tmp/reviewed.pgn" Enter
check "the reviewed game is saved" wait_for 10 'Saved to'
check "the saved game explains the blunder" grep -q 'Blunder' "$tmp/reviewed.pgn"

keys "review" Enter
keys "stop" Enter
# A review stopped after some moves reports them in the pager first.
wait_for 10 'Game report|Review stopped' && screen | grep -q 'Game report' && keys q
check "stop cancels a review" wait_for 10 'Review stopped'

keys "quit" Enter
finish
