# SPDX-License-Identifier: GPL-3.0-or-later
# tests/lib.sh: sourced by the shell tests. Counting checks (pass, fail,
# check, finish), the program and data under test (need_patzer, need_file),
# a temporary directory removed on exit (make_tmp), running patzer with
# given input (run_patzer), and tmux helpers for full-screen tests (waiting
# for text to appear, wait_for, or to go, wait_gone).
#
# Every script prints one line per check ("ok - NAME" or "FAIL - NAME" with
# the context indented below), then "N passed, M failed"; it exits 1 on any
# failure and 99 (automake's hard error) when something it needs is missing.

set -u
LC_ALL=C
export LC_ALL

# The source tree ($srcdir and $top_srcdir from "make check", else the
# directory above this script) and the program under test.
src=${srcdir:-${top_srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}}
PATZER=${PATZER:-src/patzer}
TEST_NAME=$(basename "$0" .sh)

passed=0
failed=0

# pass NAME
pass() {
    passed=$((passed + 1))
    echo "ok - $1"
}

# fail NAME [CONTEXT]: CONTEXT (or, when absent, the lines a protocol session
# has read so far, $SEEN) is shown indented under the failure.
fail() {
    failed=$((failed + 1))
    echo "FAIL - $1"
    local context=${2-${SEEN:-}}
    if [ -n "$context" ]; then
        printf '%s\n' "$context" | tail -n 20 | sed 's/^/    | /'
    fi
}

# check NAME COMMAND...: passes when COMMAND exits 0.
check() {
    local name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}

# has TEXT FIXED / lacks TEXT FIXED: whether TEXT contains the fixed string.
has() { grep -qF -- "$2" <<<"$1"; }
lacks() { ! grep -qF -- "$2" <<<"$1"; }

# skip REASON: a check that cannot run here (a missing tool).
skip() {
    echo "skip - $1"
}

# finish: the summary line and the exit status.
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}

# setup_error MESSAGE: something the test needs is missing.
setup_error() {
    echo "$TEST_NAME: $1" >&2
    exit 99
}

# need_patzer: the program under test must exist.
need_patzer() {
    [ -x "$PATZER" ] || setup_error "no program at '$PATZER' (set PATZER)"
}

# need_file FILE...: test data that must be readable. A script that edits a
# copy of it copies with cp --no-preserve=mode: distcheck's source tree is
# read-only, cp keeps that mode, and patzer refuses to write a read-only file.
need_file() {
    local f
    for f in "$@"; do
        [ -r "$f" ] || setup_error "cannot read '$f'"
    done
}

# make_tmp: $tmp, a fresh directory removed when the script exits.
make_tmp() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/patzer-$TEST_NAME.XXXXXX") || setup_error "no temporary directory"
    trap 'rm -rf "$tmp"' EXIT
}

# run_patzer ARGS...: runs the program (bounded by $RUN_TIMEOUT seconds,
# default 120) with standard input from $RUN_INPUT (a file; /dev/null unless
# set) in $RUN_DIR (default: here). Leaves stdout in $tmp/out, stderr in
# $tmp/err and the exit status in $status. Needs make_tmp.
run_patzer() {
    local patzer
    patzer=$(cd "$(dirname "$PATZER")" && pwd)/$(basename "$PATZER")
    (cd "${RUN_DIR:-.}" && timeout "${RUN_TIMEOUT:-120}" "$patzer" "$@") \
        >"$tmp/out" 2>"$tmp/err" <"${RUN_INPUT:-/dev/null}"
    status=$?
}

# patzer_with_input TEXT ARGS...: prints what the program writes (stdout and
# stderr) given TEXT on standard input; $status is set in the caller by
# "out=$(...); status=$?".
patzer_with_input() {
    local input=$1
    shift
    printf '%s' "$input" | timeout "${RUN_TIMEOUT:-120}" "$PATZER" "$@" 2>&1
}

# Milliseconds since some fixed point, from bash's own clock.
now_ms() {
    local t=${EPOCHREALTIME/[.,]/}
    echo $((t / 1000))
}

# wait_until SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds;
# fails when it still has not at the deadline. Every wait for something a
# program does in its own time goes through here (never a bare "sleep N"),
# with a deadline generous enough for a sanitizer build on a loaded machine.
wait_until() {
    local deadline=$(($(now_ms) + $1 * 1000))
    shift
    while [ "$(now_ms)" -lt "$deadline" ]; do
        "$@" && return 0
        sleep 0.1
    done
    return 1
}

# file_has FILE TEXT: FILE exists and holds the fixed string TEXT.
file_has() { grep -qF -- "$2" "$1" 2>/dev/null; }

# --- tmux: full-screen tests on a private server ----------------------------

# tmux_start COLUMNS ROWS COMMAND: a detached session "game" on a private
# socket (no tmux.conf read), stopped on exit (with $tmp removed, if make_tmp was called).
tmux_start() {
    command -v tmux >/dev/null 2>&1 || { echo "$TEST_NAME: tmux not installed, skipped"; exit 77; }
    TMUX_SOCKET=patzer-$TEST_NAME-$$
    trap 'tmux_stop; rm -rf "${tmp:-}"' EXIT
    # A server killed just before (the previous case of a script) may still be
    # going away: a new session started then fails with "server exited
    # unexpectedly", so it is tried again.
    local _
    for _ in 1 2 3 4 5; do
        tm -f /dev/null new-session -d -s game -x "$1" -y "$2" "$3" 2>/dev/null && return 0
        sleep 0.5
    done
    tm -f /dev/null new-session -d -s game -x "$1" -y "$2" "$3"
}

tm() { tmux -L "$TMUX_SOCKET" "$@"; }

# tmux_stop: kills the server, which hangs up on the programs in its panes,
# and makes sure they are gone within 5 s. A sanitizer build hung up on can
# spin at exit for as long as LeakSanitizer's tracer waits: left alone, it
# outlived the test, a core busy for good. Each pane leads its own session of
# processes (tmux starts it with setsid), so the session is what is killed.
tmux_stop() {
    local panes pane _
    panes=$(tm list-panes -a -F '#{pane_pid}' 2>/dev/null) || panes=""
    tm kill-server 2>/dev/null || true
    for pane in $panes; do
        for _ in $(seq 50); do
            pgrep -s "$pane" >/dev/null || continue 2
            sleep 0.1
        done
        echo "$TEST_NAME: pane $pane still running 5 s after the hang-up: killed" >&2
        pkill -KILL -s "$pane" 2>/dev/null || true
    done
}

# The visible screen as text.
screen() { tm capture-pane -p -t game 2>/dev/null; }

# wait_for SECONDS REGEX: polls the screen until an extended regex matches.
wait_for() {
    wait_until "$1" screen_matches "$2" && return 0
    SEEN=$(screen)
    return 1
}

# screen_matches REGEX: a line of the screen matches the extended regex.
screen_matches() { screen | grep -qE -- "$1"; }

# wait_gone SECONDS REGEX: polls the screen until no line matches the
# extended regex, in two captures in a row (a redraw half done does not
# count); fails when it is still there at the deadline. For what must go
# away after a key; never "sleep N; ! grep", which passes when the program
# is merely slow.
wait_gone() {
    local deadline=$(($(now_ms) + $1 * 1000)) clear=0
    while [ "$(now_ms)" -lt "$deadline" ]; do
        if screen | grep -qE -- "$2"; then
            clear=0
        else
            clear=$((clear + 1))
            [ "$clear" -ge 2 ] && return 0
        fi
        sleep 0.1
    done
    SEEN=$(screen)
    return 1
}

# keys KEYS...: sends keys to the session (tmux send-keys syntax).
keys() { tm send-keys -t game "$@"; }

# --- the terminal game under tmux: looks, sizes, the board's cells ---------

# write_tui_script FILE LOOK ARGS...: a script that starts the terminal game
# with a fresh state directory (no game to resume), TERM=xterm-256color and
# UTF-8, in one of the looks: colour, mono (NO_COLOR=1) or ascii (--ascii).
# With $TUI_STATE set, that directory is the state directory instead (an
# autosaved game put there can be resumed). Needs make_tmp.
write_tui_script() {
    local file=$1 look=$2 patzer state='$(mktemp -d "'"$tmp"'/state.XXXXXX")'
    shift 2
    [ -n "${TUI_STATE:-}" ] && state=$TUI_STATE
    patzer=$(cd "$(dirname "$PATZER")" && pwd)/$(basename "$PATZER")
    local env="unset NO_COLOR LC_ALL" extra=""
    case $look in
    colour) ;;
    mono) env="unset LC_ALL; export NO_COLOR=1" ;;
    ascii) extra="--ascii" ;;
    *) setup_error "unknown look '$look'" ;;
    esac
    cat >"$file" <<RUN
export HOME="$tmp" XDG_STATE_HOME="$state" XDG_CONFIG_HOME="$tmp/config"
export LANG=C.UTF-8 TERM=xterm-256color
$env
exec "$patzer" $extra $*
RUN
}

# The 1-based screen row of a rank's label and column of a file's letter
# (whatever the size of the squares and the way round of the board).
rank_row() { screen | grep -n -E "^ *$1( |\$)" | head -1 | cut -d: -f1; }
file_col() { screen | grep -E '^ +[a-h]( +[a-h]){7}( |$)' | head -1 | awk -v f="$1" '{ print index($0, f) }'; }
# click_cell X Y: a press and a release of the left button at a 1-based cell,
# as SGR (1006) mouse reports, which ncurses reads with TERM=xterm-256color.
click_cell() {
    tm send-keys -t game -l $'\e'"[<0;$1;${2}M"
    tm send-keys -t game -l $'\e'"[<0;$1;${2}m"
}
# click SQUARE: a click on the square (found by its rank and file labels).
click() { click_cell "$(file_col "${1:0:1}")" "$(rank_row "${1:1:1}")"; }
# click_text REGEX: a click on the first cell of the first line matching it.
click_text() {
    local y x line
    y=$(screen | grep -n -E -- "$1" | head -1 | cut -d: -f1)
    line=$(screen | sed -n "${y}p")
    x=$(awk -v l="$line" -v r="$1" 'BEGIN { print match(l, r) }')
    click_cell "$((x + 1))" "$y"
}
