#!/bin/bash
# The bench signature: `patzer bench` must search exactly the node count
# recorded in tests/bench.expected. A change to the search or evaluation
# updates that file in the same commit; a refactoring must leave it alone.
set -u
PATZER=${PATZER:-src/patzer}
srcdir=${srcdir:-.}
expected=$(tr -d '[:space:]' < "$srcdir/tests/bench.expected")
out=$(timeout 300 "$PATZER" bench 2>&1)
status=$?
actual=$(printf '%s\n' "$out" | tail -n 1 | awk '{print $1}')
passed=0 failed=0
check() { # name condition-status
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "PASS: $1"
    else failed=$((failed + 1)); echo "FAIL: $1"; fi
}
[ "$status" -eq 0 ]; check "patzer bench exits 0 (status $status)" $?
[ "$actual" = "$expected" ]; check "bench signature $actual equals tests/bench.expected ($expected)" $?
lines=$(printf '%s\n' "$out" | grep -c ' nodes  best ')
[ "$lines" -ge 40 ]; check "one line per bench position ($lines)" $?
"$PATZER" bench x >/dev/null 2>&1; [ $? -eq 2 ]; check "bad depth exits 2" $?
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
