#!/usr/bin/env python3
"""A measured direction for issue 64, not a route: clued boards solved by
"partition, then repair" (large neighbourhood search).

    scripts/clued-boards.py N SEED | PY experiments/clue-repair-prototype.py N [RNG_SEED] [-v] [--slot] [-bB]

PY is a Python with python-sat and scipy (`scripts/bench-venv.sh` prints
one). Reads the `--at K=SQ` clues on stdin (the first clue must be move 1);
prints the repairs it took and its time, and checks the tour it builds
(every square once, knight moves, every clue) with an assertion.

1. Each square that is not a clue is given to one segment (the moves
   between two clues, or after the last), one colour at a time, by a
   minimum-cost assignment (scipy's linear_sum_assignment) between squares
   and the segment's moves of that colour: a square may go to a segment
   only if it is close enough to both its clues. Cost: the square of the
   distances' sum (`--slot`: to one move of the segment, the distances'
   misfit to that move, which measured worse).
2. Each segment (`-bB`: each run of B segments) looks for a path through
   exactly its squares, by SAT (x(m, s): the segment's m-th move on s;
   one square a move, one move a square, knight moves, distance windows).
3. While a segment has no path: take it and a few segments owning squares
   next to it, pool their squares, and solve them together (the same SAT
   over several segments). Success gives each its path and its new
   squares; failure grows that segment's group next time.

Measured in docs/notebook.md ("Clued boards from random tours").
"""
import sys, time, collections, random
import numpy as np
from scipy.optimize import linear_sum_assignment
from pysat.solvers import Solver
from pysat.card import CardEnc, EncType
import importlib.util
# The square names and knight moves of scripts/clued-boards.py.
import os
spec = importlib.util.spec_from_file_location("cb", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "clued-boards.py"))
cb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cb)
V = '-v' in sys.argv
MODE = 'slot' if '--slot' in sys.argv else 'seg'
n = int(sys.argv[1]); rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
clues = cb.read_clues(n, sys.stdin.read())  # (move from 0, cell)
N = n * n
nb = cb.knight_graph(n)
colour = [((s // n) + (s % n)) % 2 for s in range(N)]
T = [t for t, _ in clues]; C = [s for _, s in clues]; k = len(clues)
assert T[0] == 0
clue_sq = set(C)
segs = k if T[-1] < N - 1 else k - 1
def end_t(j): return T[j + 1] if j + 1 < k else N - 1
def end_sq(j): return C[j + 1] if j + 1 < k else None
t0 = time.time()

def bfs(src, allowed):
    return cb.distances(nb, src, allowed)
free = lambda u: u not in clue_sq
dist = [bfs(C[j], free) for j in range(k)]
BIG = 10 ** 6
# assignment, one colour at a time
owner = {}
for X in (0, 1):
    squares = [s for s in range(N) if colour[s] == X and s not in clue_sq]
    slots = []
    for j in range(segs):
        for t in range(T[j] + 1, end_t(j) + (0 if j + 1 < k else 1)):
            if colour[C[j]] ^ ((t - T[j]) % 2) == X: slots.append((j, t - T[j]))
    assert len(slots) == len(squares), (len(slots), len(squares))
    cost = np.full((len(squares), len(slots)), BIG, dtype=np.int64)
    for b, (jj, m) in enumerate(slots):
        L = end_t(jj) - T[jj]
        for a, s in enumerate(squares):
            da = dist[jj].get(s)
            if da is None or da > m: continue
            if jj + 1 < k:
                db = dist[jj + 1].get(s)
                if db is None or db > L - m: continue
                c = abs(da - m) + abs(db - (L - m)) if MODE == 'slot' else da + db
            else:
                c = abs(da - m) if MODE == 'slot' else da
            cost[a, b] = c * c + rng.randrange(3)
    rows, cols = linear_sum_assignment(cost)
    assert cost[rows, cols].max() < BIG, "no assignment"
    for a, b in zip(rows, cols): owner[squares[a]] = slots[b][0]
if V: print(f"assigned in {time.time()-t0:.1f} s", file=sys.stderr)
members = collections.defaultdict(set)
for s, j in owner.items(): members[j].add(s)

def solve_group(group, pool):
    """Paths for the segments of `group` covering exactly `pool`; dict j -> list of squares or None."""
    allowed = lambda u: u in pool
    var = {}; nv = 0; cls = []
    by_sq = collections.defaultdict(list)
    per_seg = {}
    for j in group:
        da = bfs(C[j], allowed)
        db = bfs(end_sq(j), allowed) if j + 1 < k else None
        L = end_t(j) - T[j]
        last = L - 1 if j + 1 < k else L
        doms = []
        for m in range(1, last + 1):
            d = [s for s in pool if da.get(s, BIG) <= m and (db is None or db.get(s, BIG) <= L - m)
                 and colour[s] == colour[C[j]] ^ (m % 2)]
            if not d: return None
            vs = []
            for s in d:
                nv += 1; var[(j, m, s)] = nv; vs.append(nv); by_sq[s].append(nv)
            doms.append(d); cls.append(vs)
        per_seg[j] = doms
    for s in pool:
        if not by_sq[s]: return None
        cls.append(by_sq[s])
    top = nv
    groups = [[var[(j, m + 1, s)] for s in per_seg[j][m]] for j in group for m in range(len(per_seg[j]))] + list(by_sq.values())
    for lits in groups:
        if len(lits) > 1:
            e = CardEnc.atmost(lits, 1, top_id=top, encoding=EncType.seqcounter); top = max(top, e.nv); cls += e.clauses
    for j in group:
        doms = per_seg[j]
        for m in range(len(doms) - 1):
            nxt = set(doms[m + 1]); prv = set(doms[m])
            for s in doms[m]:
                cls.append([-var[(j, m + 1, s)]] + [var[(j, m + 2, u)] for u in nb[s] if u in nxt])
            for u in doms[m + 1]:
                cls.append([-var[(j, m + 2, u)]] + [var[(j, m + 1, s)] for s in nb[u] if s in prv])
        # first and last interior squares next to the clues
        for s in doms[0]:
            if s not in nb[C[j]]: cls.append([-var[(j, 1, s)]])
        if j + 1 < k:
            for s in doms[-1]:
                if s not in nb[C[j + 1]]: cls.append([-var[(j, len(doms), s)]])
    with Solver(name='cadical153', bootstrap_with=cls) as S:
        if not S.solve(): return None
        model = set(l for l in S.get_model() if l > 0)
    out = {}
    for j in group:
        out[j] = [next(s for s in per_seg[j][m] if var[(j, m + 1, s)] in model) for m in range(len(per_seg[j]))]
    return out

paths = {}
bad = []
B = int(next((a[2:] for a in sys.argv if a.startswith('-b')), '1'))
for j0 in range(0, segs, B):
    group = list(range(j0, min(segs, j0 + B)))
    r = solve_group(group, set().union(*(members[x] for x in group)))
    if r:
        for x in group:
            members[x] = set(r[x]); paths[x] = r[x]
            for q in r[x]: owner[q] = x
    else: bad.extend(group)
if V: print(f"first pass: {len(bad)} of {segs} segments without a path, {time.time()-t0:.1f} s", file=sys.stderr)
tries = 0; size = collections.defaultdict(lambda: 2)
while bad:
    tries += 1
    j = bad.pop(rng.randrange(len(bad)))
    if j in paths: continue
    # neighbouring segments: owners of squares next to j's squares
    near = collections.Counter()
    for s in members[j] | {C[j]}:
        for u in nb[s]:
            if u in owner and owner[u] != j: near[owner[u]] += 1
    cands = [x for x, _ in near.most_common()]
    m = size[j]
    pick = cands[:max(1, m // 2)] + rng.sample(cands[m // 2:], min(len(cands[m // 2:]), m - m // 2)) if cands else []
    group = [j] + pick
    pool = set().union(*(members[x] for x in group))
    r = solve_group(group, pool)
    if r is None:
        size[j] += 1; bad.append(j); continue
    # redistribute squares by the new paths
    for x in group:
        members[x] = set(r[x]); paths[x] = r[x]
        for s in r[x]: owner[s] = x
    if tries > 20000: print("gave up"); sys.exit(1)
print(f"{n}x{n}: {tries} repairs, {time.time()-t0:.1f} s")
# the tour
tour = [None] * N
for j in range(segs):
    tour[T[j]] = C[j]
    for m, s in enumerate(paths[j]): tour[T[j] + 1 + m] = s
if T[-1] == N - 1: tour[N - 1] = C[-1]
assert len(set(tour)) == N
for a, b in zip(tour, tour[1:]): assert b in nb[a], (a, b)
for t, s in clues: assert tour[t] == s
print("verified")
