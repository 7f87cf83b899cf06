"""Clauses from knightsat, solved by PySAT's solvers, decoded and verified."""

import pytest
from pysat.formula import CNF
from pysat.solvers import Solver

import knightsat as ks

SOLVERS = ["glucose4", "cadical153", "minisat22"]

PROBLEMS = [
    ks.Problem(5),
    ks.Problem(6, closed=True),
    ks.Problem(3, 4),
    ks.Problem(5, start="c3"),
    ks.Problem(6, 6, holes=["a1"], start="b1"),
    ks.Problem(5, clues={1: "a1", 25: "e5"}),
    ks.Problem(4, 5, leaper=(1, 2), end="a1"),
]


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("encoding", ["time-indexed", "successor"])
@pytest.mark.parametrize("problem", PROBLEMS, ids=repr)
def test_a_pysat_model_decodes_to_a_verified_tour(solver, encoding, problem):
    formula = ks.encode(problem, encoding=encoding)
    with Solver(name=solver, bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        tour = formula.decode(sat.get_model())
    assert len(tour) == problem.squares
    assert len(set(tour)) == len(tour)
    ks.verify(tour, problem)
    if problem.start:
        assert tour[0] == problem.start
    for move, square in problem.clues.items():
        assert tour[move - 1] == square


def test_cnf_takes_the_clauses_and_nvars_covers_them():
    formula = ks.encode(ks.Problem(5))
    cnf = CNF(from_clauses=formula.clauses)
    assert cnf.nv <= formula.nvars
    assert max(abs(lit) for clause in formula.clauses for lit in clause) <= formula.nvars
    assert len(cnf.clauses) == len(formula.clauses)


def test_a_board_without_tours_is_unsatisfiable():
    formula = ks.encode(ks.Problem(4))
    with Solver(name="glucose4", bootstrap_with=formula.clauses) as sat:
        assert not sat.solve()


def test_the_var_map_names_the_tour():
    problem = ks.Problem(5)
    formula = ks.encode(problem)
    with Solver(name="cadical153", bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        model = set(lit for lit in sat.get_model() if lit > 0)
        tour = formula.decode(sat.get_model())
    for move, square in enumerate(tour, start=1):
        assert formula.var_map[(move, square)] in model
    assert all(1 <= var <= formula.primary_vars for var in formula.var_map.values())


def test_the_successor_var_map_names_the_moves():
    problem = ks.Problem(3, 4)
    formula = ks.encode(problem, encoding="successor")
    with Solver(name="glucose4", bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        model = set(lit for lit in sat.get_model() if lit > 0)
        tour = formula.decode(sat.get_model())
    for here, there in zip(tour, tour[1:]):
        assert formula.var_map[(here, there)] in model
    assert formula.var_map[("first", tour[0])] in model
    assert formula.var_map[("last", tour[-1])] in model


def test_a_model_as_a_dict_decodes_too():
    formula = ks.encode(ks.Problem(5))
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as sat:
        sat.solve()
        model = sat.get_model()
    as_dict = {abs(lit): lit > 0 for lit in model}
    assert formula.decode(as_dict) == ks.decode(formula, model)


def pysat_tours(problem, encoding="time-indexed", solver="glucose4"):
    """Every tour as a model of the formula kept whole (`every_tour`),
    each blocked once found; no tour is found twice."""
    formula = ks.encode(problem, encoding=encoding, every_tour=True)
    found = set()
    with Solver(name=solver, bootstrap_with=formula.clauses) as sat:
        while sat.solve():
            tour = formula.decode(sat.get_model())
            assert tuple(tour) not in found
            found.add(tuple(tour))
            sat.add_clause(formula.block(tour))
    return found


def pysat_count(problem, encoding="time-indexed", solver="glucose4"):
    """How many tours `pysat_tours` lists."""
    return len(pysat_tours(problem, encoding, solver))


@pytest.mark.parametrize(
    "problem",
    [ks.Problem(3, 4), ks.Problem(5, start="a1"), ks.Problem(4, 5, end="d4"), ks.Problem(3, 3)],
    ids=repr,
)
@pytest.mark.parametrize("encoding", ["time-indexed", "successor"])
def test_pysat_counts_the_tours_the_library_counts(problem, encoding):
    assert pysat_count(problem, encoding) == ks.count(problem)


@pytest.mark.parametrize("encoding", ["time-indexed", "successor"])
def test_block_refuses_what_is_not_a_tour_of_the_problem(encoding):
    problem = ks.Problem(5, start="a1")
    formula = ks.encode(problem, encoding=encoding, every_tour=True)
    # The squares in board order: no knight moves; before the fix the
    # successor encoding blocked two real moves with it.
    with pytest.raises(ValueError, match="not a tour of this problem"):
        formula.block(problem.square_names())
    # A real tour of another start is no tour of this problem either.
    other = ks.solve(ks.Problem(5, start="c3"))
    with pytest.raises(ValueError, match="not a tour of this problem"):
        formula.block(other)
    with pytest.raises(ValueError, match="not a tour of this problem"):
        formula.block(["a1"])
    # What the refused clause would have removed: enumerating with it
    # found 248 tours, not the 304 from a1.
    assert pysat_count(problem, encoding) == 304


@pytest.mark.parametrize("encoding", ["time-indexed", "successor"])
def test_decode_refuses_a_variable_given_both_values(encoding):
    formula = ks.encode(ks.Problem(5), encoding=encoding)
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        model = sat.get_model()
    positive = next(lit for lit in model if lit > 0)
    for contradictory in (model + [-positive], [-positive] + model):
        with pytest.raises(ValueError, match=f"variable {positive} is given both values"):
            formula.decode(contradictory)
        with pytest.raises(ValueError, match="both values"):
            ks.decode(formula, contradictory)


def test_decode_names_what_is_wrong_with_a_model():
    formula = ks.encode(ks.Problem(5))
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as sat:
        assert sat.solve()
        model = sat.get_model()
    for bad, says in [
        (model + [10**30], "not a variable's number"),
        (model + [formula.nvars + 1], "names no variable"),
        ({-3: True}, "-3 names no variable"),
        ({3: "yes"}, "not True or False"),
        ({"a1": True}, "not a variable's number"),
        (model + ["x"], "not a variable's number"),
        (model + [True], "a bool"),
        (42, "a list of DIMACS literals"),
    ]:
        with pytest.raises(ValueError, match=says):
            formula.decode(bad)
