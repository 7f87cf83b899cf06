#!/usr/bin/env python3
"""A measured direction for issue 64, not a route: the rolling horizon of
experiments/clue-rolling-prototype.py with a look ahead that sees pockets.

    scripts/clued-boards.py N SEED | PY experiments/clue-lookahead-prototype.py N [W] [F] [-v]

PY is a Python with python-sat (`scripts/bench-venv.sh` prints one).
Reads the `--at K=SQ` clues on stdin (the first clue must be move 1).

Each stage solves, by SAT over the squares not yet used, the moves of the
next W segments exactly (x(t, s): one square a move, knight moves between
consecutive moves, distance windows through the unused squares, colour
parity), and the next F segments after them relaxed: y(t, s), one square
each move within its windows, with no knight moves between them (an
assignment). Every unused square is taken once, by x or y, or left to the
segments after those, which must be able to reach it. And every square
the exact part leaves unused keeps two unused neighbours (or future
clues) for the path to come in and go out (one for a square that may end
the tour): what the rolling horizon lacked, whose kept segments left
pockets no later segment could pass through. The first segment of the
answer is kept; when a stage has no answer, the segment kept before is
taken back and that position's window widened.
"""
import collections
import importlib.util
import os
import sys
import time

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

spec = importlib.util.spec_from_file_location(
    "cb", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "clued-boards.py"))
cb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cb)

args = [a for a in sys.argv[1:] if not a.startswith("-")]
verbose = "-v" in sys.argv
n = int(args[0])
W = int(args[1]) if len(args) > 1 else 2
F = int(args[2]) if len(args) > 2 else 6
W_MAX = int(os.environ.get("W_MAX", "8"))
clues = cb.read_clues(n, sys.stdin.read())
N = n * n
nb = cb.knight_graph(n)
colour = [((s // n) + (s % n)) % 2 for s in range(N)]
T = [t for t, _ in clues]
C = [s for _, s in clues]
k = len(clues)
assert T[0] == 0
clue_sq = set(C)
# Segment j runs from clue j to clue j+1, or to the tour's end (the tail).
segs = k if T[-1] < N - 1 else k - 1


def seg_end(j):
    return T[j + 1] if j + 1 < k else N - 1


used = set()
path = {t: s for t, s in clues}
kept = []  # squares of each kept segment
i = 0
t0 = time.time()
solves = fails = 0
need = collections.defaultdict(int)
why = []  # the widest window a position needs


def stage(i, w):
    """SAT over segments i..i+w-1 exactly and F after them relaxed; the
    model's squares by time for the exact part, or None."""
    last = min(i + w, segs)  # exact: segments i .. last-1
    near_end = min(last + F, segs)  # relaxed: last .. near_end-1
    free = lambda u: u not in used and u not in clue_sq
    dist = {j: cb.distances(nb, C[j], free) for j in range(i, min(segs + 1, k))}

    def window(j, t):
        """The unused squares segment j may be on at time t."""
        a_of = dist[j]
        b_of = dist[j + 1] if j + 1 < k else None
        want = colour[C[j]] ^ ((t - T[j]) % 2)
        out = []
        for s, a in a_of.items():
            if a == 0 or a > t - T[j] or colour[s] != want:
                continue
            if b_of is not None:
                b = b_of.get(s)
                if b is None or b > T[j + 1] - t:
                    continue
            out.append(s)
        return out

    def reaches(j, s):
        a = dist[j].get(s)
        if a is None:
            return False
        if j + 1 < k:
            b = dist[j + 1].get(s)
            return b is not None and a + b <= T[j + 1] - T[j]
        return a <= N - 1 - T[j]

    nv = 0
    cls = []
    by_sq = collections.defaultdict(list)

    def moves(segments, what):
        """Variables for the moves of `segments`, one square each, by
        (time, square); None where a move has no square left."""
        nonlocal nv
        out = {}
        for j in segments:
            for t in range(T[j] + 1, seg_end(j) + (0 if j + 1 < k else 1)):
                d = window(j, t)
                if not d:
                    why.append(f"no square for {what} {t + 1}")
                    return None
                lits = []
                for s in d:
                    nv += 1
                    out[(t, s)] = nv
                    lits.append(nv)
                    by_sq[s].append(nv)
                cls.append(lits)
        return out

    x = moves(range(i, last), "move")
    y = moves(range(last, near_end), "relaxed move") if x is not None else None
    if x is None or y is None:
        return None
    x_of = collections.defaultdict(list)
    for (t, s), v in x.items():
        x_of[s].append(v)
    times_x = sorted({t for t, _ in x})
    top = nv
    amo = [[v for (tt, s), v in x.items() if tt == t] for t in times_x]
    amo += [[v for (tt, s), v in y.items() if tt == t] for t in sorted({t for t, _ in y})]
    amo += list(by_sq.values())
    for lits in amo:
        if len(lits) > 1:
            e = CardEnc.atmost(lits, 1, top_id=top, encoding=EncType.seqcounter)
            top = max(top, e.nv)
            cls += e.clauses
    # Knight moves in the exact part, both ways, to the clues around it.
    tset = set(times_x)
    clue_at = dict(clues)
    at = collections.defaultdict(dict)
    for (t, s), v in x.items():
        at[t][s] = v
    for t in times_x:
        for u in (t + 1, t - 1):
            if u in clue_at:
                for s, v in at[t].items():
                    if clue_at[u] not in nb[s]:
                        cls.append([-v])
            elif u in tset:
                for s, v in at[t].items():
                    cls.append([-v] + [at[u][q] for q in nb[s] if q in at[u]])
    # Squares the segments after the relaxed ones cannot reach: taken now.
    far = range(near_end, segs)
    for s in range(N):
        if free(s) and not any(reaches(j, s) for j in far):
            if not by_sq[s]:
                why.append(f"square {s} out of reach")
                return None
            cls.append(by_sq[s])
    # A square the exact part leaves is passed through later: two unused
    # neighbours or future clues (one, where the tour may end on it).
    last_clue = C[last] if last < k else None
    future_clues = set(C[last:]) if last < k else set()
    xu = {}
    for s in range(N):
        if not free(s):
            continue
        top += 1
        xu[s] = top
        # xu(s) <-> some x(t, s)
        cls.append([-top] + x_of[s])
        for v in x_of[s]:
            cls.append([-v, top])
    for s in xu:
        fixed = sum(1 for u in nb[s] if u in future_clues)
        others = [xu[u] for u in nb[s] if u in xu]
        d = 1 if s in may_end else 2
        want = d - fixed
        if want <= 0:
            continue
        if want > len(others):
            cls.append([xu[s]])
            continue
        if want == 1:
            cls.append([xu[s]] + [-o for o in others])
        else:
            for skip in others:
                cls.append([xu[s]] + [-o for o in others if o != skip])
    with Solver(name="cadical195", bootstrap_with=cls) as solver:
        if not solver.solve():
            why.append("unsatisfiable")
            return None
        model = set(l for l in solver.get_model() if l > 0)
    return {t: s for (t, s), v in x.items() if v in model}


# The squares that may end the tour (a free end after the last clue).
hidden = None
if os.environ.get("HIDDEN"):
    # A debugging aid: keep the hidden tour's segments, and check that
    # every stage has an answer (the tour's own rest is one).
    hidden = []
    for word in open(os.environ["HIDDEN"]).read().split():
        f, r = cb.parse(word)
        hidden.append(r * n + f)
may_end = set()
if T[-1] < N - 1:
    tail = N - 1 - T[-1]
    for s, a in cb.distances(nb, C[-1], lambda u: u not in clue_sq).items():
        if a <= tail and colour[s] == colour[C[-1]] ^ (tail % 2):
            may_end.add(s)


while i < segs:
    w = max(W, need[i])
    while True:
        solves += 1
        a = time.time()
        got = stage(i, w)
        if verbose:
            print(f"  segment {i} window {w}: {'ok' if got else why[-1]} {time.time() - a:.1f} s",
                  file=sys.stderr)
        if got is not None:
            break
        assert hidden is None, f"the hidden tour's rest is an answer: {why[-1]} at segment {i}"
        fails += 1
        if i > 0:
            i -= 1
            for s in kept.pop():
                used.discard(s)
            for t in range(T[i] + 1, seg_end(i) + (0 if i + 1 < k else 1)):
                path.pop(t, None)
            w = max(w + 1, need[i] + 1)
            need[i] = w
        else:
            w += 1
        if w > W_MAX:
            print(f"{n}x{n}: gave up at segment {i} ({time.time() - t0:.1f} s, {solves} stages)")
            sys.exit(1)
    squares = []
    for t in range(T[i] + 1, seg_end(i) + (0 if i + 1 < k else 1)):
        path[t] = got[t] if hidden is None else hidden[t]
        squares.append(path[t])
    used.update(squares)
    kept.append(squares)
    i += 1
print(f"{n}x{n}: W={W} F={F}: {solves} stages, {fails} failed, {time.time() - t0:.1f} s")
tour = [path[t] for t in range(N)]
assert len(set(tour)) == N, "not every square"
for p, q in zip(tour, tour[1:]):
    assert q in nb[p]
for t, s in clues:
    assert tour[t] == s
print("verified")
