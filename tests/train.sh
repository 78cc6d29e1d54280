#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/train.sh: puzzles in line mode. `train FILE` searches the blunder
# sample in the background and shows each puzzle as soon as it is found (one
# search thread here, so they come in the file's order; the line mode waits
# only while no puzzle is shown); a wrong move is answered by the engine's
# refutation and the solution; the right moves solve a forcing line; hint,
# solution and next work; the progress is saved in $XDG_DATA_HOME/patzer/
# puzzles, and a second start brings the failed puzzle back first and
# searches no game twice. `train` alone uses the archive and only the
# player's moves; a corrupt line of the book is named with its line number.
# A player with no games gets the shipped puzzles (data/puzzles.txt), `train
# theme fork` a fork, and `train theme` lists the themes with their counts.
#
# Run by "make check" with $PATZER and $srcdir set, or by hand from the
# source tree. Prints "N passed, M failed" last; exits 1 on any failure.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
sample=$src/tests/data/coach/blunders.pgn
shipped=$src/data/puzzles.txt
need_file "$sample" "$shipped"
make_tmp
export HOME=$tmp XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data
# One search thread: the puzzles are found in the file's order.
mkdir -p "$XDG_CONFIG_HOME/patzer"
echo 'threads = 1' >"$XDG_CONFIG_HOME/patzer/patzer.conf"
# No shipped puzzles until the tests of them below: train FILE never serves
# them, train alone would serve them while the archive is searched.
: >"$tmp/empty.txt"
export PATZER_PUZZLES=$tmp/empty.txt
book=$XDG_DATA_HOME/patzer/puzzles
RUN_TIMEOUT=${RUN_TIMEOUT:-120}

# train LINES...: a line-mode session fed these lines; its output in $out.
train() {
    out=$(patzer_with_input "$(printf '%s\n' "$@")")
    status=$?
}

# The first start: each puzzle as it is found, a wrong answer, a right line.
# The last next waits for the Black puzzle of the last game.
train "train $sample" hint d3 next Rd8+ Rxd8 next solution next quit
check "exits 0 (status $status)" test "$status" -eq 0
check "searches the file in the background" \
    has "$out" "Looking for puzzles in $sample (1 thread); each one found joins the queue"
check "the progress is shown" grep -qE 'Looking for puzzles: [0-9]+ of 5 games, [0-9]+ found' <<<"$out"
check "the first puzzle is shown as soon as found" \
    grep -qE '^White to move: find the best move \(puzzle 1 of [0-9]+, rating [0-9]+; yours 1500\) · Looking for puzzles: ' <<<"$out"
check "the status says what to find" \
    has "$out" "White to move: find the best move (puzzle 1 of "
check "hint names the piece" has "$out" "Hint: move your knight on f3."
check "a wrong move shows the engine's refutation" \
    grep -qE '^Wrong: 3\. d3 is met by 3\.\.\. Q[a-h1-8x+]+ 4\. ' <<<"$out"
check "and the solution" has "$out" "The solution: 3. Nxh4."
check "a failure lowers the rating" grep -qE 'Rating 1500 -> 14[0-9][0-9]\.' <<<"$out"
check "the game it came from" has "$out" "(The game: $sample#1 3. d3.)"
check "the board shows the refutation" has "$out" "Last move: 3... Q"
check "a right move gets the line's reply" \
    has "$out" "1. Rd8+: right. Black replies 1... Rxd8; find the next move."
check "the next move is asked for" has "$out" "White to move: find the next move (puzzle 2 of "
check "the last move solves it" has "$out" "2. Rxd8#: right. Solved! Rating 14"
check "the solved status" grep -qE '^Solved \(puzzle 2 of [0-9]+; your rating [0-9]+\)' <<<"$out"
check "solution shows the fork's line" grep -qE '^Solution: 1\. Nc7\+ K[a-h1-8]+ 2\. Nxa8\.' <<<"$out"
check "the puzzle shown is played out on the board" has "$out" "Last move: 2. Nxa8"
check "the board is shown with White at the bottom" has "$out" "   a b c d e f g h"
check "Black's puzzle has Black at the bottom" has "$out" "   h g f e d c b a"

check "the book is saved" test -s "$book"
check "the book has the player's rating" grep -qE '^player	14[0-9][0-9]	3$' "$book"
check "the five games are marked searched" test "$(grep -c '^scanned	' "$book")" -eq 5
check "the four puzzles are in the book" test "$(grep -c '^puzzle	' "$book")" -eq 4
check "the failed puzzle is recorded" \
    grep -qE "^puzzle	rnb1kbnr/pppp1ppp/8/4p3/4P2q/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3	f3h4	d2d3	[0-9]+	[0-9]+	0	196	0	1	0	1	" "$book"
check "the solved puzzle waits a day" \
    grep -qE "^puzzle	r5k1/1b3ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1	d2d8 a8d8 d1d8	h2h3	[0-9]+	[0-9]+	1	260	1	1	1	0	" "$book"

# The second start: nothing searched again; the failed puzzle comes first.
train "train $sample" Nxh4 quit
check "the failed puzzle comes back first" has "$out" "3. Nxh4: right. Solved! (The game: $sample#1 3. d3.)"
check "a retry is not rated" lacks "$out" "Rating 1"
check "no game is searched twice" test "$(grep -c '^puzzle	' "$book")" -eq 4
check "and none marked twice" test "$(grep -c '^scanned	' "$book")" -eq 5

# The fork failed last time: first now; Black's puzzle after it.
train "train $sample" next Rd1 quit
check "Black's puzzle is due" grep -qE '^Black to move: find the best move \(puzzle 2 of [0-9]+, rating 860;' <<<"$out"
check "a mate solves it" has "$out" "1... Rd1#: right. Solved!"

# A corrupt line: named with its number, the rest of the book kept.
printf 'puzzle\tgarbage\n' >>"$book"
lines=$(wc -l <"$book")
train "train $sample" quit
check "a corrupt line is named" has "$out" "Error: $book:$lines: wrong number of fields (the line is kept"
check "the other puzzles are used" grep -qE '^White to move: find the best move \(puzzle 1 of [0-9]+, rating 1010;' <<<"$out"
train "train $sample" back quit
check "the corrupt line stays in the book" grep -qF "puzzle	garbage" "$book"
check "back leaves the training" has "$out" "Back to your game"

# train alone: the archive, and only the moves of the player (White here).
# The line mode reads the next answer only once a puzzle is shown, so what
# each answer meets does not depend on how fast the search is: the failed
# puzzle waits for three others; the third next finds the queue done while
# the search may still run, so it waits for the next puzzle found, and when
# the search ends with none, the failed one comes back as the fourth.
export XDG_DATA_HOME=$tmp/data2
mkdir -p "$XDG_DATA_HOME/patzer"
cp --no-preserve=mode "$sample" "$XDG_DATA_HOME/patzer/games.pgn"
train train d3 next next next quit
check "train alone searches the archive" has "$out" "Looking for puzzles in your games"
check "only the player's mistakes" test "$(grep -c '^puzzle	' "$XDG_DATA_HOME/patzer/puzzles")" -eq 3
check "every game searched" test "$(grep -c '^scanned	' "$XDG_DATA_HOME/patzer/puzzles")" -eq 5
check "the sources name the archive" grep -qE '^Wrong: .*\(The game: games\.pgn#1 3\. d3\.\)' <<<"$out"
check "the others come first" \
    grep -qE '^White to move: find the best move \(puzzle 3 of 3, rating [0-9]+;' <<<"$out"
# The failed one is puzzle 1 again: the same rating (the rating itself, from
# the depth at which the search settled on the move, is not checked here).
first_rating=$(grep -oE '\(puzzle 1 of [0-9]+, rating [0-9]+;' <<<"$out" | head -1 | grep -oE '[0-9]+;')
check "the failed one comes back at the end" \
    grep -qE "^White to move: find the best move \\(puzzle 4 of 4, rating ${first_rating:-none}" <<<"$out"

# Nothing to train on: a missing file.
export XDG_DATA_HOME=$tmp/data3
train "train $tmp/none.pgn" quit
check "a missing file is an error" grep -qE "^Error: .*none\.pgn" <<<"$out"
check "and stays in the game" lacks "$out" "[train]"

# Every move that keeps the win is right: a second mate, a second way to
# win the queen; a move that gives the win away is not.
export XDG_DATA_HOME=$tmp/data4
printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
    "6k1/5ppp/8/8/8/8/5PPP/RR4K1 w - - 0 1" a1a8 h2h3 1490 mate1 "two mates" \
    "k7/8/8/3q4/8/2N1N3/P7/K7 w - - 0 1" c3d5 a2a3 1450 hanging "two knights" \
    "k7/8/8/3q4/8/2N1N3/P7/K7 b - - 0 1" d5d4 d5a5 1400 defence "not a win" >"$tmp/two.txt"
PATZER_PUZZLES=$tmp/two.txt train train Rb8# next Nexd5 next Qd1+ quit
check "a second mate in one is right" has "$out" "1. Rb8#: right. Solved!"
check "a second way to win is right" grep -qE '^1\. Nexd5 also wins \(\+[0-9.]+\): solved! The puzzle.s line was 1\. Ncxd5\.' <<<"$out"
check "a move that gives the win away is wrong" grep -qE '^Wrong: 1\.\.\. Qd1\+ is met by' <<<"$out"

# No games of one's own: the shipped puzzles, by theme too.
export XDG_DATA_HOME=$tmp/data5 PATZER_PUZZLES=$shipped
train train quit
check "no archive: the shipped puzzles" has "$out" "No games of yours yet: puzzles from masters' games"
check "train lists the themes with counts" grep -qE '^Themes: .*fork [0-9]+' <<<"$out"
check "a shipped puzzle is shown" grep -qE '^(White|Black) to move: find the best move \(puzzle 1 of 1, rating [0-9]+; yours 1500\)' <<<"$out"
check "its source is a master game" grep -qE "^puzzle	.*	[^	]+\.pgn#[0-9]+ (after )?[0-9]+\.+ " "$book"
train "train theme fork" solution quit
check "train theme fork gives a fork" grep -qE '^fork: (White|Black) to move: find the best move' <<<"$out"
check "its solution" grep -qE '^Solution: [0-9]+\.' <<<"$out"
train "train theme mate in 1" quit
check "train theme mate in 1" grep -qE '^mate in 1: (White|Black) to move' <<<"$out"
train "train theme" "train theme forks" quit
check "train theme lists the themes" grep -qE '^Themes of the shipped puzzles: .*pin [0-9]+' <<<"$out"
check "an unknown theme is named" has "$out" "Error: No theme 'forks'. Themes: "
check "and stays in the game" lacks "$out" "[train]"

finish
