#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/gamelist.sh: times the game list (load FILE, games TEXT, scrolling)
# on a file of GAMES generated games.
#
#   bench/gamelist.sh [FILE.pgn]        (or: make bench-gamelist)
#
# Without FILE it writes GAMES (default 100000) pseudo-random games (seed
# SEED, default 1) with bench/genpgn into a temporary file. It then runs
# bench/gamelist_time (RUNS runs, default 5, at WIDTH columns, default 120),
# which prints the medians of: the list read and its first screen laid out,
# a filter, End, and a scroll through every page; and once the list as it
# was made before (the building reader). Last, the same through patzer's
# line mode: `load FILE` (every row printed) and `games TEXT`, wall time,
# median of RUNS.
#
# Environment: PATZER, GENPGN, TIMER (defaults: this tree's src/patzer,
# bench/genpgn, bench/gamelist_time), GAMES, SEED, RUNS, WIDTH, FILTER
# (default garcia).
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
PATZER=${PATZER:-$top/src/patzer}
GENPGN=${GENPGN:-$top/bench/genpgn}
TIMER=${TIMER:-$top/bench/gamelist_time}
GAMES=${GAMES:-100000}
SEED=${SEED:-1}
RUNS=${RUNS:-5}
WIDTH=${WIDTH:-120}
FILTER=${FILTER:-garcia}

for p in "$PATZER" "$TIMER"; do
    [ -x "$p" ] || { echo "bench-gamelist: $p not built (make bench-gamelist)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -ge 1 ]; then
    file=$1
else
    [ -x "$GENPGN" ] || { echo "bench-gamelist: $GENPGN not built" >&2; exit 2; }
    file=$tmp/games.pgn
    echo "writing $GAMES games (seed $SEED) with bench/genpgn..."
    "$GENPGN" "$file" "$GAMES" "$SEED" >/dev/null
fi
echo "file: $file, $(stat -c %s "$file") bytes; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$file" >/dev/null # the page cache, as for every run after the first
"$TIMER" "$file" "$RUNS" "$WIDTH" "$FILTER"

# patzer's line mode, a fresh state directory each time (no game to resume).
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
line_mode() { # COMMANDS: wall ms of one run
    local t0 t1
    t0=$(date +%s%N)
    printf '%s\nquit\n' "$1" | HOME=$tmp XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/config \
        COLUMNS=$WIDTH "$PATZER" --no-book >"$tmp/out" 2>&1
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}
for what in "load $file" "load $file
games $FILTER"; do
    ms=$(for _ in $(seq "$RUNS"); do line_mode "$what"; done | median)
    echo "line mode: $(echo "$what" | tr '\n' ';' | sed "s|$file|FILE|g")  $ms ms wall ($(wc -l <"$tmp/out") lines printed)"
done
