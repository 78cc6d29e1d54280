#!/bin/bash
# Keystroke-to-screen latency of the terminal game while the engine thinks:
# types a letter into the command bar of patzer running in tmux and times
# how long until the letter is on the screen, several times; prints each
# sample and the median. Includes tmux's own delay (send-keys, capture-pane),
# so the same is measured for a bare shell in the same tmux server after it:
# the difference is patzer's own.
set -u
PATZER=${PATZER:-$(cd "$(dirname "$0")/.." && pwd)/src/patzer}
SAMPLES=${SAMPLES:-15}
command -v tmux >/dev/null || { echo "tmux is needed" >&2; exit 2; }
tmp=$(mktemp -d)
sock="patzer-latency-$$"
tm() { tmux -L "$sock" "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT

now_ms() { echo $(( ${EPOCHREALTIME/./} / 1000 )); }
# The engine thinks: its panel says so when the evaluation is shown, the
# status line while it is hidden (a game against it).
thinking_re='Engine: thinking|patzer is thinking'

# measure TARGET LABEL: SAMPLES keystrokes into the pane TARGET ("> " prompt).
measure() {
local target=$1 label=$2
local samples=() letters=(a b c d e f g h)
for i in $(seq "$SAMPLES"); do
    text="zq${letters[$((i % 8))]}$i"
    start=$(now_ms)
    tm send-keys -t "$target" -l "$text"
    while ! tm capture-pane -p -t "$target" | grep -q "^> .*$text"; do
        [ $(( $(now_ms) - start )) -gt 3000 ] && break
    done
    ms=$(( $(now_ms) - start ))
    samples+=("$ms")
    thinking=$(tm capture-pane -p -t g | grep -cE "$thinking_re")
    echo "$label sample $i: ${ms} ms (engine thinking: $([ "$thinking" -gt 0 ] && echo yes || echo no))"
    tm send-keys -t "$target" C-u
    sleep 0.2
done
local sorted median
sorted=$(printf '%s\n' "${samples[@]}" | sort -n)
median=$(sed -n "$(( (SAMPLES + 1) / 2 ))p" <<<"$sorted")
echo "$label: keystroke to screen: median ${median} ms over $SAMPLES samples" \
     "(min $(head -1 <<<"$sorted"), max $(tail -1 <<<"$sorted"))"
}

# A long think (600+0 at full strength) so that every sample falls in it.
tm -f /dev/null new-session -d -s g -x 120 -y 40 \
    "env HOME=$tmp XDG_STATE_HOME=$tmp/s LANG=C.UTF-8 $PATZER --level 20 --time 600+0 --no-book --black"
tm new-window -d -t g: -n shell "env PS1='> ' bash --norc --noprofile"
# White (the engine) thinks from the start: wait for it.
for _ in $(seq 100); do tm capture-pane -p -t g | grep -qE "$thinking_re" && break; sleep 0.1; done
measure g:0 "patzer (engine thinking)"
measure g:shell "bare shell"
