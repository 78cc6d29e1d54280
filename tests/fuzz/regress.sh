#!/bin/bash
# tests/fuzz/regress.sh: every input a fuzz target ever failed on
# (tests/fuzz/regress/TARGET/*), replayed through the real program, which must
# neither crash nor hang: the exit status must not be a signal or a timeout.
# (Under --enable-sanitizers any memory error or UB report fails it too.)
# Run by make check; needs no clang.
#
#   fen      patzer perft 1 "FEN"  and the line mode's setboard
#   san      the line mode: "play both", the optional "fen FEN" line as
#            setboard, then the moves
#   command  the line mode, each line as typed
#   pgn      the line mode's load (and "patzer pgn FILE" when it exists)
#   uci      patzer uci < input
#   xboard   patzer xboard < input

set -u
: "${PATZER:?PATZER must name the patzer binary}"
srcdir=${srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
dir=$srcdir/tests/fuzz/regress
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patzer-regress.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state XDG_DATA_HOME=$tmp/data HOME=$tmp
unset PATZER_BOOK
TIMEOUT=${REGRESS_TIMEOUT:-60}
case $PATZER in /*) ;; *) PATZER=$PWD/$PATZER ;; esac
# Saves and loads of the command inputs land in the temporary directory.
mkdir -p "$tmp/work" && cd "$tmp/work" || exit 99

fails=0 count=0
check() { # label command...  (stdin as given)
    local status
    timeout -k 5 "$TIMEOUT" "$@" >"$tmp/out" 2>&1
    status=$?
    count=$((count + 1))
    if [ $status -ge 124 ]; then
        fails=$((fails + 1))
        echo "FAIL: $label: exit status $status ($([ $status -eq 124 ] && echo hang || echo signal $((status - 128))))"
        tail -n 20 "$tmp/out" | sed 's/^/  | /'
        return 1
    fi
    # No input here is big enough to run anything out of memory: the message
    # means an error was misreported.
    if grep -qi "out of memory" "$tmp/out"; then
        fails=$((fails + 1))
        echo "FAIL: $label: reports 'out of memory':"
        grep -i "out of memory" "$tmp/out" | head -n 3 | sed 's/^/  | /'
        return 1
    fi
    return 0
}

# "patzer pgn" (the batch checker) where this build has it.
has_pgn_command=yes
"$PATZER" pgn </dev/null 2>&1 | grep -q "unknown command" && has_pgn_command=no

# Each run reads its input from a file (a pipe into check would run it in a
# subshell and lose the count).
in=$tmp/in

shopt -s nullglob
for f in "$dir"/fen/*; do
    label="fen ${f##*/}"
    fen=$(head -n 1 "$f")
    check "$PATZER" perft 1 "$fen" </dev/null
    printf 'setboard %s\nfen\nquit\n' "$fen" >"$in"
    check "$PATZER" <"$in"
done
for f in "$dir"/san/*; do
    label="san ${f##*/}"
    { echo "play both"; sed -e 's/^fen /setboard /' "$f"; echo; echo quit; } >"$in"
    check "$PATZER" <"$in"
done
for f in "$dir"/command/*; do
    label="command ${f##*/}"
    { cat "$f"; echo; echo quit; } >"$in"
    check "$PATZER" <"$in"
done
for f in "$dir"/pgn/*; do
    label="pgn ${f##*/} (load)"
    printf 'load %s\nfen\nquit\n' "$f" >"$in"
    check "$PATZER" <"$in"
    if [ $has_pgn_command = yes ]; then
        label="pgn ${f##*/} (patzer pgn)"
        check "$PATZER" pgn "$f" </dev/null
    fi
done
for f in "$dir"/uci/*; do
    label="uci ${f##*/}"
    check "$PATZER" uci <"$f"
done
for f in "$dir"/xboard/*; do
    label="xboard ${f##*/}"
    check "$PATZER" xboard <"$f"
done

echo "fuzz regressions: $count runs, $fails failed"
[ $fails -eq 0 ]
