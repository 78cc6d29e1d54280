#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/explore.sh: the opening explorer on a large PGN file: how long
# indexing takes against reading (and checking) the same file with
# `patzer pgn`, and how long the explorer's lookups take once it is indexed.
#
#   bench/explore.sh [FILE.pgn]        (or: make bench-explore)
#
# Without FILE it writes GAMES pseudo-random games (seed SEED) with
# bench/genpgn (as bench/pgn.sh does, five times as many) into a temporary
# file. It then runs, RUNS times each and alternating, `patzer pgn FILE` and
# a line-mode session `index FILE` (the index removed before each run, so
# each run builds it), and prints the median wall and CPU times and the
# ratio. Last, bench/explore_lookup walks the indexed positions and prints
# the median, 90th percentile and largest lookup (collect and format the
# table) in milliseconds, and those of the start position (all the games);
# the bar is a median under 10 ms. Last, a whole line-mode session that
# opens the index and explores the start position, against one that quits.
#
# Environment: PATZER (default: src/patzer of this tree), GENPGN and LOOKUP
# (default: bench/genpgn and bench/explore_lookup of this tree; built by
# "make bench-explore"), RUNS (default 3), GAMES (default 100000), SEED
# (default 1), LOOKUPS (default 2000).
#
# Exit status: 0 after a complete run (the figures say whether the bar is
# met), 1 when a program fails, 2 for a missing program or bad arguments.

set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
PATZER=${PATZER:-$top/src/patzer}
GENPGN=${GENPGN:-$top/bench/genpgn}
LOOKUP=${LOOKUP:-$top/bench/explore_lookup}
RUNS=${RUNS:-3}
GAMES=${GAMES:-100000}
SEED=${SEED:-1}
LOOKUPS=${LOOKUPS:-2000}

die() { # status message
    echo "bench-explore: $2" >&2
    exit "$1"
}

[ $# -le 1 ] || die 2 "usage: bench/explore.sh [FILE.pgn]"
[ -x "$PATZER" ] || die 2 "$PATZER is not built (run make first, or set PATZER)"
[ -x "$LOOKUP" ] || die 2 "$LOOKUP is not built (run make bench-explore, or set LOOKUP)"
case $RUNS in '' | *[!0-9]* | 0) die 2 "RUNS must be a positive integer" ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/patzer-bench-explore.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/config XDG_STATE_HOME=$tmp/home/state \
    XDG_DATA_HOME=$tmp/home/data XDG_CACHE_HOME=$tmp/home/cache

if [ $# -eq 1 ]; then
    [ -r "$1" ] || die 2 "cannot read $1"
    # Indexed in a copy, so that the given file's folder gets no index.
    cp "$1" "$tmp/games.pgn"
    origin="a copy of $1"
else
    [ -x "$GENPGN" ] || die 2 "$GENPGN is not built (run make bench-explore, or set GENPGN)"
    echo "generating $GAMES games (seed $SEED) with $GENPGN ..."
    "$GENPGN" "$tmp/games.pgn" "$GAMES" "$SEED" || die 1 "genpgn failed"
    origin="generated, $GAMES games, seed $SEED"
fi
file=$tmp/games.pgn
bytes=$(wc -c <"$file")

timed() { # OUTVAR COMMAND...: "WALL CPU" in seconds, output discarded
    local var=$1 out_
    shift
    local TIMEFORMAT='%3R %3U %3S'
    out_=$( { time "$@" >/dev/null 2>&1; } 2>&1) || true
    printf -v "$var" '%s' "$(awk '{ printf "%.3f %.3f", $1, $2 + $3 }' <<<"$out_")"
}
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
index_once() {
    rm -f "$file.pzx"
    printf 'index %s\nquit\n' "$file" | "$PATZER" --new
}

# One run of each first, for the counts (and a warm page cache).
games=$("$PATZER" pgn "$file" 2>/dev/null | wc -l) || true
index_once >"$tmp/index.out" 2>"$tmp/index.err"
grep -q '^Indexed ' "$tmp/index.out" || die 1 "indexing failed: $(head -c 300 "$tmp/index.out" "$tmp/index.err")"
summary=$(grep '^Indexed ' "$tmp/index.out")
positions=$(sed -n 's/.* games, \([0-9]*\) positions in .*/\1/p' <<<"$summary")
progress_lines=$(grep -c 'positions/s, ETA' "$tmp/index.err" || true)

echo "file:      $file ($origin; $bytes bytes, $games valid games)"
echo "index:     $summary"
echo "           $(wc -c <"$file.pzx") bytes; $progress_lines progress lines on stderr"
echo "runs:      $RUNS of each (alternating)"
pgn_wall=() pgn_cpu=() ix_wall=() ix_cpu=()
for ((i = 1; i <= RUNS; i++)); do
    timed t "$PATZER" pgn "$file"
    read -r w c <<<"$t"
    pgn_wall+=("$w") pgn_cpu+=("$c")
    timed t index_once
    read -r w c <<<"$t"
    ix_wall+=("$w") ix_cpu+=("$c")
done
pw=$(median "${pgn_wall[@]}") pc=$(median "${pgn_cpu[@]}")
iw=$(median "${ix_wall[@]}") ic=$(median "${ix_cpu[@]}")
printf 'patzer pgn FILE:  median wall %.3f s, CPU %.3f s (%.0f games/s)\n' "$pw" "$pc" \
    "$(awk -v g="$games" -v t="$pw" 'BEGIN { print (t > 0 ? g / t : 0) }')"
printf 'index FILE:       median wall %.3f s, CPU %.3f s (%.0f positions/s)\n' "$iw" "$ic" \
    "$(awk -v p="$positions" -v t="$iw" 'BEGIN { print (t > 0 ? p / t : 0) }')"
printf 'ratio:            indexing takes %.2fx the time of patzer pgn\n' \
    "$(awk -v a="$iw" -v b="$pw" 'BEGIN { print (b > 0 ? a / b : 0) }')"

# The index of the last run is in place: the lookups.
index_once >/dev/null 2>&1
"$LOOKUP" "$file" "$LOOKUPS" "$SEED" | tee "$tmp/lookup.out" || die 1 "explore_lookup failed"
med=$(sed -n 's/^lookup ms: median \([0-9.]*\),.*/\1/p' "$tmp/lookup.out")

# A whole line-mode session on the indexed file: the index opened (and its
# records' hash checked), the start position explored, against one that only quits.
session_explore() { printf 'index %s\nexplore\nquit\n' "$file" | "$PATZER" --new; }
session_quit() { printf 'quit\n' | "$PATZER" --new; }
sx=() sq=()
for ((i = 1; i <= RUNS; i++)); do
    timed t session_explore
    sx+=("${t%% *}")
    timed t session_quit
    sq+=("${t%% *}")
done
printf 'session:          index FILE (up to date) + explore + quit: median wall %.3f s; quit alone %.3f s\n' \
    "$(median "${sx[@]}")" "$(median "${sq[@]}")"
if awk -v m="$med" 'BEGIN { exit !(m < 10) }'; then
    echo "bar:              median lookup $med ms < 10 ms: met"
else
    echo "bar:              median lookup $med ms < 10 ms: NOT met"
fi
