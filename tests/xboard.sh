#!/bin/bash
# tests/xboard.sh: talks xboard (CECP protocol 2) to patzer through a
# coprocess, the way a GUI does, and checks the answers.
#
# Run by "make check" with $PATZER set, or by hand from the source tree.
# Prints "N passed, M failed" last; exits 1 on any failure, 99 on a setup error.

PROTOCOL=xboard
# shellcheck source=tests/engine_session.sh
source "${srcdir:-.}/tests/engine_session.sh"

# sync N: a ping round trip, so that everything sent before has been handled.
sync() {
    send ping "$1"
    expect "^pong $1\$" 10
}

# no_line NAME REGEX: nothing read since the last reset of SEEN matches.
no_line() {
    if grep -Eq -- "$2" <<<"$SEEN"; then fail "$1"; else pass "$1"; fi
}

MOVE_RE='^move [a-h][1-8][a-h][1-8][qrbn]?$'
MATE_FEN='6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'

# --- handshake --------------------------------------------------------------

start
send xboard
send protover 2
check_reply "protover 2: feature done=1" '^feature .*done=1' 5
features=$(grep '^feature' <<<"$SEEN" | tr '\n' ' ')
for f in ping=1 setboard=1 usermove=1 time=1 analyze=1 smp=1 'myname="patzer'; do
    if [[ $features == *"$f"* ]]; then pass "protover 2: $f"; else fail "protover 2: $f"; fi
done
if [[ $features =~ done=1[^=]*$ ]]; then pass "protover 2: done=1 comes last"; else
    fail "protover 2: done=1 comes last"; fi
send accepted ping
send ping 1
check_reply "ping 1 -> pong 1" '^pong 1$' 5

# cores N sets the search threads; a bad count is an error.
SEEN=""
send cores 2
send cores none
check_reply "cores none -> Error" '^Error \(bad argument\): cores$' 5
if [[ $SEEN == *"Error"*"cores"*"Error"* ]]; then fail "cores 2: accepted"; else
    pass "cores 2: accepted"; fi

# --- a game -----------------------------------------------------------------

send new
send force
send usermove e2e4
send usermove e7e5
send sd 4
send go
check_reply "sd 4 + go: engine moves" "$MOVE_RE" 20
# After the engine's (white's) move it is black's turn: f8c5 or similar.
SEEN=""
send usermove e2e5
check_reply "illegal move -> Illegal move: e2e5" '^Illegal move: e2e5$' 5
sync 2

SEEN=""
send new
send st 1
send post
send usermove d2d4
check_reply "st 1: engine answers a user move as black" "$MOVE_RE" 30
if grep -Eq '^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ [a-h][1-8]' <<<"$SEEN"; then
    pass "post: thinking output"
else
    fail "post: thinking output"
fi
send nopost

# A ping sent while the engine thinks is answered after its move.
SEEN=""
send force
send new
send level 40 0:10 0
send time 1000
send otim 1000
send go
send ping 3
expect '^pong 3$' 10
if grep -Eq '^move ' <<<"$SEEN" && [ "$(grep -Ec '^move |^pong 3' <<<"$SEEN")" -eq 2 ] &&
    [[ $(grep -E '^move |^pong 3' <<<"$SEEN" | head -1) == move* ]]; then
    pass "ping while thinking: pong after the move"
else
    fail "ping while thinking: pong after the move"
fi

# While the engine thinks about its move, an unknown word and a move out of
# turn are answered at once, an option waits for the move; the move comes.
SEEN=""
send force
send new
send st 2
send go
send frobnicate
send usermove e7e5
send option Hash=8
check_reply "while thinking: unknown command -> Error" '^Error \(unknown command\): frobnicate$' 5
check_reply "while thinking: a move out of turn is refused" \
    '^Illegal move \(the engine is to move\): e7e5$' 5
check_reply "while thinking: the engine still moves" "$MOVE_RE" 20
SEEN=""
sync 4
no_line "while thinking: the option is taken" '^Error'

# The engine mates when it can, and says so.
SEEN=""
send force
send setboard "$MATE_FEN"
send sd 3
send go
check_reply "setboard mate in 1: move a1a8" '^move a1a8$' 10
check_reply "setboard mate in 1: result line" '^1-0 \{White mates\}$' 5

# undo takes the mate back; a user mate is announced too.
SEEN=""
send force
send undo
send usermove a1a8
check_reply "undo + user mate: result line" '^1-0 \{White mates\}$' 5
sync 4
no_line "undo: mate move legal again" '^Illegal move'

SEEN=""
send setboard '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'
send go
check_reply "stalemate: result line" '^1/2-1/2 \{Draw by stalemate\}$' 5

# The same rules as the terminal game: a draw the engine may claim is claimed
# when it plays (not while the GUI replays moves in force mode).
SEEN=""
send new
send force
for m in g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8; do send usermove $m; done
sync 8
no_line "force mode: a threefold repetition is not claimed" '^1/2-1/2'
send go
check_reply "go on a threefold repetition: the engine claims it" \
    '^1/2-1/2 \{Draw by threefold repetition \(claimed\)\}$' 5

SEEN=""
send new
send setboard 'k7/8/8/8/8/8/8/KR6 w - - 99 80'
send usermove b1b2
check_reply "fifty moves: claimed after the user's move" \
    '^1/2-1/2 \{Draw by the fifty-move rule \(claimed\)\}$' 5

SEEN=""
send new
send force
send setboard 'k7/8/8/8/8/2r5/8/KN6 w - - 0 1'
send usermove a1a2
send usermove a8b8
sync 9
no_line "force mode: moves that leave mating material end nothing" '^(1-0|0-1|1/2|Illegal)'
send usermove b1c3
check_reply "insufficient material: result line" '^1/2-1/2 \{Draw by insufficient material\}$' 5
send usermove b8c8
check_reply "a move after the end: refused" '^Illegal move \(the game is over\): b8c8$' 5

# xboard keeps the time: a move made after the game's own clock ran out is
# still played.
SEEN=""
send new
send level 0 0:01 0
send sd 2
send usermove e2e4
check_reply "level 0 0:01 0: the engine answers" "$MOVE_RE" 10
sleep 1.2
SEEN=""
send usermove d2d4
check_reply "a move after our clock ran out: still answered" "$MOVE_RE" 10
no_line "a move after our clock ran out: no result" '^(1-0|0-1|1/2|Illegal)'

# A bad level names the argument that is wrong.
SEEN=""
send level x 5 0
check_reply "level x 5 0: the moves named" \
    "^Error \\(moves per session 'x' is not a number from 0 to 100000\\): level$" 5
send level 40 0:60 0
check_reply "level 40 0:60 0: the base time named" \
    "^Error \\(base time '0:60' is not minutes or minutes:seconds\\): level$" 5
send level 40 5
check_reply "level 40 5: the missing increment named" \
    "^Error \\(increment '' is not a number of seconds\\): level$" 5

# remove takes back two plies: e7e5 is legal again afterwards.
SEEN=""
send new
send force
send e2e4
send e7e5
send g1f3
send remove
send usermove e7e5
send undo
send undo
send usermove e2e4
sync 5
no_line "bare moves, remove and undo" '^(Illegal move|Error)'

SEEN=""
send setboard not a fen
check_reply "bad setboard -> tellusererror" '^tellusererror Illegal position' 5
send frobnicate
check_reply "unknown command -> Error" '^Error \(unknown command\): frobnicate$' 5
# A line with a control byte (a NUL too) is refused whole, never echoed raw.
printf 'fro\001b\n' >&"${ENG[1]}"
check_reply "control byte -> Error" '^Error \(control byte 0x01\): line ignored$' 5
printf 'new\000junk\n' >&"${ENG[1]}"
check_reply "NUL -> Error" '^Error \(control byte 0x00\): line ignored$' 5

# --- analysis ---------------------------------------------------------------

SEEN=""
send new
send force
send analyze
check_reply "analyze: thinking output" '^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ [a-h][1-8]' 5
send usermove e2e4
sleep 0.3
SEEN=""
check_reply "analyze: restarts after usermove (black's view)" \
    '^[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ [a-h][78][a-h][1-8]' 5
send hint
check_reply "hint: suggests a move" '^Hint: [a-h][1-8][a-h][1-8]' 5
send exit
sync 6
SEEN=""
sleep 0.3
sync 7
no_line "exit: analysis stopped, no move made" '^(move |[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ )'

send bk
check_reply "bk: a book line and a blank line" '^$' 5

# --- fischerandom -----------------------------------------------------------

if [[ $features == *'variants="normal,fischerandom"'* ]]; then
    pass "variants: fischerandom offered"; else fail "variants: fischerandom offered"; fi
SEEN=""
send new
send variant fischerandom
send sd 2
send setboard r1k1r3/pppppppp/8/8/8/8/PPPPPPPP/R1K1R3 w KQkq - 0 1
send usermove O-O-O
check_reply "fischerandom: O-O-O accepted, the engine replies" \
    '^move ([a-h][1-8][a-h][1-8]|O-O|O-O-O)$' 20
send force
SEEN=""
send usermove O-O-O
check_reply "fischerandom: a second castling is refused" '^Illegal move: O-O-O$' 5
SEEN=""
send setboard r1k1r3/pppppppp/8/8/8/8/PPPPPPPP/R1K1R3 b KQkq - 0 1
send usermove c8e8
sync 8
no_line "fischerandom: king takes rook accepted" '^Illegal move'
send variant crazyhouse
check_reply "variant: others still refused" '^Error \(unsupported variant\): crazyhouse$' 5
send new

stop_engine
if [ "$STATUS" -eq 0 ]; then pass "quit: exit status 0"; else fail "quit: exit status $STATUS"; fi

# --- plain pipes ------------------------------------------------------------

SEEN=""
out=$(printf 'xboard\nprotover 2\nquit\n' | timeout 10 "$PATZER")
if [[ $out == *done=1* ]]; then pass "first-line detection: xboard"; else
    fail "first-line detection: xboard"; fi

out=$(printf 'xboard\nnew\nanalyze\n' | timeout 10 "$PATZER" xboard)
status=$?
if [ "$status" -eq 0 ]; then pass "EOF during analysis: exit 0"; else
    fail "EOF during analysis: status $status"; fi

finish
