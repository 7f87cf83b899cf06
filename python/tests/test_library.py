"""The library's own routes from Python: solve, count, verify, puzzle,
DIMACS; counts checked against an independent brute force."""

import re

import pytest

import brute
import knightsat as ks
from test_pysat import pysat_tours


@pytest.mark.parametrize(
    "rows, cols, rules",
    [
        (1, 1, {}),
        (3, 3, {}),
        (3, 4, {}),
        (4, 4, {}),
        (3, 4, {"closed": True}),
        (3, 5, {"holes": ["b2"]}),
        (4, 4, {"leaper": (1, 3)}),
        (2, 5, {"leaper": (1, 1)}),
        (3, 6, {"closed": True}),
    ],
)
@pytest.mark.parametrize("method", ["auto", "backtrack", "sat"])
def test_counts_agree_with_a_brute_force(rows, cols, rules, method):
    problem = ks.Problem(rows, cols, **rules)
    assert ks.count(problem, method=method) == brute.count(rows, cols, **rules)


def test_counts_of_the_5x5():
    assert ks.count(ks.Problem(5)) == 1728
    assert ks.count(ks.Problem(5), method="frontier") == 1728
    # The orbits of every tour PySAT lists (a brute force in Python takes
    # too long on 5x5), grouped in plain Python.
    tours = pysat_tours(ks.Problem(5))
    assert len(tours) == 1728
    assert ks.count(ks.Problem(5), up_to_symmetry=True) == brute.orbits(5, tours)
    assert ks.count(ks.Problem(5), limit=10, method="backtrack") == 10
    assert ks.count(ks.Problem(5), jobs=2) == 1728
    assert ks.count(ks.Problem(5), solver="cadical") == 1728


@pytest.mark.parametrize("method", ["auto", "sat", "backtrack", "warnsdorff"])
def test_solve_finds_a_verified_tour(method):
    problem = ks.Problem(8)
    tour = ks.solve(problem, method=method)
    assert len(tour) == 64
    ks.verify(tour, problem)


def test_solve_by_each_encoding_and_solver():
    problem = ks.Problem(6, closed=True, start="c3")
    for encoding in ["time-indexed", "successor"]:
        for solver in ["varisat", "cadical"]:
            tour = ks.solve(problem, encoding=encoding, solver=solver)
            assert tour[0] == "c3"
            ks.verify(tour, problem)


def test_solve_says_none_when_there_is_no_tour():
    assert ks.solve(ks.Problem(4)) is None
    assert ks.solve(ks.Problem(5, closed=True), method="sat") is None


def test_a_solved_clued_problem_keeps_its_clues():
    problem = ks.Problem(6, clues=["1=a1", "36=f5"])
    tour = ks.solve(problem)
    assert tour[0] == "a1" and tour[-1] == "f5"


def test_verify_takes_a_string_and_rejects_broken_tours():
    problem = ks.Problem(5)
    tour = ks.solve(problem)
    ks.verify(" ".join(tour), problem)
    with pytest.raises(ks.KnightsatError, match="never visited"):
        ks.verify(tour[:-1], problem)
    with pytest.raises(ks.KnightsatError):
        ks.verify(tour[1:] + tour[:1], ks.Problem(5, start=tour[0]))
    with pytest.raises(ks.KnightsatError):
        ks.verify(tour, ks.Problem(5, closed=True))


def test_dimacs_has_the_header_the_clauses_give():
    problem = ks.Problem(5)
    formula = ks.encode(problem)
    text = ks.dimacs(problem)
    assert text == formula.dimacs()
    assert text.startswith("c knightsat ")
    header = re.search(r"^p cnf (\d+) (\d+)$", text, re.M)
    assert (int(header[1]), int(header[2])) == (formula.nvars, len(formula.clauses))
    body = [line for line in text.splitlines() if line and line[0] not in "cp"]
    assert [int(x) for x in body[0].split()[:-1]] == formula.clauses[0]


def test_a_puzzle_has_one_solution():
    made = ks.puzzle(ks.Problem(6), seed=7)
    assert made.untried == 0
    assert ks.count(made.problem) == 1
    ks.verify(made.solution, made.problem)
    assert ks.solve(made.problem) == made.solution
    for move, square in made.clues.items():
        assert made.solution[move - 1] == square
    assert ks.puzzle(ks.Problem(6), seed=7).clues == made.clues
    assert len(made.grid().splitlines()) == 7
    assert ks.puzzle(ks.Problem(4)) is None


def test_the_problem_says_what_it_is():
    problem = ks.Problem(4, 6, holes=["a1"], leaper="1,3", closed=True, clues={2: "b3"})
    assert (problem.rows, problem.cols, problem.squares) == (4, 6, 23)
    assert problem.holes == ["a1"] and problem.leaper == (1, 3)
    assert problem.closed and problem.clues == {2: "b3"}
    assert problem.square_names()[:2] == ["b1", "c1"]
    drawn = ks.Problem.from_ascii("...\n.#.\n...\n")
    assert drawn.holes == ["b2"] and drawn.squares == 8


@pytest.mark.parametrize(
    "make",
    [
        lambda: ks.Problem(0),
        lambda: ks.Problem(-1),
        lambda: ks.Problem(3, -4),
        lambda: ks.Problem(5, holes=["z9"]),
        lambda: ks.Problem(5, leaper="x"),
        lambda: ks.Problem(5, leaper=(0, 0)),
        lambda: ks.Problem(5, start="f1"),
        lambda: ks.Problem(5, holes=["a1"], start="a1"),
        lambda: ks.Problem(5, clues=["26=a1"]),
        lambda: ks.Problem(5, clues=["a1"]),
        lambda: ks.Problem(5, clues={1: "a1", 2: "a1"}),
        lambda: ks.encode(ks.Problem(5), encoding="magic"),
        lambda: ks.solve(ks.Problem(5), method="magic"),
        lambda: ks.solve(ks.Problem(5), timeout=-1),
        lambda: ks.solve(ks.Problem(5, clues={3: "c3"}), method="warnsdorff"),
        lambda: ks.count(ks.Problem(5), method="warnsdorff"),
        lambda: ks.verify(["a1", "z9"], ks.Problem(5)),
        lambda: ks.encode(ks.Problem(5)).decode([1, 2, 3]),
        lambda: ks.encode(ks.Problem(5)).decode([0]),
    ],
)
def test_bad_input_raises_value_error(make):
    with pytest.raises(ValueError):
        make()


def test_a_time_limit_that_runs_out_raises_knightsat_error():
    with pytest.raises(ks.KnightsatError, match="time limit"):
        ks.count(ks.Problem(6), method="sat", timeout=0.2)


def test_the_errors_are_exceptions_of_their_own():
    assert issubclass(ks.KnightsatError, Exception)
    assert not issubclass(ks.KnightsatError, ValueError)


def test_counts_past_128_bits_are_exact_ints():
    # 3x100 has more closed tours than 2**128: each of the 300 squares
    # starts as many as a1 does, so the two counts must differ by that
    # factor exactly (no rounding, no wrap-around).
    from_a1 = ks.count(ks.Problem(3, 100, closed=True, start="a1"), method="frontier")
    every = ks.count(ks.Problem(3, 100, closed=True), method="frontier")
    assert isinstance(every, int) and every > 2**128
    assert every == 300 * from_a1
