#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/explore.sh: the opening explorer end to end in line mode: `index
# FILE...` (progress on stderr), `explore`, a listed move played, `explore`
# again; the games counted for every first move and every reply to 1. e4
# match the counts pgn-extract makes independently (games selected by the
# position after those moves, -x, and their Result tags); a corrupted index
# is rebuilt with a message, a changed file is indexed again, the files are
# remembered for later sessions (those that are gone left out), and without
# indexed files explore shows the player's archive.
#
# The fixtures are the files of tests/data that patzer and pgn-extract both
# read without an error. Skipped (exit 77) without pgn-extract.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
if [ -z "${PGN_EXTRACT:-}" ]; then
    PGN_EXTRACT=$(command -v pgn-extract || echo /usr/games/pgn-extract)
fi
if [ ! -x "$PGN_EXTRACT" ]; then
    echo "skip - pgn-extract is not installed (Debian: apt-get install pgn-extract)"
    exit 77
fi
files="cli_games.pgn cli_more.pgn review_blunders.pgn setup.pgn bom_crlf.pgn"
for f in $files; do need_file "$src/tests/data/pgn/$f"; done
need_file "$src/tests/data/coach/blunders.pgn" "$src/tests/data/explore/lines.pgn"
make_tmp
mkdir -p "$tmp/games" "$tmp/home"
for f in $files; do cp --no-preserve=mode "$src/tests/data/pgn/$f" "$tmp/games/"; done
cp --no-preserve=mode "$src/tests/data/coach/blunders.pgn" "$src/tests/data/explore/lines.pgn" "$tmp/games/"
pgns=$(cd "$tmp/games" && ls ./*.pgn | sed 's|^\./||' | tr '\n' ' ')

export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/config XDG_STATE_HOME=$tmp/home/state \
    XDG_DATA_HOME=$tmp/home/data XDG_CACHE_HOME=$tmp/home/cache

# session LINES: line mode in the games folder; stdout in $tmp/out, stderr in $tmp/err.
session() {
    printf '%s\n' "$@" >"$tmp/in"
    RUN_DIR=$tmp/games RUN_INPUT=$tmp/in RUN_TIMEOUT=60 run_patzer --new
}

# table N: the rows of the Nth explorer table of $tmp/out as "SAN GAMES W% D% B%".
table() {
    awk -v want="$1" '
        /^move +games +white +draws +black +rating +book$/ { n++; on = (n == want); next }
        /^Type a move/ { on = 0 }
        on { print $1, $2, $3, $4, $5 }' "$tmp/out"
}

# extract_count MOVES...: games of the fixtures that reach the position after
# MOVES (from the start), then "W D B" from their Result tags.
extract_count() {
    printf '%s\n' "$*" >"$tmp/var.txt"
    (cd "$tmp/games" && "$PGN_EXTRACT" -s -x "$tmp/var.txt" $pgns -o "$tmp/sel.pgn") 2>/dev/null
    local games w d b
    games=$(grep -c '^\[Event ' "$tmp/sel.pgn")
    w=$(grep -c '^\[Result "1-0"\]' "$tmp/sel.pgn")
    d=$(grep -c '^\[Result "1/2-1/2"\]' "$tmp/sel.pgn")
    b=$(grep -c '^\[Result "0-1"\]' "$tmp/sel.pgn")
    echo "$games $w $d $b"
}

pct() { # PART WHOLE: rounded percentage, "-" of nothing
    if [ "$2" -eq 0 ]; then echo -; else echo "$(((200 * $1 + $2) / (2 * $2)))%"; fi
}

# compare NAME TABLE PREFIX...: each row's games and White/draw/Black shares
# equal those of the games pgn-extract selects.
compare() {
    local name=$1 rows=$2 san games w d b
    shift 2
    local bad="" n=0
    while read -r san games w d b; do
        [ "$games" = "-" ] && continue # a book move no game played
        n=$((n + 1))
        local want ww wd wb all
        read -r want ww wd wb <<<"$(extract_count "$@" "$san")"
        all=$((ww + wd + wb))
        local got="$games $w $d $b"
        local exp="$want $(pct "$ww" $all) $(pct "$wd" $all) $(pct "$wb" $all)"
        [ "$got" = "$exp" ] || bad+="$san: explorer $got, pgn-extract $exp"$'\n'
    done <<<"$rows"
    if [ -z "$bad" ] && [ "$n" -gt 0 ]; then
        pass "$name ($n moves agree with pgn-extract)"
    else
        fail "$name" "${bad:-no rows}"
    fi
}

# --- index, explore, a listed move, explore again -------------------------

session "play both" "index $pgns" "explore" "e4" "explore" "quit"
out=$(cat "$tmp/out")
err=$(cat "$tmp/err")
check "index reports each file" has "$out" "Indexed blunders.pgn:"
check "indexes beside the files" test -s "$tmp/games/cli_games.pgn.pzx"
check "progress on stderr with positions/s and ETA" \
    grep -qE '^Indexing .*\[[#-]+\] [0-9]+%.*positions/s, ETA' "$tmp/err"
lacks "$out" "positions/s, ETA" && pass "no progress lines on stdout" ||
    fail "no progress lines on stdout" "$out"
check "the explorer's title" has "$out" "Opening explorer: "
check "the book's column" grep -qE '^e4 +[0-9]+ +[0-9]+% +[0-9]+% +[0-9]+% +[-0-9]+ +[0-9]+%$' \
    "$tmp/out"
first=$(table 1)
after=$(table 2)
[ -n "$first" ] && [ -n "$after" ] && pass "two tables" || fail "two tables" "$out"
compare "first moves" "$first"
compare "replies to 1. e4" "$after" e4

# The average rating of 1. e4's games, from their Elo tags.
(cd "$tmp/games" && printf 'e4\n' >"$tmp/var.txt" &&
    "$PGN_EXTRACT" -s -x "$tmp/var.txt" $pgns -o "$tmp/sel.pgn") 2>/dev/null
want=$(awk '/^\[Event /{ if (n) emit(); n = 1; w = b = 0 }
    /^\[WhiteElo "[0-9]+"\]/ { split($0, a, "\""); w = a[2] }
    /^\[BlackElo "[0-9]+"\]/ { split($0, a, "\""); b = a[2] }
    function emit() { k = (w > 0) + (b > 0); if (k) { sum += int((w + b) / k); rated++ } }
    END { emit(); printf "%d\n", (sum + int(rated / 2)) / rated }' "$tmp/sel.pgn")
got=$(awk '$1 == "e4" && $2 ~ /^[0-9]+$/ { print $6; exit }' "$tmp/out")
[ "$got" = "$want" ] && pass "1. e4's average rating ($got)" ||
    fail "1. e4's average rating" "explorer $got, from the Elo tags $want"

# --- the index is used again, rebuilt when damaged or changed ---------------

session "index cli_games.pgn missing.pgn ." "quit"
check "an index up to date is used as it is" has "$(cat "$tmp/out")" \
    "cli_games.pgn: indexed already (3 games"
check "a missing file is named" has "$(cat "$tmp/out")" "Error: Cannot read missing.pgn: "
check "a folder is refused" has "$(cat "$tmp/out")" "Error: . is not a PGN file."


printf 'X' | dd of="$tmp/games/cli_games.pgn.pzx" bs=1 seek=200 conv=notrunc status=none
session "play both" "index $pgns" "explore" "quit"
out=$(cat "$tmp/out")
check "a corrupted index is found" has "$out" "cli_games.pgn.pzx: its records are corrupted"
check "and rebuilt" has "$out" "Indexed cli_games.pgn:"
[ "$(table 1)" = "$first" ] && pass "the same table after the rebuild" ||
    fail "the same table after the rebuild" "$(table 1)"

head -c 100 "$tmp/games/cli_more.pgn.pzx" >"$tmp/short" && mv "$tmp/short" "$tmp/games/cli_more.pgn.pzx"
printf '\n[Result "0-1"]\n\n1. e4 c5 0-1\n' >>"$tmp/games/cli_games.pgn"
session "play both" "index $pgns" "explore" "quit"
out=$(cat "$tmp/out")
check "a truncated index is found" has "$out" "cli_more.pgn.pzx: truncated"
check "a changed file is indexed again" has "$out" \
    "cli_games.pgn: the file changed since it was indexed; indexing it again."
compare "first moves after the change" "$(table 1)"

# --- the files are remembered; the archive when there are none -------------

session "explore" "quit"
check "a later session explores the files indexed before" has "$(cat "$tmp/out")" \
    "games in blunders.pgn, bom_crlf.pgn, cli_games.pgn"
check "their list is kept in the state folder" grep -qx "$tmp/games/lines.pgn" \
    "$XDG_STATE_HOME/patzer/explore"
mv "$tmp/games/setup.pgn" "$tmp/setup.pgn"
session "explore" "quit"
check "a file that is gone is left out" has "$(cat "$tmp/out")" \
    "$tmp/games/setup.pgn is gone; explore leaves it out."
lacks "$(cat "$tmp/out")" "setup.pgn," && pass "and not explored" || fail "and not explored"

mkdir -p "$XDG_DATA_HOME/patzer"
cp --no-preserve=mode "$src/tests/data/coach/blunders.pgn" "$XDG_DATA_HOME/patzer/games.pgn"
export XDG_STATE_HOME=$tmp/home/state2
session "explore" "quit"
check "without indexed files, the archive is explored" has "$(cat "$tmp/out")" \
    "of 5 games in games.pgn"

finish
