#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/pgn_cli.sh: end-to-end tests of `patzer pgn FILE...`: one line per
# valid game (N<TAB>RESULT<TAB>PLIES<TAB>FINAL-FEN), numbering across files,
# invalid games only on stderr as FILE:LINE:COL, standard input, BOM and CRLF,
# null moves, and the exit statuses 0 / 1 / 2.
#
# The expected FENs were computed independently of patzer: the fixtures'
# moves were turned into UCI moves by pgn-extract -Wuci and replayed by
# stockfish ("position ... moves ..." then "d").
#
# Runs the program named by $PATZER (set by "make check"; default src/patzer)
# on the fixtures in $srcdir/tests/data/pgn. Prints one line per check, then
# "N passed, M failed"; exits 1 on any failure, 99 when something is missing.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
data=$src/tests/data/pgn
need_file "$data/cli_games.pgn"
make_tmp

# run ARGS...: runs `patzer pgn ARGS...` in $rundir (the fixture directory
# unless changed) with input from $tmp/in (see run_patzer).
: >"$tmp/in"
rundir=$data
run() {
    RUN_DIR=$rundir RUN_INPUT=$tmp/in RUN_TIMEOUT=60 run_patzer pgn "$@"
}

# check_run NAME STATUS: the last run exited with STATUS and its stdout is
# exactly $tmp/want.
check_run() {
    local name=$1 want_status=$2
    if [ "$status" -ne "$want_status" ]; then
        fail "$name: exit status $status, expected $want_status (stderr: $(head -c 300 "$tmp/err"))"
    elif ! cmp -s "$tmp/out" "$tmp/want"; then
        fail "$name: stdout differs from the expected lines"
        diff "$tmp/want" "$tmp/out" | head -n 20 | sed 's/^/    | /'
    else
        pass "$name"
    fi
}

# stderr_has NAME TEXT: the last run's stderr contains TEXT (a fixed string).
stderr_has() {
    if grep -qF -- "$2" "$tmp/err"; then pass "$1"; else
        fail "$1: stderr lacks '$2': $(head -c 300 "$tmp/err")"
    fi
}

stderr_empty() {
    if [ -s "$tmp/err" ]; then fail "$1: unexpected stderr '$(head -c 300 "$tmp/err")'"; else
        pass "$1"
    fi
}

# Expected lines (tab-separated) of the fixtures' valid games, in file order.
T=$'\t'
games_1="1${T}1-0${T}7${T}r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
games_2="2${T}0-1${T}34${T}2k4r/ppp3pp/4pn2/8/2q3b1/4PN2/P3B1PP/Q4RK1 w - - 0 18"
games_3="3${T}*${T}9${T}8/8/6k1/8/8/8/6Q1/4K3 b - - 0 54"
more=(
    "1-0${T}10${T}rnbqkb1r/ppp2ppp/1n6/4p3/8/2N3P1/PP1PPPBP/R1BQK1NR w KQkq - 2 6"
    "0-1${T}20${T}r1bq1rk1/2pnbppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1 w - - 1 11"
)
illegal_1="1${T}1/2-1/2${T}10${T}rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6"
illegal_3="3${T}0-1${T}4${T}rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
bom=(
    "1${T}1-0${T}5${T}rnbqkbnr/ppp1pppp/8/8/2pPP3/8/PP3PPP/RNBQKBNR b KQkq - 0 3"
    "2${T}1/2-1/2${T}8${T}rnbq1rk1/ppppppbp/5np1/8/8/5NP1/PPPPPPBP/RNBQ1RK1 w - - 4 5"
)

# Three valid games: variations, comments, NAGs, en passant, both castlings,
# a promotion with capture, and a game from a FEN.
run cli_games.pgn
printf '%s\n' "$games_1" "$games_2" "$games_3" >"$tmp/want"
check_run "valid games: exact lines, exit 0" 0
stderr_empty "valid games: nothing on stderr"

# Game 2 has an illegal move: only games 1 and 3 on stdout, the error with
# FILE:LINE:COL on stderr, exit 1.
run cli_illegal.pgn
printf '%s\n' "$illegal_1" "$illegal_3" >"$tmp/want"
check_run "illegal move in game 2: games 1 and 3, exit 1" 1
stderr_has "illegal move: FILE:LINE:COL" "cli_illegal.pgn:10:13: "
stderr_has "illegal move: reason" "illegal move 'Bxd5'"
stderr_has "illegal move: game number" "game 2: "
if [ "$(wc -l <"$tmp/err")" -eq 1 ]; then pass "illegal move: one error line"; else
    fail "illegal move: $(wc -l <"$tmp/err") lines on stderr, expected 1"; fi

# Numbering continues over the files, invalid games included.
run cli_games.pgn cli_more.pgn
printf '%s\n' "$games_1" "$games_2" "$games_3" "4$T${more[0]}" "5$T${more[1]}" >"$tmp/want"
check_run "two files: numbering continues" 0
run cli_illegal.pgn cli_more.pgn
printf '%s\n' "$illegal_1" "$illegal_3" "4$T${more[0]}" "5$T${more[1]}" >"$tmp/want"
check_run "invalid game counted in the numbering: exit 1" 1

# A UTF-8 byte-order mark and CRLF line ends (with a comment across lines).
run cli_bom_crlf.pgn
printf '%s\n' "${bom[@]}" >"$tmp/want"
check_run "BOM and CRLF" 0
stderr_empty "BOM and CRLF: nothing on stderr"

# Null moves ("--" and "Z0", in the main line and in variations) pass the
# turn; one in check is an error. The final positions agree with
# pgn-extract --allownullmoves -F but for its en-passant field, which names
# every double step.
run null_moves.pgn
printf '%s\n' \
    "1${T}*${T}10${T}r1bqkb1r/1pp2ppp/p1n2n2/1B1pp3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 6" \
    "2${T}1-0${T}7${T}r1bqkbnr/ppp1p1pp/2n5/3pPp2/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 4" >"$tmp/want"
check_run "null moves: games 1 and 2, exit 1" 1
stderr_has "null move in check: FILE:LINE:COL and reason" \
    "null_moves.pgn:31:18: game 3: null move '--' at move 2 (Black) while in check"

# "-" is standard input, and errors there are named <stdin>.
cp --no-preserve=mode "$data/cli_more.pgn" "$tmp/in"
run -
printf '%s\n' "1$T${more[0]}" "2$T${more[1]}" >"$tmp/want"
check_run "standard input" 0
cp --no-preserve=mode "$data/cli_illegal.pgn" "$tmp/in"
run cli_more.pgn -
printf '%s\n' "1$T${more[0]}" "2$T${more[1]}" "${illegal_1/#1/3}" "${illegal_3/#3/5}" \
    >"$tmp/want"
check_run "file then standard input: numbering continues, exit 1" 1
stderr_has "standard input: error position" "<stdin>:10:13: game 4: illegal move"
: >"$tmp/in"

# An empty file has no games.
: >"$tmp/empty.pgn"
run "$tmp/empty.pgn"
: >"$tmp/want"
check_run "empty file: no lines, exit 0" 0
stderr_has "empty file: said to have no game" "$tmp/empty.pgn: no game in it"

# I/O errors: exit 2, and the other files are still read.
run no-such-file.pgn
: >"$tmp/want"
check_run "missing file: exit 2" 2
stderr_has "missing file: named on stderr" "no-such-file.pgn"
run no-such-file.pgn cli_more.pgn
printf '%s\n' "1$T${more[0]}" "2$T${more[1]}" >"$tmp/want"
check_run "missing file then a good one: the good one is read, exit 2" 2
run cli_illegal.pgn no-such-file.pgn
printf '%s\n' "$illegal_1" "$illegal_3" >"$tmp/want"
check_run "invalid game and missing file: exit 2" 2
run "$tmp"
: >"$tmp/want"
check_run "a directory: exit 2" 2
stderr_has "a directory: said to be one" "$tmp: Is a directory"
if grep -q ':0:' "$tmp/err"; then fail "a directory: placed at line 0: $(cat "$tmp/err")"; else
    pass "a directory: not placed at line 0"; fi
# A binary file is said to be one, as load says, not reported byte by byte.
printf 'PK\003\004\000\000[x]\n\377\376\n' >"$tmp/archive.zip"
run "$tmp/archive.zip"
check_run "a binary file: exit 2" 2
stderr_has "a binary file: said to be one" "$tmp/archive.zip is a binary file, not a PGN text file"
if [ "$(wc -l <"$tmp/err")" -eq 1 ]; then pass "a binary file: one message"; else
    fail "a binary file: $(wc -l <"$tmp/err") messages"; fi

# Usage.
run
: >"$tmp/want"
check_run "no FILE: exit 2" 2
stderr_has "no FILE: usage on stderr" "usage: patzer pgn FILE..."
run --bogus cli_games.pgn
check_run "unknown option: exit 2" 2
stderr_has "unknown option: named" "--bogus"
run --help
if [ "$status" -eq 0 ] && grep -qF 'usage: patzer pgn FILE...' "$tmp/out" &&
    grep -qF 'An invalid game prints nothing on standard output' "$tmp/out"; then
    pass "--help: usage on stdout, exit 0"
else
    fail "--help: status $status, stdout '$(head -c 200 "$tmp/out")'"
fi
cp --no-preserve=mode "$data/cli_more.pgn" "$tmp/-x.pgn"
rundir=$tmp
run -- -x.pgn
rundir=$data
printf '%s\n' "1$T${more[0]}" "2$T${more[1]}" >"$tmp/want"
check_run "-- before a file name starting with '-'" 0

finish
