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
# Settings (environment): GAMES per match (80), TC (3+0.03), CONCURRENCY (2),
# SF_MATCHES ("level:stockfish-elo ..."), LEVEL_MATCHES ("low:high ...",
# each low level measured against an already estimated higher one), OUT (the
# directory for the logs and games; a new temporary one by default).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
PATZER=${PATZER:-$here/src/patzer}
MATCH=${MATCH:-$here/../shared/tools/match.py}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
GAMES=${GAMES:-80}
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

# The 95% error bar in Elo of a W-D-L result.
err_of() { # w d l
    python3 -c "import math,sys
w,d,l=map(int,sys.argv[1:]); n=w+d+l; s=(w+d/2)/n
se=math.sqrt((w*(1-s)**2+d*(0.5-s)**2+l*s*s)/n/n)
e=lambda x: -400*math.log10(1/min(max(x,0.01),0.99)-1)
print(round((e(s+1.96*se)-e(s-1.96*se))/2))" "$1" "$2" "$3"
}

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

declare -A level_elo level_err
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
    level_err[$level]=$(err_of ${wdl//-/ })
    echo "  level $level vs Stockfish $sf: $wdl ($score%) -> $((sf + diff)) +- ${level_err[$level]}"
    rows+=("| $level | vs Stockfish \`UCI_Elo\` $sf | $wdl | $score% | $((sf + diff)) ± ${level_err[$level]} |")
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
    # A chained level carries the error of the level it was measured against.
    level_err[$low]=$(python3 -c "import math; print(round(math.hypot($(err_of ${wdl//-/ }), ${level_err[$high]})))")
    echo "  level $low vs level $high: $wdl ($score%) -> ${level_elo[$low]} +- ${level_err[$low]}"
    rows+=("| $low | vs level $high | $wdl | $score% | ${level_elo[$low]} ± ${level_err[$low]} |")
done

# Every level from the measured ones. The levels' node budgets grow by the
# same factor per level, so their strength grows by about the same Elo per
# level: a straight line, weighted by each measurement's error bar, through
# the levels below 20 smooths out the noise of a few dozen games; the full
# engine (20) keeps its own measurement. Each level's distance from the line
# is printed with chi-squared: a level off the line beyond its error bar says
# the line, or that level's settings, need a look.
measured=""
for level in "${!level_elo[@]}"; do measured+="$level:${level_elo[$level]}:${level_err[$level]} "; done
labels=$(python3 - "$measured" 2>"$out/fit.txt" <<'EOF'
import sys
pts = sorted(tuple(int(v) for v in p.split(":")) for p in sys.argv[1].split())
line = [(l, e, max(err, 1) / 1.96) for l, e, err in pts if l < 20]
w = [1 / s ** 2 for _, _, s in line]
sw = sum(w)
sx = sum(wi * l for wi, (l, _, _) in zip(w, line))
sy = sum(wi * e for wi, (_, e, _) in zip(w, line))
sxx = sum(wi * l * l for wi, (l, _, _) in zip(w, line))
sxy = sum(wi * l * e for wi, (l, e, _) in zip(w, line))
slope = (sw * sxy - sx * sy) / (sw * sxx - sx * sx)
base = (sy - slope * sx) / sw
chi2 = sum(((e - base - slope * l) / s) ** 2 for l, e, s in line)
for l, e, s in line:
    print("  level %d: measured %d, line %d (%+d, sigma %d)"
          % (l, e, base + slope * l, e - base - slope * l, s), file=sys.stderr)
print("  line: %.0f + %.1f per level, chi2 %.1f for %d degrees of freedom"
      % (base, slope, chi2, len(line) - 2), file=sys.stderr)
out = [int(round((base + slope * l) / 10.0) * 10) for l in range(1, 20)]
full = [e for l, e, _ in pts if l == 20]
out.append(int(round(full[0] / 10.0) * 10) if full else out[-1] + int(round(slope)))
for i in range(1, len(out)):  # strictly increasing, whatever the data
    out[i] = max(out[i], out[i - 1] + 10)
print(" ".join(map(str, out)))
EOF
)
cat "$out/fit.txt"
echo "labels for levels 1..20: $labels"
echo "engine/skill.c: static const int skill_level_elos[SKILL_LEVEL_MAX] = { $(sed 's/ /, /g' <<<"$labels") };"

if [ -n "$RESULTS" ]; then
    {
        echo "| level | match | W-D-L | score | Elo (95%) |"
        echo "|---:|---|---|---:|---:|"
        printf '%s\n' "${rows[@]}"
        echo
        echo "The line through the levels below 20 (their distance from it, in Elo):"
        echo
        sed 's/^  /    /' "$out/fit.txt"
        echo
        echo "Labels for levels 1..20: $labels"
    } >"$RESULTS.tmp" && mv "$RESULTS.tmp" "$RESULTS"
fi
