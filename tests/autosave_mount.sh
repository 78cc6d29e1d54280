#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The autosave and the archive on real file systems that refuse writes
# (issue 21): a read-only bind mount as the data and the state directory, and
# a full tmpfs of 64 KB as the state directory. Needs root and mount: skipped
# (77) otherwise.
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
need_patzer
[ "$(id -u)" -eq 0 ] || { echo "$TEST_NAME: not root, skipped"; exit 77; }
make_tmp
mounts=()
cleanup() {
    local m
    exec 3>&- 2>/dev/null
    for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/ro" "$tmp/full"
if ! mount --bind "$tmp/ro" "$tmp/ro" 2>/dev/null; then
    echo "$TEST_NAME: mount not permitted here, skipped"
    exit 77
fi
mounts+=("$tmp/ro")
mkdir -p "$tmp/ro/patzer"
mount -o remount,bind,ro "$tmp/ro" || setup_error "cannot make the bind mount read-only"
mount -t tmpfs -o size=64k tmpfs "$tmp/full" || setup_error "cannot mount a small tmpfs"
mounts+=("$tmp/full")

export HOME=$tmp XDG_STATE_HOME=$tmp/state XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data

session() {
    printf '%s\n' "$@" | timeout "${RUN_TIMEOUT:-60}" "$PATZER" >"$tmp/out" 2>"$tmp/err"
    status=$?
    out=$(cat "$tmp/out")
    err=$(cat "$tmp/err")
}

# --- a read-only data directory ----------------------------------------------
XDG_DATA_HOME=$tmp/ro session 'play both' e4 resign quit
check "read-only data directory: said at start" \
    has "$out" "Error: The data directory $tmp/ro/patzer is not writable (Read-only file system)"
check "the archive's failure is said when the game ends" \
    grep -q "^Error: The archive failed: .*games.pgn: Read-only file system" <<<"$out"
check "on stderr" has "$err" "patzer: The archive failed: "
check "exit status 3 ($status)" test "$status" -eq 3
check "the autosave keeps the game for the archive" \
    grep -q '^\[PatzerArchived "no"\]' "$XDG_STATE_HOME/patzer/autosave.pgn"

# --- a read-only state directory ---------------------------------------------
XDG_STATE_HOME=$tmp/ro session 'play both' d4 d5 quit
check "read-only state directory: said at start" \
    has "$out" "Error: The state directory $tmp/ro/patzer is not writable (Read-only file system)"
check "said after the move, once" test "$(grep -c '^Error: Autosave failed: .*Read-only file system' <<<"$out")" -eq 1
check "exit status 3 ($status)" test "$status" -eq 3

# --- a full disk: the old autosave stays, each move tries again ---------------
state=$tmp/full
save=$state/patzer/autosave.pgn
mkfifo "$tmp/in"
XDG_STATE_HOME=$state "$PATZER" <"$tmp/in" >"$tmp/full.out" 2>"$tmp/full.err" &
pid=$!
exec 3>"$tmp/in"
# wait_text FILE TEXT: until FILE holds TEXT (at most 10 s).
wait_text() { wait_until 10 file_has "$1" "$2"; }
printf '%s\n' 'play both' e4 >&3
check "the first move is saved" wait_text "$save" "1. e4"
dd if=/dev/zero of="$state/filler" bs=1k 2>/dev/null # until the disk is full
printf '%s\n' e5 Nf3 Nc6 >&3
check "the full disk is said" wait_text "$tmp/full.out" "No space left on device"
wait_text "$tmp/full.out" "Last move: 2... Nc6"
check "once, not after every move" test "$(grep -c 'Autosave failed' "$tmp/full.out")" -eq 1
check "the old autosave is intact" grep -q '1\. e4 ' "$save"
check "and holds the moves before the disk filled" bash -c "! grep -q '1\. e4 e5' '$save'"
check "on stderr at once" has "$(cat "$tmp/full.err")" "No space left on device"
rm -f "$state/filler"
printf '%s\n' Bb5 >&3
check "the recovery is said" wait_text "$tmp/full.out" "Autosave works again: $save"
check "and every move is saved" wait_text "$save" "3. Bb5"
printf '%s\n' quit >&3
exec 3>&-
wait "$pid"
status=$?
check "exit status 0 once saved ($status)" test "$status" -eq 0
check "no temporary file is left" bash -c "! ls '$state/patzer' | grep -q tmp"

finish
