#!/bin/bash
# tests/valgrind.sh: memory errors and leaks under valgrind (memcheck) for
#   a) a short line-mode game: moves, save, load, undo, fen, quit;
#   b) PGN loading: "patzer pgn" over tests/data/pgn/*.pgn (where this build
#      has the subcommand), else the line mode's load of each file;
#   c) a UCI session: uci, isready, position, go depth 6, go movetime 200,
#      stop, quit (the search thread is started, stopped and joined), and one
#      searching with a random net on two threads (when tests/nnue_mknet is built);
#   d) a short xboard session (new, moves, go, force, undo, quit).
# Each run fails on any memcheck error or a definite/indirect leak
# (--error-exitcode=99); the program's own exit status is checked as well.
#
# Skips (77) when valgrind is missing or cannot run the binary: a build with
# -march=native may use instructions valgrind does not know (AVX-512), so
# "make check-valgrind" runs this on a portable build (configure
# --disable-native); see Makefile.am.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
need_patzer
command -v valgrind >/dev/null 2>&1 || { echo "SKIP: valgrind is not installed"; exit 77; }
case $PATZER in /*) ;; *) PATZER=$PWD/$PATZER ;; esac
mknet=${NNUE_MKNET:-tests/nnue_mknet}
case $mknet in /*) ;; *) mknet=$PWD/$mknet ;; esac
# AddressSanitizer and valgrind cannot run together.
if grep -q __asan_init "$PATZER" 2>/dev/null; then
    echo "SKIP: $PATZER is built with AddressSanitizer; valgrind cannot run it"
    exit 77
fi

make_tmp
export XDG_CONFIG_HOME=$tmp/config XDG_STATE_HOME=$tmp/state XDG_DATA_HOME=$tmp/data HOME=$tmp
mkdir -p "$XDG_CONFIG_HOME" "$XDG_STATE_HOME"
unset PATZER_BOOK
cd "$tmp" || exit 99

VG=(valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect
    --errors-for-leak-kinds=definite,indirect --error-exitcode=99 --num-callers=30
    --track-origins=yes --trace-children=no)
TIMEOUT=${VALGRIND_TIMEOUT:-120}

run() { # label allowed-statuses input-file command...
    local label=$1 allowed=$2 input=$3
    shift 3
    local start=$SECONDS status
    timeout -k 5 "$TIMEOUT" "${VG[@]}" --log-file="$tmp/vg.log" "$@" <"$input" >"$tmp/out" 2>"$tmp/err"
    status=$?
    if grep -q "unhandled instruction\|Illegal opcode" "$tmp/vg.log" "$tmp/err" 2>/dev/null ||
       [ $status -eq 132 ]; then
        echo "SKIP: valgrind cannot run this binary (built with -march=native?);"
        echo "      use 'make check-valgrind', which builds a portable one"
        exit 77
    fi
    if [ $status -eq 99 ] || [ -s "$tmp/vg.log" ]; then
        fail "$label: valgrind reports errors or leaks" "$(cat "$tmp/vg.log")"
    elif [[ " $allowed " != *" $status "* ]]; then
        fail "$label: exit status $status (expected $allowed)" "$(tail -n 20 "$tmp/err")"
    else
        pass "$label ($((SECONDS - start)) s)"
    fi
}

# a) a short game in the line mode
printf 'play both\ne4\ne5\nNf3\nsave %s/g.pgn\nload %s/g.pgn\nundo\nfen\nquit\n' "$tmp" "$tmp" >"$tmp/game.in"
run "line-mode game" 0 "$tmp/game.in" "$PATZER"
check "line-mode game: the fen after undo" \
    grep -q 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq' "$tmp/out"

# b) PGN loading
pgns=("$src"/tests/data/pgn/*.pgn)
if ! "$PATZER" pgn </dev/null 2>&1 | grep -q "unknown command"; then
    # 1: some of the files are broken on purpose.
    run "patzer pgn tests/data/pgn/*.pgn" "0 1" /dev/null "$PATZER" pgn "${pgns[@]}"
else
    for f in "${pgns[@]}"; do
        printf 'load %s\nfen\nquit\n' "$f" >"$tmp/load.in"
        run "load ${f##*/}" 0 "$tmp/load.in" "$PATZER"
    done
fi

# c) a UCI session
printf 'uci\nisready\nposition startpos moves e2e4\ngo depth 6\ngo movetime 200\nstop\nisready\nquit\n' >"$tmp/uci.in"
run "uci session" 0 "$tmp/uci.in" "$PATZER" uci
n=$(grep -c '^bestmove ' "$tmp/out")
check "uci session: $n bestmove lines, expected 2" test "$n" -eq 2

# c2) a UCI session searching with a net (loaded, used by two threads, replaced by a bad
#     file, freed at exit), where the random-net writer is built
if [ -x "$mknet" ] && "$mknet" "$tmp/net.nnue" 3 >/dev/null 2>&1; then
    printf 'uci\nsetoption name EvalFile value %s\nsetoption name UseNNUE value true\nsetoption name Threads value 2\nisready\ngo depth 6\nisready\nsetoption name EvalFile value %s\nisready\nquit\n' \
        "$tmp/net.nnue" "$tmp/missing.nnue" >"$tmp/nnue.in"
    run "uci session with a net" 0 "$tmp/nnue.in" "$PATZER" uci
    check "uci session with a net: it was loaded" grep -q '^info string NNUE loaded' "$tmp/out"
    check "uci session with a net: a bestmove" grep -q '^bestmove ' "$tmp/out"
fi

# d) an xboard session
printf 'xboard\nprotover 2\nnew\nsd 4\nusermove e2e4\nping 1\nforce\nusermove e7e5\nundo\nsetboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\ngo\nping 2\nquit\n' >"$tmp/xb.in"
run "xboard session" 0 "$tmp/xb.in" "$PATZER" xboard

finish
