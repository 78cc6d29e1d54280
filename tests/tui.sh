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
export HOME="$tmp" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" LANG=C.UTF-8
"$PATZER" --level 1 --time 5+3 --no-book "\$@"
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
# The typed text alone must not pass: the message names the move and the mode.
check "an illegal move gets a message" wait_for 5 "illegal move 'Ke3'.*\\[play\\]"

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

tm kill-server >/dev/null 2>&1
sock="patzer-test-$$-resume" # a fresh server for each part

# The unfinished game: a plain start asks in the status bar; the mix of
# modes in the real terminal never loses it.
cat >"$tmp/two.pgn" <<'PGN'
[Event "Club"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "Club"]
[White "Gamma"]
[Black "Delta"]
[Result "*"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. g3 *
PGN
tm -f /dev/null new-session -d -s game -x 120 -y 40 "bash $tmp/run.sh"
check "a plain start asks about the unfinished game" wait_for 10 'Resume it\? \(y/n\)'
tm send-keys -t game "y" Enter
check "y resumes it" wait_for 10 '1\. d4 [a-hNBRQKO]'
tm send-keys -t game "load $tmp/two.pgn" Enter
check "the file's games are listed" wait_for 10 '2 of 2 games'
tm send-keys -t game Escape
tm send-keys -t game "game 2" Enter
check "game 2 is shown in browse" wait_for 5 'Game 2: Gamma.*\[browse\]'
tm send-keys -t game "setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1" Enter
check "setboard acknowledges" wait_for 5 'Position set: 4k3/8/8/8/8/8/8/4K2R w K - 0 1'
check "the old move list is gone" bash -c "! tmux -L '$sock' capture-pane -p -t game | grep -qE '5\. g3'"
tm send-keys -t game "Rh8" Enter
check "the new game takes the move" wait_for 10 '1\. Rh8\+'
check "no out-of-memory" bash -c "! tmux -L '$sock' capture-pane -p -t game | grep -q 'out of memory'"
tm send-keys -t game "edit" Enter
tm send-keys -t game "side white" Enter
check "the editor acknowledges in the status" wait_for 5 'White to move \(editor\)'
tm send-keys -t game "cancel" Enter
tm send-keys -t game "analyze" Enter
check "analysis runs" wait_for 10 'analysing|Analysis'
tm send-keys -t game "game 0" Enter
check "game 0 returns to the game" wait_for 10 'Back to your game'
check "the game is there" wait_for 5 '1\. Rh8\+'
tm send-keys -t game "quit" Enter
check "quit exits with status 0" wait_for 10 'EXIT STATUS 0'
tm kill-server >/dev/null 2>&1
sock="patzer-test-$$-dumb"

# A terminal curses cannot drive gets the line mode, with a note.
tm -f /dev/null new-session -d -s game -x 120 -y 40 "TERM=dumb bash $tmp/run.sh --new"
check "TERM=dumb falls back to the line mode" wait_for 10 'using the line mode'
check "the line mode's board" wait_for 5 '^1  R N B Q K B N R'
tm send-keys -t game "quit" Enter
check "and quits cleanly" wait_for 10 'EXIT STATUS 0'

tm kill-server >/dev/null 2>&1
sock="patzer-test-$$-conf"

# A problem in patzer.conf is shown in the status line, not behind the screen.
mkdir -p "$tmp/config/patzer"
echo 'colour = blue' >"$tmp/config/patzer/patzer.conf"
tm -f /dev/null new-session -d -s game -x 120 -y 40 "bash $tmp/run.sh --new"
check "patzer.conf errors are in the status line" wait_for 10 'patzer\.conf:1: .*colour'
tm send-keys -t game "quit" Enter
check "quits" wait_for 10 'EXIT STATUS 0'
rm "$tmp/config/patzer/patzer.conf"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
