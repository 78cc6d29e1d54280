#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The autosave and the archive in line mode, whole sessions (issue 21): a
# finished game (resigned, lost on time, drawn by a claim) is never offered
# again and is archived once with its real ending; undo does not revive it;
# settings typed after the end do not rewrite it; failures to write are said
# (start, moves, stderr, exit status 3). Real read-only and full file systems:
# tests/autosave_mount.sh.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_patzer
make_tmp

export HOME=$tmp XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data
save=$XDG_STATE_HOME/patzer/autosave.pgn
archive=$XDG_DATA_HOME/patzer/games.pgn

# session LINE...: runs the line mode on the lines; $out, $err, $status.
session() {
    printf '%s\n' "$@" | timeout "${RUN_TIMEOUT:-60}" "$PATZER" >"$tmp/out" 2>"$tmp/err"
    status=$?
    out=$(cat "$tmp/out")
    err=$(cat "$tmp/err")
}
games() { grep -c '^\[Event ' "$archive" 2>/dev/null || echo 0; }
fresh() { rm -rf "$XDG_STATE_HOME" "$XDG_DATA_HOME"; }

# --- resign, quit, restart: no question, the game archived once ---------------
fresh
session 'play both' e4 resign quit
check "resign ends the game" has "$out" "1-0 Black resigns"
session quit
check "a resigned game is not offered after a restart" lacks "$out" "Resume it?"
check "nor called unfinished" lacks "$out" "unfinished"
session n quit
check "the archive has the game once" test "$(games)" -eq 1
check "with its result" grep -q '^\[Result "1-0"\]' "$archive"
check "and its ending" grep -q '^\[PatzerEnd "resignation black"\]' "$archive"
check "and a standard termination" grep -q '^\[Termination "normal"\]' "$archive"

# --- one wording of the question, counted right ------------------------------
fresh
session 'play both' e4 quit
session quit
check "the question is asked once" test "$(grep -c 'Resume it?' <<<"$out")" -eq 1
check "in one wording, 1 move" has "$out" "An unfinished game (1 move) was saved. Resume it? (y/n)"
session y quit
check "resumed: 1 move" has "$out" "Resumed the unfinished game (1 move)."
boards() { grep -c '^   a b c d e f g h' <<<"$out"; }
check "the board is shown once, the resumed one" test "$(boards)" -eq 1
check "with its move" has "$out" "Last move: 1. e4"
check "one quit leaves a resumed game: the autosave keeps it" lacks "$out" "are not saved"
check "and the process ends" test "$status" -eq 0
session y e5 quit
check "a resumed game is played on" has "$out" "Last move: 1... e5"
check "and quits at once too" lacks "$out" "are not saved"
session n quit
check "declined: the new game's board, once" test "$(boards)" -eq 1
check "from the start" lacks "$out" "Last move"

# --- a flag falls: undo is refused, the game is archived once ----------------
fresh
{
    printf '%s\n' 'play both' 'time 0:01+0' e4
    wait_until 5 file_has "$tmp/flag.out" 'wins on time' # Black's second has run out
    printf '%s\n' undo quit
} | timeout 60 "$PATZER" >"$tmp/flag.out" 2>&1
out=$(cat "$tmp/flag.out")
check "the flag falls" has "$out" "1-0 White wins on time"
check "undo after the flag fall is refused" \
    has "$out" "Error: The game is over (1-0 White wins on time): undo cannot change it; analyze studies its positions, new starts a game."
check "the clock does not run again" test "$(grep -c 'wins on time' <<<"$out")" -le 3
session quit
check "the lost game is not offered" lacks "$out" "Resume it?"
check "it is archived once" test "$(games)" -eq 1
check "as a time forfeit" grep -q '^\[Termination "time forfeit"\]' "$archive"
check "lost by Black" grep -q '^\[PatzerEnd "time-forfeit black"\]' "$archive"

# --- a claimed draw, then a restart ------------------------------------------
fresh
session 'play both' Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 'claim Ng8' quit
check "the draw is claimed" has "$out" "1/2-1/2 Draw by threefold repetition (claimed)"
session quit
check "the drawn game is not offered" lacks "$out" "Resume it?"
check "it is archived once" test "$(games)" -eq 1
check "as a claimed threefold repetition" grep -q '^\[PatzerEnd "threefold-repetition black"\]' "$archive"

# --- settings after the end are the next game's -------------------------------
fresh
session 'play both' 'level 20' e4 e5 resign 'level 1' 'time 1+0' quit
check "level after the end is for the next game" \
    grep -qE '^Level 1 \(about [0-9]+ Elo\) for the next game \(new starts it\)$' <<<"$out"
check "the archive says the level played" grep -q '^\[PatzerLevel "20"\]' "$archive"
check "and the time control played" grep -q '^\[PatzerTime "5+3"\]' "$archive"
check "so does the autosave" grep -q '^\[PatzerLevel "20"\]' "$save"

# --- an unwritable data directory (a file in its place: also as root) --------
fresh
touch "$tmp/nodata"
XDG_DATA_HOME=$tmp/nodata session 'play both' e4 resign quit
check "said at start" has "$out" "Error: The data directory $tmp/nodata/patzer is not writable"
check "said when the game ends" has "$out" "Error: The archive failed: "
check "on stderr" has "$err" "patzer: The archive failed: "
check "the exit status says the game is not saved ($status)" test "$status" -eq 3
check "the autosave keeps the game for the archive" grep -q '^\[PatzerArchived "no"\]' "$save"
session quit
check "the next start archives it" has "$out" "The last game (1-0 Black resigns) is in the archive now."
check "once" test "$(games)" -eq 1
check "and exits 0 ($status)" test "$status" -eq 0
session quit
check "and only once" test "$(games)" -eq 1

# --- an unwritable state directory -------------------------------------------
fresh
touch "$tmp/nostate"
XDG_STATE_HOME=$tmp/nostate session 'play both' e4 e5 quit
check "said at start" has "$out" "Error: The state directory $tmp/nostate/patzer is not writable"
check "said after the move" has "$out" "Error: Autosave failed: "
check "once per cause" test "$(grep -c 'Autosave failed' <<<"$out")" -eq 1
check "on stderr, with the end's words" has "$err" "patzer: the game could not be saved: Autosave failed"
check "non-zero exit ($status)" test "$status" -eq 3

finish
