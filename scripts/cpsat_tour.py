#!/usr/bin/env python3
"""The knight's tour with OR-Tools CP-SAT's circuit constraint: the peer that
scripts/bench-successor.sh times knightsat's successor encoding against.

    scripts/cpsat_tour.py N {open|closed} [--workers 1] [--runs 3] [--timeout 60]
                          [--seed S] [--tour FILE]

Needs the `ortools` package (bench-successor.sh installs it into the virtual
environment target/bench-venv and runs this script with that Python).

The model (squares numbered rank * N + file, so 0 is a1):
  closed  AddCircuit over the N*N squares, one arc literal per knight move
          s -> t (both directions);
  open    the same plus one dummy node D: the arc D -> a1 fixed true (no other
          arc leaves D) and an arc s -> D for every square s, so the Hamiltonian
          circuit through D is an open tour that starts on a1 and ends anywhere.

Each run builds a fresh model and a fresh solver. The time printed is
time.perf_counter() around model construction plus Solve, so Python start-up,
the import of ortools, reading the solution and checking it are not counted.
Every tour returned is checked (every square once, each step a knight move, an
open tour starts on a1, a closed one's last square is a knight move from a1);
a bad one is an error (exit 1).

Output: one line per run on stdout: the seconds (e.g. `12.345`), or `timeout`
(no answer within --timeout, CP-SAT's max_time_in_seconds: no further runs,
exit 124) or `none` (CP-SAT proved that no tour exists: exit 20).
--tour FILE writes the last tour found as knightsat's move list (`a1 c2 …`),
for an independent check with `knightsat verify --size N [--closed] FILE`.
"""

import argparse
import sys
import time

from ortools.sat.python import cp_model

KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def knight_moves(n, s):
    """The squares a knight on square s of the n x n board attacks."""
    rank, file = divmod(s, n)
    for df, dr in KNIGHT:
        f, r = file + df, rank + dr
        if 0 <= f < n and 0 <= r < n:
            yield r * n + f


def build(n, closed):
    """The CP-SAT model: returns (model, arcs), arcs a list of (tail, head, literal)
    with the dummy node numbered n * n (open tours only)."""
    model = cp_model.CpModel()
    arcs = []
    for s in range(n * n):
        for t in knight_moves(n, s):
            arcs.append((s, t, model.new_bool_var("")))
    if not closed:
        dummy = n * n
        start = model.new_bool_var("")
        model.add(start == 1)
        arcs.append((dummy, 0, start))  # the tour starts on a1
        for s in range(n * n):
            arcs.append((s, dummy, model.new_bool_var("")))  # and ends anywhere
    model.add_circuit(arcs)
    return model, arcs


def tour_from(solver, n, closed, arcs):
    """The squares in tour order, from the arcs the solver set true."""
    succ = {}
    for tail, head, lit in arcs:
        if solver.boolean_value(lit):
            if tail in succ:
                raise SystemExit(f"cpsat_tour: node {tail} has two successors")
            succ[tail] = head
    tour = [0]
    stop = 0 if closed else n * n
    while True:
        nxt = succ.get(tour[-1])
        if nxt is None:
            raise SystemExit(f"cpsat_tour: node {tour[-1]} has no successor")
        if nxt == stop:
            break
        tour.append(nxt)
        if len(tour) > n * n:
            raise SystemExit("cpsat_tour: the successor arcs do not close into one circuit")
    return tour


def tour_problems(n, closed, tour):
    """What keeps tour (squares in order) from being a knight's tour of the
    n x n board, closed if asked: an empty list for a tour."""
    problems = []
    if len(tour) != n * n or sorted(tour) != list(range(n * n)):
        problems.append(f"visits {len(set(tour))} distinct of {n * n} squares in {len(tour)} steps")
    for i in range(len(tour) - 1):
        if tour[i + 1] not in knight_moves(n, tour[i]):
            problems.append(f"step {i + 1} ({tour[i]} -> {tour[i + 1]}) is not a knight move")
            break
    if closed and tour[0] not in knight_moves(n, tour[-1]):
        problems.append("the last square is not a knight move from the first")
    return problems


def check(n, closed, tour):
    """Fails loudly unless tour is a knight's tour of the n x n board from a1."""
    problems = tour_problems(n, closed, tour)
    if tour[0] != 0:
        problems.append(f"starts on square {tour[0]}, not a1")
    if problems:
        raise SystemExit(f"cpsat_tour: CP-SAT's {n}x{n} answer is not a tour: " + "; ".join(problems))


def file_name(file):
    """knightsat's file letters: a … z, aa, ab, …"""
    letters = ""
    while True:
        letters = chr(ord("a") + file % 26) + letters
        if file < 26:
            return letters
        file = file // 26 - 1


def square_name(n, s):
    rank, file = divmod(s, n)
    return f"{file_name(file)}{rank + 1}"


def main():
    p = argparse.ArgumentParser(description="Knight's tour with CP-SAT's AddCircuit, timed.")
    p.add_argument("n", type=int, help="board size N (N x N)")
    p.add_argument("kind", choices=["open", "closed"])
    p.add_argument("--workers", type=int, default=1, help="CP-SAT num_workers (default 1)")
    p.add_argument("--runs", type=int, default=3, help="runs, each with a fresh model (default 3)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds per run, CP-SAT's max_time_in_seconds (default 60)")
    p.add_argument("--seed", type=int, help="CP-SAT random_seed (default: CP-SAT's)")
    p.add_argument("--tour", metavar="FILE", help="write the last tour found here as a move list")
    args = p.parse_args()
    if args.n < 1 or args.runs < 1 or args.workers < 1:
        p.error("N, --runs and --workers must be at least 1")
    closed = args.kind == "closed"

    tour = None
    for _ in range(args.runs):
        begin = time.perf_counter()
        model, arcs = build(args.n, closed)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = args.workers
        solver.parameters.max_time_in_seconds = args.timeout
        if args.seed is not None:
            solver.parameters.random_seed = args.seed
        status = solver.solve(model)
        seconds = time.perf_counter() - begin

        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            tour = tour_from(solver, args.n, closed, arcs)
            check(args.n, closed, tour)
            print(f"{seconds:.3f}", flush=True)
        elif status == cp_model.INFEASIBLE:
            print("none", flush=True)
            sys.exit(20)
        elif status == cp_model.UNKNOWN:
            print("timeout", flush=True)
            sys.exit(124)
        else:
            raise SystemExit(f"cpsat_tour: CP-SAT answered {solver.status_name(status)}")

    if args.tour:
        with open(args.tour, "w") as f:
            f.write(" ".join(square_name(args.n, s) for s in tour) + "\n")


if __name__ == "__main__":
    main()
