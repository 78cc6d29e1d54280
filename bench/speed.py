#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The search's speed as games see it: the CPU time of the same fixed-node searches from a
few middlegame and endgame positions, one after the other in a warm table (ucinewgame
between positions, 16 MB of hash as in the matches), for one build or more, in turns.

    bench/speed.py [--nodes N] [--reps R] [--hash MB] [--nnue true|false] BIN [BIN...]

The time is the engine process's user CPU time (os.wait4), not the wall clock, so a busy
machine changes it little; each build runs R times in turn and its median is printed, and
with two builds the ratio of the first to the second (above 1: the second is faster).
The ratio is a speed only when the builds search the same tree: check that `patzer bench`
(and `patzer bench --eval-file builtin`) gives both the same node count."""
import argparse
import os
import statistics
import subprocess
import sys

POSITIONS = [
    "startpos moves e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6",
    "fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 9",
    "fen r2q1rk1/1b1nbppp/pp1ppn2/8/2PNP3/1PN1B3/P3BPPP/R2Q1RK1 w - - 0 11",
    "fen 2r3k1/1p3ppp/p3pn2/8/3R4/1P3N2/P4PPP/6K1 w - - 0 25",
]


def run(binary, args):
    """One pass over the positions: the engine's user CPU seconds."""
    p = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    def send(text):
        p.stdin.write(text + "\n")
        p.stdin.flush()
    send("uci")
    send("setoption name Hash value %d" % args.hash)
    send("setoption name UseNNUE value %s" % args.nnue)
    send("isready")
    for pos in POSITIONS:
        send("ucinewgame")
        send("position " + pos)
        send("go nodes %d" % args.nodes)
        for line in p.stdout:
            if line.startswith("bestmove"):
                break
        else:
            sys.exit("%s: no bestmove" % binary)
    send("quit")
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit("%s: exit status %d" % (binary, status))
    return usage.ru_utime


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=2000000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--nnue", choices=["true", "false"], default="true")
    ap.add_argument("binaries", nargs="+")
    args = ap.parse_args()
    times = {b: [] for b in args.binaries}
    for _ in range(args.reps):
        for b in args.binaries:
            times[b].append(run(b, args))
    searched = args.nodes * len(POSITIONS)
    for b in args.binaries:
        med = statistics.median(times[b])
        print("%s: median %.3f s for %d x %d nodes (%.0f knps of CPU time); runs %s" %
              (b, med, len(POSITIONS), args.nodes, searched / med / 1000,
               " ".join("%.2f" % t for t in times[b])))
    if len(args.binaries) == 2:
        a, b = (statistics.median(times[x]) for x in args.binaries)
        print("ratio %.3f (first / second)" % (a / b))


if __name__ == "__main__":
    main()
