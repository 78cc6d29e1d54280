#!/bin/bash
# bench/perft.sh: compare the perft speed of patzer with Debian's stockfish.
#
#   RUNS=5 bench/perft.sh          (or: make bench-perft)
#
# For each position it runs "patzer perft DEPTH FEN" and stockfish's
# "go perft DEPTH" alternately, RUNS times each, checks both node counts,
# and prints the median wall time, Mnps and the speed ratio
# (patzer speed / stockfish speed = stockfish time / patzer time).
#
# Environment: PATZER (default: src/patzer next to this script's tree),
# STOCKFISH (default: stockfish in PATH, else /usr/games/stockfish),
# RUNS (default 5), BAR (default 1.5).

set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)

PATZER=${PATZER:-$top/src/patzer}
RUNS=${RUNS:-5}
BAR=${BAR:-1.5}

# shellcheck source=bench/common.sh
source "$here/common.sh"
bench_find_stockfish bench-perft
bench_need_patzer bench-perft
case $RUNS in
    '' | *[!0-9]* | 0) echo "bench-perft: RUNS must be a positive integer" >&2; exit 1 ;;
esac

# name|depth|fen|expected nodes ("startpos" means the initial position)
positions=(
    "startpos|6|startpos|119060324"
    "kiwipete|5|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|193690690"
)
startfen='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'

if [ -n "${EPOCHREALTIME:-}" ]; then
    now() { echo "${EPOCHREALTIME/,/.}"; }
else
    now() { date +%s.%N; }
fi

# Each runner sets $nodes and $secs.
run_patzer() { # depth fen
    local t0 t1 out
    t0=$(now)
    out=$("$PATZER" perft "$1" "$2")
    t1=$(now)
    nodes=$(printf '%s\n' "$out" | tr -d '[:space:]')
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
}

run_stockfish() { # depth fen
    local t0 t1 out pos
    if [ "$2" = "$startfen" ]; then pos='position startpos'; else pos="position fen $2"; fi
    t0=$(now)
    out=$(printf '%s\ngo perft %s\nquit\n' "$pos" "$1" | "$STOCKFISH" 2>/dev/null)
    t1=$(now)
    nodes=$(printf '%s\n' "$out" | awk '/^Nodes searched:/ { print $3 }')
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }')
}

median() { # numbers...
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "patzer:    $PATZER"
echo "stockfish: $STOCKFISH"
echo "runs:      $RUNS per engine per position (alternating)"
echo

all_ok=1
ratios=()
for entry in "${positions[@]}"; do
    IFS='|' read -r name depth fen expect <<<"$entry"
    [ "$fen" = startpos ] && fen=$startfen
    pt=() st=()
    for ((i = 1; i <= RUNS; i++)); do
        run_patzer "$depth" "$fen"
        if [ "$nodes" != "$expect" ]; then
            echo "bench-perft: $name depth $depth: patzer counted '$nodes', expected $expect" >&2
            exit 1
        fi
        pt+=("$secs")
        run_stockfish "$depth" "$fen"
        if [ "$nodes" != "$expect" ]; then
            echo "bench-perft: $name depth $depth: stockfish counted '$nodes', expected $expect" >&2
            exit 1
        fi
        st+=("$secs")
    done
    pm=$(median "${pt[@]}")
    sm=$(median "${st[@]}")
    awk -v n="$name" -v d="$depth" -v nodes="$expect" -v p="$pm" -v s="$sm" 'BEGIN {
        printf "%-9s depth %d  nodes %d\n", n, d, nodes
        printf "  patzer    median %8.3f s  %8.2f Mnps\n", p, nodes / p / 1e6
        printf "  stockfish median %8.3f s  %8.2f Mnps\n", s, nodes / s / 1e6
        printf "  ratio (patzer speed / stockfish speed): %.2f\n", s / p
    }'
    ratio=$(awk -v p="$pm" -v s="$sm" 'BEGIN { printf "%.2f", s / p }')
    ratios+=("$ratio")
    if ! awk -v r="$ratio" -v b="$BAR" 'BEGIN { exit !(r + 0 >= b + 0) }'; then
        all_ok=0
    fi
done

echo
if [ "$all_ok" -eq 1 ]; then
    echo "bar met: patzer is at least ${BAR}x stockfish's perft speed on every position (ratios: ${ratios[*]})"
else
    echo "bar NOT met: need at least ${BAR}x stockfish's perft speed on every position (ratios: ${ratios[*]})"
fi
