#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The line mode: the game's command language over a pipe, as a script would
# drive it. Counted with tests/lib.sh.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
export HOME=$tmp XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data

start_fen='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'

# A short game against the weakest level: the engine replies to each move
# before the next line is read.
out=$(printf '%s\n' 'new white level 1 time 5+3' e4 fen undo fen 'Nf9' 'Ke3' quit |
      timeout 60 "$PATZER" 2>&1)
status=$?
check "exits 0 on quit (status $status)" test "$status" -eq 0
check "prints the board" has "$out" "   a b c d e f g h"
check "prints the start position's ranks" has "$out" "8  r n b q k b n r"
check "plays the human move" has "$out" "Last move: 1. e4"
check "the engine replies" grep -qE '^Last move: 1\.\.\. ' <<<"$out"
check "fen after the reply has White to move" grep -qE '^[^ ]+ w KQkq - [0-9]+ 2$' <<<"$out"
check "undo goes back to the start" test "$(grep -c "^$start_fen\$" <<<"$out")" -ge 1
check "an unparseable move is an error" has "$out" "Error: 'Nf9' is not a move"
check "an illegal move is an error" grep -q "^Error: .*Ke3" <<<"$out"

# Commands and their errors.
out=$(printf '%s\n' 'play both' 'setboard 8/8/8/8/8/8/8/8 w - - 0 1' 'help undo' 'level 99' \
      'time 5+x' 'setboard 7k/5Q2/6K1/8/8/8/8/8 w - - 0 1' 'Qg7' quit |
      timeout 30 "$PATZER" 2>&1)
check "setboard rejects a bad FEN with the reason" has "$out" "Bad FEN: board: no white king"
check "help for one command" grep -qi "undo" <<<"$out"
check "level out of range" has "$out" "level must be a whole number from 1 to 20"
check "bad time control" grep -q "Error: .*5+x" <<<"$out"
check "checkmate ends the game" has "$out" "1-0 White mates"

# Autosave: every move is saved atomically; the file is a PGN with the moves.
out=$(printf '%s\n' 'play both' e4 e5 Nf3 quit | timeout 30 "$PATZER" 2>&1)
save=$XDG_STATE_HOME/patzer/autosave.pgn
check "autosave written" test -s "$save"
check "autosave has the moves with clocks" grep -qE "1\. e4 \{\[%clk [0-9:.]+\]\} 1\.\.\. e5 .*2\. Nf3" "$save"
check "autosave is an unfinished game" grep -q '\[Result "\*"\]' "$save"
out=$(printf '%s\n' fen quit | timeout 30 "$PATZER" --resume 2>&1)
check "--resume restores the unfinished game" \
    has "$out" "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"

# Nothing lost: killed with SIGKILL in the middle of a game, the game comes
# back with --resume.
rm -f "$save"
mkfifo "$tmp/in"
"$PATZER" <"$tmp/in" >"$tmp/killed.out" 2>&1 &
pid=$!
exec 3>"$tmp/in"
printf '%s\n' 'play both' d4 d5 c4 >&3
# Up to 30 s: a sanitizer build beside other tests may take seconds to start.
wait_until 30 file_has "$save" c4
kill -9 "$pid"
wait "$pid" 2>/dev/null
exec 3>&-
check "the autosave was written before the kill" grep -q '2\. c4' "$save"
out=$(printf '%s\n' fen quit | timeout 30 "$PATZER" --resume 2>&1)
check "--resume after kill -9 restores the game" \
    has "$out" "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2"
ls "$XDG_STATE_HOME/patzer" | grep -q 'tmp' && leftover=1 || leftover=0
check "no temporary file is left behind" test "$leftover" -eq 0

# A binary file or an overlong line gets a clear message.
out=$(printf '%s\n' "load $PATZER" quit | timeout 30 "$PATZER" 2>&1)
check "a binary file given to load is refused" has "$out" "is a binary file, not a PGN text file"
# A directory is no file to read: said so, not placed at a "line 0".
out=$(printf '%s\n' "load $tmp" quit | timeout 30 "$PATZER" 2>&1)
check "a directory given to load is said to be one" has "$out" "$tmp: Is a directory"
check "a directory given to load is not placed at line 0" lacks "$out" ":0:"
out=$(printf '%s\n' quit | timeout 30 "$PATZER" -p "$tmp" 2>&1)
check "a directory given to -p is said to be one" has "$out" "$tmp: Is a directory"
check "a directory given to -p is not placed at line 0" lacks "$out" ":0:"
long=$(head -c 2000 /dev/zero | tr '\0' 'p')
out=$(printf '%s\n' "setboard $long" quit | timeout 30 "$PATZER" 2>&1)
check "an overlong setboard is refused" has "$out" "too long"
# A hint is waited for, as the engine's reply is: it was dropped unsaid by
# the next line, or by the end of input.
out=$(printf '%s\n' 'play both' hint | timeout 60 "$PATZER" --new 2>&1)
check "hint at the end of input is given" has "$out" "Hint: move your "
out=$(printf '%s\n' 'play both' hint hint fen | timeout 60 "$PATZER" --new 2>&1)
check "hint before the next line is given" has "$out" "Hint: move your "
check "and hint again names the move" grep -qE '^Hint: [NBRQK]?[a-h]?[1-8]?x?[a-h][1-8]' <<<"$out"

# train FILE passed over a game it could not read without a word ("Searched
# 0 games for puzzles"): how many, and where the first one fails, are said.
printf '[Event "z"]\n[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n' >"$tmp/zh.pgn"
out=$(printf '%s\n' "train $tmp/zh.pgn" | timeout 60 "$PATZER" --new 2>&1)
check "train names the game it could not read" \
    has "$out" "1 game could not be read (the first: $tmp/zh.pgn:2:1: game 1: a game of the variant 'Crazyhouse'"

# Changes to a file's game dropped by the end of input are named (quit warns
# about them once, but a script's input cannot be asked again).
printf '[Event "y"]\n\n1. d4 d5 *\n' >"$tmp/edited.pgn"
out=$(printf '%s\n' "load $tmp/edited.pgn" 'comment my note' | timeout 30 "$PATZER" --new 2>&1)
check "the end of input names the changes not saved" \
    has "$out" "the input ended with changes to game 1 of $tmp/edited.pgn not saved"

# comment_then_signal SIGNAL STATUS NOTE: the line mode over a pipe loads
# $tmp/edited.pgn, comments its game with NOTE and gets SIGNAL; it must end by the
# signal (STATUS), keep the game in recovered.pgn and leave the file as it was.
# A background job of a script starts with SIGINT ignored (and so does everything
# under a runner that ignored it): env --default-signal gives patzer the default.
# has_exited PID: the process is gone or a zombie waiting to be reaped.
has_exited() {
    local state
    state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)
    [ -z "$state" ] || [ "$state" = Z ]
}
comment_then_signal() {
    local sig=$1 want=$2 note=$3 pid status
    rm -f "$tmp/in"
    mkfifo "$tmp/in"
    env --default-signal=INT "$PATZER" --new <"$tmp/in" >"$tmp/sig.out" 2>"$tmp/sig.err" &
    pid=$!
    exec 9>"$tmp/in"
    printf '%s\n' "load $tmp/edited.pgn" "comment $note" >&9
    check "the comment is made" wait_until 10 file_has "$tmp/sig.out" "$note"
    kill "-$sig" "$pid"
    # A signal that does not end it must fail the check, not hang the suite.
    wait_until 20 has_exited "$pid" || kill -KILL "$pid"
    wait "$pid"
    status=$?
    exec 9>&-
    check "SIG$sig ends the line mode over a pipe by the signal (status $status)" \
        test "$status" -eq "$want"
    check "the game is kept in recovered.pgn" \
        grep -q "$note" "$XDG_STATE_HOME/patzer/recovered.pgn"
    check "the file is untouched" test "$(grep -c "$note" "$tmp/edited.pgn")" -eq 0
}

# SIGTERM (or SIGHUP, a terminal closed) asks nothing: those changes go to
# recovered.pgn beside the autosave, the file untouched, and stderr says where.
comment_then_signal TERM 143 'kept through a kill'
check "stderr says where" grep -q "kept in $XDG_STATE_HOME/patzer/recovered.pgn" "$tmp/sig.err"
out=$(printf '%s\n' quit | timeout 30 "$PATZER" --new 2>&1)
check "the next start says so" has "$out" "Changes not saved when patzer was closed (1 game) are in"
# Said once for each state of the file: the start after is quiet; a game added to
# it, or a new file after the old one was deleted, is said again.
out=$(printf '%s\n' quit | timeout 30 "$PATZER" --new 2>&1)
check "the start after does not say it again" lacks "$out" "Changes not saved when patzer"
cp "$XDG_STATE_HOME/patzer/recovered.pgn" "$tmp/one-game.pgn"
cat "$tmp/one-game.pgn" >>"$XDG_STATE_HOME/patzer/recovered.pgn"
out=$(printf '%s\n' quit | timeout 30 "$PATZER" --new 2>&1)
check "a file that changed is said again" \
    has "$out" "Changes not saved when patzer was closed (2 games) are in"
rm "$XDG_STATE_HOME/patzer/recovered.pgn"
out=$(printf '%s\n' quit | timeout 30 "$PATZER" --new 2>&1)
check "no file, nothing said" lacks "$out" "Changes not saved when patzer"
check "and its mark goes with it" test ! -e "$XDG_STATE_HOME/patzer/recovered.seen"

# SIGINT over a pipe is the shell ending the whole pipeline (Ctrl-C): nobody
# reads the line mode's questions, so it is SIGTERM's case. It died at once
# and lost the changes.
comment_then_signal INT 130 'kept through a Ctrl-C'
rm -f "$XDG_STATE_HOME/patzer/recovered.pgn"

# A line with a NUL byte is refused whole, with a message: not cut at the NUL
# and run as what comes before it (here a move), nor dropped in silence. Other
# control bytes likewise (they were echoed raw to the terminal).
out=$(printf 'play both\ne4\000junk\n\001\002\n\033[A\nfen\nquit\n' |
    timeout 30 "$PATZER" --new 2>&1)
check "a line with a NUL byte is said to be ignored" \
    has "$out" "a line with the control byte 0x00 is ignored."
check "a line with a NUL byte is not run" has "$out" "$start_fen"
check "a line of control bytes is said to be ignored" \
    has "$out" "a line with the control byte 0x01 is ignored."
check "an escape sequence is said to be ignored" \
    has "$out" "a line with the control byte 0x1B is ignored."
check "no control byte is echoed" lacks "$out" $'\033'
# A line longer than the input buffer (64 KiB) is one line: refused once, and
# its tail is never read as a line of its own (here a move).
long=$(head -c 65528 /dev/zero | tr '\0' 'x') # with "comment ", the buffer's size
out=$(printf '%s\n' 'play both' "comment ${long}e4" fen quit | timeout 30 "$PATZER" --new 2>&1)
check "a line over 64 KiB is refused once" test "$(grep -c 'too long' <<<"$out")" -eq 1
check "the tail of a line over 64 KiB is not played" has "$out" "$start_fen"

# End of input without quit: the session ends cleanly.
out=$(printf 'play both\ne4\n' | timeout 30 "$PATZER" 2>&1)
check "end of input ends the session" test $? -eq 0

# Input is read as it arrives: a whole script on a pipe, analysis included.
out=$(printf 'analyze\nstop\nquit\n' | timeout 20 "$PATZER" 2>&1)
check "analyze, stop, quit from a pipe ends (status $?)" has "$out" "Analysis stopped."
out=$(printf 'analyze\n' | timeout 20 "$PATZER" 2>&1)
check "end of input stops an analysis and ends (status $?)" has "$out" "Analysis stopped."
out=$(printf '%s\n' 'lines 2' 'analyze depth 6' fen quit | timeout 30 "$PATZER" 2>&1)
check "analyze prints one line per depth" grep -qE '^depth 5 line 1 score [-+][0-9.]+ nodes [0-9.]+[kM]?  1\. ' <<<"$out"
check "MultiPV lines are numbered" grep -qE '^depth 6 line 2 score ' <<<"$out"
check "the final lines close the analysis" grep -qE '^final depth 6 line 1 ' <<<"$out"
check "a limited analysis ends by itself, then the script goes on" \
    grep -qE "^$start_fen\$" <<<"$out"
out=$(printf '%s\n' 'analyze 1s' | timeout 20 "$PATZER" 2>&1)
check "analyze 1s ends by itself" has "$out" "Analysis done."

# The unfinished game is never wiped by a start that does not resume it.
rm -rf "$XDG_STATE_HOME" "$XDG_DATA_HOME"
printf '%s\n' 'play both' d4 quit | timeout 30 "$PATZER" >/dev/null 2>&1
out=$(printf '%s\n' quit | timeout 30 "$PATZER" 2>&1)
check "a plain start asks to resume the unfinished game" has "$out" "Resume it? (y/n)"
check "starting and quitting keeps the unfinished game" grep -q '1\. d4' "$save"
out=$(printf '%s\n' y fen quit | timeout 30 "$PATZER" 2>&1)
check "y resumes it" has "$out" "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
out=$(printf '%s\n' n quit | timeout 30 "$PATZER" 2>&1)
check "n starts a new game and archives the old one" grep -q '1\. d4' "$XDG_DATA_HOME/patzer/games.pgn"
out=$(printf '%s\n' quit | timeout 30 "$PATZER" 2>&1)
check "the archived game is not offered again" lacks "$out" "Resume it?"
printf '%s\n' 'play both' e4 quit | timeout 30 "$PATZER" >/dev/null 2>&1
out=$(printf '%s\n' fen quit | timeout 30 "$PATZER" --new 2>&1)
check "--new answers in advance" has "$out" "$start_fen"
check "--new archived the unfinished game" grep -qE '^1\. e4 .*\*$' "$XDG_DATA_HOME/patzer/games.pgn"

# The whole mix: play, load, game N, setboard, edit, analyze, review, game 0,
# quit, restart: the live game is never lost, no mode's state leaks.
rm -rf "$XDG_STATE_HOME"
cat >"$tmp/two.pgn" <<'PGN'
[Event "Club"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "Club"]
[White "Gamma"]
[Black "Delta"]
[Result "*"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. g3 *
PGN
out=$(printf '%s\n' 'play both' e4 c5 "load $tmp/two.pgn" 'game 2' prev 'game 0' fen \
      'game 1' 'setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1' Rh8 Kd7 undo edit 'side black' cancel \
      'analyze depth 4' review stop back fen quit | timeout 60 "$PATZER" 2>&1)
check "game 0 returns to the live game" has "$out" "Back to your game"
check "the live game is intact after browsing" \
    has "$out" "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
check "setboard in browse starts a clean game" has "$out" "Position set: 4k3/8/8/8/8/8/8/4K2R w K - 0 1"
check "the new game takes moves" has "$out" "Last move: 1. Rh8+"
check "no out-of-memory on the new game" lacks "$out" "out of memory"
check "undo says what it took back" has "$out" "Took back 1... Kd7"
check "the editor acknowledges" has "$out" "Black to move (editor)"
check "analysis in line mode" grep -qE '^depth 4 score ' <<<"$out"
check "stop ends the review" grep -qE '^(Review stopped|Error: Review stopped before)' <<<"$out"
check "the set-up game is the live game at the end" has "$out" "4k2R/8/8/8/8/8/8/4K3 b - - 1 1"
out=$(printf '%s\n' y fen quit | timeout 30 "$PATZER" 2>&1)
check "after a restart the live game is offered" has "$out" "Resume it?"
check "and resumed" has "$out" "4k2R/8/8/8/8/8/8/4K3 b - - 1 1"

# A browsed game that ended by resignation, a flag or an agreed draw showed
# no end at its last move (a mate did): the record's ending is said there,
# read as load reads it, and not at the end of a variation.
printf '%s\n' '[Event "a"]' '[Result "1-0"]' '[Termination "time forfeit"]' '' '1. e4 e5 2. Nf3 1-0' '' \
    '[Event "b"]' '[Result "0-1"]' '[PatzerEnd "resignation white"]' '' '1. d4 d5 0-1' '' \
    '[Event "c"]' '[Result "1/2-1/2"]' '' '1. e4 e5 (1... c5 2. Nf3) 2. Nf3 1/2-1/2' >"$tmp/ended.pgn"
out=$(printf '%s\n' "load $tmp/ended.pgn" 'game 1' last 'game 2' last 'game 3' first next 'var 1' next \
    first last | timeout 30 "$PATZER" --new 2>&1)
check "a flag's end is said at the last move" has "$out" "2. Nf3  1-0  White wins on time  [browse: game 1]"
check "a resignation's end is said" has "$out" "1... d5  0-1  White resigns  [browse: game 2]"
check "an agreed draw's end is said" has "$out" "2. Nf3  1/2-1/2  Draw agreed  [browse: game 3]"
check "a variation's end says none" grep -qxF "2. Nf3  [browse: game 3]" <<<"$out"

# Comments and NAGs: a browsed game's comments are printed when its moves
# are reached; comment and nag annotate it and the live game; save keeps them.
pgn_in=$src/tests/data/pgn/annotated.pgn
out=$(printf '%s\n' "load $pgn_in" 'game 1' first next next next next next next \
      'goto 2' 'var 1' 'comment Black could try this' 'nag ?!' "save $tmp/browsed.pgn" back 'new' 'play both' \
      'e4!?' 'e5 ?' 'comment Too open' 'nag' "save $tmp/live.pgn" quit |
      timeout 30 "$PATZER" --new 2>&1)
check "the opening comment is printed at the start" \
    has "$out" "Comment before: A lead comment before the first move."
check "a comment is printed on reaching its move" grep -q "^Comment: a rest-of-line comment" \
    <<<"$out"
check "comment acknowledges" has "$out" "Comment on 2... d6 kept."
check "nag acknowledges" has "$out" "2... d6 marked ?!."
joined() { tr '\n' ' ' <"$1"; } # the PGN writer wraps lines
check "the browsed game is saved with them" \
    grep -q "2\.\.\. d6 \$6 {Black could try this}" <(joined "$tmp/browsed.pgn")
check "the comment shows on the move once made" has "$out" "Comment: Too open"
check "nag alone clears the marks" has "$out" "1... e5: marks cleared."
check "a typed NAG and a comment in the live game are saved" \
    grep -qE '1\. e4 \$5 .*e5 \{.*Too open\}' <(joined "$tmp/live.pgn")
out=$(printf '%s\n' 'comment' 'nag $300' quit | timeout 30 "$PATZER" --resume 2>&1)
check "the resumed game keeps its comment until removed" has "$out" "Comment on 1... e5 removed."
check "a bad NAG is refused" has "$out" "Error: nag takes one of !, ?, !!, ??, !?, ?! or \$N"

# play none is paced; pace 0 lets it run; end of input stops it.
out=$(printf '%s\n' 'level 1' 'time none' 'play none' | timeout 30 "$PATZER" 2>&1)
check "play none from a pipe ends at end of input" test $? -eq 0

# help prints every command in full (no pager on a pipe); messages prints the
# last status messages, oldest first and numbered, errors marked.
# (A state directory of its own: no unfinished game to archive, no message.)
out=$(printf '%s\n' help 'help messages' foo 'level 99' 'play both' messages quit |
      XDG_STATE_HOME=$tmp/messages timeout 30 "$PATZER" --new 2>&1)
check "help lists the first command" grep -q '^new \[white|black\]' <<<"$out"
check "help lists the last commands" grep -q '^help \[COMMAND\] ' <<<"$out"
check "help lists messages" grep -qE '^messages +show the last 100 status messages' <<<"$out"
check "help ends with the note on moves" has "$out" "Anything else is taken as a move"
check "help messages explains it" has "$out" "Shows the last 100 messages of the status line"
log=$(grep -E '^ +[0-9]+  ' <<<"$out" | sed -E 's/^ +[0-9]+  //')
expected="Error: 'foo' is not a move or command; type help for the list.
Error: level must be a whole number from 1 to 20, not '99'
You play both sides."
check "messages lists the status messages in order" test "$log" = "$expected"
check "messages numbers them" grep -qE '^   3  You play both sides' <<<"$out"
out=$(printf '%s\n' messages quit | XDG_STATE_HOME=$tmp/messages timeout 30 "$PATZER" --new 2>&1)
check "messages without any" has "$out" "No messages yet."

# patzer.conf problems reach the line mode.
mkdir -p "$XDG_CONFIG_HOME/patzer"
echo 'colour = blue' >"$XDG_CONFIG_HOME/patzer/patzer.conf"
out=$(printf '%s\n' quit | timeout 30 "$PATZER" --new 2>/dev/null)
check "configuration errors are shown in line mode" grep -q "^Error: .*patzer.conf:1: .*colour" <<<"$out"
rm "$XDG_CONFIG_HOME/patzer/patzer.conf"

# Issue 11, item 9: time controls with units, a placement-only FEN, the
# nearest command to a typo.
out=$(printf '%s\n' 'play both' 'time 1m' 'time 90s' 'time 1h+30s' 'time 1h30' 'time 5+3x' \
      'setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR' 'hlep' 'foo' quit |
      timeout 30 "$PATZER" --new 2>&1)
check "time 1m" has "$out" "Time control 1."
check "time 90s" has "$out" "Time control 1:30."
check "time 1h+30s" has "$out" "Time control 60+30."
check "a number without its unit is named" \
    has "$out" "Error: time control '1h30': base time '1h30': 30 has no unit (h, m or s)"
check "an unknown unit is named" has "$out" "increment '3x': unknown unit 'x' (h, m or s)"
check "a placement-only FEN is completed, saying so" \
    has "$out" "Position set (placement only: White to move, castling KQkq inferred): $start_fen"
check "a typo gets the nearest command" \
    has "$out" "Error: 'hlep' is not a move or command; did you mean help?"
check "a word near no command points to help" \
    has "$out" "Error: 'foo' is not a move or command; type help for the list."
out=$(printf '%s\n' fen quit | timeout 30 "$PATZER" --new --time 90s+2s --fen 'r3k2r/8/8/8/8/8/8/4K3' 2>&1)
check "--fen takes a placement alone" has "$out" "r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1"
check "--fen says what it inferred" has "$out" "placement only: White to move, castling kq inferred"
out=$(printf '%s\n' quit | timeout 30 "$PATZER" --new --time 1x 2>&1)
check "--time names the bad unit" has "$out" "unknown unit 'x'"

# Item 8: the status line offers the claim as soon as it is possible.
out=$(printf '%s\n' 'play both' Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 claim quit |
      timeout 30 "$PATZER" --new 2>&1)
check "threefold repetition: claim to draw" \
    has "$out" "White to move - threefold repetition: claim to draw"
check "and the claim ends the game" has "$out" "Draw by threefold repetition (claimed)"

# The game report after a finished game, printed in line mode; the archive
# keeps the annotated game in the place of the plain one.
archive=$XDG_DATA_HOME/patzer/games.pgn
out=$(printf '%s\n' 'play both' e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7 review quit |
      timeout 120 "$PATZER" --new 2>&1)
check "the end of the game offers the report" has "$out" "White mates - review: a report of the game"
check "the report is printed" has "$out" "Game report"
check "with each side's accuracy" grep -qE '^Black: accuracy [0-9]+% over 3 moves' <<<"$out"
check "the graph of winning chances" has "$out" "  50% +-------"
out1=$(printf '%s\n' 'play both' e4 e5 review quit | timeout 120 "$PATZER" --new 2>&1)
check "one move is one move, not 1 moves" grep -qE '^White: accuracy [0-9]+% over 1 move;' <<<"$out1"
check "the blunder is a deciding moment" grep -qE '^[1-3]\. 3\.\.\. Nf6\?\? .*Better was ' <<<"$out"
check "the archive has the game once" test "$(grep -c 'Wayward Queen Attack' "$archive")" -eq 1
check "and it is the annotated one" grep -q 'Nf6 \$4' "$archive"

# The review judges with the hand-crafted evaluation whatever UseNNUE says: its winning
# chances are fitted to those centipawns. The same game reviewed with the net on and off
# gives the same report (node limits: the review is reproducible).
report_with() {
    printf '%s\n' "engine option UseNNUE $1" 'play both' e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7 review quit |
        timeout 120 "$PATZER" --new 2>&1
}
out_net=$(report_with true)
report_net=$(sed -n '/^Game report/,$p' <<<"$out_net")
report_hce=$(report_with false | sed -n '/^Game report/,$p')
check "UseNNUE on: the game's engine has the built-in net" has "$out_net" "NNUE: the built-in net"
check "a report with UseNNUE on" has "$report_net" "Nf6??"
check "the review ignores UseNNUE" test "$report_net" = "$report_hce"

# why: the explanation of the last move, each sentence with its line.
out=$(printf '%s\n' why 'play both' e4 e5 Qh5 Nc6 Bc4 why Nf6 why quit |
      timeout 60 "$PATZER" --new 2>&1)
check "why before any move says so" has "$out" "No move to explain yet"
check "why names a threat of mate" has "$out" "3. Bc4 threatens mate in 1: 4. Qxf7#."
check "why names what a mistake allows" has "$out" "3... Nf6 allows mate in 1: 4. Qxf7#."
check "and the better move with its line" grep -qE '^[A-Za-z0-9+#=-]+ was better \(.* for Black instead of mated in 1\): 3\.\.\. ' <<<"$out"

# Chess960: new 960 N, castling typed both ways (O-O, and the king taking its
# rook), the PGN saved with its Variant and FEN tags, checked and loaded again.
out=$(printf '%s\n' 'new 960 3 time none' 'play both' 'O-O' Nb6 a3 Ne6 h3 f8e8 fen \
      "save $tmp/960.pgn" 'new 960 1000' 'new 960' quit quit | timeout 30 "$PATZER" --new 2>&1)
final='bqkr2rb/pppppppp/1n2n3/8/8/P6P/1PPPPPP1/BQNNRRKB w - - 1 4'
check "960: new 960 3 says its number" has "$out" "New game: Chess960 #3."
check "960: the status line shows it" has "$out" "Chess960 #3  [play]"
check "960: the start position" has "$out" "1  B Q N N R K R B"
check "960: O-O typed castles" has "$out" "Last move: 1. O-O"
check "960: the king onto its rook castles" has "$out" "Last move: 3... O-O-O"
check "960: the position after both castlings" has "$out" "$final"
check "960: a number out of range is refused" \
    has "$out" "new 960: the start position is a number from 0 to 959"
check "960: new 960 draws a start position" grep -qE '^New game: Chess960 #[0-9]+\.' <<<"$out"
check "960: the PGN has its Variant tag" grep -q '^\[Variant "Chess960"\]' "$tmp/960.pgn"
check "960: and its start position" \
    grep -q '^\[FEN "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1"\]' "$tmp/960.pgn"
check "960: castling written O-O and O-O-O" grep -q '1\. O-O Nb6 2\. a3 Ne6 3\. h3 O-O-O' "$tmp/960.pgn"
out=$("$PATZER" pgn "$tmp/960.pgn" 2>&1)
check "960: patzer pgn replays it" has "$out" "$final"
out=$(printf '%s\n' "load $tmp/960.pgn" last fen quit quit | timeout 30 "$PATZER" --new 2>&1)
check "960: loaded again, the same final position" has "$out" "$final"

finish
