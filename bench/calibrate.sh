#!/bin/bash
# Calibrates the Elo labels of patzer's levels: matches against Debian's
# Stockfish with UCI_LimitStrength/UCI_Elo (which goes down to 1350), then
# level against level to extrapolate below that. Prints one line per match
# (W-D-L, score, Elo difference) and the resulting estimate per level.
# Takes a while: GAMES games per match (default 40) at TC (default 3+0.03).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
PATZER=${PATZER:-$here/src/patzer}
MATCH=${MATCH:-$here/../shared/tools/match.py}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
GAMES=${GAMES:-40}
TC=${TC:-3+0.03}
CONCURRENCY=${CONCURRENCY:-2}
out=${OUT:-$(mktemp -d)}

# level:stockfish-elo pairs, then level:level pairs below Stockfish's range.
sf_matches=${SF_MATCHES-"20:2850 17:2300 14:1950 11:1650 9:1400"}
level_matches=${LEVEL_MATCHES-"7:9 5:7 3:5 1:3"}

elo_of() { # score (0..1) -> Elo difference, clamped to +-800
    python3 -c "import math,sys; s=float(sys.argv[1]); s=min(max(s,0.01),0.99); print(round(-400*math.log10(1/s-1)))" "$1"
}

run() { # name, match.py arguments...
    local name=$1
    shift
    python3 "$MATCH" --games "$GAMES" --tc "$TC" --concurrency "$CONCURRENCY" \
        --report-every 0 --pgn "$out/$name.pgn" "$@" >"$out/$name.log" 2>&1
    local result
    result=$(grep -E '^Result' "$out/$name.log" | head -1)
    local wdl score
    wdl=$(grep -oE '[0-9]+-[0-9]+-[0-9]+ \(W-D-L\)' <<<"$result" | head -1 | cut -d' ' -f1)
    score=$(grep -oE '= [0-9.]+%' <<<"$result" | head -1 | tr -dc '0-9.')
    echo "$name $wdl ${score:-?}%"
}

# The UCI options that put patzer at a level: UCI_Elo set to the level's
# current label selects it; level 20 is full strength, no limit.
level_opts() { # option flag, level
    local flag=$1 level=$2
    [ "$level" -ge 20 ] && return
    local elo
    elo=$(awk -v l="$level" '/skill_level_elos\[/{on=1; next} on && /};/{exit}
        on {gsub(/,/," "); for (i = 1; i <= NF; i++) a[++n] = $i} END{print a[l]}' \
        "$here/engine/skill.c")
    printf '%s\n' "$flag" UCI_LimitStrength=true "$flag" "UCI_Elo=$elo"
}

declare -A level_elo
echo "matches ($GAMES games each at $TC):"
for pair in $sf_matches; do
    level=${pair%%:*} sf=${pair##*:}
    mapfile -t opts < <(level_opts --option1 "$level")
    line=$(run "L${level}_vs_SF${sf}" --engine "$PATZER uci" --engine "$STOCKFISH" "${opts[@]}" \
        --option2 UCI_LimitStrength=true --option2 "UCI_Elo=$sf" --option Hash=16 \
        --name1 "patzer-L$level" --name2 "sf-$sf")
    score=$(awk '{print $3}' <<<"$line" | tr -d '%')
    diff=$(elo_of "$(python3 -c "print(${score:-50}/100)")")
    level_elo[$level]=$((sf + diff))
    echo "  $line  -> level $level ~ $((sf + diff))"
done
for pair in $level_matches; do
    low=${pair%%:*} high=${pair##*:}
    mapfile -t opts1 < <(level_opts --option1 "$low")
    mapfile -t opts2 < <(level_opts --option2 "$high")
    line=$(run "L${low}_vs_L${high}" --engine "$PATZER uci" --engine "$PATZER uci" \
        "${opts1[@]}" "${opts2[@]}" --name1 "L$low" --name2 "L$high")
    score=$(awk '{print $3}' <<<"$line" | tr -d '%')
    diff=$(elo_of "$(python3 -c "print(${score:-50}/100)")")
    base=${level_elo[$high]:-0}
    level_elo[$low]=$((base + diff))
    echo "  $line  -> level $low ~ $((base + diff))"
done
echo "logs and games in $out"
