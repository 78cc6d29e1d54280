# bench/chess960.sh: Chess960 start positions by Scharnagl number, for the
# bench scripts (sourced, not run): back_rank N prints "RNBQKBNR" for 518,
# start_fen N its FEN with Shredder-FEN castling rights.
# The numbering: N % 4 places the light-squared bishop (files b d f h), the
# next factor of 4 the dark-squared one (a c e g), a factor of 6 the queen on
# the free squares, the last factor of 10 the knights; then R K R.

# The back rank of Scharnagl number n (518 = RNBQKBNR).
back_rank() {
    local n=$1 r=(. . . . . . . .) k
    r[$((2 * (n % 4) + 1))]=B; n=$((n / 4))
    r[$((2 * (n % 4)))]=B; n=$((n / 4))
    put() { # index-among-free piece
        local want=$1 f
        for f in 0 1 2 3 4 5 6 7; do
            if [ "${r[$f]}" = . ]; then
                if [ "$want" -eq 0 ]; then r[$f]=$2; return; fi
                want=$((want - 1))
            fi
        done
    }
    put $((n % 6)) Q; n=$((n / 6))
    local knights=(01 02 03 04 12 13 14 23 24 34)
    k=${knights[$n]}
    put "${k:0:1}" N
    put $((${k:1:1} - 1)) N
    put 0 R; put 0 K; put 0 R
    printf '%s' "${r[@]}"
}

# Shredder-FEN of start position n: the rook files are the rights.
start_fen() {
    local w b files='' f
    w=$(back_rank "$1")
    b=$(printf '%s' "$w" | tr 'A-Z' 'a-z')
    for f in 7 6 5 4 3 2 1 0; do
        [ "${w:$f:1}" = R ] && files+=$(printf "\\x$(printf %x $((65 + f)))")
    done
    printf '%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %s%s - 0 1' "$b" "$w" "$files" \
        "$(printf '%s' "$files" | tr 'A-Z' 'a-z')"
}

