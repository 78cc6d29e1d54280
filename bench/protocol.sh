#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# How quickly the protocols answer, timed from a coprocess as a GUI sees it
# (tests/uci.sh and tests/xboard.sh check only what is answered): UCI
# `go movetime 200`, `go wtime 1000 ... winc 10`, `quit` during `go
# infinite`, and xboard `st 1`. Prints each sample and the median of RUNS
# (default 10) per measurement. Usage: PATZER=src/patzer bench/protocol.sh
set -u
srcdir=$(cd "$(dirname "$0")/.." && pwd)
PROTOCOL=uci
# shellcheck source=tests/engine_session.sh
source "$srcdir/tests/engine_session.sh"
RUNS=${RUNS:-10}

# median LABEL SAMPLES...: prints the samples' median, min and max.
median() {
    local label=$1
    shift
    local sorted
    sorted=$(printf '%s\n' "$@" | sort -n)
    echo "$label: median $(sed -n "$(( ($# + 1) / 2 ))p" <<<"$sorted") ms over $# runs" \
        "(min $(head -1 <<<"$sorted"), max $(tail -1 <<<"$sorted"))"
}

# elapsed COMMAND REGEX: ms from sending COMMAND to a line matching REGEX.
elapsed() {
    local t0
    t0=$(now_ms)
    send "$1"
    expect "$2" 30 || { echo "no answer to '$1'" >&2; exit 1; }
    echo $(($(now_ms) - t0))
}

movetime=() clock=() quit=() st=()
for i in $(seq "$RUNS"); do
    PROTOCOL=uci
    start
    send uci
    expect '^uciok$' 10
    send position startpos
    movetime+=("$(elapsed 'go movetime 200' '^bestmove ')")
    clock+=("$(elapsed 'go wtime 1000 btime 1000 winc 10 binc 10' '^bestmove ')")
    send go infinite
    sleep 0.3
    t0=$(now_ms)
    stop_engine
    quit+=($(($(now_ms) - t0)))

    PROTOCOL=xboard
    start
    send xboard
    send protover 2
    expect 'done=1' 10
    send new
    send st 1
    st+=("$(elapsed 'usermove e2e4' '^move ')")
    stop_engine
    echo "run $i: movetime 200 ${movetime[-1]} ms, wtime 1000 ${clock[-1]} ms," \
        "quit ${quit[-1]} ms, xboard st 1 ${st[-1]} ms"
done
median "uci go movetime 200 -> bestmove" "${movetime[@]}"
median "uci go wtime 1000 winc 10 -> bestmove" "${clock[@]}"
median "uci quit during go infinite -> exit" "${quit[@]}"
median "xboard st 1, usermove -> move" "${st[@]}"
