#!/bin/bash
# tests/nnue_train.sh: tools/nnue_train as a program, on a little datagen data: a run
# writes a net of the NNUE-SPEC layout with its provenance and a checkpoint; --resume
# after the last epoch changes nothing, a checkpoint of other settings is refused, --init
# starts from a net (its weights unchanged by zero epochs; other sizes refused), and bad
# options and data that hold no positions end with status 2 and a message saying why.
# (tests/test_nnue_train checks the model, the file's contents and exact resumption.)
#
# Run by "make check" with $PATZER, $NNUE_TRAIN and $srcdir set, or by hand from the
# build tree. Prints "N passed, M failed" last; exits 1 on any failure.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"
NNUE_TRAIN=${NNUE_TRAIN:-tools/nnue_train}
need_patzer
[ -x "$NNUE_TRAIN" ] || setup_error "no trainer at '$NNUE_TRAIN' (set NNUE_TRAIN)"
make_tmp

if ! "$PATZER" datagen --out "$tmp/data" --positions 600 --nodes 300 --jobs 2 \
        --progress 1000 > "$tmp/datagen.log" 2>&1; then
    fail "datagen for the trainer" "$(cat "$tmp/datagen.log")"
fi

train() {
    "$NNUE_TRAIN" "$tmp/data" --min-ply 0 --held-out 3 --batch 256 --threads 2 \
        --out "$tmp/net.nnue" "$@" > "$tmp/log" 2>&1
}

# The little-endian uint32 at byte offset $2 of file $1.
u32() {
    od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '
}

train --epochs 3
status=$?
log=$(cat "$tmp/log")
if [ $status -eq 0 ] && has "$log" "epoch 3/3: loss" && [ -f "$tmp/net.nnue.ckpt" ] &&
   [ "$(head -c 8 "$tmp/net.nnue")" = PZNNUE01 ] &&
   [ "$(u32 "$tmp/net.nnue" 8)" = 768 ] && [ "$(u32 "$tmp/net.nnue" 12)" = 256 ] &&
   [ "$(stat -c %s "$tmp/net.nnue")" -eq $((32 + $(u32 "$tmp/net.nnue" 28) + 394752 + 8)) ]; then
    pass "three epochs write the net and a checkpoint"
else
    fail "three epochs write the net and a checkpoint" "$log"
fi
desc=$(head -c $((32 + $(u32 "$tmp/net.nnue" 28))) "$tmp/net.nnue" | tail -c +33)
if [[ $desc == "patzer NNUE v1, (768->256)x2->1 SCReLU. Trained "*" by tools/nnue_train from $tmp/data (every record of each file): "*" positions of "*" records ("*" games; min ply 0, max score 2000). Datagen settings: seed 1 nodes 300 "*". Epoch "?" of 3 "*"lambda 0.50, eval scale "*" cp (fitted on the results), seed 1, 2 threads. Loss "*"Command: $NNUE_TRAIN $tmp/data --min-ply 0 "* ]]; then
    pass "the net's description gives its provenance"
else
    fail "the net's description gives its provenance" "$desc"
fi

cp "$tmp/net.nnue" "$tmp/before.nnue"
train --epochs 3 --resume
status=$?
log=$(cat "$tmp/log")
if [ $status -eq 0 ] && has "$log" "all 3 epochs were done already" &&
   cmp -s "$tmp/net.nnue" "$tmp/before.nnue"; then
    pass "--resume after the last epoch leaves the net alone"
else
    fail "--resume after the last epoch leaves the net alone" "$log"
fi

train --epochs 3 --resume --batch 512
status=$?
log=$(cat "$tmp/log")
if [ $status -eq 2 ] && has "$log" "the checkpoint's --batch is 256, this run's 512"; then
    pass "a checkpoint of other settings is refused"
else
    fail "a checkpoint of other settings is refused" "$log"
fi

train --epochs 1 --resume --checkpoint "$tmp/other.ckpt" --last
status=$?
log=$(cat "$tmp/log")
if [ $status -eq 0 ] && has "$log" "no checkpoint $tmp/other.ckpt yet: starting afresh" &&
   [ -f "$tmp/other.ckpt" ]; then
    pass "--resume without a checkpoint starts afresh"
else
    fail "--resume without a checkpoint starts afresh" "$log"
fi

# --init: zero epochs from a net write its weights back unchanged, under a description that
# names the parent; a checkpoint of a run from no parent is refused; a parent of other
# sizes is refused naming what.
desc_len=$(u32 "$tmp/net.nnue" 28)
parent_sum=$(od -An -tx4 -j $(($(stat -c %s "$tmp/net.nnue") - 4)) -N4 "$tmp/net.nnue" | tr -d ' ')
train --epochs 0 --init "$tmp/net.nnue" --out "$tmp/child.nnue" --checkpoint "$tmp/child.ckpt"
status=$?
log=$(cat "$tmp/log")
child_len=$(u32 "$tmp/child.nnue" 28)
if [ $status -eq 0 ] && has "$log" "starting from $tmp/net.nnue (checksum $parent_sum), lr 0.001" &&
   cmp -s <(tail -c +$((33 + desc_len)) "$tmp/net.nnue" | head -c 394752) \
          <(tail -c +$((33 + child_len)) "$tmp/child.nnue" | head -c 394752) &&
   head -c $((32 + child_len)) "$tmp/child.nnue" | grep -q "Fine-tuned from $tmp/net.nnue (checksum $parent_sum: \"patzer NNUE v1"; then
    pass "--init with 0 epochs writes the parent's weights, naming the parent"
else
    fail "--init with 0 epochs writes the parent's weights, naming the parent" "$log"
fi

train --epochs 3 --resume --init "$tmp/net.nnue"
status=$?
log=$(cat "$tmp/log")
if [ $status -eq 2 ] && has "$log" "the checkpoint's --init net is none, this run's checksum $parent_sum"; then
    pass "a checkpoint of a run from another parent is refused"
else
    fail "a checkpoint of a run from another parent is refused" "$log"
fi

# hidden 512 (little-endian 00 02 00 00) in place of 256
{ head -c 12 "$tmp/net.nnue"; printf '\000\002\000\000'; tail -c +17 "$tmp/net.nnue"; } >"$tmp/wide.nnue"
out=$("$NNUE_TRAIN" "$tmp/data" --init "$tmp/wide.nnue" --out "$tmp/x.nnue" 2>&1)
if [ $? -eq 2 ] && has "$out" "nnue_train: --init $tmp/wide.nnue: wrong sizes: hidden is 512, expected 256"; then
    pass "a parent of other sizes is refused"
else
    fail "a parent of other sizes is refused" "$out"
fi

out=$("$NNUE_TRAIN" "$tmp/data" --batch 0 2>&1)
if [ $? -eq 2 ] && has "$out" "nnue_train: --batch: '0' is not a whole number from 1" &&
   has "$out" "usage: nnue_train DATA"; then
    pass "a bad option is named, with the usage"
else
    fail "a bad option is named, with the usage" "$out"
fi

out=$("$NNUE_TRAIN" "$tmp/data" --out "$tmp/no/such/dir/net.nnue" 2>&1)
if [ $? -eq 2 ] && has "$out" "cannot write $tmp/no/such/dir/net.nnue.tmp: No such file"; then
    pass "an output that cannot be written is reported before training"
else
    fail "an output that cannot be written is reported before training" "$out"
fi

mkdir "$tmp/empty"
out=$("$NNUE_TRAIN" "$tmp/empty" 2>&1)
if [ $? -eq 2 ] && has "$out" "$tmp/empty: no positions to train on (0 .bin files"; then
    pass "a directory without data is reported"
else
    fail "a directory without data is reported" "$out"
fi

finish
