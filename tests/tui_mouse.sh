#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: play by pointing in the real terminal game (tmux). ncurses
# with TERM=xterm-256color reads SGR (1006) mouse reports (its kmous is
# \e[<), so the test sends "\e[<0;X;YM" (press) and "\e[<0;X;Ym" (release)
# at the cells of e2 and e4, then plays 2. d4 by typing "d2" and "d4".
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
patzer=$(cd "$(dirname "$PATZER")" && pwd)/$(basename "$PATZER")
cat >"$tmp/run.sh" <<RUN
export HOME="$tmp" XDG_STATE_HOME="\$(mktemp -d "$tmp/state.XXXXXX")" XDG_CONFIG_HOME="$tmp/config"
export LANG=C.UTF-8 TERM=xterm-256color
unset NO_COLOR LC_ALL
exec "$patzer" --no-book --time none --level 1
RUN

# The 1-based screen row of a rank's label and column of a file's letter.
rank_row() { screen | grep -n -E "^ *$1 " | head -1 | cut -d: -f1; }
file_col() { screen | grep -E '^ +a +b +c +d +e +f +g +h' | head -1 | awk -v f="$1" '{ print index($0, f) }'; }
# click SQUARE: a press and a release of the left button on it.
click() {
    local x y
    x=$(file_col "${1:0:1}")
    y=$(rank_row "${1:1:1}")
    tm send-keys -t game -l $'\e'"[<0;$x;${y}M"
    tm send-keys -t game -l $'\e'"[<0;$x;${y}m"
}

tmux_start 100 30 "bash $tmp/run.sh"
check "the board appears" wait_for 10 '^>'
# ncurses turns mouse reports on with its first read of the keyboard: the
# first click is repeated until the program has seen one (a loaded machine).
selected() { wait_for 2 'Your pawn on e2: where to\?'; }
for _ in 1 2 3 4 5; do
    click e2
    selected && break
done
check "a click on the pawn selects it" selected
check "its moves are marked with dots" wait_for 2 '·'
click e4
check "a click on e4 plays e4" wait_for 5 '1\. e4'
check "the engine replies" wait_for 20 '1\. e4 [a-hNBRQKO]'
check "the engine's evaluation is hidden in your game" test -z "$(screen | grep -E 'Depth [0-9]')"
keys C-v
check "Ctrl-V shows it" wait_for 5 'evaluation is shown'
check "with its depth" wait_for 5 'Depth [0-9]'
keys C-v
keys "d2" Enter
check "typing a square selects its piece" wait_for 5 'Your pawn on d2: where to\?'
keys "d4" Enter
check "a second square plays the move" wait_for 5 '2\. d4'
keys "quit" Enter
finish
