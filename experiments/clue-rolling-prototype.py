#!/usr/bin/env python3
"""A measured direction for issue 64, not a route: clued boards solved in
the order of the moves, a few segments at a time (a rolling horizon).

    scripts/clued-boards.py N SEED | PY experiments/clue-rolling-prototype.py N 1 [W] [-v]

PY is a Python with python-sat (`scripts/bench-venv.sh` prints one).
Reads the `--at K=SQ` clues on stdin (the first clue must be move 1).

The moves from clue i to clue i+W are solved by SAT over the squares not
yet used (distance windows through those squares, colour parity, one
square a move, one move a square), with every unused square that no later
segment can still reach required; the first segment of the answer is kept
and the window moves on. When a window has no answer, the last kept
segment is taken back and the window widened (a position never retries a
width that failed), up to 12 segments. It fails because what it keeps
leaves pockets of squares that no later segment reaches, and only wide
windows far back could undo that (docs/notebook.md, "Clued boards from
random tours").
"""
import sys, time, re, collections
from pysat.solvers import Solver
from pysat.card import CardEnc, EncType
import importlib.util
# The square names and knight moves of scripts/clued-boards.py.
import os
spec = importlib.util.spec_from_file_location("cb", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "clued-boards.py"))
cb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cb)

n = int(sys.argv[1]); W = int(sys.argv[3]) if len(sys.argv) > 3 else 2
clues = cb.read_clues(n, sys.stdin.read())  # (move from 0, cell)
N = n * n
nb = cb.knight_graph(n)
colour = [((s // n) + (s % n)) % 2 for s in range(N)]
clue_sq = {s: t for t, s in clues}
# anchors: clue times; the tail after the last clue has a free end
T = [t for t, _ in clues]; C = [s for _, s in clues]
k = len(clues)
assert T[0] == 0
segs = k  # segment j from clue j to clue j+1; segment k-1 is the tail (if last clue < N-1)
def seg_end(j): return T[j+1] if j + 1 < k else N - 1

def bfs(src, allowed):
    return cb.distances(nb, src, allowed)

visited = set()
path = {0: C[0]}  # time -> square committed
i = 0; t0 = time.time(); solves = 0; back = 1; fails = 0
committed_at = []  # squares per committed segment
carry = W
wneed = collections.defaultdict(int)
while i < segs and not (i == k - 1 and T[k-1] == N - 1):
    w = max(W, carry, wneed[i])
    while True:
        last = min(i + w, segs)  # window: segments i..last-1
        free = lambda u: u not in visited and u not in clue_sq
        # distances from each relevant clue through free squares
        dist_from = {}; 
        for j in range(i, segs):
            dist_from[j] = bfs(C[j], free)
        def can(j, s, t=None):
            # can segment j cover square s (at time t)?
            a = dist_from[j].get(s); 
            if a is None: return False
            if j + 1 < k:
                b = dist_from[j+1].get(s)
                if b is None: return False
                if t is None: return a + b <= T[j+1] - T[j]
                return a <= t - T[j] and b <= T[j+1] - t and (colour[s] ^ colour[C[j]]) == (t - T[j]) % 2
            if t is None: return a <= N - 1 - T[j]
            return a <= t - T[j] and (colour[s] ^ colour[C[j]]) == (t - T[j]) % 2
        tend = seg_end(last - 1)
        var = {}; nv = 0
        dom = {}
        for t in range(T[i], tend + 1):
            if t in T[i:last+1] and T.index(t) <= last and (T.index(t) < k):
                dom[t] = [C[T.index(t)]]
            else:
                j = max(jj for jj in range(i, last) if T[jj] <= t)
                dom[t] = [s for s in range(N) if free(s) and can(j, s, t)]
        for t in dom:
            for s in dom[t]:
                nv += 1; var[(t, s)] = nv
        cls = []
        must = [s for s in range(N) if free(s) and not any(can(j, s) for j in range(last, segs))]
        ok = True
        by_sq = collections.defaultdict(list)
        for (t, s), v in var.items(): by_sq[s].append(v)
        for s in must:
            if not by_sq[s]: ok = False
            cls.append(by_sq[s])
        top = nv
        for t in dom:
            lits = [var[(t, s)] for s in dom[t]]
            if not lits: ok = False
            cls.append(lits)
            if len(lits) > 1:
                e = CardEnc.atmost(lits, 1, top_id=top, encoding=EncType.seqcounter); top = max(top, e.nv); cls += e.clauses
        for s, lits in by_sq.items():
            if len(lits) > 1:
                e = CardEnc.atmost(lits, 1, top_id=top, encoding=EncType.seqcounter); top = max(top, e.nv); cls += e.clauses
        for t in dom:
            if t + 1 in dom:
                nxt = set(dom[t+1])
                for s in dom[t]:
                    cls.append([-var[(t, s)]] + [var[(t+1, u)] for u in nb[s] if u in nxt])
                prv = set(dom[t])
                for u in dom[t+1]:
                    cls.append([-var[(t+1, u)]] + [var[(t, s)] for s in nb[u] if s in prv])
        solves += 1
        sat = False
        if ok:
            with Solver(name='cadical153', bootstrap_with=cls) as S:
                sat = S.solve()
                model = set(l for l in S.get_model() if l > 0) if sat else None
        if sat:
            break
        fails += 1
        if '-v' in sys.argv: print(f"  fail at {i} w {w} ok {ok} must {len(must)} last {last}", file=sys.stderr)
        # back off: uncommit one segment and widen
        if i > 0:
            i -= 1
            for s in committed_at.pop(): visited.discard(s)
            w = max(w + 1, wneed[i] + 1)
            wneed[i] = w
        else:
            w += 1
        if w > 12:
            print("gave up", i, w); sys.exit(1)
    carry = w - 1
    if '-v' in sys.argv: print(f"segment {i} window {w} vars {nv} clauses {len(cls)} {time.time()-t0:.1f}s", file=sys.stderr)
    # commit segment i
    sqs = []
    for t in range(T[i] + 1, seg_end(i) + 1):
        for s in dom[t]:
            if var[(t, s)] in model: path[t] = s; sqs.append(s)
    sqs = [s for s in sqs if s not in clue_sq]
    visited.update(sqs); committed_at.append(sqs)
    i += 1
print(f"{n}x{n}: solved {solves} windows, {fails} failed, {time.time()-t0:.1f} s")
tour = [path[t] for t in range(N)]
assert len(set(tour)) == N, "not every square"
for a, b in zip(tour, tour[1:]): assert b in nb[a]
for t, s in clues: assert tour[t] == s
print("verified")
