#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: premoves in the real terminal game (tmux), in colour,
# monochrome (NO_COLOR=1) and ASCII at 80x24. The engine plays at full
# strength with a long clock, so it is still thinking when the premove is
# typed; "stop" makes it move when the test is ready. A move typed in SAN or
# as squares is queued and marked on the board (a colour of its own in
# colour, <..> around the squares in monochrome), said on the status line,
# and played the moment the engine has moved; a premove that is then illegal
# is dropped with a note; Esc clears one.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp

colours() { tm capture-pane -e -p -t game 2>/dev/null; }
# The 256-colour background of a square's centre cell ("" for none): the
# last one set before that cell on its row (escape sequences take no
# columns; characters are counted in UTF-8).
square_bg() {
    local y x line
    y=$(rank_row "${1:1:1}")
    x=$(file_col "${1:0:1}")
    line=$(colours | sed -n "${y}p")
    (
        LC_ALL=C.UTF-8
        bg="" col=0 esc=$'\e' rest=$line
        while [ -n "$rest" ] && [ "$col" -lt "$x" ]; do
            if [[ $rest =~ ^$esc\[([0-9\;]*)m ]]; then
                seq=${BASH_REMATCH[1]}
                rest=${rest:${#BASH_REMATCH[0]}}
                [[ ";$seq;" =~ \;48\;5\;([0-9]+)\; ]] && bg=${BASH_REMATCH[1]}
                [[ -z $seq || $seq = 0 || $seq = 49 ]] && bg=""
                continue
            fi
            rest=${rest:1}
            col=$((col + 1))
        done
        echo "$bg"
    )
}
# The text of a square's centre cell and the cells either side of it.
square_text() {
    local y x line
    y=$(rank_row "${1:1:1}")
    x=$(file_col "${1:0:1}")
    line=$(screen | sed -n "${y}p")
    (
        LC_ALL=C.UTF-8
        printf '%s' "${line:$((x - 2)):3}"
    )
}
# The engine thinks while Black's clock (patzer's) runs; the user's turn
# starts White's.
thinking() { wait_for 20 'Black patzer.*(▶|>) [0-9]'; }
your_turn() { wait_for 20 'White You.*(▶|>) [0-9]'; }

# run_look LOOK: one game with premoves.
run_look() {
    local look=$1 knight='♘' name=$1
    [ "$look" = ascii ] && knight=N
    write_tui_script "$tmp/run.sh" "$look" --no-book --time 90+0 --level 20
    tmux_start 80 24 "bash $tmp/run.sh"
    check "$name: the board appears" wait_for 10 '^>'
    keys e4 Enter
    check "$name: the engine thinks" thinking
    keys Nf3 Enter
    check "$name: a move in SAN is queued" wait_for 5 'Premove Nf3: played when patzer has moved'
    check "$name: nothing is played yet" lacks "$(screen)" '2. Nf3'
    local marked
    case $look in
    mono)
        check "$name: the knight is marked <$knight>" test "$(square_text g1)" = "<$knight>"
        check "$name: its square is marked < >" test "$(square_text f3)" = "< >"
        ;;
    *)
        # f3 is a light square, g1 a dark one: b1 and a1 are their plain shades.
        marked=$(square_bg g1)
        check "$name: f3 takes the premove's colour" test "$(square_bg f3)" != "$(square_bg b1)"
        check "$name: as does g1" test "$marked" != "$(square_bg a1)"
        ;;
    esac
    keys stop Enter
    check "$name: played the moment the engine has moved" wait_for 20 '2\. Nf3'
    check "$name: the engine thinks again" thinking
    if [ "$look" = mono ]; then
        check "$name: the marks turn to the last move's" test "$(square_text g1)" = "[ ]"
    else
        check "$name: the marks turn to the last move's" test "$(square_bg g1)" != "$marked"
    fi

    keys e1e3 Enter
    check "$name: squares are queued too" wait_for 5 'Premove e1e3: played when'
    keys stop Enter
    check "$name: an illegal premove is dropped with a note" \
        wait_for 20 'Premove e1e3 dropped: it is not legal now'
    keys d4 Enter
    check "$name: the engine thinks once more" thinking
    keys Bc4 Enter
    check "$name: queued again" wait_for 5 'Premove Bc4: played when'
    keys Escape
    check "$name: Esc clears it" wait_for 5 'Selection and premove cleared'
    [ "$look" = mono ] && check "$name: its marks are gone" test "$(square_text c4)" = "   "
    keys stop Enter
    check "$name: the engine moves" wait_for 20 '3\. d4 [a-hNBRQKO]'
    check "$name: and the cleared premove is not played" your_turn
    check "$name: no fourth move" lacks "$(screen)" '4. '
    keys quit Enter
    tmux_stop
}

run_look colour
run_look mono
run_look ascii
finish
