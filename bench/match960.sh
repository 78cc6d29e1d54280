#!/bin/bash
# bench/match960.sh: a Chess960 match, patzer against another UCI engine
# (default Debian's Ethereal 12), run by fastchess with -variant fischerandom.
#
#   GAMES=200 TC=10+0.1 bench/match960.sh      (or: make bench-match960)
#
# Each start position (Scharnagl numbers drawn with bash's RANDOM from SEED)
# is played twice, colours swapped. Prints fastchess's summary, then the
# game endings counted from the PGN: illegal moves, time losses and crashes
# (fastchess's "illegal move", "time forfeit" and "abandoned" terminations)
# for each engine.
#
# Environment: PATZER (default src/patzer), OPPONENT (default
# /usr/games/ethereal-chess, apt-get install ethereal-chess), FASTCHESS
# (default fastchess in PATH; build it from github.com/Disservin/fastchess),
# GAMES (default 200), TC (default 10+0.1), CONCURRENCY (default 1), SEED
# (default 960), OUT (default /tmp/patzer-match960; the PGN and the log).

set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
PATZER=${PATZER:-$top/src/patzer}
OPPONENT=${OPPONENT:-/usr/games/ethereal-chess}
FASTCHESS=${FASTCHESS:-$(command -v fastchess || true)}
GAMES=${GAMES:-200}
TC=${TC:-10+0.1}
CONCURRENCY=${CONCURRENCY:-1}
SEED=${SEED:-960}
OUT=${OUT:-/tmp/patzer-match960}
# shellcheck source=bench/chess960.sh
source "$here/chess960.sh"

for v in GAMES CONCURRENCY SEED; do
    case ${!v} in
        '' | *[!0-9]* | 0) echo "bench-match960: $v must be a positive integer" >&2; exit 1 ;;
    esac
done
[ -x "$PATZER" ] || { echo "bench-match960: $PATZER is not built" >&2; exit 1; }
[ -x "$OPPONENT" ] || { echo "bench-match960: no $OPPONENT (apt-get install ethereal-chess)" >&2; exit 1; }
if [ -z "$FASTCHESS" ] || [ ! -x "$FASTCHESS" ]; then
    echo "bench-match960: fastchess not found (build github.com/Disservin/fastchess, set FASTCHESS)" >&2
    exit 1
fi

mkdir -p "$OUT"
book=$OUT/starts.epd pgn=$OUT/games.pgn log=$OUT/fastchess.log
rm -f "$pgn"
RANDOM=$SEED
rounds=$(((GAMES + 1) / 2))
for ((i = 0; i < rounds; i++)); do
    start_fen $((RANDOM % 960))
    echo
done >"$book"

echo "patzer:   $PATZER"
echo "opponent: $OPPONENT"
echo "games:    $((2 * rounds)) at $TC, $rounds start positions (seed $SEED), concurrency $CONCURRENCY"
"$FASTCHESS" -variant fischerandom \
    -engine cmd="$PATZER" args=uci name=patzer \
    -engine cmd="$OPPONENT" name=opponent \
    -each tc="$TC" option.Hash=16 option.Threads=1 \
    -openings file="$book" format=epd order=sequential \
    -rounds "$rounds" -games 2 -repeat -concurrency "$CONCURRENCY" \
    -pgnout file="$pgn" >"$log" 2>&1 || true
grep -E '^(Results of|Elo:|LOS:|Games:|Ptnml)' "$log" | tail -5

# Endings from the PGN: who lost each game, and how.
awk '
    /^\[White "/ { w = $2; gsub(/[]"]/, "", w) }
    /^\[Black "/ { b = $2; gsub(/[]"]/, "", b) }
    /^\[Result "/ { r = $2; gsub(/[]"]/, "", r) }
    /^\[Termination "/ {
        t = $0; sub(/^\[Termination "/, "", t); sub(/"\]$/, "", t)
        loser = r == "1-0" ? b : r == "0-1" ? w : "-"
        if (t ~ /illegal/) illegal[loser]++
        else if (t ~ /time/) time[loser]++
        else if (t ~ /abandon|disconnect|crash|stall/) crash[loser]++
        ends[t]++
    }
    END {
        for (t in ends) printf "termination %-24s %d\n", t, ends[t]
        split("patzer opponent", names, " ")
        for (i = 1; i <= 2; i++) {
            n = names[i]
            printf "%-8s illegal moves %d, time losses %d, crashes %d\n", n, illegal[n] + 0,
                time[n] + 0, crash[n] + 0
        }
    }' "$pgn"
echo "PGN: $pgn  log: $log"
