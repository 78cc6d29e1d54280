#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# End to end: an analysis keeps its result (tmux, 100x30). `lines 3` and
# `analyze 2s` show three lines while it runs; when it ends the panel keeps
# them under "Analysis: final, depth N" until the position changes, and shows
# them again when the position comes back. `analyze` then `stop` does the same.
# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
mkdir -p "$tmp/config/patzer"
echo "threads = 1" >"$tmp/config/patzer/patzer.conf" # the machine is shared
write_tui_script "$tmp/run.sh" colour --no-book --time none --level 1

tmux_start 100 30 "bash $tmp/run.sh"
check "the board appears" wait_for 10 '^>'
keys 'lines 3' Enter
keys analyze Enter
check "an analysis without end runs" wait_for 10 'Analysis: running'
check "and reaches its three lines" wait_for 10 '^ +3 +[-+]?#?[0-9.]+ 1\. '
keys stop Enter
check "stop ends it" wait_for 10 'Analysis stopped'
check "stop keeps its lines, marked final" wait_for 5 'Analysis: final, depth [0-9]+'
check "three of them" wait_for 2 '^ +3 +[-+]?#?[0-9.]+ 1\. '

keys 'analyze 2s' Enter
check "a running analysis says so" wait_for 10 'Analysis: running'
check "with three lines" wait_for 10 '^ +3 +[-+]?#?[0-9.]+ 1\. '
check "the analysis ends by itself" wait_for 20 'Analysis done'
check "its lines stay, marked final with their depth" wait_for 5 'Analysis: final, depth [0-9]+'
check "all three of them" wait_for 2 '^ +3 +[-+]?#?[0-9.]+ 1\. '
keys e4 Enter
check "a move: the final lines go" wait_gone 20 'Analysis: final'
check "the engine answers" wait_for 20 '1\. e4 [a-hNBRQKO]'
keys undo Enter
check "back at the analysed position: what is known is shown again" \
    wait_for 10 'Analysis: final, depth [0-9]+'
keys quit Enter
finish
