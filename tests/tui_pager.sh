#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: the pager in the real terminal game (tmux), in colour at 80x24,
# monochrome (NO_COLOR=1) at 80x24 and ASCII at 120x40. The first screen
# says how to get help; help and F1 open the command list in the pager, which
# scrolls (keys and the mouse wheel) and shows where it is; q and Esc close
# it and leave the command bar empty, so the next move typed is played; help
# COMMAND, a resize while it is open, errors cut on the status line ("F2:
# more"), the messages command and F2, and a game's long opening comment.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
patzer=$(cd "$(dirname "$PATZER")" && pwd)/$(basename "$PATZER")
cat >"$tmp/run.sh" <<RUN
# A fresh state directory each start: no autosaved game to resume.
export HOME="$tmp" XDG_STATE_HOME="\$(mktemp -d "$tmp/state.XXXXXX")" XDG_CONFIG_HOME="$tmp/config"
export LANG=C.UTF-8 TERM=xterm-256color
unset LC_ALL
if [ -n "\${LOOK_NO_COLOR:-}" ]; then export NO_COLOR=1; else unset NO_COLOR; fi
exec "$patzer" --no-book --time none --level 1 "\$@"
RUN
cat >"$tmp/story.pgn" <<'PGN'
[Event "Club"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]

{This game was played in the club championship of 1911 in a small town by the
sea; both players were in their eighties and had known each other for sixty
years. The end of the story: the last line of the comment.} 1. e4 e5 2. Bc4 Nc6
3. Qh5 Nf6 4. Qxf7# 1-0
PGN
long_path="$tmp/a/directory/name/that/goes/on/and/on/and/on/and/on/until/the/end/game.pgn"

# The command bar is empty: the last row is the bare prompt.
bar_empty() {
    wait_until 3 bare_prompt && return 0
    SEEN=$(screen)
    return 1
}
bare_prompt() {
    local last
    last=$(screen | tail -n 1)
    [ "$last" = ">" ] || [ "$last" = "> " ]
}
# wheel BUTTON: a turn of the mouse wheel as an SGR mouse report (64 up,
# 65 down) over the middle of the screen.
wheel() { tm send-keys -t game -l $'\e'"[<$1;10;10M"; }
pager_open() { wait_for 5 'lines [0-9]+-[0-9]+ of [0-9]+ +q or Esc: close'; }
pager_closed() { wait_gone 5 'q or Esc: close'; }

# run_look NAME COLUMNS ROWS ENV ARGS: the whole tour in one look.
run_look() {
    local look=$1 cols=$2 rows=$3 env=$4
    shift 4
    local text_rows=$((rows - 2))
    tmux_start "$cols" "$rows" "env $env bash $tmp/run.sh $*"
    check "$look: the board appears" wait_for 10 '^>'
    check "$look: the first screen says how to get help" wait_for 5 'Type a move \(e4\) or help; F1 help'

    keys help Enter
    check "$look: help opens the pager" pager_open
    check "$look: with its title" wait_for 2 '(──|--) Help (──|--)'
    check "$look: the first command" wait_for 2 '^new \[white\|black\]'
    check "$look: where it is" wait_for 2 "lines 1-$text_rows of "
    check "$look: the board is covered" wait_gone 2 'a +b +c +d +e +f +g +h'
    keys PageDown
    check "$look: Page Down scrolls" wait_gone 5 "lines 1-$text_rows of "
    check "$look: to the next page, or the last" wait_for 2 "lines ($((text_rows + 1))-|[0-9]+-([0-9]+) of \\2 )"
    keys End
    check "$look: End shows the last line" wait_for 5 'Anything else is taken as a move'
    keys Home
    check "$look: Home goes back to the top" wait_for 5 "lines 1-$text_rows of "
    keys Down
    check "$look: Down scrolls a row" wait_for 5 "lines 2-$((text_rows + 1)) of "
    wheel 65
    check "$look: the mouse wheel down scrolls three rows" wait_for 5 "lines 5-$((text_rows + 4)) of "
    wheel 64
    check "$look: and up three rows" wait_for 5 "lines 2-$((text_rows + 1)) of "
    keys q
    check "$look: q closes it" pager_closed
    check "$look: the board is back" wait_for 5 'a +b +c +d +e +f +g +h'
    check "$look: q is not left in the command bar" bar_empty

    keys F1
    check "$look: F1 opens help" pager_open
    keys Escape
    check "$look: Esc closes it" pager_closed
    check "$look: Esc is not left in the command bar" bar_empty
    keys e4 Enter
    check "$look: a move typed after it is played" wait_for 20 '1\. e4 [a-hNBRQKO]'

    keys 'help undo' Enter
    check "$look: help COMMAND in the pager" wait_for 5 'undo \(also: u, takeback\)'
    check "$look: its explanation" wait_for 2 'Takes back the last move'
    keys q
    check "$look: closed again" pager_closed

    keys foo Enter
    check "$look: an error on the status line" wait_for 5 "'foo' is not a move"
    keys 'level 99' Enter
    keys "load $long_path" Enter
    check "$look: a long error is cut with a note" wait_for 5 'cannot open .*F2: more'
    keys messages Enter
    check "$look: messages opens the log" wait_for 5 '(──|--) Messages, newest last'
    check "$look: the log holds the first error" wait_for 2 "Error: 'foo' is not a move"
    check "$look: and the second" wait_for 2 'Error: level must be a whole number from 1 to 20'
    check "$look: and the long one" wait_for 2 'Error: cannot open'
    check "$look: whole, to its end" wait_for 2 'directory$'
    keys Escape
    check "$look: Esc closes the log" pager_closed
    keys F2
    check "$look: F2 opens the log" wait_for 5 'Messages, newest last'
    keys q
    check "$look: and q closes it" pager_closed
    check "$look: the command bar is empty after all that" bar_empty

    keys help Enter
    check "$look: help again" pager_open
    tm resize-window -t game -x 60 -y 20
    check "$look: a resize wraps it again" wait_for 5 'lines 1-18 of '
    check "$look: a long summary wraps under its column" wait_for 2 '^ {28}[^ ]'
    tm resize-window -t game -x "$cols" -y "$rows"
    check "$look: back to the full size" wait_for 5 "lines 1-$text_rows of "
    keys q
    check "$look: closed after the resize" wait_for 5 'a +b +c +d +e +f +g +h'

    keys "load $tmp/story.pgn" Enter
    check "$look: a long opening comment opens beside the board" wait_for 5 'Game 1: Alpha - Beta'
    check "$look: the board stays in view" wait_for 2 'a +b +c +d +e +f +g +h'
    check "$look: the game says what it is" wait_for 5 'Game 1: Alpha - Beta 1-0 \(4 moves\)'
    keys 'goto 2' Enter
    check "$look: the next command is not swallowed: it goes to the move" \
        wait_for 5 '2\. Bc4 +\[browse'

    keys quit Enter
    tmux_stop
}

run_look colour 80 24 "LOOK_NO_COLOR="
run_look monochrome 80 24 "LOOK_NO_COLOR=1"
run_look ascii 120 40 "LOOK_NO_COLOR=" --ascii
finish
