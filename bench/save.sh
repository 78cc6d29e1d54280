#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/save.sh: `save` of one edited game of a 10,000-game and a
# 100,000-game file (issue 21): the time (median of RUNS) and the diff, that
# only that game changed.
#
#   bench/save.sh [FILE.pgn...]        (or: make bench-save)
#
# Without files it writes SIZES (default "10000 100000") games (seed SEED,
# default 1) with bench/genpgn. For each file, on a copy: bench/save_time
# (load, game N, then RUNS times a comment and a timed `save`; the games
# before and after compared through the reader's spans), then diff(1) of the
# copy against the file: its hunks, and which games (by their [Event lines)
# they fall in.
#
# Environment: GENPGN, SAVE_TIMER (defaults: this tree's bench/genpgn,
# bench/save_time), SIZES, SEED, RUNS (default 7), GAME (default: the middle one).
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
GENPGN=${GENPGN:-$top/bench/genpgn}
SAVE_TIMER=${SAVE_TIMER:-$top/bench/save_time}
SIZES=${SIZES:-10000 100000}
SEED=${SEED:-1}
RUNS=${RUNS:-7}

[ -x "$SAVE_TIMER" ] || { echo "bench-save: $SAVE_TIMER not built (make bench-save)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    [ -x "$GENPGN" ] || { echo "bench-save: $GENPGN not built" >&2; exit 2; }
    for n in $SIZES; do
        echo "writing $n games (seed $SEED) with bench/genpgn..."
        "$GENPGN" "$tmp/games-$n.pgn" "$n" "$SEED" >/dev/null
        files+=("$tmp/games-$n.pgn")
    done
fi

echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
for file in "${files[@]}"; do
    echo
    echo "== $(basename "$file")"
    copy=$tmp/copy.pgn
    cp "$file" "$copy"
    cat "$copy" >/dev/null # the page cache, as for every run after the first
    "$SAVE_TIMER" "$copy" "$RUNS" ${GAME:+"$GAME"} || status=1
    # diff's view: the hunks, and the games (counted by [Event lines) they touch.
    diff "$file" "$copy" >"$tmp/diff" || true
    hunks=$(grep -c '^[0-9]' "$tmp/diff" || true)
    changed=$(grep -c '^[<>]' "$tmp/diff" || true)
    echo "diff: $hunks hunk(s), $changed line(s) removed or added:"
    grep '^[0-9]' "$tmp/diff" | while IFS= read -r hunk; do
        first=${hunk%%[acd,]*}
        game=$(head -n "$first" "$file" | grep -c '^\[Event ')
        echo "  $hunk (in game $game)"
    done
    sed -n '1,12p' "$tmp/diff" | cut -c1-100 | sed 's/^/    | /'
done
exit $status
