#!/bin/bash
# tests/nnue_uci.sh: the UCI options EvalFile and UseNNUE end to end. A missing or bad net
# is reported with an info string naming the file and what is wrong, and the engine still
# searches (with the hand-crafted evaluation); a good net (a random one written by
# tests/nnue_mknet) is loaded, its description shown, and searched with at 1 and 2 threads;
# and the same options through xboard.
#
# Run by "make check" with $PATZER and $NNUE_MKNET set, or by hand from the source tree.
# Prints "N passed, M failed" last; exits 1 on any failure, 99 on a setup error.

PROTOCOL=uci
# shellcheck source=tests/engine_session.sh
source "${srcdir:-.}/tests/engine_session.sh"

NNUE_MKNET=${NNUE_MKNET:-tests/nnue_mknet}
[ -x "$NNUE_MKNET" ] || setup_error "no net writer at '$NNUE_MKNET' (make check builds it)"
make_tmp
"$NNUE_MKNET" "$tmp/good.nnue" 7 || setup_error "nnue_mknet failed"
size=$(wc -c <"$tmp/good.nnue")
head -c $((size - 100)) "$tmp/good.nnue" >"$tmp/short.nnue"
{ printf 'XXNNUE01'; tail -c +9 "$tmp/good.nnue"; } >"$tmp/magic.nnue"
{ cat "$tmp/good.nnue"; printf 'x'; } >"$tmp/long.nnue"

BESTMOVE_RE='^bestmove ([a-h][1-8][a-h][1-8][qrbn]?|0000)( ponder [a-h][1-8][a-h][1-8][qrbn]?)?$'
# The legal first moves: a bestmove from the start position must be one of them.
START_MOVES='(a2a3|a2a4|b2b3|b2b4|c2c3|c2c4|d2d3|d2d4|e2e3|e2e4|f2f3|f2f4|g2g3|g2g4|'
START_MOVES+='h2h3|h2h4|b1a3|b1c3|g1f3|g1h3)'

# search NAME: go depth 5 from the start position gives a legal bestmove.
search() {
    send position startpos
    send go depth 5
    check_reply "$1: legal bestmove" "^bestmove $START_MOVES( |\$)" 30
}

start
send uci
check_reply "uci: EvalFile option" '^option name EvalFile type string default <empty>$'
check_reply "uci: UseNNUE option" '^option name UseNNUE type check default true$'
expect '^uciok$' 10
# The built-in net is the default evaluation, loaded without a word.
search "the default net"

# Off, nothing is read, nor said, until UseNNUE is on again.
send setoption name UseNNUE value false
check_reply "UseNNUE false at first: the hand-crafted evaluation" '^info string NNUE off'
send isready
expect '^readyok$' 10
seen_before=${#SEEN}
send setoption name EvalFile value "$tmp/missing.nnue"
send isready
expect '^readyok$' 10
if [[ ${SEEN:$seen_before} =~ info\ string ]]; then fail "EvalFile alone: nothing said"; else
    pass "EvalFile alone: nothing said"; fi

send setoption name UseNNUE value true
check_reply "missing file: info string with the file and the reason" \
    "^info string EvalFile .*missing\.nnue: cannot open: .*hand-crafted evaluation"
search "missing file"

send setoption name EvalFile value "$tmp/short.nnue"
check_reply "truncated file: info string" "^info string EvalFile .*short\.nnue: .*truncated"
search "truncated file"
send setoption name EvalFile value "$tmp/magic.nnue"
check_reply "bad magic: info string" "^info string EvalFile .*magic\.nnue: bad magic"
send setoption name EvalFile value "$tmp/long.nnue"
check_reply "trailing bytes: info string" "^info string EvalFile .*long\.nnue: .*trailing bytes"
search "bad file"

send setoption name EvalFile value "$tmp/good.nnue"
check_reply "good net: loaded, with its description" \
    "^info string NNUE loaded from .*good\.nnue: nnue_mknet random test net$"
search "good net"
send setoption name Threads value 2
send position startpos moves e2e4 e7e5
send go depth 6
check_reply "good net, 2 threads: bestmove" "$BESTMOVE_RE" 30
send setoption name Threads value 1

send setoption name UseNNUE value false
check_reply "UseNNUE false: back to the hand-crafted evaluation" '^info string NNUE off'
search "after UseNNUE false"

send setoption name EvalFile value
send setoption name UseNNUE value true
check_reply "UseNNUE with no EvalFile: the built-in net" \
    '^info string NNUE: the built-in net: patzer NNUE v[12], '
search "the built-in net"

stop_engine
if [ "$STATUS" -eq 0 ]; then pass "quit: exit status 0"; else fail "quit: exit status $STATUS"; fi

# xboard sets the same options with `option NAME=VALUE` and is told with telluser.
out=$(printf 'xboard\nprotover 2\noption UseNNUE=1\noption EvalFile=%s\n' "$tmp/good.nnue"
    printf 'option EvalFile=%s\nquit\n' "$tmp/short.nnue")
out=$(printf '%s' "$out" | timeout 30 "$PATZER" xboard 2>&1)
if [[ $out == *"telluser NNUE loaded from $tmp/good.nnue: nnue_mknet random test net"* ]]; then
    pass "xboard: good net loaded"; else fail "xboard: good net loaded" "$out"; fi
if [[ $out == *"tellusererror EvalFile $tmp/short.nnue: wrong length"*truncated* ]]; then
    pass "xboard: truncated net reported"; else fail "xboard: truncated net reported" "$out"; fi

finish
