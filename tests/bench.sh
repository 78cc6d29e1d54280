#!/bin/bash
# The bench signature: `patzer bench` must search exactly the node count
# recorded in tests/bench.expected. A change to the search or evaluation
# updates that file in the same commit; a refactoring must leave it alone.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
need_file "$src/tests/bench.expected"
make_tmp
expected=$(tr -d '[:space:]' <"$src/tests/bench.expected")
RUN_TIMEOUT=300 run_patzer bench
actual=$(tail -n 1 "$tmp/out" | awk '{print $1}')
check "patzer bench exits 0 (status $status)" test "$status" -eq 0
check "bench signature $actual equals tests/bench.expected ($expected)" test "$actual" = "$expected"
lines=$(grep -c ' nodes  best ' "$tmp/out")
check "one line per bench position ($lines)" test "$lines" -ge 40
run_patzer bench x
check "bad depth exits 2" test "$status" -eq 2
finish
