#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# bench/roundtrip.sh: the round trips of tests/test_roundtrip on PGN files
# that are not in the tree (issue 21): for every game of each file, `game N`
# and `save` without a change leave the file byte for byte; a comment on
# every EDIT-th game (default every one) saved changes only that game and it
# reads back with it. Also says how many games the writer gives back exactly
# as the file had them.
#
#   bench/roundtrip.sh [FILE.pgn...]       (or: make bench-roundtrip FILES='A.pgn B.pgn')
#
# With no files it checks GAMES (default 2000) games written by bench/genpgn
# (seed SEED, default 1). Public collections are not shipped: fetch them (for
# instance python-chess's data/pgn and data/games, lichess exports, TWIC) and
# name them here. Each file is copied first; the originals are not changed.
#
# Environment: ROUNDTRIP (default: this tree's tests/test_roundtrip), GENPGN,
# GAMES, SEED, EDIT.
set -euo pipefail
export LC_ALL=C

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
ROUNDTRIP=${ROUNDTRIP:-$top/tests/test_roundtrip}
GENPGN=${GENPGN:-$top/bench/genpgn}
GAMES=${GAMES:-2000}
SEED=${SEED:-1}
EDIT=${EDIT:-1}

[ -x "$ROUNDTRIP" ] || { echo "bench-roundtrip: $ROUNDTRIP not built (make bench-roundtrip)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    [ -x "$GENPGN" ] || { echo "bench-roundtrip: $GENPGN not built" >&2; exit 2; }
    echo "writing $GAMES games (seed $SEED) with bench/genpgn..."
    "$GENPGN" "$tmp/genpgn-$GAMES.pgn" "$GAMES" "$SEED" >/dev/null
    files=("$tmp/genpgn-$GAMES.pgn")
fi
list=
for f in "${files[@]}"; do
    [ -r "$f" ] || { echo "bench-roundtrip: cannot read $f" >&2; exit 2; }
    list=${list:+$list:}$(cd "$(dirname "$f")" && pwd)/$(basename "$f")
done
start=$(date +%s)
PATZER_ROUNDTRIP_FILES=$list PATZER_ROUNDTRIP_EDIT=$EDIT "$ROUNDTRIP" --jobs 1
echo "$((${#files[@]})) file(s) in $(($(date +%s) - start)) s"
