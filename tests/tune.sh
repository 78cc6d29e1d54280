#!/bin/bash
# tests/tune.sh: tools/tune on a little datagen data: with no epochs it writes
# back exactly the committed engine/eval_weights.c (so that file is always the
# tuner's output), and a short run lowers the loss and writes the same layout
# with its provenance.
#
# Run by "make check" with $PATZER, $TUNE and $srcdir set, or by hand from the
# source tree. Prints "N passed, M failed" last; exits 1 on any failure.

set -u
LC_ALL=C
export LC_ALL

src=${srcdir:-${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}}
PATZER=${PATZER:-src/patzer}
TUNE=${TUNE:-tools/tune}
weights=$src/engine/eval_weights.c
if [ ! -x "$PATZER" ] || [ ! -x "$TUNE" ] || [ ! -r "$weights" ]; then
    echo "tune: need '$PATZER', '$TUNE' (set PATZER, TUNE) and '$weights'" >&2
    exit 99
fi

passed=0
failed=0
pass() {
    passed=$((passed + 1))
    echo "ok - $1"
}
fail() {
    failed=$((failed + 1))
    echo "FAIL - $1"
    [ -n "${2:-}" ] && printf '%s\n' "$2" | tail -n 12 | sed 's/^/    | /'
}

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

# The weights from the #include line on (the header holds the provenance).
body() {
    sed -n '/^#include/,$p' "$1"
}

if ! "$PATZER" datagen --out "$tmp/data" --positions 600 --nodes 300 --jobs 2 \
        --progress 1000 > "$tmp/datagen.log" 2>&1; then
    fail "datagen for the tuner" "$(cat "$tmp/datagen.log")"
fi

out=$("$TUNE" "$tmp/data" --epochs 0 --min-ply 0 --out "$tmp/w0.c" 2>&1)
if [ $? -eq 0 ] && [ "$(body "$tmp/w0.c")" = "$(body "$weights")" ]; then
    pass "no epochs: the committed weights, written as the tuner writes them"
else
    fail "no epochs: the committed weights, written as the tuner writes them" \
        "$out$(diff <(body "$tmp/w0.c") <(body "$weights") | head -n 6)"
fi

out=$("$TUNE" "$tmp/data" --epochs 50 --min-ply 0 --held-out 0 --out "$tmp/w1.c" 2>&1)
line=$(printf '%s\n' "$out" | grep '^tune: loss ')
if [[ $line =~ ^tune:\ loss\ ([0-9.]+)\ -\>\ ([0-9.]+), ]] &&
   awk -v a="${BASH_REMATCH[1]}" -v b="${BASH_REMATCH[2]}" 'BEGIN { exit !(b < a) }'; then
    pass "Adam lowers the loss on the fitted games"
else
    fail "Adam lowers the loss on the fitted games" "$out"
fi
if [ "$(body "$tmp/w1.c" | wc -l)" -eq "$(body "$weights" | wc -l)" ] &&
   grep -q '^// Provenance: tuned .* by tools/tune from ' "$tmp/w1.c" &&
   grep -q '^// all records of each file: [0-9]* of [0-9]* positions ([0-9]* games);$' "$tmp/w1.c" &&
   grep -q '^// K [0-9.]*, lambda 0.50, Adam at 1.00: 50 epochs, no games held out;$' "$tmp/w1.c" &&
   ! cmp -s "$tmp/w1.c" "$tmp/w0.c"; then
    pass "tuned weights in the same layout, with their provenance"
else
    fail "tuned weights in the same layout, with their provenance" "$(head -n 8 "$tmp/w1.c")"
fi

# Early stopping keeps the weights that do best on every Nth game, held out.
out=$("$TUNE" "$tmp/data" --epochs 40 --min-ply 0 --held-out 3 --out "$tmp/w2.c" 2>&1)
if grep -q '^// K [0-9.]*, lambda 0.50, Adam at 1.00: epoch [0-9]* of 40, best on held-out games (1 in 3);$' "$tmp/w2.c"; then
    pass "early stopping on held-out games"
else
    fail "early stopping on held-out games" "$out$(head -n 9 "$tmp/w2.c" 2>&1)"
fi

out=$("$TUNE" "$tmp/nothing" 2>&1)
if [ $? -eq 2 ] && [[ $out == *"nothing"* ]]; then
    pass "missing data is reported"
else
    fail "missing data is reported" "$out"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
