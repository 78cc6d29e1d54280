#!/bin/bash
# Do the levels make mistakes of a human's size? (`make bench-humanlike`)
# Each level in LEVELS plays GAMES games against itself (shared/tools/match.py,
# the shared openings, TC); every move of those games and of the human games
# of bench/data/lichess_sample.pgn whose mover is rated within BAND of the
# level's label is judged by Debian's Stockfish at DEPTH (bench/humanlike.py:
# inaccuracies, mistakes and blunders per 100 moves, the mean loss of winning
# chances, free pieces and short mates missed, with 95% error bars). Prints a
# Markdown table, a level's row beside the humans of its rating; with
# RESULTS=FILE it also writes the table there.
#
# Settings (environment): LEVELS ("3 6 9 12"), GAMES per level (16), TC
# (10+0.1; the levels search a fixed number of nodes, so the clock hardly
# matters), DEPTH (10), BAND (125), HUMAN_GAMES per band at most (40), JOBS
# (2), OUT (logs, games and the evaluation cache; a new temporary directory
# by default: give the same OUT again to reuse the cache), PATZER, STOCKFISH,
# MATCH. About 20 minutes on 2 free cores with the defaults.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
PATZER=${PATZER:-$here/src/patzer}
MATCH=${MATCH:-$here/../shared/tools/match.py}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
HUMAN=${HUMAN:-$here/bench/data/lichess_sample.pgn}
LEVELS=${LEVELS:-3 6 9 12}
GAMES=${GAMES:-16}
TC=${TC:-10+0.1}
DEPTH=${DEPTH:-10}
BAND=${BAND:-125}
HUMAN_GAMES=${HUMAN_GAMES:-40}
JOBS=${JOBS:-2}
RESULTS=${RESULTS:-}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
export STOCKFISH

for tool in "$PATZER" "$STOCKFISH"; do
    [ -x "$tool" ] || { echo "humanlike: $tool is not an executable" >&2; exit 2; }
done
for file in "$MATCH" "$HUMAN"; do
    [ -f "$file" ] || { echo "humanlike: $file not found" >&2; exit 2; }
done

# The level's label, read from the source (UCI_Elo set to it selects it).
label_of() { # level
    awk -v l="$1" '/skill_level_elos\[/{on=1; next} on && /};/{exit}
        on {gsub(/,/," "); for (i = 1; i <= NF; i++) a[++n] = $i} END{print a[l]}' \
        "$here/engine/skill.c"
}

samples=()
echo "games in $out ($GAMES a level at $TC, judged at depth $DEPTH):" >&2
for level in $LEVELS; do
    label=$(label_of "$level")
    pgn=$out/L$level.pgn
    if [ ! -s "$pgn" ]; then
        opts=()
        [ "$level" -lt 20 ] && opts=(--option UCI_LimitStrength=true --option "UCI_Elo=$label")
        if ! python3 "$MATCH" --engine "$PATZER uci" --engine "$PATZER uci" "${opts[@]}" \
            --option Hash=16 --games "$GAMES" --tc "$TC" --concurrency "$JOBS" \
            --report-every 0 --no-pgn-comments --pgn "$pgn" --name1 "L$level" \
            --name2 "L$level" >"$out/L$level.log" 2>&1; then
            echo "humanlike: the games of level $level failed, see $out/L$level.log" >&2
            exit 1
        fi
    fi
    samples+=("level $level ($label)=$pgn")
    samples+=("lichess $((label - BAND))-$((label + BAND))=$HUMAN:$((label - BAND))-$((label + BAND))@$HUMAN_GAMES")
done

table=$(python3 "$here/bench/humanlike.py" --depth "$DEPTH" --jobs "$JOBS" \
    --cache "$out/evals.tsv" --markdown "${samples[@]}") || exit 1
echo "$table"
if [ -n "$RESULTS" ]; then
    printf '%s\n' "$table" >"$RESULTS.tmp" && mv "$RESULTS.tmp" "$RESULTS"
fi
