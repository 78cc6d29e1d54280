#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# A long match as resumable chunks of ../shared/tools/match.py: a session may stop
# at any point, and running the same command again plays only the chunks that have
# no result yet. Chunk K plays openings from 1 + K*CHUNK/2 (both colours of each),
# so the chunks together are the same match as one run of GAMES games.
#
#   bench/match-chunks.sh DIR GAMES CHUNK [match.py arguments...]
#   bench/match-chunks.sh --sum DIR
#
# Example (Threads=2 against Threads=1, 200 games in chunks of 50):
#   bench/match-chunks.sh /tmp/t2 200 50 --engine "src/patzer uci" \
#       --engine "src/patzer uci" --name1 T2 --name2 T1 --option1 Threads=2 \
#       --option Hash=16 --tc 10+0.1 --concurrency 1
# DIR gets chunk-K.out (match.py's report) and chunk-K.pgn for each chunk; the
# sum of the finished chunks (W-D-L of the first engine, score, Elo with a 95%
# trinomial error, forfeits) is printed at the end, or alone with --sum.
set -eu

MATCH=${MATCH:-"$(dirname "$0")/../../shared/tools/match.py"}

usage() {
    echo "usage: $0 DIR GAMES CHUNK [match.py arguments...] | $0 --sum DIR" >&2
    exit 2
}

# A report is complete when match.py played every game of the chunk (it also
# sums up a match stopped early, with fewer games).
finished() {
    [ -f "$1" ] && grep -q "^=====.*: $2 games =====" "$1" && grep -q '^Result ' "$1"
}

summarize() {
    set -- "$1"/chunk-*.out
    [ -e "$1" ] || { echo "no finished chunk in $(dirname "$1")" >&2; return 1; }
    # Only finished reports are named chunk-K.out (see the loop below).
    awk '
        # Engine names may hold spaces and digits: match the counts by their labels.
        /^Result / && match($0, /[0-9]+-[0-9]+-[0-9]+ \(W-D-L\)/) {
            split(substr($0, RSTART, RLENGTH - 8), r, "-")
            w += r[1]; d += r[2]; l += r[3]; chunks++
        }
        /^Forfeits / {
            s = $0
            while (match(s, /(time forfeit|illegal move|crash\/no response) [0-9]+/)) {
                n = split(substr(s, RSTART, RLENGTH), part, " ")
                f += part[n]
                s = substr(s, RSTART + RLENGTH)
            }
        }
        END {
            n = w + d + l
            if (n == 0) { print "no finished chunk"; exit 1 }
            s = (w + d / 2) / n
            elo = function_elo(s)
            sd = sqrt((w * (1 - s) ^ 2 + d * (0.5 - s) ^ 2 + l * s ^ 2) / n / n)
            lo = s - 1.96 * sd; hi = s + 1.96 * sd
            printf "%d chunks, %d games: %d-%d-%d (W-D-L of the first engine), %.1f%%\n", \
                chunks, n, w, d, l, 100 * s
            printf "Elo %+.1f (%+.1f / %+.1f, 95%%, trinomial)\n", \
                elo, function_elo(hi) - elo, function_elo(lo) - elo
            printf "forfeits, illegal moves and crashes (both engines): %d\n", f
        }
        function function_elo(x) {
            if (x <= 0) return -9999
            if (x >= 1) return 9999
            return -400 * log(1 / x - 1) / log(10)
        }' "$@"
}

[ $# -ge 1 ] || usage
if [ "$1" = --sum ]; then
    [ $# -eq 2 ] || usage
    summarize "$2"
    exit
fi
[ $# -ge 3 ] || usage
dir=$1 games=$2 chunk=$3
shift 3
case $games$chunk in *[!0-9]*) usage ;; esac
[ "$chunk" -gt 0 ] && [ $((chunk % 2)) -eq 0 ] || { echo "$0: CHUNK must be even" >&2; exit 2; }
mkdir -p "$dir"

k=0
while [ $((k * chunk)) -lt "$games" ]; do
    out=$dir/chunk-$k.out
    n=$((games - k * chunk < chunk ? games - k * chunk : chunk))
    if finished "$out" "$n"; then
        k=$((k + 1))
        continue
    fi
    start=$((1 + k * chunk / 2))
    echo "chunk $k: $n games from opening $start" >&2
    # A chunk cut short is played again whole; its report and games go aside
    # (match.py appends to the PGN file, which would mix both runs).
    [ ! -f "$dir/chunk-$k.pgn" ] || mv -f "$dir/chunk-$k.pgn" "$dir/chunk-$k.pgn.partial"
    python3 "$MATCH" "$@" --games "$n" --opening-start "$start" \
        --pgn "$dir/chunk-$k.pgn" > "$out.tmp" 2>&1 || true
    if ! finished "$out.tmp" "$n"; then
        mv "$out.tmp" "$out.partial"
        echo "$0: chunk $k did not finish, see $out.partial" >&2
        exit 1
    fi
    mv "$out.tmp" "$out"
    k=$((k + 1))
done
summarize "$dir"
