#!/bin/bash
# End to end: replaying and analysing a loaded game in the real terminal game
# (tmux). Opens a PGN file with several games, picks one from the list, steps
# through it with the keys and commands, enters a variation, analyses a
# position with several lines and reviews the game.
set -u
PATZER=${PATZER:-src/patzer}
srcdir=${srcdir:-.}
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux is not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patzer-replay.XXXXXX")
sock="patzer-replay-$$"
tm() { tmux -L "$sock" "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
passed=0 failed=0
screen() { tm capture-pane -p -t game 2>/dev/null; }
check() { # description, command...
    local what=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "PASS: $what"
    else
        failed=$((failed + 1))
        echo "FAIL: $what"
        screen | sed 's/^/    | /'
    fi
}
wait_for() { # seconds, extended regex
    local deadline=$((SECONDS + $1))
    while [ $SECONDS -le $deadline ]; do
        screen | grep -qE -- "$2" && return 0
        sleep 0.1
    done
    return 1
}
send() { tm send-keys -t game "$@"; }

pgn="$srcdir/tests/data/pgn/cli_games.pgn"
tm -f /dev/null new-session -d -s game -x 140 -y 45 \
    "env HOME=$tmp XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/config LANG=C.UTF-8 \
     $PATZER --pgn $pgn; sleep 30"

check "the game list of the file is shown" wait_for 10 '3 of 3 games'
check "the list has players, results and dates" wait_for 2 'White, W\. +Black, B\. +1-0 .*2024\.03\.01'
send Escape
send "game 1" Enter
check "game 1 opens at its end" wait_for 5 '4\. Qxf7#'
check "the move list shows the game" wait_for 2 '3\. Qh5 Nf6'

send Home
check "Home goes to the start" wait_for 5 'Start of the game'
send Right
check "the right arrow steps forward" wait_for 5 '^1\. e4'
send Right Right
check "comments are shown with their move" wait_for 5 '2\. Bc4 .*aiming at f7'
send "goto 3" Enter
check "goto 3 shows White's third move" wait_for 5 '^3\. Qh5'
check "the variation of the next move is announced" wait_for 2 '1 variation'
send PageDown
check "Page Down enters the variation" wait_for 5 '^3\.\.\. g6'
send PageUp
check "Page Up leaves it again" wait_for 5 '^3\. Qh5 .*1 variation'
send Left
check "the left arrow steps back" wait_for 5 '^2\.\.\. Nc6'

send "lines 3" Enter
send "analyze" Enter
check "analysis starts" wait_for 10 'Analysis'
check "three analysis lines" wait_for 15 '^ *3 +[-+#]'
check "an evaluation bar" wait_for 5 '\[.*\]'
send "next" Enter
check "analysis follows the position" wait_for 10 'Analysis'
send "stop" Enter
check "stop ends the analysis" bash -c "sleep 1; ! tmux -L '$sock' capture-pane -p -t game | grep -q 'Analysis: running'"

send "review" Enter
check "review opens the game report" wait_for 60 'Game report'
check "the report gives each side's accuracy" wait_for 2 'White: accuracy [0-9]+%'
send q
check "review reports in the status line" wait_for 5 'Review: [0-9]+ inaccurac'
check "the evaluation graph is drawn" wait_for 5 'Evaluation'
send "save $tmp/reviewed.pgn" Enter
check "the reviewed game is saved" wait_for 10 'Saved to'
check "the saved game explains the blunder" grep -q 'Blunder' "$tmp/reviewed.pgn"

send "review" Enter
send "stop" Enter
# A review stopped after some moves reports them in the pager first.
wait_for 10 'Game report|Review stopped' && screen | grep -q 'Game report' && send q
check "stop cancels a review" wait_for 10 'Review stopped'

send "quit" Enter
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
