#!/bin/bash
# tests/uci.sh: talks UCI to patzer through a coprocess, the way a GUI does,
# and checks the answers. How quickly they come is measured by
# bench/protocol.sh, not asserted here (a loaded machine is slow).
#
# Run by "make check" with $PATZER set, or by hand from the source tree.
# Prints "N passed, M failed" last; exits 1 on any failure, 99 on a setup error.

PROTOCOL=uci
# shellcheck source=tests/engine_session.sh
source "${srcdir:-.}/tests/engine_session.sh"

BESTMOVE_RE='^bestmove ([a-h][1-8][a-h][1-8][qrbn]?|0000)( ponder [a-h][1-8][a-h][1-8][qrbn]?)?$'

# --- handshake and options --------------------------------------------------

start
send uci
check_reply "uci: id name" '^id name patzer '
check_reply "uci: id author" '^id author '
check_reply "uci: Hash option" '^option name Hash type spin default [0-9]+ min [0-9]+ max [0-9]+$'
check_reply "uci: uciok" '^uciok$'
if [[ $SEEN =~ option\ name\ Ponder\ type\ check ]]; then pass "uci: check option"; else
    fail "uci: check option"; fi
send isready
check_reply "isready: readyok" '^readyok$'
send setoption name Hash value 32
send setoption name Clear Hash
send isready
expect '^readyok$' 10
if [[ $SEEN =~ info\ string ]]; then fail "setoption: valid options accepted"; else
    pass "setoption: valid options accepted"; fi
send setoption name No Such Option value 3
check_reply "setoption: unknown name -> info string" '^info string .*No Such Option'
send setoption name Hash value lots
check_reply "setoption: a word for a number is named" \
    "^info string setoption: option value 'lots' is not a number \(Hash takes 1\.\.[0-9]+\)$"
send setoption name Hash
check_reply "setoption: a spin without value says so" \
    '^info string setoption: option Hash needs a value from 1 to [0-9]+$'
send setoption name Ponder
check_reply "setoption: a check without value says so" \
    '^info string setoption: option Ponder needs a value, true or false$'
send this is not a command
check_reply "garbage line -> info string" '^info string '
# Control bytes (a NUL too) are ignored as blanks, said once per line and
# never echoed raw; the rest of the line is still read.
printf '\001\002\033[A\n' >&"${ENG[1]}"
check_reply "control bytes -> info string" '^info string ignored 3 control bytes \(the first 0x01\)$'
printf '\000isready\n' >&"${ENG[1]}"
check_reply "a NUL before isready: said" '^info string ignored 1 control byte \(the first 0x00\)$'
check_reply "a NUL before isready: readyok" '^readyok$'
send position fen not/a/fen w - - 0 1
check_reply "bad FEN -> info string" '^info string .*FEN'
send position startpos moves e2e4 e7e5 e1e3
check_reply "illegal move in position -> info string" '^info string .*e1e3'

# --- searches ---------------------------------------------------------------

send ucinewgame
send position startpos moves e2e4 e7e5
send go depth 5
check_reply "go depth 5: info line with pv" \
    '^info depth [0-9]+ .*score (cp|mate) -?[0-9]+.* pv [a-h][1-8]'
check_reply "go depth 5: bestmove" '^bestmove '
if [[ $MATCH =~ $BESTMOVE_RE ]]; then
    pass "go depth 5: bestmove well formed"
    best=${BASH_REMATCH[1]}
else
    fail "go depth 5: bestmove well formed"
    best=0000
fi
if [[ $SEEN =~ info\ depth\ 5\  ]]; then pass "go depth 5: reached depth 5"; else
    fail "go depth 5: reached depth 5"; fi
# The engine's own position command is strict, so it checks the move is legal.
SEEN=""
send position startpos moves e2e4 e7e5 "$best"
send isready
expect '^readyok$' 10
if [[ $SEEN =~ info\ string ]] || [ "$best" = 0000 ]; then
    fail "go depth 5: bestmove $best is legal"
else
    pass "go depth 5: bestmove $best is legal"
fi

send position startpos
send go movetime 200
check_reply "go movetime 200: bestmove by itself" "$BESTMOVE_RE" 30

send go wtime 1000 btime 1000 winc 10 binc 10
check_reply "go wtime 1000: bestmove by itself" "$BESTMOVE_RE" 30

send go infinite
sleep 0.5
send isready
# A liveness check, not a timing one: the deadline only bounds a hang.
check_reply "isready while searching: readyok" '^readyok$' 15
SEEN=""
if expect '^bestmove ' 0.3; then
    fail "go infinite: no bestmove before stop"
else
    pass "go infinite: no bestmove before stop"
fi
send stop
check_reply "go infinite + stop: bestmove" "$BESTMOVE_RE" 3

send position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1
send go depth 3
check_reply "mate in 1: score mate 1" '^info .*score mate 1 ' 10
check_reply "mate in 1: bestmove a1a8" '^bestmove a1a8' 10

send position fen 6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1
send go searchmoves g8f8 depth 2
check_reply "searchmoves: only the given move" '^bestmove g8f8' 10

send position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1
send go depth 3
check_reply "checkmated: the reason first" '^info string no legal moves: checkmate$' 10
check_reply "no legal move: bestmove 0000" '^bestmove 0000$' 10
send position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1
send go depth 3
check_reply "stalemated: the reason first" '^info string no legal moves: stalemate$' 10
check_reply "stalemated: bestmove 0000" '^bestmove 0000$' 10

send go depth
check_reply "go: missing value -> info string" '^info string ' 5
expect '^bestmove ' 10 || true

stop_engine
if [ "$STATUS" -eq 0 ]; then pass "quit: exit status 0"; else fail "quit: exit status $STATUS"; fi

# --- Threads ----------------------------------------------------------------

start
send uci
check_reply "uci: Threads option 1..256" '^option name Threads type spin default 1 min 1 max 256$'
expect '^uciok$' 10
send setoption name Threads value 3
send setoption name MultiPV value 2
send isready
expect '^readyok$' 10
if [[ $SEEN =~ info\ string ]]; then fail "setoption Threads 3: accepted"; else
    pass "setoption Threads 3: accepted"; fi
send setoption name Threads value 0
check_reply "setoption Threads 0: info string" '^info string .*out of range 1\.\.256'
send setoption name Threads value 257
check_reply "setoption Threads 257: info string" '^info string .*out of range 1\.\.256'
send position startpos moves e2e4
send go depth 6
check_reply "Threads 3, MultiPV 2: second line" '^info depth 6 .*multipv 2 .* pv [a-h][1-8]' 30
check_reply "Threads 3: bestmove after depth 6" "$BESTMOVE_RE" 30
send setoption name MultiPV value 1
send go nodes 30000
check_reply "Threads 3, go nodes: bestmove by itself" "$BESTMOVE_RE" 30
send go infinite
sleep 0.3
SEEN=""
if expect '^bestmove ' 0.3; then fail "Threads 3, go infinite: no bestmove before stop"; else
    pass "Threads 3, go infinite: no bestmove before stop"; fi
send stop
check_reply "Threads 3, go infinite + stop: one bestmove" "$BESTMOVE_RE" 5
send go ponder wtime 500 btime 500
sleep 0.2
send ponderhit
check_reply "Threads 3, ponderhit: bestmove on the clock" "$BESTMOVE_RE" 30
SEEN=""
send isready
check_reply "Threads 3: still ready" '^readyok$' 10
if [[ $SEEN =~ bestmove ]]; then fail "Threads 3: exactly one bestmove per go"; else
    pass "Threads 3: exactly one bestmove per go"; fi
stop_engine
if [ "$STATUS" -eq 0 ]; then pass "Threads 3: quit exits 0"; else
    fail "Threads 3: quit status $STATUS"; fi

# --- quit while searching ---------------------------------------------------

start
send uci
expect '^uciok$' 10
send position startpos
send go infinite
sleep 0.3
stop_engine
# A search left running would hit the session's 60 s timeout (status 124).
if [ "$STATUS" -eq 0 ]; then pass "quit while searching: exit 0"; else
    fail "quit while searching: status $STATUS"; fi

# --- plain pipes ------------------------------------------------------------

SEEN=""
# --- Chess960 -----------------------------------------------------------------

# UCI_Chess960: castling read and written as king takes rook; the book is off.
C960_FEN='rk6/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w AEa - 0 1'
out=$(printf 'uci\nsetoption name UCI_Chess960 value true\nsetoption name OwnBook value true
position fen %s\ngo depth 2 searchmoves b1a1\nisready
position fen %s moves b1e1\nd\nposition fen %s\nperft 1
position startpos\ngo depth 1 searchmoves e2e4\nisready
position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\ngo depth 1 searchmoves e1g1\nisready\nquit\n' \
    "$C960_FEN" "$C960_FEN" "$C960_FEN" | timeout 60 "$PATZER" uci 2>&1)
if [[ $out == *"option name UCI_Chess960 type check default false"* ]]; then
    pass "uci: UCI_Chess960 option"; else fail "uci: UCI_Chess960 option"; fi
if [[ $out == *"bestmove b1a1"* ]]; then pass "960: castling written as king takes rook"; else
    fail "960: castling written as king takes rook: $(grep bestmove <<<"$out" | head -1)"; fi
if [[ $out == *"Fen: rk6/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b q - 1 1"* ]]; then
    pass "960: king takes rook read as castling"; else fail "960: b1e1 not read as castling"; fi
if [[ $out == *$'b1e1: 1\n'* && $out == *$'b1a1: 1\n'* && $out == *$'b1c1: 1\n'* ]]; then
    pass "960: perft divide writes castling as king takes rook"; else
    fail "960: perft divide castling moves"; fi
if [[ $out == *"bestmove e1h1"* ]]; then pass "960: standard squares castle as e1h1"; else
    fail "960: standard squares castle as e1h1"; fi
# Searched, not taken from the book: a book move comes with no info line.
if [[ $(grep -c '^info depth' <<<"$out") -ge 3 ]]; then pass "960: the book is off"; else
    fail "960: the book is off"; fi

out=$(printf 'uci\nisready\n' | timeout 10 "$PATZER" uci)
status=$?
if [ "$status" -eq 0 ] && [[ $out == *readyok* ]]; then pass "EOF: exit status 0"; else
    fail "EOF: exit status $status"; fi

out=$(printf 'uci\nquit\n' | timeout 10 "$PATZER")
if [[ $out == *uciok* ]]; then pass "first-line detection: uci"; else
    fail "first-line detection: uci"; fi

tmp_home=$(mktemp -d "${TMPDIR:-/tmp}/patzer-uci.XXXXXX")
out=$(printf 'fen\nquit\n' | HOME=$tmp_home XDG_STATE_HOME=$tmp_home/state timeout 10 "$PATZER" 2>&1)
status=$?
rm -rf "$tmp_home"
if [ "$status" -eq 0 ] && [[ $out == *"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"* ]] &&
   [[ $out != *uciok* ]]; then pass "first-line detection: anything else is the line mode"; else
    fail "first-line detection: other -> status $status"; fi

# A line far longer than any buffer, then a normal command.
out=$( {
    printf 'position startpos moves'
    for _ in $(seq 2000); do printf ' g1f3 g8f6 f3g1 f6g8'; done
    printf '\n'
    head -c 100000 /dev/zero | tr '\0' x
    printf '\nisready\n'
} | timeout 20 "$PATZER" uci)
status=$?
if [ "$status" -eq 0 ] && [[ $out == *readyok* ]]; then pass "very long lines: survived"; else
    fail "very long lines: status $status"; fi

finish
