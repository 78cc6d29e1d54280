#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/cli.sh: end-to-end tests of the patzer command line: perft and divide
# output, the FEN as one or several arguments, and usage and FEN errors.
#
# Runs the program named by $PATZER (set by "make check"; default src/patzer).
# Prints one line per check, then "N passed, M failed"; exits 1 on any failure,
# 99 when the program is missing.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp

KIWIPETE='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'

# expect_output NAME EXPECTED ARGS...: exit 0, stdout exactly EXPECTED plus a
# newline, nothing on stderr.
expect_output() {
    local name=$1 expected=$2
    shift 2
    run_patzer "$@"
    printf '%s\n' "$expected" >"$tmp/want"
    if [ "$status" -ne 0 ]; then
        fail "$name: exit status $status, expected 0 (stderr: $(head -c 300 "$tmp/err"))"
    elif ! cmp -s "$tmp/out" "$tmp/want"; then
        fail "$name: stdout '$(head -c 300 "$tmp/out")', expected '$expected'"
    elif [ -s "$tmp/err" ]; then
        fail "$name: unexpected stderr '$(head -c 300 "$tmp/err")'"
    else
        pass "$name"
    fi
}

# expect_error NAME PATTERN ARGS...: exit 2, nothing on stdout, and stderr
# non-empty and containing PATTERN (a fixed string; empty matches anything).
expect_error() {
    local name=$1 pattern=$2
    shift 2
    run_patzer "$@"
    if [ "$status" -ne 2 ]; then
        fail "$name: exit status $status, expected 2"
    elif [ -s "$tmp/out" ]; then
        fail "$name: unexpected stdout '$(head -c 300 "$tmp/out")'"
    elif [ ! -s "$tmp/err" ]; then
        fail "$name: no message on stderr"
    elif [ -n "$pattern" ] && ! grep -qF -- "$pattern" "$tmp/err"; then
        fail "$name: stderr '$(head -c 300 "$tmp/err")' does not contain '$pattern'"
    else
        pass "$name"
    fi
}

# check_divide NAME MOVES TOTAL ARGS...: exit 0; one "MOVE COUNT" line per
# root move, a blank line, then "Nodes: TOTAL". MOVES is the expected sorted
# list of moves (space-separated) or empty to check only the format; the
# counts must add up to TOTAL.
check_divide() {
    local name=$1 moves=$2 total=$3
    shift 3
    run_patzer "$@"
    if [ "$status" -ne 0 ]; then
        fail "$name: exit status $status, expected 0 (stderr: $(head -c 300 "$tmp/err"))"
        return
    fi
    local lines
    lines=$(wc -l <"$tmp/out")
    local body=$((lines - 2))
    if [ "$body" -lt 1 ]; then
        fail "$name: only $lines lines of output"
        return
    fi
    head -n "$body" "$tmp/out" >"$tmp/body"
    if grep -qvE '^[a-h][1-8][a-h][1-8][nbrq]? [0-9]+$' "$tmp/body"; then
        fail "$name: malformed line '$(grep -vE '^[a-h][1-8][a-h][1-8][nbrq]? [0-9]+$' \
            "$tmp/body" | head -n 1)'"
        return
    fi
    if [ "$(sed -n "$((body + 1))p" "$tmp/out")" != "" ]; then
        fail "$name: no blank line after the moves"
        return
    fi
    local last
    last=$(tail -n 1 "$tmp/out")
    if [ "$last" != "Nodes: $total" ]; then
        fail "$name: last line '$last', expected 'Nodes: $total'"
        return
    fi
    local sum
    sum=$(awk '{ s += $2 } END { print s + 0 }' "$tmp/body")
    if [ "$sum" != "$total" ]; then
        fail "$name: counts add up to $sum, expected $total"
        return
    fi
    if [ -n "$moves" ]; then
        local got want
        got=$(cut -d' ' -f1 "$tmp/body" | sort | tr '\n' ' ')
        want=$(printf '%s\n' "$moves" | tr -s '[:space:]' '\n' | grep -v '^$' | sort | tr '\n' ' ')
        if [ "$got" != "$want" ]; then
            fail "$name: moves '$got', expected '$want'"
            return
        fi
    fi
    if [ -s "$tmp/err" ]; then
        fail "$name: unexpected stderr '$(head -c 300 "$tmp/err")'"
        return
    fi
    pass "$name"
}

# ------------------------------------------------------------------ perft

expect_output "perft 3 from the start" 8902 perft 3
expect_output "perft 1 from the start" 20 perft 1
expect_output "perft 3 from startpos, as UCI names it" 8902 perft 3 startpos
expect_output "perft 2, FEN as one argument" 2039 perft 2 "$KIWIPETE"
# shellcheck disable=SC2086 # split on purpose: the FEN as separate arguments
expect_output "perft 2, FEN as separate arguments" 2039 perft 2 $KIWIPETE
expect_output "perft 3, en-passant FEN" 2812 perft 3 "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
expect_output "perft 2, four-field FEN" 400 perft 2 \
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"

# ------------------------------------------------------------------ divide

START_MOVES='a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4
b1a3 b1c3 g1f3 g1h3'
check_divide "divide 2 from the start" "$START_MOVES" 400 divide 2
if [ "$status" -eq 0 ]; then
    if [ "$(head -n 20 "$tmp/out" | grep -c ' 20$')" -eq 20 ] &&
        [ "$(wc -l <"$tmp/out")" -eq 22 ]; then
        pass "divide 2: 20 lines of 20, blank, total"
    else
        fail "divide 2: expected 20 lines 'MOVE 20' then a blank line and the total"
    fi
fi
if grep -q '^e2e4 20$' "$tmp/out"; then
    pass "divide 2: line 'e2e4 20'"
else
    fail "divide 2: no line 'e2e4 20'"
fi
check_divide "divide 1, kiwipete" "" 48 divide 1 "$KIWIPETE"
check_divide "divide 2, kiwipete" "" 2039 divide 2 "$KIWIPETE"
check_divide "divide 1, promotions" "b7a8q b7a8r b7a8b b7a8n b7b8q b7b8r b7b8b b7b8n \
e1d1 e1d2 e1e2 e1f2 e1f1" 13 divide 1 "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1"
check_divide "divide 1, castling" "" 26 divide 1 "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
if grep -q '^e1g1 1$' "$tmp/out" && grep -q '^e1c1 1$' "$tmp/out"; then
    pass "divide 1, castling: e1g1 and e1c1 in UCI form"
else
    fail "divide 1, castling: e1g1 / e1c1 missing"
fi

# Chess960: Shredder-FEN and X-FEN, --960, castling as king takes rook.
CHESS960_1='bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'
expect_output "perft 3, Chess960 Shredder-FEN" 12189 perft 3 "$CHESS960_1"
expect_output "perft 3, Chess960 X-FEN" 12189 perft 3 \
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
expect_output "perft --960 3" 12189 perft --960 3 "$CHESS960_1"
check_divide "divide 1, Chess960 castling" "" 24 divide 1 "rk6/8/8/8/8/8/8/RK2R3 w AEa - 0 1"
if grep -q '^b1e1 1$' "$tmp/out" && grep -q '^b1a1 1$' "$tmp/out" && grep -q '^b1c1 1$' "$tmp/out"; then
    pass "divide 1, Chess960: castling b1e1 and b1a1 as king takes rook, the step b1c1"
else
    fail "divide 1, Chess960: b1e1 / b1a1 / b1c1 missing"
fi
check_divide "divide --960 1, standard squares" "" 26 divide --960 1 "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
if grep -q '^e1h1 1$' "$tmp/out" && grep -q '^e1a1 1$' "$tmp/out"; then
    pass "divide --960: castling e1h1 and e1a1"
else
    fail "divide --960: e1h1 / e1a1 missing"
fi

# ------------------------------------------------------------------ errors

expect_error "perft x: bad depth" "" perft x
expect_error "perft -1: negative depth" "" perft -1
expect_error "perft: missing depth" "" perft
expect_error "perft 3x: trailing junk" "" perft 3x
expect_error "divide x: bad depth" "" divide x
expect_error "divide: missing depth" "" divide
expect_error "perft, two white kings" "2 white kings" perft 2 "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"
expect_error "divide, two white kings" "2 white kings" divide 2 "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"
expect_error "perft, FEN field count" "expected 6 fields, got 3" perft 2 "8/8/8 w -"
expect_error "perft, impossible en passant" "en passant square e3 impossible" perft 1 \
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1"
expect_error "perft, castling without rook" "castling: 'K' but no white rook on the kingside of the king on e1" perft 1 \
    4k3/8/8/8/8/8/8/4K3 w K - 0 1


# ------------------------------------------------------------------ full disk

# What is printed to a full disk is lost: said on standard error, with a
# failing exit status, never a silent success.
expect_full_disk() {
    local name=$1
    shift
    if [ ! -w /dev/full ]; then
        skip "$name: no /dev/full"
        return
    fi
    (timeout "${RUN_TIMEOUT:-120}" "$PATZER" "$@" >/dev/full 2>"$tmp/err" </dev/null)
    status=$?
    if [ "$status" -eq 0 ]; then
        fail "$name: exit status 0 with its output lost"
    elif ! grep -q "No space left on device" "$tmp/err"; then
        fail "$name: stderr '$(head -c 300 "$tmp/err")' does not say why"
    else
        pass "$name"
    fi
}
expect_full_disk "perft to a full disk" perft 2
expect_full_disk "divide to a full disk" divide 2
expect_full_disk "--help to a full disk" --help
expect_full_disk "--version to a full disk" --version
expect_full_disk "--config-example to a full disk" --config-example
expect_full_disk "puzzles check to a full disk" puzzles check "$src/data/puzzles.txt"

# puzzles without its command, or with a mistyped one, printed the usage only.
expect_error "puzzles names the unknown command" "patzer puzzles: unknown command 'chek' (mine, check or retheme)" puzzles chek
expect_error "puzzles alone says a command is missing" "patzer puzzles: no command given" puzzles

# puzzles mine passed over the games it could not read without a word.
printf '[Event "a"]\n\n1. e4 e5 2. Ke3 *\n\n[Event "b"]\n\n1. d4 d5 *\n' >"$tmp/broken.pgn"
run_patzer puzzles mine --jobs 1 --review-depth 2 --verify-depth 2 --out "$tmp/set.txt" "$tmp/broken.pgn"
check "puzzles mine succeeds (status $status)" test "$status" -eq 0
check "and names the game it could not read" \
    grep -qF "patzer puzzles mine: 1 game could not be read (the first: $tmp/broken.pgn:3:13: game 1: illegal move 'Ke3'" "$tmp/err"

finish
