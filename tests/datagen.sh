#!/bin/bash
# tests/datagen.sh: `patzer datagen` writes whole games with two workers,
# continues a stopped run to the same data as an uninterrupted one, refuses
# to mix settings, and its --stats and --to-epd readers agree with the data.
#
# Run by "make check" with $PATZER and $srcdir set, or by hand from the
# source tree. Prints "N passed, M failed" last; exits 1 on any failure.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
opts="--nodes 300 --jobs 2 --progress 1000"

out=$(timeout 120 "$PATZER" datagen --out "$tmp/a" --positions 300 $opts 2>&1)
if [ $? -eq 0 ] && [ -s "$tmp/a/worker-000.bin" ] && [ -s "$tmp/a/worker-001.bin" ]; then
    pass "two workers write their files"
else
    fail "two workers write their files" "$out"
fi
last=$(printf '%s\n' "$out" | tail -n 1)
if [[ $last =~ ^datagen:\ [0-9]+\ games,\ [0-9]+\ positions\ \([0-9.]+%\),\ [0-9]+\ positions/s ]]; then
    pass "progress line"
else
    fail "progress line" "$out"
fi
size=$(($(stat -c %s "$tmp/a/worker-000.bin") + $(stat -c %s "$tmp/a/worker-001.bin")))
if [ $((size % 32)) -eq 0 ] && [ $((size / 32)) -ge 300 ]; then
    pass "whole 32-byte records, at least the target"
else
    fail "whole 32-byte records, at least the target" "size $size"
fi

# A stopped run: the first 150 positions, then the rest of the same target.
"$PATZER" datagen --out "$tmp/b" --positions 150 $opts > /dev/null 2>&1
# A torn game: three records (a game's first, without its end) and a part.
head -c 100 "$tmp/a/worker-000.bin" > "$tmp/torn"
cat "$tmp/torn" >> "$tmp/b/worker-000.bin"
before=$(($(stat -c %s "$tmp/b/worker-000.bin") + $(stat -c %s "$tmp/b/worker-001.bin") - 100))
out=$(timeout 120 "$PATZER" datagen --out "$tmp/b" --positions 300 $opts 2>&1)
if [[ $out == *" $((before / 32)) positions on disk"* ]]; then
    pass "the torn game is cut before counting"
else
    fail "the torn game is cut before counting" "$out"
fi
if cmp -s "$tmp/a/worker-000.bin" "$tmp/b/worker-000.bin" &&
   cmp -s "$tmp/a/worker-001.bin" "$tmp/b/worker-001.bin"; then
    pass "a continued run reproduces the uninterrupted one"
else
    fail "a continued run reproduces the uninterrupted one" "$out"
fi

out=$("$PATZER" datagen --out "$tmp/a" --positions 300 --nodes 301 --jobs 2 2>&1)
if [ $? -eq 2 ] && [[ $out == *"other settings"* ]]; then
    pass "other settings are refused"
else
    fail "other settings are refused" "$out"
fi

stats=$("$PATZER" datagen --stats --out "$tmp/a" 2>&1)
records=$((size / 32))
if [[ $stats == *"positions  $records "* ]] && [[ $stats == *"games "* ]]; then
    pass "--stats counts the records"
else
    fail "--stats counts the records" "$stats"
fi

"$PATZER" datagen --to-epd "$tmp/all.epd" --all --out "$tmp/a" 2> /dev/null
"$PATZER" datagen --to-epd "$tmp/quiet.epd" --out "$tmp/a" 2> /dev/null
all=$(wc -l < "$tmp/all.epd")
quiet=$(wc -l < "$tmp/quiet.epd")
bad=$(grep -Evc '^[^ ]+ [wb] [-KQkq]+ [-a-h1-8]+ ce -?[0-9]+;( pm [^;]+;)? c9 "(1-0|0-1|1/2-1/2)"; hmvc [0-9]+; fmvn [0-9]+;$' "$tmp/all.epd")
if [ "$all" -eq "$records" ] && [ "$quiet" -gt 0 ] && [ "$quiet" -lt "$all" ] && [ "$bad" -eq 0 ]; then
    pass "--to-epd writes every position (--all) or the quiet ones"
else
    fail "--to-epd writes every position (--all) or the quiet ones" "all $all quiet $quiet bad $bad"
fi
# The EPD positions are legal: the epd solver parses them (with their pm as bm).
sed -n '1,5{s/ pm / bm /;p}' "$tmp/all.epd" > "$tmp/five.epd"
if "$PATZER" epd "$tmp/five.epd" --movetime 10 > /dev/null 2>&1 || [ $? -eq 1 ]; then
    pass "the EPD output is read back by patzer epd"
else
    fail "the EPD output is read back by patzer epd"
fi

out=$("$PATZER" datagen --jobs 0 2>&1)
if [ $? -eq 2 ] && [[ $out == *"--jobs needs a number"* ]]; then
    pass "bad option value"
else
    fail "bad option value" "$out"
fi
printf 'not a fen\n' > "$tmp/book.epd"
out=$("$PATZER" datagen --out "$tmp/c" --book "$tmp/book.epd" 2>&1)
if [ $? -eq 2 ] && [[ $out == *"book.epd:1: bad FEN"* ]]; then
    pass "bad opening book line"
else
    fail "bad opening book line" "$out"
fi

# --960: games from Chess960 starts; their castling rights read back by perft.
if "$PATZER" datagen --960 --out "$tmp/c960" --positions 200 --jobs 1 --nodes 300 >/dev/null 2>&1 &&
    "$PATZER" datagen --to-epd "$tmp/c960.epd" --all --out "$tmp/c960" >/dev/null 2>&1; then
    pass "--960 runs"
else
    fail "--960 runs"
fi
if grep -q "book chess960" "$tmp/c960/settings.txt"; then pass "--960 is in the settings"; else
    fail "--960 is in the settings"; fi
# Not every start is off the standard squares, but some of 200 positions are.
first=$(head -1 "$tmp/c960.epd" | cut -d' ' -f1)
# Their rights are X-FEN (the engine's one FEN writer): KQkq names the outermost
# rook on each side of the king, wherever it stands, and reads back to it.
if [ -n "$first" ] && [[ $first != rnbqkbnr/* ]] &&
    [ "$(cut -d' ' -f3 "$tmp/c960.epd" | grep -c '[KQkq]')" -gt 0 ]; then
    pass "--960: Chess960 positions with their castling rights"
else
    fail "--960: Chess960 positions with their castling rights"
fi
bad=0
while read -r placement side castle ep _; do
    "$PATZER" perft 1 "$placement $side $castle $ep 0 1" >/dev/null 2>&1 || bad=$((bad + 1))
done < <(head -50 "$tmp/c960.epd")
if [ "$bad" -eq 0 ]; then pass "--960: the positions read back"; else
    fail "--960: $bad positions do not read back"; fi
out=$("$PATZER" datagen --960 --book "$tmp/book.epd" --out "$tmp/d" 2>&1)
if [ $? -eq 2 ] && [[ $out == *"--960 and --book exclude each other"* ]]; then
    pass "--960 with --book is refused"
else
    fail "--960 with --book is refused" "$out"
fi

# --eval-file: the games are played with a net (builtin: the one in the program), named in
# the settings by its weights' checksum, so that the run is continued with it only.
if "$PATZER" datagen --eval-file builtin --out "$tmp/net" --positions 100 --jobs 1 \
    --nodes 300 >/dev/null 2>&1 && grep -q " eval nnue [0-9a-f]\{8\} format 1" "$tmp/net/settings.txt" &&
    [ "$(stat -c %s "$tmp/net/worker-000.bin")" -ge 3200 ]; then
    pass "--eval-file builtin plays with the net and says so in the settings"
else
    fail "--eval-file builtin plays with the net and says so in the settings" \
        "$(cat "$tmp/net/settings.txt" 2>&1)"
fi
out=$("$PATZER" datagen --out "$tmp/net" --positions 200 --jobs 1 --nodes 300 2>&1)
if [ $? -eq 2 ] && [[ $out == *"other settings"* ]]; then
    pass "a net's run is not continued with the hand-crafted evaluation"
else
    fail "a net's run is not continued with the hand-crafted evaluation" "$out"
fi
out=$("$PATZER" datagen --eval-file "$tmp/missing.nnue" --out "$tmp/n2" --jobs 1 2>&1)
if [ $? -eq 2 ] && [[ $out == *"--eval-file $tmp/missing.nnue: cannot open"* ]]; then
    pass "a net that cannot be read is named"
else
    fail "a net that cannot be read is named" "$out"
fi

# --rescore: the positions of games played elsewhere, searched as self-play would and stored
# with each game's result. Of five games, "*" and the one with an illegal move are left out
# (the illegal one named with its place, once), and a game from a FEN keeps its move numbers.
cat > "$tmp/games.pgn" << 'PGN'
[Event "a"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "b"]
[Result "*"]

1. d4 d5 *

[Event "c"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"]
[Result "1/2-1/2"]

40. e4 Kd7 41. e5 1/2-1/2

[Event "d"]
[Result "1-0"]

1. e4 e5 2. Kf3 Nc6 1-0

[Event "e"]
[Result "0-1"]

1. Nf3 0-1
PGN
out=$(timeout 120 "$PATZER" datagen --rescore "$tmp/games.pgn" --out "$tmp/rs" --jobs 2 \
    --nodes 300 --progress 1000 2>&1)
if [ $? -eq 0 ] && [[ $out == *"3 games, 11 positions scored"* ]] &&
    [ "$(grep -c "games.pgn:21:13: game 4: illegal move 'Kf3'" <<< "$out")" -eq 1 ]; then
    pass "--rescore stores every position of the finished games and names the broken one"
else
    fail "--rescore stores every position of the finished games and names the broken one" "$out"
fi
"$PATZER" datagen --to-epd "$tmp/rs.epd" --all --out "$tmp/rs" 2> /dev/null
if [ "$(grep -c 'c9 "1-0"' "$tmp/rs.epd")" -eq 7 ] && [ "$(grep -c 'c9 "0-1"' "$tmp/rs.epd")" -eq 1 ] &&
    grep -q '^8/3k4/8/8/4P3/8/8/4K3 w - - ce -\?[0-9]*; pm [^;]*; c9 "1/2-1/2"; hmvc 1; fmvn 41;$' \
        "$tmp/rs.epd"; then
    pass "--rescore: each position with its game's result and move number"
else
    fail "--rescore: each position with its game's result and move number" "$(cat "$tmp/rs.epd")"
fi
cp "$tmp/rs/worker-000.bin" "$tmp/rs-000.bin"
out=$("$PATZER" datagen --rescore "$tmp/games.pgn" --out "$tmp/rs" --jobs 2 --nodes 300 2>&1)
if [ $? -eq 0 ] && [[ $out == *"3 games, 11 positions scored"* ]] &&
    cmp -s "$tmp/rs/worker-000.bin" "$tmp/rs-000.bin"; then
    pass "--rescore run again goes on where it stopped (here: at the end)"
else
    fail "--rescore run again goes on where it stopped (here: at the end)" "$out"
fi
# A rescoring run's settings name what it uses (the games, nodes, hash, jobs), not the
# seed or random plies it has no use for: a restart with other ones goes on.
out=$("$PATZER" datagen --rescore "$tmp/games.pgn" --out "$tmp/rs" --jobs 2 --nodes 300 \
    --seed 9 --random-plies 2 2>&1)
if [ $? -eq 0 ] && grep -qx "rescore $tmp/games.pgn nodes 300 hash [0-9]* jobs 2 format 1" \
    "$tmp/rs/settings.txt" && cmp -s "$tmp/rs/worker-000.bin" "$tmp/rs-000.bin"; then
    pass "--rescore: the settings name the games and the search, not the seed"
else
    fail "--rescore: the settings name the games and the search, not the seed" \
        "$out $(cat "$tmp/rs/settings.txt")"
fi
out=$("$PATZER" datagen --rescore "$tmp/games.pgn" --book "$tmp/book.epd" --out "$tmp/rs2" 2>&1)
if [ $? -eq 2 ] && [[ $out == *"--rescore takes the games' own starts"* ]]; then
    pass "--rescore with --book is refused"
else
    fail "--rescore with --book is refused" "$out"
fi
out=$("$PATZER" datagen --rescore "$tmp/none.pgn" --out "$tmp/rs3" --jobs 1 2>&1)
if [ $? -eq 2 ] && [[ $out == "patzer datagen: --rescore: cannot open $tmp/none.pgn"* ]] &&
    [ ! -e "$tmp/rs3" ]; then
    pass "a PGN that cannot be read is named"
else
    fail "a PGN that cannot be read is named" "$out"
fi

finish
