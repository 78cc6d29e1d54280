#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The coach's speed (issue 22): how soon `train FILE` shows its first puzzle
# in the session, and how fast a whole file is mined, on one worker and on
# one per core (the peer of the second is the first: the ratio is the gain
# of the extra cores).
#
# The file is the first GAMES (232) games of data/masters/1575-1861.pgn (all
# readable), unless FILE names another. For each run:
# - first puzzle: patzer in line mode, fresh user folders, the input
#   `train FILE` then `quit`; the time from the start of the process to the
#   status line that asks for the best move (the search goes on behind it);
# - mining: `patzer puzzles mine` at the session's depths (review 8,
#   verify 10) over the whole file: total time, the time to its first
#   puzzle, games per second per worker, and the CPU time it used (user +
#   system): on a loaded machine the wall time says little, and the CPU
#   time divided by the workers is what the whole file takes on that many
#   free cores.
# Each figure is the median of RUNS (3) runs. Not part of make check.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
PATZER=${PATZER:-$here/src/patzer}
GAMES=${GAMES:-232}
RUNS=${RUNS:-3}
CORES=${CORES:-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now_ms() { echo $((${EPOCHREALTIME/[.,]/} / 1000)); }
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

file=${FILE:-}
if [ -z "$file" ]; then
    file=$tmp/games.pgn
    awk -v n="$GAMES" '/^\[Event /{g++} g<=n' "$here/data/masters/1575-1861.pgn" >"$file"
fi
count=$(grep -c '^\[Event ' "$file")
echo "file: $file ($count games); patzer: $PATZER; $CORES cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"

# first_puzzle JOBS: ms from the start to the first puzzle's status line.
first_puzzle() {
    local home=$tmp/home-$1-$RANDOM
    mkdir -p "$home/config/patzer"
    echo "threads = $1" >"$home/config/patzer/patzer.conf"
    local start ms=-1 line
    start=$(now_ms)
    while IFS= read -r line; do
        case $line in
        *"find the best move"*)
            ms=$(($(now_ms) - start))
            break
            ;;
        esac
    done < <(printf 'train %s\nquit\n' "$file" |
        HOME=$home XDG_CONFIG_HOME=$home/config XDG_DATA_HOME=$home/data \
            XDG_STATE_HOME=$home/state "$PATZER" 2>&1)
    echo "$ms"
}

# mine JOBS: "seconds first games/s/job puzzles cpu-seconds" of one whole run.
mine() {
    rm -f "$tmp/set.txt" "$tmp/set.txt.part"
    local TIMEFORMAT='%U %S' cpu
    cpu=$({ time "$PATZER" puzzles mine --jobs "$1" --review-depth 8 --verify-depth 10 \
        --out "$tmp/set.txt" "$file" >"$tmp/mine.out" 2>/dev/null; } 2>&1)
    awk -v cpu="$cpu" '{for (i = 1; i < NF; i++) v[$i] = $(i + 1)}
        END {split(cpu, c, " "); print v["seconds"], v["first-puzzle"], v["games/s/job"], v["puzzles"], c[1] + c[2]}' "$tmp/mine.out"
}

declare -A total first rate latency found cpus
for jobs in 1 "$CORES"; do
    lat=() tot=() fir=() rat=() fnd=() cpu=()
    for run in $(seq "$RUNS"); do
        lat+=("$(first_puzzle "$jobs")")
        read -r t f r n c < <(mine "$jobs")
        tot+=("$t") fir+=("$f") rat+=("$r") fnd+=("$n") cpu+=("$c")
        echo "jobs $jobs run $run: first puzzle in the session ${lat[-1]} ms; mining $t s," \
            "first puzzle $f s, $r games/s/job, $n puzzles, $c CPU s"
    done
    latency[$jobs]=$(median "${lat[@]}")
    total[$jobs]=$(median "${tot[@]}")
    first[$jobs]=$(median "${fir[@]}")
    rate[$jobs]=$(median "${rat[@]}")
    found[$jobs]=$(median "${fnd[@]}")
    cpus[$jobs]=$(median "${cpu[@]}")
done

echo
echo "| workers | first puzzle, session (ms) | whole file (s) | first puzzle, mining (s) | games/s per worker | puzzles | CPU (s) | CPU / workers (s) |"
echo "|---|---|---|---|---|---|---|---|"
for jobs in 1 "$CORES"; do
    per=$(awk -v c="${cpus[$jobs]}" -v j="$jobs" 'BEGIN {printf "%.1f", c / j}')
    echo "| $jobs | ${latency[$jobs]} | ${total[$jobs]} | ${first[$jobs]} | ${rate[$jobs]} | ${found[$jobs]} | ${cpus[$jobs]} | $per |"
done
awk -v a="${total[1]}" -v b="${total[$CORES]}" -v c="$CORES" \
    'BEGIN { if (b > 0) printf "\nspeed-up of %d workers over 1: %.2fx\n", c, a / b }'
