#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/xboard_gui.sh: patzer against the real xboard GUI (under Xvfb), both
# sides patzer, from positions that end at once: the engine's result claims
# (mate, insufficient material, the fifty-move rule) must be the ones xboard
# accepts with -testClaims (a false claim forfeits), and xboard's own
# adjudication is off so that only patzer's claims end the games.
#
# Skips (77) unless xboard and xvfb-run are installed (Debian: apt-get
# install xboard xvfb xauth).

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
XBOARD=$(command -v xboard || echo /usr/games/xboard)
if [ ! -x "$XBOARD" ] || ! command -v xvfb-run >/dev/null 2>&1; then
    echo "skip - xboard or xvfb-run is not installed"
    exit 77
fi
make_tmp
patzer=$(cd "$(dirname "$PATZER")" && pwd)/$(basename "$PATZER")

# game NAME FEN: one game from FEN; leaves $tmp/NAME.pgn and $tmp/NAME.debug.
game() {
    echo "$2" >"$tmp/$1.fen"
    HOME=$tmp XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state \
        timeout 120 xvfb-run -a "$XBOARD" -fcp "$patzer xboard" -scp "$patzer xboard" \
        -fd "$tmp" -sd "$tmp" -mg 1 -tc 0:20 -inc 1 -lpf "$tmp/$1.fen" -sgf "$tmp/$1.pgn" \
        -testClaims true -checkMates false -materialDraws false -trivialDraws false \
        -ruleMoves 0 -repeatsToDraw 0 -popupExitMessage false -debug \
        -nameOfDebugFile "$tmp/$1.debug" >"$tmp/$1.out" 2>&1
}

# expect_end NAME RESULT CLAIM: the game ended RESULT on patzer's claim.
expect_end() {
    local claim
    claim=$(grep -E '^[0-9]+ <(first |second): (1-0|0-1|1/2-1/2) \{' "$tmp/$1.debug" 2>/dev/null |
        head -n 1 | sed 's/^[0-9]* <[a-z ]*: //')
    if [ "$claim" = "$2 {$3}" ] && grep -q "^\[Result \"$2\"\]" "$tmp/$1.pgn" 2>/dev/null; then
        pass "$1: xboard accepts '$claim'"
    else
        fail "$1: expected '$2 {$3}', patzer said '$claim'" "$(tail -n 5 "$tmp/$1.out" 2>/dev/null)"
    fi
}

game mate '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'
expect_end mate 1-0 'White mates'
game material 'k7/8/8/8/8/2r5/8/KN6 w - - 0 1'
expect_end material 1/2-1/2 'Draw by insufficient material'
game fifty '8/8/8/4k3/8/8/8/4K2R w - - 98 80'
expect_end fifty 1/2-1/2 'Draw by the fifty-move rule (claimed)'
finish
