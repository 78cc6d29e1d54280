#!/bin/bash
# tests/epd.sh: `patzer epd` solves the mate suite tests/data/mates.epd, and
# reports bad input with the file and line.
#
# Run by "make check" with $PATZER and $srcdir set, or by hand from the
# source tree. Prints "N passed, M failed" last; exits 1 on any failure.
# The suite is searched to a fixed depth (EPD_DEPTH, default 10), so that the
# result does not depend on how busy the machine is.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
suite=$src/tests/data/mates.epd
depth=${EPD_DEPTH:-10}
need_file "$suite"
make_tmp

count=$(grep -Evc '^[[:space:]]*(#|$)' "$suite")
out=$(timeout 120 "$PATZER" epd "$suite" --depth "$depth" 2>&1)
status=$?
if [ "$status" -eq 0 ]; then pass "mates.epd: exit status 0"; else
    fail "mates.epd: exit status $status" "$out"; fi
if [[ $out == *"solved $count of $count"* ]]; then pass "mates.epd: solved $count of $count"; else
    fail "mates.epd: not all $count solved" "$out"; fi
if [ "$(grep -c ' ok bm ' <<<"$out")" -eq "$count" ]; then pass "mates.epd: one ok line each"; else
    fail "mates.epd: one ok line each" "$out"; fi
if grep -q '^1 mate1.back-rank ok bm Ra8# found Ra8# (depth [0-9]*, score mate 1, [0-9]* nodes)$' <<<"$out"; then
    pass "mates.epd: line format"
else
    fail "mates.epd: line format" "$out"
fi

# A fixed node count: the same report with one job as with two (each position is
# searched alone from a fresh table, whatever the machine's load), and it solves
# the suite's mates too.
one=$(timeout 120 "$PATZER" epd "$suite" --nodes 100000 --jobs 1 2>&1)
two=$(timeout 120 "$PATZER" epd "$suite" --nodes=100000 --jobs 2 2>&1)
if [ "$one" = "$two" ]; then pass "--nodes: the same report with 1 and 2 jobs"; else
    fail "--nodes: the same report with 1 and 2 jobs" "$one
---
$two"; fi
if [[ $one == *"solved $count of $count"* ]]; then pass "--nodes 100000: solved $count of $count"; else
    fail "--nodes 100000: not all $count solved" "$one"; fi
# The total is the sum of the lines' node counts, each within the limit.
sum=0 over=0
while read -r n; do
    sum=$((sum + n))
    [ "$n" -le 100000 ] || over=1
done < <(sed -n 's/.*, \([0-9]*\) nodes)$/\1/p' <<<"$one")
if [[ $one == *"searched $sum nodes"* ]] && [ "$sum" -gt 0 ] && [ "$over" -eq 0 ]; then
    pass "--nodes 100000: each line's nodes within the limit, their sum in the total"
else
    fail "--nodes 100000: nodes per line and total (sum $sum, over $over)" "$one"
fi
for bad in 0 -5 abc 12x; do
    out=$(timeout 10 "$PATZER" epd "$suite" --nodes "$bad" 2>&1)
    status=$?
    if [ "$status" -eq 2 ] && [[ $out == *"--nodes takes a number"* ]]; then
        pass "--nodes $bad: exit 2, says why"
    else
        fail "--nodes $bad: status $status" "$out"
    fi
done

timeout 10 "$PATZER" epd "$tmp/no-such-file.epd" >/dev/null 2>&1
status=$?
if [ "$status" -eq 2 ]; then pass "missing file: exit 2"; else
    fail "missing file: status $status"; fi

timeout 10 "$PATZER" epd >/dev/null 2>&1
status=$?
if [ "$status" -eq 2 ]; then pass "no FILE: exit 2"; else
    fail "no FILE: status $status"; fi

timeout 10 "$PATZER" epd "$suite" --movetime abc >/dev/null 2>&1
status=$?
if [ "$status" -eq 2 ]; then pass "bad --movetime: exit 2"; else
    fail "bad --movetime: status $status"; fi

# Bad lines are reported as FILE:LINE, counted as failed, and the run goes on.
cat >"$tmp/bad.epd" <<'EPD'
# a comment, then a blank line

this/is/no/fen w - - bm e4; id "bad.fen";
6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Qh8; id "bad.san";
6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "good";
EPD
out=$(timeout 30 "$PATZER" epd "$tmp/bad.epd" --movetime 100 2>"$tmp/err")
status=$?
err=$(cat "$tmp/err")
if [ "$status" -eq 0 ]; then pass "bad lines: exit status 0"; else
    fail "bad lines: status $status"; fi
if [[ $err == *"bad.epd:3:"* ]]; then pass "bad FEN: FILE:LINE on stderr"; else
    fail "bad FEN: FILE:LINE on stderr" "$err"; fi
if [[ $err == *"bad.epd:4:"*Qh8* ]]; then pass "bad SAN: FILE:LINE on stderr"; else
    fail "bad SAN: FILE:LINE on stderr" "$err"; fi
if [[ $out == *"solved 1 of 3"* ]]; then pass "bad lines: solved 1 of 3"; else
    fail "bad lines: solved 1 of 3" "$out"; fi

# A file with no usable line is no suite: no position counted, a message
# naming the file, status 2 (as a file that cannot be read).
for kind in empty text; do
    if [ $kind = empty ]; then : >"$tmp/$kind.epd"; else
        printf '%s\n' 'hello world' 'not/a/fen w - - bm e4;' >"$tmp/$kind.epd"; fi
    out=$(timeout 30 "$PATZER" epd "$tmp/$kind.epd" --depth 1 2>"$tmp/err")
    status=$?
    err=$(cat "$tmp/err")
    if [ "$status" -eq 2 ]; then pass "$kind file: exit 2"; else
        fail "$kind file: status $status"; fi
    if [ -z "$out" ]; then pass "$kind file: no position reported"; else
        fail "$kind file: no position reported" "$out"; fi
    if [[ $err == *"$tmp/$kind.epd has no usable EPD line"* ]]; then
        pass "$kind file: the file named"
    else
        fail "$kind file: the file named" "$err"
    fi
done

# --jobs: positions run in parallel, reported in the file's order; at a fixed
# depth (each position from a fresh table) the report is the same for any N.
cat "$suite" "$tmp/bad.epd" >"$tmp/mixed.epd"
one=$(timeout 120 "$PATZER" epd "$tmp/mixed.epd" --depth 6 --jobs 1 2>/dev/null)
three=$(timeout 120 "$PATZER" epd "$tmp/mixed.epd" --depth 6 --jobs 3 2>/dev/null)
if [ -n "$one" ] && [ "$one" = "$three" ]; then pass "--jobs 3 reports as --jobs 1"; else
    fail "--jobs 3 reports as --jobs 1" "$(diff <(echo "$one") <(echo "$three"))"; fi
# Depth 6 is on the edge for the mate in 3 (whether pruning lets it through depends on the
# evaluation): every other mate, and the good line among the bad ones, is solved.
if [[ $one == *" good ok bm Ra8#"* ]] &&
    { [[ $one == *"solved $count of $((count + 3))"* ]] ||
      [[ $one == *"solved $((count + 1)) of $((count + 3))"* ]]; }; then
    pass "--depth 6: the mates solved, the good line among the bad ones too"
else
    fail "--depth 6: the mates solved, the good line among the bad ones too" "$one"
fi
if [ "$(head -c 2 <<<"$three")" = "1 " ] &&
    [ "$(grep -Ec '^[0-9]+ ' <<<"$three")" -eq "$((count + 3))" ]; then
    pass "--jobs 3: one line per position, in order"
else
    fail "--jobs 3: one line per position, in order" "$three"
fi
for bad in "--jobs 0" "--jobs 257" "--depth 0" "--jobs"; do
    # shellcheck disable=SC2086
    timeout 10 "$PATZER" epd "$suite" $bad >/dev/null 2>&1
    status=$?
    if [ "$status" -eq 2 ]; then pass "$bad: exit 2"; else fail "$bad: status $status"; fi
done
# --eval-file: the built-in net or the hand-crafted evaluation solve the mates alike; a net
# that cannot be read stops the run, naming it.
for e in builtin none; do
    out=$(timeout 60 "$PATZER" epd "$suite" --depth 6 --jobs 1 --eval-file "$e" 2>&1)
    if [ $? -eq 0 ] && grep -q "^solved" <<<"$out"; then pass "--eval-file $e runs the suite"; else
        fail "--eval-file $e runs the suite" "$out"; fi
done
out=$(timeout 10 "$PATZER" epd "$suite" --eval-file "$tmp/none.nnue" 2>&1)
if [ $? -eq 2 ] && [[ $out == "patzer epd: --eval-file $tmp/none.nnue: cannot open"* ]]; then
    pass "--eval-file with a missing net: exit 2, named"
else
    fail "--eval-file with a missing net: exit 2, named" "$out"
fi

finish
