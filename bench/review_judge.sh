#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/review_judge.sh: how right the review's marks are, with Stockfish as
# the judge (issue 26): `patzer annotate` on the games of
# bench/data/review_games.pgn and review_games_2.pgn (26 games; provenance in
# bench/data/README.md), twice, and
# bench/review_judge scoring each run against Stockfish at depth DEPTH
# (precision and recall of ?/?? and of ??, marks in the first 8 moves and on
# theory, better moves shown against the judge's, the stability of the marks
# between the two runs). Then the time of one 40-move game (80 plies: game 4,
# Karpov-Kasparov 1985; GAME40), RUNS times: the median wall time, and the
# median CPU time (what a loaded machine does not change much).
#
#   bench/review_judge.sh                      (or: make bench-review)
#
# Environment: PATZER (default: src/patzer of this tree), PATZER_BASE (an
# older build to compare, run with its own defaults; none by default),
# JUDGE_HELPER (default bench/review_judge of this tree), JUDGE (default
# /usr/games/stockfish), DEPTH (default 16), GAMES (default the two files
# above; one or more PGN files, separated by spaces; GAMES=bench/data/review_games.pgn
# gives the first set of 11 games), CACHE (default
# $TMPDIR/review_judge.v2.dDEPTH.cache: the judge's evaluations, kept between
# runs, so that only positions it never saw cost its time; version 2, with a
# cleared hash before each position, so that the order of the positions
# does not matter: review_judge refuses a cache of another version or depth), ANNOTATE_ARGS (passed to the new build's annotate), RUNS
# (default 3), BENCH_BOOK and BENCH_OPENINGS (theory, for the marks on it),
# PEER_DEPTH (none by default: the judge at that depth is scored like an
# annotator too, its evaluations cached in CACHE.peerPEER_DEPTH; how far a
# strong engine agrees with itself).
#
# Exit status: 0 after a complete run, 1 when a program fails, 2 for a
# missing program.
#
# For experiments on the review's rules, bench/review_replay (make
# bench/review_replay) annotates like `patzer annotate` with every search
# kept in a cache file, so that a change of the rules or of the scale costs
# only the searches it adds; score its output with bench/review_judge.

set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
PATZER=${PATZER:-$top/src/patzer}
PATZER_BASE=${PATZER_BASE:-}
JUDGE_HELPER=${JUDGE_HELPER:-$top/bench/review_judge}
JUDGE=${JUDGE:-/usr/games/stockfish}
DEPTH=${DEPTH:-16}
GAMES=${GAMES:-$here/data/review_games.pgn $here/data/review_games_2.pgn}
CACHE=${CACHE:-${TMPDIR:-/tmp}/review_judge.v2.d$DEPTH.cache}
ANNOTATE_ARGS=${ANNOTATE_ARGS:-}
RUNS=${RUNS:-3}
GAME40=${GAME40:-4}
BENCH_BOOK=${BENCH_BOOK:-$top/data/patzer.bin}
BENCH_OPENINGS=${BENCH_OPENINGS:-$top/data/openings.txt}
PEER_DEPTH=${PEER_DEPTH:-}

for prog in "$PATZER" "$JUDGE_HELPER" "$JUDGE"; do
    [ -x "$prog" ] || { echo "review_judge.sh: $prog is missing (make bench-review builds it; apt-get install stockfish)" >&2; exit 2; }
done
[ -z "$PATZER_BASE" ] || [ -x "$PATZER_BASE" ] || { echo "review_judge.sh: $PATZER_BASE is missing" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The games, in one file, a blank line between files.
for f in $GAMES; do
    if ! cat "$f"; then
        echo "review_judge.sh: cannot read $f" >&2
        exit 2
    fi
    echo
done >"$work/games.pgn"
GAMES=$work/games.pgn

now() { date +%s.%N; }

# annotate BUILD OUT [ARGS...]: annotates the games, prints the seconds taken.
annotate() {
    local build=$1 out=$2
    shift 2
    local t0 t1
    t0=$(now)
    "$build" annotate "$GAMES" "$@" >"$out" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
    t1=$(now)
    echo "$t1 - $t0" | bc -l
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

plies=$("$PATZER" pgn "$GAMES" | awk -F'\t' '{ s += $3 } END { print s }')
echo "review_judge: $(grep -c '^\[Event ' "$GAMES") games, $plies plies; judge $JUDGE at depth $DEPTH"
echo "load before: $(uptime)"

# one_game BUILD [ARGS...]: the median wall and CPU seconds (user + system,
# all threads) of annotating game GAME40 alone, RUNS times.
one_game() {
    local build=$1
    shift
    # A game is two paragraphs: its tags and its moves.
    awk -v n="$GAME40" 'BEGIN { RS = ""; ORS = "\n\n" } NR == 2 * n - 1 || NR == 2 * n' \
        "$GAMES" >"$work/one.pgn"
    local TIMEFORMAT='%R %U %S'
    for _ in $(seq "$RUNS"); do
        { time "$build" annotate "$work/one.pgn" "$@" >/dev/null 2>&1; } 2>>"$work/times" || exit 1
    done
    local wall cpu
    wall=$(awk '{ print $1 }' "$work/times" | median)
    cpu=$(awk '{ print $2 + $3 }' "$work/times" | median)
    rm -f "$work/times"
    echo "$wall $cpu"
}

# report NAME BUILD [ARGS...]
report() {
    local name=$1 build=$2
    shift 2
    local t1 t2
    t1=$(annotate "$build" "$work/$name.1.pgn" "$@")
    t2=$(annotate "$build" "$work/$name.2.pgn" "$@")
    local figures
    local peer=()
    [ -z "$PEER_DEPTH" ] || peer=(--peer-depth "$PEER_DEPTH" --peer-cache "$CACHE.peer$PEER_DEPTH")
    figures=$("$JUDGE_HELPER" --judge "$JUDGE" --depth "$DEPTH" --cache "$CACHE" \
        --openings "$BENCH_OPENINGS" --book "$BENCH_BOOK" "${peer[@]}" \
        "$GAMES" "$work/$name.1.pgn" "$work/$name.2.pgn") || exit 1
    local game
    game=$(one_game "$build" "$@")
    printf '%s: %s seconds_run1=%.1f seconds_run2=%.1f ms_per_ply=%.0f' "$name" "$figures" \
        "$t1" "$t2" "$(echo "($t1 + $t2) * 500 / $plies" | bc -l)"
    printf ' seconds_40_moves=%.1f cpu_seconds_40_moves=%.1f\n' "${game% *}" "${game#* }"
}

if [ -n "$PATZER_BASE" ]; then
    report before "$PATZER_BASE"
fi
# shellcheck disable=SC2086
report after "$PATZER" $ANNOTATE_ARGS
echo "load after: $(uptime)"
