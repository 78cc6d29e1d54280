#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end (tmux), issue 21: your games are safe in every file.
# - A game of a 200-game file, browsed and commented, saved back from the
#   terminal game: the message, the file still 200 games, only that game's
#   text changed; `save FILE replace` asks on the screen and `n` keeps the file.
# - `play black` from a browsed game: you play on with its moves (the board
#   and the move list show them).
# - Looking back through your own game: Page Up, a click on a move and End,
#   the status line saying `Viewing ...`, a move typed meanwhile refused.
# - Ctrl-C is quit: a game of the file with a comment not saved is named
#   first; the second Ctrl-C leaves.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
need_file "$src/tests/data/explore/lines.pgn"
db=$tmp/db.pgn
cp --no-preserve=mode "$src/tests/data/explore/lines.pgn" "$db"

# split FILE DIR: each game of FILE (from its [Event line) into DIR/N.
split_games() {
    mkdir -p "$2"
    awk -v dir="$2" '/^\[Event /{ n++ } { print > (dir "/" n) }' "$1"
}
split_games "$db" "$tmp/before"

write_tui_script "$tmp/run.sh" colour --no-book --time none --level 1
tmux_start 120 40 "bash $tmp/run.sh"
check "the board appears" wait_for 10 '^>'

# --- a browsed game saved back into its file ----------------------------------
keys "load $db" Enter
check "load lists the 200 games" wait_for 10 '200 of 200 games in'
keys q
keys "game 5" Enter
check "game 5 opens" wait_for 10 'Game 5: '
keys "comment saved from the screen" Enter
check "the comment is shown" wait_for 5 'saved from the screen'
keys "save" Enter
check "save says it wrote game 5 back" \
    wait_for 10 'Saved game 5 back to .*db\.pgn; its other games are as they were'
split_games "$db" "$tmp/after"
check "the file still holds 200 games" test "$(grep -c '^\[Event ' "$db")" -eq 200
check "game 5 has the comment" grep -q 'saved from the screen' "$tmp/after/5"
changed=$(for n in $(seq 200); do cmp -s "$tmp/before/$n" "$tmp/after/$n" || echo "$n"; done)
check "only game 5 changed (changed: $(echo $changed))" test "$changed" = 5

keys "save $db replace" Enter
check "save FILE replace asks on the screen" \
    wait_for 10 'db\.pgn holds 200 games: replace them all with this game\? \(y/n\)'
keys n Enter
check "n keeps the file" wait_for 10 'Not saved; .*db\.pgn is as it was'
check "all 200 games" test "$(grep -c '^\[Event ' "$db")" -eq 200

# --- play black from a browsed game ------------------------------------------
# Game 7 of the file: 1. Nc3 e5 2. e3 d5 3. Qh5 Nf6 1-0.
keys "game 7" Enter
check "game 7 opens" wait_for 10 'Game 7: '
keys "goto 3" Enter
check "after White's third move" wait_for 5 '3\. Qh5'
keys "play black" Enter
check "you play on with Black" wait_for 10 'Your game now plays on from 3\. Qh5: you have Black'
check "the move list has the game's moves" wait_for 5 '1\. Nc3 e5 +2\. e3 d5 +3\. Qh5'
check "it is your game, Black to move" wait_for 5 '\[play\]'
# Black at the bottom: rank 1 is at the top; the white queen on h5.
check "the board shows the position, Black below" \
    test "$(rank_row 1)" -lt "$(rank_row 8)"
keys "Nf6" Enter
check "your move is played" wait_for 10 '3\. Qh5 Nf6'

# --- looking back through your own game ---------------------------------------
check "the engine answers" wait_for 30 '3\. Qh5 Nf6 +4\. '
keys PPage
check "Page Up looks back, said in the status line" wait_for 5 'Viewing .*your game is at'
keys "a6" Enter
check "a move typed meanwhile is refused" wait_for 5 'moves are played in your game'
keys End
check "End returns to the game" wait_for 5 'Back to your game at'
click_text '2\. e3'
check "a click on a move looks back at it" wait_for 5 'Viewing 2\. e3'
keys End
check "End returns again" wait_for 5 'Back to your game at'

# --- Ctrl-C is quit: changes not saved are named first, once -----------------
# It left at once, and the comment below was lost without a word.
keys "load $db" Enter
check "load lists the games again" wait_for 10 '200 of 200 games in'
keys q
keys "game 8" Enter
check "game 8 opens" wait_for 10 'Game 8: '
keys "comment kept by Ctrl-C" Enter
check "its comment is shown" wait_for 5 'kept by Ctrl-C'
keys C-c
check "Ctrl-C names the changes not saved" wait_for 5 'Changes to game 8 of .*db\.pgn are not saved'
check "and patzer goes on" wait_for 5 '^>'
keys C-c
no_session() { ! tm has-session -t game 2>/dev/null; }
check "a second Ctrl-C leaves, as quit again does" wait_until 10 no_session
check "the file is as it was saved" test "$(grep -c 'kept by Ctrl-C' "$db")" -eq 0
tmux_stop

# --- the terminal closed, or a kill: changes not saved are kept apart ---------
# They were lost without a word: nobody is there to be asked. They go to
# recovered.pgn beside the autosave (the user's file untouched), stderr says
# where, and the next start says so.
state=$tmp/keep-state
mkdir -p "$state"
recovered=$state/patzer/recovered.pgn
sum_before=$(cksum <"$db")
TUI_STATE=$state write_tui_script "$tmp/keep.sh" colour --no-book --time none --level 1
sed -i 's|^exec \(.*\)$|exec \1 2>>"'"$tmp"'/keep.err"|' "$tmp/keep.sh" # the pane goes with it
# edit_game N TEXT: opens game N of the file and comments it, not saved.
edit_game() {
    keys "load $db" Enter
    check "load lists the games" wait_for 10 '200 of 200 games in'
    keys q
    keys "game $1" Enter
    check "game $1 opens" wait_for 10 "Game $1: "
    keys "$2" Enter
    check "its comment is shown" wait_for 5 "${2#comment }"
    pid=$(tm list-panes -t game -F '#{pane_pid}')
}
# ended: patzer (the pane's process) is gone within 10 s.
ended() { wait_until 10 not_running; }
not_running() { ! kill -0 "$pid" 2>/dev/null; }
tmux_start 120 40 "bash $tmp/keep.sh"
check "the board appears" wait_for 10 '^>'
edit_game 9 "comment kept through a hang-up"
tm kill-session -t game # the terminal closes: SIGHUP
check "the hang-up ends patzer" ended
check "the game is in recovered.pgn beside the autosave" grep -q 'kept through a hang-up' "$recovered"
check "with where it came from" grep -qF "[PatzerRecoveredFrom \"game 9 of $db\"]" "$recovered"
check "the file is untouched" test "$(cksum <"$db")" = "$sum_before"
check "stderr says where" grep -q "changes not saved to 1 game of files are kept in $recovered" \
    "$tmp/keep.err"
tmux_start 200 40 "bash $tmp/keep.sh" # wide enough for the long path of $tmp
check "the next start says a game was recovered, where, and how to open it" \
    wait_for 10 'Changes not saved when patzer was closed \(1 game\) are in .*recovered\.pgn: load'
edit_game 10 "comment kept through a kill"
kill -TERM "$pid"
check "SIGTERM ends patzer" ended
check "its game is added to recovered.pgn" test "$(grep -c '^\[Event ' "$recovered")" -eq 2
check "the first one kept" grep -q 'kept through a hang-up' "$recovered"
check "the second one too" grep -q 'kept through a kill' "$recovered"
check "the file is still untouched" test "$(cksum <"$db")" = "$sum_before"
tmux_stop
finish
