#!/usr/bin/env python3
"""A measured direction for issue 64, not a route: one incremental SAT
solver given the time-indexed formula of a clued board a few segments at
a time, each stage solved before the next is added, the solver keeping
its learned clauses and saved phases (the issue's "incremental solving").

    scripts/clued-boards.py N SEED | PY experiments/clue-staged-prototype.py N W [--whole] [--corridor SLACK] [-v]

PY is a Python with python-sat (`scripts/bench-venv.sh` prints one).
Reads the `--at K=SQ` clues on stdin (the first clue must be move 1).

Stage k holds the moves up to clue k * W: x(t, s) within the distance
windows of the clues on either side (distances through squares that are
not clues, colour parity), one square a move, at most one move a square
(a sequential counter per square, extended as its moves arrive), each
move's successor and predecessor among the next and previous move's
squares, and "at least one move" for each square whose every possible
move is in. Nothing is committed between stages: a later stage may move
any earlier square, so no pocket is ever final (what the rolling horizon
of experiments/clue-rolling-prototype.py lacked). `--whole` builds everything and
solves once, for comparison in the same setting. `--corridor SLACK`
keeps a move between clues a and b on s only where the detour
dist(a, s) + dist(s, b) - dist(a, b) is within SLACK of the least detour
of any pair of consecutive clues with the moves to pass s (not sound: a
corridor with no tour proves nothing).
"""
import importlib.util
import os
import sys
import time

from pysat.solvers import Solver

spec = importlib.util.spec_from_file_location(
    "cb", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "clued-boards.py"))
cb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cb)

args = sys.argv[1:]
n = int(args[0])
W = int(args[1])
whole = "--whole" in args
verbose = "-v" in args
slack = int(args[args.index("--corridor") + 1]) if "--corridor" in args else None
clues = cb.read_clues(n, sys.stdin.read())
N = n * n
nb = cb.knight_graph(n)
colour = [((s // n) + (s % n)) % 2 for s in range(N)]
T = [t for t, _ in clues]
C = [s for _, s in clues]
k = len(clues)
assert T[0] == 0
clue_at = dict(clues)
clue_sq = set(C)
t0 = time.time()

# Distances from each clue through squares that are not clues.
dist = [cb.distances(nb, c, lambda u: u not in clue_sq) for c in C]


def segment(t):
    """The clue index j with T[j] <= t < T[j+1] (or the last)."""
    lo, hi = 0, k - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if T[mid] <= t:
            lo = mid
        else:
            hi = mid - 1
    return lo


def detour(j, s):
    a = dist[j].get(s)
    if a is None:
        return None
    if j + 1 < k:
        b = dist[j + 1].get(s)
        if b is None:
            return None
        d = a + b - dist[j].get(C[j + 1], 0)
        return d if a + b <= T[j + 1] - T[j] else None
    return 0 if a <= N - 1 - T[j] else None


least = [None] * N
if slack is not None:
    for s in range(N):
        ds = [d for d in (detour(j, s) for j in range(k)) if d is not None]
        least[s] = min(ds) if ds else None


def allowed(t, s):
    if t in clue_at:
        return s == clue_at[t]
    if s in clue_sq:
        return False
    j = segment(t)
    a = dist[j].get(s)
    if a is None or a > t - T[j] or (colour[s] ^ colour[C[j]]) != (t - T[j]) % 2:
        return False
    if j + 1 < k:
        b = dist[j + 1].get(s)
        if b is None or b > T[j + 1] - t:
            return False
    if slack is not None:
        d = detour(j, s)
        if d is None or least[s] is None or d > least[s] + slack:
            return False
    return True


# Each square's possible moves, known up front, to add its "at least one"
# once the last of them is in.
dom = [[s for s in range(N) if allowed(t, s)] for t in range(N)]
last_time = [-1] * N
for t in range(N):
    for s in dom[t]:
        last_time[s] = t
if any(lt < 0 for lt in last_time):
    print("a square has no possible move: no tour")
    sys.exit(1)
print(f"{n}x{n}: {sum(map(len, dom))} live x(t, s), set up in {time.time() - t0:.1f} s",
      file=sys.stderr)

solver = Solver(name="cadical195")
var = {}
nv = 0
ladder = [0] * N  # the square's sequential counter so far (0: none)
by_sq = [[] for _ in range(N)]


def new():
    global nv
    nv += 1
    return nv


def add_moves(lo, hi):
    """The clauses of moves lo..hi (those of lo-1 are in)."""
    for t in range(lo, hi + 1):
        lits = []
        for s in dom[t]:
            v = new()
            var[(t, s)] = v
            lits.append(v)
            by_sq[s].append(v)
            # at most one move a square: x -> r, r_prev -> r, r_prev -> -x
            r = new()
            solver.add_clause([-v, r])
            if ladder[s]:
                solver.add_clause([-ladder[s], r])
                solver.add_clause([-ladder[s], -v])
            ladder[s] = r
        solver.add_clause(lits)
        # at most one square a move (sequential counter)
        prev = 0
        for v in lits:
            r = new()
            solver.add_clause([-v, r])
            if prev:
                solver.add_clause([-prev, r])
                solver.add_clause([-prev, -v])
            prev = r
        if t > 0:
            here = set(dom[t])
            before = set(dom[t - 1])
            for s in dom[t - 1]:
                solver.add_clause([-var[(t - 1, s)]] + [var[(t, u)] for u in nb[s] if u in here])
            for u in dom[t]:
                solver.add_clause([-var[(t, u)]] + [var[(t - 1, s)] for s in nb[u] if s in before])
        for s in range(N):
            if last_time[s] == t:
                solver.add_clause(by_sq[s])


stages = [T[min(i, k - 1)] for i in range(W, k, W)] + [N - 1]
if whole:
    stages = [N - 1]
done = -1
solves = 0
for h in stages:
    if h <= done:
        continue
    a = time.time()
    add_moves(done + 1, h)
    b = time.time()
    ok = solver.solve()
    solves += 1
    if verbose:
        print(f"  moves to {h + 1}: built {b - a:.1f} s, solved {time.time() - b:.1f} s, {ok}",
              file=sys.stderr)
    if not ok:
        print(f"{n}x{n}: no tour (stage to move {h + 1}), {time.time() - t0:.1f} s")
        sys.exit(1)
    done = h
model = set(l for l in solver.get_model() if l > 0)
tour = [next(s for s in dom[t] if var[(t, s)] in model) for t in range(N)]
assert len(set(tour)) == N, "not every square"
for x, y in zip(tour, tour[1:]):
    assert y in nb[x]
for t, s in clues:
    assert tour[t] == s
print(f"{n}x{n}: {'whole' if whole else f'W={W}'}: a tour in {time.time() - t0:.1f} s "
      f"({solves} solves), verified")
