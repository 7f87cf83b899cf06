#!/usr/bin/env python3
"""Clued knight's tours with OR-Tools CP-SAT: the peers that
scripts/bench-auto.sh's clues section times knightsat against.

    scripts/cpsat_clues.py {circuit|position} N [--closed] [--at K=SQ ...]
                           [--puzzle FILE] [--workers 1] [--timeout 60]

Needs the `ortools` package (scripts/bench-venv.sh installs it into the
virtual environment target/bench-venv; run this script with that Python).

A clue K=SQ says move K (counted from 1) is on square SQ, as knightsat's
--at does; --puzzle reads the clues from a grid as `knightsat puzzle`
prints it (rank numbers on the left, file letters along the bottom, `.` for
a blank square). Squares are numbered rank * N + file, so 0 is a1.

The models:
  circuit   AddCircuit over the squares (plus a dummy node D for an open
            tour: an arc D -> s and s -> D for every square s) and a
            position per square, 0 to N*N - 1: an arc s -> t between squares
            makes t's position s's plus one, an arc D -> s makes s's 0. A
            clue fixes its square's position.
  position  seed 002's model: the square of each move, AllDifferent, and a
            table of knight moves between consecutive moves (and from the
            last back to the first for a closed tour). A clue fixes its
            move's square.

The time printed is time.perf_counter() around model construction plus
Solve, so Python start-up and the import of ortools are not counted. The
tour returned is checked (every square once, each step a knight move, a
closed tour's last square a knight move from its first, every clue
honoured); a bad one is an error (exit 1).

Output: the seconds (e.g. `12.345`), or `timeout` (no answer within
--timeout, CP-SAT's max_time_in_seconds: exit 124) or `none` (CP-SAT proved
that no tour meets the clues: exit 20).
"""

import argparse
import re
import sys
import time

from ortools.sat.python import cp_model

from cpsat_tour import file_name, knight_moves, tour_problems


def square_number(n, name):
    """The number of a square named as knightsat names it (a1, c3, aa10)."""
    m = re.fullmatch(r"([a-z]+)([0-9]+)", name)
    if not m:
        raise SystemExit(f"cpsat_clues: '{name}' is not a square name")
    file = 0
    for letter in m.group(1):
        file = file * 26 + (ord(letter) - ord("a") + 1)
    file -= 1
    rank = int(m.group(2)) - 1
    if not (0 <= file < n and 0 <= rank < n):
        raise SystemExit(f"cpsat_clues: {name} is off the {n}x{n} board")
    return rank * n + file


def clues_of_grid(n, text):
    """The clues (move index from 0, square) of a puzzle grid."""
    rows = [line.split() for line in text.splitlines() if line.split()]
    if any("#" in row for row in rows):
        raise SystemExit("cpsat_clues: the puzzle has holes, which these models do not take")
    letters = rows[-1] if rows else []
    if letters != [file_name(f) for f in range(n)]:
        raise SystemExit(f"cpsat_clues: the grid's last line should be the {n} file letters")
    clues = []
    for row in rows[:-1]:
        rank = int(row[0]) - 1
        for file, cell in enumerate(row[1:]):
            if cell not in (".", "0"):
                clues.append((int(cell) - 1, rank * n + file))
    return clues


def build_circuit(n, closed, clues):
    """AddCircuit plus a position per square; returns (model, tour) where
    tour(solver) gives the squares in order."""
    model = cp_model.CpModel()
    squares = n * n
    position = [model.new_int_var(0, squares - 1, "") for _ in range(squares)]
    arcs = []
    if closed:
        # The cycle is cut at the square in position 0: every arc adds one
        # to the position except the one back into that square.
        first = [model.new_bool_var("") for _ in range(squares)]
        model.add_exactly_one(first)
        for s in range(squares):
            model.add(position[s] == 0).only_enforce_if(first[s])
            model.add(position[s] != 0).only_enforce_if(first[s].Not())
    for s in range(squares):
        for t in knight_moves(n, s):
            arc = model.new_bool_var("")
            arcs.append((s, t, arc))
            enforced = [arc, first[t].Not()] if closed else [arc]
            model.add(position[t] == position[s] + 1).only_enforce_if(enforced)
    if not closed:
        dummy = squares
        for s in range(squares):
            into = model.new_bool_var("")
            arcs.append((dummy, s, into))
            model.add(position[s] == 0).only_enforce_if(into)
            arcs.append((s, dummy, model.new_bool_var("")))
    model.add_circuit(arcs)
    for step, square in clues:
        model.add(position[square] == step)

    def tour(solver):
        return sorted(range(squares), key=lambda s: solver.value(position[s]))

    return model, tour


def build_position(n, closed, clues):
    """Seed 002's model: the square of each move; returns (model, tour)."""
    model = cp_model.CpModel()
    squares = n * n
    at = [model.new_int_var(0, squares - 1, "") for _ in range(squares)]
    model.add_all_different(at)
    table = [(s, t) for s in range(squares) for t in knight_moves(n, s)]
    pairs = list(zip(at, at[1:]))
    if closed:
        pairs.append((at[-1], at[0]))
    for a, b in pairs:
        model.add_allowed_assignments([a, b], table)
    for step, square in clues:
        model.add(at[step] == square)

    def tour(solver):
        return [solver.value(v) for v in at]

    return model, tour


def check(n, closed, clues, tour):
    """Fails loudly unless tour is a knight's tour that honours the clues."""
    problems = tour_problems(n, closed, tour)
    problems += [f"move {step + 1} is not on its clue's square" for step, square in clues
                 if tour[step] != square]
    if problems:
        raise SystemExit("cpsat_clues: CP-SAT's answer is not a clued tour: " + "; ".join(problems))


def main():
    p = argparse.ArgumentParser(description="Clued knight's tours with CP-SAT, timed.")
    p.add_argument("model", choices=["circuit", "position"])
    p.add_argument("n", type=int, help="board size N (N x N)")
    p.add_argument("--closed", action="store_true", help="a closed tour")
    p.add_argument("--at", action="append", default=[], metavar="K=SQ",
                   help="move K (from 1) is on square SQ")
    p.add_argument("--puzzle", metavar="FILE", help="clues from a puzzle grid")
    p.add_argument("--workers", type=int, default=1, help="CP-SAT num_workers (default 1)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds, CP-SAT's max_time_in_seconds (default 60)")
    args = p.parse_args()
    if args.n < 1 or args.workers < 1:
        p.error("N and --workers must be at least 1")
    clues = []
    for clue in args.at:
        k, _, name = clue.partition("=")
        if not k.isdigit() or not 1 <= int(k) <= args.n * args.n:
            p.error(f"--at {clue}: K must be a move number from 1 to {args.n * args.n}")
        clues.append((int(k) - 1, square_number(args.n, name)))
    if args.puzzle:
        with open(args.puzzle) as f:
            clues += clues_of_grid(args.n, f.read())

    begin = time.perf_counter()
    build = build_circuit if args.model == "circuit" else build_position
    model, tour_of = build(args.n, args.closed, clues)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = args.workers
    solver.parameters.max_time_in_seconds = args.timeout
    status = solver.solve(model)
    seconds = time.perf_counter() - begin
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        check(args.n, args.closed, clues, tour_of(solver))
        print(f"{seconds:.3f}")
    elif status == cp_model.INFEASIBLE:
        print("none")
        sys.exit(20)
    elif status == cp_model.UNKNOWN:
        print("timeout")
        sys.exit(124)
    else:
        raise SystemExit(f"cpsat_clues: CP-SAT answered {solver.status_name(status)}")


if __name__ == "__main__":
    main()
