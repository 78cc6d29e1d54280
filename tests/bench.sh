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
# Two threads: the same positions and report, the thread count after the speed.
RUN_TIMEOUT=120 run_patzer bench 5 --threads 2
check "bench 5 --threads 2 exits 0 (status $status)" test "$status" -eq 0
check "bench --threads 2 says so" grep -Eq '^[0-9]+ nodes [0-9]+ nps [0-9]+ ms 2 threads$' "$tmp/out"
lines=$(grep -c ' nodes  best ' "$tmp/out")
check "--threads 2: one line per position ($lines)" test "$lines" -ge 40
run_patzer bench --threads 0
check "--threads 0 exits 2" test "$status" -eq 2
run_patzer bench --threads
check "--threads without a number exits 2" test "$status" -eq 2
finish
