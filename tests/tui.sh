#!/bin/bash
# End to end: the real terminal game in a tmux pseudo-terminal. Types a move,
# waits for the engine's reply, checks the move list, resizes (also below the
# minimum size), undoes, quits, and checks that the terminal was restored and
# the game autosaved.
set -u
PATZER=${PATZER:-src/patzer}
command -v tmux >/dev/null 2>&1 || { echo "SKIP: tmux is not installed"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patzer-tui.XXXXXX")
sock="patzer-test-$$"
tm() { tmux -L "$sock" "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
passed=0 failed=0
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
screen() { tm capture-pane -p -t game 2>/dev/null; }
# Waits up to $1 seconds for the screen to match the extended regex $2.
wait_for() {
    local deadline=$((SECONDS + $1))
    while [ $SECONDS -le $deadline ]; do
        screen | grep -qE -- "$2" && return 0
        sleep 0.1
    done
    return 1
}

# The program runs inside a shell that reports the terminal modes after it
# exits, so we can see that curses gave the terminal back.
cat >"$tmp/run.sh" <<EOF
export HOME="$tmp" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" LANG=C.UTF-8
"$PATZER" --level 1 --time 5+3 --no-book
echo "EXIT STATUS \$?"
echo "MODES \$(stty -a | tr ' ;' '\n\n' | grep -xE -- '-?(icanon|echo)' | tr '\n' ' ')"
sleep 60
EOF
tm -f /dev/null new-session -d -s game -x 120 -y 40 "bash $tmp/run.sh"

check "the board and the prompt appear" wait_for 10 '^>'
check "files are labelled" wait_for 2 'a +b +c +d +e +f +g +h'
check "White to move" wait_for 2 'White to move'

tm send-keys -t game "e4" Enter
check "the human move is in the move list" wait_for 10 '1\. e4'
check "the engine's reply follows it" wait_for 20 '1\. e4 [a-hNBRQKO][^ ]*'

tm resize-window -t game -x 80 -y 24
check "redrawn at 80x24" wait_for 5 '1\. e4 [a-hNBRQKO]'
tm resize-window -t game -x 40 -y 10
check "too small: asks to enlarge" wait_for 5 'enlarge'
tm resize-window -t game -x 120 -y 40
check "back to full size" wait_for 5 '1\. e4 [a-hNBRQKO]'

tm send-keys -t game "Ke3" Enter
check "an illegal move gets a message" wait_for 5 'Ke3'

tm send-keys -t game "undo" Enter
check "undo empties the move list" bash -c "sleep 1; ! tmux -L '$sock' capture-pane -p -t game | grep -qE '1\\. e4'"

tm send-keys -t game "d4" Enter
check "a new move after undo" wait_for 10 '1\. d4 [a-hNBRQKO]'

tm send-keys -t game "quit" Enter
check "quit exits with status 0" wait_for 10 'EXIT STATUS 0'
check "the terminal is back in canonical mode" wait_for 5 'MODES.* icanon( |$)'
check "echo restored" wait_for 5 'MODES.* echo( |$)'
save="$tmp/state/patzer/autosave.pgn"
check "the game was autosaved" test -s "$save"
check "the autosave holds the moves" grep -q "1\. d4" "$save"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
