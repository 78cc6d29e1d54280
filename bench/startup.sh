#!/bin/bash
# Start-up time and memory, side by side: patzer ($PATZER), an older build
# ($PATZER_BASE, optional) and GNU Chess ($GNUCHESS, optional), each measured
# RUNS times in the same run, interleaved, and reported as medians:
#   line mode  start to exit of `printf 'quit\n' | prog` (ready, read, quit)
#   uci        start until the answer to "uci" ends with "uciok"
#   tui        start until the first screen's "White to move" is written to
#              the terminal (patzer only; under script(1), whose start counts)
# with the peak resident memory (GNU time's %M) and the CPU time of each.
# Times include the fork and exec of GNU time itself, the same for every
# program; on a loaded machine the CPU times are the steadier figures.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PATZER=${PATZER:-$here/src/patzer}
PATZER_BASE=${PATZER_BASE:-}
GNUCHESS=${GNUCHESS:-$(command -v gnuchess || echo /usr/games/gnuchess)}
RUNS=${RUNS:-11}
GTIME=${GTIME:-/usr/bin/time}

[ -x "$PATZER" ] || { echo "no patzer at $PATZER (make first)" >&2; exit 2; }
[ -x "$GTIME" ] || { echo "GNU time is needed ($GTIME)" >&2; exit 2; }
[ -x "$GNUCHESS" ] || { echo "(GNU Chess not found: apt-get install gnuchess)" >&2; GNUCHESS=; }
[ -n "$PATZER_BASE" ] && [ ! -x "$PATZER_BASE" ] && { echo "no $PATZER_BASE" >&2; exit 2; }
have_tui=0
command -v script >/dev/null && have_tui=1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every program starts from an empty home, and both patzer builds read the
# same book and opening names, wherever their binaries are.
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/config XDG_STATE_HOME=$tmp/home/state
export LANG=C.UTF-8 TERM=xterm-256color
export PATZER_BOOK=${BENCH_BOOK:-$here/data/patzer.bin}
export PATZER_OPENINGS=${BENCH_OPENINGS:-$here/data/openings.txt}
mkdir -p "$HOME"
cd "$tmp" || exit 2 # GNU Chess may write files to the working directory

now_us() { echo "${EPOCHREALTIME/./}"; }
# CPU time (user + sys, ms) of all the children waited for so far, from the
# shell's `times`; the load of other processes does not change it, unlike the
# wall-clock times.
children_cpu_ms() {
    times >"$tmp/times" # in this shell: a $(times) would count a subshell's children
    tail -1 "$tmp/times" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m");
                              t += p[1] * 60000 + p[2] * 1000 } printf "%d\n", t }'
}
# Runs a measurement and adds the CPU time its processes took to cpu_KIND.
with_cpu() { # kind name command...
    local kind=$1 name=$2 before after
    shift 2
    children_cpu_ms >"$tmp/cpu"
    before=$(cat "$tmp/cpu")
    "$@"
    children_cpu_ms >"$tmp/cpu"
    after=$(cat "$tmp/cpu")
    record "cpu_$kind" "$name" $((after - before))
}
# Samples are kept as lines "kind name value" in $tmp/samples.
record() { echo "$1 $2 $3" >>"$tmp/samples"; }

line_mode() { # name prog...
    local name=$1; shift
    local t0 t1
    t0=$(now_us)
    printf 'quit\n' | "$GTIME" -o "$tmp/rss" -f %M "$@" >/dev/null 2>&1
    t1=$(now_us)
    record line_ms "$name" $(( (t1 - t0) / 1000 ))
    record line_kb "$name" "$(tail -1 "$tmp/rss")"
}

uci_mode() { # name prog args...
    local name=$1; shift
    local t0 t1 line
    t0=$(now_us)
    coproc ENGINE { "$GTIME" -o "$tmp/rss" -f %M "$@" 2>/dev/null; }
    echo uci >&"${ENGINE[1]}"
    while IFS= read -r -t 10 line <&"${ENGINE[0]}"; do
        [ "${line%$'\r'}" = uciok ] && break
    done
    t1=$(now_us)
    echo quit >&"${ENGINE[1]}"
    wait "$ENGINE_PID"
    record uci_ms "$name" $(( (t1 - t0) / 1000 ))
    record uci_kb "$name" "$(tail -1 "$tmp/rss")"
}

# Reads the terminal output on stdin; when it first holds "White to move"
# (the status line of the first screen, not followed by a newline, so grep
# would wait), writes the time in microseconds to $1, then drains the rest.
first_screen() {
    perl -MTime::HiRes=time -e '
        my ($seen, $buf) = ("", "");
        while (sysread(STDIN, $buf, 65536)) {
            $seen .= $buf;
            next if index($seen, "White to move") < 0;
            open(my $f, ">", $ARGV[0]) or die "$ARGV[0]: $!";
            printf $f "%d\n", time * 1e6;
            close $f;
            1 while sysread(STDIN, $buf, 65536);
            exit 0;
        }' "$1"
}

# The terminal game under script(1), timed until its first screen is written;
# the stamp is taken by the reader itself, so the wait below need not be quick.
tui_mode() { # name prog
    local name=$1 prog=$2
    local t0 t1
    rm -f "$tmp/rss" "$tmp/stamp" "$tmp/in"
    mkfifo "$tmp/in"
    t0=$(now_us)
    { script -qfc "stty rows 40 cols 120; exec $GTIME -o $tmp/rss -f %M $prog" /dev/null \
          <"$tmp/in" 2>/dev/null | first_screen "$tmp/stamp"; } &
    exec 7>"$tmp/in"
    for _ in $(seq 1000); do
        [ -s "$tmp/stamp" ] && break
        sleep 0.01
    done
    printf 'quit\r' >&7
    exec 7>&-
    wait
    t1=$(cat "$tmp/stamp" 2>/dev/null || echo "$t0")
    record tui_ms "$name" $(( (t1 - t0) / 1000 ))
    record tui_kb "$name" "$(tail -1 "$tmp/rss" 2>/dev/null || echo 0)"
}

# "floor" is the harness alone: a shell that answers at once, to tell what of
# a figure is the measuring rather than the program.
names=(floor patzer)
[ -n "$PATZER_BASE" ] && names+=(base)
[ -n "$GNUCHESS" ] && names+=(gnuchess)
prog_of() { case $1 in patzer) echo "$PATZER" ;; base) echo "$PATZER_BASE" ;; *) echo "$GNUCHESS" ;; esac; }

for run in $(seq "$RUNS"); do
    printf '\rrun %d/%d' "$run" "$RUNS" >&2
    for n in "${names[@]}"; do
        p=$(prog_of "$n")
        if [ "$n" = floor ]; then
            with_cpu line floor line_mode floor sh -c 'read -r l'
            with_cpu uci floor uci_mode floor sh -c 'read -r l; echo uciok; read -r l'
            [ $have_tui = 1 ] &&
                with_cpu tui floor tui_mode floor "sh -c 'printf \"White to move\"; read -r l'"
            continue
        fi
        with_cpu line "$n" line_mode "$n" "$p"
        if [ "$n" = gnuchess ]; then
            with_cpu uci "$n" uci_mode "$n" "$p" --uci
        else
            with_cpu uci "$n" uci_mode "$n" "$p" uci
            [ $have_tui = 1 ] && with_cpu tui "$n" tui_mode "$n" "$p"
        fi
    done
done
printf '\r' >&2

median() { # kind name
    local v
    v=$(awk -v k="$1" -v n="$2" '$1 == k && $2 == n { print $3 }' "$tmp/samples" | sort -n)
    [ -z "$v" ] && { echo -; return; }
    sed -n "$(( ($(wc -l <<<"$v") + 1) / 2 ))p" <<<"$v"
}
ratio() { # a b -> a/b with one decimal, "-" when either is missing
    awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-";
                                     else printf "%.1fx\n", a / b }'
}
mb() { awk -v k="$1" 'BEGIN { if (k == "-") print "-"; else printf "%.1f\n", k / 1024 }'; }

echo "start-up, medians of $RUNS runs (ms, peak RSS in MB)"
printf '%-22s %7s %7s %7s %9s %12s %15s\n' "" floor patzer base gnuchess base/patzer \
    gnuchess/patzer
row() { # label kind unit
    local f p b g
    f=$(median "$2" floor); p=$(median "$2" patzer); b=$(median "$2" base)
    g=$(median "$2" gnuchess)
    if [ "$3" = MB ]; then
        printf '%-22s %7s %7s %7s %9s %12s %15s\n' "$1" "$(mb "$f")" "$(mb "$p")" "$(mb "$b")" \
            "$(mb "$g")" "$(ratio "$b" "$p")" "$(ratio "$g" "$p")"
    else
        printf '%-22s %7s %7s %7s %9s %12s %15s\n' "$1" "$f" "$p" "$b" "$g" \
            "$(ratio "$b" "$p")" "$(ratio "$g" "$p")"
    fi
}
row "line mode, quit (ms)" line_ms ms
row "line mode (MB)" line_kb MB
row "line mode CPU (ms)" cpu_line ms
row "uci to uciok (ms)" uci_ms ms
row "uci (MB)" uci_kb MB
row "uci CPU (ms)" cpu_uci ms
if [ $have_tui = 1 ]; then
    row "tui first screen (ms)" tui_ms ms
    row "tui (MB)" tui_kb MB
    row "tui CPU (ms)" cpu_tui ms
fi
echo "(CPU: user + sys of every process of one start, harness included; ms resolution)"
