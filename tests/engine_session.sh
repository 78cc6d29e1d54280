# tests/engine_session.sh: sourced by the protocol tests (uci.sh, xboard.sh).
# Talks to patzer as a coprocess, the way a GUI does. Set PROTOCOL (uci or
# xboard) before sourcing. Counts with pass/fail; reads with expect/check.

PATZER=${PATZER:-src/patzer}
if [ ! -x "$PATZER" ]; then
    echo "$PROTOCOL: no program at '$PATZER' (set PATZER)" >&2
    exit 99
fi

passed=0
failed=0
pass() {
    passed=$((passed + 1))
    echo "ok - $1"
}
fail() {
    failed=$((failed + 1))
    echo "FAIL - $1"
    if [ -n "${SEEN:-}" ]; then
        printf '%s' "$SEEN" | tail -n 8 | sed 's/^/    | /'
    fi
}

# Milliseconds since some fixed point, from bash's own clock.
now_ms() {
    local t=${EPOCHREALTIME/[.,]/}
    echo $((t / 1000))
}

# --- a session with the engine as a coprocess -------------------------------

start() {
    SEEN=""
    coproc ENG { exec timeout 60 "$PATZER" "$PROTOCOL" 2>&1; }
}

send() {
    printf '%s\n' "$*" >&"${ENG[1]}"
}

# expect REGEX [SECONDS]: reads lines until one matches (sets MATCH) or the
# time is up. Every line read is kept in SEEN.
expect() {
    local re=$1 limit_ms=$(( ${2:-10} * 1000 )) start_ms left line
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

# check NAME REGEX [SECONDS]
check() {
    if expect "$2" "${3:-10}"; then pass "$1"; else fail "$1"; fi
}
