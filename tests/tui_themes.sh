#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: theme and piece set switched in the real terminal game (tmux).
# The board's colours (read with capture-pane -e) and glyphs change at once,
# the choices land in patzer.conf beside the user's own lines, and a user
# theme from the file is listed and drawn with its colours; with bell on,
# the engine's move rings the terminal bell (tmux's window bell flag).
# Without colour (NO_COLOR=1) and in ASCII, the same commands are taken and
# kept and the board stays readable.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
mkdir -p "$tmp/config/patzer"
cat >"$tmp/config/patzer/patzer.conf" <<'CONF'
# my settings
level = 3   # keep this comment
theme.mine = light=#ffffff dark=#005f00 white=226 black=16
CONF
patzer=$(cd "$(dirname "$PATZER")" && pwd)/$(basename "$PATZER")
cat >"$tmp/run.sh" <<RUN
# A fresh state directory each start: no autosaved game to resume.
export HOME="$tmp" XDG_STATE_HOME="\$(mktemp -d "$tmp/state.XXXXXX")" XDG_CONFIG_HOME="$tmp/config"
export LANG=C.UTF-8
export TERM=xterm-256color
unset NO_COLOR LC_ALL
exec "$patzer" --no-book --time none --level 1
RUN
colours() { tm capture-pane -e -p -t game 2>/dev/null; }
# has_colour SGR: the screen shows that colour sequence (e.g. "48;5;94").
has_colour() {
    wait_until 5 shows_colour "$1" && return 0
    SEEN=$(colours | cat -v | head -12)
    return 1
}
shows_colour() { colours | grep -qF -- "$1"; }
conf() { cat "$tmp/config/patzer/patzer.conf"; }
# The bell flag tmux keeps for the window (1 once the program rang).
bell_flag() { tm display -p -t game '#{window_bell_flag}'; }

tmux_start 100 30 "bash $tmp/run.sh"
tm set -g monitor-bell on
tm set -g bell-action any
check "the board appears" wait_for 10 '^>'
keys "e4" Enter
check "the engine replies" wait_for 20 '1\. e4 [a-hNBRQKO]'
check "no bell while the bell is off" test "$(bell_flag)" = 0
check "classic theme by default: brown dark squares" has_colour "48;5;94"
check "filled pieces by default" wait_for 2 '♟'

keys "theme" Enter
check "theme alone lists the themes" wait_for 5 'Themes: classic\* green blue contrast paper mine'
keys "theme green" Enter
check "theme green: the squares turn green at once" has_colour "48;5;65"
check "theme green is said to be kept" wait_for 5 'Theme green \(kept in patzer.conf\)'
check "patzer.conf has theme = green" has "$(conf)" "theme = green"
check "the user's lines and comments stay" has "$(conf)" "level = 3   # keep this comment"

keys "pieces outline" Enter
check "outline pieces replace the filled ones" wait_for 5 '♙'
check "no filled pawn is left" wait_gone 5 '♟'
keys "pieces letters" Enter
check "letters: White's pawns are P" wait_for 5 ' P '
check "patzer.conf has pieces = letters" has "$(conf)" "pieces = letters"

keys "theme mine" Enter
check "a user theme in #rrggbb is drawn (nearest 256 colour)" has_colour "48;5;22"
check "the user theme stays in the file" has "$(conf)" "theme.mine = light=#ffffff"
check "one theme line in the file" test "$(conf | grep -c '^theme =')" -eq 1

keys "theme nosuch" Enter
check "an unknown theme is refused with the list" wait_for 5 "No theme 'nosuch'"
keys "bell on" Enter
check "bell on is kept" wait_for 5 'Bell on \(kept in patzer.conf\)'
check "patzer.conf has bell = on" has "$(conf)" "bell = on"

keys "quit" Enter
sleep 0.5
tmux_stop
# A second start reads the choices back.
tmux_start 100 30 "bash $tmp/run.sh"
tm set -g monitor-bell on
tm set -g bell-action any
check "the next start keeps the letters" wait_for 10 ' P '
check "and the user theme" has_colour "48;5;22"
keys "e4" Enter
check "the engine replies again" wait_for 20 '1\. e4 [a-hNBRQKO]'
check "the bell rang on the engine's move" test "$(bell_flag)" = 1
keys "quit" Enter
sleep 0.5
tmux_stop

# plain_look LOOK: without colour (mono) and in ASCII the same commands
# work and are kept, and the board stays readable: in monochrome White is
# outline and Black solid whatever the set (the shapes tell the sides
# apart), in ASCII the pieces are letters; the messages say so.
plain_look() {
    local look=$1
    echo "# $look" >"$tmp/config/patzer/patzer.conf"
    write_tui_script "$tmp/plain.sh" "$look" --no-book --time none --level 1
    tmux_start 80 24 "bash $tmp/plain.sh"
    check "$look: the board appears" wait_for 10 '^>'
    if [ "$look" = mono ]; then
        check "$look: White outline" wait_for 2 '♙'
        check "$look: Black solid" wait_for 2 '♟'
    else
        check "$look: letters" wait_for 2 ' P .* p |  p '
    fi
    keys "theme" Enter
    check "$look: theme alone lists the themes" wait_for 5 'Themes: classic\* green blue contrast paper'
    keys "theme contrast" Enter
    if [ "$look" = mono ]; then
        check "$look: theme contrast is kept, saying there are no colours" \
            wait_for 5 'Theme contrast \(kept in patzer.conf\); no colours on this screen'
    else
        check "$look: theme contrast is kept" wait_for 5 'Theme contrast \(kept in patzer.conf\) '
        check "$look: and drawn in colour" has_colour "48;5;"
    fi
    check "$look: patzer.conf has theme = contrast" has "$(conf)" "theme = contrast"
    keys "pieces outline" Enter
    if [ "$look" = mono ]; then
        check "$look: pieces outline is kept, saying how sides differ" \
            wait_for 5 'Pieces outline \(kept in patzer.conf\); mono: White outline, Black solid'
        check "$look: White stays outline" wait_for 2 '♙'
        check "$look: Black stays solid" wait_for 2 '♟'
    else
        check "$look: pieces outline is kept, saying ASCII shows letters" \
            wait_for 5 'Pieces outline \(kept in patzer.conf\); the ASCII board shows letters'
        check "$look: still letters" wait_for 2 ' P '
        check "$look: no Unicode piece" wait_gone 5 '♙'
    fi
    keys "pieces letters" Enter
    check "$look: pieces letters is kept" wait_for 5 'Pieces letters \(kept in patzer.conf\) '
    check "$look: letters: White's pawns are P" wait_for 5 ' P '
    check "$look: Black's are p" wait_for 5 ' p '
    check "$look: no Unicode piece left" wait_gone 5 '♟'
    check "$look: patzer.conf has pieces = letters" has "$(conf)" "pieces = letters"
    keys "e4" Enter
    check "$look: a game goes on" wait_for 20 '1\. e4 [a-hNBRQKO]'
    keys "quit" Enter
    sleep 0.5
    tmux_stop
    tmux_start 80 24 "bash $tmp/plain.sh"
    check "$look: the next start keeps the letters" wait_for 10 ' P '
    check "$look: and no Unicode piece" wait_gone 5 '♙'
    keys "theme" Enter
    check "$look: and the theme" wait_for 5 'Themes: classic green blue contrast\* paper'
    keys "quit" Enter
    sleep 0.5
    tmux_stop
}

plain_look mono
plain_look ascii
finish
