# bench/common.sh: what the benchmark scripts share (sourced, not run).
# bench_find_stockfish NAME: sets STOCKFISH (as given, else stockfish in PATH,
# else /usr/games/stockfish) or stops with NAME's message.
# bench_need_patzer NAME: stops unless $PATZER is an executable.

bench_find_stockfish() {
    [ -n "${STOCKFISH:-}" ] && return
    if command -v stockfish >/dev/null 2>&1; then
        STOCKFISH=$(command -v stockfish)
    elif [ -x /usr/games/stockfish ]; then
        STOCKFISH=/usr/games/stockfish
    else
        echo "$1: stockfish not found (Debian/Ubuntu: apt-get install stockfish)" >&2
        exit 1
    fi
}

bench_need_patzer() {
    if [ ! -x "$PATZER" ]; then
        echo "$1: $PATZER is not built (run make first, or set PATZER)" >&2
        exit 1
    fi
}
