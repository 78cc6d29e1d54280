#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: play by pointing in the real terminal game (tmux), in colour,
# monochrome (NO_COLOR=1) and ASCII, at 80x24 and at a size with larger
# squares, the right way round and flipped (you play Black). The clicks are
# SGR mouse reports at the cells of the squares' labels (tests/lib.sh); the
# selection, its target marks, a click that plays, typed squares, the hidden
# and shown evaluation and Esc are checked in each.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp

# run_case LOOK COLUMNS ROWS SIDE: one game by pointing.
run_case() {
    local look=$1 cols=$2 rows=$3 side=$4 name="$1 ${2}x$3 $4"
    local dot='·' from=e2 to=e4 typed_piece=pawn typed_from=d2 typed_to=d4
    local reply='1\. e4 [a-hNBRQKO]' second='2\. d4'
    [ "$look" = ascii ] && dot=' o( |$)'
    if [ "$side" = black ]; then
        # The engine (level 1, no book) may answer anything: ...d5 can be pinned (Bb5)
        # or blocked (1. Nc3 e5 2. Nd5), but after 1... e5 no second White move can
        # reach c6 or pin the c7 pawn.
        from=e7 to=e5 typed_piece=pawn typed_from=c7 typed_to=c6
        reply='1\. [a-hNBRQKO][a-h1-8x+=]* +e5' second='2\. [^ ]+ +c6'
    fi
    write_tui_script "$tmp/run.sh" "$look" --no-book --time none --level 1 "--$side"
    tmux_start "$cols" "$rows" "bash $tmp/run.sh"
    check "$name: the board appears" wait_for 10 '^>'
    if [ "$side" = black ]; then
        check "$name: flipped, rank 1 at the top" test "$(rank_row 1)" -lt "$(rank_row 8)"
        check "$name: the engine opens" wait_for 20 '1\. [a-hNBRQKO]'
    fi
    # ncurses turns mouse reports on with its first read of the keyboard: the
    # first click is repeated until the program has seen one (a loaded machine).
    selected() { wait_for 2 "Your pawn on $from: where to\\?"; }
    for _ in 1 2 3 4 5; do
        click "$from"
        selected && break
    done
    check "$name: a click on the pawn selects it" selected
    check "$name: its moves are marked" wait_for 2 "$dot"
    check "$name: the selected piece is marked" wait_for 2 '\([^ ()]+\)'
    click "$to"
    check "$name: a click on $to plays it" wait_for 20 "$reply"
    check "$name: the evaluation is hidden in your game" test -z "$(screen | grep -E 'Depth [0-9]')"
    keys C-v
    # The panel, not the status message: the engine's next move may replace
    # the message before a capture sees it (a loaded machine).
    check "$name: Ctrl-V shows it" wait_for 5 'Depth [0-9]'
    keys C-v
    # As Black, the engine's second move comes first: typed squares are then
    # a move of the side to move, not a premove (a loaded machine is slow).
    if [ "$side" = black ]; then
        check "$name: the engine answers" wait_for 20 '2\. [a-hNBRQKO]'
    fi
    keys "$typed_from" Enter
    check "$name: typing a square selects its piece" wait_for 5 "Your $typed_piece on $typed_from: where to\\?"
    keys Escape
    check "$name: Esc clears the selection" wait_for 5 'Selection and premove cleared'
    # The second square only once the first has selected (a loaded machine
    # may otherwise deliver both before the selection is drawn).
    keys "$typed_from" Enter
    check "$name: typing the square again selects it" \
        wait_for 5 "Your $typed_piece on $typed_from: where to\\?"
    keys "$typed_to" Enter
    check "$name: a second square plays the move" wait_for 20 "$second"
    keys "quit" Enter
    sleep 0.3
    tmux_stop
}

run_case colour 80 24 white
run_case mono 100 30 black
run_case ascii 80 24 white
run_case ascii 120 40 black
run_case colour 160 50 black
finish
