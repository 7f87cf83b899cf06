#!/usr/bin/env python3
"""A measured direction for issue 64, not a route: clued boards as successor
arcs with a factored time index (docs/notebook.md, "A corridor around the
clues").

    scripts/clued-boards.py N SEED | PY experiments/clue-factored-prototype.py N [SOLVER]

PY is a Python with python-sat (`scripts/bench-venv.sh` prints one); SOLVER
is PySAT's name for one (default cadical195). Reads the `--at K=SQ` clues on
stdin (the first clue must be move 1).

Each square has one successor arc and one predecessor arc (a knight move),
one segment label (the clue it follows; only segments whose clues are near
enough, by distances through squares that are not clues) and one position
within its segment (one-hot, within the distance windows). An arc keeps
the label and adds one to the position, or enters the next clue from the
segment's last position; so the time, segment start plus position, rises
along every arc and no subtour can form. The formula is small (20x20 with
40 clues: 21,928 variables, 159,947 clauses) but propagates far worse
than the time-indexed one: 34 and 49 s on 20x20, against about 1 s.
"""
import sys, time, importlib.util, os, itertools
from pysat.solvers import Solver
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

spec = importlib.util.spec_from_file_location("cb", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "clued-boards.py"))
cb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cb)

n = int(sys.argv[1])
SOLVER = sys.argv[2] if len(sys.argv) > 2 else "cadical195"
t0 = time.time()
clues = cb.read_clues(n, sys.stdin.read())
N = n * n
nb = cb.knight_graph(n)
T = [t for t, _ in clues]
C = [s for _, s in clues]
K = len(clues)
assert T[0] == 0
clue_at = {s: k for k, s in enumerate(C)}
length = [(T[k + 1] - T[k]) if k + 1 < K else N - T[k] for k in range(K)]
free = lambda u: u not in clue_at
dist = [cb.distances(nb, C[k], free) for k in range(K)]

# candidates (k, p) of each free square
cand = [dict() for _ in range(N)]  # s -> {k: [p...]}
for k in range(K):
    for s, d in dist[k].items():
        if s in clue_at or d == 0:
            continue
        hi = length[k] - 1
        if k + 1 < K:
            e = dist[k + 1].get(s)
            if e is None:
                continue
            hi = min(hi, length[k] - e)
        ps = [p for p in range(d, hi + 1) if (p - d) % 2 == 0]
        if ps:
            cand[s][k] = ps
for s in range(N):
    if s not in clue_at and not cand[s]:
        sys.exit(f"square {s} fits no segment")

pool = IDPool()
lab = lambda s, k: pool.id(("l", s, k))
pos = lambda s, p: pool.id(("p", s, p))
arcv = lambda a, b: pool.id(("a", a, b))
clauses = []
add = clauses.append

def labels(s):
    return [clue_at[s]] if s in clue_at else list(cand[s])

def positions(s):
    if s in clue_at:
        return [0]
    return sorted({p for ps in cand[s].values() for p in ps})

def amo(lits):
    if len(lits) <= 6:
        for a, b in itertools.combinations(lits, 2):
            add([-a, -b])
    else:
        enc = CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.seqcounter)
        clauses.extend(enc.clauses)

# labels and positions: exactly one each
for s in range(N):
    if s in clue_at:
        add([lab(s, clue_at[s])])
        add([pos(s, 0)])
        continue
    ls = [lab(s, k) for k in cand[s]]
    add(ls); amo(ls)
    ps = [pos(s, p) for p in positions(s)]
    add(ps); amo(ps)
    for k, kp in cand[s].items():
        add([-lab(s, k)] + [pos(s, p) for p in kp])
    for p in positions(s):
        add([-pos(s, p)] + [lab(s, k) for k, kp in cand[s].items() if p in kp])

# arcs a -> b
def can_follow(a, b):
    if b in clue_at:
        k = clue_at[b]
        if k == 0:
            return False
        if a in clue_at:
            return clue_at[a] == k - 1 and length[k - 1] == 1
        return length[k - 1] - 1 in cand[a].get(k - 1, [])
    if a in clue_at:
        return 1 in cand[b].get(clue_at[a], [])
    for k, ps in cand[a].items():
        qs = cand[b].get(k)
        if qs and any(p + 1 in qs for p in ps):
            return True
    return False

out = [[] for _ in range(N)]
inn = [[] for _ in range(N)]
for a in range(N):
    for b in nb[a]:
        if can_follow(a, b):
            v = arcv(a, b)
            out[a].append(v)
            inn[b].append(v)
            if b < a and can_follow(b, a):
                add([-v, -arcv(b, a)])
            if b in clue_at:
                k = clue_at[b]
                add([-v, lab(a, k - 1)])
                add([-v, pos(a, length[k - 1] - 1)])
            elif a in clue_at:
                k = clue_at[a]
                add([-v, lab(b, k)])
                add([-v, pos(b, 1)])
            else:
                for k in set(cand[a]) | set(cand[b]):
                    if k in cand[a] and k in cand[b]:
                        add([-v, -lab(a, k), lab(b, k)])
                        add([-v, -lab(b, k), lab(a, k)])
                    elif k in cand[a]:
                        add([-v, -lab(a, k)])
                    else:
                        add([-v, -lab(b, k)])
                pa, pb = positions(a), set(positions(b))
                for p in pa:
                    if p + 1 in pb:
                        add([-v, -pos(a, p), pos(b, p + 1)])
                        add([-v, -pos(b, p + 1), pos(a, p)])
                    else:
                        add([-v, -pos(a, p)])
                for q in pb:
                    if q - 1 not in pa:
                        add([-v, -pos(b, q)])

last_k = K - 1
last_p = length[last_k] - 1
for s in range(N):
    # one predecessor unless the first clue; one successor unless the end
    if s != C[0]:
        if not inn[s]:
            sys.exit(f"no arc into {s}")
        add(inn[s]); amo(inn[s])
    else:
        for v in inn[s]:
            add([-v])
    amo(out[s])
    if s in clue_at:
        if clue_at[s] == last_k and last_p == 0:
            pass
        else:
            add(out[s])
    elif last_p in cand[s].get(last_k, []):
        add(out[s] + [lab(s, last_k)])
        add(out[s] + [pos(s, last_p)])
    else:
        add(out[s])

t1 = time.time()
print(f"{pool.top} vars, {len(clauses)} clauses, built in {t1 - t0:.1f} s", file=sys.stderr)
with Solver(name=SOLVER, bootstrap_with=clauses) as solver:
    ok = solver.solve()
    t2 = time.time()
    print(f"solve: {ok} in {t2 - t1:.1f} s", file=sys.stderr)
    if ok:
        model = set(l for l in solver.get_model() if l > 0)
        succ = {}
        for a in range(N):
            for b in nb[a]:
                key = ("a", a, b)
                if key in pool.obj2id and pool.obj2id[key] in model:
                    succ[a] = b
        path = [C[0]]
        while path[-1] in succ and len(path) <= N:
            path.append(succ[path[-1]])
        assert len(path) == N and len(set(path)) == N, len(path)
        for t, s in clues:
            assert path[t] == s
        print(f"tour checked: {N} squares, {K} clues; total {t2 - t0:.1f} s", file=sys.stderr)
