#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Two builds against the same opponent on the same openings, game by game: the games of
two match directories (bench/match-chunks.sh's chunk-K.pgn[.gz]) are paired by their
starting position and the colour the tested build played, and the mean difference of its
points (B - A) is printed with a 95% interval from the pairs' own spread.

    bench/paired.py [--opponent NAME] DIR_A DIR_B

At a fixed depth or node count both sides are deterministic, so a change that does not
touch a game's course leaves its result as it was: those pairs cost nothing in variance,
and the interval is narrower than the two matches' own errors taken apart. NAME (default
ethereal) is the opponent's name in the PGN; the tested build is the other player."""
import argparse
import glob
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from humanlike import read_pgn  # noqa: E402  (tags and moves of each game)

POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def results(directory, opponent):
    """The tested build's points by (starting FEN, played white)."""
    out = {}
    paths = sorted(glob.glob(directory + "/chunk-*.pgn") + glob.glob(directory + "/chunk-*.pgn.gz"))
    if not paths:
        sys.exit(f"paired.py: no chunk-K.pgn in {directory}")
    for path in paths:
        for tags, _ in read_pgn(path):
            points = POINTS.get(tags.get("Result"))
            if points is None or "FEN" not in tags:
                continue  # unfinished, or not from an opening
            white = tags.get("White") != opponent
            out[(tags["FEN"], white)] = points if white else 1 - points
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponent", default="ethereal")
    ap.add_argument("a")
    ap.add_argument("b")
    args = ap.parse_args()
    a, b = results(args.a, args.opponent), results(args.b, args.opponent)
    keys = [k for k in a if k in b]
    n = len(keys)
    if n < 2:
        sys.exit("paired.py: fewer than two games in common")
    diffs = [b[k] - a[k] for k in keys]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    score_a = 100 * sum(a[k] for k in keys) / n
    score_b = 100 * sum(b[k] for k in keys) / n
    same = sum(1 for d in diffs if d == 0)
    print(f"{n} paired games: A {score_a:.1f}%, B {score_b:.1f}%, B - A {100 * mean:+.2f} points "
          f"(95% {100 * (mean - half):+.2f} .. {100 * (mean + half):+.2f}); "
          f"{same} pairs with the same result")


if __name__ == "__main__":
    main()
