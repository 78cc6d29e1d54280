#!/usr/bin/env bash
# bench/datagen.sh: self-play data throughput (positions per second of one core) of
# `patzer datagen` with the hand-crafted evaluation and with the built-in NNUE net,
# measured in the same run, alternating, RUNS times each (median), one worker each.
# The figure that counts is positions per CPU second (user + system of the worker),
# which load changes less than wall time; wall time is printed too.
#
#   make bench-datagen [RUNS=3] [POSITIONS=3000] [NODES=5000]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/common.sh
source "$here/common.sh"
PATZER=${PATZER:-src/patzer}
bench_need_patzer "bench-datagen"
RUNS=${RUNS:-3}
POSITIONS=${POSITIONS:-3000}
NODES=${NODES:-5000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/patzer-bench-datagen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# run NAME SEED [ARGS...]: one datagen run from scratch; prints "positions cpu wall".
run() {
    local name=$1 seed=$2
    shift 2
    local dir=$tmp/$name-$seed
    # bash's time counts the worker too (a child the command waited for).
    local TIMEFORMAT='%R %U %S'
    { time "$PATZER" datagen --out "$dir" --jobs 1 --positions "$POSITIONS" --nodes "$NODES" \
        --seed "$seed" --progress 86400 "$@" >/dev/null 2>&1; } 2>"$tmp/time"
    local records
    records=$(($(stat -c %s "$dir/worker-000.bin") / 32))
    awk -v n="$records" '{ print n, $2 + $3, $1 }' "$tmp/time"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$tmp/hce"
: >"$tmp/net"
for i in $(seq 1 "$RUNS"); do
    run hce "$i" | awk '{ print $1 / $2, $1 / $3 }' >>"$tmp/hce"
    run net "$i" --eval-file builtin | awk '{ print $1 / $2, $1 / $3 }' >>"$tmp/net"
done
hce_cpu=$(cut -d' ' -f1 "$tmp/hce" | median)
net_cpu=$(cut -d' ' -f1 "$tmp/net" | median)
hce_wall=$(cut -d' ' -f2 "$tmp/hce" | median)
net_wall=$(cut -d' ' -f2 "$tmp/net" | median)
echo "datagen, $NODES nodes per move, one worker, $POSITIONS positions a run, median of $RUNS:"
printf '  hand-crafted  %6.0f positions per CPU second  (%6.0f per wall second)\n' "$hce_cpu" "$hce_wall"
printf '  built-in net  %6.0f positions per CPU second  (%6.0f per wall second)\n' "$net_cpu" "$net_wall"
awk -v a="$net_cpu" -v b="$hce_cpu" 'BEGIN { printf "  net / hand-crafted: %.2fx (CPU)\n", a / b }'
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
