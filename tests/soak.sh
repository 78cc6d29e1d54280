#!/bin/bash
# tests/soak.sh: a soak test of the protocols. Generates random UCI and
# xboard command sequences from a fixed seed (searches of every kind, stop,
# quit and ucinewgame during a search, position changes while searching,
# isready/ping while thinking, garbage, huge and negative numbers, bad FENs
# and moves) and runs each through "patzer uci" / "patzer xboard" under a
# timeout. Every run must exit with status 0 (no crash, no hang), and:
#   UCI:    one "bestmove" per go, one "readyok" per isready, one "uciok"
#           per uci (counting the commands before the first quit);
#   xboard: one "pong N" per valid "ping N" before the first quit.
# About one run in five feeds its lines with short pauses, so commands land
# while a search is running rather than all at once.
#
# Environment: SOAK_SEQUENCES (sequences per protocol, default 300),
# SOAK_SEED (default 1), SOAK_JOBS (parallel runs, default 2),
# SOAK_TIMEOUT (seconds per run, default 20), SOAK_KEEP=dir (keep the
# failing inputs there). A failing sequence is printed with its command to
# reproduce it: patzer uci < FILE.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}/tests/lib.sh"
need_patzer
case $PATZER in /*) ;; *) PATZER=$PWD/$PATZER ;; esac
SEQS=${SOAK_SEQUENCES:-300}
SEED=${SOAK_SEED:-1}
JOBS=${SOAK_JOBS:-2}
TIMEOUT=${SOAK_TIMEOUT:-20}

# ------------------------------------------------------------------ one run
#
# soak.sh --one FILE: runs one generated sequence. FILE's first line is
# "# PROTOCOL SLOW EXPECT..." (see gen_*), the rest is the input.
if [ "${1:-}" = --one ]; then
    f=$2
    read -r _ proto slow want_best want_ready want_uciok want_pong <"$f"
    out=$f.out
    if [ "$slow" = 1 ]; then
        tail -n +2 "$f" | while IFS= read -r line; do
            printf '%s\n' "$line" || exit 0
            sleep "0.0$((RANDOM % 4))"
        done | timeout -k 5 "$TIMEOUT" "$PATZER" "$proto" >"$out" 2>"$f.err"
        status=${PIPESTATUS[2]}
    else
        tail -n +2 "$f" | timeout -k 5 "$TIMEOUT" "$PATZER" "$proto" >"$out" 2>"$f.err"
        status=${PIPESTATUS[1]}
    fi
    problems=()
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        problems+=("hang: no exit within ${TIMEOUT}s")
    elif [ "$status" -gt 128 ]; then
        problems+=("killed by signal $((status - 128))")
    elif [ "$status" -ne 0 ]; then
        problems+=("exit status $status")
    fi
    if [ "$proto" = uci ]; then
        n=$(grep -c '^bestmove ' "$out")
        [ "$n" -eq "$want_best" ] || problems+=("$n bestmove lines for $want_best go commands")
        n=$(grep -c '^readyok$' "$out")
        [ "$n" -eq "$want_ready" ] || problems+=("$n readyok for $want_ready isready")
        n=$(grep -c '^uciok$' "$out")
        [ "$n" -eq "$want_uciok" ] || problems+=("$n uciok for $want_uciok uci")
        bad=$(grep '^bestmove ' "$out" | grep -Ev '^bestmove ([a-h][1-8][a-h][1-8][qrbn]?|0000)( ponder [a-h][1-8][a-h][1-8][qrbn]?)?$' | head -n 1)
        [ -z "$bad" ] || problems+=("malformed: $bad")
    else
        n=$(grep -c '^pong ' "$out")
        [ "$n" -eq "$want_pong" ] || problems+=("$n pong lines for $want_pong ping commands")
    fi
    if grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$f.err"; then
        problems+=("sanitizer report: $(grep -m1 'runtime error\|Sanitizer' "$f.err")")
    fi
    if [ ${#problems[@]} -gt 0 ]; then
        {
            echo "FAIL: $proto sequence ${f##*/} (slow=$slow): $(IFS=';'; echo "${problems[*]}")"
            echo "  reproduce: tail -n +2 $f | $PATZER $proto"
            sed -n '2,60p' "$f" | sed 's/^/  > /'
            tail -n 5 "$f.err" | sed 's/^/  ! /'
        } >"$f.fail"
        exit 1
    fi
    rm -f "$out" "$f.err"
    exit 0
fi

# ------------------------------------------------------------------ generator

RANDOM=$SEED
pick() { local -n arr=$1; REPLY=${arr[RANDOM % ${#arr[@]}]}; }
num() { REPLY=$(($1 + RANDOM % ($2 - $1 + 1))); }

FENS=(
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
    "8/8/8/8/8/8/6k1/4K2R w K - 99 80"
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
)
BAD_FENS=(
    "8/8/8/8/8/8/8/8 w - - 0 1" "junk" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" "K7/8/8/8/8/8/8/7k w - e3 0 1"
    "kK6/8/8/8/8/8/8/8 w - - 0 1" "" "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -5 999999999999"
)
LINES=(
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7"
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8"
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6"
    "g1f3 g8f6 g2g3 g7g6 f1g2 f8g7 e1g1 e8g8 d2d3 d7d6"
    "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 g8f6 g1f3 c8f5"
)
BAD_MOVES=(e2e5 e1g1 a7a8q 0000 zz e2 e2e4e5 Nf3 e7e8 h2h9 "")
NUMS=(0 1 -1 -100 5 50 300 99999999999 -99999999999 999999999999999999999 abc 1e3 0x10 "" 2147483648)
GARBAGE_WORDS=("" "  " "=" "###" "XYZZY" "ZZ 12 -5" "\t" "@@@" "17" "-- --" "A B C" ")" "\r")

prefix_moves() { # a random prefix of a random line
    local line words n
    pick LINES; line=$REPLY
    read -ra words <<<"$line"
    num 0 ${#words[@]}; n=$REPLY
    REPLY="${words[*]:0:n}"
}

garbage_line() {
    local out="" n i
    num 1 5; n=$REPLY
    for ((i = 0; i < n; i++)); do pick GARBAGE_WORDS; out+="$REPLY "; done
    if [ $((RANDOM % 20)) -eq 0 ]; then # a long line
        out+=$(printf 'Q%.0s' $(seq 1 $((1000 + RANDOM % 5000))))
    fi
    REPLY=$out
}

# UCI: header "# uci SLOW BESTMOVES READYOK UCIOK 0".
gen_uci() {
    local n i r lines=() go=0 ready=0 uciok=0 quit=0 m f
    num 3 25; n=$REPLY
    [ $((RANDOM % 3)) -eq 0 ] && { lines+=("uci"); uciok=1; }
    for ((i = 0; i < n; i++)); do
        r=$((RANDOM % 100))
        if ((r < 22)); then # go, of every kind
            case $((RANDOM % 12)) in
            0) num 1 5; lines+=("go depth $REPLY") ;;
            1) num 1 60; lines+=("go movetime $REPLY") ;;
            2) num 1 20000; lines+=("go nodes $REPLY") ;;
            3) pick NUMS; m=$REPLY; pick NUMS; lines+=("go wtime $m btime $REPLY winc 0 binc -5") ;;
            4) num 1 300; m=$REPLY; num 1 300; lines+=("go wtime $m btime $REPLY movestogo $((RANDOM % 5))") ;;
            5) lines+=("go infinite") ;;
            6) num 1 200; lines+=("go ponder wtime $REPLY btime $REPLY") ;;
            7) lines+=("go") ;;
            8) lines+=("go mate $((1 + RANDOM % 3)) depth 4") ;;
            9) lines+=("go searchmoves e2e4 d2d4 a1a8 depth 3") ;;
            10) pick NUMS; lines+=("go depth $REPLY movetime 20") ;;
            11) lines+=("go depth 99999999999999999999 nodes 5000") ;;
            esac
            [ $quit = 0 ] && go=$((go + 1))
        elif ((r < 30)); then lines+=("stop")
        elif ((r < 37)); then lines+=("isready"); [ $quit = 0 ] && ready=$((ready + 1))
        elif ((r < 50)); then
            prefix_moves; m=$REPLY
            case $((RANDOM % 5)) in
            0 | 1) lines+=("position startpos${m:+ moves $m}") ;;
            2) pick FENS; lines+=("position fen $REPLY") ;;
            3) pick BAD_FENS; lines+=("position fen $REPLY moves e2e4") ;;
            4) pick BAD_MOVES; lines+=("position startpos moves $m $REPLY") ;;
            esac
        elif ((r < 54)); then lines+=("ucinewgame")
        elif ((r < 57)); then lines+=("ponderhit")
        elif ((r < 66)); then
            case $((RANDOM % 10)) in
            0) num 1 32; lines+=("setoption name Hash value $REPLY") ;;
            1) num 1 4; lines+=("setoption name MultiPV value $REPLY") ;;
            2) lines+=("setoption name Clear Hash") ;;
            3) lines+=("setoption name UCI_LimitStrength value $([ $((RANDOM % 2)) = 0 ] && echo true || echo false)") ;;
            4) pick NUMS; lines+=("setoption name UCI_Elo value $REPLY") ;;
            5) lines+=("setoption name OwnBook value true") ;;
            6) pick NUMS; lines+=("setoption name Contempt value $REPLY") ;;
            7) lines+=("setoption name Threads value 4") ;;
            8) lines+=("setoption name No Such Option value 1") ;;
            9) lines+=("setoption value name") ;;
            esac
        elif ((r < 69)); then lines+=("uci"); [ $quit = 0 ] && uciok=$((uciok + 1))
        elif ((r < 72)); then lines+=("d")
        elif ((r < 74)); then lines+=("perft $((RANDOM % 4))")
        elif ((r < 76)); then lines+=("debug on")
        elif ((r < 78)); then lines+=("quit"); quit=1
        else garbage_line; lines+=("$REPLY")
        fi
    done
    slow=$([ $((RANDOM % 5)) -eq 0 ] && echo 1 || echo 0)
    printf '# uci %s %d %d %d 0\n' "$slow" "$go" "$ready" "$uciok"
    printf '%s\n' "${lines[@]}"
}

BAD_PINGS=("ping" "ping abc" "ping 99999999999" "ping 1.5" "ping -")
XB_MOVES=(e2e4 e7e5 d2d4 d7d5 g1f3 b8c6 Nf3 Nc6 e4 e5 O-O e1g1 a7a8q h2h9 zz exd5 Bb5 a6)

# xboard: header "# xboard SLOW 0 0 0 PONGS".
gen_xboard() {
    local n i r lines=() pongs=0 quit=0 m
    num 3 25; n=$REPLY
    lines+=("xboard")
    [ $((RANDOM % 2)) -eq 0 ] && lines+=("protover 2")
    for ((i = 0; i < n; i++)); do
        r=$((RANDOM % 100))
        if ((r < 8)); then lines+=("new")
        elif ((r < 13)); then lines+=("force")
        elif ((r < 20)); then lines+=("go")
        elif ((r < 23)); then lines+=("playother")
        elif ((r < 36)); then pick XB_MOVES; lines+=("$([ $((RANDOM % 2)) = 0 ] && echo "usermove ")$REPLY")
        elif ((r < 40)); then lines+=("undo")
        elif ((r < 43)); then lines+=("remove")
        elif ((r < 48)); then
            if [ $((RANDOM % 3)) = 0 ]; then pick BAD_FENS; else pick FENS; fi
            lines+=("setboard $REPLY")
        elif ((r < 53)); then lines+=("analyze")
        elif ((r < 56)); then lines+=("exit")
        elif ((r < 59)); then lines+=("?")
        elif ((r < 61)); then lines+=(".")
        elif ((r < 69)); then
            if [ $((RANDOM % 4)) = 0 ]; then # not a 32-bit number: an error, no pong
                pick BAD_PINGS; lines+=("$REPLY")
            else
                num 1 30000; lines+=("ping $REPLY"); [ $quit = 0 ] && pongs=$((pongs + 1))
            fi
        elif ((r < 72)); then num 1 5; lines+=("sd $REPLY")
        elif ((r < 75)); then lines+=("st 0.0$((RANDOM % 10))")
        elif ((r < 78)); then pick NUMS; lines+=("time $REPLY"); pick NUMS; lines+=("otim $REPLY")
        elif ((r < 80)); then lines+=("level 40 0:0$((RANDOM % 6)) 0")
        elif ((r < 82)); then lines+=("post")
        elif ((r < 83)); then lines+=("nopost")
        elif ((r < 84)); then lines+=("hard")
        elif ((r < 85)); then lines+=("hint")
        elif ((r < 86)); then lines+=("draw")
        elif ((r < 87)); then lines+=("result 1-0 {White mates}")
        elif ((r < 88)); then num 1 32; lines+=("memory $REPLY")
        elif ((r < 89)); then pick NUMS; lines+=("option Contempt=$REPLY")
        elif ((r < 90)); then lines+=("variant $([ $((RANDOM % 2)) = 0 ] && echo normal || echo suicide)")
        elif ((r < 92)); then lines+=("quit"); quit=1
        else garbage_line; lines+=("$REPLY")
        fi
    done
    slow=$([ $((RANDOM % 5)) -eq 0 ] && echo 1 || echo 0)
    printf '# xboard %s 0 0 0 %d\n' "$slow" "$pongs"
    printf '%s\n' "${lines[@]}"
}

make_tmp
export XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state HOME=$tmp
unset PATZER_BOOK

start=$SECONDS
for ((s = 0; s < SEQS; s++)); do
    gen_uci >"$tmp/$(printf 'uci-%05d' $s)"
    gen_xboard >"$tmp/$(printf 'xboard-%05d' $s)"
done
echo "soak: seed $SEED, $SEQS UCI and $SEQS xboard sequences generated in $((SECONDS - start)) s"

export PATZER TIMEOUT
start=$SECONDS
ls "$tmp"/uci-* "$tmp"/xboard-* | xargs -P "$JOBS" -n 1 "$BASH" "${BASH_SOURCE[0]}" --one
fails=$(ls "$tmp"/*.fail 2>/dev/null | wc -l)
echo "soak: $((2 * SEQS)) runs in $((SECONDS - start)) s, $fails failed"
if [ "$fails" -gt 0 ]; then
    for f in $(ls "$tmp"/*.fail | head -n 10); do cat "$f"; done
    if [ -n "${SOAK_KEEP:-}" ]; then
        mkdir -p "$SOAK_KEEP" && for f in "$tmp"/*.fail; do cp "${f%.fail}" "$SOAK_KEEP/"; done
        echo "soak: failing inputs kept in $SOAK_KEEP"
    fi
    exit 1
fi
