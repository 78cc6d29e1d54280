#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Where an engine lost its lost games, by Stockfish's judgement: for each game NAME lost,
Stockfish scores every position at a fixed depth, and the move of NAME's that lost most
while the game was still within 1.5 pawns is printed with NAME's own score for it.

    bench/lost-moves.py [--depth D] [--name NAME] PGN[.gz]...

Needs Stockfish (humanlike.py's, $STOCKFISH or /usr/games/stockfish) and /usr/games/pgn-extract (for the moves in UCI notation); the
PGN is match.py's, whose move comments start with the mover's score/depth. One line per
lost game: the file, the round, the ply, the move, Stockfish's score before and after (from
NAME's side, centipawns) and NAME's comment."""
import argparse
import gzip
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from humanlike import Engine  # noqa: E402  (Stockfish at a fixed depth)

PGN_EXTRACT = "/usr/games/pgn-extract"
STILL_LEVEL = -150  # centipawns: beyond this the game was already lost


def split_games(text):
    return [g for g in re.split(r"\n(?=\[Event )", text) if "[White " in g]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--name", default="patzer")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    judge = Engine(args.depth)
    for path in args.pgn:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            text = f.read()
        with tempfile.NamedTemporaryFile("w", suffix=".pgn") as tmp:
            tmp.write(text)
            tmp.flush()
            uci = subprocess.run([PGN_EXTRACT, "-Wuci", "-C", "-s", tmp.name],
                                 capture_output=True, text=True, check=True).stdout
        for game, moves_game in zip(split_games(text), split_games(uci)):
            tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
            white = tags["White"] == args.name
            if tags["Result"] != ("0-1" if white else "1-0"):
                continue
            fen = tags.get("FEN", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            white_first = fen.split()[1] == "w"
            moves = moves_game.split("\n\n", 1)[1].split()[:-1]
            comments = re.findall(r"\{([^}]*)\}", game.split("\n\n", 1)[1])
            worst, before = None, None
            for i in range(len(moves) + 1):
                white_to_move = white_first == (i % 2 == 0)
                s = judge.score(judge.board(fen, moves[:i])[0])[0]
                ours = s if white_to_move == white else -s
                if i > 0 and (not white_to_move) == white and before >= STILL_LEVEL:
                    drop = before - ours
                    said = comments[i - 1].split()[0] if i - 1 < len(comments) else "?"
                    if worst is None or drop > worst[0]:
                        worst = (drop, i, moves[i - 1], before, ours, said)
                before = ours
            if worst is None:
                print("%s round %s: lost from the start" % (path, tags.get("Round")), flush=True)
                continue
            print("%s round %s: ply %d %s loses %d (%d -> %d), %s said %s" %
                  (path, tags.get("Round"), worst[1], worst[2], worst[0], worst[3], worst[4],
                   args.name, worst[5]), flush=True)
    judge.close()


if __name__ == "__main__":
    main()
