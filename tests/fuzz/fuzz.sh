#!/bin/bash
# tests/fuzz/fuzz.sh: builds the libFuzzer targets with clang and runs each for
# a while ("make fuzz" calls it). Fails on the first crash, hang or sanitizer
# report, naming the input that caused it.
#
#   tests/fuzz/fuzz.sh [TARGET...]          build, then fuzz each target
#   tests/fuzz/fuzz.sh --build [TARGET...]  build only
#   tests/fuzz/fuzz.sh --run FILE... -- TARGET
#                                           run TARGET once on each FILE
#
# Environment:
#   FUZZ_SECONDS  seconds per target (default 60)
#   FUZZ_CC       the compiler (default: clang, else clang-19 .. clang-14)
#   FUZZ_DIR      build and work directory (default: tests/fuzz/build under
#                 $top_builddir, else under the current directory)
#   FUZZ_FLAGS    extra libFuzzer flags, e.g. "-jobs=2 -workers=2"
#   top_srcdir    the source tree (default: two levels above this script)
#
# Seed corpora are read from tests/fuzz/corpus/TARGET in the source tree and
# never written to: new inputs go to $FUZZ_DIR/corpus/TARGET, crashes to
# $FUZZ_DIR/artifacts. The libFuzzer runtime comes with clang (Debian 12:
# apt-get install clang libclang-rt-14-dev).

set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top_srcdir=${top_srcdir:-$(cd "$here/../.." && pwd)}
top_builddir=${top_builddir:-$(pwd)}
FUZZ_DIR=${FUZZ_DIR:-$top_builddir/tests/fuzz/build}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_FLAGS=${FUZZ_FLAGS:-}
ALL_TARGETS=(fen san pgn command uci xboard uci_client)

die() { echo "fuzz: $*" >&2; exit 1; }

mode=fuzz
case ${1:-} in
--build) mode=build; shift ;;
--run) mode=run; shift ;;
esac
run_files=()
if [ "$mode" = run ]; then
    while [ $# -gt 0 ] && [ "$1" != -- ]; do run_files+=("$1"); shift; done
    [ "${1:-}" = -- ] && shift
    [ $# -eq 1 ] || die "usage: fuzz.sh --run FILE... -- TARGET"
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")
for t in "${targets[@]}"; do
    [ -f "$here/fuzz_$t.c" ] || die "no fuzz target '$t' (targets: ${ALL_TARGETS[*]})"
done
[[ $FUZZ_SECONDS =~ ^[0-9]+$ ]] || die "FUZZ_SECONDS must be a whole number of seconds"

# ------------------------------------------------------------------ compiler

if [ -z "${FUZZ_CC:-}" ]; then
    for cc in clang clang-19 clang-18 clang-17 clang-16 clang-15 clang-14; do
        if command -v "$cc" >/dev/null 2>&1; then FUZZ_CC=$cc; break; fi
    done
fi
[ -n "${FUZZ_CC:-}" ] || die "clang was not found; the fuzz targets need clang's libFuzzer
fuzz: (Debian/Ubuntu: apt-get install clang libclang-rt-14-dev, or set FUZZ_CC)"

SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
CFLAGS_FUZZ="-std=c11 -D_POSIX_C_SOURCE=200809L -O1 -g -pthread -Wall -Wno-unused-function
    -I$top_srcdir -DPACKAGE_VERSION=\"fuzz\" -DPKGDATADIR=\"$top_builddir/data\""

mkdir -p "$FUZZ_DIR/obj" "$FUZZ_DIR/artifacts" || die "cannot create $FUZZ_DIR"

probe=$FUZZ_DIR/probe
cat >"$probe.c" <<'PROBE'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { (void)data; (void)size; return 0; }
PROBE
if ! "$FUZZ_CC" -fsanitize=fuzzer $SAN "$probe.c" -o "$probe" >"$probe.log" 2>&1; then
    cat "$probe.log" >&2
    die "$FUZZ_CC cannot build a libFuzzer target with -fsanitize=fuzzer,address,undefined.
fuzz: Install clang's fuzzer runtime (Debian 12: apt-get install clang libclang-rt-14-dev)
fuzz: or point FUZZ_CC at a clang that has it."
fi

# ------------------------------------------------------------------ build
#
# The sources are compiled with clang and the fuzzer's instrumentation into
# $FUZZ_DIR/obj (not the gcc-built libraries of the normal build); an object
# is rebuilt when its source or any header is newer.

engine_srcs=$(cd "$top_srcdir" && ls engine/*.c)
declare -A extra=(
    [fen]="" [san]="" [pgn]="src/pgn/model.c src/pgn/read.c src/pgn/build.c src/pgn/lex.c src/pgn/write.c src/util/paths.c src/util/strbuf.c"
    [command]="src/session/command.c src/session/command_table.c src/game/clock.c"
    [uci]="src/protocol/uci.c src/util/paths.c src/util/text.c src/util/netfile.c"
    [uci_client]="src/protocol/uci_client_parse.c src/util/text.c"
    [xboard]="src/protocol/xboard.c src/game/game.c src/game/clock.c src/game/outcome.c
              src/pgn/model.c src/util/paths.c src/util/text.c src/util/netfile.c"
)

newest_header=$(cd "$top_srcdir" && ls -t engine/*.h src/*/*.h tests/fuzz/*.h | head -n 1)
needed=()
for t in "${targets[@]}"; do needed+=(${extra[$t]}); done
srcs=$(printf '%s\n' $engine_srcs "${needed[@]}" | sort -u)

stale=()
for s in $srcs; do
    o=$FUZZ_DIR/obj/${s//\//_}.o
    if [ ! -f "$o" ] || [ "$top_srcdir/$s" -nt "$o" ] || [ "$top_srcdir/$newest_header" -nt "$o" ]; then
        stale+=("$s")
    fi
done
if [ ${#stale[@]} -gt 0 ]; then
    echo "fuzz: compiling ${#stale[@]} sources with $FUZZ_CC"
    export FUZZ_CC SAN CFLAGS_FUZZ FUZZ_DIR top_srcdir
    printf '%s\n' "${stale[@]}" | xargs -P "${JOBS:-2}" -I{} bash -c '
        s={}; o=$FUZZ_DIR/obj/${s//\//_}.o
        $FUZZ_CC $CFLAGS_FUZZ -fsanitize=fuzzer-no-link $SAN -c "$top_srcdir/$s" -o "$o.tmp" &&
            mv "$o.tmp" "$o"' || die "compilation failed"
fi

# The net built into the program (src/util/netbuiltin.c), which src/util/netfile.c loads,
# is generated by the normal build ("make fuzz" makes "all" first).
builtin_src=$top_builddir/src/util/netbuiltin.c
builtin_obj=$FUZZ_DIR/obj/netbuiltin.o
[ -f "$builtin_src" ] || die "$builtin_src is missing: run make first"
if [ ! -f "$builtin_obj" ] || [ "$builtin_src" -nt "$builtin_obj" ]; then
    # shellcheck disable=SC2086
    "$FUZZ_CC" $CFLAGS_FUZZ -c "$builtin_src" -o "$builtin_obj.tmp" &&
        mv "$builtin_obj.tmp" "$builtin_obj" || die "compiling $builtin_src failed"
fi

for t in "${targets[@]}"; do
    objs=()
    for s in $engine_srcs ${extra[$t]}; do objs+=("$FUZZ_DIR/obj/${s//\//_}.o"); done
    [[ " ${extra[$t]} " == *" src/util/netfile.c "* ]] && objs+=("$builtin_obj")
    bin=$FUZZ_DIR/fuzz_$t
    need=no
    [ -x "$bin" ] || need=yes
    for f in "${objs[@]}" "$here/fuzz_$t.c" "$top_srcdir/$newest_header"; do
        [ "$f" -nt "$bin" ] && need=yes
    done
    if [ "$need" = yes ]; then
        echo "fuzz: linking fuzz_$t"
        # shellcheck disable=SC2086
        "$FUZZ_CC" $CFLAGS_FUZZ -fsanitize=fuzzer $SAN "$here/fuzz_$t.c" "${objs[@]}" -lm \
            -o "$bin" || die "linking fuzz_$t failed"
    fi
done
[ "$mode" = build ] && exit 0

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

if [ "$mode" = run ]; then
    exec "$FUZZ_DIR/fuzz_${targets[0]}" -timeout=60 "${run_files[@]}"
fi

# ------------------------------------------------------------------ fuzz

failed=()
for t in "${targets[@]}"; do
    work=$FUZZ_DIR/corpus/$t
    mkdir -p "$work"
    seeds=$top_srcdir/tests/fuzz/corpus/$t
    dict=() dirs=("$work" "$seeds")
    [ -f "$here/$t.dict" ] && dict=(-dict="$here/$t.dict")
    # Past failures seed the run too, so a fix is checked at once.
    [ -d "$here/regress/$t" ] && dirs+=("$here/regress/$t")
    echo "fuzz: fuzz_$t for ${FUZZ_SECONDS}s"
    # shellcheck disable=SC2086
    "$FUZZ_DIR/fuzz_$t" -max_total_time="$FUZZ_SECONDS" -timeout=30 -rss_limit_mb=2560 \
        -max_len=4096 -print_final_stats=1 -artifact_prefix="$FUZZ_DIR/artifacts/$t-" \
        "${dict[@]}" $FUZZ_FLAGS "${dirs[@]}" >"$FUZZ_DIR/$t.log" 2>&1
    status=$?
    grep -E '^(stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb)' \
        "$FUZZ_DIR/$t.log" | sed "s/^/fuzz: fuzz_$t /"
    if [ $status -ne 0 ]; then
        echo "fuzz: fuzz_$t FAILED (exit $status); the end of $FUZZ_DIR/$t.log:" >&2
        tail -n 60 "$FUZZ_DIR/$t.log" >&2
        art=$(ls -t "$FUZZ_DIR/artifacts/$t-"* 2>/dev/null | head -n 1)
        [ -n "$art" ] && echo "fuzz: reproduce with: $0 --run $art -- $t" >&2
        failed+=("$t")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: failures in: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: all ${#targets[@]} targets ran ${FUZZ_SECONDS}s each without a finding"
