#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: the low-time warning in the real terminal game (tmux), in
# colour, monochrome (NO_COLOR=1) and ASCII at 80x24. A saved game of five
# minutes is resumed with 19.5 s left on your clock (low: under 20 s) and
# nearly five minutes on patzer's: your clock is drawn on a background of
# its own in colour and in reverse video without colour, patzer's is not,
# and with bell on the terminal bell rings as it turns low; the clock runs at
# once, without waiting for a move. Then Ctrl-Z and
# fg: the clock stands still while the program is stopped.
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
    # It is your time from the moment the game is back (it waited for a move).
    check "$look: your clock runs at once" wait_for 10 'White You.* 0:(1[0-7]|0[0-9])'
    keys quit Enter
    tmux_stop
    unset TUI_STATE
}

run_look colour
run_look mono
run_look ascii

# Ctrl-Z: the board is out of sight while the program is stopped, so your
# clock must not run (it did: a game suspended for a coffee was lost on
# time). Stopped with the signal Ctrl-Z sends, for 6 s: the clock may lose
# the moments it ran around the stop (from its reading to "Stopped", from
# fg to the next reading, however long a loaded machine takes for them) and
# a second of rounding at each end, never the 6 s.
write_tui_script "$tmp/run.sh" colour --time 40s+0 --level 1 --no-book
# Under an interactive shell, whose job control stops and continues it (a
# program alone in its session is not stopped by Ctrl-Z).
tmux_start 80 24 "env PS1='$ ' bash --norc --noprofile -i"
keys -l "bash $tmp/run.sh"
keys Enter
check "suspend: the board appears" wait_for 10 '^>'
keys e4 Enter
check "suspend: the engine answers" wait_for 20 '1\. e4 [a-hNBRQKO]'
check "suspend: your clock runs" wait_for 5 'White You.*▶ 0:[34][0-9]'
# white_clock: the seconds White's running clock shows (under a minute).
white_clock() { screen | grep -oE 'White You.*▶ 0:[0-9]{2}' | grep -oE '[0-9]{2}$' | sed 's/^0//'; }
clock_below() { local now; now=$(white_clock); [ -n "$now" ] && [ "$now" -lt "$1" ]; }
before=$(white_clock)
read_before=$(now_ms)
keys C-z
check "suspend: Ctrl-Z gives the terminal back to the shell" wait_for 5 'Stopped'
stopped_by=$(now_ms)
sleep 6
continued_from=$(now_ms)
keys -l fg
keys Enter
check "suspend: the board is back after fg" wait_for 5 '1\. e4 [a-hNBRQKO]'
check "suspend: the clock shows again" wait_for 5 'White You.*▶ 0:[0-9]{2}'
after=$(white_clock)
read_after=$(now_ms)
ran_ms=$((stopped_by - read_before + read_after - continued_from))
lost=$((${before:-0} - ${after:-0}))
check "suspend: your clock did not run while stopped" \
    test -n "$before" -a -n "$after" -a "$lost" -le $((ran_ms / 1000 + 2))
echo "    (the clock lost ${lost} s, ran for $((ran_ms / 1000)) s around a 6 s stop)"
check "suspend: and runs again" wait_until 10 clock_below "${after:-0}"
keys quit Enter
tmux_stop
finish
