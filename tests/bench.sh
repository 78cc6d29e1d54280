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
# --eval-file: builtin searches with the built-in net (its own node count), none is
# the hand-crafted default, and a file that cannot be read is named.
run_patzer bench 4
hce=$(tail -n 1 "$tmp/out" | awk '{print $1}')
run_patzer bench 4 --eval-file none
none=$(tail -n 1 "$tmp/out" | awk '{print $1}')
check "--eval-file none is the default ($none = $hce)" test "$none" = "$hce"
run_patzer bench 4 --eval-file builtin
net=$(tail -n 1 "$tmp/out" | awk '{print $1}')
check "--eval-file builtin exits 0 (status $status)" test "$status" -eq 0
check "--eval-file builtin searches with the net ($net, not $hce)" \
    test -n "$net" -a "$net" != "$hce"
run_patzer bench 4 --eval-file "$tmp/no-such.nnue"
check "an unreadable net exits 1 (status $status)" test "$status" -eq 1
check "an unreadable net is named" grep -q 'no-such.nnue: cannot open' "$tmp/err"
run_patzer bench --threads 0
check "--threads 0 exits 2" test "$status" -eq 2
run_patzer bench --threads
check "--threads without a number exits 2" test "$status" -eq 2
finish
