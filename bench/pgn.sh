#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/pgn.sh: compare the speed of "patzer pgn" with Debian's pgn-extract
# reading and validating (playing every move of) the same large PGN file.
#
#   bench/pgn.sh [FILE.pgn]        (or: make bench-pgn)
#
# Without FILE it writes GAMES pseudo-random games (seed SEED) with
# bench/genpgn into a temporary file, so every run measures the same input.
# It first checks that both programs read the same number of games and agree
# on how many are valid (these runs also warm the page cache), then runs
# "patzer pgn FILE" and "pgn-extract -r -s FILE" (-r: check the games and
# report errors, write no games; -s: no per-game progress) alternately, RUNS
# times each, with all output discarded. It prints the median wall and CPU
# times, games per second, and the ratio pgn-extract time / patzer time; the
# bar (BAR, default 2) is judged on the median wall times.
#
# With BASELINE set to another patzer binary (e.g. the build before a
# change), it is checked to agree and timed in the same alternating runs, and
# the ratio baseline time / patzer time is printed too (above 1: faster now).
#
# Environment: PATZER (default: src/patzer of this tree), BASELINE (none),
# GENPGN (default:
# bench/genpgn of this tree; built by "make bench-pgn"), PGN_EXTRACT (default:
# pgn-extract in PATH, else /usr/games/pgn-extract), RUNS (default 5),
# BAR (default 2), GAMES (default 20000), SEED (default 1).
#
# Exit status: 0 after a complete run (whether or not the bar is met), 1 when
# the programs disagree or fail, 2 for a missing program or bad arguments.

set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)

PATZER=${PATZER:-$top/src/patzer}
GENPGN=${GENPGN:-$top/bench/genpgn}
RUNS=${RUNS:-5}
BAR=${BAR:-2}
GAMES=${GAMES:-20000}
SEED=${SEED:-1}

die() { # status message
    echo "bench-pgn: $2" >&2
    exit "$1"
}

if [ $# -gt 1 ]; then
    die 2 "usage: bench/pgn.sh [FILE.pgn]"
fi
if [ -z "${PGN_EXTRACT:-}" ]; then
    if command -v pgn-extract >/dev/null 2>&1; then
        PGN_EXTRACT=$(command -v pgn-extract)
    elif [ -x /usr/games/pgn-extract ]; then
        PGN_EXTRACT=/usr/games/pgn-extract
    else
        die 2 "pgn-extract not found (Debian/Ubuntu: apt-get install pgn-extract; it installs /usr/games/pgn-extract)"
    fi
fi
[ -x "$PGN_EXTRACT" ] || die 2 "$PGN_EXTRACT is not an executable pgn-extract (set PGN_EXTRACT)"
[ -x "$PATZER" ] || die 2 "$PATZER is not built (run make first, or set PATZER)"
BASELINE=${BASELINE:-}
[ -z "$BASELINE" ] || [ -x "$BASELINE" ] || die 2 "BASELINE=$BASELINE is not an executable"
case $RUNS in
    '' | *[!0-9]* | 0) die 2 "RUNS must be a positive integer" ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/patzer-bench-pgn.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ $# -eq 1 ]; then
    file=$1
    [ -r "$file" ] || die 2 "cannot read $file"
    origin="given"
else
    [ -x "$GENPGN" ] || die 2 "$GENPGN is not built (run make bench-pgn, or set GENPGN)"
    file=$tmp/games.pgn
    echo "generating $GAMES games (seed $SEED) with $GENPGN ..."
    "$GENPGN" "$file" "$GAMES" "$SEED" || die 1 "genpgn failed"
    origin="generated, $GAMES games, seed $SEED"
fi
bytes=$(wc -c <"$file")

# ------------------------------------------------------------ agreement

# patzer: one stdout line per valid game, one "FILE:LINE:COL: ..." stderr
# line per invalid game; status 0 or 1 (2 is an I/O error).
set +e
"$PATZER" pgn "$file" >"$tmp/patzer.out" 2>"$tmp/patzer.err"
status=$?
set -e
[ "$status" -le 1 ] || die 1 "patzer pgn failed (status $status): $(head -c 300 "$tmp/patzer.err")"
p_valid=$(wc -l <"$tmp/patzer.out")
p_invalid=$(grep -c ':[0-9]*:[0-9]*: game [0-9]*: ' "$tmp/patzer.err" || true)
p_total=$((p_valid + p_invalid))

# pgn-extract ends its report with "M games matched out of N." (without -s).
"$PGN_EXTRACT" -r "$file" >/dev/null 2>"$tmp/extract.err" ||
    die 1 "pgn-extract failed: $(tail -c 300 "$tmp/extract.err")"
read -r e_valid e_total < <(tr '\r' '\n' <"$tmp/extract.err" |
    sed -n 's/^\([0-9]*\) games* matched out of \([0-9]*\)\.$/\1 \2/p' | tail -n 1)
[ -n "${e_total:-}" ] || die 1 "no game count in pgn-extract's report: $(tail -c 300 "$tmp/extract.err")"
if [ "$p_total" -ne "$e_total" ] || [ "$p_valid" -ne "$e_valid" ]; then
    die 1 "the programs disagree: patzer $p_valid valid of $p_total games, pgn-extract $e_valid of $e_total"
fi
[ "$p_total" -gt 0 ] || die 1 "$file holds no games"
if [ -n "$BASELINE" ]; then
    set +e
    "$BASELINE" pgn "$file" >"$tmp/base.out" 2>"$tmp/base.err"
    status=$?
    set -e
    [ "$status" -le 1 ] || die 1 "baseline pgn failed (status $status)"
    cmp -s "$tmp/base.out" "$tmp/patzer.out" ||
        die 1 "the baseline and patzer report different games ($tmp/base.out vs patzer.out)"
fi

# ------------------------------------------------------------ timing

# timed OUTVAR COMMAND...: runs COMMAND with all output discarded; sets OUTVAR
# to "WALL CPU" in seconds (CPU = user + system).
timed() {
    local var=$1 t
    shift
    local TIMEFORMAT='%3R %3U %3S'
    t=$( { time "$@" >/dev/null 2>&1; } 2>&1) || true
    printf -v "$var" '%s' "$(awk '{ printf "%.3f %.3f", $1, $2 + $3 }' <<<"$t")"
}

median() { # numbers...
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "patzer:      $PATZER pgn FILE"
echo "pgn-extract: $PGN_EXTRACT -r -s FILE ($("$PGN_EXTRACT" --version 2>&1 | head -n 1 || true))"
echo "file:        $file ($origin; $bytes bytes)"
echo "games:       $p_total ($p_valid valid), the same count for both programs"
[ -z "$BASELINE" ] || echo "baseline:    $BASELINE pgn FILE (same valid games and summaries)"
echo "runs:        $RUNS per program (alternating)"
echo

p_wall=() p_cpu=() e_wall=() e_cpu=() b_wall=() b_cpu=()
for ((i = 1; i <= RUNS; i++)); do
    if [ -n "$BASELINE" ]; then
        timed r "$BASELINE" pgn "$file"
        b_wall+=("${r% *}") b_cpu+=("${r#* }")
    fi
    timed r "$PATZER" pgn "$file"
    p_wall+=("${r% *}") p_cpu+=("${r#* }")
    timed r "$PGN_EXTRACT" -r -s "$file"
    e_wall+=("${r% *}") e_cpu+=("${r#* }")
done
pw=$(median "${p_wall[@]}") pc=$(median "${p_cpu[@]}")
ew=$(median "${e_wall[@]}") ec=$(median "${e_cpu[@]}")

awk -v g="$p_total" -v b="$bytes" -v pw="$pw" -v pc="$pc" -v ew="$ew" -v ec="$ec" 'BEGIN {
    if (pw <= 0) pw = 0.001
    if (pc <= 0) pc = 0.001
    printf "              median wall   median CPU      games/s (wall)   MB/s (wall)\n"
    printf "  patzer      %9.3f s  %9.3f s  %15.0f  %12.1f\n", pw, pc, g / pw, b / pw / 1e6
    printf "  pgn-extract %9.3f s  %9.3f s  %15.0f  %12.1f\n", ew, ec, g / ew, b / ew / 1e6
    printf "\nratio pgn-extract time / patzer time: %.2f (wall), %.2f (CPU)\n", ew / pw, ec / pc
}'
if [ -n "$BASELINE" ]; then
    bw=$(median "${b_wall[@]}") bc=$(median "${b_cpu[@]}")
    awk -v g="$p_total" -v pw="$pw" -v pc="$pc" -v bw="$bw" -v bc="$bc" 'BEGIN {
        if (pw <= 0) pw = 0.001
        if (pc <= 0) pc = 0.001
        printf "  baseline    %9.3f s  %9.3f s  %15.0f\n", bw, bc, g / bw
        printf "ratio baseline time / patzer time: %.3f (wall), %.3f (CPU)\n", bw / pw, bc / pc
    }'
fi
ratio=$(awk -v p="$pw" -v e="$ew" 'BEGIN { if (p <= 0) p = 0.001; printf "%.2f", e / p }')
if awk -v r="$ratio" -v b="$BAR" 'BEGIN { exit !(r + 0 >= b + 0) }'; then
    echo "bar met: patzer pgn is at least ${BAR}x as fast as pgn-extract (ratio $ratio)"
else
    echo "bar NOT met: patzer pgn needs to be at least ${BAR}x as fast as pgn-extract (ratio $ratio)"
fi
