#!/usr/bin/env python3
"""Clued boards that no greedy rule replays: the benchmark of issue 64.

    scripts/clued-boards.py N SEED [--every K] [--rotations R] [--knightsat BIN]

Prints knightsat's clue arguments (`--at 1=SQ --at 26=SQ ...`) for the
N x N board: one clue every K moves (default N/2) from move 1, taken from a
random open tour made from SEED. Pass them to `solve --size N` and to
`verify --size N` (or give `--tour` to print the hidden tour, a move list).

The tour is Warnsdorff's (from `knightsat solve --method warnsdorff`),
scrambled by R random Posa rotations (default 50 per square; the "backbite"
move of Oberdorf, Ferguson, Jacobsen and Kondev, Phys. Rev. E 74, 051801,
2006): take an end v of the path, a board neighbour u of v other than its
neighbour on the path, join v to u and cut the path after u, so the piece
beyond u turns round and a new square becomes the end. Every rotation keeps
a Hamiltonian path, and thousands of them leave no trace of the greedy order
the tour was built in. Clues along Warnsdorff's tour itself are solved in
milliseconds by `--method backtrack`, whose move order is the same greedy
rule: that replays the tour, it measures nothing.

The same N, SEED, K and R give the same clues on every machine (Python's
random.Random is specified to be reproducible for a given seed).
"""

import argparse
import collections
import os
import random
import re
import subprocess
import sys


def file_number(letters):
    """a -> 0, z -> 25, aa -> 26, as knightsat names files."""
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n - 1


def file_letters(file):
    """The inverse of file_number."""
    letters = ""
    file += 1
    while file:
        file, rest = divmod(file - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


def parse(square):
    match = re.fullmatch(r"([a-z]+)([0-9]+)", square)
    if not match:
        raise SystemExit(f"clued-boards: not a square: {square!r}")
    return file_number(match.group(1)), int(match.group(2)) - 1


def name(square):
    return f"{file_letters(square[0])}{square[1] + 1}"


def knight_neighbours(square, n):
    f, r = square
    for df, dr in ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)):
        if 0 <= f + df < n and 0 <= r + dr < n:
            yield (f + df, r + dr)


def read_clues(n, text):
    """The `--at K=SQ` clues of `text` as sorted (move from 0, cell) pairs,
    a cell being rank * n + file (for the prototypes that read them)."""
    words = text.split()
    clues = []
    for k in range(1, len(words), 2):
        move, square = words[k].split("=")
        file, rank = parse(square)
        clues.append((int(move) - 1, rank * n + file))
    return sorted(clues)


def knight_graph(n):
    """Each cell's knight moves, cells numbered rank * n + file."""
    graph = []
    for cell in range(n * n):
        rank, file = divmod(cell, n)
        graph.append([r * n + f for f, r in knight_neighbours((file, rank), n)])
    return graph


def distances(graph, source, allowed):
    """Moves from `source` to each cell reached through cells `allowed`."""
    distance = {source: 0}
    queue = collections.deque([source])
    while queue:
        cell = queue.popleft()
        for other in graph[cell]:
            if other not in distance and allowed(other):
                distance[other] = distance[cell] + 1
                queue.append(other)
    return distance


def scramble(path, n, rotations, rng):
    """Random Posa rotations at either end of a Hamiltonian path."""
    path = list(path)
    for _ in range(rotations):
        if rng.random() < 0.5:
            path.reverse()
        end = path[-1]
        choices = [u for u in knight_neighbours(end, n) if u != path[-2]]
        u = rng.choice(choices)
        i = path.index(u)
        path[i + 1:] = path[:i:-1]
    return path


def check(path, n):
    assert len(path) == n * n and len(set(path)) == n * n, "not every square once"
    for a, b in zip(path, path[1:]):
        assert sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2], f"{a} to {b} is no knight move"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("--every", type=int, help="moves between clues (default N/2)")
    parser.add_argument("--rotations", type=int, help="Posa rotations (default 50 per square)")
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--knightsat", default=os.path.join(here, "..", "target", "release", "knightsat"))
    parser.add_argument("--tour", action="store_true", help="print the hidden tour instead")
    args = parser.parse_args()
    n = args.n
    if n < 5:
        raise SystemExit("clued-boards: N must be at least 5 (smaller boards have no open tour)")
    every = args.every or n // 2
    rotations = args.rotations if args.rotations is not None else 50 * n * n
    moves = subprocess.run(
        [args.knightsat, "solve", "--size", str(n), "--method", "warnsdorff", "--format", "moves"],
        check=True, capture_output=True, text=True,
    ).stdout.split()
    path = [parse(s) for s in moves]
    check(path, n)
    path = scramble(path, n, rotations, random.Random(args.seed))
    check(path, n)
    if args.tour:
        print(" ".join(name(s) for s in path))
    else:
        print(" ".join(f"--at {k + 1}={name(path[k])}" for k in range(0, n * n, every)))


if __name__ == "__main__":
    sys.exit(main())
