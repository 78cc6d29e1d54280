#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/annotate.sh: `patzer annotate` reviews the games of a PGN file and
# writes them back as valid PGN with evaluation comments, the blunders marked
# $4 (??) with a better line, and an Annotator tag; a bad game is reported as
# FILE:LINE:COL and left out (exit 1); bad usage exits 2.
#
# Run by "make check" with $PATZER and $srcdir set, or by hand from the
# source tree. Prints "N passed, M failed" last; exits 1 on any failure.
# ANNOTATE_MOVETIME (ms, default 50) gives slow builds (sanitizers) more time.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
fixture=$src/tests/data/pgn/review_blunders.pgn
movetime=${ANNOTATE_MOVETIME:-50}
# The fixture is searched to a fixed depth, so that the marks do not depend
# on how fast the build is (sanitizer builds are many times slower).
depth=${ANNOTATE_DEPTH:-8}
need_file "$fixture"
make_tmp

# run ARGS...: `patzer annotate ARGS...` (see run_patzer).
run() {
    run_patzer annotate "$@"
}

# The output flattened to one line, for patterns across line breaks.
flat() {
    tr '\n' ' ' <"$tmp/out"
}

# valid_pgn FILE GAMES: FILE holds GAMES games that a PGN reader accepts,
# checked with `patzer pgn` when this build has it, else pgn-extract.
valid_pgn() {
    local file=$1 games=$2 out
    if "$PATZER" pgn --help >/dev/null 2>&1; then
        if out=$("$PATZER" pgn "$file" 2>&1) && [ "$(grep -c . <<<"$out")" -eq "$games" ]; then
            pass "output is valid PGN (patzer pgn: $games games)"
        else
            fail "output is valid PGN (patzer pgn)" "$out"
        fi
    elif [ -x /usr/games/pgn-extract ] || command -v pgn-extract >/dev/null 2>&1; then
        local tool=/usr/games/pgn-extract
        [ -x "$tool" ] || tool=pgn-extract
        out=$("$tool" -r "$file" 2>&1)
        if [[ $out == *"$games games matched out of $games"* && $out != *"Line number"* ]]; then
            pass "output is valid PGN (pgn-extract: $games games)"
        else
            fail "output is valid PGN (pgn-extract)" "$out"
        fi
    else
        echo "skip - no PGN checker (patzer pgn or pgn-extract)"
    fi
}

# ------------------------------------------------------------------ the fixture

start=$(date +%s%N)
run "$fixture" --depth "$depth"
end=$(date +%s%N)
echo "# annotated 13 plies at depth ${depth} in $(((end - start) / 1000000)) ms"
if [ "$status" -eq 0 ]; then pass "fixture: exit status 0"; else
    fail "fixture: exit status $status" "$(cat "$tmp/err")"; fi
if [ ! -s "$tmp/err" ]; then pass "fixture: nothing on stderr (not a terminal)"; else
    fail "fixture: stderr not empty" "$(cat "$tmp/err")"; fi
cp "$tmp/out" "$tmp/annotated.pgn"
valid_pgn "$tmp/annotated.pgn" 2
if [ "$(grep -c '^\[Annotator "patzer [^"]*"\]$' "$tmp/out")" -eq 2 ]; then
    pass "an Annotator tag per game"
else
    fail "an Annotator tag per game" "$(cat "$tmp/out")"
fi
text=$(flat)
if [[ $text == *"3... Nf6 \$4 {Blunder ("*" to #1). Better was 3... "*".} (3... "* ]]; then
    pass "3...Nf6 walks into mate: \$4 (??), comment and better line"
else
    fail "3...Nf6 walks into mate: \$4 (??), comment and better line" "$(cat "$tmp/out")"
fi
if [[ $text == *"2. Qg4 \$4 {Blunder (+"*" to -"*"). Better was 2. "*".} (2. "* ]]; then
    pass "2.Qg4 hangs the queen: \$4 (??), comment and better line"
else
    fail "2.Qg4 hangs the queen: \$4 (??), comment and better line" "$(cat "$tmp/out")"
fi
if grep -Eq '^1\. e4 \{[+-]?[0-9]+\.[0-9]{2}\} 1\.\.\. e5 \{[+-]?[0-9]+\.[0-9]{2}\}' "$tmp/out"; then
    pass "evaluation comments after the moves"
else
    fail "evaluation comments after the moves" "$(cat "$tmp/out")"
fi
if [[ $text == *"4. Qxf7# 1-0"* ]]; then pass "no evaluation after the mate"; else
    fail "no evaluation after the mate" "$(cat "$tmp/out")"; fi
if [[ $text == *"2... Bxg4 {-"* && $text != *"Bxg4 \$"* ]]; then
    pass "2...Bxg4 unmarked, Black ahead"
else
    fail "2...Bxg4 unmarked, Black ahead" "$(cat "$tmp/out")"
fi

# --wc-pawn: a scale ten times as large weighs every loss in centipawns ten
# times less, so it marks no more moves; walking into a mate stays ??.
marks_default=$(grep -o '\$[246]\b' "$tmp/annotated.pgn" | wc -l)
run "$fixture" --depth "$depth" --wc-pawn 1000
marks_large=$(grep -o '\$[246]\b' "$tmp/out" | wc -l)
if [ "$status" -eq 0 ] && [ "$marks_large" -le "$marks_default" ]; then
    pass "--wc-pawn 1000: $marks_large marks, no more than $marks_default"
else
    fail "--wc-pawn 1000: status $status, $marks_large marks against $marks_default" "$(cat "$tmp/out")"
fi
if [[ $(flat) == *"3... Nf6 \$4 {Blunder ("* ]]; then pass "--wc-pawn 1000: a mate walked into is still ??"; else
    fail "--wc-pawn 1000: a mate walked into is still ??" "$(cat "$tmp/out")"; fi

# Standard input and --depth alone.
timeout 120 "$PATZER" annotate - --depth 4 <"$fixture" >"$tmp/out" 2>"$tmp/err"
status=$?
if [ "$status" -eq 0 ] && [ "$(grep -c '^\[Annotator ' "$tmp/out")" -eq 2 ]; then
    pass "standard input, --depth 4"
else
    fail "standard input, --depth 4: status $status" "$(cat "$tmp/err" "$tmp/out")"
fi

# ------------------------------------------------------------------ bad games

cat >"$tmp/bad.pgn" <<'PGN'
[Event "good"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "bad"]

1. e4 e5 2. Ke3 *

[Event "good too"]

1. d4 d5 *
PGN
run "$tmp/bad.pgn" --movetime "$movetime"
err=$(cat "$tmp/err")
if [ "$status" -eq 1 ]; then pass "bad game: exit 1"; else
    fail "bad game: exit status $status" "$err"; fi
if [[ $err == *"bad.pgn:7:"*"game 2"* ]]; then pass "bad game: FILE:LINE:COL on stderr"; else
    fail "bad game: FILE:LINE:COL on stderr" "$err"; fi
cp "$tmp/out" "$tmp/good.pgn"
valid_pgn "$tmp/good.pgn" 2
if grep -q '^\[Event "good"\]' "$tmp/out" && grep -q '^\[Event "good too"\]' "$tmp/out" &&
    ! grep -q '^\[Event "bad"\]' "$tmp/out"; then
    pass "bad game: left out, the others annotated"
else
    fail "bad game: left out, the others annotated" "$(cat "$tmp/out")"
fi
if [[ $(flat) == *"2. g4 \$4 {Blunder ("*" to #-1). Better was 2. "* ]]; then pass "fool's mate: 2.g4 \$4"; else
    fail "fool's mate: 2.g4 \$4" "$(cat "$tmp/out")"; fi

# ------------------------------------------------------------------ --jobs

# Games are reviewed in parallel and written in the file's order; at a fixed
# depth (each game from a fresh table) the output is the same for any N.
cat "$fixture" "$tmp/bad.pgn" "$fixture" >"$tmp/many.pgn"
timeout 300 "$PATZER" annotate "$tmp/many.pgn" --depth 5 --jobs 1 >"$tmp/one" 2>"$tmp/err1"
status1=$?
timeout 300 "$PATZER" annotate "$tmp/many.pgn" --depth 5 --jobs 3 >"$tmp/three" 2>"$tmp/err3"
status3=$?
if [ "$status1" -eq 1 ] && [ "$status3" -eq 1 ]; then pass "--jobs 1 and 3: exit 1 (a bad game)"; else
    fail "--jobs 1 and 3: exit $status1 and $status3" "$(cat "$tmp/err1" "$tmp/err3")"; fi
games=$(grep -c '^\[Annotator ' "$tmp/one")
if [ "$games" -eq 6 ] && cmp -s "$tmp/one" "$tmp/three"; then
    pass "--jobs 3 writes what --jobs 1 does ($games games)"
else
    fail "--jobs 3 writes what --jobs 1 does ($games games)" "$(diff "$tmp/one" "$tmp/three")"
fi
if cmp -s "$tmp/err1" "$tmp/err3"; then pass "--jobs 3: the same errors"; else
    fail "--jobs 3: the same errors" "$(cat "$tmp/err1" "$tmp/err3")"; fi

# ------------------------------------------------------------------ usage

expect_usage() {
    local name=$1
    shift
    run "$@"
    if [ "$status" -eq 2 ] && [ -s "$tmp/err" ] && [ ! -s "$tmp/out" ]; then
        pass "$name: exit 2"
    else
        fail "$name: status $status" "$(cat "$tmp/err")"
    fi
}
expect_usage "no FILE"
expect_usage "missing file" "$tmp/no-such-file.pgn"
# A binary file is said to be one (as pgn and load say), not annotated as
# bad moves; an empty file gets a word, not nothing at all.
printf 'PK\003\004\000\000x\n' >"$tmp/archive.zip"
expect_usage "binary file" "$tmp/archive.zip"
if grep -qF "$tmp/archive.zip is a binary file, not a PGN text file" "$tmp/err"; then
    pass "binary file: said to be one"
else
    fail "binary file: said to be one" "$(cat "$tmp/err")"
fi
: >"$tmp/empty.pgn"
run "$tmp/empty.pgn"
if [ "$status" -eq 0 ] && grep -qF "$tmp/empty.pgn: no game in it" "$tmp/err"; then
    pass "empty file: said, exit 0"
else
    fail "empty file: status $status" "$(cat "$tmp/err")"
fi
expect_usage "two files" "$fixture" "$fixture"
expect_usage "--movetime abc" "$fixture" --movetime abc
expect_usage "--movetime 0" "$fixture" --movetime 0
expect_usage "--movetime without value" "$fixture" --movetime
expect_usage "--depth 0" "$fixture" --depth 0
expect_usage "--depth=x" "$fixture" --depth=x
expect_usage "--jobs 0" "$fixture" --jobs 0
expect_usage "--jobs=300" "$fixture" --jobs=300
expect_usage "unknown option" "$fixture" --fast
expect_usage "--wc-pawn 5" "$fixture" --wc-pawn 5
expect_usage "--wc-pawn=abc" "$fixture" --wc-pawn=abc
run "$fixture" --eval-file "$tmp/none.nnue"
if [ "$status" -eq 2 ] && grep -q "^patzer annotate: --eval-file $tmp/none.nnue: cannot open" "$tmp/err"; then
    pass "--eval-file with a missing net: exit 2, named"
else
    fail "--eval-file with a missing net: status $status" "$(cat "$tmp/err")"
fi

run --help
if [ "$status" -eq 0 ] && grep -q '^usage: patzer annotate' "$tmp/out"; then
    pass "--help: usage on stdout, exit 0"
else
    fail "--help: status $status" "$(cat "$tmp/out" "$tmp/err")"
fi

finish
