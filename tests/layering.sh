#!/bin/bash
# tests/layering.sh: check the layering rules of the source tree.
#
#   engine/  must not include curses, ncurses, readline, ui/ or src/ headers,
#            and engine/*.c must not print or exit (printf, puts, fprintf,
#            fputs, putchar, vprintf, vfprintf, perror, exit); snprintf and
#            vsnprintf into caller buffers are fine.
#   ui/      must not include src/ headers.
#   The board layer (engine/board.[ch], makemove.c and what they stand on:
#            types, bitboard, errmsg, attacks, zobrist) includes no other engine/
#            header: move generation, FEN and SAN text sit above it.
#
# Run by "make check" (with $srcdir set by AM_TESTS_ENVIRONMENT), or by hand
# from the source tree. Exit 0 on success, 1 on a violation, 99 on a setup error.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
[ -d "$src/engine" ] || setup_error "no engine/ directory under '$src'"

# Print the file with comments and string/char literals blanked out, keeping
# the line numbers (one pass, so "//" inside a string is not a comment).
strip_c() {
    perl -0777 -pe '
        s{("(?:[^"\\\n]|\\.)*")|(\x27(?:[^\x27\\\n]|\\.)*\x27)|(/\*.*?\*/)|(//[^\n]*)}{
            defined $1 ? q("") : defined $2 ? q(0) : defined $3 ? ("\n" x ($3 =~ tr/\n//)) : q()
        }gse' "$1"
}

# --- 1. engine/ includes ----------------------------------------------------
include_re='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]'
bad_engine_inc='(n?curses(w)?/|n?cursesw?\.h|curses\.h|term\.h|panel\.h|menu\.h|form\.h|readline/|editline/|histedit\.h|(\.\./)*ui/|(\.\./)*src/)'

shopt -s nullglob
engine_files=("$src"/engine/*.c "$src"/engine/*.h)
engine_c=("$src"/engine/*.c)
ui_files=("$src"/ui/*.c "$src"/ui/*.h)

echo "layering: source tree $src"
echo "checking ${#engine_files[@]} engine/ files for curses, readline, ui/ and src/ includes"
for f in "${engine_files[@]}"; do
    hits=$(grep -nE "$include_re$bad_engine_inc" "$f")
    if [ -n "$hits" ]; then
        while IFS= read -r line; do
            fail "${f#"$src"/}:$line (engine/ must not include UI or program headers)"
        done <<<"$hits"
    fi
done

# --- 2. engine/*.c does no printing and no exiting ---------------------------
io_re='(^|[^A-Za-z0-9_.>])(printf|puts|fprintf|fputs|putchar|vprintf|vfprintf|perror|exit)[[:space:]]*\('
echo "checking ${#engine_c[@]} engine/*.c files for printf/puts/fprintf/fputs/putchar/vprintf/vfprintf/perror/exit calls"
for f in "${engine_c[@]}"; do
    hits=$(strip_c "$f" | grep -nE "$io_re" | cut -d: -f1)
    for n in $hits; do
        fail "${f#"$src"/}:$n:$(sed -n "${n}p" "$f") (engine/ returns results; src/ prints and exits)"
    done
done

# --- 3. the board layer knows squares and pieces only -----------------------
board_layer=(types.h bitboard.h errmsg.h errmsg.c attacks.h attacks.c zobrist.h zobrist.c board.h board.c
             makemove.c)
board_ok='(types|bitboard|errmsg|attacks|zobrist|board)\.h"'
echo "checking ${#board_layer[@]} board-layer files for includes of higher engine/ headers"
for name in "${board_layer[@]}"; do
    f=$src/engine/$name
    [ -f "$f" ] || continue
    hits=$(grep -nE "$include_re"'engine/' "$f" | grep -vE "engine/$board_ok")
    if [ -n "$hits" ]; then
        while IFS= read -r line; do
            fail "engine/$name:$line (the board layer must not use move generation or text)"
        done <<<"$hits"
    fi
done

# --- 4. ui/ does not include src/ headers ----------------------------------
if [ -d "$src/ui" ]; then
    echo "checking ${#ui_files[@]} ui/ files for src/ includes"
    for f in "${ui_files[@]}"; do
        hits=$(grep -nE "$include_re"'(\.\./)*src/' "$f")
        if [ -n "$hits" ]; then
            while IFS= read -r line; do
                fail "${f#"$src"/}:$line (ui/ must not include src/ headers)"
            done <<<"$hits"
        fi
    done
else
    echo "no ui/ directory yet: skipping the ui/ checks"
fi

# Each rule is one check; its violations were reported above as failures.
[ "$failed" -eq 0 ] && pass "layering: no violations"
finish
