#!/bin/bash
# bench/perft960.sh: Chess960 perft of patzer against Debian's stockfish with
# UCI_Chess960 on random start positions (Scharnagl numbers), and their speeds.
#
#   COUNT=8 DEPTH=6 SEED=1 bench/perft960.sh      (or: make bench-perft960)
#
# For each position it runs "patzer perft --960 DEPTH FEN" and stockfish's
# "go perft DEPTH", RUNS times each alternately, stops on any count that
# differs, and prints the median times and the speed ratio (patzer speed /
# stockfish speed; stockfish's start-up is in its time, so use depth 6).
# Positions are start positions drawn with bash's RANDOM from SEED, castling
# in Shredder-FEN.
#
# Environment: PATZER, STOCKFISH (as bench/perft.sh), COUNT (default 8),
# DEPTH (default 6), RUNS (default 3), SEED (default 1).

set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
PATZER=${PATZER:-$top/src/patzer}
COUNT=${COUNT:-8}
DEPTH=${DEPTH:-6}
RUNS=${RUNS:-3}
SEED=${SEED:-1}
# shellcheck source=bench/common.sh
source "$here/common.sh"
bench_find_stockfish bench-perft960
bench_need_patzer bench-perft960
for v in COUNT DEPTH RUNS SEED; do
    case ${!v} in
        '' | *[!0-9]*) echo "bench-perft960: $v must be a non-negative integer" >&2; exit 1 ;;
    esac
done

# shellcheck source=bench/chess960.sh
source "$here/chess960.sh"

if [ -n "${EPOCHREALTIME:-}" ]; then
    now() { echo "${EPOCHREALTIME/,/.}"; }
else
    now() { date +%s.%N; }
fi
run_patzer() { # depth fen
    local t0 t1
    t0=$(now)
    nodes=$("$PATZER" perft --960 "$1" "$2" | tr -d '[:space:]')
    t1=$(now)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
}
run_stockfish() { # depth fen
    local t0 t1
    t0=$(now)
    nodes=$(printf 'setoption name UCI_Chess960 value true\nposition fen %s\ngo perft %s\nquit\n' \
        "$2" "$1" | "$STOCKFISH" 2>/dev/null | awk '/^Nodes searched:/ { print $3 }')
    t1=$(now)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
}
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "patzer:    $PATZER"
echo "stockfish: $STOCKFISH"
echo "positions: $COUNT random start positions (seed $SEED), depth $DEPTH, $RUNS runs each"
echo
RANDOM=$SEED
total_p=0 total_s=0 total_nodes=0
for ((i = 0; i < COUNT; i++)); do
    n=$((RANDOM % 960))
    fen=$(start_fen "$n")
    pt=() st=()
    for ((r = 1; r <= RUNS; r++)); do
        run_patzer "$DEPTH" "$fen"
        pn=$nodes
        pt+=("$secs")
        run_stockfish "$DEPTH" "$fen"
        st+=("$secs")
        if [ "$pn" != "$nodes" ]; then
            echo "bench-perft960: #$n \"$fen\" depth $DEPTH: patzer $pn, stockfish $nodes" >&2
            exit 1
        fi
    done
    pm=$(median "${pt[@]}")
    sm=$(median "${st[@]}")
    printf '#%-3d %s  nodes %s  patzer %.3f s  stockfish %.3f s  ratio %.2f\n' "$n" "$fen" \
        "$nodes" "$pm" "$sm" "$(awk -v p="$pm" -v s="$sm" 'BEGIN { print s / p }')"
    total_p=$(awk -v a="$total_p" -v b="$pm" 'BEGIN { print a + b }')
    total_s=$(awk -v a="$total_s" -v b="$sm" 'BEGIN { print a + b }')
    total_nodes=$((total_nodes + nodes))
done
echo
awk -v n="$total_nodes" -v p="$total_p" -v s="$total_s" -v c="$COUNT" 'BEGIN {
    printf "all %d positions agree: %d nodes; patzer %.2f Mnps, stockfish %.2f Mnps, ratio %.2f\n",
        c, n, n / p / 1e6, n / s / 1e6, s / p
}'
