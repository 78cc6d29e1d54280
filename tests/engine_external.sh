#!/bin/bash
# tests/engine_external.sh: an external UCI engine through `engine` in line
# mode. Stockfish plays a whole game (both sides, a 5-second clock) that is
# saved as valid PGN; analysis shows its MultiPV lines; its options are set
# and listed; a bad command, an engine that is not UCI, one that answers an
# illegal move and one that dies each get a clear message while the built-in
# engine plays on; review uses Stockfish (a second instance) for the report
# and the annotated game, and the built-in engine when that instance fails
# to start or answers an illegal move; --engine and `engine = ...` in patzer.conf; and no engine
# process outlives patzer (quit or SIGTERM). Skipped (77) without stockfish.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
make_tmp
export HOME=$tmp XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data

stockfish=$(command -v stockfish || true)
[ -n "$stockfish" ] || { [ -x /usr/games/stockfish ] && stockfish=/usr/games/stockfish; }
if [ -z "$stockfish" ]; then
    echo "$TEST_NAME: stockfish not installed, skipped"
    exit 77
fi
PATH=$PATH:/usr/games

# feed_until FILE REGEX SECONDS LINES...: writes LINES to patzer, waits until
# its output (in FILE) matches REGEX or the time is up, then sends quit.
feed_until() {
    local out=$1 re=$2 limit=$3
    shift 3
    feed_while_moving "$out" "$re" "$limit" "$limit" "$@"
}

# feed_while_moving FILE REGEX SECONDS IDLE LINES...: the same, but gives up
# sooner after IDLE seconds without a new move ("Last move" line): a game on a
# slow machine may take long, a stuck one fails.
feed_while_moving() {
    local out=$1 re=$2 limit=$3 idle=$4
    shift 4
    {
        printf '%s\n' "$@"
        local i moves=0 now last=0
        for ((i = 0; i < limit * 5; i++)); do
            sleep 0.2
            grep -qE -- "$re" "$out" 2>/dev/null && break
            now=$(grep -c '^Last move' "$out" 2>/dev/null || true)
            if [ "${now:-0}" -gt "$moves" ]; then
                moves=$now
                last=$i
            elif ((i - last > idle * 5)); then
                break
            fi
        done
        echo quit
    } | timeout $((limit + 20)) "$PATZER" >"$out" 2>&1
}

# --- a whole game, Stockfish against itself --------------------------------
# At UCI_Elo 1350 (level 1) with 3 s + 0.05 s a move each, on one thread: a
# game of 150 moves takes at most 2 * (3 + 7.5) s of thinking; most end in a mate
# sooner, in about 10 s here. On a loaded machine (CI's tests beside each other)
# the moves' overheads made games last more than 120 s (move 27 at 120 s, twice):
# the wait goes on while moves come, up to 600 s, and gives up after 60 s without one.
mkdir -p "$XDG_CONFIG_HOME/patzer"
printf '%s\n' 'threads = 1' 'hash = 16' >"$XDG_CONFIG_HOME/patzer/patzer.conf"
feed_while_moving "$tmp/game.out" '^(1-0|0-1|1/2-1/2) ' 600 60 \
    'engine stockfish' 'new white level 1 time 0:03+0.05' 'pace 0' 'play none'
rm "$XDG_CONFIG_HOME/patzer/patzer.conf"
out=$(cat "$tmp/game.out")
check "engine stockfish starts it" grep -q '^Engine: Stockfish .*(stockfish)' <<<"$out"
check "the level's Elo is mapped to UCI_Elo" has "$out" "level 1 (about"
if grep -qE '^(1-0|0-1|1/2-1/2) ' <<<"$out"; then pass "the game ends"; else
    fail "the game ends" "$out"; fi
check "no move was refused or replaced" lacks "$out" "illegal move"
save=$XDG_DATA_HOME/patzer/games.pgn
check "the finished game is archived as PGN" test -s "$save"
check "the PGN names Stockfish for both sides" \
    bash -c "grep -q '^\[White \"Stockfish' '$save' && grep -q '^\[Black \"Stockfish' '$save'"
line=$("$PATZER" pgn "$save" 2>&1 | head -1)
IFS=$'\t' read -r _ result plies _ <<<"$line"
check "the PGN is valid with a result ($line)" grep -qE '^(1-0|0-1|1/2-1/2)$' <<<"${result:-}"
check "the game has moves ($plies plies)" test "${plies:-0}" -ge 10
check "the archived result is the one shown" grep -qE "^$(printf '%s' "$result" | sed 's#/#\\/#g') " <<<"$out"

# --- options, hints, back to the built-in engine ---------------------------
out=$(printf '%s\n' 'engine stockfish' 'engine options' 'engine option Skill Level 3' \
      'engine option Skill Level 99' 'engine option Bogus 1' 'engine' \
      'engine builtin' 'engine' 'engine option MultiPV 2' 'new white level 3' e4 quit |
      timeout 60 "$PATZER" 2>&1)
check "engine options lists what the engine declared" grep -q '^  MultiPV (spin 1\.\.' <<<"$out"
check "engine option Skill Level 3 is accepted" has "$out" "Skill Level = 3"
check "an out-of-range value is refused" has "$out" "Skill Level takes a number from"
check "an unknown option is refused" has "$out" "has no option 'Bogus 1'"
check "engine builtin returns" has "$out" "Engine: the built-in engine"
check "built-in options after builtin" has "$out" "Built-in engine: MultiPV = 2"
check "the built-in engine replies" grep -qE '^Last move: 1\.\.\. ' <<<"$out"

feed_until "$tmp/hint.out" '^Hint: move your' 20 'engine stockfish' hint
check "a hint from stockfish" grep -q '^Hint: move your' "$tmp/hint.out"

# --- analysis lines --------------------------------------------------------
out=$(printf '%s\n' 'engine stockfish' 'lines 3' 'analyze depth 10' quit |
      timeout 60 "$PATZER" 2>&1)
check "analysis shows three lines" grep -qE '^depth 10 line 3 score [-+#0-9.]+ nodes ' <<<"$out"
check "analysis ends at its depth" has "$out" "Analysis done."

# --- review with the external engine ----------------------------------------
# 8 positions at 300 ms each.
out=$(printf '%s\n' 'engine stockfish' 'play both' e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7 review \
      "save $tmp/reviewed.pgn" quit | timeout 60 "$PATZER" --new 2>&1)
check "the review says its engine" has "$out" "Reviewing 4 moves with Stockfish"
check "the game report follows" has "$out" "Game report"
check "the report names the reviewer" grep -q '^Reviewed by Stockfish' <<<"$out"
check "the summary names the reviewer" grep -qE '^Review: .* Reviewed by Stockfish' <<<"$out"
check "Stockfish finds the blunder" grep -qE '^[1-3]\. 3\.\.\. Nf6\?\? .*Better was ' <<<"$out"
grep -A4 '^The moments that decided' <<<"$out" | sed 's/^/#   /' || true # for the log
check "no fallback to the built-in engine" lacks "$out" "review uses the built-in engine"
# The writer wraps lines: the move and its NAG may fall on two.
check "save writes the annotated moves" grep -qF "Nf6 \$4" <(tr '\n' ' ' < "$tmp/reviewed.pgn")
check "with Stockfish as the annotator" grep -q '^\[Annotator "Stockfish' "$tmp/reviewed.pgn"
check "the archive keeps the annotated copy" grep -q '^\[Annotator "Stockfish' "$save"

# An engine that starts once (for the game) but not a second time.
cat >"$tmp/once" <<EOF
#!/bin/sh
[ -e "\$0.ran" ] && exit 3
: >"\$0.ran"
exec $stockfish
EOF
chmod +x "$tmp/once"
out=$(printf '%s\n' "engine $tmp/once" 'play both' e4 e5 review quit |
      timeout 60 "$PATZER" --new 2>&1)
check "a second instance that cannot start: the built-in engine reviews" \
    has "$out" "review uses the built-in engine: engine '$tmp/once' exited before answering uciok"
check "and the review ends with its report" grep -qE '^Review: .* Reviewed by the built-in engine' <<<"$out"

# --- engines that fail -----------------------------------------------------
out=$(printf '%s\n' 'engine /nonexistent' 'engine true' 'new white level 1' e4 quit |
      timeout 60 "$PATZER" 2>&1)
check "a missing engine is a clear error" \
    has "$out" "Cannot use the engine: cannot run '/nonexistent': No such file or directory"
check "an engine that exits is a clear error" has "$out" "engine 'true' exited before answering uciok"
check "the built-in engine plays on" grep -qE '^Last move: 1\.\.\. ' <<<"$out"
out=$(printf '%s\n' 'engine cat' quit | timeout 60 "$PATZER" 2>&1)
check "an engine that never says uciok is a clear error" \
    has "$out" "engine 'cat' did not answer uciok within 5000 ms (is it a UCI engine?)"

cat >"$tmp/cheat" <<'EOF'
#!/bin/sh
# A UCI engine that answers an illegal move, then dies at its next search.
while read -r l; do
    case "$l" in
    uci) echo 'id name Cheat'; echo uciok ;;
    isready) echo readyok ;;
    go*) if [ -z "$n" ]; then echo 'info depth 1 score cp 0 pv e7e4'; echo 'bestmove e7e4'; n=1
         else exit 1; fi ;;
    quit) exit 0 ;;
    esac
done
EOF
chmod +x "$tmp/cheat"
out=$(printf '%s\n' "engine $tmp/cheat" 'new white level 1' e4 d4 'engine' quit |
      timeout 60 "$PATZER" 2>&1)
check "an illegal move is reported" has "$out" "answered the illegal move 'e7e4'; the built-in engine plays this move"
check "the built-in engine played that move" grep -qE '^Last move: 1\.\.\. ' <<<"$out"
check "a dead engine is reported" has "$out" "stopped (exit status 1); back to the built-in engine"
check "the built-in engine plays after it" grep -qE '^Last move: 2\.\.\. ' <<<"$out"
check "and is the engine in use" has "$out" "Engine: the built-in engine"
out=$(printf '%s\n' "engine $tmp/cheat" 'new white level 1' e4 review quit |
      timeout 60 "$PATZER" 2>&1)
check "the review's instance answers an illegal move: the built-in engine reviews" \
    has "$out" "review uses the built-in engine: engine '$tmp/cheat' answered the illegal move 'e7e4'"
check "the whole game, with its report" grep -qE '^Review: .* Reviewed by the built-in engine' <<<"$out"

cat >"$tmp/hang" <<'EOF'
#!/bin/bash
# A UCI engine that never ends a search, nor quits when asked.
trap '' TERM INT
while :; do
    read -r l || { sleep 1; continue; }
    case "$l" in
    uci) echo 'id name Hang'; echo uciok ;;
    isready) echo readyok ;;
    go*) echo 'info depth 1 score cp 0 pv e2e4' ;;
    esac
done
EOF
chmod +x "$tmp/hang"
start_ms=$(now_ms)
out=$(printf '%s\n' "engine $tmp/hang" analyze stop engine quit | timeout 60 "$PATZER" 2>&1)
check "an engine that does not stop is dropped" \
    has "$out" "did not stop its search when asked; back to the built-in engine"
check "then the built-in engine is in use" has "$out" "Engine: the built-in engine"
check "and patzer quits at once ($(($(now_ms) - start_ms)) ms)" test $(($(now_ms) - start_ms)) -lt 15000

# --- --engine and the config key ------------------------------------------
out=$(printf '%s\n' engine quit | timeout 30 "$PATZER" --engine /nonexistent 2>&1)
check "--engine with a bad command: error, built-in" has "$out" "cannot run '/nonexistent'"
mkdir -p "$XDG_CONFIG_HOME/patzer"
echo 'engine = stockfish' >"$XDG_CONFIG_HOME/patzer/patzer.conf"
out=$(printf '%s\n' engine quit | timeout 30 "$PATZER" 2>&1)
check "engine = stockfish in patzer.conf" grep -q '^Engine: Stockfish' <<<"$out"
rm "$XDG_CONFIG_HOME/patzer/patzer.conf"

# --- no engine process outlives patzer ------------------------------------
marker=patzer-test-engine-$$
printf '#!/bin/bash\nexec -a %s %s "$@"\n' "$marker" "$stockfish" >"$tmp/sf"
chmod +x "$tmp/sf"
printf '%s\n' engine quit | timeout 30 "$PATZER" --engine "$tmp/sf" >"$tmp/quit.out" 2>&1
check "the engine ran" grep -q '^Engine: Stockfish' "$tmp/quit.out"
engine_running() { pgrep -f "^$marker" >/dev/null; }
engine_gone() { ! engine_running; }
check "quit ends the engine" engine_gone
mkfifo "$tmp/in"
"$PATZER" --engine "$tmp/sf" <"$tmp/in" >"$tmp/term.out" 2>&1 &
pid=$!
exec 3>"$tmp/in" # patzer waits for more input until it is killed
echo engine >&3  # line mode starts with the first line
check "the engine runs beside patzer" wait_until 5 engine_running
sleep 0.5
kill -TERM "$pid"
wait "$pid" 2>/dev/null
exec 3>&-
check "SIGTERM to patzer ends the engine" wait_until 2 engine_gone
for p in $(pgrep -f "^$marker"); do kill -9 "$p"; done # never leave one behind

finish
