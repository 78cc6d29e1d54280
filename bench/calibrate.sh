#!/bin/bash
# Calibrates the Elo labels of patzer's levels (`make calibrate`): matches
# against Debian's Stockfish limited with UCI_LimitStrength/UCI_Elo (its
# range is 1350..2850), then level against level to extend the scale below
# that. Prints one line per match (W-D-L, score, Elo difference), the
# estimate of every level (levels not measured are interpolated, the scale
# kept strictly increasing) and the array to put in engine/skill.c; with
# RESULTS=FILE it also writes the table as Markdown for bench/results/.
# Re-run it whenever the search or the evaluation changes: the labels are
# only as true as their last measurement.
#
# Settings (environment): GAMES per match (40), TC (3+0.03), CONCURRENCY (2),
# SF_MATCHES ("level:stockfish-elo ..."), LEVEL_MATCHES ("low:high ...",
# each low level measured against an already estimated higher one), OUT (the
# directory for the logs and games; a new temporary one by default).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
PATZER=${PATZER:-$here/src/patzer}
MATCH=${MATCH:-$here/../shared/tools/match.py}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
GAMES=${GAMES:-40}
TC=${TC:-3+0.03}
CONCURRENCY=${CONCURRENCY:-2}
RESULTS=${RESULTS:-}
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"

# Stockfish anchors spread over its range, one per odd level and the full
# engine; below Stockfish's floor, each odd level against the one above it.
sf_matches=${SF_MATCHES-"7:1350 9:1450 11:1600 13:1750 15:1950 17:2100 19:2300 20:2600"}
level_matches=${LEVEL_MATCHES-"5:7 3:5 1:3"}

for tool in "$PATZER" "$STOCKFISH"; do
    [ -x "$tool" ] || { echo "calibrate: $tool is not an executable" >&2; exit 2; }
done
[ -f "$MATCH" ] || { echo "calibrate: $MATCH not found" >&2; exit 2; }

elo_of() { # score in percent -> Elo difference, clamped to +-800
    python3 -c "import math,sys; s=float(sys.argv[1])/100; s=min(max(s,0.01),0.99); print(round(-400*math.log10(1/s-1)))" "$1"
}

# The level's current label, read from the source: UCI_Elo set to it selects
# the level (patzer picks the level whose label is nearest).
label_of() { # level
    awk -v l="$1" '/skill_level_elos\[/{on=1; next} on && /};/{exit}
        on {gsub(/,/," "); for (i = 1; i <= NF; i++) a[++n] = $i} END{print a[l]}' \
        "$here/engine/skill.c"
}

level_opts() { # option flag, level
    local flag=$1 level=$2
    [ "$level" -ge 20 ] && return
    printf '%s\n' "$flag" UCI_LimitStrength=true "$flag" "UCI_Elo=$(label_of "$level")"
}

run() { # name, match.py arguments... -> "W-D-L score"
    local name=$1
    shift
    if ! python3 "$MATCH" --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" \
        --report-every 0 --pgn "$out/$name.pgn" "$@" >"$out/$name.log" 2>&1; then
        echo "calibrate: match $name failed, see $out/$name.log" >&2
        exit 1
    fi
    local result wdl score
    result=$(grep -E '^Result' "$out/$name.log" | head -1)
    wdl=$(grep -oE '[0-9]+-[0-9]+-[0-9]+ \(W-D-L\)' <<<"$result" | head -1 | cut -d' ' -f1)
    score=$(grep -oE '= [0-9.]+%' <<<"$result" | head -1 | tr -dc '0-9.')
    [ -n "$wdl" ] && [ -n "$score" ] || {
        echo "calibrate: no result in $out/$name.log" >&2
        exit 1
    }
    echo "$wdl $score"
}

declare -A level_elo
rows=()
echo "matches ($GAMES games each at $TC, logs and games in $out):"
for pair in $sf_matches; do
    level=${pair%%:*} sf=${pair##*:}
    mapfile -t opts < <(level_opts --option1 "$level")
    read -r wdl score < <(run "L${level}_vs_SF${sf}" --engine "$PATZER uci" \
        --engine "$STOCKFISH" "${opts[@]}" --option2 UCI_LimitStrength=true \
        --option2 "UCI_Elo=$sf" --option Hash=16 --name1 "patzer-L$level" --name2 "sf-$sf")
    [ -n "${score:-}" ] || exit 1
    diff=$(elo_of "$score")
    level_elo[$level]=$((sf + diff))
    echo "  level $level vs Stockfish $sf: $wdl ($score%) -> $((sf + diff))"
    rows+=("| $level | vs Stockfish \`UCI_Elo\` $sf | $wdl | $score% | $((sf + diff)) |")
done
for pair in $level_matches; do
    low=${pair%%:*} high=${pair##*:}
    [ -n "${level_elo[$high]:-}" ] || {
        echo "calibrate: level $high must be measured before level $low" >&2
        exit 2
    }
    mapfile -t opts1 < <(level_opts --option1 "$low")
    mapfile -t opts2 < <(level_opts --option2 "$high")
    read -r wdl score < <(run "L${low}_vs_L${high}" --engine "$PATZER uci" \
        --engine "$PATZER uci" "${opts1[@]}" "${opts2[@]}" --name1 "L$low" --name2 "L$high")
    [ -n "${score:-}" ] || exit 1
    diff=$(elo_of "$score")
    level_elo[$low]=$((level_elo[$high] + diff))
    echo "  level $low vs level $high: $wdl ($score%) -> ${level_elo[$low]}"
    rows+=("| $low | vs level $high | $wdl | $score% | ${level_elo[$low]} |")
done

# Every level from the measured ones: linear between measured neighbours,
# the ends extended flat by the nearest step, then made strictly increasing.
measured=""
for level in "${!level_elo[@]}"; do measured+="$level:${level_elo[$level]} "; done
labels=$(python3 - "$measured" <<'EOF'
import sys
pts = sorted((int(a), int(b)) for a, b in (p.split(":") for p in sys.argv[1].split()))
def at(level):
    for (l0, e0), (l1, e1) in zip(pts, pts[1:]):
        if l0 <= level <= l1:
            return e0 + (e1 - e0) * (level - l0) / (l1 - l0)
    (l0, e0), (l1, e1) = (pts[0], pts[1]) if level < pts[0][0] else (pts[-2], pts[-1])
    return e0 + (e1 - e0) * (level - l0) / (l1 - l0)
out, last = [], None
for level in range(1, 21):
    e = int(round(at(level) / 10.0) * 10)
    if last is not None and e <= last:
        e = last + 10
    out.append(e)
    last = e
print(" ".join(map(str, out)))
EOF
)
echo "labels for levels 1..20: $labels"
echo "engine/skill.c: static const int skill_level_elos[SKILL_LEVEL_MAX] = { $(sed 's/ /, /g' <<<"$labels") };"

if [ -n "$RESULTS" ]; then
    {
        echo "| level | match | W-D-L | score | Elo |"
        echo "|---:|---|---|---:|---:|"
        printf '%s\n' "${rows[@]}"
        echo
        echo "Labels for levels 1..20: $labels"
    } >"$RESULTS.tmp" && mv "$RESULTS.tmp" "$RESULTS"
fi
