#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A UCI engine that answers `go depth N` with a search of a fixed node count.

    bench/uci-nodes.py NODES ENGINE [ARGS...]

Ethereal 12 ignores `go nodes` (it stops after depth 1) but honours `go depth`, so a
load-free match against it is played at `--tc depth=N`; a fixed depth, though, is unfair
to a search change that spends nodes to prune or extend differently. Run the tested build
through this proxy and it searches NODES nodes a move where the opponent searches to depth
N: both deterministic, the result independent of the machine's load, and two builds can be
compared game by game with bench/paired.py. Every other line passes through unchanged;
the engine's output goes straight to this process's standard output."""
import subprocess
import sys


def rewrite(line, nodes):
    """The command the engine gets for one line of the GUI's."""
    words = line.split()
    if words and words[0] == "go" and "depth" in words:
        return f"go nodes {nodes}\n"
    return line


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) <= 0:
        sys.exit("usage: uci-nodes.py NODES ENGINE [ARGS...]")
    nodes = int(sys.argv[1])
    try:
        engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, text=True, bufsize=1)
    except OSError as e:
        sys.exit(f"uci-nodes.py: {sys.argv[2]}: {e.strerror}")
    try:
        for line in sys.stdin:
            engine.stdin.write(rewrite(line, nodes))
            engine.stdin.flush()
    except BrokenPipeError:
        pass  # the engine quit first: its exit status says how
    finally:
        try:
            engine.stdin.close()
        except BrokenPipeError:
            pass
    sys.exit(engine.wait())


if __name__ == "__main__":
    main()
