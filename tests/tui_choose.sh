#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end (tmux): the promotion chooser and the game list by mouse, in
# colour, monochrome and ASCII. A pawn on the seventh rank is clicked to the
# eighth: a box with Q R B N appears by the square; a click on R, the key n,
# Enter (a queen) and Esc (no move) each answer it, also with the board
# flipped. Then a file of three games is loaded, `games` lists them in the
# pager, and a click on the second line opens game 2 (a click on the title,
# the last line or the footer opens nothing). Captured pieces and the end banner
# are checked in each look too, and an idle screen is not redrawn.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
games=${TEST_DATADIR:-$src/tests/data}/pgn/cli_games.pgn
need_file "$games"

# promote FROM TO: clicks the pawn (repeated until mouse reports are on)
# and its promotion square; true once the chooser asks.
promote() {
    local i
    for i in 1 2 3 4 5; do
        click "$1"
        wait_for 2 "where to\\?" && break
    done
    click "$2"
    wait_for 5 'Promote to: q, r, b or n'
}
# The chooser's box: its four letters in a row.
chooser_shown() { wait_for 3 '[Qq]  [Rr]  [Bb]  [Nn]'; }
chooser_gone() { wait_gone 3 '[Qq]  [Rr]  [Bb]  [Nn]'; }

run_case() {
    local look=$1 cols=$2 rows=$3 name="$1 ${2}x$3"
    write_tui_script "$tmp/run.sh" "$look" --no-book --time none --level 1
    tmux_start "$cols" "$rows" "bash $tmp/run.sh"
    check "$name: the board appears" wait_for 10 '^>'
    keys "play both" Enter
    keys "setboard 8/P6k/8/8/8/8/p6K/8" Enter
    check "$name: a placement alone sets the position, saying so" \
        wait_for 5 'placement only: White to move, no castling'
    check "$name: a7-a8 asks for the piece" promote a7 a8
    check "$name: in a box by the square (White's letters)" chooser_shown
    check "$name: capitals for White" wait_for 1 'Q  R  B  N'
    click_text 'R  B  N'
    check "$name: a click on R promotes to a rook" wait_for 5 '1\. a8=R'
    check "$name: and the box goes" chooser_gone
    check "$name: Black's a2-a1 asks" promote a2 a1
    check "$name: lower case for Black" wait_for 2 'q  r  b  n'
    keys n
    check "$name: the key n promotes to a knight at once" wait_for 5 '1\. a8=R +a1=N'
    keys "setboard 8/P6k/8/8/8/8/7K/8" Enter
    check "$name: the position is set" wait_for 5 "Position set"
    keys "flip" Enter
    check "$name: the board is flipped" wait_for 5 "Board flipped"
    check "$name: flipped, rank 1 at the top" test "$(rank_row 1)" -lt "$(rank_row 8)"
    check "$name: flipped: a7-a8 asks" promote a7 a8
    check "$name: flipped: the box shows" chooser_shown
    keys Escape
    check "$name: Esc cancels: no move" wait_for 5 'Selection and premove cleared'
    check "$name: the pawn is still on a7" test -z "$(screen | grep -E '1\. a8')"
    check "$name: flipped: asked again" promote a7 a8
    keys Enter
    check "$name: Enter promotes to a queen" wait_for 5 '1\. a8=Q'

    # Captured pieces with the material difference, and the end banner.
    keys "setboard 7k/8/6K1/5Q2/3p4/4P3/8/8" Enter
    check "$name: a mating position" wait_for 5 'Position set'
    keys "exd4" Enter
    check "$name: captured pieces and the difference (queen 9)" \
        wait_for 5 'White took [^ ]+ \+10'
    for m in Kg8 Qf7+ Kh8 Qg7#; do
        keys "$m" Enter
        sleep 0.2
    done
    check "$name: the end banner names the result" wait_for 5 'Game over: 1-0'
    check "$name: and the reason" wait_for 2 '^[1-8 ] +White mates'

    keys "load $games" Enter
    check "$name: load lists the file's games" wait_for 5 '3 of 3 games in'
    click_text '^2  White, W\.'
    check "$name: a click on the second line opens game 2" wait_for 5 'Game 2: White, W\. - Black, B\. 0-1'
    check "$name: the list is closed" wait_gone 5 '3 of 3 games in'
    keys "games" Enter
    check "$name: games lists them again" wait_for 5 '3 of 3 games in'
    click_text '^3  White, W\.'
    check "$name: a click on the third line opens game 3" wait_for 5 'Game 3: White, W\. - Black, B\.'
    keys "games" Enter
    check "$name: and again" wait_for 5 '3 of 3 games in'
    # Elsewhere in the pager a click opens nothing, and the list stays.
    click_text '3 of 3 games in'
    click_text 'game N \(or a click'
    click_text 'q or Esc: close'
    # Input is read in order: once a key typed after the clicks is drawn in
    # the command bar, the clicks have been handled.
    keys z
    check "$name: a key after the clicks reaches the command bar" wait_for 5 '^> ?z'
    check "$name: a click off the games keeps the list" has "$(screen)" '3 of 3 games in'
    keys BSpace
    check "$name: and is taken back" wait_gone 5 '^> ?z'
    keys q
    check "$name: q closes it" wait_for 5 '\[browse: game 3\]'
    check "$name: closed" wait_gone 5 '3 of 3 games in'
    keys "quit" Enter
    sleep 0.3
    tmux_stop
}

# An idle screen (no clock running, the engine not thinking) is not drawn
# again: the screen dump, written after every redraw, stays as it is until
# a key changes something.
idle_case() {
    export PATZER_SCREEN_DUMP=$tmp/dump
    write_tui_script "$tmp/run.sh" colour --no-book --time none --level 1
    tmux_start 80 24 "bash $tmp/run.sh"
    check "idle: the board appears" wait_for 10 '^>'
    sleep 0.5
    local before after
    before=$(stat -c %y "$tmp/dump")
    sleep 2.5 # the old loop redrew every second
    after=$(stat -c %y "$tmp/dump")
    check "idle: no redraw while nothing changes" test "$before" = "$after"
    keys x
    check "idle: a key is drawn" wait_for 5 '^> ?x'
    after=$(stat -c %y "$tmp/dump")
    check "idle: and the dump follows it" test "$before" != "$after"
    keys BSpace "quit" Enter
    sleep 0.3
    tmux_stop
    unset PATZER_SCREEN_DUMP
}

idle_case
run_case colour 80 24
run_case mono 100 30
run_case ascii 120 40
finish
