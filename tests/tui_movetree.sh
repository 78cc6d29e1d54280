#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: the move tree and the comment pane in the real terminal game
# (tmux, 80x24), in colour, with NO_COLOR=1 and in ASCII. A game with nested
# variations, NAGs and comments is opened; the tree, its markers, the result
# and the highlighted current move are on the screen, the comment pane shows
# the comments (Ctrl-O opens it, arrows scroll it), clicks on moves of the
# list go there (SGR mouse reports, as in tui_mouse.sh), and comment and nag
# typed in the command bar show at once.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
patzer=$(cd "$(dirname "$PATZER")" && pwd)/$(basename "$PATZER")
long="This comment is long on purpose: it tells the story of the opening in more words"
long="$long than the pane under the move list can show at once, so that it has to be"
long="$long opened with Control-O and scrolled with the arrow keys to be read in full,"
long="$long down to its very last words. It goes on: the knight, the bishop and the"
long="$long queen all come out late, the king's side is opened by two pawn moves that"
long="$long do nothing for the centre, and Black's queen finds the diagonal to h4 at"
long="$long once. Its very last words are: the end of the long comment."
cat >"$tmp/tree.pgn" <<PGN
[Event "Tree"]
[White "Gamma"]
[Black "Delta"]
[Result "0-1"]

{The opening words of the game.} 1. f3 e5 {$long} 2. g4 (2. e4 {solid}
(2. Kf2 Qh4+ \$2 3. g3) 2... Nc6 (2... Nf6 \$5 (2... d5))) 2... Qh4# {Fool's mate} 0-1
PGN
export LANG=C.UTF-8
colours() { tm capture-pane -e -p -t game 2>/dev/null; }
# click TEXT: a press and a release of the left button on the first cell of
# TEXT on the screen (bash counts characters, all one column wide here).
click() {
    local line prefix y x LC_ALL=C.UTF-8 # counting characters, not bytes
    line=$(screen | grep -n -F -- "$1" | head -1)
    y=${line%%:*}
    line=${line#*:}
    prefix=${line%%"$1"*}
    x=$((${#prefix} + 1))
    tm send-keys -t game -l $'\e'"[<0;$x;${y}M"
    tm send-keys -t game -l $'\e'"[<0;$x;${y}m"
}
# status_line REGEX: the status line (the one above the prompt) matches.
status_is() {
    wait_until 5 status_matches "$1" && return 0
    SEEN=$(screen)
    return 1
}
status_matches() { screen | grep -B1 '^>' | head -1 | grep -qE -- "$1"; }

for look in colour mono ascii; do
    case $look in
    colour) env="unset NO_COLOR" args="" marker="¶" ;;
    mono) env="export NO_COLOR=1" args="" marker="¶" ;;
    ascii) env="unset NO_COLOR" args="--ascii" marker="{}" ;;
    esac
    marker_re=${marker/\{\}/\\\{\\\}} # as a regular expression
    cat >"$tmp/run.sh" <<RUN
export HOME="$tmp" XDG_STATE_HOME="\$(mktemp -d "$tmp/state.XXXXXX")" XDG_CONFIG_HOME="$tmp/config"
export TERM=xterm-256color LANG=C.UTF-8
unset LC_ALL
$env
exec "$patzer" --no-book --time none --level 1 --new $args --pgn "$tmp/tree.pgn"
RUN
    tmux_start 80 24 "bash $tmp/run.sh"
    check "$look: the game opens at its end" wait_for 10 '2\.\.\. Qh4#'
    check "$look: the main line starts the list" wait_for 2 "1\\. f3$marker_re e5$marker_re 2\\. g4"
    check "$look: a variation is indented and parenthesised" wait_for 2 '^.*   \(2\. e4'
    check "$look: a nested one twice as deep" wait_for 2 '^.*     \(2\. Kf2 Qh4\+\? 3\. g3\)'
    check "$look: NAG \$5 is shown as !?" wait_for 2 '\(2\.\.\. Nf6!\?'
    check "$look: closing parentheses stick together" wait_for 2 '\(2\.\.\. d5\)\)\)'
    check "$look: moves with comments are marked" wait_for 2 "Qh4#$marker_re 0-1"
    check "$look: the current move is highlighted (reverse)" \
        grep -qE '7mQh4#' <(colours)
    check "$look: the comment pane shows the comment" wait_for 2 "Fool's mate"
    if [ $look = colour ]; then
        check "colour: variations are dimmed in colour" grep -qE '38;5;[0-9]+m\(2\.' <(colours)
    fi

    # Clicks on the list go to the move (mouse reports start with the first read).
    for _ in 1 2 3 4 5; do
        click "Nf6!?"
        status_is '^2\.\.\. Nf6!\?' && break
    done
    check "$look: a click on Nf6 goes there" status_is '^2\.\.\. Nf6!\?'
    check "$look: the board follows (Black's knight on f6)" test "$(screen | grep -c 'Nf6')" -ge 1
    click "g3)"
    check "$look: a click in the nested variation goes there" status_is '^3\. g3'
    click "e5$marker"
    check "$look: a click on e5 goes there" status_is '^1\.\.\. e5'
    check "$look: a long comment is cut with a hint" wait_for 3 'Comment 1-[0-9]+/[0-9]+ \(Ctrl-O\)'
    keys C-o
    check "$look: Ctrl-O opens it in the list's place" \
        wait_for 3 'Comment 1-[0-9]+/[0-9]+ \(Ctrl-O, arrows\)'
    check "$look: with the list hidden" wait_gone 3 '1\. f3'
    for _ in $(seq 30); do keys Down; done
    check "$look: the arrows scroll to its end" wait_for 3 '^ .* the long comment\.'
    check "$look: its start scrolled off" test -z "$(screen | grep -v '^1\.\.\. e5' | grep -F 'This comment is long')"
    keys C-o
    check "$look: Ctrl-O closes it" wait_for 3 '1\. f3'

    keys "comment A new note" Enter
    check "$look: comment replaces the comment at once" wait_for 3 'A new note'
    keys "nag ??" Enter
    check "$look: nag ?? shows on the move" wait_for 3 "e5\\?\\?$marker_re"
    keys "quit" Enter
    tmux_stop
done
finish
