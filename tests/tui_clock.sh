#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: the low-time warning in the real terminal game (tmux), in
# colour, monochrome (NO_COLOR=1) and ASCII at 80x24. A saved game of five
# minutes is resumed with 19.5 s left on your clock (low: under 20 s) and
# nearly five minutes on patzer's: your clock is drawn on a background of
# its own in colour and in reverse video without colour, patzer's is not,
# and with bell on the terminal bell rings as it turns low.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
mkdir -p "$tmp/config/patzer"
echo "bell = on" >"$tmp/config/patzer/patzer.conf"

colours() { tm capture-pane -e -p -t game 2>/dev/null; }
# marked CLOCK_REGEX: the clock text comes right after a background colour
# or reverse video (the cell attributes as tmux writes them).
marked() { colours | grep -qE -- "(\\[|;)(7|4[0-7]|48;5;[0-9]+)m$1"; }
# The bell flag tmux keeps for the window (1 once the program rang).
bell_flag() { tm display -p -t game '#{window_bell_flag}'; }

run_look() {
    local look=$1
    TUI_STATE=$tmp/state-$look
    mkdir -p "$TUI_STATE/patzer"
    cat >"$TUI_STATE/patzer/autosave.pgn" <<'PGN'
[Event "patzer game"]
[Site "patzer"]
[Date "2026.11.24"]
[Round "-"]
[White "Human"]
[Black "patzer level 1"]
[Result "*"]
[TimeControl "300"]
[PatzerWhite "human"]
[PatzerBlack "engine"]
[PatzerLevel "1"]
[PatzerTime "5"]
[PatzerClocks "19500 290000"]

1. e4 Nc6 2. d4 d5 *
PGN
    write_tui_script "$tmp/run.sh" "$look" --resume --no-book
    tmux_start 80 24 "bash $tmp/run.sh"
    tm set -g monitor-bell on
    tm set -g bell-action any
    check "$look: the game is resumed" wait_for 10 '2\. d4 d5'
    check "$look: your clock shows under 20 s" wait_for 5 'White You.* 0:1[0-9]'
    check "$look: and is marked as low" marked '0:1[0-9]'
    check "$look: patzer's clock is not" test -n "$(screen | grep -E 'Black patzer.* 4:[45][0-9]')"
    check "$look: patzer's clock is not marked" eval '! marked "4:[45][0-9]"'
    check "$look: the bell rang as it turned low" test "$(bell_flag)" = 1
    keys quit Enter
    tmux_stop
    unset TUI_STATE
}

run_look colour
run_look mono
run_look ascii
finish
