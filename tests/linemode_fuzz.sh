#!/bin/bash
# tests/linemode_fuzz.sh: random command sequences through the line mode.
# From a fixed seed it generates sessions of commands in every mode (moves,
# FENs, load/game N/back, edit, analyze, play none, review, stop...), some
# of them mutated (garbage words, cut or corrupted FENs and moves, huge and
# negative numbers), and runs each through patzer under a timeout. Every run
# must end by itself with status 0: no crash, no hang, no sanitizer report
# (an ASan/UBSan build aborts with another status).
#
# Environment: FUZZ_SEQUENCES (default 200), FUZZ_SEED (default 1),
# FUZZ_JOBS (default 2), FUZZ_TIMEOUT (seconds per run, default 120: a sequence that
# reviews a game with blunders runs the review's checks and second opinions, 1,000,000
# nodes each, which took 7 s in a sanitizer build on a quiet machine and over 30 s under a
# loaded one; a hang still ends the run),
# FUZZ_KEEP=dir (keep failing inputs). make soak runs it longer.
set -u
PATZER=${PATZER:-src/patzer}
case $PATZER in /*) ;; *) PATZER=$PWD/$PATZER ;; esac
SEQS=${FUZZ_SEQUENCES:-200}
SEED=${FUZZ_SEED:-1}
JOBS=${FUZZ_JOBS:-2}
TIMEOUT=${FUZZ_TIMEOUT:-120}

# ------------------------------------------------------------------ one run
if [ "${1:-}" = --one ]; then
    f=$2
    home=$f.home
    mkdir -p "$home"
    # In a directory of its own: "save FILE" writes there, not in the tree.
    (cd "$home" && HOME=$home XDG_STATE_HOME=$home/state XDG_CONFIG_HOME=$home/config \
        XDG_DATA_HOME=$home/data timeout -k 5 "$TIMEOUT" \
        "$PATZER" --new --level 1 --time 1+0 --no-book <"$f" >"$f.out" 2>"$f.err")
    st=$?
    if [ "$st" -ne 0 ]; then
        echo "FAIL (status $st): $PATZER --new --level 1 --time 1+0 --no-book < $f"
        tail -n 5 "$f.err" | sed 's/^/    /'
        [ -n "${FUZZ_KEEP:-}" ] && mkdir -p "$FUZZ_KEEP" && cp "$f" "$FUZZ_KEEP/"
        exit 1
    fi
    rm -rf "$home" "$f.out" "$f.err"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/patzer-lmfuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
RANDOM=$SEED

cat >"$tmp/games.pgn" <<'PGN'
[Event "A"]
[White "Alpha"]
[Black "Beta"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 (2... Nf6 3. d3) 3. Qh5 Nf6 4. Qxf7# 1-0

[Event "B"]
[White "Gamma"]
[Black "Delta"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]
[Result "*"]

1. Rh8+ Kd7 2. Rh7+ *
PGN
printf 'not a pgn file\0binary' >"$tmp/binary.pgn"

fens=(
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
    '4k3/8/8/8/8/8/8/4K2R w K - 0 1'
    '7k/5Q2/6K1/8/8/8/8/8 w - - 0 1'
    '8/8/8/8/8/8/8/8 w - - 0 1'
    'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1'
    '7k/8/6KQ/8/8/8/8/8 b - - 0 1'
    'k7/8/1K6/8/8/8/8/7R w - - 99 80'
)
moves=(e4 e5 d4 d5 Nf3 Nc6 Bc4 Bb5 O-O O-O-O exd5 Qh5 Qxf7# e7e8q Rh8 Kd7 Ke2 a4 h5 g4 f3)
words=(new play undo redo flip hint level elo time resign draw claim fen setboard save load go
       stop analyze lines next prev first last goto var up review games game edit put remove
       side castling ep clear done cancel back pace help quit)

pick() { local -n arr=$1; echo "${arr[RANDOM % ${#arr[@]}]}"; }
number() { # mostly sensible, sometimes absurd
    case $((RANDOM % 8)) in
    0) echo -$RANDOM ;; 1) echo 99999999999999999999 ;; 2) echo 0 ;;
    *) echo $((RANDOM % ${1:-20})) ;;
    esac
}
mutate() { # a corrupted version of $1
    local s=$1 n=${#1}
    case $((RANDOM % 5)) in
    0) echo "${s:0:$((RANDOM % (n + 1)))}" ;;
    1) local i=$((RANDOM % (n + 1))) junk='!@#%^&*()_+{}|:<>?~/=-9xZ'
       echo "${s:0:i}${junk:$((RANDOM % ${#junk})):1}${s:i}" ;;
    2) echo "$s $s" ;;
    3) echo "${s// /}" ;;
    *) echo "$s" | tr 'abcdefghKQ' 'hgfedcbaQK' ;;
    esac
}

command_line() {
    case $((RANDOM % 34)) in
    0|1|2|3|4|5) pick moves ;;
    6) echo "setboard $(pick fens)" ;;
    7) echo "setboard $(mutate "$(pick fens)")" ;;
    8) echo "load $tmp/games.pgn" ;;
    9) echo "game $(number 4)" ;;
    10) echo back ;;
    11) echo "analyze" ;;
    12) echo "analyze $((RANDOM % 900 + 50))ms" ;;
    13) echo "analyze depth $((RANDOM % 7 + 1))" ;;
    14) echo stop ;;
    15) local sides=(none none both white black); echo "play $(pick sides)" ;;
    16) echo "pace $(number 300)" ;;
    17) echo review ;;
    18) echo edit ;;
    19) echo "put $(echo KQRBNPkqrbnp | cut -c$((RANDOM % 12 + 1)))$(echo abcdefgh | cut -c$((RANDOM % 8 + 1)))$((RANDOM % 8 + 1))" ;;
    20) echo "$( (( RANDOM % 2 )) && echo done || echo cancel)" ;;
    21) echo "side $( (( RANDOM % 2 )) && echo white || echo black)" ;;
    22) echo "lines $(number 6)" ;;
    23) echo "$(pick words) $(number)" ;;
    24) mutate "$(pick words)" ;;
    25) mutate "$(pick moves)" ;;
    26) echo "$(pick words)" ;;
    27) echo "goto $(number 5)" ;;
    28) echo "var $(number 3)" ;;
    29) echo "load $tmp/binary.pgn" ;;
    30) echo "new $( (( RANDOM % 2 )) && echo black) level $(number 20)" ;;
    31) echo "clear" ;;
    32) echo "undo" ;;
    *) echo "next" ;;
    esac
}

for i in $(seq "$SEQS"); do
    f=$tmp/seq$i
    n=$((RANDOM % 25 + 1))
    for _ in $(seq "$n"); do command_line; done >"$f"
    (( RANDOM % 3 )) && echo quit >>"$f" # otherwise end of input ends it
done

seq "$SEQS" | sed "s|^|$tmp/seq|" | xargs -P "$JOBS" -n 1 "$BASH" "$0" --one >"$tmp/report"
failed=$(grep -c '^FAIL' "$tmp/report")
cat "$tmp/report"
echo "$SEQS sequences, $failed failed (seed $SEED)"
[ "$failed" -eq 0 ]
