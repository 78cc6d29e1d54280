#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""How each engine of a match spent its clock, from the games' move comments (match.py's
"{score/depth 1.234s}"): the mean time a move over stretches of the game, the clock left at
the end and the lowest the clock fell to in each game (medians over the games), for every
time control found in the TimeControl tags (base+increment in seconds).

    bench/clock-use.py PGN[.gz]...

An engine that ends its games with much of its base time unused has thought less than it
could; one whose lowest clock is near zero is the one at risk of losing on time."""
import argparse
import gzip
import re
import statistics
import sys

# Move-number ranges (inclusive) the mean time a move is given for.
STRETCHES = [(1, 15), (16, 30), (31, 50), (51, 9999)]
MOVE = re.compile(r"(\d+)(\.\.\.|\.)\s*\S+\s*\{[^}]*?(\d+(?:\.\d+)?)s\}")


def games(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        text = f.read()
    for game in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', game, re.M))
        if "White" in tags and "Black" in tags:
            yield tags, game.split("\n\n", 1)[1] if "\n\n" in game else ""


def time_control(tag):
    """(base, increment) in seconds, or None for a control this does not read."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)", tag or "")
    return (float(m.group(1)), float(m.group(2))) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    # (control, engine) -> {"spent": [[seconds]...] per stretch, "end": [...], "low": [...]}
    stats = {}
    for path in args.pgn:
        for tags, moves in games(path):
            tc = time_control(tags.get("TimeControl"))
            if not tc:
                continue
            base, inc = tc
            clock = {tags["White"]: base, tags["Black"]: base}
            low = dict(clock)
            for number, dots, seconds in MOVE.findall(moves):
                name = tags["White"] if dots == "." else tags["Black"]
                s = stats.setdefault((tc, name), {"spent": [[] for _ in STRETCHES], "end": [], "low": []})
                n = int(number)
                for i, (first, last) in enumerate(STRETCHES):
                    if first <= n <= last:
                        s["spent"][i].append(float(seconds))
                clock[name] += inc - float(seconds)
                low[name] = min(low[name], clock[name])
            for name in clock:
                if (tc, name) in stats:
                    stats[(tc, name)]["end"].append(clock[name])
                    stats[(tc, name)]["low"].append(low[name])
    if not stats:
        sys.exit("clock-use.py: no game with a TimeControl of base+increment and timed moves")
    print("Mean seconds a move over the moves numbered; the clock at the end and the lowest it")
    print("fell to in a game, medians over the games (and the lowest of all), in seconds.")
    heads = "".join(f"{f'{a}-{b}' if b < 9999 else f'{a}-':>8}" for a, b in STRETCHES)
    print(f"{'control':<9}{'engine':<12}{'games':>6}{heads}{'end':>8}{'lowest':>8}{'(all)':>8}")
    for (tc, name), s in sorted(stats.items()):
        spent = "".join(f"{statistics.mean(x):8.2f}" if x else f"{'-':>8}" for x in s["spent"])
        print(f"{f'{tc[0]:g}+{tc[1]:g}':<9}{name:<12}{len(s['end']):>6}{spent}"
              f"{statistics.median(s['end']):8.2f}{statistics.median(s['low']):8.2f}"
              f"{min(s['low']):8.2f}")

if __name__ == "__main__":
    main()
