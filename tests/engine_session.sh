# tests/engine_session.sh: sourced by the protocol tests (uci.sh, xboard.sh).
# Talks to patzer as a coprocess, the way a GUI does. Set PROTOCOL (uci or
# xboard) before sourcing. Counts with tests/lib.sh; reads with expect and
# check_reply.

# shellcheck source=tests/lib.sh
source "${srcdir:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}/tests/lib.sh"
need_patzer

# --- a session with the engine as a coprocess -------------------------------

start() {
    SEEN=""
    coproc ENG { exec timeout 60 "$PATZER" "$PROTOCOL" 2>&1; }
}

send() {
    printf '%s\n' "$*" >&"${ENG[1]}"
}

# expect REGEX [SECONDS]: reads lines until one matches (sets MATCH) or the
# time is up (SECONDS may be a fraction: 0.3). Every line read is kept in SEEN.
expect() {
    local re=$1 limit_ms start_ms left line
    limit_ms=$(awk -v s="${2:-10}" 'BEGIN { printf "%d", s * 1000 }')
    start_ms=$(now_ms)
    MATCH=""
    while :; do
        left=$((limit_ms - ($(now_ms) - start_ms)))
        [ "$left" -gt 0 ] || return 1
        if ! IFS= read -r -t "$((left / 1000)).$(printf '%03d' $((left % 1000)))" line \
            <&"${ENG[0]}"; then
            return 1
        fi
        line=${line%$'\r'}
        SEEN+="$line"$'\n'
        if [[ $line =~ $re ]]; then
            MATCH=$line
            return 0
        fi
    done
}

# stop_engine: sends quit and waits for the process (bounded by its timeout).
stop_engine() {
    local pid=$ENG_PID
    send quit 2>/dev/null
    exec {ENG[1]}>&- 2>/dev/null
    wait "$pid" 2>/dev/null
    STATUS=$?
}

# check_reply NAME REGEX [SECONDS]: a line matching REGEX comes in time.
check_reply() {
    if expect "$2" "${3:-10}"; then pass "$1"; else fail "$1"; fi
}
