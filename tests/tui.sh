#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: the real terminal game in a tmux pseudo-terminal. Types a move,
# waits for the engine's reply, checks the move list, resizes (also below the
# minimum size), undoes, quits, and checks that the terminal was restored and
# the game autosaved.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
patzer=$(cd "$(dirname "$PATZER")" && pwd)/$(basename "$PATZER")

# The program runs inside a shell that reports the terminal modes after it
# exits, so we can see that curses gave the terminal back.
cat >"$tmp/run.sh" <<EOF
export HOME="$tmp" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" LANG=C.UTF-8
unset LC_ALL
"$patzer" --level 1 --time 5+3 --no-book "\$@"
echo "EXIT STATUS \$?"
echo "MODES \$(stty -a | tr ' ;' '\n\n' | grep -xE -- '-?(icanon|echo)' | tr '\n' ' ')"
sleep 60
EOF
tmux_start 120 40 "bash $tmp/run.sh"

check "the board and the prompt appear" wait_for 10 '^>'
check "files are labelled" wait_for 2 'a +b +c +d +e +f +g +h'
check "White to move" wait_for 2 'White to move'

keys "e4" Enter
check "the human move is in the move list" wait_for 10 '1\. e4'
check "the engine's reply follows it" wait_for 20 '1\. e4 [a-hNBRQKO][^ ]*'

tm resize-window -t game -x 80 -y 24
check "redrawn at 80x24" wait_for 5 '1\. e4 [a-hNBRQKO]'
tm resize-window -t game -x 40 -y 10
check "too small: asks to enlarge" wait_for 5 'enlarge'
# The board cannot be seen: your clock must not run meanwhile, as under a pager.
check "too small: your game is paused and it says so" wait_for 5 'game paused'
tm resize-window -t game -x 120 -y 40
check "back to full size" wait_for 5 '1\. e4 [a-hNBRQKO]'
check "back to full size: the clock runs again" wait_for 5 '▶'

keys "Ke3" Enter
# The typed text alone must not pass: the message names the move and the mode.
check "an illegal move gets a message" wait_for 5 "illegal move 'Ke3'.*\\[play\\]"

keys "undo" Enter
check "undo empties the move list" wait_gone 5 '1\. e4'

keys "d4" Enter
check "a new move after undo" wait_for 10 '1\. d4 [a-hNBRQKO]'

keys "quit" Enter
check "quit exits with status 0" wait_for 10 'EXIT STATUS 0'
check "the terminal is back in canonical mode" wait_for 5 'MODES.* icanon( |$)'
check "echo restored" wait_for 5 'MODES.* echo( |$)'
save="$tmp/state/patzer/autosave.pgn"
check "the game was autosaved" test -s "$save"
check "the autosave holds the moves" grep -q "1\. d4" "$save"

tmux_stop # a fresh server for each part

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
tmux_start 120 40 "bash $tmp/run.sh"
check "a plain start asks about the unfinished game" wait_for 10 'Resume it\? \(y/n\)'
keys "y" Enter
check "y resumes it" wait_for 10 '1\. d4 [a-hNBRQKO]'
keys "load $tmp/two.pgn" Enter
check "the file's games are listed" wait_for 10 '2 of 2 games'
keys Escape
keys "game 2" Enter
check "game 2 is shown in browse" wait_for 5 'Game 2: Gamma.*\[browse\]'
keys "setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1" Enter
check "setboard acknowledges" wait_for 5 'Position set: 4k3/8/8/8/8/8/8/4K2R w K - 0 1'
check "the old move list is gone" wait_gone 5 '5\. g3'
keys "Rh8" Enter
check "the new game takes the move" wait_for 10 '1\. Rh8\+'
check "no out-of-memory" lacks "$(screen)" 'out of memory'
keys "edit" Enter
keys "side white" Enter
check "the editor acknowledges in the status" wait_for 5 'White to move \(editor\)'
keys "cancel" Enter
keys "analyze" Enter
check "analysis runs" wait_for 10 'analysing|Analysis'
keys "game 0" Enter
check "game 0 returns to the game" wait_for 10 'Back to your game'
check "the game is there" wait_for 5 '1\. Rh8\+'
keys "quit" Enter
check "quit exits with status 0" wait_for 10 'EXIT STATUS 0'
tmux_stop

# A terminal curses cannot drive gets the line mode, with a note.
tmux_start 120 40 "TERM=dumb bash $tmp/run.sh --new"
check "TERM=dumb falls back to the line mode" wait_for 10 'using the line mode'
check "the line mode's board" wait_for 5 '^1  R N B Q K B N R'
keys "quit" Enter
check "and quits cleanly" wait_for 10 'EXIT STATUS 0'

tmux_stop

# A problem in patzer.conf is shown in the status line, not behind the screen.
mkdir -p "$tmp/config/patzer"
echo 'colour = blue' >"$tmp/config/patzer/patzer.conf"
tmux_start 120 40 "bash $tmp/run.sh --new"
check "patzer.conf errors are in the status line" wait_for 10 'patzer\.conf:1: .*colour'
keys "quit" Enter
check "quits" wait_for 10 'EXIT STATUS 0'
rm "$tmp/config/patzer/patzer.conf"

finish
