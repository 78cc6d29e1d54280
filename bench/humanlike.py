#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/humanlike.py: how big the mistakes of a set of games are.

    humanlike.py [--depth N] [--jobs N] [--cache FILE] [--markdown]
                 NAME=FILE.pgn[:MIN-MAX] ...

Every move of every game of each sample is judged by Debian's Stockfish at a
fixed depth, the way lichess judges moves: the mover's winning chances
(win% = 50 + 50 * (2 / (1 + e^(-0.00368208 * cp)) - 1), cp capped at
+-1000, a mate counting as the cap) before the move (Stockfish's best) and
after it; the loss is the difference, never below 0. A loss of 5 win% points
or more is an inaccuracy, 10 a mistake, 15 a blunder (lichess's and patzer's
own review's thresholds, src/game/review.h).

A sample is NAME=FILE.pgn, optionally with :MIN-MAX, the ratings of the
movers whose moves count (WhiteElo / BlackElo tags; without it every move
counts: a level playing itself), and @GAMES, the games taken at most (the
first ones of the file; else --max-games). For each sample it prints:

- moves: the moves judged; rates per 100 moves and the mean loss count only
  moves played while the game is undecided (the mover's score before the move
  within +-UNDECIDED_CP), so that long engine games played out to mate and
  short human games that end in resignation compare fairly, and the first
  OPENING_PLIES plies of a game from the standard position are left out
  (opening theory, not the player's own choice);
- inacc / mistake / blunder per 100 moves, mean win% loss;
- free piece missed: of the positions where the opponent's move before was a
  blunder and Stockfish's best answer captures a knight, bishop, rook or
  queen, the share where the mover lost 10 win% or more instead (did not
  cash in);
- mate missed: of the positions with a mate in 1 or 2 for the mover, the
  share where the move played did not keep it (checkmate, or mate in 1 after
  a mate in 2).

Error bars are 95% intervals from a bootstrap over the games (moves of one
game are not independent). Evaluations are cached in --cache (FEN and depth
to score), so a second run costs only the new positions.
"""
import argparse
import gzip
import math
import os
import random
import re
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

CP_CAP = 1000
UNDECIDED_CP = 800
OPENING_PLIES = 10
MAX_PLIES = 120
INACCURACY, MISTAKE, BLUNDER = 5.0, 10.0, 15.0
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")


def win_pct(cp):
    cp = max(-CP_CAP, min(CP_CAP, cp))
    return 50 + 50 * (2 / (1 + math.exp(-0.00368208 * cp)) - 1)


# ------------------------------------------------------------ PGN


def read_pgn(path):
    """Yields (tags, san moves) for every game of a PGN file (gzipped when named .gz)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        text = f.read()
    tags, body = {}, []
    for line in text.splitlines() + ["[End \"\"]"]:
        m = re.match(r'\s*\[(\w+)\s+"(.*)"\]\s*$', line)
        if m:
            if body:
                yield tags, san_moves(" ".join(body))
                tags, body = {}, []
            if m.group(1) != "End":
                tags[m.group(1)] = m.group(2)
        elif line.strip() and not line.startswith("%"):
            body.append(line)


def san_moves(movetext):
    text = re.sub(r"\{[^}]*\}", " ", movetext)
    text = re.sub(r";[^\n]*", " ", text)
    while "(" in text:  # variations, innermost first
        text = re.sub(r"\([^()]*\)", " ", text)
    moves = []
    for tok in text.split():
        tok = re.sub(r"^\d+\.+", "", tok)
        if not tok or tok.startswith("$") or tok in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        moves.append(tok)
    return moves


# ------------------------------------------------------------ Stockfish


class Engine:
    def __init__(self, depth):
        self.depth = depth
        self.p = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Hash value 16")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, prefix):
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("stockfish ended")
            line = line.rstrip("\n")
            out.append(line)
            if line.startswith(prefix):
                return out

    def board(self, fen, moves):
        """The FEN after moves, and the legal moves there (UCI)."""
        self.send("position fen %s moves %s" % (fen, " ".join(moves)) if moves
                  else "position fen " + fen)
        self.send("d")
        new_fen = next(l[5:] for l in self.wait("Checkers:") if l.startswith("Fen: "))
        self.send("go perft 1")
        legal = [l.split(":")[0] for l in self.wait("Nodes searched") if re.match(r"^[a-h][1-8][a-h][1-8][qrbn]?:", l)]
        return new_fen, legal

    def score(self, fen):
        """(cp, mate) from the side to move's view at the fixed depth; mate is
        None or the signed moves to mate (0: checkmated now)."""
        self.send("position fen " + fen)
        self.send("go depth %d" % self.depth)
        cp, mate, best = 0, None, None
        for line in self.wait("bestmove"):
            m = re.search(r" score (cp|mate) (-?\d+)", line)
            if m:
                if m.group(1) == "cp":
                    cp, mate = int(m.group(2)), None
                else:
                    mate = int(m.group(2))
                    cp = CP_CAP if mate > 0 else -CP_CAP
            if line.startswith("bestmove"):
                best = line.split()[1]
        if best in (None, "(none)"):  # mate or stalemate on the board
            return (-CP_CAP, 0, None) if mate is not None or cp < 0 else (0, None, None)
        return cp, mate, best

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def resolve(san, fen, legal):
    """The UCI move of SAN san in the position fen, among legal (None: none)."""
    board = expand(fen.split()[0])
    san = re.sub(r"[+#!?]+$", "", san).replace("0-0-0", "O-O-O").replace("0-0", "O-O")
    white = fen.split()[1] == "w"
    if san in ("O-O", "O-O-O"):
        rank = "1" if white else "8"
        to = ("g" if san == "O-O" else "c") + rank
        return next((m for m in legal if m[:2] == "e" + rank and m[2:4] == to
                     and board.get("e" + rank, " ").upper() == "K"), None)
    promo = ""
    m = re.match(r"^(.*)=?([QRBN])$", san)
    if m and re.search(r"[a-h][18]=?[QRBN]$", san):
        san, promo = m.group(1).rstrip("="), m.group(2).lower()
    piece = san[0] if san[0] in "KQRBN" else "P"
    rest = san[1:] if piece != "P" else san
    rest = rest.replace("x", "")
    to, hint = rest[-2:], rest[:-2]
    found = []
    for mv in legal:
        if mv[2:4] != to or (mv[4:] or "") != promo:
            continue
        if board.get(mv[:2], " ").upper() != piece:
            continue
        if any(c not in mv[:2] for c in hint):
            continue
        found.append(mv)
    return found[0] if len(found) == 1 else None


def expand(placement):
    board = {}
    for r, row in enumerate(placement.split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                board["abcdefgh"[f] + str(8 - r)] = c
                f += 1
    return board


# ------------------------------------------------------------ judging


class Cache:
    def __init__(self, path, depth):
        self.path, self.depth, self.lock, self.data = path, depth, threading.Lock(), {}
        if path and os.path.exists(path):
            with open(path) as f:
                for line in f:
                    parts = line.rstrip("\n").split("\t")
                    if len(parts) == 5 and int(parts[1]) == depth:
                        mate = None if parts[3] == "-" else int(parts[3])
                        self.data[parts[0]] = (int(parts[2]), mate, None if parts[4] == "-" else parts[4])
        self.out = open(path, "a") if path else None

    def get(self, fen):
        with self.lock:
            return self.data.get(fen)

    def put(self, fen, value):
        with self.lock:
            self.data[fen] = value
            if self.out:
                cp, mate, best = value
                self.out.write("%s\t%d\t%d\t%s\t%s\n" % (fen, self.depth, cp,
                                                         "-" if mate is None else mate, best or "-"))
                self.out.flush()


def judge_game(engine, cache, tags, sans, lo, hi):
    """The judged moves of one game: dicts with the mover's loss and the
    tactical opportunities, for the movers rated lo..hi (None: all)."""
    fen0 = tags.get("FEN", START)
    from_start = fen0.split()[0] == START.split()[0]
    fens, moves = [], []
    fen = fen0
    legal = engine.board(fen0, [])[1]
    for san in sans[:MAX_PLIES]:
        mv = resolve(san, fen, legal)
        if mv is None:
            break
        fens.append(fen)
        moves.append(mv)
        fen, legal = engine.board(fen0, moves)
    fens.append(fen)
    scores = []
    for f in fens:
        v = cache.get(f)
        if v is None:
            v = engine.score(f)
            cache.put(f, v)
        scores.append(v)
    out = []
    for i, mv in enumerate(moves):
        white = fens[i].split()[1] == "w"
        rating = tags.get("WhiteElo" if white else "BlackElo", "?")
        if lo is not None and not (rating.isdigit() and lo <= int(rating) <= hi):
            continue
        cp, mate, best = scores[i]
        cp2, mate2, _ = scores[i + 1]
        before, after = win_pct(cp), win_pct(-cp2)
        loss = max(0.0, before - after) if mv != best else 0.0
        judged = {"loss": loss, "counted": abs(cp) < UNDECIDED_CP and
                  not (from_start and i < OPENING_PLIES)}
        if mate is not None and 0 < mate <= 2:
            kept = mate2 is not None and mate2 <= 0 and -mate2 <= mate - 1
            judged["mate"] = not kept
        if i > 0 and best and len(best) >= 4:
            prev_loss = max(0.0, win_pct(scores[i - 1][0]) - win_pct(-cp))
            target = expand(fens[i].split()[0]).get(best[2:4], " ")
            if prev_loss >= BLUNDER and target.upper() in "NBRQ" and target != " ":
                judged["free"] = loss >= MISTAKE
        out.append(judged)
    return out


def summarize(games):
    """The figures of a list of games (each a list of judged moves)."""
    counted = [m for g in games for m in g if m["counted"]]
    n = len(counted)
    f = {"games": len(games), "moves": n}
    if n:
        f["inacc"] = 100.0 * sum(INACCURACY <= m["loss"] < MISTAKE for m in counted) / n
        f["mistake"] = 100.0 * sum(MISTAKE <= m["loss"] < BLUNDER for m in counted) / n
        f["blunder"] = 100.0 * sum(m["loss"] >= BLUNDER for m in counted) / n
        f["loss"] = sum(m["loss"] for m in counted) / n
    for key in ("free", "mate"):
        chances = [m[key] for g in games for m in g if key in m]
        f[key + "_n"] = len(chances)
        if chances:
            f[key] = 100.0 * sum(chances) / len(chances)
    return f


def bootstrap(games, keys, rounds=300):
    rng = random.Random(1)
    samples = {k: [] for k in keys}
    for _ in range(rounds):
        pick = [games[rng.randrange(len(games))] for _ in games]
        s = summarize(pick)
        for k in keys:
            if k in s:
                samples[k].append(s[k])
    half = {}
    for k, v in samples.items():
        if len(v) > 10:
            v.sort()
            half[k] = (v[int(0.975 * len(v)) - 1] - v[int(0.025 * len(v))]) / 2
    return half


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("samples", nargs="+", help="NAME=FILE.pgn[:MIN-MAX][@GAMES]")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", default="")
    ap.add_argument("--max-games", type=int, default=0, help="games per sample at most (0: all)")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    cache = Cache(args.cache, args.depth)
    engines = []
    elock = threading.Lock()

    def work(item):
        tags, sans, lo, hi = item
        with elock:
            eng = engines.pop() if engines else None
        if eng is None:
            eng = Engine(args.depth)
        try:
            return judge_game(eng, cache, tags, sans, lo, hi)
        finally:
            with elock:
                engines.append(eng)

    rows = []
    for spec in args.samples:
        name, _, rest = spec.partition("=")
        m = re.match(r"^(.*?)(?::(\d+)-(\d+))?(?:@(\d+))?$", rest)
        path, lo, hi = m.group(1), m.group(2), m.group(3)
        limit = int(m.group(4)) if m.group(4) else args.max_games
        lo, hi = (int(lo), int(hi)) if lo else (None, None)
        items = []
        for tags, sans in read_pgn(path):
            if lo is not None and not any(
                    tags.get(t, "?").isdigit() and lo <= int(tags[t]) <= hi
                    for t in ("WhiteElo", "BlackElo")):
                continue
            items.append((tags, sans, lo, hi))
            if limit and len(items) >= limit:
                break
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            games = [g for g in pool.map(work, items) if g]
        f = summarize(games)
        err = bootstrap(games, ("inacc", "mistake", "blunder", "loss", "free", "mate")) if games else {}
        rows.append((name, f, err))
        print("%s: %d games, %d moves judged" % (name, f["games"], f["moves"]), file=sys.stderr)
    for eng in engines:
        eng.close()

    def cell(f, err, k, digits=1):
        if k not in f:
            return "–"
        e = err.get(k)
        return ("%.*f" % (digits, f[k])) + (" ± %.*f" % (digits, e) if e is not None else "")

    if args.markdown:
        print("| sample | games | moves | inaccuracies /100 | mistakes /100 | blunders /100 "
              "| mean win% loss | free piece missed | mate in 1-2 missed |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, f, err in rows:
        cols = [name, str(f["games"]), str(f["moves"]), cell(f, err, "inacc"),
                cell(f, err, "mistake"), cell(f, err, "blunder"), cell(f, err, "loss", 2),
                "%s%% of %d" % (cell(f, err, "free", 0), f["free_n"]),
                "%s%% of %d" % (cell(f, err, "mate", 0), f["mate_n"])]
        if args.markdown:
            print("| " + " | ".join(cols) + " |")
        else:
            print("  ".join(cols))


if __name__ == "__main__":
    main()
